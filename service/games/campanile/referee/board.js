// Campanile's board on /play: the game's picture of what the seat may see (/picture of its /view: the five towers
// in their row, the tokens under them; service/games/campanile/picture.py), its towers made targets where a step
// touches them, and below it what the picture does not draw (a table knows no hand, supply nor pile): the seat's
// hand, the stories a card may add, the tokens of its supply, the Finito piles, and the steps in words.
//
// Pointing, by the turn's step:
// - play (C-TURN-PLAY): a card of the hand is chosen (or the tower of its style, which is the same choice), then the
//   stories it adds (1, 2 or 3, those the rules allow lit); pointed at again, the card is put back;
// - bet (C-TURN-BET): a tower and a token's value, in either order; when what is pointed at leaves one bet, it is
//   made; "No bet" beside them;
// - draw (C-TURN-DRAW): the Finito pile whose number is the stories just built;
// - pass, and anything else the service offers: a button, said in the service's words.
// A target stands for the legal steps it makes; for several, the page lists them in words (pick). Nothing that is
// not lit can be chosen.
//
// One Tab stop (the shared roving tabindex): the arrow keys move between the lit targets as they lie on the screen,
// Enter or Space chooses, Escape puts back what is chosen. On a touch screen every target is 44 px at least (the
// picture is not drawn smaller than its towers' targets allow: it scrolls sideways instead). Drawn with the
// picture's own colours; its words are the game's `pages` catalogue (context.t, tn, tp).

import {roving} from "../assets/roving.js"; // (the referee pages' assets, beside the games' modules)

const SVG = "http://www.w3.org/2000/svg";
// the picture's colours (picture.py: STYLE_FILL, PLAYER_FILL)
const STYLE_FILL = {A: "#8c6d4f", B: "#5d7a8c", C: "#7d6b99", D: "#9a5b4b", E: "#5f7d5a"};
const LIT = "#7a2f22", INK = "#2f261d";
const TOWER_PITCH = 106; // the picture's TOWER_W + GAP: a tower's target is as wide as its place
const TOUCH_SCALE = 0.45; // on a touch screen, the picture drawn at this scale at least: 102 units ≥ 44 px
const STORIES = [1, 2, 3];
const VALUES = [1, 2, 3];

