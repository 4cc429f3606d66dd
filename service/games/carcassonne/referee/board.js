// Carcassonne's board on /play (with or without The Tower): the table as the referee's editor draws it (its tiles'
// faces, meeples and towers, its words for tiles and features: editor.js), with the person's legal steps lit on it.
//
// - The tile drawn: the free squares where it fits are lit. A square where it fits one way round puts it there; where
//   it fits several, the square is chosen and the ways it can lie are drawn above the board, each a target (the
//   square shows the one focused or hovered). A tile that fits nowhere is discarded where the tile drawn is shown.
// - After the tile: the tile just placed is drawn up close above the board with every feature a meeple may stand on
//   lit where the editor draws a meeple; with The Tower, the towers and foundations that may take a floor or a
//   meeple on top are lit on the board (pointing at one brings it up close when it offers more than one step).
//   "No meeple" (no floor) beside it.
// - A tower raised: the meeples in its reach are lit; pointing at a tile with more than one brings it up close.
//   "Capture nobody" beside it.
// - A ransom: the person's meeple held by another player is lit in the players' row.
// Every target is a button, named in words, 44 px at least on a touch screen; together they are one Tab stop (the
// arrow keys move between them as they lie on the screen, Enter or Space chooses, Escape steps back). Nothing that is
// not lit can be chosen: the squares and tiles that stand for no step are drawn, not buttons. A target stands for the
// indices of its step (data-move: the step, as JSON), handed to the page's pick.
//
// The board scrolls when it is wider than the screen (class board-scroll), opening on its tiles, and keeps its place
// from one turn to the next as it grows. Its box says which turn it drew (data-shown counts them; data-step: place,
// action, capture or discard), for whoever waits for it.

import {roving} from "../assets/roving.js";
import {CELL, HALVES, freeSquaresOf, key, learnTiles, spotOf, tileDrawings} from "./editor.js";

const RANSOM = 3; // points (K-TOW-RANSOM)
const TOWER = "tower"; // a capture's feature: the meeple on top of a tower
const ON_SQUARE = new Set(["floor", "tower_meeple", "capture"]); // steps that name their square

