"""`python -m service score FILE|-` and `python -m service replay FILE|-`, run as a user runs them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from service.games import torri

from .helpers import RULESHEET

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "service", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


def test_score_the_rulesheet_from_stdin():
    done = run("score", "-", stdin=RULESHEET)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["Adso", "William"]
    rows = {line[:15].strip(): line[15:].split() for line in lines[1:] if line.strip()}
    assert rows["completion"] == ["15", "20"]
    assert rows["blessing"] == ["0", "6"]
    assert rows["plain"] == ["33", "7"]
    assert rows["colorful"] == ["5", "33"]
    assert rows["highest"] == ["10", "0"]
    assert rows["total"] == ["63", "66"]
    assert "plain ranks won  6 8 9 10" in done.stdout
    assert "William wins on points, 66 to 63." in done.stdout
    assert "warning" not in done.stdout
    assert done.stderr == ""


def test_score_a_file_with_warnings(tmp_path):
    path = tmp_path / "table.txt"
    path.write_text("Adso @: 10x3 !\nWilliam: 9-5\n", encoding="utf-8")
    done = run("score", str(path))
    assert done.returncode == 0, done.stderr
    assert "Adso wins on points, 20 to 5." in done.stdout
    assert "warning: line 1, column 14: ignored a stray '!'." in done.stdout
    assert "warning: line 1, column 6: Adso holds the marker, but the marker's holder has no tower as tall" \
           in done.stdout


def test_a_tie_broken_by_the_marker_and_a_draw():
    tie = run("score", "-", stdin="Adso @: 6x3\nWilliam: 6x3 10x3\n")  # 6 + 10 (marker) = 16; 6 + 10 = 16
    assert tie.returncode == 0
    assert "Adso wins: 16 to 16 is a tie, and a tie goes to the holder of the Highest marker (T-SCORE-WIN)." \
           in tie.stdout
    draw = run("score", "-", stdin="Adso:\nWilliam:\n")
    assert draw.returncode == 0
    assert "A draw: 0 to 0, and nobody holds the Highest marker to break the tie." in draw.stdout


def test_score_a_parse_error_shows_the_line_and_column():
    done = run("score", "-", stdin="Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 83 7-5*\n")
    assert done.returncode == 1
    assert done.stdout == ""
    err = done.stderr.splitlines()
    assert err[0] == ("<stdin>: error: line 2, column 20: expected a tower like 8x3, 10-6 or [9 9 BP]; did you "
                      "mean 8x3?")
    assert err[1] == "    2 | William: 7x3* 9-5* 83 7-5*"
    assert err[2] == "      |                    ^"


def test_score_an_impossible_table_names_the_rule_player_and_tower(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("Adso @: 10x3 10x3 10x3 10x3\nWilliam: 9x3\n", encoding="utf-8")
    done = run("score", str(path))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{path}: error [T-COMP-4]: line 1, column 24: Adso's tower 4 (10x3): one 10 too "
                                  "many: the table shows 12 and the game has 10.")


def test_score_json_and_picture(tmp_path):
    picture = tmp_path / "table.svg"
    done = run("score", "-", "--json", "--picture", str(picture), stdin=RULESHEET)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert [p["total"] for p in answer["players"]] == [63, 66]
    assert answer["winner"] == 1 and answer["decided_by"] == "points" and answer["warnings"] == []
    assert picture.read_text(encoding="utf-8").startswith("<svg")


def test_score_a_missing_file():
    done = run("score", "/nonexistent/table.txt")
    assert done.returncode == 1
    assert "No such file" in done.stderr


# ---------------------------------------------------------------- replay

def _log(moves: list, seed: int = 42) -> str:
    state = torri.new_game(seed, names=("Adso", "William"))
    return json.dumps({"state": torri.state_json(state), "moves": moves})


def test_replay_prints_each_step():
    done = run("replay", "-", stdin=_log([{"type": "purchase"}, {"type": "draw", "from": "deck"},
                                          {"type": "draw", "from": "deck"}, {"type": "pass"}]))
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "Le Torri di San Gimignano: Adso, William; 4 moves; Adso to act"
    assert out[1] == "1. Adso: purchase"
    assert out[2] == "   · Adso made a Purchase: 2 cards to draw."
    assert "   · Adso drew a 6 from the deck." in out
    assert "4. William: pass" in out
    assert out[-1] == "all 4 moves are legal; Adso to act"


def test_replay_stops_where_the_game_first_goes_wrong(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(_log([{"type": "purchase"}, {"type": "draw", "from": "deck"}, {"type": "draw", "from": "deck"},
                          {"type": "pass"}, {"type": "build", "cards": ["6", "7", "8"]}, {"type": "pass"}]))
    done = run("replay", str(path), "--score")
    assert done.returncode == 1
    assert "5. Adso: build cards [6 7 8]  ✗ illegal" in done.stdout
    assert "6." not in done.stdout
    assert f"{path}: move 5 (/moves/4) is illegal; the game first goes wrong here:" in done.stderr
    assert "[T-ACT-BUILD-3] /moves/4/cards: 6-7-8 is not colorful" in done.stderr
    assert "  T-ACT-BUILD-3" in done.stderr and "stories descend one rank at a time" in done.stderr  # the rule's text


def test_replay_to_the_end_prints_the_score():
    done = run("replay", "-", "--score", stdin=_log([{"type": "pass"}, {"type": "pass"}]))
    assert done.returncode == 0, done.stderr
    assert "   · Both players passed in a row: the game is over." in done.stdout
    assert "all 2 moves are legal; the game is over" in done.stdout
    assert "A draw: 0 to 0" in done.stdout


def test_replay_bad_logs():
    assert run("replay", "-", stdin="{").returncode == 1
    assert "error: not JSON" in run("replay", "-", stdin="{").stderr
    done = run("replay", "-", stdin='{"moves": []}')
    assert done.returncode == 1 and 'a game log is an object {"state": …, "moves": […]}' in done.stderr
    bad_state = json.loads(_log([]))
    bad_state["state"]["players"][0]["hand"].append("5")
    done = run("replay", "-", stdin=json.dumps(bad_state))
    assert done.returncode == 1 and "error [T-COMP-4]: /state/players/0/hand" in done.stderr
    done = run("replay", "-", stdin=_log([{"type": "dra"}]))
    assert done.returncode == 1 and 'error: /moves/0/type: Must be one of purchase, exchange' in done.stderr


def test_serve_and_openapi_are_still_there():
    done = run("--help")
    assert done.returncode == 0
    for command in ("serve", "openapi", "score", "replay"):
        assert command in done.stdout
