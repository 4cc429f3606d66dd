// The replay page: a disputed game's record ({"state", "moves"}) is sent to /replay once; every state after every
// step comes back with that one answer, so stepping never waits on the network. What is fetched per step shown (the
// picture, the score) is fetched once, a moment after the step settles, and kept. The first illegal step is marked
// in the list and explained: the rule (from the catalogue), the service's sentence, and the steps that were open
// (/legal-moves). The link holds the record and the step: #<game>/<step>:<record>, the record deflated and in
// base64url ("z…"), or plain JSON in base64url ("j…") where the browser cannot deflate. No framework, no build
// step, nothing from another origin. The page speaks the language the server chose (<html lang>): its words are in
// the page (words.js), every call to the API says the language (Accept-Language: events, violations, rules come back
// in it), and the link keeps `?lang=` when the page's address has it.

import {announcer, copyText, el, svgNode} from "../../assets/page.js"; // the scoring page's: /referee/assets/
import {keepingLanguage, pickerFollows, spoken, words} from "../../assets/words.js";

const {t, tn, tp, parts} = words;

const $ = (id) => document.getElementById(id);
const ui = {
  record: $("record"), replay: $("replay"), file: $("file"), share: $("share"), problems: $("problems"),
  verdict: $("verdict"), stage: $("stage"), first: $("first"), previous: $("previous"), slider: $("slider"),
  next: $("next"), last: $("last"), position: $("position"), turn: $("turn"), happened: $("happened"),
  ruling: $("ruling"), scores: $("scores"), picture: $("picture"), caption: $("caption"), steps: $("steps"),
  announce: $("announce"), rules: $("rules-link"),
};
const SETTLE_MS = 120; // a step shown this long gets its picture and score: holding an arrow key fetches nothing

const announce = announcer(ui.announce);
let games = [];           // from referee/games.json: id, title, picture
const catalogues = {};    // game id -> Map(rule id -> rule)
let game = null;          // the replayed game: {info, record, answer, names, last, failedAt, events}
let position = 0;         // 0: the start; k: after move k; failedAt + 1: the illegal move
let settleTimer = null;

// ------------------------------------------------------------ small helpers

const api = (gameId, path) => "../v1/games/" + gameId + "/" + path; // relative: works wherever the service is mounted

async function post(gameId, path, body, accept) {
  const response = await fetch(api(gameId, path), {
    method: "POST", headers: spoken({"Content-Type": "application/json", "Accept": accept || "application/json"}),
    body: JSON.stringify(body),
  });
  if (accept === "image/svg+xml") return {ok: response.ok, status: response.status, body: await response.text()};
  let answer = null;
  try { answer = await response.json(); } catch (e) { answer = null; }
  return {ok: response.ok, status: response.status, body: answer};
}

// A move as typed in a record, compactly: "place tile BA/RFr, at [1, 0], rotation 90"
function describe(move) {
  const facts = Object.entries(move).filter(([key]) => key !== "type").map(([key, value]) => {
    if (Array.isArray(value)) {
      value = value.length === 2 && value.every(Number.isInteger) ? "[" + value.join(", ") + "]" : value.join(" ");
    }
    return key + " " + value;
  });
  return move.type.replace(/_/g, " ") + (facts.length ? " " + facts.join(", ") : "");
}

// Whose turn a state says it is; null once the game is over (every game's state has `turn`; a state with `to_act` names
// who answers a reaction)
function toAct(state) {
  if (!state || state.phase === "over" || state.step === "over") return null;
  return "to_act" in state ? state.to_act : state.turn;
}

// ------------------------------------------------------------ the link

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

async function encodeRecord(record) {
  const bytes = new TextEncoder().encode(JSON.stringify(record));
  if (typeof CompressionStream === "function") {
    return "z" + toBase64Url(await through(new CompressionStream("deflate-raw"), bytes));
  }
  return "j" + toBase64Url(bytes);
}

async function decodeRecord(text) {
  try {
    let bytes = fromBase64Url(text.slice(1));
    if (text[0] === "z") bytes = await through(new DecompressionStream("deflate-raw"), bytes);
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    return undefined;
  }
}

