"""San Gimignano's recorded games followed from a referee's view (the replays, perft counts and feature coverage of
every game's recorded games are tests/test_golden.py's)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.games import sangimignano as sg
from tests.golden import deal, load, recorded_games

GOLDEN = recorded_games("sangimignano")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_from_a_referee_s_view(path: Path) -> None:
    """The same game followed from player 0's view, the other hands unknown (each hexagon laid named by its step),
    gives the same events, board and score (S-SVC-UNKNOWN)."""
    golden = load(path)
    view = sg.player_view(deal("sangimignano", golden), 0)
    assert all(p.hidden for p in view.players[1:])
    outcome = sg.apply_steps(view, golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    final = sg.state_json(outcome.state)
    assert final["board"] == golden["final_state"]["board"] and final["phase"] == "over"
    assert sg.score(outcome.state).to_json() == golden["score"]
    assert sg.validate_state(final)[0] == []
