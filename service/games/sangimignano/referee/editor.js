// San Gimignano's editor on the referee page: a hex board drawn as the game's picture draws it (/picture,
// service/games/sangimignano/picture.py: pointy-topped hexagons, side 0 facing east, hexagon q,r at
// x = √3·(q + r/2), y = 1.5·r), so that the editor and the picture show one board. A click on a free cell lays a
// hexagon there (its three guilds chosen and the hexagon turned in the panel, or with the R key); a click on a guild
// space adds a token of the chosen player, or builds their tower (the tokens there go back to their owners,
// S-BUILD-2; no token goes on a tower, S-BUILD-3). The board is one Tab stop: arrow keys move between its cells and
// spaces (a roving tabindex), Enter or Space acts, and the focus stays on the board as it is drawn again. On a touch
// screen every guild space is a target of 44 px at least; a board wider than the screen scrolls (the shell's cues)
// and opens on its hexagons, or fits the width at a touch of "Fit the board to the screen". The table is checked
// with /validate while it is edited, and the hexagons a problem points at are marked with the rule broken, drawn
// over their neighbours. Scored through /score {"state"} with the game over: towers on the board, then tokens on
// spaces (S-END-3). Its words are the game's `pages` catalogue, said with the page's t, tn and tp.
// Its drawings (the geometry, a hexagon with its guild spaces, tokens and towers, a free cell, the focus ring, a
// space in words) are exported: the game's board on /play (board.js) draws the table with them.

import {roving} from "../assets/roving.js"; // (the referee pages' assets, beside the editors)

const N_ = (text) => text; // marks a word for the catalogue; said with t() where it is shown

export const GUILDS = ["A", "B", "C", "D"];
export const GUILD_NAMES = {A: N_("ochre"), B: N_("green"), C: N_("brick"), D: N_("slate")}; // the guilds' colours
export const UNIT = 40; // a hexagon's corner radius in the drawing's units: the picture's SIZE
export const SCALE = {touch: 1.3, desk: 1.1}; // drawn at 52 px a hexagon on a touch screen (a space holds a 44 px disc)
const SQRT3 = Math.sqrt(3);
const MIN_PLAYERS = 2, MAX_PLAYERS = 4, TOKENS = 20, TOWERS = 10, HEXES = 16;
const BOX = {2: 6, 3: 4, 4: 0}; // S-SETUP-1: hexagons back in the box
const HAND = {2: 4, 3: 3, 4: 3}; // S-SETUP-1: hexagons dealt to each player
const DEFAULT_NAMES = ["Ada", "Bea", "Cy", "Dov"];
export const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]; // S-GEO-1, side d = 0..5
const SVG = "http://www.w3.org/2000/svg";
const EXAMPLE = { // a whole seeded game played to its end (the adapter's example: seed 42, three players)
  players: [{name: "Ada"}, {name: "Bea"}, {name: "Cy"}],
  hexes: [
    {at: [-2, 3], rotation: 1, guilds: ["B", "A", "C"], tokens: [[0, 2], [0, 0], [1, 2]], towers: [null, null, null]},
    {at: [-1, 1], rotation: 0, guilds: ["B", "A", "D"], tokens: [[], [1, 2], [0, 2]], towers: [2, null, null]},
    {at: [-1, 2], rotation: 1, guilds: ["C", "A", "D"], tokens: [[0, 1], [1, 2], []], towers: [null, null, 1]},
    {at: [-1, 3], rotation: 1, guilds: ["A", "B", "C"], tokens: [[], [1, 2], [0, 1]], towers: [1, null, null]},
    {at: [0, -1], rotation: 0, guilds: ["B", "A", "D"], tokens: [[0, 2], [], [1, 1]], towers: [null, 1, null]},
    {at: [0, 0], rotation: 0, guilds: ["A", "B", "C"], tokens: [[0, 2], [0, 1], [1, 1]], towers: [null, null, null]},
    {at: [0, 1], rotation: 1, guilds: ["B", "D", "C"], tokens: [[2, 2], [0, 2], [1, 2]], towers: [null, null, null]},
    {at: [0, 2], rotation: 1, guilds: ["A", "B", "D"], tokens: [[], [1, 2], [1, 1]], towers: [0, null, null]},
    {at: [1, -1], rotation: 1, guilds: ["C", "D", "A"], tokens: [[1, 2], [0, 0], [2, 2]], towers: [null, null, null]},
    {at: [1, 0], rotation: 0, guilds: ["A", "B", "D"], tokens: [[0, 2], [], []], towers: [null, 0, 2]},
    {at: [1, 1], rotation: 1, guilds: ["C", "B", "D"], tokens: [[], [0, 1], [0, 2]], towers: [0, null, null]},
    {at: [2, 0], rotation: 1, guilds: ["A", "D", "C"], tokens: [[0, 1], [0, 1], [1, 2]], towers: [null, null, null]},
  ],
};

