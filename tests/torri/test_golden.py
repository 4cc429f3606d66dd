"""Golden playthroughs and perft counts (base game), written by tools/make_torri_golden.py.

A difference here means the rules' outcome changed. If that was meant, rerun the tool and review the diff of
tests/torri/data; if not, the engine regressed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.games import torri
from service.games.core.perft import perft

DATA = Path(__file__).parent / "data"
GOLDEN = sorted((DATA / "golden").glob("*.json"))
PERFT = json.loads((DATA / "perft.json").read_text())
ALL_FEATURES = {"purchase", "exchange", "income", "trade_guarded", "trade_unguarded", "conspiracy_target",
                "conspiracy_guarded", "conspiracy_destroyed", "extend", "complete", "close", "ending_by_close",
                "ending_by_deck", "marker", "game_over"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_golden_games_cover_the_features() -> None:
    assert len(GOLDEN) >= 5
    covered = set().union(*(_load(path)["features"] for path in GOLDEN))
    assert ALL_FEATURES <= covered, ALL_FEATURES - covered


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_all_at_once(path: Path) -> None:
    golden = _load(path)
    outcome = torri.apply_steps(torri.new_game(golden["seed"], nobles=golden["variant"]["nobles"]), golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert torri.state_json(outcome.state) == golden["final_state"]
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    assert torri.score(outcome.state).to_json() == golden["score"]
    assert outcome.state.phase == torri.OVER


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_one_step_at_a_time(path: Path) -> None:
    """api.md: an action sent one step at a time, the state going through JSON between calls, ends the same."""
    golden = _load(path)
    state_doc = torri.state_json(torri.new_game(golden["seed"], nobles=golden["variant"]["nobles"]))
    events: list[dict] = []
    for index, step in enumerate(golden["steps"]):
        state = torri.read_state(json.loads(json.dumps(state_doc)))
        assert step in torri.legal_moves(state), (index, step)
        outcome = torri.apply_steps(state, [step])
        assert outcome.legal, (index, step, outcome.violations)
        for event in outcome.events:
            event["step"] = index
        events.extend(outcome.events)
        state_doc = torri.state_json(outcome.state)
    assert state_doc == golden["final_state"]
    assert json.loads(json.dumps(events)) == golden["events"]
    assert torri.score(torri.read_state(state_doc)).to_json() == golden["score"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_final_state_is_valid(path: Path) -> None:
    errors, _ = torri.validate_state(_load(path)["final_state"])
    assert errors == []


@pytest.mark.parametrize("position", PERFT["positions"], ids=lambda p: p["name"])
def test_perft(position: dict) -> None:
    outcome = torri.apply_steps(torri.new_game(position["seed"]), position["steps"])
    assert outcome.legal
    got = {depth: perft(torri, outcome.state, int(depth)) for depth in position["counts"]}
    assert got == position["counts"]
