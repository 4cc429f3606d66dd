// The play page: a whole game in the browser, through the public API alone (api.js).
//
// The loop (advance): /legal-moves with texts says whose turn it is and every legal step in words. The computer's
// seat asks /suggest and applies what it chose one step at a time, at the pace chosen, each step drawn on the
// picture before it is applied (/picture with `moves`) and said in words (the events' `text`). A person's seat sees
// only its /view: around one phone, where the game hides something from the others (the views of two seats
// differ), the phone is passed first ("Pass the phone to Bea"). The person points at the board, where the game has a
// board module (its editor's drawing, board.js: the legal steps lit, everything else refused before it is sent), or
// picks a step from the list in words, which every game has too. Then /apply; a step the service refuses shows its
// rule and sentence. At the end, /score: the verdict and its explanation (the game's editor draws the breakdown
// as on the scoring page).
//
// The link holds the game: #<game>/<seats>:<record>, the seats one word each (seats.js) and the record
// {"state", "moves"} as the replay page takes it (record.js), so that the game can be resumed (/replay gives every
// state again), sent, or opened on /referee/replay. Against the computer a person may undo their last step.

import {announcer, copyText, el, redraw, reveal, scrollCues, svgNode} from "../../referee/assets/page.js";
import {editorWords, keepingLanguage, pickerFollows, words} from "../../referee/assets/words.js";
import {decodeRecord, encodeRecord} from "../../referee/assets/record.js";
import {api, listGames} from "./api.js";
import {BUDGETS, DEFAULT_BUDGET, computer, isPerson, person, seatCode, seatOf} from "./seats.js";

const {t, tn, tp} = words;
const $ = (id) => document.getElementById(id);
const ui = {
  setup: $("setup"), form: $("setup-form"), game: $("game"), variants: $("variants"), variantList: $("variant-list"),
  players: $("players"), seats: $("seats"), pace: $("pace"), problems: $("problems"),
  pass: $("pass"), passTitle: $("pass-title"), passReady: $("pass-ready"), skip: $("skip-board"),
  table: $("table"), turn: $("turn"), hint: $("hint"), undo: $("undo"), share: $("share"), replayLink: $("replay-link"),
  again: $("again"), hintSaid: $("hint-said"), board: $("board"), caption: $("caption"), refused: $("refused"),
  choices: $("choices"), choicesHelp: $("choices-help"), narrowed: $("narrowed"), everyStep: $("every-step"),
  steps: $("steps"), result: $("result"), verdict: $("verdict"), scores: $("scores"), breakdown: $("score-breakdown"),
  log: $("log"), announce: $("announce"),
};
const announce = announcer(ui.announce);
const touch = () => window.matchMedia("(hover: none) and (pointer: coarse)").matches;
const HINT_BUDGET = 1000;
const wait = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

let games = [];    // every game: /v1/games (players, variants) with referee/games.json (picture, editor, board)
let table = null;  // the game being played (start, resume)
let serial = 0;    // the turn's serial: an answer for an older turn (after Undo, a new game) is dropped

// ------------------------------------------------------------ the table: a new game, or one resumed from a link

async function loadGames() {
  const [listed, pages] = await Promise.all([
    listGames(), fetch("referee/games.json").then((response) => response.json())]);
  const extra = new Map(pages.games.map((game) => [game.id, game]));
  return listed.map((game) => ({...extra.get(game.id), ...game}));
}

function drawSetup() {
  ui.game.replaceChildren(...games.map((game) => el("option", {value: game.id, text: game.title})));
  ui.game.addEventListener("change", drawGameOptions);
  ui.players.addEventListener("change", drawSeats);
  drawGameOptions();
}

const chosenGame = () => games.find((game) => game.id === ui.game.value) || games[0];

function drawGameOptions() {
  const game = chosenGame();
  ui.variantList.replaceChildren(...game.variants.map((variant) => el("label", {class: "check"}, [
    el("input", {type: "checkbox", name: "variant", value: variant.name}), " " + variant.description])));
  ui.variants.hidden = !game.variants.length;
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  ui.players.replaceChildren(...counts.map((n) => el("option", {value: String(n), text: String(n)})));
  ui.players.disabled = counts.length === 1;
  drawSeats();
}

