// San Gimignano's board on /play: the table as the referee's editor draws it (editor.js: pointy-topped hexagons as
// the game's picture draws them, their guild spaces, tokens and towers), only what the seat's /view holds, with the
// person's legal steps lit on it.
//
// - A token (S-TURN-1): every guild space that may take one is lit; pointing at it places the token there.
// - A hexagon (S-TURN-2): the seat's hexagons are drawn beside the board, and the free cells where one of them fits
//   are lit. A cell where a hexagon fits one way only lays it there; where it fits several ways (several hexagons,
//   or one turned), the cell is chosen and the ways are drawn beside the board, each a target (the cell shows the
//   one pointed at or focused). With hexagons of more than one kind that fit, each is a target too: pointed at, only
//   the cells where it fits stay lit (pointed at again, it is put back).
// - A tower (S-TURN-3): the spaces where a tower may go are lit; "Build no tower" beside the board.
// - Anything else the service offers: a button beside the board, said in the service's words.
// Every target is named in words (what pointing at it does, what the space holds), 44 px at least on a touch screen
// (the board drawn at the editor's touch scale); together they are one Tab stop (the arrow keys move between them as
// they lie on the screen, Enter or Space chooses, Escape steps back). Nothing that is not lit can be chosen: the
// spaces and hexagons that stand for no step are drawn, not targets. A target stands for the indices of its steps
// (data-indices; data-move: the step, when it stands for one), handed to the page's pick. The other seats' hexagons
// are counted, never drawn: the view does not hold them.
//
// The board scrolls when it is wider than the screen (class board-scroll), opening on its hexagons, and keeps its
// place from one turn to the next as it grows. Its box says which turn it drew (data-shown counts them; data-step:
// token, hex or build), for whoever waits for it. Its words are the game's `pages` catalogue (context.t, tn).

import {roving} from "../assets/roving.js"; // (the referee pages' assets, beside the games' modules)
import {SCALE, UNIT, centre, corner, followFocus, freeCellNode, hexagonNode, holdsWords, key, outline, points,
        rhombus, ringNodes, spaceWords, svgEl} from "./editor.js";

const N_ = (text) => text; // marks a word for the catalogue; said with t() where it is shown

// where a guild space lies on its hexagon, by the angle of its middle (counter-clockwise from east)
const WHERE = {30: N_("at the upper right"), 90: N_("at the top"), 150: N_("at the upper left"),
               210: N_("at the lower left"), 270: N_("at the bottom"), 330: N_("at the lower right")};
const FIGURE = {touch: 56, desk: 48}; // px: a hexagon drawn in a button (the hand's, a way to lay one)
const BARE = {tokens: [[], [], []], towers: [null, null, null]}; // a hexagon with nothing on it
const LIT = {halo: "#ffffff", line: "#1b1b1b"}; // the mark of a lit space: 4:1 and more on every guild's colour

