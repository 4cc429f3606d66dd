// The replay page: a disputed game's record ({"state", "moves"}) is sent to /replay once; every state after every
// step comes back with that one answer, so stepping never waits on the network. What is fetched per step shown (the
// picture, the score) is fetched once, a moment after the step settles, and kept. The first illegal step is marked
// in the list and explained: the rule (from the catalogue), the service's sentence, the refused step drawn on the
// picture where it was tried (/picture with the moves up to it), and the steps that were open, in words
// (/legal-moves with texts). Every step is said in words: its events' sentences, from the same /replay answer.
//
// On a phone the step controls stay on screen (a sticky bar) with the picture just below them; choosing a step in
// the list brings the picture into view. The list is one Tab stop (a roving tabindex: ↑ ↓ Home End inside it, Enter
// shows the step's picture).
//
// The link holds the record and the step: #<game>/<step>:<record>, the record deflated and in base64url ("z…"), or
// plain JSON in base64url ("j…") where the browser cannot deflate. Each step chosen is an entry of the history, so
// Back and Forward step through what was seen (a held key or a dragged slider makes one entry); another record is
// another entry, and a record refused clears the page (Back brings the previous one again). No framework, no build
// step, nothing from another origin. The page speaks the language the server chose (<html lang>): its words are in
// the page (words.js), every call to the API says the language (Accept-Language: events, violations, rules, the
// picture's words come back in it), and the link keeps `?lang=` when the page's address has it.

import {announcer, copyText, el, svgNode} from "../../assets/page.js"; // the scoring page's: /referee/assets/
import {keepingLanguage, pickerFollows, spoken, words} from "../../assets/words.js";
import {decodeRecord, encodeRecord} from "../../assets/record.js";

const {t, tn, tp, parts} = words;

const $ = (id) => document.getElementById(id);
const ui = {
  main: $("main"), record: $("record"), replay: $("replay"), file: $("file"), share: $("share"),
  problems: $("problems"), verdict: $("verdict"), skip: $("skip-board"), stage: $("stage"), bar: $("bar"),
  first: $("first"), previous: $("previous"), slider: $("slider"), next: $("next"), last: $("last"),
  position: $("position"), turn: $("turn"), figure: $("figure"), picture: $("picture"), caption: $("caption"),
  ruling: $("ruling"), happened: $("happened"), scores: $("scores"), steps: $("steps"), announce: $("announce"),
  rules: $("rules-link"),
};
const SETTLE_MS = 120;  // a step shown this long gets its picture and score: holding an arrow key fetches nothing
const COALESCE_MS = 700; // steps this close (a held key, a dragged slider) make one entry of the history
const PAGE_TITLE = document.title; // the page's own title, in its language (a replay names its game instead)
const PROPOSING = new Set((ui.main.dataset.proposing || "").split(" ").filter(Boolean)); // draw a proposed step

const announce = announcer(ui.announce);
let games = [];           // from referee/games.json: every registered game (id, title, picture)
const catalogues = {};    // game id -> Map(rule id -> rule)
let game = null;          // the replayed game: {info, record, answer, names, last, failedAt, events, ...}
let position = 0;         // 0: the start; k: after move k; failedAt + 1: the illegal move
let settleTimer = null;
let loading = 0;          // the serial of the latest load: an older answer arriving late is dropped

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

// A move as the record writes it, compactly (a detail beside the words): "place tile BA/RFr, at [1, 0], rotation 90"
function describe(move) {
  if (!move || typeof move !== "object") return JSON.stringify(move);
  const facts = Object.entries(move).filter(([key]) => key !== "type").map(([key, value]) => {
    if (Array.isArray(value)) {
      value = value.length === 2 && value.every(Number.isInteger) ? "[" + value.join(", ") + "]" : value.join(" ");
    } else if (value && typeof value === "object") {
      value = JSON.stringify(value);
    }
    return key + " " + value;
  });
  return String(move.type || "").replace(/_/g, " ") + (facts.length ? " " + facts.join(", ") : "");
}

// Whose turn a state says it is; null once the game is over (every game's state has `turn`; a state with `to_act`
// names who answers a reaction)
function toAct(state) {
  if (!state || state.phase === "over" || state.step === "over") return null;
  return "to_act" in state ? state.to_act : state.turn;
}