export function createBoard({root, el, t, tn, list, touch, announce}) {
  const draw = tileDrawings({el, t, list});
  const players = el("ul", {class: "kb-players", "aria-label": t("Players")});
  const help = el("p", {class: "kb-help", id: "kb-help"});
  const keys = el("p", {class: "kc-note kc-keys kb-keys", id: "kb-keys",
                        text: t("The arrow keys move from one lit place to the next; Enter or Space chooses it.")});
  const tray = el("div", {class: "kb-tray"});
  const boardBox = el("div", {class: "kc-board kb-board", role: "group", "aria-label": t("The board"),
                              "aria-describedby": "kb-help kb-keys"});
  const scroll = el("div", {class: "board-scroll kc-scroll kb-scroll"}, boardBox);
  const legend = draw.legend();
  const box = el("div", {class: "kb", dataset: {shown: "0"}}, [players, help, keys, tray, scroll, legend]);
  const targets = roving(box, ".kb-target", (node) => node.dataset.key, ".kb-first");

  let offer = null; // what show() was given: {view, steps, texts, seat, names, pick}
  let groups = null; // the steps by what stands for them (grouped())
  let chosen = null; // the square chosen (a key): its rotations offered, or its tile up close
  let preview = null; // the rotation the chosen square shows
  let done = false; // a step was chosen: nothing is lit until the next turn
  let refocus = false; // the focus was on the board when the step was chosen: it comes back on the next turn
  let corner = null; // the square at the board's top left as last drawn
  let shown = 0;

  const name = (p) => (offer.names && offer.names[p]) || (offer.view.players[p] && offer.view.players[p].name) ||
    t("Player {number}", {number: p + 1});
  const tileAt = (k) => offer.view.board.find((tile) => key(tile.at) === k);
  const lastKey = () => (offer.view.last ? key(offer.view.last) : null);

  // ---------------------------------------------------------------- the steps, by what stands for them

  function grouped() {
    const {steps, view} = offer;
    const found = {place: new Map(), square: new Map(), ransom: new Map(), skip: null, discard: []};
    const add = (map, k, i) => (map.get(k) || map.set(k, []).get(k)).push(i);
    steps.forEach((step, i) => {
      if (step.type === "place") add(found.place, key(step.at), i);
      else if (step.type === "meeple" && view.last) add(found.square, key(view.last), i);
      else if (ON_SQUARE.has(step.type)) add(found.square, key(step.at), i);
      else if (step.type === "ransom") found.ransom.set(step.from, i);
      else if (step.type === "skip") found.skip = i;
      else if (step.type === "discard") found.discard.push(i);
    });
    return found;
  }

  // a step in words, as its target is named
  function stepWords(i) {
    const step = offer.steps[i];
    const me = name(offer.seat);
    const at = step.at ? key(step.at) : lastKey();
    const tile = at && tileAt(at);
    const tower = at && offer.view.towers.find((built) => key(built.at) === at);
    switch (step.type) {
      case "place":
        return t("Put at {at}, turned {rotation}°: {tile}",
                 {at, rotation: step.rotation, tile: draw.tileWords(step.tile, step.rotation)});
      case "meeple":
        return t("Put {player}'s meeple on {feature} at {at}",
                 {player: me, feature: draw.featureWords(tile, step.feature), at});
      case "floor":
        // Translators: a target on /play's board: a floor on a tower {height} floors high now
        return tower ? t("Add a floor to the tower at {at} (now {height} high)", {at, height: tower.height})
          : t("Build a tower at {at}: its first floor", {at});
      case "tower_meeple":
        return t("Put {player}'s meeple on top of the tower at {at}", {player: me, at});
      case "capture":
        return step.feature === TOWER
          ? t("Capture {player}'s meeple on top of the tower at {at}", {player: name(step.player), at})
          : t("Capture {player}'s meeple on {feature} at {at}",
              {player: name(step.player), feature: draw.featureWords(tile, step.feature), at});
      case "ransom":
        return tn("Pay {player} {count} point to free your meeple", "Pay {player} {count} points to free your meeple",
                  RANSOM, {player: name(step.from)});
      case "discard":
        return t("Discard the tile, which fits nowhere: {tile}", {tile: draw.tileWords(step.tile, 0)});
      case "skip":
        return offer.view.step === "capture" ? t("Capture nobody")
          : offer.view.variant && offer.view.variant.tower ? t("No meeple, no floor") : t("No meeple");
      default:
        return offer.texts[i];
    }
  }

  // what a turn asks, in a sentence
  function helpWords() {
    const {view} = offer;
    if (groups.discard.length) return t("Your tile fits nowhere: discard it, and you draw another.");
    if (view.step === "place") {
      return chosen ? t("Choose how the tile lies, or another square.")
        : t("Choose a lit square to put your tile there.");
    }
    if (view.step === "capture") {
      return groups.square.size ? t("Choose a meeple in the tower's reach to capture, or nobody.")
        : t("No meeple is in the tower's reach: capture nobody.");
    }
    return view.variant && view.variant.tower
      ? t("Choose where your meeple goes on the tile you placed, or a lit tower to raise, or nothing.")
      : t("Choose where your meeple goes on the tile you placed, or no meeple.");
  }

  // ---------------------------------------------------------------- targets

  // a button that stands for steps: one (data-move: the step), or several (data-narrows: the board narrows them)
  function target(props, children, indices, action) {
    const single = indices.length === 1;
    return el("button", {type: "button", ...props, class: (props.class || "") + " kb-target kb-lit", tabindex: "-1",
                         dataset: {...(props.dataset || {}),
                                   ...(single ? {move: JSON.stringify(offer.steps[indices[0]])} : {narrows: "true"})},
                         on: {click: () => (action && !single ? action() : choose(indices))}}, children);
  }

  // a control of the board that is no step (stepping back)
  function control(props, children) {
    return el("button", {type: "button", tabindex: "-1", ...props,
                         class: (props.class || "") + " kb-target kb-control"}, children);
  }

  function choose(indices) {
    if (done || !offer) return;
    if (indices.length === 1) {
      done = true;
      // chosen by the keyboard: the focus comes back to the board on the next turn (not after a click or a tap)
      const active = document.activeElement;
      refocus = box.contains(active) && active.matches(":focus-visible");
      drawAll();
    }
    offer.pick(indices);
  }

  // ---------------------------------------------------------------- drawing

  function drawPlayers() {
    const {view, seat} = offer;
    const tower = view.variant && view.variant.tower;
    players.replaceChildren(...view.players.map((player, p) => {
      const facts = [tn("{count} point", "{count} points", player.score),
                     tn("{count} meeple in supply", "{count} meeples in supply", player.supply)];
      if (tower) facts.push(tn("{count} floor left", "{count} floors left", player.floors));
      const held = player.prisoners || [];
      const ransom = !done && groups.ransom.has(p) ? groups.ransom.get(p) : null;
      let offered = false;
      const dots = held.map((owner) => {
        if (ransom !== null && owner === seat && !offered) {
          offered = true;
          return target({class: "kb-prisoner p" + owner, "aria-label": stepWords(ransom),
                         dataset: {key: "ransom:" + p}}, [el("span", {class: "kb-dot", "aria-hidden": "true"})],
                        [ransom]);
        }
        return el("span", {class: "kb-prisoner p" + owner, "aria-hidden": "true"}, [el("span", {class: "kb-dot"})]);
      });
      return el("li", {class: "kb-player" + (p === view.turn ? " kb-now" : ""),
                       "aria-current": p === view.turn ? "true" : null}, [
        el("span", {class: "kb-swatch p" + p, "aria-hidden": "true"}),
        el("strong", {text: name(p)}), " " + facts.join(", "),
        held.length ? el("span", {class: "kb-held"}, [
          " · " + t("prisoners: {players}", {players: list(held.map(name))}) + " ", ...dots]) : null,
      ]);
    }));
  }

  function drawTray() {
    const {view, steps} = offer;
    const parts = [];
    if (done) { tray.replaceChildren(); return; }
    if (view.step === "place") {
      const first = steps.find((step) => step.tile);
      if (first) {
        parts.push(el("div", {class: "kb-drawn", dataset: {tile: first.tile}}, [
          el("span", {class: "kb-face-box"}, [draw.tileFace(first.tile, 0)]),
          el("span", {}, [el("strong", {text: t("Your tile:")}), " " + draw.tileWords(first.tile, 0)]),
        ]));
      }
      if (groups.discard.length) {
        parts.push(el("div", {class: "kb-row"}, groups.discard.map((i) => target({
          class: "kb-discard", "aria-label": stepWords(i), dataset: {key: "discard:" + steps[i].tile},
        }, [el("span", {class: "kb-face-box", "aria-hidden": "true"}, [draw.tileFace(steps[i].tile, 0)]),
            el("span", {"aria-hidden": "true", text: t("Discard it")})], [i]))));
      }
      if (chosen && groups.place.has(chosen)) {
        const indices = groups.place.get(chosen);
        // Translators: the square {at} chosen on /play's board, where the tile can lie {count} ways round
        parts.push(el("p", {class: "kb-ask", text: tn("The tile fits {at} {count} way: choose it.",
                                                      "The tile fits {at} {count} ways: choose how it lies.",
                                                      indices.length, {at: chosen})}));
        parts.push(el("div", {class: "kb-row kb-rotations"}, [
          ...indices.map((i, n) => {
            const step = steps[i];
            const node = target({class: "kb-rot" + (n === 0 ? " kb-first" : ""), "aria-label": stepWords(i),
                                 dataset: {key: "rotation:" + step.rotation, at: chosen,
                                           rotation: String(step.rotation)}},
                                [draw.tileFace(step.tile, step.rotation)], [i]);
            const show = () => showRotation(step.rotation);
            node.addEventListener("focus", show);
            node.addEventListener("mouseenter", show);
            return node;
          }),
          control({class: "small kb-back", text: t("Another square"), dataset: {key: "back"},
                   on: {click: () => back()}}),
        ]));
      }
    } else {
      const k = chosen;
      const tile = k && tileAt(k);
      if (tile && groups.square.has(k)) parts.push(zoom(tile, groups.square.get(k)));
      if (groups.skip !== null) {
        parts.push(el("div", {class: "kb-row"}, [target({
          class: "kb-skip" + (parts.length ? "" : " kb-first"), text: stepWords(groups.skip),
          "aria-label": stepWords(groups.skip), dataset: {key: "skip"}}, [], [groups.skip])]));
      }
    }
    tray.replaceChildren(...parts);
  }

  // a tile up close: each step it offers a target, a feature's where the editor draws a meeple on it, a tower's
  // beside it
  function zoom(tile, indices) {
    const {steps, seat} = offer;
    const k = key(tile.at);
    // Translators: a tile of /play's board drawn large above the board, its steps on it
    const face = el("div", {class: "kb-zoom", role: "group", "aria-label": t("The tile at {at}, up close", {at: k})},
                    [draw.tileFace(tile.tile, tile.rotation)]);
    draw.dressTile(face, tile, offer.view, name);
    const side = [];
    let first = true;
    for (const i of indices) {
      const step = steps[i];
      const onTile = step.type === "meeple" || (step.type === "capture" && step.feature !== TOWER);
      const feature = onTile ? step.feature : null;
      if (feature !== null) {
        const owner = step.type === "meeple" ? seat : step.player;
        const lying = HALVES.includes(feature) || feature === "inner";
        const node = target({class: "kb-spot p" + owner + (step.type === "capture" ? " kb-capture" : "") +
                                    (first ? " kb-first" : ""),
                             "aria-label": stepWords(i), title: feature,
                             dataset: {key: step.type + ":" + feature + ":" + (step.player ?? ""), feature, at: k}},
                            [el("span", {class: "kb-ghost" + (lying ? " farmer" : ""), "aria-hidden": "true"})], [i]);
        const [x, y] = spotOf(feature);
        node.style.left = x * 100 + "%";
        node.style.top = y * 100 + "%";
        face.appendChild(node);
      } else {
        const raised = offer.view.towers.some((built) => key(built.at) === k);
        const words = step.type === "floor" ? (raised ? t("Add a floor") : t("Build a tower"))
          : step.type === "tower_meeple" ? t("Meeple on top") : t("{player} on top", {player: name(step.player)});
        side.push(target({class: "kb-act" + (first ? " kb-first" : "") +
                                  (step.type === "floor" ? "" : " p" + (step.player ?? seat)),
                          "aria-label": stepWords(i), dataset: {key: step.type + ":" + k, at: k}},
                         [el("span", {class: step.type === "floor" ? "kb-floor" : "kb-dot", "aria-hidden": "true"}),
                          el("span", {"aria-hidden": "true", text: words})], [i]));
      }
      first = false;
    }
    return el("div", {class: "kb-close"}, [
      el("p", {class: "kb-ask", "aria-hidden": "true", text: t("The tile at {at}, up close", {at: k})}),
      el("div", {class: "kb-row"}, [el("div", {class: "kb-zoom-box"}, face),
                                    side.length ? el("div", {class: "kb-side"}, side) : null]),
    ]);
  }

  function drawBoard() {
    const {view, steps} = offer;
    const free = freeSquaresOf(view.board);
    const all = view.board.map((tile) => tile.at).concat(free);
    const minX = Math.min(...all.map((at) => at[0])), minY = Math.min(...all.map((at) => at[1]));
    const maxX = Math.max(...all.map((at) => at[0])), maxY = Math.max(...all.map((at) => at[1]));
    const before = corner;
    corner = [minX, minY];
    boardBox.style.setProperty("--cell", CELL + "px");
    boardBox.style.width = (maxX - minX + 1) * CELL + "px";
    boardBox.style.height = (maxY - minY + 1) * CELL + "px";
    const place = (node, at) => {
      node.style.left = (at[0] - minX) * CELL + "px";
      node.style.top = (at[1] - minY) * CELL + "px";
      return node;
    };
    const nodes = [];
    for (const at of free) {
      const k = key(at);
      const indices = !done && view.step === "place" ? groups.place.get(k) : null;
      if (!indices) {
        nodes.push(place(el("div", {class: "kc-free kb-off", "aria-hidden": "true", dataset: {at: k}}), at));
        continue;
      }
      const first = steps[indices[0]];
      const rotation = chosen === k && preview !== null ? preview : first.rotation;
      const square = target({
        class: "kc-free" + (chosen === k ? " target" : ""),
        "aria-label": indices.length === 1 ? stepWords(indices[0])
          // Translators: a free square of /play's board where the tile drawn fits {count} ways round
          : tn("Put the tile at {at}: it fits {count} way", "Put the tile at {at}: it fits {count} ways",
               indices.length, {at: k}),
        "aria-expanded": indices.length > 1 ? String(chosen === k) : null,
        dataset: {key: "square:" + k, at: k, ...(indices.length === 1 ? {rotation: String(first.rotation)} : {})},
      }, [draw.tileFace(first.tile, rotation, "ghost")], indices, () => chooseSquare(k));
      nodes.push(place(square, at));
    }
    for (const tile of view.board) {
      const k = key(tile.at);
      const indices = !done && view.step !== "place" ? groups.square.get(k) : null;
      const marks = (k === lastKey() ? " kb-last" : "") + (chosen === k ? " selected" : "") +
        (view.raised && k === key(view.raised) ? " kb-raised" : "");
      let node;
      if (indices) {
        node = target({
          class: "kc-tile lit" + marks,
          "aria-label": indices.length === 1 ? stepWords(indices[0])
            // Translators: a tile of /play's board that offers several steps (pointing at it shows them up close);
            // {tile} the tile in words, with its meeples and tower
            : tn("{tile}: {count} step to choose on it", "{tile}: {count} steps to choose on it", indices.length,
                 {tile: draw.describe(tile, view, name)}),
          "aria-expanded": indices.length > 1 ? String(chosen === k) : null,
          title: draw.tileTitle(tile.tile, tile.rotation), dataset: {key: "tile:" + k, at: k},
        }, [draw.tileFace(tile.tile, tile.rotation)], indices, () => chooseTile(k));
      } else {
        node = el("div", {class: "kc-tile" + marks, role: "img", "aria-label": draw.describe(tile, view, name),
                          title: draw.tileTitle(tile.tile, tile.rotation), dataset: {at: k}},
                  [draw.tileFace(tile.tile, tile.rotation)]);
      }
      draw.dressTile(node, tile, view, name);
      nodes.push(place(node, tile.at));
    }
    boardBox.replaceChildren(...nodes);
    // a board with nothing to point at is still reached by the keyboard, to scroll it
    const pointable = !!boardBox.querySelector(".kb-target");
    if (pointable) scroll.removeAttribute("tabindex");
    else scroll.setAttribute("tabindex", "0");
    if (before && (before[0] !== minX || before[1] !== minY)) {
      // the board grew to the left or upwards: the view keeps its place
      scroll.scrollLeft += (before[0] - minX) * CELL;
      scroll.scrollTop += (before[1] - minY) * CELL;
    }
  }

  function drawAll() {
    const hadFocus = box.contains(document.activeElement);
    drawPlayers();
    help.textContent = done ? "" : helpWords();
    drawTray();
    drawBoard();
    const current = targets.settle();
    if (hadFocus && current) current.focus();
  }

  // ---------------------------------------------------------------- pointing

  function chooseSquare(k) {
    chosen = k;
    preview = null;
    drawAll();
    const first = tray.querySelector(".kb-rot");
    if (first) { targets.current(first.dataset.key); targets.focus(); }
    announce(helpWords());
  }

  function chooseTile(k) {
    chosen = k;
    drawAll();
    const first = tray.querySelector(".kb-zoom .kb-target, .kb-side .kb-target");
    if (first) { targets.current(first.dataset.key); targets.focus(); }
    announce(t("The tile at {at}, up close", {at: k}));
  }

  // the chosen square shows the tile as it would lie
  function showRotation(rotation) {
    preview = rotation;
    const square = boardBox.querySelector(`.kc-free[data-at="${chosen}"]`);
    const step = offer.steps[groups.place.get(chosen)[0]];
    if (square) square.replaceChildren(draw.tileFace(step.tile, rotation, "ghost"));
  }

  // the square a turn opens on: the tile just placed (up close) after a tile is put, or the one square with steps
  function opening() {
    if (offer.view.step === "place") return null;
    const squares = [...groups.square.keys()];
    return groups.square.has(lastKey()) ? lastKey() : squares.length === 1 ? squares[0] : null;
  }

  // back from a square chosen: to the squares (the tile to put), or to the tile the turn opened on
  function back() {
    const k = chosen;
    chosen = opening();
    preview = null;
    targets.current((offer.view.step === "place" ? "square:" : "tile:") + k);
    drawAll();
    targets.focus();
  }

  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && offer && !done && chosen && chosen !== opening()) {
      event.preventDefault();
      back();
    }
  });

  // ---------------------------------------------------------------- the view

  // where a square's top left corner lies in the scrolling box's content, in px
  function within(at) {
    const outer = scroll.getBoundingClientRect(), inner = boardBox.getBoundingClientRect();
    return [inner.left - outer.left - scroll.clientLeft + scroll.scrollLeft + (at[0] - corner[0]) * CELL,
            inner.top - outer.top - scroll.clientTop + scroll.scrollTop + (at[1] - corner[1]) * CELL];
  }

  // the view goes to a square (the middle of the tiles when none): in the middle of the box
  function centre(at) {
    const {board} = offer.view;
    const x = at ? at[0] : board.reduce((sum, tile) => sum + tile.at[0], 0) / board.length;
    const y = at ? at[1] : board.reduce((sum, tile) => sum + tile.at[1], 0) / board.length;
    const [left, top] = within([x, y]);
    scroll.scrollLeft = Math.max(0, left + CELL / 2 - scroll.clientWidth / 2);
    scroll.scrollTop = Math.max(0, top + CELL / 2 - scroll.clientHeight / 2);
  }

  // a square brought into the box's view when it is out of it (the page itself does not move)
  function inView(at) {
    if (!at) return;
    const [left, top] = within(at);
    const margin = 8;
    if (left < scroll.scrollLeft) scroll.scrollLeft = left - margin;
    else if (left + CELL > scroll.scrollLeft + scroll.clientWidth) {
      scroll.scrollLeft = left + CELL - scroll.clientWidth + margin;
    }
    if (top < scroll.scrollTop) scroll.scrollTop = top - margin;
    else if (top + CELL > scroll.scrollTop + scroll.clientHeight) {
      scroll.scrollTop = top + CELL - scroll.clientHeight + margin;
    }
  }

  async function show(given) {
    await learnTiles();
    offer = given;
    groups = grouped();
    done = false;
    preview = null;
    chosen = opening();
    const attaching = box.parentNode !== root || root.childNodes.length !== 1;
    if (attaching) {
      root.replaceChildren(box);
      corner = null;
    }
    box.classList.toggle("kb-touch", !!(touch && touch()));
    legend.lastElementChild.hidden = !(offer.view.variant && offer.view.variant.tower); // the towers' mark
    const focusBack = refocus;
    refocus = false;
    drawAll();
    if (attaching) centre(offer.view.step === "place" ? null : offer.view.last || offer.view.raised);
    else inView(offer.view.last || offer.view.raised);
    if (focusBack) targets.focus();
    box.dataset.step = groups.discard.length ? "discard" : offer.view.step;
    box.dataset.shown = String(++shown);
  }

  return {show};
}
