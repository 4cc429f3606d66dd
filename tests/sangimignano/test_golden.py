"""Golden playthroughs and perft counts, written by tools/make_sangimignano_golden.py.

A difference here means the rules' outcome changed. If that was meant, rerun the tool and review the diff of
tests/sangimignano/data; if not, the engine regressed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.games import sangimignano as sg
from service.games.core.perft import perft

DATA = Path(__file__).parent / "data"
GOLDEN = sorted((DATA / "golden").glob("*.json"))
PERFT = json.loads((DATA / "perft.json").read_text())
ALL_FEATURES = {"token", "second_token_same_player", "hex", "build", "declined", "returned_other_token",
                "skipped_no_token", "skipped_no_hexagon", "skipped_no_group", "end_stuck", "end_tenth_tower",
                "decided_by_towers", "decided_by_tokens_or_shared", "variant_large_group"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _deal(golden: dict) -> sg.State:
    return sg.new_game(golden["seed"], names=golden["names"], large_groups=golden["variant"]["large_groups"])


def test_golden_games_cover_the_features_and_every_player_count() -> None:
    games = [_load(path) for path in GOLDEN]
    assert {len(g["names"]) for g in games} == {2, 3, 4}
    assert any(g["variant"]["large_groups"] for g in games)
    covered = set().union(*(g["features"] for g in games))
    assert ALL_FEATURES <= covered, ALL_FEATURES - covered


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_all_at_once(path: Path) -> None:
    golden = _load(path)
    outcome = sg.apply_steps(_deal(golden), golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert sg.state_json(outcome.state) == golden["final_state"]
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    assert sg.score(outcome.state).to_json() == golden["score"]
    assert outcome.state.over


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_one_step_at_a_time_through_json(path: Path) -> None:
    golden = _load(path)
    state_doc = sg.state_json(_deal(golden))
    for index, step in enumerate(golden["steps"]):
        state = sg.read_state(json.loads(json.dumps(state_doc)))
        assert step in sg.legal_moves(state), (index, step)
        outcome = sg.apply_steps(state, [step])
        assert outcome.legal, (index, step, outcome.violations)
        state_doc = sg.state_json(outcome.state)
    assert state_doc == golden["final_state"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_from_a_referee_s_view(path: Path) -> None:
    """The same game followed from player 0's view, the other hands unknown (each hexagon laid named by its step),
    gives the same events, board and score (S-SVC-UNKNOWN)."""
    golden = _load(path)
    view = sg.player_view(_deal(golden), 0)
    assert all(p.hidden for p in view.players[1:])
    outcome = sg.apply_steps(view, golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    final = sg.state_json(outcome.state)
    assert final["board"] == golden["final_state"]["board"] and final["phase"] == "over"
    assert sg.score(outcome.state).to_json() == golden["score"]
    assert sg.validate_state(final)[0] == []


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_final_state_is_valid(path: Path) -> None:
    errors, _ = sg.validate_state(_load(path)["final_state"])
    assert errors == []


@pytest.mark.parametrize("position", PERFT["positions"], ids=lambda p: p["name"])
def test_perft(position: dict) -> None:
    deal = sg.new_game(position["seed"], players=position["players"], large_groups=position["large_groups"])
    outcome = sg.apply_steps(deal, position["steps"])
    assert outcome.legal
    got = {depth: perft(sg, outcome.state, int(depth)) for depth in position["counts"]}
    assert got == position["counts"]
