"""Properties of the geometry (S-GEO-1..3): adjacency is symmetric; a space has exactly two neighbours in its hexagon
and at most two outside; turning a whole board by 60 degrees changes no legal list and no score; the equivalent
spellings of a hexagon lay it the same way."""
from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import (
    DIRECTIONS,
    KINDS,
    canonical_turn,
    components,
    distinct_quartets,
    group_within,
    neighbour,
    rotate_coord,
    sides_of_space,
    space_on_side,
    space_set,
    spaces_of,
)

from .helpers import lengths, players, playout, rotate_state, rotate_step, seeds


@settings(max_examples=40, deadline=None)
@given(n=players, seed=seeds, steps=lengths)
def test_adjacency_is_symmetric_two_inside_at_most_two_outside(n, seed, steps):
    lay = sg.layout(playout(n, seed, steps).board)
    for s in range(lay.spaces):
        mine = set(lay.neighbours[s])
        assert s not in mine
        assert all(s in lay.neighbours[t] for t in mine)
        inside = {t for t in mine if t // 3 == s // 3}
        assert len(inside) == 2
        assert len(mine - inside) <= 2
        assert all(lay.guild[t] != lay.guild[s] for t in mine)  # S-HEX-3 holds on every board the game makes


@settings(max_examples=40, deadline=None)
@given(n=players, seed=seeds, steps=lengths, turns=st.integers(min_value=1, max_value=5),
       large=st.booleans(), builder=st.booleans())
def test_turning_the_whole_board_changes_no_legal_list_and_no_score(n, seed, steps, turns, large, builder):
    state = playout(n, seed, steps, large=large, builder=builder)
    turned = rotate_state(state, turns)
    assert sorted(rotate_step(s, turns) for s in sg.legal_steps(state)) == sorted(sg.legal_steps(turned))
    assert sg.score(turned) == sg.score(state)
    assert sg.validate_state(sg.state_json(turned))[0] == []
    for p in range(n):
        assert sg.possible_group(turned, p) == sg.possible_group(state, p)
    if not state.over:
        step = sg.legal_steps(state)[0]
        after, events = sg.apply_step(state, step)
        after_turned, events_turned = sg.apply_step(turned, rotate_step(step, turns))
        assert after_turned == rotate_state(after, turns)
        assert [e["type"] for e in events] == [e["type"] for e in events_turned]


def test_the_six_directions_turn_into_each_other():
    for d, direction in enumerate(DIRECTIONS):
        assert rotate_coord(direction) == DIRECTIONS[(d + 1) % 6]
        assert rotate_coord((3, -2), 6) == (3, -2)
        assert neighbour((0, 0), d) == direction


def test_each_space_covers_two_neighbouring_sides_and_every_side_has_one_space():
    for k in range(6):
        covered = [side for i in range(3) for side in sides_of_space(k, i)]
        assert sorted(covered) == list(range(6))
        for i in range(3):
            assert all(space_on_side(k, side) == i for side in sides_of_space(k, i))


@given(k=st.integers(min_value=0, max_value=5), kind=st.sampled_from(KINDS))
def test_equivalent_spellings_lay_the_same_guild_on_every_side(k, kind):
    turned, guilds = canonical_turn(k, kind)
    assert turned in (0, 1)
    for side in range(6):
        assert kind[space_on_side(k, side)] == guilds[space_on_side(turned, side)]
    for shift in range(3):
        written = kind[shift:] + kind[:shift]
        step = sg.hex_step(written, (0, 0), (k + 2 * shift) % 6)
        assert step == sg.hex_step(kind, (0, 0), k)


@settings(max_examples=25, deadline=None)
@given(n=players, seed=seeds, steps=lengths)
def test_quartets_are_connected_and_of_four_guilds(n, seed, steps):
    state = playout(n, seed, steps)
    lay = sg.layout(state.board)
    for player in range(n):
        own = sg.engine.own_spaces(state, player)
        for found in distinct_quartets(lay, space_set(own)):
            quartet = spaces_of(found)
            assert len(quartet) == 4 and len(components(lay, quartet)) == 1
            assert {lay.guild[s] for s in quartet} == set(sg.GUILDS)


@settings(max_examples=25, deadline=None)
@given(n=players, seed=seeds, steps=lengths, data=st.data())
def test_quartets_are_every_connected_four_of_four_guilds_once(n, seed, steps, data):
    """The quartet search (S-BUILD-1) against plain enumeration of four-space subsets, among any spaces."""
    lay = sg.layout(playout(n, seed, steps).board)
    members = data.draw(st.lists(st.sampled_from(range(lay.spaces)), max_size=14, unique=True))
    found = [spaces_of(quartet) for quartet in distinct_quartets(lay, space_set(members))]
    expected = [list(subset) for subset in combinations(sorted(members), 4)
                if len({lay.guild[s] for s in subset}) == 4 and len(components(lay, subset)) == 1]
    assert sorted(found) == expected


def _brute_force_within(lay, weight: dict[int, int], large: bool, budget: int) -> bool:
    """Every connected set of the weighted spaces, by brute force (small groups only)."""
    for group in components(lay, weight):
        sizes = range(4, len(group) + 1) if large else (4,)
        for size in sizes:
            for subset in combinations(group, size):
                guilds = [lay.guild[s] for s in subset]
                if set(guilds) != set(sg.GUILDS) or (not large and len(set(guilds)) != len(guilds)):
                    continue
                if len(components(lay, subset)) == 1 and sum(weight[s] for s in subset) <= budget:
                    return True
    return False


@settings(max_examples=40, deadline=None)
@given(n=players, seed=seeds, steps=st.integers(min_value=0, max_value=40), large=st.booleans(),
       budget=st.integers(min_value=0, max_value=6), data=st.data())
def test_possible_groups_agree_with_brute_force(n, seed, steps, large, budget, data):
    """The search for possible groups (S-SVC-STUCK: quartets first, then the variant's group Steiner search) against
    plain enumeration."""
    lay = sg.layout(playout(n, seed, steps).board)
    kept = data.draw(st.lists(st.sampled_from(range(lay.spaces)), max_size=11, unique=True))
    weight = {s: data.draw(st.sampled_from((0, 1, 1))) for s in kept}
    spaces, owned = space_set(weight), space_set(s for s in weight if weight[s] == 0)
    assert group_within(lay, spaces, owned, large, budget) == _brute_force_within(lay, weight, large, budget)


@settings(max_examples=15, deadline=None)
@given(n=players, seed=seeds, large=st.booleans())
def test_the_pieces_a_step_works_out_are_those_read_afresh(n, seed, large):
    """A token or a hexagon step tells the engine where the pieces lie afterwards without reading the board again;
    after every step of a whole game that is what reading the board gives."""
    rng = random.Random(seed)
    state = sg.new_game(seed, players=n, large_groups=large)
    while not state.over:
        state = sg.apply_step(state, rng.choice(sg.legal_steps(state)))[0]
        assert sg.engine.pieces(state) == sg.engine.read_pieces(state.tokens, state.towers)


@settings(max_examples=15, deadline=None)
@given(n=players, seed=seeds, large=st.booleans())
def test_the_pieces_a_read_counts_are_those_read_afresh(n, seed, large):
    """Reading a state tells the engine where the pieces lie, counted in the pass that checks them; for every
    position of a whole game that is what reading the board gives."""
    rng = random.Random(seed)
    state = sg.new_game(seed, players=n, large_groups=large)
    while not state.over:
        state = sg.apply_step(state, rng.choice(sg.legal_steps(state)))[0]
        read = sg.read_state(sg.state_json(state))
        assert sg.engine.pieces(read) == sg.engine.read_pieces(read.tokens, read.towers)