export function svgEl(tag, attrs, children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of [].concat(children || [])) if (child) node.appendChild(child);
  return node;
}

// the picture's geometry (picture.py: _center, _corner): y grows downwards, angles counter-clockwise from east
export const centre = ([q, r]) => [UNIT * SQRT3 * (q + r / 2), UNIT * 1.5 * r];
export function corner([cx, cy], degrees, radius = UNIT) {
  const angle = degrees * Math.PI / 180;
  return [cx + radius * Math.cos(angle), cy - radius * Math.sin(angle)];
}
export const points = (list) => list.map(([x, y]) => x.toFixed(1) + "," + y.toFixed(1)).join(" ");
export const outline = (c, radius = UNIT) => [0, 1, 2, 3, 4, 5].map((d) => corner(c, 60 * d - 30, radius));
// a guild space (S-GEO-2): space i of a hexagon turned by k covers sides k + 2i and k + 2i + 1
export const rhombus = (c, first) => [c, corner(c, 60 * first - 30), corner(c, 60 * first + 30),
                                      corner(c, 60 * first + 90)];
// a small keep with two merlons, its foot 8 below (x, y): the picture's tower
export const keep = (x, y) => [[x - 6, y + 8], [x - 6, y - 6], [x - 3, y - 6], [x - 3, y - 9], [x - 1, y - 9],
                               [x - 1, y - 6], [x + 1, y - 6], [x + 1, y - 9], [x + 3, y - 9], [x + 3, y - 6],
                               [x + 6, y - 6], [x + 6, y + 8]];
export const key = ([q, r]) => q + "," + r;

// A hexagon as the picture draws it: <g class="sg-hex" data-at>, its three guild spaces (each a <g> of class
// `spaceClass` and guild-<g>: its rhombus, its guild's letter, its tower, its tokens as the picture lays them) and,
// with `coord`, its place's coordinates at its foot. hex: {at, rotation, guilds, tokens, towers} (a state's board
// entry); spaceProps(i): each space's own attributes (its role, key, label; a class of its own instead of
// `spaceClass`). {group, spaces}: the hexagon, and its spaces in order.
export function hexagonNode(hex, {spaceClass = "sg-space", spaceProps = () => ({}), coord = true} = {}) {
  const c = centre(hex.at);
  const group = svgEl("g", {class: "sg-hex", "data-at": key(hex.at)});
  const spaces = [];
  for (let i = 0; i < 3; i++) {
    const first = hex.rotation + 2 * i; // S-GEO-2
    const middle = corner(c, 60 * first + 30, UNIT * 0.5); // the rhombus's middle
    const tokens = hex.tokens[i], tower = hex.towers[i];
    const bare = tower === null && !tokens.length;
    const letterAt = bare ? middle : corner(c, 60 * first + 30, UNIT * 0.17); // clear of the pieces and the place
    const props = spaceProps(i);
    const space = svgEl("g", {...props, class: (props.class || spaceClass) + " guild-" + hex.guilds[i],
                              "data-guild": hex.guilds[i]}, [
      svgEl("polygon", {points: points(rhombus(c, first)), stroke: "#3b2f22", "stroke-width": "1.2"}),
      svgEl("text", {x: letterAt[0].toFixed(1), y: (letterAt[1] + (bare ? 4 : 3)).toFixed(1), "text-anchor": "middle",
                     class: "sg-letter" + (bare ? "" : " small")}, document.createTextNode(hex.guilds[i])),
    ]);
    if (tower !== null) {
      space.appendChild(svgEl("polygon", {class: "sg-tower p" + tower, points: points(keep(...middle))}));
    }
    tokens.forEach((player, k) => {
      const shift = tokens.length === 1 ? 0 : k ? 7 : -7; // as the picture lays two tokens
      space.appendChild(svgEl("circle", {class: "sg-token p" + player, r: "6",
                                         cx: (middle[0] + shift + (tower !== null ? 9 : 0)).toFixed(1),
                                         cy: middle[1].toFixed(1)}));
    });
    group.appendChild(space);
    spaces.push(space);
  }
  if (coord) {
    group.appendChild(svgEl("text", {x: c[0].toFixed(1), y: (c[1] + UNIT * 0.78).toFixed(1), "text-anchor": "middle",
                                     class: "sg-coord placed"}, document.createTextNode(key(hex.at))));
  }
  return {group, spaces};
}

