// The referee page's shell: the game chooser, the Score button, the problems, the result panel, the shareable
// link (the table lives in the URL fragment: #<game>:<base64url JSON>), the request as JSON to copy, the picture
// to download, and announcements for screen readers. It speaks of no game in particular: each game's editor is an
// ES module served by the game's package (GET referee/games.json lists them). No framework, no build step, nothing
// from another origin.
//
// At the table, on a phone: the verdict (or the problems of a refused table) comes into view with the focus on it;
// nothing is lost: Clear and the example each make a new entry of the history (Back brings the table before them
// back) and offer Undo, which does the same; choosing another game is an entry too. Boxes that scroll (an editor's
// board, class "board-scroll") say so (page.js, scrollCues); keyboard hints are not shown on touch screens
// (referee.css), where every control is a target of 44 px at least.
//
// An editor module exports create(context) and returns an editor:
//   load(table)            show a table (null: an empty one); `table` is what table() returned
//   table()                the JSON the link holds
//   request()              the body of /score and /picture ({"state"}, {"table"} or {"notation"})
//   showScore(answer, root) draw the breakdown into root; returns the verdict, one sentence
//   example()              optional: load a finished example, or a promise of it (the "example" button shows
//                          only then)
//   markProblems(errors)   optional: mark the problems of a refused table on the editor (errors: {rule, pointer,
//                          message}); showProblems(problem, box) may instead draw the whole problems box (true)
//   clearProblems()        optional
//   hint, exampleLabel, wide, liveCheck  optional: a short hint of the keys (not shown on touch screens), the
//                          example button's label, a full-width layout, check the table with /validate while it is
//                          edited
//   touchHint              optional: a short hint shown instead of `hint` on touch screens
//   isEmpty()              optional: nothing entered yet (no live check then)
// context: {root, game, el, changed, announce, svgNode, redraw(scopes, draw) (page.js), post(path, body) -> {ok,
// status, body}, postSvg(path, body) -> SVG text or null, t, tn, tp, parts, list, number, lang, touch}: post and
// postSvg call this game's endpoints in the page's language; t, tn, tp (words.js) say the editor's words, from its
// game's `pages` catalogue (referee/<game>/messages.json), in the page's language; touch() is true on a touch
// screen (no hover, a coarse pointer). changed() is for the person's edits (it withdraws the offer to undo).
// A board that scrolls inside the editor: give its box the class "board-scroll" (or data-scroll-cues); the shell
// fades the edges where more lies beyond and puts a hint before it while it scrolls (data-scroll-cues="own": the
// editor shows its own hint; "off": no cue).
//
// The page speaks the language the server chose (<html lang>); its words are in the page (words.js), every call
// to the API says the language (Accept-Language), and the link keeps `?lang=` when the page's address has it.

import {announcer, copyText, el, redraw, reveal, scrollCues, svgNode} from "./page.js";
import {editorWords, keepingLanguage, pickerFollows, spoken, words} from "./words.js";

const {t, tp} = words;

const $ = (id) => document.getElementById(id);
const ui = {
  games: $("games"), editorRoot: $("editor"), score: $("score"), example: $("example"), clear: $("clear"),
  share: $("share"), hint: $("hint"), problems: $("problems"), result: $("result"), verdict: $("verdict"),
  breakdown: $("breakdown-root"), warnings: $("warnings"), figure: $("figure"), picture: $("picture"),
  download: $("download"), json: $("json"), copyJson: $("copy-json"), announce: $("announce"),
  editorStyle: $("editor-style"), title: $("page-title"), rules: $("rules-link"), main: $("main"),
  undo: $("undo"), undoText: $("undo-text"), undoButton: $("undo-button"), skip: $("skip-table"),
};

const announce = announcer(ui.announce);
let games = [];
let current = null; // {game, editor}
let downloadUrl = null;
let checkTimer = null;
let checkSerial = 0;
let undoable = null; // {serial, game, table, from}: the table before Clear or the example, while Undo is offered
let undoSerial = 0;
let undoing = false; // Undo went back in the history: the page says so when it is there
let choosing = null; // the game whose editor is on its way
const touch = () => window.matchMedia("(hover: none) and (pointer: coarse)").matches;

// ------------------------------------------------------------ small helpers shared with the editors

export {el}; // (the editors get it in their context too)

function apiPath(path, gameId) { return "v1/games/" + (gameId || current.game.id) + "/" + path; } // relative

