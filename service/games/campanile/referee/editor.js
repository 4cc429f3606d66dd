// Campanile's editor on the referee page: the players, then the five towers in their order (A nearest the Finito
// piles), each with its height and card count (steppers) and the tokens under it in the order they were placed
// (buttons add a token of the chosen player). Scored through /score {"table"}; the result names the flags, who
// took the large and the small number of each, and the tie-breaks that decided (C-END-2, C-END-3).

const STYLES = ["A", "B", "C", "D", "E"];
const MIN_PLAYERS = 2, MAX_PLAYERS = 5, MAX_CARDS = 14;
const DEFAULT_NAMES = ["Ada", "Bea", "Cy", "Dov", "Eli"];
const EXAMPLE = {
  players: [{name: "Ada"}, {name: "Bea"}, {name: "Cy"}],
  towers: [
    {style: "A", plays: [2, 3, 1], tokens: [{player: 0, value: 2}, {player: 1, value: 3}]},
    {style: "B", plays: [3, 3], tokens: [{player: 2, value: 3}, {player: 0, value: 2}]},
    {style: "C", plays: [1], tokens: [{player: 1, value: 1}]},
    {style: "D", plays: [2, 2, 2], tokens: [{player: 1, value: 2}, {player: 2, value: 2}]},
    {style: "E", plays: [], tokens: []},
  ],
};
const REASONS = {
  total: "the greatest total",
  placed_first: "an equal total, but placed a token here first (C-END-3)",
  placed_later: "an equal total, but placed a token here later (C-END-3)",
};

function emptyTable() {
  return {players: DEFAULT_NAMES.slice(0, 2).map((name) => ({name})),
          towers: STYLES.map((style) => ({style, height: 0, cards: 0, tokens: []}))};
}

// plays: the stories each card added (1 to 3), spread as evenly as the height allows
function playsOf(height, cards) {
  const plays = [];
  for (let i = 0; i < cards; i++) plays.push(Math.floor(height / cards) + (i < height % cards ? 1 : 0));
  return plays;
}

const clamp = (value, low, high) => Math.max(low, Math.min(high, value));