let encoded = null; // {record, text}: the record's part of the link, made once per record

async function updateLink() {
  if (!game) return;
  if (!encoded || encoded.record !== game.record) {
    encoded = {record: game.record, text: await encodeRecord(game.record)};
  }
  const fragment = "#" + game.info.id + "/" + position + ":" + encoded.text;
  if (location.hash !== fragment) history.replaceState(null, "", fragment);
  pickerFollows();
}

function readFragment() {
  const match = /^#([a-z0-9_-]+)\/(\d+):([zj][A-Za-z0-9_-]+)$/.exec(location.hash);
  return match ? {game: match[1], position: Number(match[2]), payload: match[3]} : null;
}

// ------------------------------------------------------------ loading a record

function showProblems(title, errors) {
  ui.problems.replaceChildren(el("h3", {text: title}), el("ul", {}, errors.map((error) => el("li", {}, [
    error.message, error.rule ? el("span", {class: "rule", text: error.rule}) : null,
    error.pointer ? el("code", {class: "pointer", text: error.pointer}) : null,
  ]))));
  ui.problems.hidden = false;
}

async function catalogue(gameId) {
  if (!catalogues[gameId]) {
    const response = await fetch(api(gameId, "rules"), {headers: spoken({"Accept": "application/json"})});
    const answer = await response.json();
    catalogues[gameId] = new Map(answer.rules.map((rule) => [rule.id, rule]));
  }
  return catalogues[gameId];
}

async function load(text, wanted) {
  document.documentElement.dataset.ready = "false";
  ui.problems.hidden = true;
  let record;
  try { record = JSON.parse(text); } catch (e) {
    showProblems(t("This is not JSON"), [{message: e.message}]);
    document.documentElement.dataset.ready = "true";
    return;
  }
  const shaped = record && typeof record === "object" && !Array.isArray(record) && record.state &&
    typeof record.state === "object" && Array.isArray(record.moves);
  const info = shaped && games.find((g) => g.id === record.state.game);
  if (!info) {
    showProblems(t("This is not a game record"), [{message: shaped
      ? t("The state names no game served here (its \"game\" is one of {games}).", {games: games.map((g) => g.id).join(", ")})
      : t("A record is an object {object}.", {object: "{\"state\": …, \"moves\": […]}"})}]);
    document.documentElement.dataset.ready = "true";
    return;
  }
  ui.replay.disabled = true;
  ui.replay.textContent = t("Replaying…");
  try {
    const [answer, rules] = await Promise.all([post(info.id, "replay", record), catalogue(info.id)]);
    if (!answer.ok) {
      const problem = answer.body || {};
      showProblems(answer.status === 422 ? t("The starting state cannot be real") : t("The service refused the record"),
                   problem.errors || [{message: problem.detail || t("Error {status}", {status: String(answer.status)})}]);
      ui.stage.hidden = true;
      ui.verdict.hidden = true;
      return;
    }
    start(info, record, answer.body, rules, wanted);
  } catch (e) {
    showProblems(t("Could not reach the referee service"), [{message: t("Is it running?")}]);
  } finally {
    ui.replay.disabled = false;
    ui.replay.textContent = tp("button", "Replay");
    document.documentElement.dataset.ready = "true";
  }
}

function start(info, record, answer, rules, wanted) {
  const failedAt = answer.failed_at;
  const events = record.moves.map(() => []);
  for (const event of answer.events) events[event.step].push(event);
  game = {
    info, record, answer, rules, failedAt, events,
    names: (record.state.players || []).map((player, i) => player.name || t("Player {number}", {number: i + 1})),
    last: failedAt === null ? record.moves.length : failedAt + 1,
    pictures: new Map(), scores: new Map(), legal: null,
  };
  document.documentElement.dataset.game = info.id;
  document.title = t("{game} — replay — the referee", {game: info.title});
  ui.rules.href = keepingLanguage("../v1/games/" + info.id + "/rules");
  drawVerdict();
  drawSteps();
  ui.slider.max = String(game.last);
  ui.stage.hidden = false;
  ui.share.hidden = false;
  const landing = failedAt === null ? game.last : failedAt + 1; // where the dispute is, or how it ended
  go(Number.isInteger(wanted) && wanted >= 0 && wanted <= game.last ? wanted : landing);
}

