// Campanile's editor on the referee page: the players, then the five towers in their order (A nearest the Finito
// piles), each with its height and card count (steppers) and the tokens under it in the order they were placed
// (buttons add a token of the chosen player). Scored through /score {"table"}; the result names the flags, who
// took the large and the small number of each, and the tie-breaks that decided (C-END-2, C-END-3). Its words are the
// game's `pages` catalogue, said with the page's t and tn.

const N_ = (text) => text; // marks a sentence for the catalogue; said with t() where it is shown

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
  total: N_("the greatest total"),
  placed_first: N_("an equal total, but placed a token here first (C-END-3)"),
  placed_later: N_("an equal total, but placed a token here later (C-END-3)"),
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

export function create({root, el, changed, announce, redraw, t, tn, list}) {
  let model = emptyTable();
  let chosen = 0; // whose tokens the buttons add

  const playersBox = el("div", {class: "cp-players"});
  const tokenBar = el("div", {class: "players-bar", role: "group", "aria-label": t("Tokens of")});
  const towersBox = el("ol", {class: "cp-towers", "aria-label": t("The towers, nearest the piles first")});
  root.append(
    el("h3", {class: "cp-heading", text: t("Players")}), playersBox,
    el("h3", {class: "cp-heading", text: t("Towers")}),
    el("p", {class: "cp-note", text: t("Tower A stands nearest the Finito piles. Tokens under a tower are listed in " +
                                       "the order they were placed.")}),
    tokenBar, towersBox,
  );

  function name(player) {
    return (model.players[player] && model.players[player].name) || t("Player {number}", {number: player + 1});
  }

  function update() { drawAll(); changed(); }

  function drawPlayers() {
    playersBox.replaceChildren(...model.players.map((player, i) => el("div", {class: "cp-player"}, [
      el("span", {class: "swatch p" + i, "aria-hidden": "true"}),
      el("input", {type: "text", value: player.name, maxlength: "100", "aria-label": t("Name of player {number}", {number: i + 1}),
                   on: {input: (event) => { player.name = event.target.value; drawTokens(); changed(); }}}),
      el("button", {type: "button", class: "small icon", text: "×", disabled: model.players.length <= MIN_PLAYERS,
                    "aria-label": t("Remove player {number}", {number: i + 1}), on: {click: () => removePlayer(i)}}),
    ])));
    if (model.players.length < MAX_PLAYERS) {
      playersBox.appendChild(el("button", {type: "button", class: "small", text: t("Add a player"), on: {click: () => {
        model.players.push({name: DEFAULT_NAMES[model.players.length]});
        update();
        announce(tn("{count} player.", "{count} players.", model.players.length));
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
    // Translators: before the buttons that choose whose tokens the + buttons add ("New tokens are" [Ada's] [Bea's])
    tokenBar.replaceChildren(el("span", {class: "label", text: t("New tokens are")}), ...model.players.map((_, i) =>
      el("button", {type: "button", class: "small chooser-player", "aria-pressed": String(i === chosen),
                    on: {click: () => {
                      chosen = i;
                      drawTokenBar();
                      drawTowers();
                      announce(t("New tokens are {player}'s.", {player: name(i)}));
                    }}},
         [el("span", {class: "swatch p" + i, "aria-hidden": "true"}), " " + t("{player}'s", {player: name(i)})])));
  }

  function stepper(label, value, low, high, onChange) {
    const input = el("input", {type: "number", min: String(low), max: String(high), value: String(value),
                               inputmode: "numeric", "aria-label": label});
    input.addEventListener("change", () => {
      const number = parseInt(input.value, 10);
      onChange(clamp(Number.isNaN(number) ? low : number, low, high));
    });
    return el("span", {class: "stepper"}, [
      el("button", {type: "button", class: "small icon", text: "−", "aria-label": t("{label}: one less", {label}),
                    disabled: value <= low, on: {click: () => onChange(clamp(value - 1, low, high))}}),
      input,
      el("button", {type: "button", class: "small icon", text: "+", "aria-label": t("{label}: one more", {label}),
                    disabled: value >= high, on: {click: () => onChange(clamp(value + 1, low, high))}}),
    ]);
  }

  function drawTowers() {
    const focused = document.activeElement && document.activeElement.getAttribute("aria-label");
    towersBox.replaceChildren(...model.towers.map((tower, at) => {
      const setHeight = (height) => {
        tower.height = height;
        tower.cards = clamp(tower.cards, Math.ceil(height / 3), height);
        update();
      };
      const setCards = (cards) => { tower.cards = cards; update(); };
      const tokens = el("ol", {class: "cp-tokens", "aria-label": t("Tokens under tower {tower}", {tower: tower.style})}, tower.tokens.map(
        (token, k) => el("li", {class: "chip p" + token.player, dataset: {player: token.player, value: token.value}}, [
          el("span", {class: "swatch", "aria-hidden": "true"}),
          el("span", {class: "cp-token-text", text: name(token.player) + " " + token.value}),
          el("button", {type: "button", class: "small icon", text: "×",
                        "aria-label": t("Remove token {number} of tower {tower} ({player}, {value})", {
                          number: k + 1, tower: tower.style, player: name(token.player), value: token.value}),
                        on: {click: () => { tower.tokens.splice(k, 1); update(); }}}),
        ])));
      return el("li", {class: "cp-tower", dataset: {style: tower.style}}, [
        el("div", {class: "cp-tower-head"}, [
          el("span", {class: "cp-style", text: tower.style, "aria-hidden": "true"}),
          el("strong", {text: t("Tower {tower}", {tower: tower.style})}),
          el("span", {class: "cp-position", text: at === 0 ? t("nearest the piles") : t("position {number}", {number: at + 1})}),
        ]),
        el("div", {class: "cp-steppers"}, [
          el("span", {class: "cp-field"}, [t("Stories") + " ", stepper(t("Tower {tower} stories", {tower: tower.style}),
                                                                       tower.height, 0, 3 * MAX_CARDS, setHeight)]),
          el("span", {class: "cp-field"}, [t("Cards") + " ", stepper(t("Tower {tower} cards", {tower: tower.style}),
                                                                     tower.cards, Math.ceil(tower.height / 3),
                                                                     tower.height, setCards)]),
        ]),
        tokens.childNodes.length ? tokens : el("p", {class: "cp-none", text: t("No token under it.")}),
        el("div", {class: "cp-add", role: "group", "aria-label": t("Add a token under tower {tower}", {tower: tower.style})},
           [1, 2, 3].map((value) => el("button", {
             type: "button", class: "small", text: "+" + value,
             "aria-label": t("Add {player}'s token {value} under tower {tower}", {player: name(chosen), value, tower: tower.style}),
             on: {click: () => {
               tower.tokens.push({player: chosen, value});
               update();
               announce(t("{player}'s {value} under tower {tower}.", {player: name(chosen), value, tower: tower.style}));
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
                              el("span", {class: "explain", text: t("total {total}: {reason}",
                                                                    {total: a.total, reason: t(REASONS[a.reason])})})]
                           : [el("span", {class: "zero", text: "—"})];
    const byRank = answer.towers.slice().sort((a, b) => a.rank - b.rank);
    const towers = el("table", {class: "breakdown cp-flags", id: "flags"}, [
      el("caption", {text: t("The flags, tallest tower first (C-END-2)")}),
      el("thead", {}, el("tr", {}, [t("Tower"), t("Flag"), t("Large number"), t("Small number")].map(
        (h) => el("th", {scope: "col", text: h})))),
      el("tbody", {}, byRank.map((tower) => el("tr", {dataset: {style: tower.style}}, [
        el("th", {scope: "row"}, [tower.style + " · " + tn("{count} story", "{count} stories", tower.height),
          el("span", {class: "explain", text: tower.ranked_by === "position"
            ? t("as tall as {towers}: the tower nearer the piles ranks higher",
                {towers: tower.tied_with.map(style).join(", ")})
            : t("rank {rank}", {rank: tower.rank})})]),
        el("td", {class: "flag", text: tower.flag ? tower.flag.large + "/" + tower.flag.small : t("none")}),
        el("td", {class: "large"}, award(tower.large)),
        el("td", {class: "small"}, award(tower.small)),
      ]))),
    ]);
    const winners = new Set(answer.winners);
    const totals = el("table", {class: "breakdown cp-totals", id: "breakdown"}, [
      el("caption", {text: t("Points by tower")}),
      el("thead", {}, el("tr", {}, [el("th", {scope: "col", text: t("Player")}),
                                    ...STYLES.map((s) => el("th", {scope: "col", text: s})),
                                    el("th", {scope: "col", text: t("Total")})])),
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
      const points = answer.players[answer.winner].total;
      return second ? tn("{winner} wins with {count} point, ahead of {other} with {points}.",
                         "{winner} wins with {count} points, ahead of {other} with {points}.", points,
                         {winner: names[answer.winner], other: names[second[1]], points: second[0]})
                    : tn("{winner} wins with {count} point.", "{winner} wins with {count} points.", points,
                         {winner: names[answer.winner]});
    }
    return tn("{players} share the win with {count} point each (C-END-4).",
              "{players} share the win with {count} points each (C-END-4).", answer.players[answer.winners[0]].total,
              {players: list(answer.winners.map((i) => names[i]))});
  }

  load(null);
  return {
    exampleLabel: t("Example table"),
    hint: t("Ctrl+Enter scores"),
    load,
    table: tableJson,
    request: () => ({table: tableJson()}),
    example() { load(EXAMPLE); },
    markProblems,
    clearProblems,
    showScore,
  };
}
