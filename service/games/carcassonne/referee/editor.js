// Carcassonne's editor on the referee page (with or without The Tower): a palette of every tile of the set with
// how many are left, a board where a click puts the chosen tile (R or the Turn button turns it), a click on a
// feature of a placed tile puts the chosen player's meeple there, the score track per player, and with The Tower
// the towers (height, meeple on top) and the prisoners. The board is checked with /validate while it is edited.
// Scored through /score {"state"}: the game over once every tile is placed, else a game still being played.
//
// What the editor knows of the tiles (the counts of each set, every tile's edges, the features a meeple can stand
// on, tower foundations and drawings) is tiles.json beside this file, generated from the game's own tile table by
// tools/gen_carcassonne_referee_tiles.py.

const START = [0, 0];
const EDGES = ["N", "E", "S", "W"];
const HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
const MIN_PLAYERS = 2, MAX_PLAYERS = 5, MEEPLES = 7;
const FLOORS = {2: 10, 3: 9, 4: 7, 5: 6}; // K-TOW-TILE-1, per player
const DEFAULT_NAMES = ["Ada", "Bea", "Cy", "Dov", "Eli"];
const COLOUR_NAMES = ["red", "blue", "yellow", "black", "purple"];
const CELL = 56;
const AROUND = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // N, E, S, W of a square
// where a meeple on a feature is drawn, as fractions of the tile (board orientation)
const EDGE_SPOT = [[0.5, 0.2], [0.8, 0.5], [0.5, 0.8], [0.2, 0.5]];
const HALF_SPOT = [[0.28, 0.12], [0.72, 0.12], [0.88, 0.28], [0.88, 0.72], [0.72, 0.88], [0.28, 0.88], [0.12, 0.72],
                   [0.12, 0.28]];

const key = ([x, y]) => x + "," + y;
const mod = (n, m) => ((n % m) + m) % m;

// a feature name turned by `turns` quarter turns clockwise (K-TILE-1, K-TILE-4)
function turnName(name, turns) {
  const e = EDGES.indexOf(name);
  if (e >= 0) return EDGES[mod(e + turns, 4)];
  const h = HALVES.indexOf(name);
  if (h >= 0) return HALVES[mod(h + 2 * turns, 8)];
  return name;
}

function spotOf(name) {
  const e = EDGES.indexOf(name);
  if (e >= 0) return EDGE_SPOT[e];
  const h = HALVES.indexOf(name);
  return h >= 0 ? HALF_SPOT[h] : [0.5, 0.5];
}