function drawSeats() {
  const count = Number(ui.players.value);
  const before = [...ui.seats.children].map(readSeat);
  const rows = [];
  for (let i = 0; i < count; i++) {
    const kept = before[i];
    rows.push(seatRow(i, kept ? kept.name : t("Player {number}", {number: i + 1}),
                      kept ? kept.seat : (i === 0 ? person() : computer())));
  }
  ui.seats.replaceChildren(...rows);
}

function seatRow(i, name, seat) {
  const who = el("select", {class: "who", "aria-label": t("Seat {number}: who plays", {number: i + 1})}, [
    el("option", {value: "person", text: t("a person")}),
    el("option", {value: "random", text: t("the computer, at random")}),
    el("option", {value: "greedy", text: t("the computer, greedy")}),
    el("option", {value: "mcts", text: t("the computer, searching (MCTS)")}),
  ]);
  who.value = isPerson(seat) ? "person" : seat.level;
  const budget = el("select", {class: "budget", "aria-label": t("Seat {number}: how long the computer thinks",
                                                                 {number: i + 1})},
    BUDGETS.map((ms) => el("option", {value: String(ms), text: t("{seconds} s a step", {seconds: ms / 1000})})));
  budget.value = String(seat.budget || DEFAULT_BUDGET);
  budget.hidden = who.value !== "mcts";
  who.addEventListener("change", () => { budget.hidden = who.value !== "mcts"; });
  return el("li", {class: "seat"}, [
    el("input", {class: "name", type: "text", value: name, maxlength: "40", required: true,
                 "aria-label": t("Seat {number}: name", {number: i + 1})}),
    who, budget]);
}

function readSeat(row) {
  const name = row.querySelector(".name").value.trim();
  const level = row.querySelector(".who").value;
  const budget = Number(row.querySelector(".budget").value);
  return {name, seat: level === "person" ? person() : computer(level, budget)};
}

async function start(event) {
  event.preventDefault();
  const game = chosenGame();
  const rows = [...ui.seats.children].map(readSeat);
  const variant = Object.fromEntries([...ui.variantList.querySelectorAll("input:checked")]
    .map((box) => [box.value, true]));
  hideProblems();
  const dealt = await api(game.id).deal(rows.map((row, i) => row.name || t("Player {number}", {number: i + 1})),
                                        variant);
  if (!dealt.ok) return showProblems(dealt);
  await begin(game, rows.map((row) => row.seat), {state: dealt.body.state, moves: []}, [dealt.body.state]);
}

// A table: the game, its seats, the record and the state after each of its steps
async function begin(game, seats, record, states, events = []) {
  const calls = api(game.id);
  const persons = seats.map((seat, i) => (isPerson(seat) ? i : null)).filter((i) => i !== null);
  table = {game, calls, seats, record, states, actors: states.slice(0, -1).map(toAct),
           holder: persons.length === 1 ? persons[0] : null, // who holds the phone: whose view is shown
           pace: Number(ui.pace.value), board: null, secret: false};
  table.secret = await hidesSomething(table);
  table.board = await boardOf(game);
  document.title = t("{game} — play", {game: game.title});
  ui.setup.hidden = true;
  ui.table.hidden = false;
  ui.result.hidden = true;
  ui.refused.hidden = true;
  await retell(table.secret ? null : events);
  await writeLink();
  advance();
}

// Whether the game hides something from the other seats (the views of two seats differ): then a person is told
// only what their seat may know, and around one phone the phone is passed
function hidesSomething({calls, states, seats}) {
  if (!seats.some(isPerson)) return Promise.resolve(false);
  const state = states[states.length - 1];
  return Promise.all([calls.view(state, 0), calls.view(state, 1)])
    .then(([a, b]) => !a.ok || !b.ok || !same(a.body.state, b.body.state));
}

// Whose turn a state says it is (every game's state has `turn`; one with `to_act` names who answers a reaction)
function toAct(state) {
  return state && "to_act" in state && state.to_act !== null ? state.to_act : state.turn;
}

