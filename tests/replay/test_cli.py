"""`python -m service replay [--game GAME] FILE|-` for every game and variant, run as a user runs it: a seeded whole
game is told step by step in the events' words, and a game with one illegal step inserted stops there with the rule,
its text and the service's sentence, exiting 1. The rule each game's seeded dispute breaks is the game's to say, in
`DISPUTED_RULE` of tests/<game>/replay.py: a registered game without it fails here."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.games.registry import GAMES

from .records import NAMES, cases, disputed, whole_game

ROOT = Path(__file__).resolve().parents[2]

CASES = cases()
BASE = [case for case in CASES if not case[1]]  # each game's base game, once


def disputed_rule(game_id: str) -> str:
    return importlib.import_module(f"tests.{game_id}.replay").DISPUTED_RULE


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
    game = GAMES[game_id]
    first = NAMES[game.to_act(game.load_state(start).checked())]
    assert lines[0] == f"{game.info.title}: {', '.join(NAMES[:players])}; {len(moves)} moves; {first} to act"
    answer = game.apply({"state": start, "moves": moves})
    told = [line.strip().removeprefix("· ") for line in lines if line.strip().startswith("·")]
    assert told == [event["text"] for event in answer["events"]]  # the words /apply gives, event by event
    assert f"all {len(moves)} moves are legal; the game is over" in lines
    assert "win" in lines[-1] or "draw" in lines[-1]  # the score's last word: who won, or a draw


@pytest.mark.parametrize(("game_id", "variant", "players"), CASES)
def test_the_first_illegal_step_is_named_with_its_rule_and_the_rules_text(game_id, variant, players):
    case = disputed(game_id, variant, players)
    assert case.rule in {rule["id"] for rule in GAMES[game_id].rules()}  # a rule of the game's catalogue
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


@pytest.mark.parametrize(("game_id", "variant", "players"), BASE)
def test_the_rule_expected_for_the_seeded_dispute(game_id, variant, players):
    assert disputed(game_id, variant, players).rule == disputed_rule(game_id)


def test_a_game_not_served_or_not_the_states_is_refused(tmp_path):
    start, moves = whole_game("campanile", {}, 2, seed=7)
    record = json.dumps({"state": start, "moves": moves[:3]})
    done = replay("--game", "carcassonne", "-", stdin=record)
    assert done.returncode == 1 and "the state is of campanile, not carcassonne" in done.stderr
    done = replay("--game", "chess", "-", stdin=record)
    assert done.returncode == 1 and 'no game "chess" is served' in done.stderr
