// San Gimignano's editor on the referee page: a hex board. A click on a free cell lays a hexagon there (its three
// guilds chosen and the hexagon turned in the panel, or with the R key); a click on a guild space adds a token of
// the chosen player, or their tower. Every cell and space is a button for the keyboard. The table is checked with
// /validate while it is edited, and the hexagons a problem points at are marked with the rule broken. Scored
// through /score {"state"} with the game over: towers on the board, then tokens on spaces (S-END-3). Its words are
// the game's `pages` catalogue, said with the page's t, tn and tp.

const N_ = (text) => text; // marks a word for the catalogue; said with t() where it is shown

const GUILDS = ["A", "B", "C", "D"];
const GUILD_NAMES = {A: N_("ochre"), B: N_("green"), C: N_("brick"), D: N_("slate")}; // the guilds' colours
const SIZE = 44; // a hexagon's corner radius in the editor
const SQRT3 = Math.sqrt(3);
const MIN_PLAYERS = 2, MAX_PLAYERS = 4, TOKENS = 20, TOWERS = 10, HEXES = 16;
const BOX = {2: 6, 3: 4, 4: 0}; // S-SETUP-1: hexagons back in the box
const HAND = {2: 4, 3: 3, 4: 3}; // S-SETUP-1: hexagons dealt to each player
const DEFAULT_NAMES = ["Ada", "Bea", "Cy", "Dov"];
const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]; // S-GEO-1, side d = 0..5
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

function svgEl(tag, attrs, children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of [].concat(children || [])) if (child) node.appendChild(child);
  return node;
}

const centre = ([q, r]) => [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)];
const vertex = (j) => [SIZE * Math.cos(Math.PI / 3 * j), -SIZE * Math.sin(Math.PI / 3 * j)];
const key = ([q, r]) => q + "," + r;