// ------------------------------------------------------------ the loop

async function advance() {
  const mine = ++serial;
  const {calls, seats} = table;
  const state = current();
  ui.hintSaid.hidden = true;
  const legal = await calls.legalMoves(state);
  if (mine !== serial) return;
  if (!legal.ok) return showRefused(legal.body);
  if (legal.body.to_act === null || !legal.body.moves.length) return finish(mine);
  const seat = legal.body.to_act;
  const names = state.players.map((player) => player.name);
  table.names = names;
  if (isPerson(seats[seat])) return personTurn(mine, seat, legal.body);
  return computerTurn(mine, seat);
}

const current = () => table.states[table.states.length - 1];

async function computerTurn(mine, seat) {
  const {calls, seats} = table;
  const level = seats[seat].level;
  showTurn(t("{player} is thinking…", {player: table.names[seat]}), false);
  ui.board.inert = true;
  drawChoices(null);
  const suggested = await calls.suggest(current(), level, seats[seat].budget);
  if (mine !== serial) return;
  if (!suggested.ok) return showRefused(suggested.body);
  for (const step of suggested.body.moves) {
    if (table.pace) {
      await drawPicture(step);  // the step drawn where it is made, before it is made
      if (mine !== serial) return;
      await wait(table.pace);
      if (mine !== serial) return;
    }
    if (!(await play(step, seat, mine))) return;
  }
  advance();
}

async function personTurn(mine, seat, legal) {
  const {names} = table;
  if (table.secret && table.holder !== seat) {
    await passPhone(seat, mine);
    if (mine !== serial) return;
    table.holder = seat;
    await retell();  // what happened, as this seat was told it
    if (mine !== serial) return;
  }
  table.holder = seat;
  showTurn(t("Your turn, {player}", {player: names[seat]}), true);
  const seen = await table.calls.view(current(), seat);
  if (mine !== serial) return;
  if (!seen.ok) return showRefused(seen.body);
  const offer = {steps: legal.moves, texts: legal.texts, seat, view: seen.body.state, names};
  table.offer = offer;
  ui.board.inert = false;
  if (table.board) {
    await table.board.show({...offer, pick: (indices) => picked(indices, mine)});
    if (mine !== serial) return;
    ui.caption.textContent = t("Point at the board, or choose a step below.");
  } else {
    await drawPicture(null, seen.body.state);
    ui.caption.textContent = t("Choose a step below.");
  }
  drawChoices(offer);
  ui.skip.hidden = false;
  document.documentElement.dataset.turn = "person";
  document.documentElement.dataset.seat = String(seat);
  announce(t("Your turn, {player}", {player: names[seat]}));
}

// The board narrowed the steps to these (what the person pointed at): one is played; several are listed to choose
function picked(indices, mine) {
  if (mine !== serial || !table.offer) return;
  if (indices.length === 1) return chooseStep(indices[0]);
  drawChoices(table.offer, indices);
  reveal($("choices-title"));
}

async function chooseStep(index) {
  const mine = serial;
  const offer = table.offer;
  if (!offer || !offer.steps[index]) return;
  table.offer = null;
  ui.refused.hidden = true; // a refusal stays until another step is sent
  ui.board.inert = true; // nothing on it may be chosen until the next turn draws it again
  document.documentElement.dataset.turn = "playing";
  drawChoices(null);
  if (await play(offer.steps[index], offer.seat, mine)) advance();
}

// One step applied: the record and the states grow, its events are said; false when the service refused it
async function play(step, seat, mine) {
  const answer = await table.calls.apply(current(), [step], toldTo());
  if (mine !== serial) return false;
  if (!answer.ok || !answer.body.legal) {
    showRefused(answer.body);
    if (isPerson(table.seats[seat])) advance();  // the same turn again, its steps offered again
    return false;
  }
  table.record.moves.push(step);
  table.states.push(answer.body.state);
  table.actors.push(seat);
  for (const event of answer.body.events) logEvent(event);
  const said = answer.body.events.map((event) => event.text).join(" ");
  if (said) announce(said);
  await writeLink();
  return true;
}