// ------------------------------------------------------------ the link and the history

let encoded = null;  // {record, text}: the record's part of the link, made once per record
let lastWrite = {at: 0, how: ""}; // the page's last entry of the history: when, and how (coalescing a held key)

// Write the link of the step shown: "push" a new entry of the history (a step chosen, another record), "replace"
// the current one (the page opened at a link), "coalesce" (push, unless the last entry was coalescing too and a
// moment ago: a held key, a dragged slider, ▶ tapped in a burst make one entry), "none" (Back or Forward brought
// the page here)
async function updateLink(how) {
  if (!game) return;
  const shown = game;
  if (!encoded || encoded.record !== shown.record) {
    const text = await encodeRecord(shown.record);
    encoded = {record: shown.record, text};
  }
  if (game !== shown || how === "none") return;
  const fragment = "#" + shown.info.id + "/" + position + ":" + encoded.text;
  const now = Date.now();
  if (location.hash !== fragment) {
    const push = how === "push" ||
      (how === "coalesce" && (lastWrite.how !== "coalesce" || now - lastWrite.at > COALESCE_MS));
    if (push && location.hash) history.pushState(null, "", fragment);
    else history.replaceState(null, "", fragment);
  }
  lastWrite = {at: now, how};
  pickerFollows();
}

// The page without a replay (a record refused): a new entry of the history without the record, so that Back
// brings the last one again
function forgetLink() {
  if (location.hash) history.pushState(null, "", location.pathname + location.search);
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

// Nothing stale: no replay on the page (a record refused shows only what is wrong with it)
function clearReplay() {
  game = null;
  encoded = null;
  window.clearTimeout(settleTimer);
  ui.stage.hidden = ui.verdict.hidden = ui.share.hidden = ui.skip.hidden = true;
  ui.verdict.replaceChildren();
  ui.steps.replaceChildren();
  ui.picture.replaceChildren();
  ui.caption.textContent = "";
  ui.ruling.replaceChildren();
  ui.happened.replaceChildren();
  ui.scores.replaceChildren();
  delete document.documentElement.dataset.game;
  delete document.documentElement.dataset.position;
  document.title = PAGE_TITLE;
  ui.rules.href = "../v1/games";
}

// A record refused: what is wrong with it, and nothing of the previous replay
function refuse(title, errors, from) {
  clearReplay();
  showProblems(title, errors);
  if (from !== "history") forgetLink();
  if (from === "user") bringIntoView(ui.problems, true);
}

async function catalogue(gameId) {
  if (!catalogues[gameId]) {
    const response = await fetch(api(gameId, "rules"), {headers: spoken({"Accept": "application/json"})});
    const answer = await response.json();
    catalogues[gameId] = new Map(answer.rules.map((rule) => [rule.id, rule]));
  }
  return catalogues[gameId];
}

// Load a record. `from`: "user" (Replay, a file, Ctrl+Enter), "link" (the page opened at a link), "history" (Back or
// Forward reached another record)
async function load(text, wanted, from) {
  const serial = ++loading;
  document.documentElement.dataset.ready = "false";
  ui.problems.hidden = true;
  let record;
  try { record = JSON.parse(text); } catch (e) {
    refuse(t("This is not JSON"), [{message: e.message}], from);
    document.documentElement.dataset.ready = "true";
    return;
  }
  const shaped = record && typeof record === "object" && !Array.isArray(record) && record.state &&
    typeof record.state === "object" && Array.isArray(record.moves);
  const info = shaped && games.find((g) => g.id === record.state.game);
  if (!info) {
    refuse(t("This is not a game record"), [{message: shaped
      ? t("The state names no game served here (its \"game\" is one of {games}).", {games: games.map((g) => g.id).join(", ")})
      : t("A record is an object {object}.", {object: "{\"state\": …, \"moves\": […]}"})}], from);
    document.documentElement.dataset.ready = "true";
    return;
  }
  ui.replay.disabled = true;
  ui.replay.textContent = t("Replaying…");
  try {
    const [answer, rules] = await Promise.all([post(info.id, "replay", record), catalogue(info.id)]);
    if (serial !== loading) return;
    if (!answer.ok) {
      const problem = answer.body || {};
      refuse(answer.status === 422 ? t("The starting state cannot be real") : t("The service refused the record"),
             problem.errors || [{message: problem.detail || t("Error {status}", {status: String(answer.status)})}], from);
      return;
    }
    start(info, record, answer.body, rules, wanted, from);
  } catch (e) {
    if (serial !== loading) return;
    refuse(t("Could not reach the referee service"), [{message: t("Is it running?")}], from);
  } finally {
    ui.replay.disabled = false;
    ui.replay.textContent = tp("button", "Replay");
    if (serial === loading) document.documentElement.dataset.ready = "true";
  }
}

function start(info, record, answer, rules, wanted, from) {
  const failedAt = answer.failed_at;
  const events = record.moves.map(() => []);
  for (const event of answer.events) if (events[event.step]) events[event.step].push(event);
  game = {
    info, record, answer, rules, failedAt, events,
    names: (record.state.players || []).map((player, i) => player.name || t("Player {number}", {number: i + 1})),
    last: failedAt === null ? record.moves.length : failedAt + 1,
    pictures: new Map(), scores: new Map(), legal: null,
  };
  encoded = null;
  document.documentElement.dataset.game = info.id;
  document.title = t("{game} — replay — the referee", {game: info.title});
  ui.rules.href = keepingLanguage("../v1/games/" + info.id + "/rules");
  drawVerdict();
  drawSteps();
  ui.slider.max = String(game.last);
  ui.stage.hidden = false;
  ui.share.hidden = false;
  ui.skip.hidden = false;
  const landing = failedAt === null ? game.last : failedAt + 1; // where the dispute is, or how it ended
  const target = Number.isInteger(wanted) && wanted >= 0 && wanted <= game.last ? wanted : landing;
  go(target, {link: from === "history" ? "none" : from === "user" ? "push" : "replace"});
  if (from === "user") bringIntoView(ui.verdict, true);
}

// Bring a node into view when it is not wholly in it (under the sticky bar counts as out of view); with `focus`,
// give it the focus too (a screen reader reads it)
function bringIntoView(node, focus) {
  if (!node || node.hidden) return;
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) {
    node.scrollIntoView({block: "start", behavior: "instant"}); // at once: the step is there, nothing to follow
  }
  if (focus) node.focus({preventScroll: true});
}