function drawVerdict() {
  const {failedAt, record, info, answer} = game;
  const moves = record.moves.length;
  ui.verdict.replaceChildren();
  if (failedAt === null) {
    ui.verdict.className = "verdict legal";
    ui.verdict.append(el("strong", {text: t("Every step is legal.")}),
                      " " + tn("{game}: {count} step, replayed to the end.", "{game}: {count} steps, replayed to the end.",
                               moves, {game: info.title}));
  } else {
    const violation = answer.violations[0] || {};
    ui.verdict.className = "verdict illegal";
    // Translators: {verdict} is "Step 4 of 12 breaks a rule", {rule} the rule's id (T-BUILD-2), {message} the
    // service's sentence
    ui.verdict.append(...parts(t("{verdict} ({rule}): {message}"), {
      verdict: el("strong", {text: t("Step {number} of {count} breaks a rule", {number: failedAt + 1, count: moves})}),
      rule: el("span", {class: "rule-id", text: violation.rule || "?"}),
      message: violation.message || "",
    }), " ", el("button", {type: "button", class: "small", text: t("Show it"), on: {click: () => go(failedAt + 1)}}));
  }
  ui.verdict.hidden = false;
}

function actorOf(index) {
  const player = toAct(stateAt(index));
  return player === null || player === undefined ? "—" : game.names[player] || t("player {number}", {number: player});
}

function drawSteps() {
  const {record, failedAt, events} = game;
  const items = [el("li", {class: "step start", dataset: {position: "0"}, on: {click: () => go(0)}}, [
    el("span", {class: "number", text: "0"}),
    el("span", {class: "move", text: t("The start: {players}", {players: game.names.join(", ")})}),
  ])];
  record.moves.forEach((move, index) => {
    const illegal = index === failedAt;
    const unplayed = failedAt !== null && index > failedAt;
    const target = unplayed ? null : index + 1;
    const item = el("li", {
      class: "step" + (illegal ? " illegal" : "") + (unplayed ? " unplayed" : ""),
      dataset: {position: target === null ? "" : String(target)},
      on: target === null ? undefined : {click: () => go(target)},
    }, [
      el("span", {class: "number", text: String(index + 1)}),
      el("span", {class: "move"}, [
        unplayed ? null : el("span", {class: "actor", text: t("{player}:", {player: actorOf(index)}) + " "}), describe(move),
        illegal ? el("span", {class: "badge", text: "✗ " + (game.answer.violations[0] || {}).rule}) : null,
      ]),
      events[index].length ? el("span", {class: "said", text: events[index].map((e) => e.text).join(" ")}) : null,
    ]);
    items.push(item);
  });
  ui.steps.replaceChildren(...items);
}

// ------------------------------------------------------------ stepping

function stateAt(p) {
  if (p <= 0) return game.record.state;
  if (game.failedAt !== null && p > game.failedAt) return stateAt(game.failedAt); // the illegal move changes nothing
  return game.answer.states[p - 1];
}