export function createBoard({root, el, t, tn, list, touch, announce}) {
  const onTouch = () => !!(touch && touch());
  const players = el("ul", {class: "sgp-players", "aria-label": t("Players")});
  Object.assign(players.style, {listStyle: "none", margin: "0 0 .5rem", padding: "0", display: "flex",
                                flexWrap: "wrap", gap: ".2rem 1rem", fontSize: ".9rem"});
  const help = el("p", {class: "help sgp-help", id: "sgp-help"});
  const keys = el("p", {class: "sg-note sg-keys sgp-keys", id: "sgp-keys",
                        text: t("The arrow keys move between the lit cells, spaces and hexagons; Enter or Space " +
                                "chooses; Escape goes back.")});
  const tray = el("div", {class: "sgp-tray"});
  // (tabindex -1: the board is no Tab stop of its own, its current target is; Chromium would make the scrolling
  // drawing one)
  const svg = svgEl("svg", {class: "sg-board sgp-board", role: "group", "aria-label": t("The board"),
                            "aria-describedby": "sgp-help sgp-keys", tabindex: "-1"});
  svg.style.maxWidth = "none"; // drawn at its size (the page's drawings shrink to the width: its targets would too)
  const scroll = el("div", {class: "board-scroll sg-scroll sgp-scroll"}, svg);
  // (editor-root: the editor's sheet gives each player's pieces their colour within it)
  const box = el("div", {class: "editor-root sgp", dataset: {shown: "0"}}, [players, help, keys, tray, scroll]);
  const targets = roving(box, ".sgp-target", (node) => node.dataset.key, ".sgp-first");
  const ring = followFocus(svg, ".sgp-target");

  let offer = null;      // what show() was given: {view, steps, texts, seat, names, pick}
  let groups = null;     // the steps by what stands for them (grouped())
  let kind = null;       // the hexagon of the hand chosen (its letters), or null: every hexagon that fits
  let cell = null;       // the cell chosen (a key): its ways drawn beside the board
  let preview = null;    // the step the chosen cell shows
  let done = false;      // a step was chosen: nothing is lit until the next turn
  let refocus = false;   // the step was chosen by the keyboard: the focus comes back on the next turn
  let frame = null;      // where the drawing's units lay in the box, as last drawn: {minX, minY, scale}
  let shown = 0;

  const name = (p) => (offer.names && offer.names[p]) || (offer.view.players[p] && offer.view.players[p].name) ||
    t("Player {number}", {number: p + 1});
  const words = {t, tn, list};
  const letters = (guilds) => guilds.join("");
  const spaceKey = (at, guild) => "space:" + key(at) + ":" + guild;
  const hexAt = (k) => offer.view.board.find((hex) => key(hex.at) === k);
  const handOf = (player) => (Array.isArray(player.hexes) ? player.hexes : []);
  const countOf = (player) => (Array.isArray(player.hexes) ? player.hexes.length
    : player.hexes && typeof player.hexes.count === "number" ? player.hexes.count : 0);

  // ---------------------------------------------------------------- the steps, by what stands for them

  function grouped() {
    const {steps, view} = offer;
    const found = {space: new Map(), cell: new Map(), kinds: new Map(), end: null, other: []};
    const add = (map, k, i) => (map.get(k) || map.set(k, []).get(k)).push(i);
    const spaces = new Set(view.board.flatMap((hex) => hex.guilds.map((guild) => spaceKey(hex.at, guild))));
    steps.forEach((step, i) => {
      if ((step.type === "token" || step.type === "build") && Array.isArray(step.at) &&
          spaces.has(spaceKey(step.at, step.guild))) {
        add(found.space, spaceKey(step.at, step.guild), i);
      } else if (step.type === "hex" && Array.isArray(step.at) && Array.isArray(step.hex) && !hexAt(key(step.at))) {
        add(found.cell, key(step.at), i);
        add(found.kinds, letters(step.hex), i);
      } else if (step.type === "end") {
        found.end = i;
      } else {
        found.other.push(i); // (said in the service's words, beside the board)
      }
    });
    return found;
  }

  // the hexagon steps at a cell, of the hexagon chosen (any, with none chosen)
  const waysAt = (k) => (groups.cell.get(k) || []).filter((i) => !kind || letters(offer.steps[i].hex) === kind);

  // ---------------------------------------------------------------- words

  // a hexagon as it would lie: each guild where it lies ("A at the top, B at the lower left and C at the lower
  // right"), from the top clockwise
  function layoutWords(guilds, rotation) {
    const spaces = guilds.map((guild, i) => [guild, ((60 * (rotation + 2 * i) + 30) % 360 + 360) % 360]);
    spaces.sort((a, b) => (450 - a[1]) % 360 - (450 - b[1]) % 360);
    // Translators: a guild space of a hexagon and where it lies on it: "A at the top"
    return list(spaces.map(([guild, angle]) => t("{guild} {where}", {guild, where: t(WHERE[angle])})));
  }

  function stepWords(i) {
    const step = offer.steps[i];
    switch (step.type) {
      case "token":
      case "build": {
        const hex = hexAt(key(step.at));
        const space = hex.guilds.indexOf(step.guild);
        const holds = holdsWords(hex, space, name, words);
        return step.type === "token"
          ? t("Place a token on the guild {guild} space at {at} (now {holds})", {guild: step.guild, at: key(step.at),
                                                                                 holds})
          : t("Build a tower on the guild {guild} space at {at} (now {holds})", {guild: step.guild, at: key(step.at),
                                                                                 holds});
      }
      case "hex":
        return t("Lay the hexagon {hexagon} at {at}: {layout}", {hexagon: letters(step.hex), at: key(step.at),
                                                                 layout: layoutWords(step.hex, step.rotation)});
      case "end":
        return t("Build no tower");
      default:
        return offer.texts[i] || step.type;
    }
  }

  // what the turn asks, in a sentence
  function helpWords() {
    const step = offer.view.step;
    if (cell) {
      const n = waysAt(cell).length;
      // Translators: a free cell {at} chosen on /play's board, where {count} ways to lay a hexagon are drawn
      return tn("{count} way to lay a hexagon at {at}: choose it.",
                "{count} ways to lay a hexagon at {at}: choose one; the cell shows the one pointed at.", n, {at: cell});
    }
    if (groups.cell.size) {
      if (groups.kinds.size === 1) {
        return t("Point at a lit cell to lay your hexagon {hexagon} there.", {hexagon: [...groups.kinds.keys()][0]});
      }
      return kind ? t("The cells where the hexagon {hexagon} fits are lit: point at one.", {hexagon: kind})
        : t("Point at a lit cell to lay a hexagon there, or first at the hexagon of your hand to lay.");
    }
    if (step === "build" || groups.end !== null) {
      return t("Point at a lit guild space to build a tower there, or build no tower.");
    }
    if (groups.space.size) return t("Point at a lit guild space to place a token there.");
    return "";
  }

  // ---------------------------------------------------------------- targets

  // a target that stands for steps: one (data-move: the step), or several (data-narrows: pointing at it narrows
  // them: `action`)
  function stepData(indices, action) {
    const single = indices.length === 1 && !action;
    return {indices: JSON.stringify(indices), lit: "true",
            ...(single ? {move: JSON.stringify(offer.steps[indices[0]])} : {narrows: "true", action})};
  }

  function button(props, children, data) {
    const node = el("button", {type: "button", tabindex: "-1", ...props, class: (props.class || "") + " sgp-target",
                               dataset: {...(props.dataset || {}), ...data}}, children);
    if (onTouch()) node.style.minHeight = "44px";
    if (!props.text) { // a hexagon drawn in it: (the page's sheet allows styles set on the element itself)
      node.style.padding = "3px 8px";
      node.style.borderRadius = "10px";
      node.style.gap = ".3rem";
    }
    if (props["aria-pressed"] === "true") { // the hexagon chosen: a thick edge, a tint
      node.style.borderWidth = "3px";
      node.style.borderColor = "#7a2f22";
      node.style.background = "#f3e2c0";
    }
    return node;
  }

  function activate(node) {
    if (done || !offer || !node || !("lit" in node.dataset)) return;
    const action = node.dataset.action;
    if (action === "cell") return chooseCell(node.dataset.at);
    if (action === "hand") return chooseKind(node.dataset.hex);
    if (action === "back") return back();
    choose(JSON.parse(node.dataset.indices));
  }

  function choose(indices) {
    if (done || !offer || !indices.length) return;
    if (indices.length === 1) {
      done = true;
      // chosen by the keyboard: the focus comes back to the board on the next turn (not after a click or a tap)
      const active = document.activeElement;
      refocus = box.contains(active) && active.matches(":focus-visible");
      drawAll();
    }
    offer.pick(indices);
  }

  box.addEventListener("click", (event) => {
    const node = event.target.closest && event.target.closest(".sgp-target");
    if (!node || !box.contains(node)) return;
    event.preventDefault();
    activate(node);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && offer && !done && (cell || (kind && groups.kinds.size > 1))) {
      event.preventDefault();
      back();
      return;
    }
    const node = event.target.closest && event.target.closest(".sgp-target");
    // (a button is activated by Enter and Space itself: its click)
    if (!node || node.tagName.toLowerCase() === "button" || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    activate(node);
  });

  // ---------------------------------------------------------------- drawing

  // a hexagon drawn small (in a button): its guilds as it would lie, nothing on it
  function figure(guilds, rotation) {
    const size = onTouch() ? FIGURE.touch : FIGURE.desk;
    const half = UNIT * Math.sqrt(3) / 2 + 2;
    const {group} = hexagonNode({at: [0, 0], rotation, guilds, ...BARE}, {spaceClass: "sgp-still", coord: false});
    return svgEl("svg", {class: "sgp-figure", viewBox: [-half, -UNIT - 2, 2 * half, 2 * UNIT + 4].join(" "),
                         width: (size * half / (UNIT + 2)).toFixed(0), height: String(size), "aria-hidden": "true",
                         focusable: "false"}, group);
  }

  function drawPlayers() {
    const {view} = offer;
    players.replaceChildren(...view.players.map((player, p) => {
      const facts = [tn("{count} token in supply", "{count} tokens in supply", player.tokens),
                     tn("{count} tower in supply", "{count} towers in supply", player.towers),
                     tn("{count} hexagon in hand", "{count} hexagons in hand", countOf(player))];
      const swatch = svgEl("svg", {class: "sgp-swatch", width: "16", height: "16", viewBox: "-8 -8 16 16",
                                   "aria-hidden": "true", focusable: "false"},
                           svgEl("circle", {class: "sg-token p" + p, r: "6.5"}));
      swatch.style.display = "inline-block"; // (the page's drawings are blocks)
      swatch.style.verticalAlign = "-2px";
      return el("li", {class: "sgp-player p" + p + (p === view.turn ? " sgp-now" : ""),
                       "aria-current": p === view.turn ? "true" : null}, [
        swatch, " ", el("strong", {text: name(p)}), " " + list(facts)]);
    }));
  }

  function drawTray() {
    const {view, seat, steps} = offer;
    const parts = [];
    // the seat's hexagons (its own view holds them), each kind once
    const hand = new Map();
    for (const hexagon of handOf(view.players[seat] || {})) {
      const k = letters(hexagon);
      hand.set(k, {guilds: hexagon, count: (hand.has(k) ? hand.get(k).count : 0) + 1});
    }
    if (hand.size) {
      const choosing = !done && groups.kinds.size > 1;
      const placing = !done && groups.cell.size > 0;
      const figures = [...hand].map(([k, {guilds, count}]) => {
        const label = count > 1
          // Translators: two hexagons or more of the same kind in the person's hand, "×{count}" shown beside it
          ? tn("Your hexagon {hexagon} ×{count}", "Your hexagons {hexagon} ×{count}", count, {hexagon: k})
          : t("Your hexagon {hexagon}", {hexagon: k});
        const badge = count > 1 ? el("span", {class: "sgp-count", "aria-hidden": "true", text: "×" + count}) : null;
        if (choosing && groups.kinds.has(k)) {
          return button({class: "sgp-hand", "aria-label": label, "aria-pressed": String(kind === k),
                         dataset: {key: "hand:" + k, hex: k, count: String(count)}},
                        [figure(guilds, 0), badge ? " " : null, badge], {lit: "true", action: "hand"});
        }
        const fits = !placing || groups.kinds.has(k);
        return el("span", {class: "sgp-hand sgp-off", role: "img", dataset: {hex: k, count: String(count)},
                           "aria-label": fits ? label : t("Your hexagon {hexagon}: it fits nowhere on the board now",
                                                          {hexagon: k})},
                         [figure(guilds, 0), badge ? " " : null, badge]);
      });
      parts.push(el("div", {class: "sgp-group", role: "group", "aria-labelledby": "sgp-hand-title"}, [
        el("p", {class: "sg-heading", id: "sgp-hand-title", text: t("Your hexagons")}),
        el("div", {class: "actions sgp-row"}, figures)]));
    }
    if (!done && cell) {
      const ways = waysAt(cell);
      parts.push(el("div", {class: "sgp-group sgp-ways", role: "group", "aria-labelledby": "sgp-ways-title"}, [
        el("p", {class: "sg-heading", id: "sgp-ways-title",
                 text: t("The ways to lay a hexagon at {at}", {at: cell})}),
        el("div", {class: "actions sgp-row"}, [
          ...ways.map((i, n) => {
            const step = steps[i];
            const node = button({class: "sgp-way" + (n === 0 ? " sgp-first" : ""), "aria-label": stepWords(i),
                                 dataset: {key: "way:" + letters(step.hex) + ":" + step.rotation, at: cell,
                                           hex: letters(step.hex), rotation: String(step.rotation)}},
                                [figure(step.hex, step.rotation)], stepData([i]));
            const look = () => showWay(i);
            node.addEventListener("focus", look);
            node.addEventListener("mouseenter", look);
            return node;
          }),
          button({class: "small sgp-back", text: t("Another cell"), dataset: {key: "back"}}, [],
                 {lit: "true", action: "back", control: "true"}),
        ]),
      ]));
    }
    const others = [];
    if (!done && groups.end !== null) {
      others.push(button({class: "sgp-end", text: stepWords(groups.end), dataset: {key: "end"}}, [],
                         stepData([groups.end])));
    }
    if (!done) {
      for (const i of groups.other) {
        others.push(button({class: "sgp-other", text: stepWords(i), dataset: {key: "other:" + i}}, [], stepData([i])));
      }
    }
    if (others.length) parts.push(el("div", {class: "actions sgp-row"}, others));
    tray.replaceChildren(...parts);
  }

  // the mark of a lit space: its rhombus drawn again inside it, dashed dark on white
  function litMark(hex, i) {
    const c = centre(hex.at);
    const first = hex.rotation + 2 * i;
    const middle = corner(c, 60 * first + 30, UNIT * 0.5);
    const inset = rhombus(c, first).map(([x, y]) => [middle[0] + (x - middle[0]) * 0.72,
                                                      middle[1] + (y - middle[1]) * 0.72]);
    const shape = {points: points(inset), fill: "none", "vector-effect": "non-scaling-stroke",
                   "stroke-linejoin": "round"};
    return [svgEl("polygon", {...shape, stroke: LIT.halo, "stroke-width": "4"}),
            svgEl("polygon", {...shape, stroke: LIT.line, "stroke-width": "2", "stroke-dasharray": "5 3"})];
  }

  // the hexagon a way lays, drawn in its cell
  function ghost(i) {
    const step = offer.steps[i];
    const {group} = hexagonNode({at: step.at, rotation: step.rotation, guilds: step.hex, ...BARE},
                                {spaceClass: "sgp-still", coord: false});
    group.classList.add("sgp-ghost");
    group.setAttribute("opacity", "0.85");
    group.setAttribute("aria-hidden", "true");
    group.setAttribute("pointer-events", "none");
    return group;
  }

  function drawBoard() {
    const {view} = offer;
    const lit = new Map(); // cell key -> the ways there (the cells lit)
    if (!done) for (const k of groups.cell.keys()) if (waysAt(k).length) lit.set(k, waysAt(k));
    const cells = [...lit.keys()].map((k) => k.split(",").map(Number));
    const all = view.board.map((hex) => hex.at).concat(cells);
    const xs = all.map((at) => centre(at)[0]), ys = all.map((at) => centre(at)[1]);
    const pad = UNIT + 6;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const width = Math.max(...xs) + pad - minX, height = Math.max(...ys) + pad - minY;
    const scale = onTouch() ? SCALE.touch : SCALE.desk;
    const before = frame;
    frame = {minX, minY, scale};
    svg.setAttribute("viewBox", [minX, minY, width, height].map((n) => n.toFixed(1)).join(" "));
    svg.setAttribute("width", (width * scale).toFixed(0));
    svg.setAttribute("height", (height * scale).toFixed(0));
    const nodes = [];
    const marks = [];
    for (const [k, ways] of lit) {
      const at = k.split(",").map(Number);
      const several = ways.length > 1;
      const node = freeCellNode(at, {
        class: "sg-free sgp-target sgp-cell" + (k === cell ? " selected" : ""), tabindex: "-1", role: "button",
        "aria-label": several
          // Translators: a free cell of /play's board where the person's hexagons fit {count} ways
          ? tn("Lay a hexagon at {at}: it fits {count} way", "Lay a hexagon at {at}: it fits {count} ways",
               ways.length, {at: k})
          : stepWords(ways[0]),
        "aria-expanded": several ? String(k === cell) : null,
        "data-key": "cell:" + k, "data-at": k,
      });
      Object.assign(node.dataset, stepData(ways, several ? "cell" : undefined));
      if (k === cell) node.appendChild(ghost(preview !== null && ways.includes(preview) ? preview : ways[0]));
      nodes.push(node);
    }
    for (const hex of view.board) {
      const {group} = hexagonNode(hex, {
        spaceClass: "sgp-still",
        spaceProps: (i) => {
          const indices = done ? null : groups.space.get(spaceKey(hex.at, hex.guilds[i]));
          if (!indices) return {role: "img", "aria-label": spaceWords(hex, i, name, words)};
          marks.push(...litMark(hex, i));
          return {class: "sg-space sgp-target", tabindex: "-1", role: "button", "aria-label": stepWords(indices[0]),
                  "data-key": spaceKey(hex.at, hex.guilds[i]), "data-at": key(hex.at),
                  ...Object.fromEntries(Object.entries(stepData(indices)).map(([field, value]) =>
                    ["data-" + field, value]))};
        },
      });
      nodes.push(group);
    }
    const overlay = svgEl("g", {class: "sg-overlay", "aria-hidden": "true"}, marks);
    if (cell && lit.has(cell)) {
      overlay.appendChild(svgEl("polygon", {class: "sg-selected-ring",
                                            points: points(outline(centre(cell.split(",").map(Number))))}));
    }
    overlay.append(...ringNodes());
    svg.replaceChildren(...nodes, overlay);
    // a board with nothing to point at is still reached by the keyboard, to scroll it
    if (svg.querySelector(".sgp-target")) scroll.removeAttribute("tabindex");
    else scroll.setAttribute("tabindex", "0");
    if (before && (before.minX !== minX || before.minY !== minY) && before.scale === scale) {
      // the board grew to the left or upwards: the view keeps its place
      scroll.scrollLeft += (before.minX - minX) * scale;
      scroll.scrollTop += (before.minY - minY) * scale;
    }
  }

  function drawAll() {
    const hadFocus = box.contains(document.activeElement);
    drawPlayers();
    help.textContent = done ? "" : helpWords();
    drawTray();
    drawBoard();
    const current = targets.settle();
    if (hadFocus && current) current.focus({preventScroll: false});
    ring();
  }

  // ---------------------------------------------------------------- pointing

  function chooseCell(k) {
    cell = k;
    preview = null;
    drawAll();
    const first = tray.querySelector(".sgp-way");
    if (first) { targets.current(first.dataset.key); targets.focus(); }
    announce(helpWords());
  }

  function chooseKind(k) {
    kind = kind === k ? null : k;
    if (cell && !waysAt(cell).length) cell = null;
    preview = null;
    targets.current("hand:" + k);
    drawAll();
    announce(kind ? t("Hexagon {hexagon} chosen: the cells where it fits are lit.", {hexagon: k})
      : t("Hexagon {hexagon} put back: every cell where one of your hexagons fits is lit.", {hexagon: k}));
  }

  // back from a cell chosen (to the cells), or from a hexagon chosen (to every hexagon)
  function back() {
    if (cell) {
      const k = cell;
      cell = null;
      preview = null;
      targets.current("cell:" + k);
    } else if (kind && groups.kinds.size > 1) {
      targets.current("hand:" + kind);
      kind = null;
    }
    drawAll();
    targets.focus();
    announce(helpWords());
  }

  // the chosen cell shows the way pointed at
  function showWay(i) {
    preview = i;
    const node = svg.querySelector(`.sgp-cell[data-at="${cell}"]`);
    if (!node) return;
    const old = node.querySelector(".sgp-ghost");
    if (old) old.replaceWith(ghost(i));
  }

  // ---------------------------------------------------------------- the view

  // the view goes to the middle of the hexagons, in the middle of the box (when it scrolls)
  function centreView() {
    const hexes = offer.view.board;
    if (!hexes.length || !frame) return;
    const centres = hexes.map((hex) => centre(hex.at));
    const x = centres.reduce((sum, c) => sum + c[0], 0) / centres.length;
    const y = centres.reduce((sum, c) => sum + c[1], 0) / centres.length;
    scroll.scrollLeft = Math.max(0, (x - frame.minX) * frame.scale - scroll.clientWidth / 2);
    scroll.scrollTop = Math.max(0, (y - frame.minY) * frame.scale - scroll.clientHeight / 2);
  }

  async function show(given) {
    offer = given;
    groups = grouped();
    done = false;
    cell = null;
    preview = null;
    kind = groups.kinds.size === 1 ? [...groups.kinds.keys()][0] : null; // one hexagon fits: it is the one laid
    const attaching = box.parentNode !== root || root.childNodes.length !== 1;
    if (attaching) {
      root.replaceChildren(box);
      frame = null;
    }
    const focusBack = refocus;
    refocus = false;
    drawAll();
    if (attaching) centreView();
    if (focusBack) targets.focus();
    box.dataset.step = offer.view.step || "";
    box.dataset.shown = String(++shown);
  }

  return {show};
}
