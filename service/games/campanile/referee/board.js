// Campanile's board on /play: the game's picture of what the seat may see (/picture of its /view: the five towers
// in their row, the tokens under them; service/games/campanile/picture.py), each tower's place in the row (the
// tower, its flag and the tokens under it) made a target where a step touches it, and below it what the picture does
// not draw (a table knows no hand, supply nor pile): the seat's hand, the stories a card may add, the tokens of its
// supply, the Finito piles with their face-up cards, and how many cards the other players hold.
//
// Pointing, by the turn's step:
// - play (C-TURN-PLAY): a card of the hand is chosen (or the tower of its style, which is the same choice), then the
//   stories it adds (1, 2 or 3, those the legal steps allow lit); pointed at again, the card is put back;
// - bet (C-TURN-BET): a tower and a token's value, in either order (each lit while some bet takes it with what is
//   chosen); when what is pointed at leaves one bet, it is made; "No bet" beside them;
// - draw (C-TURN-DRAW): the Finito pile whose number is the stories just built;
// - pass, and any other step the service offers: a button, said in the service's words.
// A target stands for the legal steps it makes: one is played at once (pick([i])); for several, the page lists
// them in words (pick(indices)). Nothing that is not lit can be chosen.
//
// One Tab stop (the shared roving tabindex): the arrow keys move between the lit targets as they lie on the screen,
// Enter or Space chooses (the focus then goes on to the next part to choose), Escape puts back what is chosen. On a
// touch screen every target is 44 px at least: the picture is not drawn smaller than its towers' targets allow (it
// scrolls sideways instead), the rest are buttons of 44 px. Drawn with the picture's own colours, as SVG attributes
// and the page's classes: no style sheet of its own (a few sizes set on the elements themselves, which the pages'
// policy allows). Its words are the game's `pages` catalogue (context.t, tn, tp); a tower is described by the
// picture's own words (its title, in the page's language). Its box says which turn it drew (data-shown counts them,
// data-step: the state's step), for whoever waits for it.

import {light, paintHit, press, wire} from "../assets/pointing.js";
import {roving} from "../assets/roving.js"; // (the referee pages' assets, beside the games' modules)

const SVG = "http://www.w3.org/2000/svg";
// the picture's colours (picture.py: STYLE_FILL, PLAYER_FILL, PLAYER_INK)
const STYLE_FILL = {A: "#8c6d4f", B: "#5d7a8c", C: "#7d6b99", D: "#9a5b4b", E: "#5f7d5a"};
const PLAYER_FILL = ["#c0392b", "#2c6fbb", "#e0a526", "#2e8b57", "#6c3483"];
const PLAYER_INK = ["#ffffff", "#ffffff", "#222222", "#ffffff", "#ffffff"];
const LIT = "#7a2f22", INK = "#2f261d";
// the picture's geometry: a tower's place is TOWER_W + GAP wide; its words and the towers' row start below HEAD_H
const TOWER_PITCH = 106, HEAD_H = 58;
const TOUCH_SCALE = 0.45; // on a touch screen, the picture drawn at this scale at least: 102 units ≥ 44 px
const STORIES = [1, 2, 3];
const VALUES = [1, 2, 3];
const NAMED = new Set(["play", "bet", "no_bet", "draw", "pass"]); // the steps the board points at by their parts