// A free cell, dashed, its coordinates in it: <g class="sg-free"> with `props` (its role, key, label)
export function freeCellNode(at, props) {
  const c = centre(at);
  return svgEl("g", {class: "sg-free", ...props}, [
    svgEl("polygon", {points: points(outline(c, UNIT * 0.94))}),
    svgEl("text", {x: c[0].toFixed(1), y: (c[1] + 4).toFixed(1), "text-anchor": "middle", class: "sg-coord"},
          document.createTextNode(key(at))),
  ]);
}

// The focus ring over a board's drawing: ringNodes() drawn last (over every hexagon: a space's own outline is partly
// under its neighbours), followFocus(svg, selector) draws them around the focused cell or space; the ring(), to
// call after each drawing
export const ringNodes = () => [svgEl("polygon", {class: "sg-ring outer"}),
                                 svgEl("polygon", {class: "sg-ring inner"})];
export function followFocus(svg, selector) {
  function ring() {
    const focused = svg.contains(document.activeElement) && document.activeElement.closest(selector);
    const shape = focused && focused.querySelector("polygon");
    for (const node of svg.querySelectorAll(".sg-ring")) {
      if (shape) node.setAttribute("points", shape.getAttribute("points"));
      node.toggleAttribute("hidden", !shape);
    }
  }
  svg.addEventListener("focusin", ring);
  svg.addEventListener("focusout", () => window.setTimeout(ring, 0));
  return ring;
}

// What a guild space holds, in words: a tower, the tokens on it, or nothing; and the space in words with it
export function holdsWords(hex, i, name, {t, tn, list}) {
  const tokens = hex.tokens[i].map(name);
  const tower = hex.towers[i];
  return tower !== null ? t("{player}'s tower", {player: name(tower)})
    : tokens.length ? tn("token of {players}", "tokens of {players}", tokens.length, {players: list(tokens)})
    : t("empty");
}
export function spaceWords(hex, i, name, words) {
  return words.t("Guild {guild} space of the hexagon at {at}: {holds}",
                 {guild: hex.guilds[i], at: key(hex.at), holds: holdsWords(hex, i, name, words)});
}