export function create({root, el, changed, announce}) {
  const sets = {base: null, tower: null}; // tile id -> count
  const facts = {}; // tile id -> {edges: [kind by local edge], features: [local names], tower, image, base}
  let model = null;
  let chosen = 0; // whose meeple
  let pending = {tile: null, rotation: 0}; // the tile a click on a free square puts
  let selected = null; // key of the placed tile the panel edits
  let marks = {}; // square key -> [rules]
  let lit = new Set();
  let meepleTool = true; // a click on a placed tile puts a meeple; off: it only chooses the tile

  const optionsBox = el("div", {class: "kc-options"});
  const playersBox = el("div", {class: "kc-players"});
  const playerBar = el("div", {class: "players-bar", role: "group", "aria-label": "Whose meeple"});
  const palette = el("div", {class: "kc-palette", role: "group", "aria-label": "Tiles left"});
  const paletteHead = el("div", {class: "kc-palette-head"});
  const boardBox = el("div", {class: "kc-board", role: "group", "aria-label": "The board"});
  const boardScroll = el("div", {class: "board-scroll kc-scroll"}, boardBox);
  const panel = el("div", {class: "kc-panel", role: "group", "aria-label": "The chosen tile"});
  root.append(
    optionsBox,
    el("h3", {class: "kc-heading", text: "Players"}), playersBox,
    el("h3", {class: "kc-heading", text: "Tiles"}), paletteHead, palette,
    el("h3", {class: "kc-heading", text: "The board"}),
    el("p", {class: "kc-note", text: "Click a dashed square to put the chosen tile; click a placed tile on a road, " +
                                     "city, field or cloister to put a meeple there. R turns."}),
    playerBar, boardScroll, panel,
  );

  const name = (p) => (model.players[p] && model.players[p].name) || "Player " + (p + 1);
  const tileAt = (k) => model.board.find((t) => key(t.at) === k);
  const counts = () => (model.tower ? sets.tower : sets.base) || {};

  function update() { drawAll(); changed(); }

  // ---------------------------------------------------------------- tile facts

  async function learn() {
    const response = await fetch(new URL("tiles.json", import.meta.url));
    const known = await response.json();
    Object.assign(sets, known.sets);
    for (const [id, fact] of Object.entries(known.tiles)) {
      facts[id] = {...fact, base: 0}; // drawn at rotation 0
    }
    root.dataset.tiles = "ready";
    drawAll();
    changed();
  }

  // ---------------------------------------------------------------- options and players

  function drawOptions() {
    optionsBox.replaceChildren(el("label", {class: "kc-tower-option"}, [
      el("input", {type: "checkbox", checked: model.tower, on: {change: (event) => {
        model.tower = event.target.checked;
        if (!model.tower) {
          model.board = model.board.filter((t) => !t.tile.startsWith("TO/")); // the set of The Tower only
          model.towers = [];
          for (const player of model.players) player.prisoners = [];
        }
        update();
        announce(model.tower ? "The Tower is on." : "The Tower is off.");
      }}}),
      " The Tower (its 18 tiles, towers and prisoners)",
    ]));
  }

  function drawPlayers() {
    playersBox.replaceChildren(...model.players.map((player, i) => el("div", {class: "kc-player"}, [
      el("span", {class: "swatch p" + i, "aria-hidden": "true"}),
      el("input", {type: "text", value: player.name, maxlength: "100", "aria-label": "Name of player " + (i + 1),
                   on: {input: (event) => { player.name = event.target.value; drawBar(); changed(); }}}),
      el("span", {class: "kc-field"}, ["score ", el("input", {
        type: "number", min: "0", max: "999", value: String(player.score), inputmode: "numeric",
        "aria-label": "Score track of player " + (i + 1),
        on: {change: (event) => { player.score = Math.max(0, parseInt(event.target.value, 10) || 0); update(); }},
      })]),
      model.tower ? el("span", {class: "kc-prisoners"}, [
        "prisoners ",
        ...player.prisoners.map((owner, k) => el("button", {
          type: "button", class: "small icon kc-prisoner p" + owner, "aria-label": "Free " + name(i) + "'s prisoner " +
            (k + 1) + " (" + name(owner) + "'s meeple)",
          on: {click: () => { player.prisoners.splice(k, 1); update(); }},
        }, [el("span", {class: "swatch", "aria-hidden": "true"}), " ×"])),
        el("select", {"aria-label": "Add a prisoner held by player " + (i + 1), on: {change: (event) => {
          if (event.target.value !== "") player.prisoners.push(+event.target.value);
          update();
        }}}, [el("option", {value: "", text: "+ held…"}), ...model.players.map((_, o) => o === i ? null :
          el("option", {value: String(o), text: name(o) + "'s meeple"}))]),
      ]) : null,
      el("button", {type: "button", class: "small icon", text: "×", disabled: model.players.length <= MIN_PLAYERS,
                    "aria-label": "Remove player " + (i + 1), on: {click: () => removePlayer(i)}}),
    ])));
    if (model.players.length < MAX_PLAYERS) {
      playersBox.appendChild(el("button", {type: "button", class: "small", text: "Add a player", on: {click: () => {
        model.players.push({name: DEFAULT_NAMES[model.players.length], score: 0, prisoners: []});
        update();
      }}}));
    }
  }

  function removePlayer(index) {
    const renumber = (p) => (p > index ? p - 1 : p);
    model.players.splice(index, 1);
    model.meeples = model.meeples.filter((m) => m.player !== index).map((m) => ({...m, player: renumber(m.player)}));
    for (const tower of model.towers) tower.top = tower.top === index ? null : tower.top === null ? null : renumber(tower.top);
    for (const player of model.players) player.prisoners = player.prisoners.filter((o) => o !== index).map(renumber);
    chosen = Math.min(chosen, model.players.length - 1);
    update();
  }

  function drawBar() {
    playerBar.replaceChildren(el("span", {class: "label", text: "Meeples of"}), ...model.players.map((_, i) =>
      el("button", {type: "button", class: "small chooser-player", "aria-pressed": String(i === chosen),
                    on: {click: () => { chosen = i; drawBar(); drawPanel(); announce(name(i) + "'s meeples."); }}},
         [el("span", {class: "swatch p" + i, "aria-hidden": "true"}), " " + name(i)])),
      el("span", {class: "label kc-tools", text: "A click on a tile:"}),
      ...[[true, "Meeple"], [false, "Choose the tile"]].map(([value, label]) => el("button", {
        type: "button", class: "small kc-tool", text: label, "aria-pressed": String(meepleTool === value),
        dataset: {tool: value ? "meeple" : "choose"},
        on: {click: () => { meepleTool = value; drawBar(); announce(label + "."); }}})));
  }

  // ---------------------------------------------------------------- the palette

  function left(id) { return (counts()[id] || 0) - model.board.filter((t) => t.tile === id).length; }

  const imageUrls = {}; // tile id -> a short blob: URL of its drawing (a long data: URL costs on every draw)

  function imageOf(id) {
    const fact = facts[id];
    if (!fact || !fact.image) return null;
    if (!imageUrls[id]) imageUrls[id] = URL.createObjectURL(new Blob([fact.image], {type: "image/svg+xml"}));
    return imageUrls[id];
  }

  function tileFace(id, rotation, extraClass) {
    const fact = facts[id];
    const face = el("span", {class: "kc-face" + (extraClass ? " " + extraClass : ""), "aria-hidden": "true"});
    const url = imageOf(id);
    if (url) {
      const img = el("img", {src: url, alt: "", draggable: "false"});
      img.style.transform = "rotate(" + (rotation - fact.base) + "deg)";
      face.appendChild(img);
    } else {
      face.appendChild(el("span", {class: "kc-id", text: id}));
    }
    return face;
  }

  function drawPaletteHead() {
    paletteHead.replaceChildren(
      el("span", {class: "kc-note", text: pending.tile ? "To put: " + pending.tile + ", turned " + pending.rotation + "°"
                                                       : "Choose a tile to put."}),
      el("button", {type: "button", class: "small", text: "Turn ⟳", "aria-label": "Turn the tile to put",
                    title: "R", disabled: !pending.tile, on: {click: () => turnPending()}}),
    );
  }

  // the tile to put changed: the palette's marks and the squares' previews follow, nothing else is drawn again
  function showPending() {
    const focusedTurn = paletteHead.contains(document.activeElement);
    drawPaletteHead();
    if (focusedTurn) paletteHead.querySelector("button").focus();
    for (const button of palette.querySelectorAll(".kc-pick")) {
      const mine = button.dataset.tile === pending.tile;
      button.setAttribute("aria-pressed", String(mine));
      button.querySelector(".kc-face").replaceWith(tileFace(button.dataset.tile, mine ? pending.rotation : 0));
    }
    for (const square of boardBox.querySelectorAll(".kc-free")) {
      square.disabled = !pending.tile;
      square.replaceChildren(...(pending.tile ? [tileFace(pending.tile, pending.rotation, "ghost")] : []));
    }
  }

  function drawPalette() {
    const focusedTile = document.activeElement && palette.contains(document.activeElement) &&
      document.activeElement.dataset.tile;
    const ids = Object.keys(counts()).sort();
    drawPaletteHead();
    palette.replaceChildren(...ids.map((id) => {
      const n = left(id);
      return el("button", {type: "button", class: "kc-pick", "aria-pressed": String(pending.tile === id), title: id,
                           disabled: n <= 0 && pending.tile !== id, dataset: {tile: id},
                           "aria-label": id + ", " + n + " left", on: {click: () => {
                             pending = {tile: id, rotation: 0};
                             showPending();
                             announce(id + " chosen, " + n + " left.");
                           }}},
                [tileFace(id, pending.tile === id ? pending.rotation : 0), el("span", {class: "kc-left", text: "×" + n})]);
    }));
    const again = focusedTile && palette.querySelector(`[data-tile="${focusedTile}"]`);
    if (again && !again.disabled) again.focus();
  }

  function turnPending() {
    if (!pending.tile) return;
    pending.rotation = (pending.rotation + 90) % 360;
    showPending();
    announce("The tile to put is turned " + pending.rotation + "°.");
  }

  // ---------------------------------------------------------------- the board

  function featureAt(tile, fx, fy) {
    // the feature under a point of a placed tile (board orientation), from its edges and features
    const fact = facts[tile.tile];
    if (!fact) return null;
    const turns = tile.rotation / 90;
    const features = fact.features.map((n) => turnName(n, turns));
    const centre = Math.hypot(fx - 0.5, fy - 0.5) < 0.2;
    if (centre && features.includes("cloister")) return "cloister";
    if (centre && features.includes("inner")) return "inner";
    const edge = fy <= fx && fy <= 1 - fx ? 0 : fx >= fy && fx >= 1 - fy ? 1 : fy >= fx && fy >= 1 - fx ? 2 : 3;
    const along = [fx, fy, 1 - fx, 1 - fy][edge]; // clockwise along the edge
    const kind = fact.edges[mod(edge - turns, 4)];
    if (kind === "city" || (kind === "road" && (Math.abs(along - 0.5) < 0.17 || centre))) return EDGES[edge];
    return HALVES[2 * edge + (along < 0.5 ? 0 : 1)];
  }

  function describe(tile) {
    const k = key(tile.at);
    const meeples = model.meeples.filter((m) => key(m.at) === k).map((m) => name(m.player) + " on " + m.feature);
    const tower = model.towers.find((t) => key(t.at) === k);
    return tile.tile + " at " + k + ", turned " + tile.rotation + "°" +
      (meeples.length ? "; meeples: " + meeples.join(", ") : "") +
      (tower ? "; tower of " + tower.height + (tower.top !== null ? " with " + name(tower.top) + " on top" : "") : "");
  }

  function freeSquares() {
    const taken = new Set(model.board.map((t) => key(t.at)));
    const free = new Map();
    for (const tile of model.board) {
      for (const [dx, dy] of AROUND) {
        const at = [tile.at[0] + dx, tile.at[1] + dy];
        if (!taken.has(key(at))) free.set(key(at), at);
      }
    }
    return [...free.values()];
  }

  function drawBoard() {
    const focusedKey = document.activeElement && boardBox.contains(document.activeElement) &&
      document.activeElement.dataset.at;
    const squares = model.board.map((t) => t.at).concat(freeSquares());
    const minX = Math.min(...squares.map((s) => s[0])), minY = Math.min(...squares.map((s) => s[1]));
    const maxX = Math.max(...squares.map((s) => s[0])), maxY = Math.max(...squares.map((s) => s[1]));
    boardBox.style.width = (maxX - minX + 1) * CELL + "px";
    boardBox.style.height = (maxY - minY + 1) * CELL + "px";
    const place = (node, at) => {
      node.style.left = (at[0] - minX) * CELL + "px";
      node.style.top = (at[1] - minY) * CELL + "px";
      return node;
    };
    const nodes = [];
    for (const at of freeSquares()) {
      const put = () => putTile(at);
      nodes.push(place(el("button", {type: "button", class: "kc-free", dataset: {at: key(at)}, disabled: !pending.tile,
                                     "aria-label": "Put the chosen tile at " + key(at), on: {click: put}},
                          pending.tile ? tileFace(pending.tile, pending.rotation, "ghost") : null), at));
    }
    for (const tile of model.board) {
      const k = key(tile.at);
      const node = el("div", {class: "kc-tile" + (k === selected ? " selected" : "") + (marks[k] ? " bad" : "") +
                                     (lit.has(k) ? " lit" : ""),
                              role: "button", tabindex: "0", dataset: {at: k, tile: tile.tile}, "aria-label": describe(tile)},
                      [tileFace(tile.tile, tile.rotation)]);
      for (const meeple of model.meeples.filter((m) => key(m.at) === k)) {
        const [sx, sy] = spotOf(meeple.feature);
        const field = HALVES.includes(meeple.feature) || meeple.feature === "inner";
        const dot = el("span", {class: "kc-meeple p" + meeple.player + (field ? " farmer" : ""),
                                dataset: {feature: meeple.feature}, title: name(meeple.player) + " on " + meeple.feature});
        dot.style.left = sx * 100 + "%";
        dot.style.top = sy * 100 + "%";
        node.appendChild(dot);
      }
      const tower = model.towers.find((t) => key(t.at) === k);
      if (tower) {
        node.appendChild(el("span", {class: "kc-tower" + (tower.top !== null ? " p" + tower.top : ""),
                                     text: String(tower.height)}));
      }
      if (marks[k]) node.appendChild(el("span", {class: "kc-rule", text: marks[k].join(" ")}));
      node.addEventListener("click", (event) => {
        const box = node.getBoundingClientRect();
        onTile(tile, (event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
      });
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(k); }
        else if (event.key === "Delete" || event.key === "Backspace") { event.preventDefault(); removeTile(k); }
        else if (event.key === "r" || event.key === "R") { event.preventDefault(); event.stopPropagation(); select(k); turnTile(); }
      });
      nodes.push(place(node, tile.at));
    }
    boardBox.replaceChildren(...nodes);
    if (focusedKey) {
      const again = boardBox.querySelector(`[data-at="${focusedKey}"]`);
      if (again) again.focus();
    }
  }

  function putTile(at) {
    if (!pending.tile) return;
    model.board.push({tile: pending.tile, at, rotation: pending.rotation});
    selected = key(at);
    const id = pending.tile;
    if (left(id) <= 0) pending = {tile: null, rotation: 0};
    update();
    const again = boardBox.querySelector(`[data-at="${key(at)}"]`);
    if (again) again.focus();
    announce(id + " put at " + key(at) + ".");
  }

  function select(k) {
    selected = k;
    drawBoard();
    drawPanel();
  }

  function onTile(tile, fx, fy) {
    const k = key(tile.at);
    selected = k;
    const feature = meepleTool ? featureAt(tile, fx, fy) : null;
    if (feature) addMeeple(tile, feature);
    else { drawBoard(); drawPanel(); }
  }

  function addMeeple(tile, feature) {
    model.meeples.push({player: chosen, at: tile.at.slice(), feature});
    update();
    announce(name(chosen) + "'s meeple on " + feature + " of the tile at " + key(tile.at) + ".");
  }

  function turnTile() {
    const tile = tileAt(selected);
    if (!tile || key(tile.at) === key(START)) return;
    tile.rotation = (tile.rotation + 90) % 360;
    for (const meeple of model.meeples) if (key(meeple.at) === selected) meeple.feature = turnName(meeple.feature, 1);
    update();
    announce("The tile at " + selected + " is turned " + tile.rotation + "°.");
  }

  function removeTile(k) {
    if (k === key(START)) return;
    model.board = model.board.filter((t) => key(t.at) !== k);
    model.meeples = model.meeples.filter((m) => key(m.at) !== k);
    model.towers = model.towers.filter((t) => key(t.at) !== k);
    selected = null;
    update();
    announce("The tile at " + k + " is taken away.");
  }

  // ---------------------------------------------------------------- the chosen tile

  function drawPanel() {
    const tile = tileAt(selected);
    if (!tile) {
      panel.replaceChildren(el("p", {class: "kc-note", text: "Click or focus a placed tile to turn it, take it away, " +
                                                            "or put meeples and a tower on it from here."}));
      return;
    }
    const k = key(tile.at);
    const fact = facts[tile.tile];
    const turns = tile.rotation / 90;
    const features = fact ? fact.features.map((n) => turnName(n, turns)) : [];
    const here = model.meeples.map((m, i) => [m, i]).filter(([m]) => key(m.at) === k);
    const tower = model.towers.find((t) => key(t.at) === k);
    const parts = [
      el("strong", {text: tile.tile + " at " + k}),
      el("button", {type: "button", class: "small", text: "Turn ⟳", "aria-label": "Turn the tile at " + k,
                    disabled: k === key(START), on: {click: turnTile}}),
      el("button", {type: "button", class: "small", text: "Take it away", disabled: k === key(START),
                    on: {click: () => removeTile(k)}}),
      el("span", {class: "kc-features", role: "group", "aria-label": "Put " + name(chosen) + "'s meeple on"}, [
        "Meeple on: ",
        ...features.map((f) => el("button", {type: "button", class: "small kc-feature", text: f, dataset: {feature: f},
                                             "aria-label": "Put " + name(chosen) + "'s meeple on " + f + " at " + k,
                                             on: {click: () => addMeeple(tile, f)}})),
      ]),
      ...here.map(([m, i]) => el("button", {type: "button", class: "small kc-here p" + m.player,
                                            "aria-label": "Take away " + name(m.player) + "'s meeple on " + m.feature,
                                            on: {click: () => { model.meeples.splice(i, 1); update(); }}},
                                 [el("span", {class: "swatch", "aria-hidden": "true"}), " " + m.feature + " ×"])),
    ];
    if (model.tower && fact && fact.tower) {
      const setHeight = (height) => {
        if (height <= 0) model.towers = model.towers.filter((t) => t !== tower);
        else if (tower) tower.height = height;
        else model.towers.push({at: tile.at.slice(), height, top: null});
        update();
      };
      const height = tower ? tower.height : 0;
      parts.push(el("span", {class: "kc-tower-edit"}, [
        "Tower ",
        el("button", {type: "button", class: "small icon", text: "−", "aria-label": "Tower at " + k + ": one floor less",
                      disabled: height <= 0, on: {click: () => setHeight(height - 1)}}),
        el("span", {class: "kc-height", text: String(height)}),
        el("button", {type: "button", class: "small icon", text: "+", "aria-label": "Tower at " + k + ": one floor more",
                      on: {click: () => setHeight(height + 1)}}),
        tower ? el("select", {"aria-label": "Meeple on top of the tower at " + k, on: {change: (event) => {
          tower.top = event.target.value === "" ? null : +event.target.value;
          update();
        }}}, [el("option", {value: "", text: "no meeple on top"}), ...model.players.map((_, p) =>
          el("option", {value: String(p), text: name(p) + " on top", selected: tower.top === p}))]) : null,
      ]));
    }
    panel.replaceChildren(...parts);
  }

  function drawAll() {
    const focused = document.activeElement && (playersBox.contains(document.activeElement) ||
      panel.contains(document.activeElement)) && document.activeElement.getAttribute("aria-label");
    drawOptions();
    drawPlayers();
    drawBar();
    drawPalette();
    drawBoard();
    drawPanel();
    if (focused) {
      const again = [...root.querySelectorAll("input, select, button")].find((n) => n.getAttribute("aria-label") === focused);
      if (again && !again.disabled) again.focus();
    }
  }

  // ---------------------------------------------------------------- the state

  function empty() {
    return {tower: false, players: DEFAULT_NAMES.slice(0, 2).map((n) => ({name: n, score: 0, prisoners: []})),
            board: [{tile: "BA/RCr", at: START.slice(), rotation: 0}], meeples: [], towers: []};
  }

  function load(table) {
    model = empty();
    if (table && Array.isArray(table.players) && Array.isArray(table.board)) {
      model.tower = !!table.tower;
      model.players = table.players.slice(0, MAX_PLAYERS).map((p, i) => ({
        name: String((p && p.name) || DEFAULT_NAMES[i]), score: Math.max(0, (p && p.score) | 0),
        prisoners: Array.isArray(p && p.prisoners) ? p.prisoners.filter(Number.isInteger) : []}));
      const good = (at) => Array.isArray(at) && at.length === 2 && at.every(Number.isInteger);
      model.board = table.board.filter((t) => t && typeof t.tile === "string" && good(t.at))
        .map((t) => ({tile: t.tile, at: t.at.slice(), rotation: mod((t.rotation | 0) - (t.rotation | 0) % 90, 360)}));
      if (!model.board.some((t) => key(t.at) === key(START))) model.board.unshift(empty().board[0]);
      model.meeples = (Array.isArray(table.meeples) ? table.meeples : [])
        .filter((m) => m && Number.isInteger(m.player) && good(m.at) && typeof m.feature === "string")
        .map((m) => ({player: m.player, at: m.at.slice(), feature: m.feature}));
      model.towers = (Array.isArray(table.towers) ? table.towers : []).filter((t) => t && good(t.at))
        .map((t) => ({at: t.at.slice(), height: Math.max(1, t.height | 0), top: Number.isInteger(t.top) ? t.top : null}));
    }
    chosen = Math.min(chosen, model.players.length - 1);
    selected = null;
    marks = {};
    lit = new Set();
    drawAll();
  }

  const tableJson = () => JSON.parse(JSON.stringify(model));

  function state() {
    const n = model.players.length;
    const total = Object.values(counts()).reduce((a, b) => a + b, 0);
    const inBag = Math.max(0, total - model.board.length);
    const heights = model.towers.reduce((sum, t) => sum + t.height, 0);
    let floorsLeft = model.tower ? Math.max(0, (FLOORS[n] || 0) * n - heights) : 0;
    const players = model.players.map((player, p) => {
      const away = model.meeples.filter((m) => m.player === p).length +
        model.towers.filter((t) => t.top === p).length +
        model.players.reduce((sum, other) => sum + other.prisoners.filter((o) => o === p).length, 0);
      const floors = model.tower ? Math.min(FLOORS[n] || 0, floorsLeft) : 0; // floors have no owner: spread
      floorsLeft -= floors;
      return {name: player.name, score: player.score, supply: Math.max(0, MEEPLES - away), floors,
              prisoners: model.tower ? player.prisoners.slice() : []};
    });
    return {
      game: "carcassonne", variant: {tower: model.tower}, phase: inBag ? "play" : "over", turn: 0, step: "place",
      bag: inBag ? {count: inBag} : [], discarded: [], board: model.board.map((t) => ({...t})), last: null,
      raised: null, meeples: model.meeples.map((m) => ({...m})),
      towers: model.tower ? model.towers.map((t) => ({...t})) : [], players, ransomed: false,
    };
  }

  function markProblems(errors) {
    marks = {};
    for (const error of errors) {
      const match = /^\/state\/(board|meeples|towers)\/(\d+)/.exec(error.pointer || "");
      const list = match && {board: model.board, meeples: model.meeples, towers: model.towers}[match[1]];
      const item = list && list[+match[2]];
      if (item && error.rule) {
        const k = key(item.at);
        (marks[k] || (marks[k] = [])).includes(error.rule) || marks[k].push(error.rule);
      }
    }
    drawBoard();
  }

  function clearProblems() {
    if (!Object.keys(marks).length) return;
    marks = {};
    drawBoard();
  }

  function light(tiles) {
    lit = new Set(tiles.map(key));
    for (const node of boardBox.querySelectorAll(".kc-tile")) node.classList.toggle("lit", lit.has(node.dataset.at));
  }

  function showScore(answer, into) {
    const winners = new Set(answer.winners);
    const categories = [["so_far", "On the track"], ["roads", "Roads"], ["cities", "Cities"],
                        ["cloisters", "Cloisters"], ["fields", "Fields"]];
    into.appendChild(el("div", {class: "table-scroll"}, el("table", {class: "breakdown", id: "breakdown"}, [
      el("thead", {}, el("tr", {}, [el("th", {scope: "col", text: "Player"}),
                                    ...categories.map(([, label]) => el("th", {scope: "col", text: label})),
                                    el("th", {scope: "col", text: "Total"})])),
      el("tbody", {}, answer.players.map((player, i) => el("tr", {class: winners.has(i) ? "winner" : ""}, [
        el("th", {scope: "row", class: winners.has(i) ? "winner" : "", text: player.name}),
        ...categories.map(([k]) => el("td", {class: k + (player[k] ? "" : " zero"), text: player[k]})),
        el("td", {class: "total" + (winners.has(i) ? " winner" : ""), text: player.total}),
      ]))),
    ])));
    const kinds = {road: "Road", city: "City", cloister: "Cloister", field: "Field"};
    into.appendChild(el("h3", {class: "kc-heading", text: "Every feature (" + answer.features.length + ")"}));
    into.appendChild(el("ul", {class: "kc-result-features", id: "features"}, answer.features.map((f) => {
      const who = f.winners.length ? f.winners.map((p) => answer.players[p].name).join(" and ") : "nobody";
      const size = f.type === "field" ? (f.cities || 0) + " complete cit" + (f.cities === 1 ? "y" : "ies")
                                      : f.tiles.length + " tile" + (f.tiles.length === 1 ? "" : "s");
      const item = el("li", {tabindex: "0", class: "kc-result-feature " + f.type, dataset: {tiles: f.tiles.map(key).join(" ")}}, [
        el("strong", {text: kinds[f.type] + " at " + key(f.at) + " (" + f.feature + ")"}),
        " " + size + (f.pennants ? ", " + f.pennants + " pennant" + (f.pennants === 1 ? "" : "s") : "") +
          (f.type === "field" ? "" : f.complete ? ", complete" : ", not complete") + ": ",
        el("span", {class: "kc-points", text: f.points + " point" + (f.points === 1 ? "" : "s")}),
        " to " + who,
      ]);
      const on = () => light(f.tiles);
      const off = () => light([]);
      item.addEventListener("mouseenter", on);
      item.addEventListener("focus", on);
      item.addEventListener("mouseleave", off);
      item.addEventListener("blur", off);
      return item;
    })));
    const names = answer.winners.map((i) => answer.players[i].name);
    const best = answer.players[answer.winners[0]].total;
    const over = state().phase === "over";
    if (names.length === 1) {
      const others = answer.players.filter((_, i) => i !== answer.winners[0]).map((p) => p.total).sort((a, b) => b - a);
      return names[0] + (over ? " wins with " : " leads with ") + best + " points" +
        (others.length ? ", to " + others[0] : "") + (over ? "." : ", with tiles still in the bag.");
    }
    return names.join(" and ") + (over ? " share the win with " : " share the lead with ") + best + " points" +
      (over ? " (K-END-4)." : ", with tiles still in the bag.");
  }

  root.addEventListener("keydown", (event) => {
    if ((event.key === "r" || event.key === "R") && !/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) {
      event.preventDefault();
      turnPending();
    }
  });

  load(null);
  learn();
  return {
    wide: true,
    liveCheck: true,
    isEmpty: () => model.board.length === 1 && !model.meeples.length,
    hint: "R turns · Ctrl+Enter scores",
    load(table) {
      load(table);
    },
    table: tableJson,
    request: () => ({state: state()}),
    markProblems,
    clearProblems,
    showScore,
  };
}