// The picture just below the bar, wholly in view (choosing a step in the list, "Show it"); `unseen`: only when none
// of it is in view (a step taken with the bar's buttons while the page shows the list)
function showPicture(unseen) {
  const bar = ui.bar.getBoundingClientRect();
  const below = Math.max(0, bar.bottom) + 8; // the bar stays on screen at the top
  const box = ui.figure.getBoundingClientRect();
  const hidden = box.bottom <= below || box.top >= window.innerHeight;
  if (unseen ? hidden : box.top < below || box.bottom > window.innerHeight) {
    window.scrollBy({top: box.top - (ui.bar.offsetHeight + 8), behavior: "instant"});
  }
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
    }), " ", el("button", {type: "button", class: "small", text: t("Show it"), on: {click: () => {
      go(failedAt + 1, {link: "push"});
      showPicture();
    }}}));
  }
  ui.verdict.hidden = false;
}

function nameOf(player) {
  return player === null || player === undefined ? null : game.names[player] || t("player {number}", {number: player});
}

function actorOf(index) {
  return nameOf(toAct(stateAt(index))) || "—";
}

// What a step did, in words: its events' sentences (the service's, in the page's language)
function saidOf(index) {
  return game.events[index].map((event) => event.text).join(" ");
}

// Every step, in words. The steps the page can show are buttons in one Tab stop (the current one's); the steps after
// the refused one were never replayed: they are listed as the record writes them, greyed.
function drawSteps() {
  const {record, failedAt} = game;
  const button = (target, children, label) => el("button", {
    type: "button", class: "go", tabindex: "-1", dataset: {position: String(target)}, "aria-label": label || null,
  }, children);
  const items = [el("li", {class: "step start", dataset: {position: "0"}}, button(0, [
    el("span", {class: "number", text: "0"}),
    el("span", {class: "words", text: t("The start: {players}", {players: game.names.join(", ")})}),
  ]))];
  record.moves.forEach((move, index) => {
    const number = el("span", {class: "number", text: String(index + 1)});
    if (failedAt !== null && index > failedAt) {
      if (index === failedAt + 1) {
        items.push(el("li", {class: "note", text: t("Not replayed: the steps after the refused one, as the record writes them")}));
      }
      items.push(el("li", {class: "step unplayed", dataset: {position: ""}}, el("div", {class: "go"}, [
        number, el("span", {class: "words"}, el("code", {text: describe(move)})),
      ])));
      return;
    }
    if (index === failedAt) {
      const violation = game.answer.violations[0] || {};
      items.push(el("li", {class: "step illegal", dataset: {position: String(index + 1)}}, button(index + 1, [
        number,
        el("span", {class: "words"}, [
          t("{player} tried a step the rules refuse: {message}", {player: actorOf(index), message: violation.message || ""}),
          " ", el("span", {class: "badge", text: "✗ " + (violation.rule || "?")}),
        ]),
      ])));
      return;
    }
    const said = saidOf(index);
    items.push(el("li", {class: "step", dataset: {position: String(index + 1)}}, button(index + 1, [
      number,
      // a step that says nothing (no event) is said as the record writes it
      el("span", {class: "words"}, said ? said : el("code", {text: describe(move)})),
    ])));
  });
  ui.steps.replaceChildren(...items);
}