export function create({root, el, changed, announce, redraw, t, tn, tp, list, touch}) {
  let model = {players: [], hexes: []};
  let chosen = 0;
  let tool = "token"; // token | tower | empty | hexagon
  let selected = -1; // the hexagon the panel edits
  let lastGuilds = ["A", "B", "C"];
  let marks = {}; // hexagon index -> [rules]
  let over = true; // a finished table; off: a game still being played (S-END-1, S-END-2 decide which it is)
  let largeGroups = false; // S-VAR-1
  let fit = false; // the board fits the width of the screen (else drawn at its size, and scrolls)
  let opening = false; // a table was loaded: the board's view goes to its hexagons once drawn
  const onTouch = () => (typeof touch === "function" ? touch()
    : window.matchMedia("(hover: none) and (pointer: coarse)").matches);

  const playersBox = el("div", {class: "sg-players"});
  const playerBar = el("div", {class: "players-bar", role: "group", "aria-label": t("Whose pieces")});
  const toolBar = el("div", {class: "players-bar", role: "group", "aria-label": t("What a click on a space does")});
  const overBox = el("input", {type: "checkbox", checked: true, on: {change: (event) => {
    over = event.target.checked;
    changed();
  }}});
  const largeBox = el("input", {type: "checkbox", on: {change: (event) => {
    largeGroups = event.target.checked;
    changed();
  }}});
  const panel = el("div", {class: "sg-panel", role: "group", "aria-label": t("The chosen hexagon")});
  const keysNote = el("p", {class: "sg-note sg-keys", id: "sg-board-keys",
                            text: t("On the board, the arrow keys move between its cells and spaces; Enter or Space " +
                                    "acts.")});
  // (tabindex -1: the board is no Tab stop of its own, its current cell or space is; Chromium would make the
  // scrolling drawing one)
  const board = svgEl("svg", {class: "sg-board", role: "group", "aria-label": t("The board"),
                              "aria-describedby": "sg-board-keys", tabindex: "-1"});
  const boardScroll = el("div", {class: "board-scroll sg-scroll"}, board);
  const status = el("p", {class: "sg-status", hidden: true}); // what the last click did not do, or did more of
  const fitButton = el("button", {type: "button", class: "small sg-fit", "aria-pressed": "false",
                                  text: t("Fit the board to the screen"), on: {click: () => {
                                    fit = !fit;
                                    fitButton.setAttribute("aria-pressed", String(fit));
                                    drawBoard();
                                    if (!fit) centreView();
                                  }}});
  const cells = roving(board, ".sg-free, .sg-space", (node) => node.dataset.key, ".sg-space");
  root.append(
    el("h3", {class: "sg-heading", text: t("Players")}), playersBox,
    el("h3", {class: "sg-heading", text: t("The board")}),
    el("p", {class: "sg-note", text: t("Click a dashed cell to lay a hexagon; choose its guilds and turn it below " +
                                       "(R turns it). Click a guild space to put a piece there.")}),
    keysNote, playerBar, toolBar, status, el("div", {class: "sg-view"}, fitButton), boardScroll, panel,
    el("label", {class: "sg-over"}, [overBox, " " + t("The game is over (otherwise: still being played, " +
                                                      "the first player to lay a token)")]),
    el("label", {class: "sg-over"}, [largeBox, " " + t("Large groups: four or more connected spaces showing the four " +
                                                       "guilds (S-VAR-1)")]),
  );

  const name = (p) => (model.players[p] && model.players[p].name) || t("Player {number}", {number: p + 1});
  function update() { drawAll(); changed(); }

  // ---------------------------------------------------------------- players and tools

  function drawPlayers() {
    playersBox.replaceChildren(...model.players.map((player, i) => el("div", {class: "sg-player"}, [
      el("span", {class: "swatch p" + i, "aria-hidden": "true"}),
      el("input", {type: "text", value: player.name, maxlength: "100", "aria-label": t("Name of player {number}", {number: i + 1}),
                   on: {input: (event) => { player.name = event.target.value; drawBars(); drawBoard(); changed(); }}}),
      el("button", {type: "button", class: "small icon", text: "×", disabled: model.players.length <= MIN_PLAYERS,
                    "aria-label": t("Remove player {number}", {number: i + 1}), on: {click: () => removePlayer(i)}}),
    ])));
    if (model.players.length < MAX_PLAYERS) {
      playersBox.appendChild(el("button", {type: "button", class: "small", text: t("Add a player"), on: {click: () => {
        model.players.push({name: DEFAULT_NAMES[model.players.length]});
        update();
      }}}));
    }
  }

  function removePlayer(index) {
    model.players.splice(index, 1);
    const renumber = (p) => (p === null || p === index ? null : p > index ? p - 1 : p);
    for (const hex of model.hexes) {
      hex.tokens = hex.tokens.map((list) => list.filter((p) => p !== index).map(renumber));
      hex.towers = hex.towers.map(renumber);
    }
    chosen = Math.min(chosen, model.players.length - 1);
    update();
  }

  function drawBars() {
    playerBar.replaceChildren(el("span", {class: "label", text: t("Pieces of")}), ...model.players.map((_, i) =>
      el("button", {type: "button", class: "small chooser-player", "aria-pressed": String(i === chosen),
                    on: {click: () => { chosen = i; drawBars(); announce(t("{player}'s pieces.", {player: name(i)})); }}},
         [el("span", {class: "swatch p" + i, "aria-hidden": "true"}), " " + name(i)])));
    const tools = [["token", tp("tool", "Token")], ["tower", tp("tool", "Tower")], ["empty", t("Empty a space")],
                   ["hexagon", t("Choose a hexagon")]];
    toolBar.replaceChildren(el("span", {class: "label", text: t("A click on a space:")}), ...tools.map(([id, label]) =>
      el("button", {type: "button", class: "small sg-tool", text: label, "aria-pressed": String(tool === id),
                    dataset: {tool: id}, on: {click: () => { tool = id; notice(null); drawBars(); announce(label + "."); }}})));
  }

  // ---------------------------------------------------------------- the chosen hexagon

  function drawPanel() {
    const hex = model.hexes[selected];
    if (!hex) {
      panel.replaceChildren(el("p", {class: "sg-note", text: t("No hexagon chosen: lay one, or choose one with " +
                                                              "“{tool}”.", {tool: t("Choose a hexagon")})}));
      return;
    }
    const guildSelect = (i) => el("select", {"aria-label": t("Guild of space {number}", {number: i + 1}), on: {change: (event) => {
      hex.guilds[i] = event.target.value;
      lastGuilds = hex.guilds.slice();
      update();
    }}}, GUILDS.map((g) => el("option", {value: g, text: g + " · " + t(GUILD_NAMES[g]), selected: hex.guilds[i] === g})));
    panel.replaceChildren(
      el("strong", {text: t("Hexagon at {at}", {at: key(hex.at)})}),
      el("span", {class: "sg-guilds"}, [0, 1, 2].map((i) => el("span", {class: "sg-guild-field"},
                                                               [t("Space {number}", {number: i + 1}) + " ", guildSelect(i)]))),
      el("button", {type: "button", class: "small", text: t("Turn ⟲"), "aria-label": t("Turn the hexagon"),
                    title: "R", on: {click: () => turn(1)}}),
      el("span", {class: "sg-rotation", text: t("rotation {rotation}", {rotation: hex.rotation})}),
      el("button", {type: "button", class: "small", text: t("Remove the hexagon"), on: {click: () => {
        model.hexes.splice(selected, 1);
        selected = -1;
        update();
        announce(t("Hexagon removed."));
      }}}),
    );
  }

  function turn(by) {
    const hex = model.hexes[selected];
    if (!hex) return;
    hex.rotation = (hex.rotation + by + 6) % 6;
    update();
    announce(t("Hexagon at {at} turned: rotation {rotation}.", {at: key(hex.at), rotation: hex.rotation}));
  }

  // ---------------------------------------------------------------- the board

  function freeCells() {
    if (!model.hexes.length) return [[0, 0]];
    const taken = new Set(model.hexes.map((h) => key(h.at)));
    const free = new Map();
    for (const hex of model.hexes) {
      for (const [dq, dr] of DIRECTIONS) {
        const at = [hex.at[0] + dq, hex.at[1] + dr];
        if (!taken.has(key(at))) free.set(key(at), at);
      }
    }
    return [...free.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }

  const spaceLabel = (hex, i) => spaceWords(hex, i, name, {t, tn, list});

  function activate(handler) {
    return (event) => {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      handler();
    };
  }

  const spaceKey = (at, i) => "space " + key(at) + " " + i;
  const freeKey = (at) => "free " + key(at);
  let frame = {minX: 0, minY: 0, scale: 1}; // where the drawing's units lie in the box, the last time drawn

  // the board, drawn again: the focus, when it was on the board, stays on the same cell or space (by its key)
  function drawBoard() {
    const hadFocus = board.contains(document.activeElement);
    board.replaceChildren();
    const free = freeCells();
    const all = model.hexes.map((h) => h.at).concat(free);
    const xs = all.map((at) => centre(at)[0]), ys = all.map((at) => centre(at)[1]);
    const pad = UNIT + 6;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const width = Math.max(...xs) + pad - minX, height = Math.max(...ys) + pad - minY;
    const scale = onTouch() ? SCALE.touch : SCALE.desk;
    frame = {minX, minY, scale};
    board.setAttribute("viewBox", [minX, minY, width, height].map((n) => n.toFixed(1)).join(" "));
    board.classList.toggle("fit", fit);
    board.setAttribute("width", (width * scale).toFixed(0));
    board.setAttribute("height", (height * scale).toFixed(0));
    board.style.maxWidth = fit ? (width * scale).toFixed(0) + "px" : "";

    for (const at of free) {
      const cell = freeCellNode(at, {tabindex: "-1", role: "button", "data-at": key(at), "data-key": freeKey(at),
                                     "aria-label": t("Lay a hexagon at {at}", {at: key(at)})});
      const lay = () => {
        model.hexes.push({at, rotation: 0, guilds: lastGuilds.slice(), tokens: [[], [], []], towers: [null, null, null]});
        selected = model.hexes.length - 1;
        cells.current(spaceKey(at, 0)); // the focus goes to the hexagon laid
        update();
        announce(t("Hexagon laid at {at}.", {at: key(at)}));
      };
      cell.addEventListener("click", activate(lay));
      cell.addEventListener("keydown", activate(lay));
      board.appendChild(cell);
    }

    // the hexagons a problem points at come last, their rules drawn over their neighbours
    const order = model.hexes.map((_, h) => h).sort((a, b) => (marks[a] ? 1 : 0) - (marks[b] ? 1 : 0) || a - b);
    for (const h of order) board.appendChild(drawHexagon(h));

    const overlay = svgEl("g", {class: "sg-overlay", "aria-hidden": "true"});
    if (model.hexes[selected]) {
      overlay.appendChild(svgEl("polygon", {class: "sg-selected-ring", points: points(outline(centre(model.hexes[selected].at)))}));
    }
    overlay.append(...ringNodes());
    board.appendChild(overlay);
    const current = cells.settle();
    if (hadFocus && current) current.focus({preventScroll: false});
    ring();
    offerFit();
    if (opening) {
      opening = false;
      window.requestAnimationFrame(centreView);
    }
  }

  function drawHexagon(h) {
    const hex = model.hexes[h];
    const c = centre(hex.at);
    const {group, spaces} = hexagonNode(hex, {spaceProps: (i) => ({tabindex: "-1", role: "button",
                                                                    "data-key": spaceKey(hex.at, i),
                                                                    "aria-label": spaceLabel(hex, i)})});
    if (h === selected) group.classList.add("selected");
    if (marks[h]) group.classList.add("bad");
    spaces.forEach((space, i) => {
      const act = () => onSpace(h, i);
      space.addEventListener("click", activate(act));
      space.addEventListener("keydown", activate(act));
    });
    if (marks[h]) { // the rules broken, one a line, on a band at the hexagon's foot (over its place, clear of its
      // pieces), over the neighbours drawn before it
      const lines = marks[h];
      const tall = 12 * lines.length + 4;
      const wide = Math.max(...lines.map((rule) => rule.length)) * 6 + 10;
      const top = c[1] + UNIT * 0.62;
      const tag = svgEl("g", {class: "sg-rule-tag"}, [
        svgEl("rect", {x: (c[0] - wide / 2).toFixed(1), y: top.toFixed(1), width: wide.toFixed(1),
                       height: tall.toFixed(1), rx: "4"}),
        ...lines.map((rule, k) => svgEl("text", {x: c[0].toFixed(1), y: (top + 12 * k + 12).toFixed(1),
                                                 "text-anchor": "middle", class: "sg-rule"}, document.createTextNode(rule))),
      ]);
      group.appendChild(tag);
    }
    return group;
  }

  // the focus ring: drawn over every hexagon (a space's own outline is partly under its neighbours)
  const ring = followFocus(board, ".sg-free, .sg-space");

  // "Fit the board to the screen" is offered when the board is wider than its box, or fitted
  function offerFit() {
    fitButton.hidden = !fit && boardScroll.scrollWidth <= boardScroll.clientWidth + 1;
  }

  new ResizeObserver(() => offerFit()).observe(boardScroll); // the screen turned, the window narrowed

  // the view goes to the hexagons: the middle of those laid in the middle of the box (when it scrolls)
  function centreView() {
    if (fit || !model.hexes.length) return;
    const centres = model.hexes.map((h) => centre(h.at));
    const x = centres.reduce((sum, c) => sum + c[0], 0) / centres.length;
    const y = centres.reduce((sum, c) => sum + c[1], 0) / centres.length;
    boardScroll.scrollLeft = Math.max(0, (x - frame.minX) * frame.scale - boardScroll.clientWidth / 2);
    boardScroll.scrollTop = Math.max(0, (y - frame.minY) * frame.scale - boardScroll.clientHeight / 2);
  }

  // a note under the tools: what a click did beyond what was asked, or why it did nothing (also announced)
  function notice(message) {
    status.textContent = message || "";
    status.hidden = !message;
  }

  function onSpace(h, i) {
    const hex = model.hexes[h];
    notice(null);
    if (tool === "hexagon") {
      selected = h;
      drawBoard();
      drawPanel();
      announce(t("Hexagon at {at} chosen.", {at: key(hex.at)}));
      return;
    }
    selected = h;
    let said = null;
    if (tool === "token") {
      if (hex.towers[i] !== null) { // S-BUILD-3: the space holds the tower for the rest of the game
        said = t("A tower stands on guild {guild} at {at}: no token may go there (S-BUILD-3).",
                 {guild: hex.guilds[i], at: key(hex.at)});
        notice(said);
        drawBoard();
        drawPanel();
        announce(said);
        return;
      }
      hex.tokens[i].push(chosen); // more than two is the service's to refuse (S-TOKEN-1), on the board
    } else if (tool === "tower") {
      if (hex.towers[i] === chosen) {
        hex.towers[i] = null;
      } else {
        const back = hex.tokens[i].length;
        hex.towers[i] = chosen;
        hex.tokens[i] = []; // S-BUILD-2: the tokens on the space go back to their owners
        if (back) {
          said = tn("{player}'s tower is built: the token that was on this space goes back to its owner (S-BUILD-2).",
                    "{player}'s tower is built: the {count} tokens that were on this space go back to their owners " +
                    "(S-BUILD-2).", back, {player: name(chosen)});
          notice(said);
        }
      }
    } else {
      hex.tokens[i] = [];
      hex.towers[i] = null;
    }
    update();
    announce(spaceLabel(hex, i) + "." + (said ? " " + said : ""));
  }

  function drawAll() {
    redraw([playersBox, panel], () => { drawPlayers(); drawBars(); drawBoard(); drawPanel(); });
  }

  // ---------------------------------------------------------------- the state

  function load(table) {
    model = {players: DEFAULT_NAMES.slice(0, 2).map((n) => ({name: n})), hexes: []};
    if (table && Array.isArray(table.players)) {
      model.players = table.players.slice(0, MAX_PLAYERS).map((p, i) => ({name: String((p && p.name) || DEFAULT_NAMES[i])}));
      model.hexes = (Array.isArray(table.hexes) ? table.hexes : []).filter((h) => h && Array.isArray(h.at)).map((h) => ({
        at: [h.at[0] | 0, h.at[1] | 0], rotation: ((h.rotation | 0) % 6 + 6) % 6,
        guilds: [0, 1, 2].map((i) => (GUILDS.includes(h.guilds && h.guilds[i]) ? h.guilds[i] : GUILDS[i])),
        tokens: [0, 1, 2].map((i) => (Array.isArray(h.tokens && h.tokens[i]) ? h.tokens[i].filter(Number.isInteger) : [])),
        towers: [0, 1, 2].map((i) => (Number.isInteger(h.towers && h.towers[i]) ? h.towers[i] : null)),
      }));
    }
    over = !(table && table.over === false);
    overBox.checked = over;
    largeGroups = !!(table && table.large_groups === true);
    largeBox.checked = largeGroups;
    chosen = Math.min(chosen, model.players.length - 1);
    selected = -1;
    marks = {};
    notice(null);
    opening = true;
    drawAll();
  }

  const tableJson = () => ({...JSON.parse(JSON.stringify(model)), over, large_groups: largeGroups});

  function state() {
    const n = model.players.length;
    const players = model.players.map((player, p) => {
      let tokens = 0, towers = 0;
      for (const hex of model.hexes) {
        for (let i = 0; i < 3; i++) {
          tokens += hex.tokens[i].filter((x) => x === p).length;
          if (hex.towers[i] === p) towers++;
        }
      }
      // more on the board than a player owns: the service names the rule broken (S-COMP-4)
      return {name: player.name, hexes: [], tokens: Math.max(0, TOKENS - tokens), towers: Math.max(0, TOWERS - towers)};
    });
    // the hexagons not on the board are still in the players' hands (S-SETUP-1), as many as each was dealt
    let inHands = Math.min(HEXES - (BOX[n] !== undefined ? BOX[n] : 0) - model.hexes.length, (HAND[n] || 0) * n);
    for (let p = 0; inHands > 0 && n; p = (p + 1) % n, inHands--) {
      const hand = players[p].hexes;
      players[p].hexes = {count: (Array.isArray(hand) ? 0 : hand.count) + 1};
    }
    return {
      game: "sangimignano", variant: {large_groups: largeGroups}, phase: over ? "over" : "play", turn: 0,
      step: over ? null : "token", players,
      board: model.hexes.map((hex) => ({at: hex.at, rotation: hex.rotation, guilds: hex.guilds,
                                        tokens: hex.tokens, towers: hex.towers})),
      box: BOX[n] !== undefined ? BOX[n] : 0,
    };
  }

  function markProblems(errors) {
    marks = {};
    for (const error of errors) {
      const match = /^\/state\/board\/(\d+)/.exec(error.pointer || "");
      if (match && model.hexes[+match[1]] && error.rule) {
        const list = marks[+match[1]] || (marks[+match[1]] = []);
        if (!list.includes(error.rule)) list.push(error.rule);
      }
    }
    drawBoard();
  }

  function clearProblems() {
    if (!Object.keys(marks).length) return;
    marks = {};
    drawBoard();
  }

  function showScore(answer, into) {
    const winners = new Set(answer.winners);
    into.appendChild(el("div", {class: "table-scroll"}, el("table", {class: "breakdown", id: "breakdown"}, [
      el("thead", {}, el("tr", {}, [el("th", {scope: "col", text: t("Player")}),
                                    el("th", {scope: "col"}, [t("Towers"), el("span", {class: "rule", text: t("on the board") + " · S-END-3"})]),
                                    el("th", {scope: "col"}, [t("Tokens"), el("span", {class: "rule", text: t("on spaces · the tie-break")})])])),
      el("tbody", {}, answer.players.map((player, i) => el("tr", {class: winners.has(i) ? "winner" : ""}, [
        el("th", {scope: "row", class: winners.has(i) ? "winner" : "", text: player.name}),
        el("td", {class: "towers" + (winners.has(i) ? " winner" : ""), text: player.towers}),
        el("td", {class: "tokens" + (winners.has(i) ? " winner" : ""), text: player.tokens}),
      ]))),
    ])));
    const names = answer.winners.map((i) => answer.players[i].name);
    const first = answer.players[answer.winners[0]];
    if (answer.decided_by === "towers") {
      return tn("{winner} wins with {count} tower on the board.", "{winner} wins with {count} towers on the board.",
                first.towers, {winner: names[0]});
    }
    if (answer.decided_by === "tokens") {
      const tied = answer.players.filter((p) => p.towers === first.towers && p !== first);
      return tn("{winner} wins: {count} tower, as many as {others}, and the tie goes to the most tokens on the board, " +
                "{tokens} (S-END-3).",
                "{winner} wins: {count} towers, as many as {others}, and the tie goes to the most tokens on the board, " +
                "{tokens} (S-END-3).", first.towers,
                {winner: names[0], others: list(tied.map((p) => p.name)), tokens: first.tokens});
    }
    // Translators: {towers} is "3 towers", {tokens} "5 tokens"
    return t("{players} share the win: {towers} and {tokens} each (S-END-3).", {
      players: list(names), towers: tn("{count} tower", "{count} towers", first.towers),
      tokens: tn("{count} token", "{count} tokens", first.tokens)});
  }

  root.addEventListener("keydown", (event) => {
    if ((event.key === "r" || event.key === "R") && !/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) {
      event.preventDefault();
      turn(event.key === "R" ? -1 : 1);
    }
  });

  load(null);
  return {
    wide: true,
    liveCheck: true,
    isEmpty: () => !model.hexes.length,
    exampleLabel: t("Example table"),
    hint: t("Arrow keys move on the board · R turns the chosen hexagon · Ctrl+Enter scores"),
    touchHint: t("Tap a dashed cell to lay a hexagon, a guild space to put a piece there."),
    load,
    table: tableJson,
    request: () => ({state: state()}),
    example() { load(EXAMPLE); },
    markProblems,
    clearProblems,
    showScore,
  };
}
