"""Golden playthroughs and perft counts, written by tools/make_carcassonne_golden.py.

A difference here means the rules' outcome changed. If that was meant, rerun the tool and review the diff of
tests/carcassonne/data; if not, the engine regressed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.games import carcassonne
from service.games.core.perft import perft

DATA = Path(__file__).parent / "data"
GOLDEN = sorted((DATA / "golden").glob("*.json"))
PERFT = json.loads((DATA / "perft.json").read_text())
ALL_FEATURES = {"road", "city", "cloister", "shared", "discard", "fields", "floor", "capture", "own_capture",
                "tower_meeple", "top_captured", "exchanged", "ransom"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _deal(golden: dict) -> carcassonne.State:
    return carcassonne.new_game(golden["seed"], names=golden["names"], tower=golden["variant"]["tower"])


def test_golden_games_cover_the_features_and_every_player_count() -> None:
    games = [_load(path) for path in GOLDEN]
    assert {len(g["names"]) for g in games} == {2, 3, 4, 5}
    assert any(g["variant"]["tower"] for g in games)
    covered = set().union(*(g["features"] for g in games))
    assert ALL_FEATURES <= covered, ALL_FEATURES - covered


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_all_at_once(path: Path) -> None:
    golden = _load(path)
    outcome = carcassonne.apply_steps(_deal(golden), golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert carcassonne.state_json(outcome.state) == golden["final_state"]
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    assert carcassonne.score(outcome.state).to_json() == golden["score"]
    assert outcome.state.over


@pytest.mark.parametrize("path", GOLDEN[:2], ids=lambda p: p.stem)
def test_golden_replay_one_step_at_a_time_through_json(path: Path) -> None:
    golden = _load(path)
    state_doc = carcassonne.state_json(_deal(golden))
    for index, step in enumerate(golden["steps"]):
        state = carcassonne.read_state(json.loads(json.dumps(state_doc)))
        assert step in carcassonne.legal_moves(state), (index, step)
        outcome = carcassonne.apply_steps(state, [step])
        assert outcome.legal, (index, step, outcome.violations)
        state_doc = carcassonne.state_json(outcome.state)
    assert state_doc == golden["final_state"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_final_state_is_valid(path: Path) -> None:
    errors, _ = carcassonne.validate_state(_load(path)["final_state"])
    assert errors == []


@pytest.mark.parametrize("position", PERFT["positions"], ids=lambda p: p["name"])
def test_perft(position: dict) -> None:
    start = carcassonne.new_game(position["seed"], players=position["players"], tower=position["tower"])
    outcome = carcassonne.apply_steps(start, position["steps"])
    assert outcome.legal
    got = {depth: perft(carcassonne, outcome.state, int(depth)) for depth in position["counts"]}
    assert got == position["counts"]