async function finish(mine) {
  showTurn(t("The game is over."), false);
  drawChoices(null);
  ui.hint.hidden = true;
  ui.undo.hidden = true;
  await drawPicture(null, current());
  const scored = await table.calls.score(current());
  if (mine !== serial) return;
  if (!scored.ok) return showRefused(scored.body);
  ui.result.hidden = false;
  const verdict = await explainScore(scored.body);
  ui.verdict.textContent = verdict;
  ui.caption.textContent = t("The table at the end of the game.");
  document.documentElement.dataset.over = "true";
  announce(verdict);
  reveal(ui.result);
}

// ------------------------------------------------------------ what is shown

function showTurn(text, personal) {
  ui.turn.textContent = text;
  ui.hint.hidden = !personal;
  // undo against the computer only: with another person at the table, a step once made stays made
  ui.undo.hidden = !(personal && table.seats.filter(isPerson).length === 1 && lastOwnStep() !== null);
  document.documentElement.dataset.turn = personal ? "drawing" : "computer"; // "person" once the board is drawn
  delete document.documentElement.dataset.over;
}

// The picture of what the seat holding the phone may see (everything when the game hides nothing, or when only
// the computer plays), with a proposed step drawn on it
async function drawPicture(step, shown) {
  if (!table.game.picture) return;
  let state = shown;
  if (!state && !table.secret) state = current();
  if (!state) {
    if (table.holder === null) return; // a game that hides something, and nobody holds the phone yet
    const seen = await table.calls.view(current(), table.holder);
    if (!seen.ok) return;
    state = seen.body.state;
  }
  let answer = await table.calls.picture(state, step ? [step] : null);
  if (!answer.ok && step) answer = await table.calls.picture(state, null); // a step its view cannot show
  if (!answer.ok) return;
  const node = svgNode(answer.body.svg);
  if (node) ui.board.replaceChildren(node);
  if (step) ui.caption.textContent = t("The computer's step, drawn where it is made.");
}

// The legal steps in words (all of them, or those the board narrowed them to), each a button
function drawChoices(offer, only) {
  ui.choices.hidden = !offer;
  ui.skip.hidden = !offer;
  if (!offer) { ui.steps.replaceChildren(); return; }
  const shown = only || offer.steps.map((_, i) => i);
  ui.narrowed.hidden = !only;
  ui.choicesHelp.textContent = only
    ? tn("What you pointed at allows {count} step: choose it.", "What you pointed at allows {count} steps: choose one.",
         only.length)
    : tn("{count} legal step.", "{count} legal steps.", offer.steps.length);
  ui.steps.replaceChildren(...shown.map((i) => el("li", {}, [
    el("button", {type: "button", class: "step", dataset: {index: String(i)}, text: offer.texts[i] ||
      // a step whose events wait on another player's answer says nothing yet
      t("A “{step}” step: what it brings waits on the other player's answer.", {step: offer.steps[i].type})})])));
}

function logEvent(event) {
  if (!event.text) return;
  ui.log.prepend(el("li", {text: event.text}));
}

// The player the events are told to: the one holding the phone, where the game hides something
const toldTo = () => (table.secret && table.holder !== null ? table.holder : null);

// The whole game's events again, as the player holding the phone was told them (/replay with `player`), or those
// given; nothing while nobody holds the phone of a game that hides something
async function retell(events) {
  let told = events;
  if (!told) {
    told = [];
    if (table.record.moves.length && !(table.secret && table.holder === null)) {
      const answer = await table.calls.replay(table.record, toldTo());
      if (answer.ok) told = answer.body.events;
    }
  }
  ui.log.replaceChildren();
  for (const event of told) logEvent(event);
}

function showRefused(problem) {
  const body = problem || {};
  const found = body.violations && body.violations.length ? body.violations : body.errors || [];
  const lines = found.length ? found : [{message: body.detail || body.title ||
                                          t("Could not reach the referee service. Is it running?")}];
  ui.refused.replaceChildren(el("h3", {text: t("The referee refused it")}), el("ul", {}, lines.map((line) =>
    el("li", {}, [line.message, line.rule ? el("span", {class: "rule", text: line.rule}) : null]))));
  ui.refused.hidden = false;
  reveal(ui.refused);
}

