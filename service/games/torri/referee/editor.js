// Torri's editor on the referee page: a finished table typed in notation, one line per player, with line numbers
// and the problems the service finds marked on their line and column. Scored through /score {"notation"}.
// Its words are the game's `pages` catalogue, said with the page's t and parts (the service's own sentences come
// in the page's language; where a problem is, "line 2, column 20: …", "ligne 2, colonne 20 : …", is read with the
// catalogue's words for it, in the page's language, or in English).
// On a phone the lines wrap (each whole in view, no sideways scrolling): the box grows with its text, and each line
// number stands beside the first row of its line.

const N_ = (text) => text; // marks a label for the catalogue; said with t() where it is shown
const EXAMPLE = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*";
// each category of the score: its key in the answer, its name, how it counts and its rule
const CATEGORIES = [
  ["completion", N_("Complete towers"), N_("5 each"), "T-SCORE-1"],
  ["blessing", N_("Blessing"), N_("2 per story of plain 7s"), "T-SCORE-2"],
  ["plain", N_("Plain towers"), N_("tallest of each rank"), "T-SCORE-3"],
  ["colorful", N_("Colorful towers"), N_("towers × stories"), "T-SCORE-4"],
  ["highest", N_("Highest marker"), "10", "T-SCORE-5"],
  ["monumento", "Monumento", "7", "T-NOB-MON"],
  ["cappella", "Cappella di Santa Fina", N_("5 per tower of 5+"), "T-NOB-SF"],
];
// how to write a table, a sentence a line: its {parameters} are written as code, as they are typed
const SYNTAX = [
  [N_("One line per player: {line} — {at} marks the holder of the Highest marker."),
   {line: N_("Name @: towers | nobles"), at: "@"}],
  [N_("{plain} a plain tower: rank 8, 3 stories."), {plain: "8x3"}],
  [N_("{colorful} a colorful tower from its bottom rank 10 down to its top rank 6."), {colorful: "10-6"}],
  [N_("{stack} an explicit stack, bottom first; {bp} is a Buona Pietra ({nine}: one standing for 9)."),
   {stack: "[10 10 BP 10]", bp: "BP", nine: "BP9"}],
  [N_("{star} after a tower: complete, e.g. {complete}."), {star: "*", complete: "9x3*"}],
  [N_("After {bar}, the nobles played: {mon} Monumento, {sf} Cappella di Santa Fina, {mu} Mura, {pc} Palazzo, " +
      "{vf} Via Francigena, {gi} Giostra."),
   {bar: "|", mon: "+MON", sf: "+SF", mu: "+MU", pc: "+PC", vf: "+VF", gi: "+GI"}],
];

// a sentence of the catalogue that starts a problem ("line {line}, column {column}") as a pattern: its words as
// they are, its {line} and {column} any number, then the colon (a space before it in French)
function opening(sentence) {
  const words = sentence.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  if (!words.includes("{line}")) return null;
  return new RegExp("^" + words.replace("{line}", "(?<line>\\d+)").replace("{column}", "(?<column>\\d+)") +
                    "\\s*:\\s*", "iu");
}