// ------------------------------------------------------------ stepping

function stateAt(p) {
  if (p <= 0) return game.record.state;
  if (game.failedAt !== null && p > game.failedAt) return stateAt(game.failedAt); // the illegal move changes nothing
  return game.answer.states[p - 1];
}

const isIllegal = (p) => game.failedAt !== null && p === game.failedAt + 1;

// Show step `target`. options.link: how the history records it (updateLink); options.focus: "list" to keep the
// focus in the list on the current step
function go(target, options) {
  if (!game) return;
  const how = (options && options.link) || "push";
  position = Math.max(0, Math.min(game.last, target));
  const {failedAt, record, events} = game;
  const illegal = isIllegal(position);
  ui.slider.value = String(position);
  ui.slider.setAttribute("aria-valuetext", position === 0 ? t("the start") : t("step {number}", {number: position}));
  ui.first.disabled = ui.previous.disabled = position === 0;
  ui.next.disabled = ui.last.disabled = position === game.last;
  document.documentElement.dataset.position = String(position);

  const count = record.moves.length;
  ui.position.replaceChildren(position === 0 ? t("The start") : t("Step {number} of {count}", {number: position, count}),
                              illegal ? el("span", {class: "badge", text: t("illegal")}) : "");
  const actor = nameOf(toAct(stateAt(position)));
  ui.turn.textContent = actor === null ? t("The game is over.")
    : illegal ? t("{player} to act (as before the refused step).", {player: actor}) : t("{player} to act.", {player: actor});

  let said;
  if (position === 0) {
    said = [el("p", {class: "quiet", text: t("Where the game started: the deal as the record gives it.")})];
  } else if (illegal) {
    said = [el("p", {}, [el("strong", {text: t("{player} tried:", {player: actorOf(failedAt)}) + " "}),
                         el("code", {text: describe(record.moves[failedAt])})])];
  } else {
    const move = record.moves[position - 1];
    said = [el("ul", {class: "events"}, events[position - 1].map((event) => el("li", {text: event.text}))),
            el("p", {class: "as-written"}, parts(t("As the record writes it: {move}"), {move: el("code", {text: describe(move)})}))];
  }
  ui.happened.replaceChildren(...said);
  ui.ruling.hidden = !illegal;
  if (illegal) drawRuling(); else ui.ruling.replaceChildren();

  markCurrent(options && options.focus === "list");
  showCached();
  window.clearTimeout(settleTimer);
  settleTimer = window.setTimeout(settled, SETTLE_MS);
  updateLink(how);
  const first = illegal ? t("Illegal: {message}", {message: (game.answer.violations[0] || {}).message || ""})
    : position === 0 ? "" : saidOf(position - 1);
  announce(position === 0 ? t("The start.") + first : t("Step {number} of {count}.", {number: position, count}) + " " + first);
}

