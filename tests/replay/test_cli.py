"""`python -m service replay [--game GAME] FILE|-` for every game and variant, run as a user runs it: a seeded whole
game is told step by step in the events' words, and a game with one illegal step inserted stops there with the rule,
its text and the service's sentence, exiting 1."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.games.registry import GAMES

from .records import NAMES, disputed, whole_game

ROOT = Path(__file__).resolve().parents[2]
CASES = [("torri", {}, 2), ("torri", {"nobles": True}, 2), ("campanile", {}, 3),
         ("campanile", {"bet_on_played": True}, 5), ("sangimignano", {}, 3),
         ("sangimignano", {"large_groups": True}, 4), ("carcassonne", {}, 2), ("carcassonne", {"tower": True}, 4)]
RULES = {"torri": "T-TURN-2", "campanile": "C-TURN-DRAW", "sangimignano": "S-TURN-1", "carcassonne": "K-SVC-STEP"}


def replay(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "service", "replay", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


@pytest.mark.parametrize(("game_id", "variant", "players"), CASES)
def test_a_whole_game_is_told_in_words_to_its_end(game_id, variant, players, tmp_path):
    start, moves = whole_game(game_id, variant, players, seed=7)
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"state": start, "moves": moves}), encoding="utf-8")
    done = replay("--game", game_id, str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{GAMES[game_id].info.title}: {', '.join(NAMES[:players])}; {len(moves)} moves; Ada to act"
    answer = GAMES[game_id].apply({"state": start, "moves": moves})
    told = [line.strip().removeprefix("· ") for line in lines if line.strip().startswith("·")]
    assert told == [event["text"] for event in answer["events"]]  # the words /apply gives, event by event
    assert f"all {len(moves)} moves are legal; the game is over" in lines
    assert "wins" in lines[-1] or "draw" in lines[-1] if game_id == "torri" else lines[-1].startswith("winner: ")


@pytest.mark.parametrize(("game_id", "variant", "players"), CASES)
def test_the_first_illegal_step_is_named_with_its_rule_and_the_rules_text(game_id, variant, players):
    case = disputed(game_id, variant, players)
    assert case.rule.startswith(RULES[game_id][:2])
    done = replay("-", stdin=json.dumps(case.record))  # the game is the state's own
    assert done.returncode == 1
    number = case.failed_at + 1
    assert f"{number}. " in done.stdout and done.stdout.rstrip().endswith("✗ illegal")
    assert f"{number + 1}. " not in done.stdout
    assert f"<stdin>: move {number} (/moves/{case.failed_at}) is illegal; the game first goes wrong here:" \
        in done.stderr
    violation = GAMES[game_id].apply(case.record)["violations"][0]
    assert f"[{case.rule}] {violation['pointer']}: {violation['message']}" in done.stderr
    text = next(rule["text"] for rule in GAMES[game_id].rules() if rule["id"] == case.rule)
    assert " ".join(text.split()[:6]) in " ".join(done.stderr.split())  # the rule's own words, wrapped


def test_the_rules_expected_for_the_seeded_disputes():
    assert {game: disputed(game, variant, players).rule for game, variant, players in CASES[::2]} == RULES


def test_a_game_not_served_or_not_the_states_is_refused(tmp_path):
    start, moves = whole_game("campanile", {}, 2, seed=7)
    record = json.dumps({"state": start, "moves": moves[:3]})
    done = replay("--game", "carcassonne", "-", stdin=record)
    assert done.returncode == 1 and "the state is of campanile, not carcassonne" in done.stderr
    done = replay("--game", "chess", "-", stdin=record)
    assert done.returncode == 1 and 'no game "chess" is served' in done.stderr
