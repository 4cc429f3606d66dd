// Torri's board on /play: the game's picture of what the seat may see (/picture of its /view: the players' towers,
// service/games/torri/picture.py), its towers made targets where a step touches them, and below it what the picture
// does not draw (a table knows no hand, market nor deck): the seat's hand, the market and the decks, the other
// hand face down, each card drawn as the picture draws a story (its rank's colour, Buona Pietra gold, a noble by its
// notation's letters), and the actions in words.
//
// Pointing: every lit target stands for the legal steps that start with it. A card of the hand (a face-down card of
// the other hand, for a Trade's take; one of the seat's towers, to complete it) is chosen and put back by pointing
// at it again; a card is lit while some step uses the cards chosen with it. Then what to do with them: an action
// (Exchange, Build, Give back, Play a noble card, Complete, Take) is lit when a step is made of exactly the cards or
// towers chosen, and one of the seat's towers is lit to be extended with them. Steps that take nothing chosen are
// lit at once: Purchase, Pass, Close, a draw (the deck, the noble deck, a card of the market), Guard, Giostra, Let
// it happen, the tower a Conspiracy aims at. A target standing for one step plays it; for several (a build whose
// Buona Pietra can be read two ways), the page lists them in words. Nothing that is not lit can be chosen.
//
// One Tab stop (the shared roving tabindex): the arrow keys move between the lit targets as they lie on the screen,
// Enter or Space chooses, Escape puts back what is chosen. On a touch screen every target is 44 px at least: the
// picture is not drawn smaller than its towers' targets allow (it scrolls sideways instead), the cards are buttons of
// 44 px. Everything is drawn with the picture's own colours, as SVG attributes and the page's classes: no style
// sheet of its own (a few sizes set on the elements themselves, which the pages' policy allows).
// Its words are the game's `pages` catalogue (context.t, tn, tp); a tower is described by the picture's own words
// (its title, in the page's language).

import {light, paintHit, press, wire} from "../assets/pointing.js";
import {roving} from "../assets/roving.js"; // (the referee pages' assets, beside the games' modules)

const SVG = "http://www.w3.org/2000/svg";
// the picture's colours (picture.py: RANK_FILL, BP_FILL, the nobles' badges, the roof)
const RANK_FILL = {5: "#7a8f5a", 6: "#4f7f8c", 7: "#8a6bb0", 8: "#b8783a", 9: "#a8483e", 10: "#5a5f73"};
const BP_FILL = "#d9b24c", BP_EDGE = "#8a6a1c", BP_INK = "#3d2e08";
const NOBLE_FILL = "#efe1bf", NOBLE_EDGE = "#a08a5c", NOBLE_INK = "#5b4720";
const BACK_FILL = "#7a2f22", BACK_LINE = "#e8cfa4";
const LIT = "#7a2f22", INK = "#2f261d";
// the nobles as the game names them in every language (narration.py, NOBLES), and their notation's letters
const NOBLES = {
  buona_pietra: ["Buona Pietra", "BP"], via_francigena: ["Via Francigena", "VF"], monumento: ["Monumento", "MON"],
  giostra: ["Giostra", "GI"], cappella: ["Cappella di Santa Fina", "SF"], palazzo: ["Palazzo Comunale", "PC"],
  mura: ["Mura", "MU"],
};
const CARD = {w: 36, h: 48}; // a card's drawing in a button (a 44 px target with its padding)
const TOWER_PITCH = 62; // the picture's CARD_W + GAP: a tower's target is as wide as its place
const TOUCH_SCALE = 0.75; // on a touch screen, the picture drawn at this scale at least: 62 units ≥ 44 px
// the actions in words, in this order; the draws and the towers are pointed at where they lie
const ACTIONS = ["purchase", "exchange", "build", "complete", "noble", "close", "take", "give", "guard", "giostra",
                 "decline", "stop", "refill", "pass", "other"];