export function create({root, el, changed, announce, redraw, t, tn, tp, list}) {
  let model = {players: [], hexes: []};
  let chosen = 0;
  let tool = "token"; // token | tower | empty | hexagon
  let selected = -1; // the hexagon the panel edits
  let lastGuilds = ["A", "B", "C"];
  let marks = {}; // hexagon index -> [rules]
  let over = true; // a finished table; off: a game still being played (S-END-1, S-END-2 decide which it is)
  let largeGroups = false; // S-VAR-1

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
  const board = svgEl("svg", {class: "sg-board", role: "group", "aria-label": t("The board")});
  const boardScroll = el("div", {class: "board-scroll sg-scroll"}, board);
  root.append(
    el("h3", {class: "sg-heading", text: t("Players")}), playersBox,
    el("h3", {class: "sg-heading", text: t("The board")}),
    el("p", {class: "sg-note", text: t("Click a dashed cell to lay a hexagon; choose its guilds and turn it below " +
                                       "(R turns it). Click a guild space to put a piece there.")}),
    playerBar, toolBar, boardScroll, panel,
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
                    dataset: {tool: id}, on: {click: () => { tool = id; drawBars(); announce(label + "."); }}})));
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

  function spaceLabel(hex, i) {
    const tokens = hex.tokens[i].map(name);
    const tower = hex.towers[i];
    const holds = tower !== null ? t("{player}'s tower", {player: name(tower)})
      : tokens.length ? tn("token of {players}", "tokens of {players}", tokens.length, {players: list(tokens)})
      : t("empty");
    return t("Guild {guild} space of the hexagon at {at}: {holds}", {guild: hex.guilds[i], at: key(hex.at), holds});
  }

  function activate(handler) {
    return (event) => {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      handler();
    };
  }

  function drawBoard() {
    const focusedLabel = document.activeElement && board.contains(document.activeElement) &&
      document.activeElement.getAttribute("aria-label");
    board.replaceChildren();
    const cells = model.hexes.map((h) => h.at).concat(freeCells());
    const xs = cells.map((at) => centre(at)[0]), ys = cells.map((at) => centre(at)[1]);
    const pad = SIZE + 6;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const width = Math.max(...xs) - minX + pad, height = Math.max(...ys) - minY + pad;
    board.setAttribute("viewBox", [minX, minY, width, height].map((n) => n.toFixed(1)).join(" "));
    board.setAttribute("width", width.toFixed(0));
    board.setAttribute("height", height.toFixed(0));

    for (const at of freeCells()) {
      const [cx, cy] = centre(at);
      const points = [0, 1, 2, 3, 4, 5].map((j) => { const [vx, vy] = vertex(j); return (cx + vx * 0.94) + "," + (cy + vy * 0.94); });
      const cell = svgEl("g", {class: "sg-free", tabindex: "0", role: "button", "data-at": key(at),
                               "aria-label": t("Lay a hexagon at {at}", {at: key(at)})}, [
        svgEl("polygon", {points: points.join(" ")}),
        svgEl("text", {x: cx, y: cy + 4, "text-anchor": "middle", class: "sg-coord"}, document.createTextNode(key(at))),
      ]);
      const lay = () => {
        model.hexes.push({at, rotation: 0, guilds: lastGuilds.slice(), tokens: [[], [], []], towers: [null, null, null]});
        selected = model.hexes.length - 1;
        update();
        announce(t("Hexagon laid at {at}.", {at: key(at)}));
      };
      cell.addEventListener("click", activate(lay));
      cell.addEventListener("keydown", activate(lay));
      board.appendChild(cell);
    }

    model.hexes.forEach((hex, h) => {
      const [cx, cy] = centre(hex.at);
      const group = svgEl("g", {class: "sg-hex" + (h === selected ? " selected" : "") + (marks[h] ? " bad" : ""),
                                "data-at": key(hex.at)});
      for (let i = 0; i < 3; i++) {
        const a = hex.rotation + 2 * i;
        const corners = [vertex(a - 1), vertex(a), vertex(a + 1)];
        const points = [[cx, cy], ...corners.map(([vx, vy]) => [cx + vx, cy + vy])];
        const [mx, my] = [cx + corners[1][0] * 0.5, cy + corners[1][1] * 0.5]; // the rhombus's middle
        const space = svgEl("g", {class: "sg-space guild-" + hex.guilds[i], tabindex: "0", role: "button",
                                  "data-guild": hex.guilds[i], "aria-label": spaceLabel(hex, i)}, [
          svgEl("polygon", {points: points.map((p) => p.map((n) => n.toFixed(1)).join(",")).join(" ")}),
          svgEl("text", {x: (cx + (mx - cx) * 1.45).toFixed(1), y: (cy + (my - cy) * 1.45 + 4).toFixed(1),
                         "text-anchor": "middle", class: "sg-letter"}, document.createTextNode(hex.guilds[i])),
        ]);
        const perpendicular = [-(my - cy) / SIZE * 9, (mx - cx) / SIZE * 9];
        hex.tokens[i].forEach((player, k) => {
          const shift = hex.tokens[i].length === 2 ? (k ? 1 : -1) : 0;
          space.appendChild(svgEl("circle", {class: "sg-token p" + player, r: "6.5",
                                             cx: (mx + perpendicular[0] * shift).toFixed(1),
                                             cy: (my + perpendicular[1] * shift).toFixed(1)}));
        });
        if (hex.towers[i] !== null) {
          space.appendChild(svgEl("path", {class: "sg-tower p" + hex.towers[i],
                                           d: `M${(mx - 6).toFixed(1)},${(my + 8).toFixed(1)} v-13 l3,-4 l3,3 l3,-3 ` +
                                              "l3,4 v13 z"}));
        }
        const act = () => onSpace(h, i);
        space.addEventListener("click", activate(act));
        space.addEventListener("keydown", activate(act));
        group.appendChild(space);
      }
      if (marks[h]) {
        group.appendChild(svgEl("text", {x: cx, y: cy + SIZE * 0.95, "text-anchor": "middle", class: "sg-rule"},
                                document.createTextNode(marks[h].join(" "))));
      }
      board.appendChild(group);
    });
    if (focusedLabel) {
      const again = [...board.querySelectorAll("[aria-label]")].find((n) => n.getAttribute("aria-label") === focusedLabel);
      if (again) again.focus();
    }
  }

  function onSpace(h, i) {
    const hex = model.hexes[h];
    if (tool === "hexagon") {
      selected = h;
      drawBoard();
      drawPanel();
      announce(t("Hexagon at {at} chosen.", {at: key(hex.at)}));
      return;
    }
    selected = h;
    if (tool === "token") {
      hex.tokens[i].push(chosen); // more than two is the service's to refuse (S-TOKEN-1), on the board
    } else if (tool === "tower") {
      hex.towers[i] = hex.towers[i] === chosen ? null : chosen;
    } else {
      hex.tokens[i] = [];
      hex.towers[i] = null;
    }
    update();
    announce(spaceLabel(hex, i) + ".");
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
    hint: t("R turns the chosen hexagon · Ctrl+Enter scores"),
    load,
    table: tableJson,
    request: () => ({state: state()}),
    example() { load(EXAMPLE); },
    markProblems,
    clearProblems,
    showScore,
  };
}
