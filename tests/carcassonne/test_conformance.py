"""Carcassonne's own conformance tests beside the registry-wide random games (tests/test_games_conform.py, which
plays seeded random games for 2 to 5 players, with and without The Tower, with the knowledge of
tests/carcassonne/conformance.py): a referee following a game from a view with a counted bag, the feature kinds the
random games reach, and the harness's checks with Carcassonne's knowledge biting on broken states."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from service.games import carcassonne
from service.games.carcassonne import Kind
from tests.conformance import Checker, ConformanceError

from .conformance import SUBJECTS, liked
from .playouts import choose


# The Tower's game with every view position checked (its bag holds the base game's tiles and the tower tiles);
# the base game's followed only (checking its view positions too would cost another two seconds and a half).
@pytest.mark.parametrize(("seed", "tower", "check"), [(0, False, False), (1, True, True)])
def test_a_referee_s_view_with_a_counted_bag_follows_the_game(seed, tower, check):
    """The same game followed with the bag as a count, naming each tile drawn: every step is listed in the view,
    the view stays the game's view at every step, the score comes out the same, and (`check`) every view position
    passes the harness's checks (conservation with the bag's tiles as unknown slots, the placements of every tile
    the bag may hold listed and accepted, near misses refused)."""
    checker = Checker(SUBJECTS[3, tower], random_candidates=2, near_miss_candidates=2)
    full, view = checker.follow(seed, liked, viewer=0, check=check)
    assert full.over and view.over
    assert carcassonne.score(view).to_json() == carcassonne.score(full).to_json()


def test_a_feature_kind_for_every_meeple_is_reached():
    kinds: Counter = Counter()
    for seed in range(2):
        state = carcassonne.new_game(seed, players=2)
        rng = random.Random(seed)
        while not state.over:
            state, _ = carcassonne.apply_step(state, choose(rng, carcassonne.legal_steps(state)))
            for m in state.meeples:
                kinds[state.index.faces[state.index.grid[m.at]].by_name[m.feature].kind] += 1
    assert {Kind.ROAD, Kind.CITY, Kind.FIELD, Kind.CLOISTER} <= set(kinds)


def test_the_checks_catch_a_lost_piece_and_the_prisoner_rules():
    """The checks the random games rely on do bite: a meeple or a floor gone (K-COMP-3, K-TOW-TILE-1), a player
    holding their own meeple, two players holding each other's (K-TOW-SWAP)."""
    subject = SUBJECTS[2, True]
    checker = Checker(subject)
    checker.where = (0, "by hand", [])
    state = subject.new_game(0)
    first, second = state.players
    checker.check_conservation(state, full=True)
    checker.check_invariants(state)
    for lost in (replace(first, supply=first.supply - 1), replace(first, floors=first.floors - 1)):
        with pytest.raises(ConformanceError, match="not conserved"):
            checker.check_conservation(replace(state, players=(lost, second)), full=True)
    own = replace(state, players=(replace(first, supply=first.supply - 1, prisoners=(0,)), second))
    swapped = replace(state, players=(replace(first, supply=first.supply - 1, prisoners=(1,)),
                                      replace(second, supply=second.supply - 1, prisoners=(0,))))
    for broken, problem in ((own, "their own meeple"), (swapped, "K-TOW-SWAP")):
        checker.check_conservation(broken, full=True)
        with pytest.raises(ConformanceError, match=problem):
            checker.check_invariants(broken)