// The current step in the list: marked, the list's one Tab stop, kept in sight in the list; the focus follows it
// when the focus is in the list
function markCurrent(focusList) {
  const inList = focusList || ui.steps.contains(document.activeElement);
  for (const item of ui.steps.querySelectorAll("li.current")) {
    item.classList.remove("current");
    const button = item.querySelector("button.go");
    if (button) {
      button.removeAttribute("aria-current");
      button.tabIndex = -1;
    }
  }
  const item = ui.steps.querySelector('li[data-position="' + position + '"]');
  if (!item) return;
  item.classList.add("current");
  const button = item.querySelector("button.go");
  button.setAttribute("aria-current", "step");
  button.tabIndex = 0;
  keepInView(item);
  if (inList && document.activeElement !== button) {
    button.focus({preventScroll: true});
    const box = item.getBoundingClientRect();
    const top = Math.max(0, ui.bar.getBoundingClientRect().bottom);
    if (box.top < top || box.bottom > window.innerHeight) item.scrollIntoView({block: "nearest"});
  }
}

// The current step is kept in sight in the list when the list scrolls by itself (a laptop's side column)
function keepInView(item) {
  const list = ui.steps;
  if (list.scrollHeight <= list.clientHeight + 1) return; // the list does not scroll: the page does
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
  // the steps that were open, folded: the picture stays where it is
  const open = el("details", {class: "open-steps", id: "open-steps"}, [
    el("summary", {}, el("h4", {text: t("Finding the legal steps…")})),
  ]);
  nodes.push(open);
  ui.ruling.replaceChildren(...nodes);
  drawLegal(open);
}

async function drawLegal(box) {
  const replayed = game;
  if (!replayed.legal) {
    try {
      const answer = await post(replayed.info.id, "legal-moves", {state: stateAt(replayed.failedAt), texts: true});
      replayed.legal = answer.ok ? {moves: answer.body.moves, texts: answer.body.texts || []} : {moves: [], texts: []};
    } catch (e) {
      replayed.legal = {moves: [], texts: []};
    }
  }
  if (game !== replayed || !box.isConnected) return;
  const {moves, texts} = replayed.legal;
  const player = actorOf(replayed.failedAt);
  const heading = moves.length ? tn("{player} could have made one of {count} legal step:",
                                    "{player} could have made one of {count} legal steps:", moves.length, {player})
    : t("No legal step was open.");
  box.replaceChildren(
    el("summary", {}, el("h4", {text: heading})),
    el("ul", {class: "legal"}, moves.map((move, i) => el("li", {}, [
      el("span", {class: "words", text: texts[i] || describe(move)}),
      texts[i] ? el("code", {text: describe(move)}) : null,
    ]))),
  );
  if (!moves.length) box.open = true;
}

// ------------------------------------------------------------ what is fetched per step shown, once

function showCached() {
  const drawn = game.pictures.get(position);
  if (drawn) {
    const node = svgNode(drawn.svg);
    if (node && !node.hasAttribute("role")) node.setAttribute("role", "img");
    if (node && !node.hasAttribute("aria-label") && !node.querySelector(":scope > title")) {
      node.setAttribute("aria-label", captionOf(position));
    }
    ui.picture.replaceChildren(...(node ? [node] : []));
  }
  ui.picture.classList.toggle("stale", !drawn);
  ui.caption.textContent = captionOf(position);
  drawScores(game.scores.get(position));
}

function captionOf(shown) {
  if (shown === 0) return t("The table at the start.");
  if (isIllegal(shown)) {
    const violation = game.answer.violations[0] || {};
    // Translators: the caption of the picture at the refused step: the position it was tried from, and the step
    // (faded on the picture where it was tried); {rule} is the rule's id (K-PLACE-1)
    return t("The table before step {number}: step {number} is refused ({rule}).",
             {number: shown, rule: violation.rule || "?"});
  }
  return t("The table after step {number}.", {number: shown});
}

// The picture of a step: the table after it; at the refused step, the table it was tried from with the step drawn
// on it (the moves up to it from the start, so that the picture numbers the step as the page does), where the game
// draws a proposed step
async function picture(replayed, shown) {
  const {info, record, failedAt} = replayed;
  if (isIllegal(shown) && PROPOSING.has(info.id)) {
    const answer = await post(info.id, "picture", {state: record.state, moves: record.moves.slice(0, failedAt + 1)},
                              "image/svg+xml");
    if (answer.ok) return {svg: answer.body, proposed: true};
  }
  const answer = await post(info.id, "picture", {state: stateAt(shown)}, "image/svg+xml");
  return answer.ok ? {svg: answer.body, proposed: false} : null;
}

