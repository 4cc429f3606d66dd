// The referee page's shell: the game chooser, the Score button, the problems, the result panel, the shareable
// link (the table lives in the URL fragment: #<game>:<base64url JSON>), the request as JSON to copy, the picture
// to download, and announcements for screen readers. It speaks of no game in particular: each game's editor is an
// ES module served by the game's package (GET referee/games.json lists them). No framework, no build step, nothing
// from another origin.
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
//   hint, exampleLabel, wide, liveCheck  optional: a short hint, the example button's label, a full-width layout,
//                          check the table with /validate while it is edited
//   isEmpty()              optional: nothing entered yet (no live check then)
// context: {root, game, el, changed, announce, svgNode, redraw(scopes, draw) (page.js), post(path, body) -> {ok,
// status, body}, postSvg(path, body) -> SVG text or null, t, tn, tp, parts, list, number, lang}: post and postSvg
// call this game's endpoints in the page's language; t, tn, tp (words.js) say the editor's words, from its game's
// `pages` catalogue (referee/<game>/messages.json), in the page's language.
//
// The page speaks the language the server chose (<html lang>); its words are in the page (words.js), every call
// to the API says the language (Accept-Language), and the link keeps `?lang=` when the page's address has it.

import {announcer, copyText, el, redraw, svgNode} from "./page.js";
import {editorWords, keepingLanguage, pickerFollows, spoken, words} from "./words.js";

const {t, tp} = words;

const $ = (id) => document.getElementById(id);
const ui = {
  games: $("games"), editorRoot: $("editor"), score: $("score"), example: $("example"), clear: $("clear"),
  share: $("share"), hint: $("hint"), problems: $("problems"), result: $("result"), verdict: $("verdict"),
  breakdown: $("breakdown-root"), warnings: $("warnings"), figure: $("figure"), picture: $("picture"),
  download: $("download"), json: $("json"), copyJson: $("copy-json"), announce: $("announce"),
  editorStyle: $("editor-style"), title: $("page-title"), rules: $("rules-link"), main: $("main"),
};

const announce = announcer(ui.announce);
let games = [];
let current = null; // {game, editor}
let downloadUrl = null;
let checkTimer = null;
let checkSerial = 0;

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

function changed() {
  if (!current) return;
  const table = current.editor.table();
  const fragment = "#" + current.game.id + (table === null || table === undefined ? "" : ":" + encodeTable(table));
  if (location.hash !== fragment) history.replaceState(null, "", fragment);
  pickerFollows();
  ui.json.value = JSON.stringify(current.editor.request(), null, 1);
  try { localStorage.setItem(storeKey(current.game.id), JSON.stringify(table)); } catch (e) { /* private mode */ }
  clearProblems();
  window.clearTimeout(checkTimer);
  checkSerial++; // an answer still on its way is for an older table
  if (current.editor.liveCheck && !(current.editor.isEmpty && current.editor.isEmpty())) scheduleCheck();
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
    if (game.picture) showPicture(await postSvg("picture", body));
    else showPicture(null);
  } catch (e) {
    showProblems({errors: [{message: t("Could not reach the referee service. Is it running?"), rule: null}]});
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
    on: {click: () => { if (!current || current.game.id !== game.id) choose(game.id, undefined); }},
  })));
}

async function choose(gameId, table) {
  const game = games.find((g) => g.id === gameId) || games[0];
  if (!game) return;
  document.documentElement.dataset.ready = "false";
  window.clearTimeout(checkTimer);
  checkSerial++;
  const editorUrl = new URL(game.editor, document.baseURI).href;
  const [module, said] = await Promise.all([import(editorUrl), editorWords(editorUrl)]);
  if (game.style) ui.editorStyle.href = game.style; else ui.editorStyle.removeAttribute("href");
  ui.editorRoot.replaceChildren();
  ui.result.hidden = true;
  const context = {root: ui.editorRoot, game, el, changed, announce, svgNode, redraw,
                   post: (path, body) => post(path, body, game.id), postSvg: (path, body) => postSvg(path, body, game.id),
                   t: said.t, tn: said.tn, tp: said.tp, parts: said.parts, list: said.list, number: said.number,
                   lang: said.lang};
  const editor = module.create(context);
  current = {game, editor};
  document.documentElement.dataset.game = game.id;
  document.title = t("{game} — the referee", {game: game.title});
  ui.title.replaceChildren(game.title, " ", el("span", {text: t("· the referee")}));
  ui.rules.href = keepingLanguage("v1/games/" + game.id + "/rules");
  ui.main.classList.toggle("wide", !!editor.wide);
  ui.hint.textContent = editor.hint || t("Ctrl+Enter scores");
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
ui.example.addEventListener("click", async () => {
  await current.editor.example(); // an editor may fetch its example
  ui.result.hidden = true;
  changed();
  announce(t("The example table is in the editor."));
});
ui.clear.addEventListener("click", () => {
  current.editor.load(null);
  ui.result.hidden = true;
  changed();
  announce(t("The table is empty."));
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
window.addEventListener("hashchange", () => {
  const {game, table} = readFragment();
  if (!current || game !== current.game.id || (table !== undefined &&
      JSON.stringify(table) !== JSON.stringify(current.editor.table()))) {
    if (current && game === current.game.id && table !== undefined) {
      current.editor.load(table);
      ui.result.hidden = true;
      changed();
    } else {
      choose(game, table);
    }
  }
});

async function start() {
  const response = await fetch("referee/games.json", {headers: {"Accept": "application/json"}});
  games = (await response.json()).games;
  const {game, table} = readFragment();
  await choose(games.some((g) => g.id === game) ? game : games[0].id, table);
}

start();