export function createBoard(context) {
  const {root, el, svgNode, picture, t, tn, tp, touch} = context;
  let offer = null;   // {view, steps, texts, seat, names, pick}
  let chosen = {card: null, tower: null, value: null}; // a card's style (play), a tower and a value (bet)
  let spent = true;   // a step was picked: nothing is lit until the next turn
  let shown = 0;      // the latest show(): an older picture arriving late is dropped
  let keyboard = false; // the last pointing was by the keyboard: the focus comes back to the board
  let parts = null;   // the drawn targets: {cards, towers, stories, values, piles, actions, status}

  const targets = roving(root, ".cpb-target[data-lit]", (node) => node.dataset.key);

  root.addEventListener("click", (event) => {
    const node = event.target.closest && event.target.closest(".cpb-target");
    if (!node || !root.contains(node) || !("lit" in node.dataset)) return;
    event.preventDefault();
    activate(node);
  });
  root.addEventListener("keydown", (event) => {
    keyboard = true;
    if (event.key === "Escape" && parts && !spent && !nothingChosen()) {
      event.preventDefault();
      putBack();
      return;
    }
    const node = event.target.closest && event.target.closest(".cpb-target");
    if (!node || node.tagName.toLowerCase() === "button" || !("lit" in node.dataset)) return;
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    activate(node);
  });
  root.addEventListener("pointerdown", () => { keyboard = false; });
  root.addEventListener("focusin", (event) => paintTower(event.target, true));
  root.addEventListener("focusout", (event) => paintTower(event.target, false));

  // ---------------------------------------------------------------- the words

  const playerName = (i) => (offer.names && offer.names[i]) || t("Player {number}", {number: i + 1});
  const handOf = (view, seat) => (view.players[seat] && Array.isArray(view.players[seat].hand)
    ? view.players[seat].hand : []);
  const supplyOf = (view, seat) => (view.players[seat] && view.players[seat].supply) || {};
  const styleOf = (tower) => (offer.view.towers[tower] || {}).style;
  const nothingChosen = () => chosen.card === null && chosen.tower === null && chosen.value === null;

  function helpText(step) {
    if (step === "play") return t("Choose a card of your hand (or its tower), then the stories it adds.");
    if (step === "bet") return t("Bet a token: choose a tower and a token's value, or No bet.");
    if (step === "draw") return t("Take the face-up card of the Finito pile numbered as the stories you built.");
    return "";
  }

  function chosenWords() {
    const words = [];
    if (chosen.card !== null) words.push(t("the card {style}", {style: chosen.card}));
    if (chosen.tower !== null) words.push(t("tower {style}", {style: styleOf(chosen.tower)}));
    if (chosen.value !== null) words.push(t("a token of {value}", {value: chosen.value}));
    return words;
  }

  // ---------------------------------------------------------------- what each step takes

  const indicesOf = (test) => offer.steps.map((step, i) => (test(step) ? i : -1)).filter((i) => i >= 0);
  const plays = (card, stories) => indicesOf((s) => s.type === "play" && (card === null || s.card === card) &&
                                                     (stories === null || s.stories === stories));
  const bets = (tower, value) => indicesOf((s) => s.type === "bet" && (tower === null || s.tower === tower) &&
                                                   (value === null || s.value === value));
  const ofType = (type) => indicesOf((s) => s.type === type);
  const OTHER = new Set(["play", "bet", "no_bet", "draw", "pass"]);

  // ---------------------------------------------------------------- drawing

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    return node;
  }

  function drawPicture(text) {
    const node = text ? svgNode(text) : null;
    const box = el("div", {class: "cpb-picture board-scroll"}); // (sideways on a phone: the page's scroll cues)
    box.style.overflowX = "auto";
    if (!node) return {box, towers: []};
    node.setAttribute("role", "group"); // (its towers are targets: no longer one image)
    node.setAttribute("pointer-events", "none"); // (only the towers' targets take the pointer: not a flag over one)
    const width = Number(node.getAttribute("width")) || 0;
    Object.assign(node.style, {width: "100%", height: "auto", maxWidth: width ? width + "px" : ""});
    if (touch()) {
      if (width) node.style.minWidth = Math.ceil(width * TOUCH_SCALE) + "px";
      node.setAttribute("tabindex", "-1"); // (what scrolls holds something the keyboard may focus)
    }
    box.append(node);
    const towers = [];
    for (const tower of node.querySelectorAll("g.tower[data-tower]")) {
      const target = hitArea(tower);
      if (!target) continue;
      const title = tower.querySelector("title");
      target.dataset.key = "tower:" + tower.dataset.tower;
      target.dataset.tower = tower.dataset.tower;
      target.dataset.style = tower.dataset.style || "";
      target.dataset.what = title ? title.textContent : "";
      target.style.outline = "none"; // (its focus ring is its own edge: paintTower)
      towers.push(target);
    }
    return {box, towers};
  }

  // a tower's target: a transparent rect over its place in the row, from the picture's top to below its base
  function hitArea(tower) {
    const base = [...tower.querySelectorAll(":scope > rect")].pop(); // (its base, drawn last)
    if (!base) return null;
    const x = Number(base.getAttribute("x")), y = Number(base.getAttribute("y"));
    const width = Number(base.getAttribute("width")), height = Number(base.getAttribute("height"));
    if (![x, y, width, height].every(Number.isFinite)) return null;
    const middle = x + width / 2;
    const top = Math.max(2, y - 260);
    const hit = svgEl("rect", {class: "cpb-target cpb-hit", x: middle - TOWER_PITCH / 2 + 2, y: top,
                               width: TOWER_PITCH - 4, height: y + height + 6 - top, rx: 8, fill: "transparent",
                               stroke: "none", "pointer-events": "all"});
    tower.append(hit); // (on top: it takes the pointer over the whole tower)
    return hit;
  }

  function paintTower(hit, focused) {
    if (!hit || !hit.classList || !hit.classList.contains("cpb-hit")) return;
    const lit = "lit" in hit.dataset;
    const on = hit.getAttribute("aria-pressed") === "true";
    const focus = focused === undefined ? document.activeElement === hit : focused;
    hit.setAttribute("fill", on ? LIT : "transparent");
    hit.setAttribute("fill-opacity", on ? "0.14" : "1");
    hit.setAttribute("stroke", !lit ? "none" : focus ? INK : LIT);
    hit.setAttribute("stroke-width", focus ? "4" : on ? "3" : "2");
    hit.setAttribute("stroke-dasharray", on || focus ? "none" : "5 4");
  }

  // a card of the hand: its style's letter on its stone's colour
  function cardButton(style, i) {
    const button = el("button", {type: "button", class: "cpb-target cpb-card",
                                 dataset: {key: "card:" + i, card: style}}, [
      el("span", {class: "cpb-face", text: style, "aria-hidden": "true"}),
    ]);
    Object.assign(button.style, {minWidth: "44px", minHeight: "44px", padding: "3px", borderRadius: "8px"});
    const face = button.firstChild;
    Object.assign(face.style, {display: "inline-block", minWidth: "30px", padding: ".35rem .4rem",
                               borderRadius: "5px", background: STYLE_FILL[style] || "#777777", color: "#ffffff",
                               fontWeight: "700"});
    return button;
  }

  function button(key, text, data) {
    const node = el("button", {type: "button", class: "cpb-target", dataset: {key, ...data}, text});
    Object.assign(node.style, {minHeight: "44px", minWidth: "44px"});
    return node;
  }

  // a group of targets under a visible label
  function group(id, label, children) {
    return el("div", {class: "cpb-group", role: "group", "aria-labelledby": id}, [
      el("p", {class: "help", id, text: label}),
      el("div", {class: "actions"}, children),
    ]);
  }

  async function show(given) {
    const mine = ++shown;
    const text = await picture(given.view);
    if (mine !== shown) return;
    const hadFocus = keyboard && (document.activeElement === document.body || root.contains(document.activeElement));
    offer = given;
    spent = false;
    chosen = {card: null, tower: null, value: null};
    const {view, seat} = given;
    const step = view.step;
    const {box, towers} = drawPicture(text);
    const supply = supplyOf(view, seat);

    const cards = handOf(view, seat).map(cardButton);
    const stories = step === "play" ? STORIES.map((n) => button(
      "stories:" + n, tn("{count} story", "{count} stories", n), {stories: String(n)})) : [];
    const values = step === "bet" ? VALUES.map((v) => button(
      "value:" + v, tn("A token of {value} ({count} left)", "A token of {value} ({count} left)",
                       supply[String(v)] || 0, {value: v}), {value: String(v)})) : [];
    const piles = (view.piles || []).map((pile, i) => button(
      "pile:" + (i + 1),
      pile.top ? tn("Finito pile {number}: {top} face up, {count} card", "Finito pile {number}: {top} face up, " +
                    "{count} cards", pile.count, {number: i + 1, top: pile.top})
        : tn("Finito pile {number}: {count} card", "Finito pile {number}: {count} cards", pile.count,
             {number: i + 1}),
      {pile: String(i + 1)}));
    const actions = [];
    if (ofType("no_bet").length) actions.push(button("action:no_bet", t("No bet"), {action: "no_bet"}));
    if (ofType("pass").length) actions.push(button("action:pass", tp("action", "Pass"), {action: "pass"}));
    offer.steps.forEach((s, i) => {
      if (!OTHER.has(s.type)) actions.push(button("other:" + i, offer.texts[i] || s.type, {index: String(i)}));
    });
    const clear = button("clear", t("Put back what is chosen"), {});
    clear.classList.add("small");
    const status = el("p", {class: "help cpb-status"});
    const help = helpText(step);
    const keys = touch() ? null : el("p", {class: "help", text: t("On the board, the arrow keys move between what " +
                                                                  "can be chosen; Enter or Space chooses; Escape " +
                                                                  "puts back what is chosen.")});
    const others = view.players.map((player, i) => (i === seat ? null : el("li", {
      text: tn("{player}: {count} card in hand", "{player}: {count} cards in hand",
               Array.isArray(player.hand) ? player.hand.length : (player.hand && player.hand.count) || 0,
               {player: playerName(i)})})));
    // (data-shown counts the turns drawn, data-step says which step: for whoever waits for the board)
    const board = el("div", {class: "cpb-board", dataset: {shown: String(mine), step: step || ""}}, [
      box,
      help ? el("p", {class: "help cpb-help", text: help}) : null,
      keys,
      group("cpb-hand-label", t("Your hand"), cards.length ? cards : [el("span", {class: "help",
                                                                                 text: t("no cards")})]),
      stories.length ? group("cpb-stories-label", t("Stories the card adds"), stories) : null,
      values.length ? group("cpb-values-label", t("Your tokens"), values) : null,
      el("div", {class: "actions cpb-actions", role: "group", "aria-label": t("What to do")}, [...actions, clear]),
      status,
      group("cpb-piles-label", t("The Finito piles"), piles),
      el("ul", {class: "cpb-others", "aria-label": t("The other players")}, others.filter(Boolean)),
    ]);
    root.replaceChildren(board);
    parts = {cards, towers, stories, values, piles, actions, clear, status};
    refresh();
    if (hadFocus) targets.focus();
  }

  // ---------------------------------------------------------------- lighting

  function light(node, lit) {
    if (node.tagName.toLowerCase() === "button") {
      node.disabled = !lit;
      node.style.borderColor = lit ? "var(--accent)" : "";
    } else if (!lit) {
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
      node.removeAttribute("aria-pressed");
    } else {
      node.setAttribute("role", "button");
    }
    if (lit) node.dataset.lit = ""; else delete node.dataset.lit;
  }

  function press(node, on) {
    if (on === null) node.removeAttribute("aria-pressed"); else node.setAttribute("aria-pressed", String(on));
  }

  function refresh() {
    if (!parts) return;
    const live = !spent;
    parts.cards.forEach((node) => {
      const card = node.dataset.card;
      const on = chosen.card === card;
      light(node, live && plays(card, null).length > 0);
      press(node, plays(card, null).length ? on : null);
      node.classList.toggle("primary", on);
      node.setAttribute("aria-label", t("{style} in your hand", {style: card}));
    });
    for (const node of parts.stories) {
      light(node, live && chosen.card !== null && plays(chosen.card, Number(node.dataset.stories)).length > 0);
    }
    for (const node of parts.values) {
      const value = Number(node.dataset.value);
      const on = chosen.value === value;
      light(node, live && bets(chosen.tower, value).length > 0);
      press(node, bets(null, value).length ? on : null);
      node.classList.toggle("primary", on);
    }
    const pile = offer.view.last_play ? offer.view.last_play.stories : null;
    for (const node of parts.piles) light(node, live && pile === Number(node.dataset.pile) && ofType("draw").length > 0);
    for (const node of parts.actions) {
      light(node, live && (node.dataset.action ? ofType(node.dataset.action).length > 0 : true));
    }
    for (const tower of parts.towers) {
      const index = Number(tower.dataset.tower);
      const style = tower.dataset.style;
      let lit = false, on = null, label = "";
      if (offer.view.step === "play") {
        lit = plays(style, null).length > 0 && handOf(offer.view, offer.seat).includes(style);
        on = lit ? chosen.card === style : null;
        label = t("Play a card {style} on tower {style} ({tower})", {style, tower: tower.dataset.what});
      } else if (offer.view.step === "bet") {
        lit = bets(index, chosen.value).length > 0;
        on = bets(index, null).length ? chosen.tower === index : null;
        label = chosen.value !== null
          ? t("Bet a token of {value} under tower {style} ({tower})", {value: chosen.value, style,
                                                                      tower: tower.dataset.what})
          : t("Bet under tower {style} ({tower})", {style, tower: tower.dataset.what});
      }
      lit = lit && live;
      light(tower, lit);
      if (lit) {
        tower.setAttribute("aria-label", label);
        press(tower, on);
      }
      paintTower(tower);
    }
    const any = !nothingChosen();
    light(parts.clear, any && live);
    parts.clear.hidden = !any || !live;
    parts.status.textContent = any ? t("Chosen: {things}.", {things: context.list(chosenWords())}) : "";
    parts.status.hidden = !any;
    targets.settle();
  }

  // ---------------------------------------------------------------- pointing

  function said() {
    context.announce(nothingChosen() ? t("Nothing is chosen.")
      : t("Chosen: {things}.", {things: context.list(chosenWords())}));
  }

  function putBack() {
    chosen = {card: null, tower: null, value: null};
    refresh();
    said();
    const now = document.activeElement;
    if (keyboard && (!now || now === document.body || (root.contains(now) && !("lit" in (now.dataset || {}))))) {
      targets.focus(); // (the focus was on what is no longer lit)
    }
  }

  function choose(indices) {
    if (!indices.length || spent || !offer) return;
    if (indices.length === 1) {
      spent = true;
      refresh();
    }
    offer.pick(indices);
  }

  function chooseCard(style) {
    chosen.card = chosen.card === style ? null : style;
    refresh();
    said();
    const first = parts.stories.find((node) => "lit" in node.dataset);
    if (chosen.card !== null && first) targets.current(first.dataset.key);
  }

  // a bet's part pointed at: made when it leaves one bet, else kept chosen
  function chooseBet(tower, value) {
    const found = bets(tower, value);
    if (found.length === 1 || (tower !== null && value !== null)) return choose(found);
    chosen.tower = tower;
    chosen.value = value;
    refresh();
    said();
  }

  function activate(node) {
    if (spent || !offer || !("lit" in node.dataset)) return;
    const key = node.dataset.key || "";
    if (key === "clear") return putBack();
    if (key.startsWith("card:")) return chooseCard(node.dataset.card);
    if (key.startsWith("stories:")) return choose(plays(chosen.card, Number(node.dataset.stories)));
    if (key.startsWith("tower:")) {
      const index = Number(node.dataset.tower);
      if (offer.view.step === "play") return chooseCard(node.dataset.style);
      if (chosen.tower === index && chosen.value === null) { // pointed at again: put back
        chosen.tower = null;
        refresh();
        return said();
      }
      return chooseBet(index, chosen.value);
    }
    if (key.startsWith("value:")) {
      const value = Number(node.dataset.value);
      if (chosen.value === value && chosen.tower === null) {
        chosen.value = null;
        refresh();
        return said();
      }
      return chooseBet(chosen.tower, value);
    }
    if (key.startsWith("pile:")) return choose(ofType("draw"));
    if (key.startsWith("action:")) return choose(ofType(node.dataset.action));
    if (key.startsWith("other:")) return choose([Number(node.dataset.index)]);
  }

  return {show};
}
