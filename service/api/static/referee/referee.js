// The referee page: score a Torri table written in notation, through the service's own API.
// No framework, no build step, nothing from another origin.
(function () {
  "use strict";

  var API = "v1/games/torri/"; // relative: works wherever the service is mounted
  var EXAMPLE = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*";
  var STORE = "torri-referee-notation";
  var CATEGORIES = [
    ["completion", "Complete towers", "5 each · T-SCORE-1"],
    ["blessing", "Blessing", "2 per story of plain 7s · T-SCORE-2"],
    ["plain", "Plain towers", "tallest of each rank · T-SCORE-3"],
    ["colorful", "Colorful towers", "towers × stories · T-SCORE-4"],
    ["highest", "Highest marker", "10 · T-SCORE-5"],
    ["monumento", "Monumento", "7 · T-NOB-MON"],
    ["cappella", "Cappella di Santa Fina", "5 per tower of 5+ · T-NOB-SF"]
  ];

  var $ = function (id) { return document.getElementById(id); };
  var area = $("notation"), gutter = $("gutter"), backdrop = $("backdrop");
  var problemsBox = $("problems"), result = $("result"), scoreButton = $("score");
  var badLines = {}; // line number -> column (or 0) of the first problem on it
  var downloadUrl = null;

  function text(tag, content, className) {
    var node = document.createElement(tag);
    if (content !== undefined && content !== null) node.textContent = String(content);
    if (className) node.className = className;
    return node;
  }

  // ------------------------------------------------------------ the editor

  function lines() { return area.value.split("\n"); }

  function paint() {
    var all = lines();
    gutter.replaceChildren();
    backdrop.replaceChildren();
    all.forEach(function (line, index) {
      var number = index + 1;
      var bad = Object.prototype.hasOwnProperty.call(badLines, number);
      var num = text("div", number, bad ? "bad" : "");
      if (bad) num.title = "a problem on this line";
      gutter.appendChild(num);
      var row = text("div", null, bad ? "bad-line" : "");
      var column = badLines[number];
      if (bad && column > 0 && column <= line.length + 1) {
        row.appendChild(document.createTextNode(line.slice(0, column - 1)));
        row.appendChild(text("mark", line.slice(column - 1, column) || " "));
        row.appendChild(document.createTextNode(line.slice(column)));
      } else {
        row.textContent = line || " ";
      }
      backdrop.appendChild(row);
    });
    sync();
  }

  function sync() {
    backdrop.scrollTop = area.scrollTop;
    backdrop.scrollLeft = area.scrollLeft;
    gutter.scrollTop = area.scrollTop;
  }

  function clearProblems() {
    badLines = {};
    area.removeAttribute("aria-invalid");
    problemsBox.hidden = true;
    problemsBox.replaceChildren();
  }

  function select(line, column) {
    var all = lines();
    var start = 0;
    for (var i = 0; i < line - 1 && i < all.length; i++) start += all[i].length + 1;
    var length = (all[line - 1] || "").length;
    var from = column ? start + Math.min(column - 1, length) : start;
    var to = column ? Math.min(from + 1, start + length) : start + length;
    area.focus();
    area.setSelectionRange(from, to);
  }

  // ------------------------------------------------------------ talking to the service

  function post(path, body, accept) {
    return fetch(API + path, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": accept || "application/json"},
      body: JSON.stringify(body)
    });
  }

  function where(message) {
    var match = /^line (\d+)(?:, column (\d+))?: /.exec(message);
    return match ? {line: +match[1], column: match[2] ? +match[2] : 0, rest: message.slice(match[0].length)} : null;
  }

  function showProblems(problem) {
    var errors = (problem && problem.errors) || [];
    badLines = {};
    problemsBox.replaceChildren();
    var heading = problem && problem.status === 422 ? "This table cannot be real" : "This is not notation yet";
    problemsBox.appendChild(text("h3", heading));
    var list = text("ul");
    if (!errors.length) errors = [{message: (problem && problem.detail) || "The service refused the table.", rule: null}];
    errors.forEach(function (error) {
      var item = text("li");
      var at = where(error.message || "");
      if (at) {
        if (!Object.prototype.hasOwnProperty.call(badLines, at.line)) badLines[at.line] = at.column;
        var jump = text("button", "line " + at.line + (at.column ? ", column " + at.column : ""), "where");
        jump.type = "button";
        jump.title = "show it in the text";
        jump.addEventListener("click", function () { select(at.line, at.column); });
        item.appendChild(jump);
        item.appendChild(document.createTextNode(" " + at.rest));
      } else {
        item.appendChild(document.createTextNode(error.message));
      }
      if (error.rule) item.appendChild(text("span", error.rule, "rule"));
      list.appendChild(item);
    });
    problemsBox.appendChild(list);
    problemsBox.hidden = false;
    area.setAttribute("aria-invalid", "true");
    paint();
  }

  function verdict(answer) {
    var players = answer.players;
    var a = players[0], b = players[1];
    if (answer.winner === null || answer.winner === undefined) {
      return "A draw: " + a.total + " to " + b.total + ", and nobody holds the Highest marker to break the tie.";
    }
    var won = players[answer.winner], lost = players[1 - answer.winner];
    if (answer.decided_by === "points") {
      return won.name + " wins on points, " + won.total + " to " + lost.total + ".";
    }
    return won.name + " wins: " + won.total + " to " + lost.total +
      " is a tie, and a tie goes to the holder of the Highest marker (T-SCORE-WIN).";
  }

  function showScore(answer) {
    var players = answer.players;
    var box = $("verdict");
    box.textContent = verdict(answer);
    box.className = "verdict" + (answer.winner === null ? " draw" : "");

    var table = $("breakdown");
    var headRow = text("tr");
    headRow.appendChild(text("th", "Category"));
    players.forEach(function (player, i) {
      var th = text("th", player.name, answer.winner === i ? "winner" : "");
      th.scope = "col";
      headRow.appendChild(th);
    });
    table.tHead.replaceChildren(headRow);

    var body = table.tBodies[0];
    body.replaceChildren();
    CATEGORIES.forEach(function (category) {
      var row = text("tr");
      row.dataset.category = category[0];
      var th = text("th", category[1]);
      th.scope = "row";
      th.appendChild(text("span", category[2], "rule"));
      row.appendChild(th);
      players.forEach(function (player, i) {
        var value = player.categories[category[0]] || 0;
        var cell = text("td", value, (value ? "" : "zero") + (answer.winner === i ? " winner" : ""));
        if (category[0] === "plain" && player.plain_ranks_won.length) {
          cell.appendChild(text("span", " (" + player.plain_ranks_won.join(", ") + ")", "ranks"));
          cell.title = "ranks won: " + player.plain_ranks_won.join(", ");
        }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });

    var total = text("tr");
    total.appendChild(text("th", "Total"));
    players.forEach(function (player, i) {
      var cell = text("td", player.total, "total" + (answer.winner === i ? " winner" : ""));
      total.appendChild(cell);
    });
    table.tFoot.replaceChildren(total);

    var warnings = $("warnings");
    warnings.replaceChildren();
    (answer.warnings || []).forEach(function (warning) {
      warnings.appendChild(text("li", warning.message + (warning.rule ? " (" + warning.rule + ")" : "")));
    });
    warnings.hidden = !(answer.warnings || []).length;
    result.hidden = false;
  }

  function showPicture(svgText) {
    var holder = $("picture");
    var doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    var svg = doc.documentElement;
    holder.replaceChildren();
    if (svg && svg.nodeName.toLowerCase() === "svg") holder.appendChild(document.importNode(svg, true));
    var link = $("download");
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(new Blob([svgText], {type: "image/svg+xml"}));
    link.href = downloadUrl;
    link.hidden = false;
  }

  function score() {
    var notation = area.value;
    clearProblems();
    paint();
    scoreButton.disabled = true;
    scoreButton.textContent = "Scoring…";
    post("score", {notation: notation})
      .then(function (response) {
        return response.json().then(function (body) { return {ok: response.ok, body: body}; });
      })
      .then(function (answer) {
        if (!answer.ok) {
          result.hidden = true;
          showProblems(answer.body);
          return null;
        }
        showScore(answer.body);
        return post("picture", {notation: notation}, "image/svg+xml").then(function (response) {
          return response.ok ? response.text().then(showPicture) : null;
        });
      })
      .catch(function () {
        showProblems({errors: [{message: "Could not reach the referee service. Is it running?", rule: null}]});
      })
      .then(function () {
        scoreButton.disabled = false;
        scoreButton.textContent = "Score";
      });
  }

  // ------------------------------------------------------------ wiring

  area.addEventListener("input", function () {
    if (Object.keys(badLines).length) clearProblems();
    paint();
    try { localStorage.setItem(STORE, area.value); } catch (e) { /* private mode */ }
  });
  area.addEventListener("scroll", sync);
  area.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      score();
    }
  });
  scoreButton.addEventListener("click", score);
  $("example").addEventListener("click", function () {
    area.value = EXAMPLE;
    clearProblems();
    paint();
    area.focus();
  });
  $("clear").addEventListener("click", function () {
    area.value = "";
    clearProblems();
    paint();
    result.hidden = true;
    area.focus();
  });

  try {
    var saved = localStorage.getItem(STORE);
    if (saved) area.value = saved;
  } catch (e) { /* private mode */ }
  paint();
  document.documentElement.dataset.ready = "true";
})();