function showProblems(answer) {
  const body = answer.body || {};
  const lines = body.errors && body.errors.length ? body.errors.map((error) => error.message)
    : [body.detail || t("Could not reach the referee service. Is it running?")];
  ui.problems.replaceChildren(el("ul", {}, lines.map((line) => el("li", {text: line}))));
  ui.problems.hidden = false;
  reveal(ui.problems);
}

const hideProblems = () => { ui.problems.hidden = true; };

// The pass-the-phone screen: nothing of the table shows until the seat's player says they hold the phone
function passPhone(seat, mine) {
  const name = table.names[seat];
  ui.table.hidden = true;
  ui.pass.hidden = false;
  ui.passTitle.textContent = t("Pass the phone to {player}", {player: name});
  ui.passReady.textContent = t("I am {player}: show my hand", {player: name});
  document.documentElement.dataset.turn = "pass";
  announce(ui.passTitle.textContent); // (and nothing the last seat was told stays in the live region)
  reveal(ui.pass);
  return new Promise((resolve) => {
    ui.passReady.onclick = () => {
      ui.passReady.onclick = null;
      ui.pass.hidden = true;
      ui.table.hidden = false;
      if (mine === serial) ui.turn.focus();
      resolve();
    };
  });
}

// The game's editor explains the score as on the scoring page; its verdict, one sentence
async function explainScore(score) {
  const names = table.names;
  const winners = score.winners || (score.winner === null || score.winner === undefined ? [] : [score.winner]);
  ui.scores.replaceChildren(el("ul", {}, score.players.map((player, i) => el("li", {
    class: winners.includes(i) ? "leads" : ""}, [el("strong", {text: player.name || names[i]}),
    " " + ("total" in player ? tn("{count} point", "{count} points", player.total)
           : tn("{count} tower", "{count} towers", player.towers))]))));
  ui.breakdown.replaceChildren();
  const editor = await editorOf(table.game);
  if (editor) return editor.showScore(score, ui.breakdown);
  const won = winners.map((i) => names[i]);
  return won.length === 1 ? t("{player} wins.", {player: won[0]})
    : t("{players} share the win.", {players: words.list(won)});
}

// ------------------------------------------------------------ the game's own modules: its board, its editor

async function boardOf(game) {
  // the game's editor's sheet: its board and its score's breakdown are drawn as on the scoring page
  const style = $("game-style");
  if (game.style) style.href = game.style; else style.removeAttribute("href");
  if (!game.board) return null;
  const url = new URL(game.board, document.baseURI).href;
  const [module, said] = await Promise.all([import(url), editorWords(url)]);
  // the board's context: where it draws, the page's helpers, its words (its folder's catalogue), and the game's
  // picture of a state (the SVG text, or null), for a board drawn on the picture
  const picture = async (state) => {
    const answer = await api(game.id).picture(state, null);
    return answer.ok ? answer.body.svg : null;
  };
  return module.createBoard({root: ui.board, el, svgNode, picture, t: said.t, tn: said.tn, tp: said.tp,
                             parts: said.parts, list: said.list, number: said.number, lang: said.lang, touch,
                             announce});
}

async function editorOf(game) {
  if (!game.editor) return null;
  const url = new URL(game.editor, document.baseURI).href;
  try {
    const [module, said] = await Promise.all([import(url), editorWords(url)]);
    const root = el("div");
    return module.create({root, game, el, changed: () => {}, announce: () => {}, svgNode, redraw,
                          t: said.t, tn: said.tn, tp: said.tp, parts: said.parts, list: said.list,
                          number: said.number, lang: said.lang, touch});
  } catch (e) {
    return null;
  }
}

// ------------------------------------------------------------ undo, hint

// The index in the record of the person's last step; null if none
function lastOwnStep() {
  for (let i = table.actors.length - 1; i >= 0; i--) {
    if (isPerson(table.seats[table.actors[i]])) return i;
  }
  return null;
}