function go(target) {
  if (!game) return;
  position = Math.max(0, Math.min(game.last, target));
  const {failedAt, record, names, events} = game;
  const illegal = failedAt !== null && position === failedAt + 1;
  ui.slider.value = String(position);
  ui.slider.setAttribute("aria-valuetext", position === 0 ? t("the start") : t("step {number}", {number: position}));
  ui.first.disabled = ui.previous.disabled = position === 0;
  ui.next.disabled = ui.last.disabled = position === game.last;
  document.documentElement.dataset.position = String(position);

  const state = stateAt(position);
  const player = toAct(state);
  const count = record.moves.length;
  ui.position.replaceChildren(position === 0 ? t("The start") : t("Step {number} of {count}", {number: position, count}),
                              illegal ? el("span", {class: "badge", text: t("illegal")}) : "");
  const actor = player === null ? null : names[player] || t("player {number}", {number: player});
  ui.turn.textContent = actor === null ? t("The game is over.")
    : illegal ? t("{player} to act (as before the refused step).", {player: actor}) : t("{player} to act.", {player: actor});

  let said;
  if (position === 0) {
    said = [el("p", {class: "quiet", text: t("Where the game started: the deal as the record gives it.")})];
  } else if (illegal) {
    said = [el("p", {}, [el("strong", {text: t("{player} tried:", {player: actorOf(failedAt)}) + " "}),
                         describe(record.moves[failedAt]) + "."])];
  } else {
    const move = record.moves[position - 1];
    said = [el("p", {class: "move-line"}, [el("strong", {text: t("{player}:", {player: actorOf(position - 1)}) + " "}),
                                           describe(move)]),
            el("ul", {class: "events"}, events[position - 1].map((event) => el("li", {text: event.text})))];
  }
  ui.happened.replaceChildren(...said);
  ui.ruling.hidden = !illegal;
  if (illegal) drawRuling();

  for (const item of ui.steps.querySelectorAll("li.current")) item.classList.remove("current");
  const item = ui.steps.querySelector('li[data-position="' + position + '"]');
  if (item) {
    item.classList.add("current");
    keepInView(item);
  }
  showCached();
  window.clearTimeout(settleTimer);
  settleTimer = window.setTimeout(settled, SETTLE_MS);
  updateLink();
  const first = illegal ? t("Illegal: {message}", {message: (game.answer.violations[0] || {}).message || ""})
    : position === 0 ? "" : events[position - 1].map((e) => e.text).join(" ");
  announce(position === 0 ? t("The start.") + first : t("Step {number} of {count}.", {number: position, count}) + " " + first);
}

// The current step is kept in the middle of the list when it leaves it (the page itself does not scroll)
function keepInView(item) {
  const list = ui.steps;
  const box = list.getBoundingClientRect();
  const row = item.getBoundingClientRect();
  if (row.top < box.top || row.bottom > box.bottom) {
    list.scrollTop += row.top - box.top - (list.clientHeight - row.height) / 2;
  }
}

function drawRuling() {
  const {failedAt, answer, rules} = game;
  const nodes = [el("h3", {text: t("Why step {number} is illegal", {number: failedAt + 1})})];
  for (const violation of answer.violations) {
    const rule = rules.get(violation.rule) || {};
    nodes.push(el("div", {class: "violation"}, [
      el("p", {class: "sentence"}, [el("span", {class: "rule-id", text: violation.rule}), " ", violation.message]),
      el("blockquote", {class: "rule-text"}, [
        el("span", {class: "rule-title", text: violation.rule + (rule.title ? " · " + rule.title : "") +
                                                 (rule.section ? " — " + rule.section : "")}),
        el("span", {text: rule.text || t("(not in the catalogue)")}),
      ]),
      el("p", {class: "where"}, parts(t("In the record at {pointer}"), {pointer: el("code", {text: violation.pointer})})),
    ]));
  }
  const open = el("div", {class: "open-steps", id: "open-steps"}, [el("p", {class: "quiet", text: t("Finding the legal steps…")})]);
  nodes.push(open);
  ui.ruling.replaceChildren(...nodes);
  drawLegal(open);
}

async function drawLegal(box) {
  const replayed = game;
  if (!replayed.legal) {
    const answer = await post(replayed.info.id, "legal-moves", {state: stateAt(replayed.failedAt)});
    replayed.legal = answer.ok ? answer.body.moves : [];
  }
  if (game !== replayed || !box.isConnected) return;
  const moves = replayed.legal;
  const player = actorOf(replayed.failedAt);
  const shown = 12;
  const list = (some) => el("ul", {class: "legal"}, some.map((move) => el("li", {}, el("code", {text: describe(move)}))));
  box.replaceChildren(...[
    el("h4", {text: moves.length ? tn("{player} could have made one of {count} legal step:",
                                      "{player} could have made one of {count} legal steps:", moves.length, {player})
                                 : t("No legal step was open.")}),
    list(moves.slice(0, shown)),
    moves.length > shown ? el("details", {}, [el("summary", {text: tn("and {count} more", "and {count} more",
                                                                      moves.length - shown)}),
                                             list(moves.slice(shown))]) : null,
  ].filter(Boolean));
}