export function createBoard(context) {
  const {root, el, svgNode, picture, t, tn, tp, list, number, touch, announce} = context;
  let offer = null;   // {view, steps, texts, seat, names, pick}
  let needs = [];     // what each step takes: {action, cards (names, from the hand), towers, positions}
  let chosen = {cards: [], towers: [], positions: []}; // hand positions, the seat's tower indices, the other's
  let spent = true;   // a step was picked: nothing is lit until the next turn
  let shown = 0;      // the latest show(): an older picture arriving late is dropped
  let parts = null;   // the drawn targets: {hand, market, decks, other, towers, actions, clear, status}

  const targets = roving(root, ".tt-target[data-lit]", (node) => node.dataset.key);

  const pointer = wire(root, ".tt-target", {
    activate, putBack, canPutBack: () => !!parts && !spent && !nothingChosen(),
    paint: (node, focused) => paintTower(node, focused),
  });

  // ---------------------------------------------------------------- the words

  const cardName = (name) => (NOBLES[name] ? NOBLES[name][0] : number(Number(name)));
  // a card's name with the letters its drawing shows (a noble: "Cappella di Santa Fina, SF")
  const cardShown = (name) => (NOBLES[name] ? NOBLES[name][0] + ", " + NOBLES[name][1] : number(Number(name)));
  const handOf = (view, seat) => (view.players[seat] && Array.isArray(view.players[seat].hand)
    ? view.players[seat].hand : []);
  const countOf = (pile) => (Array.isArray(pile) ? pile.length
    : pile && typeof pile.count === "number" ? pile.count : 0);
  const other = () => 1 - offer.seat;
  const playerName = (i) => (offer.names && offer.names[i]) || t("Player {number}", {number: i + 1});

  function actionLabel(action, steps) {
    switch (action) {
      case "purchase": return tp("action", "Purchase");
      case "exchange": return tp("action", "Exchange");
      case "build": return tp("action", "Build");
      case "complete": return tp("action", "Complete");
      case "close": return tp("action", "Close the construction");
      case "pass": return tp("action", "Pass");
      case "take": return tp("action", "Take");
      case "give": return tp("action", "Give back");
      case "guard": return t("Guard with a 5");
      case "giostra": return t("Play Giostra");
      case "decline": return t("Let it happen");
      case "refill": return t("Refill the market");
      case "stop": return offer.view.pending && offer.view.pending.type === "rebuild"
        ? t("Take the cards back") : tp("action", "Stop drawing");
      case "noble": {
        const cards = new Set(steps.map((i) => offer.steps[i].card));
        return cards.size === 1 ? t("Play {card}", {card: cardName([...cards][0])}) : t("Play a noble card");
      }
      default: return t("Other steps");
    }
  }

  function helpText(view) {
    const pending = view.pending;
    const kind = pending && pending.type;
    if (kind === "draw") {
      return tn("Draw {count} card: point at a deck or at a card of the market.",
                "Draw {count} cards: point at a deck or at a card of the market.", pending.left || 1);
    }
    if (kind === "target") return t("Point at the tower the Conspiracy destroys.");
    if (kind === "take") {
      return t("Choose the cards to take from {player}'s hand, then Take.", {player: playerName(other())});
    }
    if (kind === "give") return t("Choose the cards to give back, then Give back.");
    if (kind === "guard" || kind === "giostra") return t("Answer, or let it happen.");
    if (kind) return "";
    return t("Choose cards from your hand, then what to do with them: Exchange, Build, or one of your towers to " +
             "extend it. Choose towers, then Complete.");
  }

  // ---------------------------------------------------------------- what each step takes

  function needOf(step, view, seat) {
    const need = {action: "other", cards: [], towers: [], positions: []};
    const rebuild = view.pending && view.pending.type === "rebuild"; // its cards are not in the hand
    switch (step.type) {
      case "purchase": case "pass": case "close": case "guard": case "giostra": case "decline": case "stop":
      case "refill":
        need.action = step.type;
        break;
      case "draw":
        need.action = step.from === "market" ? "market:" + step.card : step.from;
        break;
      case "exchange": case "give":
        need.action = step.type;
        need.cards = [...(step.cards || [])];
        break;
      case "build":
        need.action = "build";
        if (!rebuild) need.cards = [...(step.cards || [])];
        break;
      case "extend":
        need.action = "tower:" + seat + ":" + step.tower;
        if (!rebuild) need.cards = [...(step.cards || [])];
        break;
      case "complete":
        need.action = "complete";
        need.towers = [...(step.towers || [])];
        break;
      case "target":
        need.action = "tower:" + step.player + ":" + step.tower;
        break;
      case "noble":
        need.action = "noble";
        need.cards = [step.card, ...(step.cost || [])];
        break;
      case "take":
        need.action = "take";
        if (Array.isArray(step.positions)) need.positions = [...step.positions];
        break;
      default:
        break;
    }
    if (!within(need.cards, handOf(view, seat))) need.cards = []; // (cards not in the hand: pointed at by the action)
    return need;
  }

  function tally(names) {
    const counts = new Map();
    for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
    return counts;
  }

  // whether the multiset `part` lies within `whole`
  function within(part, whole) {
    const have = tally(whole);
    for (const [name, count] of tally(part)) if ((have.get(name) || 0) < count) return false;
    return true;
  }

  const sameCards = (a, b) => a.length === b.length && within(a, b);
  const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
  const covers = (whole, part) => part.every((x) => whole.includes(x));
  const free = (need) => !need.cards.length && !need.towers.length && !need.positions.length;
  const chosenCards = () => chosen.cards.map((p) => handOf(offer.view, offer.seat)[p]);
  const nothingChosen = () => !chosen.cards.length && !chosen.towers.length && !chosen.positions.length;

  // the steps an action stands for now: those made of exactly what is chosen, and those that take nothing chosen
  function matching(action) {
    if (spent || !offer) return [];
    const cards = chosenCards();
    const found = [];
    needs.forEach((need, i) => {
      if (need.action !== action) return;
      if (free(need) || (sameCards(need.cards, cards) && sameSet(need.towers, chosen.towers) &&
                         sameSet(need.positions, chosen.positions))) found.push(i);
    });
    return found;
  }

  // whether some step takes what is chosen and more: cards `cards`, towers `towers`, positions `positions`
  function extensible(cards, towers, positions) {
    return needs.some((need) => (need.cards.length || need.towers.length || need.positions.length) &&
      within(cards, need.cards) && covers(need.towers, towers) && covers(need.positions, positions));
  }

  // ---------------------------------------------------------------- drawing

  function svgEl(tag, attrs, children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of [].concat(children || [])) if (child) node.appendChild(child);
    return node;
  }

  function svgText(x, y, text, attrs) {
    const node = svgEl("text", {x, y, "text-anchor": "middle", ...attrs});
    node.textContent = text;
    return node;
  }

  // a card as the picture draws a story: face up (`name`), or face down (name null); a check when chosen
  function cardDrawing(name, marked) {
    const {w, h} = CARD;
    const shapes = [];
    if (name === null) {
      shapes.push(svgEl("rect", {x: 1, y: 1, width: w - 2, height: h - 2, rx: 4, fill: BACK_FILL}),
                  svgEl("rect", {x: 5, y: 5, width: w - 10, height: h - 10, rx: 2, fill: "none", stroke: BACK_LINE,
                                 "stroke-width": 1.2}),
                  svgEl("path", {d: `M${w / 2 - 5} ${h / 2 + 8} v-11 h2.5 v-4 h5 v4 h2.5 v11 Z`, fill: BACK_LINE}));
    } else if (NOBLES[name]) {
      const gold = name === "buona_pietra";
      shapes.push(svgEl("rect", {x: 1, y: 1, width: w - 2, height: h - 2, rx: 4, fill: gold ? BP_FILL : NOBLE_FILL,
                                 stroke: gold ? BP_EDGE : NOBLE_EDGE, "stroke-width": 1.2,
                                 "stroke-dasharray": gold ? "3 2" : "none"}),
                  svgText(w / 2, h / 2 + 4, NOBLES[name][1], {"font-size": 12, "font-weight": 700,
                                                               fill: gold ? BP_INK : NOBLE_INK}));
    } else {
      shapes.push(svgEl("rect", {x: 1, y: 1, width: w - 2, height: h - 2, rx: 4, fill: RANK_FILL[name] || "#777777"}),
                  svgEl("rect", {x: 4, y: 4, width: w - 8, height: 2, rx: 1, fill: "#ffffff", opacity: 0.18}),
                  svgText(w / 2, h / 2 + 5.5, name, {"font-size": 16, "font-weight": 700, fill: "#ffffff"}));
    }
    if (marked) {
      shapes.push(svgEl("circle", {cx: w - 8, cy: 8, r: 7, fill: "#ffffff", stroke: INK, "stroke-width": 1.5}),
                  svgEl("path", {d: `M${w - 11.5} 8 l2.5 2.5 l4.5 -5`, fill: "none", stroke: INK, "stroke-width": 2,
                                 "stroke-linecap": "round", "stroke-linejoin": "round"}));
    }
    return svgEl("svg", {width: w, height: h, viewBox: `0 0 ${w} ${h}`, "aria-hidden": "true",
                         focusable: "false"}, shapes);
  }

  function cardButton(key, label, name, data) {
    const button = el("button", {type: "button", class: "tt-target tt-card", "aria-label": label,
                                 dataset: {key, ...data}}, [cardDrawing(name, false)]);
    button.style.padding = "3px";
    button.style.borderRadius = "8px";
    button.style.minWidth = "44px";
    return button;
  }

  // a group of targets under a visible label
  function group(id, label, children) {
    return el("div", {class: "tt-group", role: "group", "aria-labelledby": id}, [
      el("p", {class: "help", id, text: label}),
      el("div", {class: "actions"}, children),
    ]);
  }

  function drawPicture(text) {
    const node = text ? svgNode(text) : null;
    const box = el("div", {class: "tt-picture board-scroll"}); // (sideways on a phone: the page's scroll cues)
    box.style.overflowX = "auto";
    if (!node) return {box, towers: []};
    node.setAttribute("role", "group"); // (its towers are targets: no longer one image)
    if (touch()) {
      const width = Number(node.getAttribute("width")) || 0;
      if (width) node.style.minWidth = Math.ceil(width * TOUCH_SCALE) + "px";
      // what scrolls holds something the keyboard may focus (its towers, when lit, are the Tab stop)
      node.setAttribute("tabindex", "-1");
    }
    box.append(node);
    const towers = [];
    for (const row of node.querySelectorAll("g.player[data-player]")) {
      const player = Number(row.dataset.player);
      for (const tower of row.querySelectorAll("g.tower[data-tower]")) {
        const target = hitArea(tower);
        if (!target) continue;
        const title = tower.querySelector("title");
        target.dataset.key = "tower:" + player + ":" + tower.dataset.tower;
        target.dataset.player = String(player);
        target.dataset.tower = tower.dataset.tower;
        target.dataset.what = title ? title.textContent : "";
        target.style.outline = "none"; // (its focus ring is its own edge: paintTower)
        towers.push(target);
      }
    }
    return {box, towers};
  }

  // a tower's target: a rect over it, transparent (the picture looks the same), as wide as the tower's place in its
  // row and from above its roof to below its label; its edge drawn when it is lit. It is the target rather than the
  // tower's group, whose words (the ranks on its stories, its label) are the picture's, not the target's name.
  function hitArea(tower) {
    const shapes = [...tower.querySelectorAll(":scope > rect")]
      .map((rect) => ["x", "y", "width", "height"].map((name) => Number(rect.getAttribute(name))))
      .filter((box) => box.every(Number.isFinite)); // (each story's card, and its sheen within it)
    if (!shapes.length) return null;
    const left = Math.min(...shapes.map(([x]) => x));
    const top = Math.min(...shapes.map(([, y]) => y));
    const bottom = Math.max(...shapes.map(([, y, , height]) => y + height));
    const card = Math.max(...shapes.map(([, , width]) => width)); // the picture's CARD_W
    const hit = svgEl("rect", {class: "tt-target tt-hit", x: left + card / 2 - TOWER_PITCH / 2 + 0.5, y: top - 24,
                               width: TOWER_PITCH - 1, height: bottom - top + 24 + 38, rx: 8, fill: "transparent",
                               stroke: "none"});
    tower.append(hit); // (on top: it takes the pointer over the whole tower)
    return hit;
  }

  function paintTower(hit, focused) {
    if (hit && hit.classList && hit.classList.contains("tt-hit")) paintHit(hit, focused, {lit: LIT, ink: INK});
  }


  async function show(given) {
    const mine = ++shown;
    const text = await picture(given.view);
    if (mine !== shown) return;
    const hadFocus = pointer.keyboard &&
      (document.activeElement === document.body || root.contains(document.activeElement));
    offer = given;
    spent = false;
    chosen = {cards: [], towers: [], positions: []};
    needs = given.steps.map((step) => needOf(step, given.view, given.seat));
    const view = given.view;
    const seat = given.seat;
    const {box, towers} = drawPicture(text);

    const hand = handOf(view, seat).map((name, p) => cardButton(
      "hand:" + p, t("{card} in your hand", {card: cardShown(name)}), name,
      {card: name, pos: String(p), pile: "hand"}));
    const market = (Array.isArray(view.market) ? view.market : []).map((name, i) => cardButton(
      "market:" + i, t("{card} in the market", {card: cardShown(name)}), name, {card: name, pile: "market"}));
    const decks = [];
    const pile = (key, count, label) => {
      const button = el("button", {type: "button", class: "tt-target tt-deck",
                                   dataset: {key, pile: key, count: String(count)}},
                        [cardDrawing(null, false), el("span", {text: label})]);
      button.style.padding = "3px .8rem 3px 3px";
      button.style.borderRadius = "8px";
      button.style.gap = ".5rem";
      return button;
    };
    const deck = countOf(view.deck);
    decks.push(pile("deck", deck, tn("Deck: {count} card", "Deck: {count} cards", deck)));
    if ("noble_deck" in view && view.variant && view.variant.nobles) {
      const nobles = countOf(view.noble_deck);
      decks.push(pile("noble_deck", nobles, tn("Noble deck: {count} card", "Noble deck: {count} cards", nobles)));
    }
    const theirs = view.players[other()] ? view.players[other()].hand : [];
    const theirCount = countOf(theirs);
    const otherHand = [];
    for (let p = 0; p < theirCount; p++) {
      const name = Array.isArray(theirs) ? theirs[p] : null;
      otherHand.push(cardButton("other:" + p, t("{player}'s hand: card {number}", {player: playerName(other()),
                                                                                    number: p + 1}),
                                name, {pos: String(p), pile: "other"}));
    }
    const present = ACTIONS.filter((action) => needs.some((need) => need.action === action));
    const actions = present.map((action) => el("button", {type: "button", class: "tt-target tt-action",
                                                          dataset: {key: "action:" + action, action}}));
    const clear = el("button", {type: "button", class: "tt-target tt-clear small", dataset: {key: "clear"},
                                text: t("Put back what is chosen")});
    const status = el("p", {class: "help tt-status"});
    const help = helpText(view);
    const keys = touch() ? null : el("p", {class: "help", id: "tt-keys",
                                           text: t("On the board, the arrow keys move between what can be chosen; " +
                                                   "Enter or Space chooses; Escape puts back what is chosen.")});
    const board = el("div", {class: "tt-board"}, [
      box,
      help ? el("p", {class: "help tt-help", text: help}) : null,
      keys,
      group("tt-hand-label", t("Your hand"), hand.length ? hand : [el("span", {class: "help", text: t("no cards")})]),
      el("div", {class: "actions tt-actions", role: "group", "aria-label": t("What to do")}, [...actions, clear]),
      status,
      group("tt-market-label", t("The market and the decks"), [...market, ...decks]),
      group("tt-other-label", t("{player}'s hand", {player: playerName(other())}),
            otherHand.length ? otherHand : [el("span", {class: "help", text: t("no cards")})]),
    ]);
    root.replaceChildren(board);
    parts = {hand, market, decks, otherHand, towers, actions, clear, status};
    refresh();
    if (hadFocus) targets.focus();
  }

  // ---------------------------------------------------------------- lighting

  function refresh() {
    if (!parts) return;
    const cards = chosenCards();
    const hand = handOf(offer.view, offer.seat);
    parts.hand.forEach((button, p) => {
      const on = chosen.cards.includes(p);
      const lit = !spent && (on || extensible([...cards, hand[p]], chosen.towers, chosen.positions));
      light(button, lit);
      press(button, on);
      button.classList.toggle("primary", on);
      button.replaceChildren(cardDrawing(hand[p], on));
    });
    parts.otherHand.forEach((button, p) => {
      const on = chosen.positions.includes(p);
      const lit = !spent && (on || extensible(cards, chosen.towers, [...chosen.positions, p]));
      light(button, lit);
      press(button, lit || on ? on : null);
      button.classList.toggle("primary", on);
    });
    parts.market.forEach((button) => light(button, matching("market:" + button.dataset.card).length > 0));
    parts.decks.forEach((button) => light(button, matching(button.dataset.pile).length > 0));
    for (const tower of parts.towers) {
      const player = Number(tower.dataset.player);
      const index = Number(tower.dataset.tower);
      const commits = matching(tower.dataset.key);
      const mine = player === offer.seat;
      const on = mine && chosen.towers.includes(index);
      const toggles = mine && !spent && !cards.length && !chosen.positions.length &&
        (on || extensible([], [...chosen.towers, index], []));
      const lit = commits.length > 0 || toggles;
      light(tower, lit);
      if (lit) {
        tower.dataset.mode = commits.length ? "step" : "choose";
        tower.setAttribute("aria-label", towerLabel(tower, player, index, commits));
        press(tower, commits.length ? null : on);
      } else {
        delete tower.dataset.mode;
      }
      paintTower(tower);
    }
    for (const button of parts.actions) {
      const found = matching(button.dataset.action);
      light(button, found.length > 0);
      button.textContent = actionLabel(button.dataset.action, found);
    }
    const any = !nothingChosen();
    light(parts.clear, any && !spent);
    parts.clear.hidden = !any || spent;
    parts.status.textContent = any ? t("Chosen: {things}.", {things: list(chosenWords())}) : "";
    parts.status.hidden = !any;
    targets.settle();
  }

  function towerLabel(tower, player, index, commits) {
    const what = tower.dataset.what;
    const numbered = index + 1;
    if (commits.length && offer.steps[commits[0]].type === "target") {
      return player === offer.seat
        ? t("Aim the Conspiracy at your tower {number} ({tower})", {number: numbered, tower: what})
        : t("Aim the Conspiracy at {player}'s tower {number} ({tower})", {player: playerName(player), number: numbered,
                                                                          tower: what});
    }
    if (commits.length) {
      return chosen.cards.length
        ? t("Extend your tower {number} ({tower}) with the chosen cards", {number: numbered, tower: what})
        : t("Extend your tower {number} ({tower})", {number: numbered, tower: what});
    }
    return t("Your tower {number} ({tower})", {number: numbered, tower: what});
  }

  function chosenWords() {
    const hand = handOf(offer.view, offer.seat);
    return [
      ...chosen.cards.map((p) => cardName(hand[p])),
      ...chosen.towers.map((i) => t("your tower {number}", {number: i + 1})),
      ...chosen.positions.map((p) => t("{player}'s card {number}", {player: playerName(other()), number: p + 1})),
    ];
  }

  // ---------------------------------------------------------------- pointing

  function toggle(list, item) {
    const at = list.indexOf(item);
    if (at >= 0) list.splice(at, 1); else list.push(item);
  }

  function said() {
    announce(nothingChosen() ? t("Nothing is chosen.") : t("Chosen: {things}.", {things: list(chosenWords())}));
  }

  function putBack() {
    chosen = {cards: [], towers: [], positions: []};
    refresh();
    said();
    const now = document.activeElement;
    const away = !now || now === document.body || (root.contains(now) && !("lit" in (now.dataset || {})));
    if (pointer.keyboard && away) {
      targets.focus(); // (the focus was on what is no longer lit: "Put back what is chosen", an action)
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

  function activate(node) {
    if (spent || !offer || !("lit" in node.dataset)) return;
    const key = node.dataset.key || "";
    if (key === "clear") return putBack();
    if (key.startsWith("hand:")) {
      toggle(chosen.cards, Number(node.dataset.pos));
      refresh();
      said();
      return;
    }
    if (key.startsWith("other:")) {
      toggle(chosen.positions, Number(node.dataset.pos));
      refresh();
      said();
      return;
    }
    if (key.startsWith("tower:")) {
      if (node.dataset.mode === "step") return choose(matching(key));
      toggle(chosen.towers, Number(node.dataset.tower));
      refresh();
      said();
      return;
    }
    if (key.startsWith("market:")) return choose(matching("market:" + node.dataset.card));
    if (key === "deck" || key === "noble_deck") return choose(matching(key));
    if (key.startsWith("action:")) return choose(matching(node.dataset.action));
  }

  return {show};
}
