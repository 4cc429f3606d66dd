"""Golden playthroughs and perft counts, written by tools/make_campanile_golden.py.

A difference here means the rules' outcome changed. If that was meant, rerun the tool and review the diff of
tests/campanile/data; if not, the engine regressed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.games import campanile
from service.games.core.perft import perft

DATA = Path(__file__).parent / "data"
GOLDEN = sorted((DATA / "golden").glob("*.json"))
PERFT = json.loads((DATA / "perft.json").read_text())
ALL_FEATURES = {"draw_1", "draw_2", "draw_3", "bet", "no_bet", "bet_above_stories", "end_pile_1", "end_pile_2",
                "end_pile_3", "height_tie", "total_tie", "variant_bet"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _deal(golden: dict) -> campanile.State:
    return campanile.new_game(golden["seed"], names=golden["names"],
                              bet_on_played=golden["variant"]["bet_on_played"])


def test_golden_games_cover_the_features_and_every_player_count() -> None:
    games = [_load(path) for path in GOLDEN]
    assert {len(g["names"]) for g in games} == {2, 3, 4, 5}
    assert any(g["variant"]["bet_on_played"] for g in games)
    covered = set().union(*(g["features"] for g in games))
    assert ALL_FEATURES <= covered, ALL_FEATURES - covered


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_all_at_once(path: Path) -> None:
    golden = _load(path)
    outcome = campanile.apply_steps(_deal(golden), golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert campanile.state_json(outcome.state) == golden["final_state"]
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    assert campanile.score(outcome.state).to_json() == golden["score"]
    assert outcome.state.over


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_one_step_at_a_time_through_json(path: Path) -> None:
    golden = _load(path)
    state_doc = campanile.state_json(_deal(golden))
    events: list[dict] = []
    for index, step in enumerate(golden["steps"]):
        state = campanile.read_state(json.loads(json.dumps(state_doc)))
        assert step in campanile.legal_moves(state), (index, step)
        outcome = campanile.apply_steps(state, [step])
        assert outcome.legal, (index, step, outcome.violations)
        for event in outcome.events:
            event["step"] = index
        events.extend(outcome.events)
        state_doc = campanile.state_json(outcome.state)
    assert state_doc == golden["final_state"]
    assert json.loads(json.dumps(events)) == golden["events"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_from_a_referee_s_view(path: Path) -> None:
    """The same game followed from player 0's view, naming each card turned face up, ends with the same towers,
    tokens and score."""
    golden = _load(path)
    full = _deal(golden)
    view = campanile.player_view(full, 0)
    for step in golden["steps"]:
        named = dict(step)
        if step["type"] == "draw" and full.last_play is not None:
            pile = full.piles[full.last_play.stories - 1]
            seen = view.piles[full.last_play.stories - 1]
            if seen.hidden and len(pile.cards) > 1:
                named["reveals"] = pile.cards[1]
        full = campanile.apply_steps(full, [step]).state
        outcome = campanile.apply_steps(view, [named])
        assert outcome.legal, (named, outcome.violations)
        view = outcome.state
    assert campanile.validate_state(campanile.state_json(view))[0] == []
    assert campanile.score(view).to_json() == golden["score"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_final_state_is_valid(path: Path) -> None:
    errors, _ = campanile.validate_state(_load(path)["final_state"])
    assert errors == []


@pytest.mark.parametrize("position", PERFT["positions"], ids=lambda p: p["name"])
def test_perft(position: dict) -> None:
    outcome = campanile.apply_steps(campanile.new_game(position["seed"], players=position["players"]),
                                    position["steps"])
    assert outcome.legal
    got = {depth: perft(campanile, outcome.state, int(depth)) for depth in position["counts"]}
    assert got == position["counts"]