async function post(path, body, gameId) {
  const response = await fetch(apiPath(path, gameId), {
    method: "POST", headers: spoken({"Content-Type": "application/json", "Accept": "application/json"}),
    body: JSON.stringify(body),
  });
  let answer = null;
  try { answer = await response.json(); } catch (e) { answer = null; }
  return {ok: response.ok, status: response.status, body: answer};
}

async function postSvg(path, body, gameId) {
  const response = await fetch(apiPath(path, gameId), {
    method: "POST", headers: spoken({"Content-Type": "application/json", "Accept": "image/svg+xml"}),
    body: JSON.stringify(body),
  });
  return response.ok ? response.text() : null;
}

// ------------------------------------------------------------ the link: #<game>:<base64url of the table's JSON>

function encodeTable(table) {
  const bytes = new TextEncoder().encode(JSON.stringify(table));
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeTable(text) {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    return undefined;
  }
}

function readFragment() {
  const fragment = decodeURIComponent(location.hash.slice(1));
  const colon = fragment.indexOf(":");
  if (colon < 0) return {game: fragment || null, table: undefined};
  return {game: fragment.slice(0, colon), table: decodeTable(fragment.slice(colon + 1))};
}

function storeKey(gameId) { return "referee-table-" + gameId; }

function fragmentOf(gameId, table) {
  return "#" + gameId + (table === null || table === undefined ? "" : ":" + encodeTable(table));
}

// the link follows the table: the current entry of the history is replaced (its state kept)
function changed() {
  if (!current) return;
  const table = current.editor.table();
  const fragment = fragmentOf(current.game.id, table);
  if (location.hash !== fragment) history.replaceState(history.state, "", fragment);
  pickerFollows();
  ui.json.value = JSON.stringify(current.editor.request(), null, 1);
  try { localStorage.setItem(storeKey(current.game.id), JSON.stringify(table)); } catch (e) { /* private mode */ }
  clearProblems();
  window.clearTimeout(checkTimer);
  checkSerial++; // an answer still on its way is for an older table
  if (current.editor.liveCheck && !(current.editor.isEmpty && current.editor.isEmpty())) scheduleCheck();
}

// the person edited the table: the link follows, and Undo is no longer offered (it would undo more than it says)
function edited() {
  withdrawUndo();
  changed();
}

// ------------------------------------------------------------ nothing lost: Clear and the example can be undone

// replaceTable(action, message): Clear or the example. The table before stays in the history (the new table is a
// new entry: Back brings the old one back) and Undo is offered beside the buttons, said with the message.
async function replaceTable(action, message, from) {
  if (!current) return;
  const {game, editor} = current;
  const before = editor.table();
  changed(); // the entry we leave holds the table as it is
  await action();
  if (!current || current.editor !== editor) return;
  ui.result.hidden = true;
  const after = fragmentOf(game.id, editor.table());
  withdrawUndo();
  if (after === fragmentOf(game.id, before)) { // nothing changed (Clear on an empty table)
    changed();
    announce(message);
    return;
  }
  const serial = undoSerial = Math.max(undoSerial + 1, Date.now()); // (unique across reloads too)
  history.pushState({undo: serial}, "", after);
  changed();
  undoable = {serial, game: game.id, table: before, from};
  ui.undoText.textContent = message;
  ui.undo.hidden = false;
  announce(message + " " + t("Undo brings the table back."));
}

function withdrawUndo() {
  undoable = null;
  if (!ui.undo.hidden) {
    const hadFocus = ui.undo.contains(document.activeElement);
    ui.undo.hidden = true;
    if (hadFocus) ui.score.focus();
  }
}

function undo() {
  if (!undoable) return;
  const {serial, game, table, from} = undoable;
  withdrawUndo();
  if (from) from.focus();
  if (history.state && history.state.undo === serial) {
    undoing = true;
    history.back(); // the entry before holds the table: followLink loads it, and says so
    return;
  }
  if (current && current.game.id === game) {
    current.editor.load(table);
    ui.result.hidden = true;
    changed();
    announce(t("The table is back."));
  }
}

