// Torri's editor on the referee page: a finished table typed in notation, one line per player, with line numbers
// and the problems the service finds marked on their line and column. Scored through /score {"notation"}.

const EXAMPLE = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*";
const CATEGORIES = [
  ["completion", "Complete towers", "5 each · T-SCORE-1"],
  ["blessing", "Blessing", "2 per story of plain 7s · T-SCORE-2"],
  ["plain", "Plain towers", "tallest of each rank · T-SCORE-3"],
  ["colorful", "Colorful towers", "towers × stories · T-SCORE-4"],
  ["highest", "Highest marker", "10 · T-SCORE-5"],
  ["monumento", "Monumento", "7 · T-NOB-MON"],
  ["cappella", "Cappella di Santa Fina", "5 per tower of 5+ · T-NOB-SF"],
];
const SYNTAX = [
  ["One line per player: ", ["Name @: towers | nobles"], " — ", ["@"], " marks the holder of the Highest marker."],
  [["8x3"], " a plain tower: rank 8, 3 stories."],
  [["10-6"], " a colorful tower from its bottom rank 10 down to its top rank 6."],
  [["[10 10 BP 10]"], " an explicit stack, bottom first; ", ["BP"], " is a Buona Pietra (", ["BP9"],
   ": one standing for 9)."],
  [["*"], " after a tower: complete, e.g. ", ["9x3*"], "."],
  ["After ", ["|"], ", the nobles played: ", ["+MON"], " Monumento, ", ["+SF"], " Cappella di Santa Fina, ",
   ["+MU"], " Mura, ", ["+PC"], " Palazzo, ", ["+VF"], " Via Francigena, ", ["+GI"], " Giostra."],
];

export function create({root, el, changed}) {
  const gutter = el("div", {class: "gutter", id: "gutter", "aria-hidden": "true"});
  const backdrop = el("div", {class: "backdrop", id: "backdrop", "aria-hidden": "true"});
  const area = el("textarea", {
    id: "notation", name: "notation", rows: "6", wrap: "off", spellcheck: "false", autocomplete: "off",
    autocapitalize: "off", "aria-label": "The table in notation, one line per player", "aria-describedby": "syntax",
    placeholder: "Adso @: 10x3* 9x3* 8x3 6x3* 10-6 | +MON\nWilliam: 7x3* 9-5* 10-8* 7-5*",
  });
  root.append(
    el("div", {class: "notation-editor"}, [gutter, el("div", {class: "field"}, [backdrop, area])]),
    el("details", {class: "syntax", id: "syntax", open: true}, [
      el("summary", {text: "How to write a table"}),
      el("ul", {}, SYNTAX.map((parts) => el("li", {}, parts.map((part) =>
        Array.isArray(part) ? el("code", {text: part[0]}) : part)))),
    ]),
  );
  let badLines = {}; // line number -> column (or 0) of the first problem on it

  const lines = () => area.value.split("\n");

  function sync() {
    backdrop.scrollTop = area.scrollTop;
    backdrop.scrollLeft = area.scrollLeft;
    gutter.scrollTop = area.scrollTop;
  }

  function paint() {
    gutter.replaceChildren();
    backdrop.replaceChildren();
    lines().forEach((line, index) => {
      const number = index + 1;
      const bad = Object.prototype.hasOwnProperty.call(badLines, number);
      gutter.appendChild(el("div", {class: bad ? "bad" : "", text: number, title: bad ? "a problem on this line" : null}));
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
    sync();
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

  function where(message) {
    const match = /^line (\d+)(?:, column (\d+))?: /.exec(message);
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
    if (!errors.length) errors = [{message: (problem && problem.detail) || "The service refused the table.", rule: null}];
    badLines = {};
    box.appendChild(el("h3", {text: problem && problem.status === 422 ? "This table cannot be real"
                                                                       : "This is not notation yet"}));
    box.appendChild(el("ul", {}, errors.map((error) => {
      const at = where(error.message || "");
      const item = el("li");
      if (at) {
        if (!Object.prototype.hasOwnProperty.call(badLines, at.line)) badLines[at.line] = at.column;
        item.append(el("button", {
          type: "button", class: "where", title: "show it in the text",
          text: "line " + at.line + (at.column ? ", column " + at.column : ""),
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
      return "A draw: " + a.total + " to " + b.total + ", and nobody holds the Highest marker to break the tie.";
    }
    const won = answer.players[answer.winner], lost = answer.players[1 - answer.winner];
    if (answer.decided_by === "points") return won.name + " wins on points, " + won.total + " to " + lost.total + ".";
    return won.name + " wins: " + won.total + " to " + lost.total +
      " is a tie, and a tie goes to the holder of the Highest marker (T-SCORE-WIN).";
  }

  function showScore(answer, into) {
    const players = answer.players;
    const isWinner = (i) => answer.winner === i;
    const head = el("tr", {}, [el("th", {text: "Category", scope: "col"}), ...players.map((player, i) =>
      el("th", {text: player.name, scope: "col", class: isWinner(i) ? "winner" : ""}))]);
    const rows = CATEGORIES.map(([key, label, rule]) => el("tr", {dataset: {category: key}}, [
      el("th", {scope: "row"}, [label, el("span", {class: "rule", text: rule})]),
      ...players.map((player, i) => {
        const value = player.categories[key] || 0;
        const cell = el("td", {text: value, class: (value ? "" : "zero") + (isWinner(i) ? " winner" : "")});
        if (key === "plain" && player.plain_ranks_won.length) {
          cell.appendChild(el("span", {class: "ranks", text: " (" + player.plain_ranks_won.join(", ") + ")"}));
          cell.title = "ranks won: " + player.plain_ranks_won.join(", ");
        }
        return cell;
      }),
    ]));
    const total = el("tr", {}, [el("th", {text: "Total", scope: "row"}), ...players.map((player, i) =>
      el("td", {text: player.total, class: "total" + (isWinner(i) ? " winner" : "")}))]);
    into.appendChild(el("table", {class: "breakdown", id: "breakdown"}, [
      el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, total),
    ]));
    return verdict(answer);
  }

  area.addEventListener("input", () => { changed(); paint(); });
  area.addEventListener("scroll", sync);

  return {
    exampleLabel: "Rulesheet example",
    hint: "Ctrl+Enter scores",
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
      paint();
      area.focus();
    },
    showProblems,
    clearProblems,
    showScore,
  };
}