// ------------------------------------------------------------ what is fetched per step shown, once

function showCached() {
  const svg = game.pictures.get(position);
  if (svg) {
    const node = svgNode(svg);
    ui.picture.replaceChildren(...(node ? [node] : []));
  }
  ui.picture.classList.toggle("stale", !svg);
  ui.caption.textContent = position === 0 ? t("The table at the start.") : t("The table after step {number}.",
    {number: Math.min(position, game.failedAt === null ? position : game.failedAt)});
  drawScores(game.scores.get(position));
}

async function settled() {
  const replayed = game;
  const shown = position;
  const state = stateAt(shown);
  const wanted = [];
  if (game.info.picture && !game.pictures.has(shown)) {
    wanted.push(post(game.info.id, "picture", {state}, "image/svg+xml").then((answer) => {
      if (answer.ok) replayed.pictures.set(shown, answer.body);
    }));
  }
  if (!game.scores.has(shown)) {
    wanted.push(post(game.info.id, "score", {state}).then((answer) => {
      if (answer.ok) replayed.scores.set(shown, answer.body);
    }));
  }
  if (!wanted.length) return;
  try { await Promise.all(wanted); } catch (e) { return; }
  if (game === replayed && position === shown) showCached();
}

function drawScores(score) {
  if (!score) {
    ui.scores.replaceChildren(el("span", {class: "quiet", text: t("Counting the score…")}));
    return;
  }
  const winners = score.winners || (score.winner === null || score.winner === undefined ? [] : [score.winner]);
  const chips = score.players.map((player, i) => {
    let points;
    if ("so_far" in player) {
      points = t("{track} on the track · {total} with the end scoring", {track: player.so_far, total: player.total});
    } else if ("total" in player) {
      points = tn("{count} point", "{count} points", player.total);
    } else {
      points = tn("{count} tower", "{count} towers", player.towers) + " · " + tn("{count} token", "{count} tokens", player.tokens);
    }
    // no colour swatch: each game's picture has its own colours for the players
    return el("span", {class: "chip" + (winners.includes(i) ? " leads" : "")}, [
      el("strong", {text: player.name}), " " + points]);
  });
  ui.scores.replaceChildren(el("span", {class: "label", text: t("Score here, counted as if the game ended now:")}),
                            ...chips);
}

// ------------------------------------------------------------ wiring

ui.replay.addEventListener("click", () => load(ui.record.value));
ui.file.addEventListener("change", async () => {
  const file = ui.file.files && ui.file.files[0];
  if (!file) return;
  ui.record.value = await file.text();
  load(ui.record.value);
});
ui.first.addEventListener("click", () => go(0));
ui.previous.addEventListener("click", () => go(position - 1));
ui.next.addEventListener("click", () => go(position + 1));
ui.last.addEventListener("click", () => go(game.last));
ui.slider.addEventListener("input", () => go(Number(ui.slider.value)));
ui.share.addEventListener("click", async () => {
  await updateLink();
  const done = await copyText(location.href);
  announce(done ? t("The link to this step is copied.") : t("The link to this step is in the address bar."));
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    load(ui.record.value);
    return;
  }
  const target = event.target;
  if (!game || event.altKey || event.ctrlKey || event.metaKey) return;
  if (target === ui.slider || target.closest("textarea, input, select, [contenteditable]")) return; // they have their own
  const moves = {ArrowLeft: position - 1, ArrowRight: position + 1, Home: 0, End: game.last};
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
});

async function begin() {
  const response = await fetch("games.json", {headers: {"Accept": "application/json"}});
  games = (await response.json()).games;
  const linked = readFragment();
  if (linked) {
    const record = await decodeRecord(linked.payload);
    if (record !== undefined) {
      ui.record.value = JSON.stringify(record);
      await load(ui.record.value, linked.position);
      return;
    }
    showProblems(t("The link holds no record"), [{message: t("It was cut short, perhaps: ask for the whole link.")}]);
  }
  pickerFollows();
  document.documentElement.dataset.ready = "true";
}

begin();