// Back, Forward, or a link typed in: show the table the link holds (a link without one: an empty table of the
// same game, or the table kept for another game)
function followLink() {
  if (!current) return;
  const {game, table} = readFragment();
  const back = undoing;
  undoing = false;
  withdrawUndo();
  if (game !== current.game.id) {
    if (choosing === game) return; // (popstate, then hashchange: once is enough)
    choose(game, table).then(() => { if (back) announce(t("The table is back.")); });
    return;
  }
  if (location.hash === fragmentOf(current.game.id, current.editor.table())) return; // already shown
  clearProblems();
  current.editor.load(table === undefined ? null : table);
  ui.result.hidden = true;
  changed();
  if (back) announce(t("The table is back."));
}

// ------------------------------------------------------------ problems

function clearProblems() {
  ui.problems.hidden = true;
  ui.problems.replaceChildren();
  if (current && current.editor.clearProblems) current.editor.clearProblems();
}

function showProblems(problem) {
  ui.problems.replaceChildren();
  const handled = current.editor.showProblems && current.editor.showProblems(problem, ui.problems);
  if (!handled) {
    let errors = (problem && problem.errors) || [];
    if (!errors.length) errors = [{message: (problem && problem.detail) || t("The service refused the table."), rule: null}];
    const impossible = !problem || problem.status === 422 || problem.status === undefined;
    ui.problems.appendChild(el("h3", {text: impossible ? t("This table cannot be real") : t("This is not a table yet")}));
    ui.problems.appendChild(el("ul", {}, errors.map((error) => el("li", {}, [
      error.message, error.rule ? el("span", {class: "rule", text: error.rule}) : null,
      error.pointer ? el("code", {class: "pointer", text: error.pointer}) : null,
    ]))));
    if (current.editor.markProblems) current.editor.markProblems(errors);
  }
  ui.problems.hidden = false;
}

function scheduleCheck() {
  window.clearTimeout(checkTimer);
  checkTimer = window.setTimeout(liveCheck, 350);
}

async function liveCheck() {
  const serial = ++checkSerial;
  const editor = current.editor;
  let answer;
  try { answer = await post("validate", editor.request()); } catch (e) { return; }
  if (serial !== checkSerial || !current || current.editor !== editor) return;
  const errors = answer.ok ? answer.body.errors : ((answer.body && answer.body.errors) || []);
  if (errors.length) {
    showProblems({status: 422, errors: errors});
  } else {
    ui.problems.hidden = true;
    ui.problems.replaceChildren();
    if (editor.clearProblems) editor.clearProblems();
  }
}

// ------------------------------------------------------------ scoring

function showPicture(svgText) {
  const svg = svgText && svgNode(svgText);
  ui.picture.replaceChildren();
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = null;
  if (!svg) { ui.figure.hidden = true; return; }
  ui.picture.appendChild(svg);
  downloadUrl = URL.createObjectURL(new Blob([svgText], {type: "image/svg+xml"}));
  ui.download.href = downloadUrl;
  ui.download.download = current.game.id + "-table.svg";
  ui.download.hidden = false;
  ui.figure.hidden = false;
}

async function score() {
  if (!current) return;
  const {game, editor} = current;
  window.clearTimeout(checkTimer);
  checkSerial++;
  clearProblems();
  ui.score.disabled = true;
  ui.score.textContent = t("Scoring…");
  const body = editor.request();
  try {
    const answer = await post("score", body);
    if (current.editor !== editor) return;
    if (!answer.ok) {
      ui.result.hidden = true;
      showProblems(answer.body || {status: answer.status});
      const first = answer.body && answer.body.errors && answer.body.errors[0] && answer.body.errors[0].message;
      announce(first ? t("The table was refused: {problem}", {problem: first})
                     : t("The table was refused: see the problems."));
      reveal(ui.problems);
      return;
    }
    ui.breakdown.replaceChildren();
    const verdict = editor.showScore(answer.body, ui.breakdown);
    ui.verdict.textContent = verdict;
    ui.verdict.className = "verdict" + (shared(answer.body) ? " draw" : "");
    const warnings = answer.body.warnings || [];
    ui.warnings.replaceChildren(...warnings.map((warning) =>
      el("li", {text: warning.message + (warning.rule ? " (" + warning.rule + ")" : "")})));
    ui.warnings.hidden = !warnings.length;
    ui.result.hidden = false;
    announce(verdict);
    reveal(ui.verdict);
    if (game.picture) showPicture(await postSvg("picture", body));
    else showPicture(null);
  } catch (e) {
    showProblems({errors: [{message: t("Could not reach the referee service. Is it running?"), rule: null}]});
    reveal(ui.problems);
  } finally {
    ui.score.disabled = false;
    ui.score.textContent = tp("button", "Score");
  }
}