async function undo() {
  const from = lastOwnStep();
  if (from === null) return;
  serial++;
  table.record.moves.length = from;
  table.states.length = from + 1;
  table.actors.length = from;
  await retell();
  ui.log.prepend(el("li", {class: "undone", text: t("Your last step is undone.")}));
  announce(t("Your last step is undone."));
  await writeLink();
  advance();
}

async function hint() {
  const offer = table.offer;
  if (!offer) return;
  const mine = serial;
  ui.hint.disabled = true;
  const suggested = await table.calls.suggest(current(), "mcts", HINT_BUDGET);
  ui.hint.disabled = false;
  if (mine !== serial || table.offer !== offer || !suggested.ok) return;
  const index = offer.steps.findIndex((step) => same(step, suggested.body.moves[0]));
  if (index < 0) return;
  ui.hintSaid.textContent = t("The computer would: {step}", {step: offer.texts[index]});
  ui.hintSaid.hidden = false;
  for (const button of ui.steps.querySelectorAll("button.step")) {
    button.classList.toggle("hinted", Number(button.dataset.index) === index);
  }
  announce(ui.hintSaid.textContent);
}

// ------------------------------------------------------------ the link

async function writeLink() {
  const text = await encodeRecord(table.record);
  const fragment = "#" + table.game.id + "/" + table.seats.map(seatCode).join(",") + ":" + text;
  history.replaceState(null, "", fragment);
  document.documentElement.dataset.steps = String(table.record.moves.length); // the steps played, for a test
  ui.replayLink.href = keepingLanguage("referee/replay#" + table.game.id + "/" + table.record.moves.length + ":" + text);
  pickerFollows();
}

async function resume() {
  const match = /^#([a-z0-9_-]+)\/([a-z0-9,-]+):([zj][A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return false;
  const game = games.find((g) => g.id === match[1]);
  const seats = match[2].split(",").map(seatOf);
  const record = await decodeRecord(match[3]);
  if (!game || seats.includes(null) || !record || !record.state || !Array.isArray(record.moves)) {
    showProblems({body: {detail: t("This link holds no game that can be resumed.")}});
    return false;
  }
  const replayed = await api(game.id).replay(record);
  // /replay gives the state after each step: with the start, the state before each step and the current one
  if (!replayed.ok || !replayed.body.legal || replayed.body.states.length !== record.moves.length ||
      seats.length !== record.state.players.length) {
    showProblems(replayed.ok ? {body: {detail: t("This link holds no game that can be resumed.")}} : replayed);
    return false;
  }
  await begin(game, seats, record, [record.state, ...replayed.body.states], replayed.body.events);
  return true;
}

// ------------------------------------------------------------ wiring

ui.form.addEventListener("submit", start);
ui.steps.addEventListener("click", (event) => {
  const button = event.target.closest("button.step");
  if (button) chooseStep(Number(button.dataset.index));
});
ui.everyStep.addEventListener("click", () => drawChoices(table.offer));
ui.undo.addEventListener("click", undo);
ui.hint.addEventListener("click", hint);
ui.share.addEventListener("click", async () => {
  const done = await copyText(location.href);
  announce(done ? t("The link to this game is copied.") : t("The link to this game is in the address bar."));
});
ui.again.addEventListener("click", () => {
  serial++;
  table = null;
  history.replaceState(null, "", location.pathname + location.search);
  pickerFollows();
  ui.table.hidden = true;
  ui.pass.hidden = true;
  ui.setup.hidden = false;
  delete document.documentElement.dataset.over;
  reveal($("setup-title"));
});

(async function main() {
  try {
    games = await loadGames();
  } catch (e) {
    showProblems({body: null});
    return;
  }
  drawSetup();
  // a board wider than the screen says so (its edges fade, a hint above it), as on the scoring page
  scrollCues(ui.board, () => t("The board goes on beyond its edges: swipe or scroll it to see the rest."));
  const named = /^#([a-z0-9_-]+)$/.exec(location.hash); // a link to one game's table: its setup
  if (named && games.some((game) => game.id === named[1])) {
    ui.game.value = named[1];
    drawGameOptions();
  }
  await resume();
  document.documentElement.dataset.ready = "true";
})();