export function create({root, el, changed, t, parts}) {
  const gutter = el("div", {class: "gutter", id: "gutter", "aria-hidden": "true"});
  const backdrop = el("div", {class: "backdrop", id: "backdrop", "aria-hidden": "true"});
  const area = el("textarea", {
    id: "notation", name: "notation", rows: "6", wrap: "soft", spellcheck: "false", autocomplete: "off",
    autocapitalize: "off", "aria-label": t("The table in notation, one line per player"), "aria-describedby": "syntax",
    placeholder: "Adso @: 10x3* 9x3* 8x3 6x3* 10-6 | +MON\nWilliam: 7x3* 9-5* 10-8* 7-5*",
  });
  root.append(
    el("div", {class: "notation-editor"}, [gutter, el("div", {class: "field"}, [backdrop, area])]),
    el("details", {class: "syntax", id: "syntax", open: true}, [
      el("summary", {text: t("How to write a table")}),
      el("ul", {}, SYNTAX.map(([sentence, codes]) => {
        const shown = {};
        for (const [name, code] of Object.entries(codes)) shown[name] = el("code", {text: t(code)});
        return el("li", {}, parts(t(sentence), shown));
      })),
    ]),
  );
  let badLines = {}; // line number -> column (or 0) of the first problem on it

  const lines = () => area.value.split("\n");

  function sync() {
    backdrop.scrollTop = area.scrollTop;
    backdrop.scrollLeft = area.scrollLeft;
    gutter.scrollTop = area.scrollTop;
  }

  // the box as tall as its text (never a hidden first or last line), each line number as tall as its line's rows
  function fit() {
    area.style.height = "auto";
    area.style.height = area.scrollHeight + "px";
    const rows = backdrop.children;
    [...gutter.children].forEach((number, i) => {
      const height = rows[i] ? rows[i].getBoundingClientRect().height : 0;
      number.style.height = height ? height + "px" : "";
    });
    sync();
  }

  function paint() {
    gutter.replaceChildren();
    backdrop.replaceChildren();
    lines().forEach((line, index) => {
      const number = index + 1;
      const bad = Object.prototype.hasOwnProperty.call(badLines, number);
      gutter.appendChild(el("div", {class: bad ? "bad" : "", text: number, title: bad ? t("a problem on this line") : null}));
      const row = el("div", {class: bad ? "bad-line" : ""});
      const column = badLines[number];
      if (bad && column > 0 && column <= line.length + 1) {
        row.append(line.slice(0, column - 1), el("mark", {text: line.slice(column - 1, column) || " "}),
                   line.slice(column));
      } else {
        row.textContent = line || " ";
      }
      backdrop.appendChild(row);
    });
    fit();
  }

  function select(line, column) {
    const all = lines();
    let start = 0;
    for (let i = 0; i < line - 1 && i < all.length; i++) start += all[i].length + 1;
    const length = (all[line - 1] || "").length;
    const from = column ? start + Math.min(column - 1, length) : start;
    const to = column ? Math.min(from + 1, start + length) : start + length;
    area.focus();
    area.setSelectionRange(from, to);
  }

  // where a problem is, from the service's sentence (asked in the page's language): it starts with the words the
  // catalogue has for it, "ligne 2, colonne 20 : …" in French, or the English "line 2, column 20: …"; failing
  // both, any word, a number, a comma, a word and a number
  const openings = [...new Set([t("line {line}, column {column}"), "line {line}, column {column}", t("line {line}"),
                                "line {line}"])].map(opening).filter(Boolean);
  function where(message) {
    for (const pattern of openings) {
      const match = pattern.exec(message);
      if (match) {
        return {line: +match.groups.line, column: match.groups.column ? +match.groups.column : 0,
                rest: message.slice(match[0].length)};
      }
    }
    const match = /^\p{L}+ (\d+)(?:, \p{L}+ (\d+))?\s*: /u.exec(message);
    return match ? {line: +match[1], column: match[2] ? +match[2] : 0, rest: message.slice(match[0].length)} : null;
  }

  function clearProblems() {
    if (!Object.keys(badLines).length && !area.hasAttribute("aria-invalid")) return;
    badLines = {};
    area.removeAttribute("aria-invalid");
    paint();
  }

  function showProblems(problem, box) {
    let errors = (problem && problem.errors) || [];
    if (!errors.length) errors = [{message: (problem && problem.detail) || t("The service refused the table."), rule: null}];
    badLines = {};
    box.appendChild(el("h3", {text: problem && problem.status === 422 ? t("This table cannot be real")
                                                                       : t("This is not notation yet")}));
    box.appendChild(el("ul", {}, errors.map((error) => {
      const at = where(error.message || "");
      const item = el("li");
      if (at) {
        if (!Object.prototype.hasOwnProperty.call(badLines, at.line)) badLines[at.line] = at.column;
        item.append(el("button", {
          type: "button", class: "where", title: t("show it in the text"),
          text: at.column ? t("line {line}, column {column}", {line: at.line, column: at.column})
                          : t("line {line}", {line: at.line}),
          on: {click: () => select(at.line, at.column)},
        }), " " + at.rest);
      } else {
        item.append(error.message);
      }
      if (error.rule) item.appendChild(el("span", {class: "rule", text: error.rule}));
      return item;
    })));
    area.setAttribute("aria-invalid", "true");
    paint();
    return true;
  }

  function verdict(answer) {
    const [a, b] = answer.players;
    if (answer.winner === null || answer.winner === undefined) {
      return t("A draw: {points} to {other}, and nobody holds the Highest marker to break the tie.",
               {points: a.total, other: b.total});
    }
    const won = answer.players[answer.winner], lost = answer.players[1 - answer.winner];
    if (answer.decided_by === "points") {
      return t("{winner} wins on points, {points} to {other}.", {winner: won.name, points: won.total, other: lost.total});
    }
    return t("{winner} wins: {points} to {other} is a tie, and a tie goes to the holder of the Highest marker " +
             "(T-SCORE-WIN).", {winner: won.name, points: won.total, other: lost.total});
  }

  function showScore(answer, into) {
    const players = answer.players;
    const isWinner = (i) => answer.winner === i;
    const head = el("tr", {}, [el("th", {text: t("Category"), scope: "col"}), ...players.map((player, i) =>
      el("th", {text: player.name, scope: "col", class: isWinner(i) ? "winner" : ""}))]);
    const rows = CATEGORIES.map(([key, label, counts, rule]) => el("tr", {dataset: {category: key}}, [
      el("th", {scope: "row"}, [t(label), el("span", {class: "rule", text: t(counts) + " · " + rule})]),
      ...players.map((player, i) => {
        const value = player.categories[key] || 0;
        const cell = el("td", {text: value, class: (value ? "" : "zero") + (isWinner(i) ? " winner" : "")});
        if (key === "plain" && player.plain_ranks_won.length) {
          cell.appendChild(el("span", {class: "ranks", text: " (" + player.plain_ranks_won.join(", ") + ")"}));
          cell.title = t("ranks won: {ranks}", {ranks: player.plain_ranks_won.join(", ")});
        }
        return cell;
      }),
    ]));
    const total = el("tr", {}, [el("th", {text: t("Total"), scope: "row"}), ...players.map((player, i) =>
      el("td", {text: player.total, class: "total" + (isWinner(i) ? " winner" : "")}))]);
    into.appendChild(el("table", {class: "breakdown", id: "breakdown"}, [
      el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, total),
    ]));
    return verdict(answer);
  }

  area.addEventListener("input", () => { changed(); paint(); });
  area.addEventListener("scroll", sync);
  let width = 0;
  new ResizeObserver(() => { // a new width wraps the lines anew
    if (area.clientWidth !== width) { width = area.clientWidth; fit(); }
  }).observe(area);

  return {
    exampleLabel: t("Rulesheet example"),
    hint: t("Ctrl+Enter scores"),
    load(table) {
      area.value = (table && typeof table.notation === "string") ? table.notation : "";
      badLines = {};
      area.removeAttribute("aria-invalid");
      paint();
    },
    table: () => (area.value ? {notation: area.value} : null),
    request: () => ({notation: area.value}),
    example() {
      area.value = EXAMPLE;
      badLines = {};
      area.removeAttribute("aria-invalid");
      paint();
    },
    showProblems,
    clearProblems,
    showScore,
  };
}