export function createBoard(context) {
  const {root, el, svgNode, picture, t, tn, tp, list, touch, announce} = context;
  let offer = null;   // {view, steps, texts, seat, names, pick}
  let chosen = none(); // a card (its style, and the hand's card pointed at), a tower and a value (a bet's)
  let spent = true;   // a step was picked: nothing is lit until the next turn
  let shown = 0;      // the latest show(): an older picture arriving late is dropped
  let parts = null;   // the drawn targets: {cards, towers, stories, values, piles, actions, clear, status}

  const targets = roving(root, ".cpb-target[data-lit]", (node) => node.dataset.key);

  const pointer = wire(root, ".cpb-target", {
    activate, putBack, canPutBack: () => !!parts && !spent && !nothingChosen(),
    paint: (node, focused) => paintTower(node, focused),
  });

  // ---------------------------------------------------------------- the words

  function none() {
    return {card: null, slot: null, tower: null, value: null};
  }

  const playerName = (i) => (offer.names && offer.names[i]) || t("Player {number}", {number: i + 1});
  const handOf = (view, seat) => (view.players[seat] && Array.isArray(view.players[seat].hand)
    ? view.players[seat].hand : []);
  const countOf = (hand) => (Array.isArray(hand) ? hand.length : hand && typeof hand.count === "number"
    ? hand.count : 0);
  const supplyOf = (view, seat) => (view.players[seat] && view.players[seat].supply) || {};
  const styleOf = (tower) => (offer.view.towers[tower] || {}).style;
  const nothingChosen = () => chosen.card === null && chosen.tower === null && chosen.value === null;

  function helpText(step) {
    if (step === "play") return t("Choose a card of your hand (or the tower of its style), then the stories it adds.");
    if (step === "bet") return t("Bet a token: choose a tower and the token's value, or No bet.");
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

  function towerLabel(node, index) {
    const tower = node.dataset.what;
    if (offer.view.step === "play") {
      return t("Play a card {style} on this tower ({tower})", {style: styleOf(index), tower});
    }
    return chosen.value !== null ? t("Bet a token of {value} on this tower ({tower})", {value: chosen.value, tower})
      : t("Bet on this tower ({tower})", {tower});
  }

  // ---------------------------------------------------------------- the steps each target stands for

  const indicesOf = (test) => offer.steps.map((step, i) => (test(step) ? i : -1)).filter((i) => i >= 0);
  const plays = (card, stories) => indicesOf((s) => s.type === "play" && (card === null || s.card === card) &&
                                                     (stories === null || s.stories === stories));
  const bets = (tower, value) => indicesOf((s) => s.type === "bet" && (tower === null || s.tower === tower) &&
                                                   (value === null || s.value === value));
  const ofType = (type) => indicesOf((s) => s.type === type);

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
    Object.assign(node.style, {display: "block", width: "100%", height: "auto", maxWidth: width ? width + "px" : ""});
    if (touch()) {
      if (width) node.style.minWidth = Math.ceil(width * TOUCH_SCALE) + "px";
      node.setAttribute("tabindex", "-1"); // (what scrolls holds something the keyboard may focus)
    }
    box.append(node);
    const legend = node.querySelector(":scope > circle"); // (the first player's dot, below the tokens)
    const floor = legend ? Number(legend.getAttribute("cy")) - Number(legend.getAttribute("r")) - 6 : NaN;
    const towers = [];
    for (const tower of node.querySelectorAll("g.tower[data-tower]")) {
      const target = hitArea(node, tower, floor);
      if (!target) continue;
      const title = tower.querySelector(":scope > title");
      target.dataset.key = "tower:" + tower.dataset.tower;
      target.dataset.tower = tower.dataset.tower;
      target.dataset.style = tower.dataset.style || "";
      target.dataset.what = title ? title.textContent : "";
      target.style.outline = "none"; // (its focus ring is its own edge: paintTower)
      towers.push(target);
    }
    return {box, towers};
  }

  // a tower's target: a transparent rect (the picture looks the same) over its place in the row, as wide as the
  // place and from below the picture's words to above its players: the tower, its flag and the tokens under it. It
  // is the target rather than the tower's group, whose words are the picture's, not the target's name. Drawn last,
  // on top of everything, so that it takes the pointer over the whole place.
  function hitArea(svg, tower, floor) {
    const base = [...tower.querySelectorAll(":scope > rect")].pop(); // (its base, drawn after its cards)
    if (!base) return null;
    const [x, y, width, height] = ["x", "y", "width", "height"].map((name) => Number(base.getAttribute(name)));
    if (![x, y, width, height].every(Number.isFinite)) return null;
    const bottom = Number.isFinite(floor) && floor > y + height + 6 ? floor : y + height + 6;
    const hit = svgEl("rect", {class: "cpb-target cpb-hit", x: x + width / 2 - TOWER_PITCH / 2 + 2, y: HEAD_H,
                               width: TOWER_PITCH - 4, height: bottom - HEAD_H, rx: 8, fill: "transparent",
                               stroke: "none", "pointer-events": "all"});
    svg.append(hit);
    return hit;
  }

  function paintTower(hit, focused) {
    if (hit && hit.classList && hit.classList.contains("cpb-hit")) paintHit(hit, focused, {lit: LIT, ink: INK});
  }


  // a card's face as the picture draws its tower's stones: its style's letter on its style's colour (a button's
  // name is its words, or its label, which says the letter)
  function face(style) {
    const node = el("span", {class: "cpb-face", text: style || "?", "aria-hidden": "true"});
    Object.assign(node.style, {display: "inline-block", minWidth: "30px", padding: ".35rem .4rem",
                               borderRadius: "5px", background: STYLE_FILL[style] || "#6b5b4a", color: "#ffffff",
                               fontWeight: "700", textAlign: "center", lineHeight: "1.2"});
    return node;
  }

  // a token as the picture draws one: its value in a disc of its owner's colour (a button's name is its words)
  function token(value, seat) {
    const node = el("span", {class: "cpb-token", text: String(value), "aria-hidden": "true"});
    Object.assign(node.style, {display: "inline-flex", alignItems: "center", justifyContent: "center",
                               width: "24px", height: "24px", borderRadius: "50%", border: "1px solid #3b2f22",
                               background: PLAYER_FILL[seat % PLAYER_FILL.length], fontWeight: "700",
                               color: PLAYER_INK[seat % PLAYER_INK.length], flex: "none"});
    return node;
  }

  function button(key, data, children, label) {
    const node = el("button", {type: "button", class: "cpb-target", dataset: {key, ...data}}, children);
    if (label) node.setAttribute("aria-label", label);
    Object.assign(node.style, {minHeight: "44px", minWidth: "44px", gap: ".5rem"});
    return node;
  }

  function cardButton(style, slot) {
    const node = button("card:" + slot, {card: style, slot: String(slot)}, [face(style)],
                        t("Card {style} in your hand", {style}));
    Object.assign(node.style, {padding: "3px", borderRadius: "8px"});
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
    const hadFocus = pointer.keyboard &&
      (document.activeElement === document.body || root.contains(document.activeElement));
    offer = given;
    spent = false;
    chosen = none();
    const {view, seat} = given;
    const step = view.step;
    const {box, towers} = drawPicture(text);
    const supply = supplyOf(view, seat);

    const cards = handOf(view, seat).map(cardButton);
    const stories = step === "play" ? STORIES.map((n) => button(
      "stories:" + n, {stories: String(n)}, [tn("{count} story", "{count} stories", n)])) : [];
    const values = step === "bet" ? VALUES.map((value) => {
      const words = tn("A token of {value} ({count} left)", "A token of {value} ({count} left)",
                       supply[String(value)] || 0, {value});
      const node = button("value:" + value, {value: String(value)}, [token(value, seat), el("span", {text: words})]);
      node.style.paddingLeft = ".5rem";
      return node;
    }) : [];
    const piles = (view.piles || []).map((pile, i) => {
      const count = Array.isArray(pile) ? pile.length : pile.count || 0;
      const top = Array.isArray(pile) ? pile[0] : pile.top;
      const words = top
        ? tn("Finito pile {number}: {top} face up, {count} card", "Finito pile {number}: {top} face up, {count} cards",
             count, {number: i + 1, top})
        : tn("Finito pile {number}: {count} card", "Finito pile {number}: {count} cards", count, {number: i + 1});
      const node = button("pile:" + (i + 1), {pile: String(i + 1)},
                          [top ? face(top) : null, el("span", {text: words})]);
      node.lastChild.style.textAlign = "start";
      Object.assign(node.style, {padding: "3px .9rem 3px 3px", borderRadius: "8px"});
      return node;
    });
    const actions = [];
    if (ofType("no_bet").length) actions.push(button("action:no_bet", {action: "no_bet"}, [t("No bet")]));
    if (ofType("pass").length) actions.push(button("action:pass", {action: "pass"}, [tp("action", "Pass")]));
    offer.steps.forEach((s, i) => { // (a step of a kind the board does not know: said in the service's words)
      if (!NAMED.has(s.type)) actions.push(button("other:" + i, {index: String(i)}, [offer.texts[i] || s.type]));
    });
    const clear = button("clear", {}, [t("Put back what is chosen")]);
    clear.classList.add("small");
    const status = el("p", {class: "help cpb-status"});
    const help = helpText(step);
    const keys = touch() ? null : el("p", {class: "help", text: t("On the board, the arrow keys move between what " +
                                                                  "can be chosen; Enter or Space chooses; Escape " +
                                                                  "puts back what is chosen.")});
    const others = view.players.map((player, i) => (i === seat ? null : el("li", {
      text: tn("{player}: {count} card in hand", "{player}: {count} cards in hand", countOf(player.hand),
               {player: playerName(i)})}))).filter(Boolean);
    const board = el("div", {class: "cpb-board", dataset: {shown: String(mine), step: step || ""}}, [
      box,
      help ? el("p", {class: "help cpb-help", text: help}) : null,
      keys,
      group("cpb-hand-label", t("Your hand"), cards.length ? cards : [el("span", {class: "help",
                                                                                 text: t("no card")})]),
      stories.length ? group("cpb-stories-label", t("Stories the card adds"), stories) : null,
      values.length ? group("cpb-values-label", t("Your tokens"), values) : null,
      el("div", {class: "actions cpb-actions", role: "group", "aria-label": t("What to do")}, [...actions, clear]),
      status,
      group("cpb-piles-label", t("The Finito piles"), piles),
      others.length ? el("ul", {class: "cpb-others", "aria-label": t("The other players")}, others) : null,
    ]);
    root.replaceChildren(board);
    parts = {cards, towers, stories, values, piles, actions, clear, status};
    refresh();
    if (hadFocus) targets.focus();
  }

  // ---------------------------------------------------------------- lighting

  function refresh() {
    if (!parts) return;
    const live = !spent;
    const step = offer.view.step;
    for (const node of parts.cards) {
      const playable = plays(node.dataset.card, null).length > 0;
      const on = chosen.slot === Number(node.dataset.slot);
      light(node, live && playable);
      press(node, playable ? on : null);
      node.classList.toggle("primary", on);
    }
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
    const drawn = offer.view.last_play ? offer.view.last_play.stories : null; // C-TURN-DRAW: its number
    for (const node of parts.piles) {
      light(node, live && drawn === Number(node.dataset.pile) && ofType("draw").length > 0);
    }
    for (const node of parts.actions) {
      light(node, live && (node.dataset.action ? ofType(node.dataset.action).length > 0 : true));
    }
    for (const node of parts.towers) {
      const index = Number(node.dataset.tower);
      let lit = false, on = null;
      if (step === "play") {
        lit = handOf(offer.view, offer.seat).includes(styleOf(index)) && plays(styleOf(index), null).length > 0;
        on = chosen.card === styleOf(index);
      } else if (step === "bet") {
        lit = bets(index, chosen.value).length > 0;
        on = bets(index, null).length ? chosen.tower === index : null;
      }
      lit = lit && live;
      light(node, lit);
      if (lit) {
        node.setAttribute("aria-label", towerLabel(node, index));
        press(node, on);
      }
      paintTower(node);
    }
    const any = !nothingChosen();
    light(parts.clear, any && live);
    parts.clear.hidden = !any || !live;
    parts.status.textContent = any ? t("Chosen: {things}.", {things: list(chosenWords())}) : "";
    parts.status.hidden = !any;
    targets.settle();
  }

  // ---------------------------------------------------------------- pointing

  function said() {
    announce(nothingChosen() ? t("Nothing is chosen.") : t("Chosen: {things}.", {things: list(chosenWords())}));
  }

  // what is chosen changed: drawn again, said, and (by the keyboard) the focus on to the next part to choose
  function changed(next) {
    refresh();
    said();
    const first = next && next.find((node) => "lit" in node.dataset);
    if (first) {
      targets.current(first.dataset.key);
      targets.settle();
      if (pointer.keyboard) first.focus();
    } else if (pointer.keyboard && !("lit" in ((document.activeElement || {}).dataset || {}))) {
      targets.focus(); // (the focus was on what is no longer lit)
    }
  }

  function putBack() {
    chosen = none();
    changed(null);
  }

  function choose(indices) {
    if (!indices.length || spent || !offer) return;
    if (indices.length === 1) {
      spent = true;
      refresh();
    }
    offer.pick(indices);
  }

  // a card pointed at (or the tower of its style: the hand's first card of that style): chosen, or put back
  function chooseCard(style, slot) {
    if (chosen.card === style && (slot === null || chosen.slot === slot)) {
      chosen = none();
      return changed(null);
    }
    chosen = {...none(), card: style, slot: slot === null ? handOf(offer.view, offer.seat).indexOf(style) : slot};
    changed(parts.stories);
  }

  // a bet's part pointed at: made when it leaves one bet, else kept chosen (pointed at again: put back)
  function chooseBet(tower, value) {
    if (tower === chosen.tower && value === chosen.value) { // (the only way: one part chosen, pointed at again)
      chosen = none();
      return changed(null);
    }
    const found = bets(tower, value);
    if (found.length === 1 || (tower !== null && value !== null)) return choose(found);
    chosen = {...none(), tower, value};
    changed(tower === null ? parts.towers : parts.values);
  }

  function activate(node) {
    if (spent || !offer || !("lit" in node.dataset)) return;
    const key = node.dataset.key || "";
    if (key === "clear") return putBack();
    if (key.startsWith("card:")) return chooseCard(node.dataset.card, Number(node.dataset.slot));
    if (key.startsWith("stories:")) return choose(plays(chosen.card, Number(node.dataset.stories)));
    if (key.startsWith("tower:")) {
      const index = Number(node.dataset.tower);
      if (offer.view.step === "play") return chooseCard(styleOf(index), chosen.card === styleOf(index) ? chosen.slot
        : null);
      return chooseBet(index, chosen.value);
    }
    if (key.startsWith("value:")) return chooseBet(chosen.tower, Number(node.dataset.value));
    if (key.startsWith("pile:")) return choose(ofType("draw"));
    if (key.startsWith("action:")) return choose(ofType(node.dataset.action));
    if (key.startsWith("other:")) return choose([Number(node.dataset.index)]);
  }

  return {show};
}