async function settled() {
  const replayed = game;
  const shown = position;
  const state = stateAt(shown);
  const wanted = [];
  if (game.info.picture && !game.pictures.has(shown)) {
    wanted.push(picture(replayed, shown).then((drawn) => {
      if (drawn) replayed.pictures.set(shown, drawn);
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

ui.replay.addEventListener("click", () => load(ui.record.value, undefined, "user"));
ui.file.addEventListener("change", async () => {
  const file = ui.file.files && ui.file.files[0];
  if (!file) return;
  ui.record.value = await file.text();
  load(ui.record.value, undefined, "user");
});
// the bar's buttons: the picture comes back into view when the page had scrolled it away (to the list)
const step = (target, link) => { go(target, {link}); showPicture(true); };
ui.first.addEventListener("click", () => step(0, "push"));
ui.previous.addEventListener("click", () => step(position - 1, "coalesce"));
ui.next.addEventListener("click", () => step(position + 1, "coalesce"));
ui.last.addEventListener("click", () => step(game.last, "push"));
ui.slider.addEventListener("input", () => go(Number(ui.slider.value), {link: "coalesce"}));
ui.share.addEventListener("click", async () => {
  await updateLink("replace");
  const done = await copyText(location.href);
  announce(done ? t("The link to this step is copied.") : t("The link to this step is in the address bar."));
});

// The list: a step chosen (a tap, a click, Enter or Space) shows its picture in view
ui.steps.addEventListener("click", (event) => {
  const button = event.target.closest("button.go");
  if (!button || !game) return;
  go(Number(button.dataset.position), {link: "push", focus: "list"});
  showPicture();
});
// ↑ ↓ inside the list move to the previous or next step (the focus follows); ← → Home End as anywhere on the page
ui.steps.addEventListener("keydown", (event) => {
  if (!game || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const moves = {ArrowUp: position - 1, ArrowDown: position + 1};
  if (event.key in moves) {
    event.preventDefault();
    event.stopPropagation();
    go(moves[event.key], {link: event.repeat ? "coalesce" : "push", focus: "list"});
  }
});
ui.skip.addEventListener("click", (event) => {
  // the list's Tab stop: the current step (the heading when there is none)
  event.preventDefault();
  const current = ui.steps.querySelector("button.go[tabindex='0']");
  const target = current || $("steps-title");
  target.focus({preventScroll: true});
  target.scrollIntoView({block: "center", behavior: "instant"});
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    load(ui.record.value, undefined, "user");
    return;
  }
  const target = event.target;
  if (!game || event.altKey || event.ctrlKey || event.metaKey) return;
  if (target === ui.slider || target.closest("textarea, input, select, [contenteditable]")) return; // they have their own
  const moves = {ArrowLeft: position - 1, ArrowRight: position + 1, Home: 0, End: game.last};
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key], {link: event.repeat ? "coalesce" : "push"});
  }
});

// Back and Forward: the step (or the record) the link holds; no record: no replay
window.addEventListener("popstate", async () => {
  const linked = readFragment();
  if (!linked) {
    loading++;
    clearReplay();
    ui.problems.hidden = true;
    pickerFollows();
    document.documentElement.dataset.ready = "true";
    return;
  }
  if (game && encoded && encoded.text === linked.payload && game.info.id === linked.game) {
    go(linked.position, {link: "none"});
    pickerFollows();
    return;
  }
  const record = await decodeRecord(linked.payload);
  if (record === undefined) {
    refuse(t("The link holds no record"), [{message: t("It was cut short, perhaps: ask for the whole link.")}], "history");
    return;
  }
  ui.record.value = JSON.stringify(record);
  await load(ui.record.value, linked.position, "history");
  pickerFollows();
});

async function begin() {
  const response = await fetch("games.json", {headers: {"Accept": "application/json"}});
  games = (await response.json()).games; // every registered game, with an editor or not
  const linked = readFragment();
  if (linked) {
    const record = await decodeRecord(linked.payload);
    if (record !== undefined) {
      ui.record.value = JSON.stringify(record);
      await load(ui.record.value, linked.position, "link");
      return;
    }
    showProblems(t("The link holds no record"), [{message: t("It was cut short, perhaps: ask for the whole link.")}]);
  }
  pickerFollows();
  document.documentElement.dataset.ready = "true";
}

begin();