export function create({root, el, changed, announce, redraw}) {
  let model = emptyTable();
  let chosen = 0; // whose tokens the buttons add

  const playersBox = el("div", {class: "cp-players"});
  const tokenBar = el("div", {class: "players-bar", role: "group", "aria-label": "Tokens of"});
  const towersBox = el("ol", {class: "cp-towers", "aria-label": "The towers, nearest the piles first"});
  root.append(
    el("h3", {class: "cp-heading", text: "Players"}), playersBox,
    el("h3", {class: "cp-heading", text: "Towers"}),
    el("p", {class: "cp-note", text: "Tower A stands nearest the Finito piles. Tokens under a tower are listed in " +
                                     "the order they were placed."}),
    tokenBar, towersBox,
  );

  function name(player) { return (model.players[player] && model.players[player].name) || "Player " + (player + 1); }

  function update() { drawAll(); changed(); }

  function drawPlayers() {
    playersBox.replaceChildren(...model.players.map((player, i) => el("div", {class: "cp-player"}, [
      el("span", {class: "swatch p" + i, "aria-hidden": "true"}),
      el("input", {type: "text", value: player.name, maxlength: "100", "aria-label": "Name of player " + (i + 1),
                   on: {input: (event) => { player.name = event.target.value; drawTokens(); changed(); }}}),
      el("button", {type: "button", class: "small icon", text: "×", disabled: model.players.length <= MIN_PLAYERS,
                    "aria-label": "Remove player " + (i + 1), on: {click: () => removePlayer(i)}}),
    ])));
    if (model.players.length < MAX_PLAYERS) {
      playersBox.appendChild(el("button", {type: "button", class: "small", text: "Add a player", on: {click: () => {
        model.players.push({name: DEFAULT_NAMES[model.players.length]});
        update();
        announce(model.players.length + " players.");
      }}}));
    }
  }

  function removePlayer(index) {
    model.players.splice(index, 1);
    for (const tower of model.towers) {
      tower.tokens = tower.tokens.filter((t) => t.player !== index)
        .map((t) => ({player: t.player > index ? t.player - 1 : t.player, value: t.value}));
    }
    chosen = Math.min(chosen, model.players.length - 1);
    update();
  }

  function drawTokenBar() {
    tokenBar.replaceChildren(el("span", {class: "label", text: "New tokens are"}), ...model.players.map((_, i) =>
      el("button", {type: "button", class: "small chooser-player", "aria-pressed": String(i === chosen),
                    on: {click: () => { chosen = i; drawTokenBar(); drawTowers(); announce("New tokens are " + name(i) + "'s."); }}},
         [el("span", {class: "swatch p" + i, "aria-hidden": "true"}), " " + name(i) + "'s"])));
  }

  function stepper(label, value, low, high, onChange) {
    const input = el("input", {type: "number", min: String(low), max: String(high), value: String(value),
                               inputmode: "numeric", "aria-label": label});
    input.addEventListener("change", () => {
      const number = parseInt(input.value, 10);
      onChange(clamp(Number.isNaN(number) ? low : number, low, high));
    });
    return el("span", {class: "stepper"}, [
      el("button", {type: "button", class: "small icon", text: "−", "aria-label": label + ": one less",
                    disabled: value <= low, on: {click: () => onChange(clamp(value - 1, low, high))}}),
      input,
      el("button", {type: "button", class: "small icon", text: "+", "aria-label": label + ": one more",
                    disabled: value >= high, on: {click: () => onChange(clamp(value + 1, low, high))}}),
    ]);
  }

  function drawTowers() {
    const focused = document.activeElement && document.activeElement.getAttribute("aria-label");
    towersBox.replaceChildren(...model.towers.map((tower, t) => {
      const setHeight = (height) => {
        tower.height = height;
        tower.cards = clamp(tower.cards, Math.ceil(height / 3), height);
        update();
      };
      const setCards = (cards) => { tower.cards = cards; update(); };
      const tokens = el("ol", {class: "cp-tokens", "aria-label": "Tokens under tower " + tower.style}, tower.tokens.map(
        (token, k) => el("li", {class: "chip p" + token.player, dataset: {player: token.player, value: token.value}}, [
          el("span", {class: "swatch", "aria-hidden": "true"}),
          el("span", {class: "cp-token-text", text: name(token.player) + " " + token.value}),
          el("button", {type: "button", class: "small icon", text: "×",
                        "aria-label": "Remove token " + (k + 1) + " of tower " + tower.style + " (" +
                                      name(token.player) + ", " + token.value + ")",
                        on: {click: () => { tower.tokens.splice(k, 1); update(); }}}),
        ])));
      return el("li", {class: "cp-tower", dataset: {style: tower.style}}, [
        el("div", {class: "cp-tower-head"}, [
          el("span", {class: "cp-style", text: tower.style, "aria-hidden": "true"}),
          el("strong", {text: "Tower " + tower.style}),
          el("span", {class: "cp-position", text: t === 0 ? "nearest the piles" : "position " + (t + 1)}),
        ]),
        el("div", {class: "cp-steppers"}, [
          el("span", {class: "cp-field"}, ["Stories ", stepper("Tower " + tower.style + " stories", tower.height, 0,
                                                                3 * MAX_CARDS, setHeight)]),
          el("span", {class: "cp-field"}, ["Cards ", stepper("Tower " + tower.style + " cards", tower.cards,
                                                              Math.ceil(tower.height / 3), tower.height, setCards)]),
        ]),
        tokens.childNodes.length ? tokens : el("p", {class: "cp-none", text: "No token under it."}),
        el("div", {class: "cp-add", role: "group", "aria-label": "Add a token under tower " + tower.style}, [1, 2, 3].map(
          (value) => el("button", {type: "button", class: "small", text: "+" + value,
                                   "aria-label": "Add " + name(chosen) + "'s token " + value + " under tower " + tower.style,
                                   on: {click: () => {
                                     tower.tokens.push({player: chosen, value});
                                     update();
                                     announce(name(chosen) + "'s " + value + " under tower " + tower.style + ".");
                                   }}}))),
      ]);
    }));
    if (focused) {
      const again = [...towersBox.querySelectorAll("[aria-label]")].find((node) => node.getAttribute("aria-label") === focused);
      if (again && !again.disabled) again.focus();
    }
  }

  function drawTokens() { drawTokenBar(); drawTowers(); }
  function drawAll() { redraw([playersBox], () => { drawPlayers(); drawTokens(); }); }

  function load(table) {
    model = emptyTable();
    if (table && Array.isArray(table.players) && Array.isArray(table.towers)) {
      model.players = table.players.slice(0, MAX_PLAYERS).map((p, i) => ({name: String((p && p.name) || DEFAULT_NAMES[i])}));
      model.towers = STYLES.map((style, t) => {
        const tower = table.towers[t] || {};
        const plays = Array.isArray(tower.plays) ? tower.plays.filter((n) => Number.isInteger(n)) : [];
        return {style, height: plays.reduce((a, b) => a + b, 0), cards: plays.length,
                tokens: (Array.isArray(tower.tokens) ? tower.tokens : [])
                  .filter((k) => k && Number.isInteger(k.player) && Number.isInteger(k.value))
                  .map((k) => ({player: k.player, value: k.value}))};
      });
    }
    chosen = Math.min(chosen, model.players.length - 1);
    drawAll();
  }

  function tableJson() {
    return {players: model.players.map((p) => ({name: p.name})),
            towers: model.towers.map((t) => ({style: t.style, plays: playsOf(t.height, t.cards),
                                              tokens: t.tokens.map((k) => ({player: k.player, value: k.value}))}))};
  }

  function markProblems(errors) {
    for (const error of errors) {
      const match = /^\/table\/towers\/(\d+)/.exec(error.pointer || "");
      const item = match && towersBox.children[+match[1]];
      if (item) {
        item.classList.add("bad");
        item.appendChild(el("p", {class: "cp-problem", text: error.message + (error.rule ? " (" + error.rule + ")" : "")}));
      }
    }
  }

  function clearProblems() {
    for (const item of towersBox.querySelectorAll(".cp-tower.bad")) item.classList.remove("bad");
    for (const note of towersBox.querySelectorAll(".cp-problem")) note.remove();
  }

  function showScore(answer, into) {
    const names = answer.players.map((p) => p.name);
    const style = (position) => STYLES[position];
    const award = (a) => a ? [el("strong", {text: names[a.player] + " " + a.points}),
                              el("span", {class: "explain", text: "total " + a.total + ": " + REASONS[a.reason]})]
                           : [el("span", {class: "zero", text: "—"})];
    const byRank = answer.towers.slice().sort((a, b) => a.rank - b.rank);
    const towers = el("table", {class: "breakdown cp-flags", id: "flags"}, [
      el("caption", {text: "The flags, tallest tower first (C-END-2)"}),
      el("thead", {}, el("tr", {}, ["Tower", "Flag", "Large number", "Small number"].map(
        (h) => el("th", {scope: "col", text: h})))),
      el("tbody", {}, byRank.map((tower) => el("tr", {dataset: {style: tower.style}}, [
        el("th", {scope: "row"}, [tower.style + " · " + tower.height + " stor" + (tower.height === 1 ? "y" : "ies"),
          el("span", {class: "explain", text: tower.ranked_by === "position"
            ? "as tall as " + tower.tied_with.map(style).join(", ") + ": the tower nearer the piles ranks higher"
            : "rank " + tower.rank})]),
        el("td", {class: "flag", text: tower.flag ? tower.flag.large + "/" + tower.flag.small : "none"}),
        el("td", {class: "large"}, award(tower.large)),
        el("td", {class: "small"}, award(tower.small)),
      ]))),
    ]);
    const winners = new Set(answer.winners);
    const totals = el("table", {class: "breakdown cp-totals", id: "breakdown"}, [
      el("caption", {text: "Points by tower"}),
      el("thead", {}, el("tr", {}, [el("th", {scope: "col", text: "Player"}),
                                    ...STYLES.map((s) => el("th", {scope: "col", text: s})),
                                    el("th", {scope: "col", text: "Total"})])),
      el("tbody", {}, answer.players.map((player, i) => el("tr", {class: winners.has(i) ? "winner" : ""}, [
        el("th", {scope: "row", class: winners.has(i) ? "winner" : "", text: player.name}),
        ...player.towers.map((points) => el("td", {text: points, class: points ? "" : "zero"})),
        el("td", {class: "total" + (winners.has(i) ? " winner" : ""), text: player.total}),
      ]))),
    ]);
    into.append(el("div", {class: "table-scroll"}, towers), el("div", {class: "table-scroll"}, totals));
    const ranked = answer.players.map((p, i) => [p.total, i]).sort((a, b) => b[0] - a[0]);
    if (answer.winner !== null && answer.winner !== undefined) {
      const second = ranked[1];
      return names[answer.winner] + " wins with " + answer.players[answer.winner].total + " points" +
        (second ? ", ahead of " + names[second[1]] + " with " + second[0] : "") + ".";
    }
    return answer.winners.map((i) => names[i]).join(" and ") + " share the win with " +
      answer.players[answer.winners[0]].total + " points each (C-END-4).";
  }

  load(null);
  return {
    exampleLabel: "Example table",
    hint: "Ctrl+Enter scores",
    load,
    table: tableJson,
    request: () => ({table: tableJson()}),
    example() { load(EXAMPLE); },
    markProblems,
    clearProblems,
    showScore,
  };
}
