// The public API, as the play page calls it: one function per endpoint, each a POST of JSON to
// /v1/games/<game>/<endpoint> in the page's language (events, violations and problems come back in it). Nothing
// else is called: a front-end can copy this module as it is.

import {spoken} from "../../referee/assets/words.js";

// relative to the page (/play): works wherever the service is mounted
const address = (gameId, endpoint) => "v1/games/" + encodeURIComponent(gameId) + "/" + endpoint;

// {ok, status, body}: the answer as JSON (a problem document when refused); ok false and body null when the
// service could not be reached
export async function post(gameId, endpoint, body, accept = "application/json") {
  let response;
  try {
    response = await fetch(address(gameId, endpoint), {
      method: "POST", headers: spoken({"Content-Type": "application/json", "Accept": accept}),
      body: JSON.stringify(body),
    });
  } catch (e) {
    return {ok: false, status: 0, body: null};
  }
  let answer = null;
  try { answer = await response.json(); } catch (e) { answer = null; }
  return {ok: response.ok, status: response.status, body: answer};
}

export async function listGames() {
  const response = await fetch("v1/games", {headers: spoken({"Accept": "application/json"})});
  return (await response.json()).games;
}

const told = (body, player) => (player === null ? body : {...body, player});

export const api = (gameId) => ({
  // a deal: {state, seed}
  deal: (names, variant) => post(gameId, "new", {names, variant}),
  // whose turn it is and every legal step, each said in words: {to_act, moves, texts}; to_act null: game over
  legalMoves: (state) => post(gameId, "legal-moves", {state, texts: true}),
  // what a seat may see of the state: {state}, the others' hidden cards and the deck hidden
  view: (state, player) => post(gameId, "view", {state, player}),
  // steps applied: {legal, state, events (each with its `text`), violations, failed_at}; with a `player`, the
  // events as that player is told them (what the others draw face down is not named)
  apply: (state, moves, player = null) => post(gameId, "apply", told({state, moves}, player)),
  // a whole record again (resuming a link, retelling it to another player): {states: after each step, events, ...}
  replay: (record, player = null) => post(gameId, "replay", told(record, player)),
  // the computer's choice for the seat to act: {moves}: its turn, or its steps up to a card drawn unseen
  suggest: (state, level, budgetMs) => post(gameId, "suggest",
    level === "mcts" ? {state, level, budget_ms: budgetMs} : {state, level}),
  // the score of the finished game, explained
  score: (state) => post(gameId, "score", {state}),
  // the SVG picture of a state (a seat's view), with a proposed step drawn on it when `moves` is given
  picture: (state, moves) => post(gameId, "picture", moves ? {state, moves} : {state}),
});