// a draw, or a win shared (no one winner): the verdict says so in its colour
function shared(answer) {
  const winners = Array.isArray(answer.winners) ? answer.winners
    : answer.winner === null || answer.winner === undefined ? [] : [answer.winner];
  return winners.length !== 1;
}

// ------------------------------------------------------------ choosing a game

function drawChooser() {
  ui.games.replaceChildren(...games.map((game) => el("button", {
    type: "button", class: "game", text: game.title, dataset: {game: game.id},
    "aria-pressed": current && current.game.id === game.id ? "true" : "false",
    on: {click: () => {
      if (current && current.game.id === game.id) return;
      if (current) { changed(); history.pushState(null, "", "#" + game.id); } // Back: the game before
      choose(game.id, undefined);
    }},
  })));
}

async function choose(gameId, table) {
  const game = games.find((g) => g.id === gameId) || games[0];
  if (!game) return;
  document.documentElement.dataset.ready = "false";
  window.clearTimeout(checkTimer);
  checkSerial++;
  choosing = game.id;
  const editorUrl = new URL(game.editor, document.baseURI).href;
  let module, said;
  try {
    [module, said] = await Promise.all([import(editorUrl), editorWords(editorUrl)]);
  } finally {
    if (choosing === game.id) choosing = null;
  }
  if (game.style) ui.editorStyle.href = game.style; else ui.editorStyle.removeAttribute("href");
  ui.editorRoot.replaceChildren();
  ui.result.hidden = true;
  const context = {root: ui.editorRoot, game, el, changed: edited, announce, svgNode, redraw,
                   post: (path, body) => post(path, body, game.id), postSvg: (path, body) => postSvg(path, body, game.id),
                   t: said.t, tn: said.tn, tp: said.tp, parts: said.parts, list: said.list, number: said.number,
                   lang: said.lang, touch};
  withdrawUndo();
  const editor = module.create(context);
  current = {game, editor};
  document.documentElement.dataset.game = game.id;
  document.title = t("{game} — the referee", {game: game.title});
  ui.title.replaceChildren(game.title, " ", el("span", {text: t("· the referee")}));
  ui.rules.href = keepingLanguage("v1/games/" + game.id + "/rules");
  ui.main.classList.toggle("wide", !!editor.wide);
  ui.hint.replaceChildren(...[el("span", {class: "keys", text: editor.hint || t("Ctrl+Enter scores")}),
                              editor.touchHint && el("span", {class: "touch", text: editor.touchHint})].filter(Boolean));
  ui.example.hidden = !editor.example;
  ui.example.textContent = editor.exampleLabel || t("Example");
  if (table === undefined) {
    try { table = JSON.parse(localStorage.getItem(storeKey(game.id)) || "null"); } catch (e) { table = null; }
  }
  clearProblems();
  editor.load(table === undefined ? null : table);
  drawChooser();
  changed();
  document.documentElement.dataset.ready = "true";
}

// ------------------------------------------------------------ wiring

ui.score.addEventListener("click", score);
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    score();
  }
});
ui.example.addEventListener("click", () => replaceTable(
  () => current.editor.example(), // an editor may fetch its example
  t("The example table is in the editor."), ui.example));
ui.clear.addEventListener("click", () => replaceTable(
  () => current.editor.load(null), t("The table is empty."), ui.clear));
ui.undoButton.addEventListener("click", undo);
ui.skip.addEventListener("click", (event) => { // (the fragment is the table's: the link must not change it)
  event.preventDefault();
  ui.score.focus();
});
ui.share.addEventListener("click", async () => {
  changed();
  const done = await copyText(location.href);
  announce(done ? t("The link to this table is copied.") : t("The link to this table is in the address bar."));
});
ui.copyJson.addEventListener("click", async () => {
  const done = await copyText(ui.json.value);
  announce(done ? t("The JSON is copied.") : t("Select the JSON and copy it."));
});
window.addEventListener("popstate", followLink);
window.addEventListener("hashchange", followLink); // (after popstate: the table is shown by then)
scrollCues(ui.editorRoot, () => t("The board goes on beyond its edges: swipe or scroll it to see the rest."));

async function start() {
  const response = await fetch("referee/games.json", {headers: {"Accept": "application/json"}});
  games = (await response.json()).games;
  const {game, table} = readFragment();
  await choose(games.some((g) => g.id === game) ? game : games[0].id, table);
}

start();
