"""The shortcuts of a board's Layout and of the possible-group search against their plain definitions: the S-HEX-3
flag a layout sets while it is made, the frontier it works out on first use, and the quartet search cut short by a
token budget (S-BUILD-1, S-SVC-STUCK)."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import (
    SIDES,
    Placed,
    canonical_turn,
    distinct_quartets,
    layout,
    neighbour,
    on_table,
    quartet_within,
    space_set,
)

from .helpers import lengths, players, playout, seeds


def _turned_at_random(board: tuple[Placed, ...], rng: random.Random) -> tuple[Placed, ...]:
    """The same hexagons at the same places, each turned any way: guilds may meet themselves (S-HEX-3)."""
    return tuple(Placed(p.at, *canonical_turn(rng.randrange(SIDES), p.guilds)) for p in board)


@settings(max_examples=40, deadline=None)
@given(n=players, seed=seeds, steps=lengths)
def test_the_layout_flags_a_guild_meeting_itself_exactly_when_a_space_touches_its_own_guild(n, seed, steps):
    board = playout(n, seed, steps).board
    for candidate in (board, _turned_at_random(board, random.Random(seed))):
        lay = layout(candidate)
        meets = any(near & lay.showing[bit] for near, bit in zip(lay.reach, lay.bit))
        assert lay.guild_meets_itself == meets


@settings(max_examples=40, deadline=None)
@given(n=players, seed=seeds, steps=lengths)
def test_the_frontier_made_on_first_use_is_every_free_place_touching_two_hexagons(n, seed, steps):
    lay = layout(playout(n, seed, steps).board)
    cells = {neighbour(p.at, side) for p in lay.board for side in range(SIDES)} - set(lay.index)
    expected = sorted(at for at in cells if on_table(at) and lay.touching(at) >= 2)
    assert list(lay.frontier) == expected
    for at in expected:  # what each neighbour shows it, side by side (S-HEX-3)
        facing = 0
        for side in range(SIDES):
            other = lay.index.get(neighbour(at, side))
            if other is not None:
                shown = lay.board[other].guild_on_side((side + 3) % SIDES)
                facing |= sg.geometry.GUILD_BIT[shown] << 4 * side
        assert lay.facing[at] == facing


@settings(max_examples=40, deadline=None)
@given(n=players, seed=seeds, steps=lengths, budget=st.integers(min_value=0, max_value=5), data=st.data())
def test_the_quartet_search_within_a_budget_agrees_with_every_quartet_counted(n, seed, steps, budget, data):
    lay = layout(playout(n, seed, steps).board)
    spaces = data.draw(st.lists(st.sampled_from(range(lay.spaces)), max_size=20, unique=True))
    owned = data.draw(st.lists(st.sampled_from(spaces), unique=True)) if spaces else []
    members, mine = space_set(spaces), space_set(owned)
    expected = any((quartet & ~mine).bit_count() <= budget for quartet in distinct_quartets(lay, members))
    assert quartet_within(lay, members, mine, budget) == expected
