"""Campanile's recorded games followed from a referee's view (the replays, perft counts and feature coverage of
every game's recorded games are tests/test_golden.py's)."""
from __future__ import annotations

from pathlib import Path

import pytest

from service.games import campanile
from tests.golden import deal, load, recorded_games

GOLDEN = recorded_games("campanile")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay_from_a_referee_s_view(path: Path) -> None:
    """The same game followed from player 0's view, naming each card turned face up, ends with the same towers,
    tokens and score."""
    golden = load(path)
    full = deal("campanile", golden)
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
