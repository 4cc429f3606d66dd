"""The referee's answers against independent models of the rule book, over random positions.

- S-GEO-3 from a drawing: every guild space is drawn as a rhombus (the hexagon's centre and the corners of the two
  sides S-GEO-2 gives it, in exact axial fractions); two spaces are adjacent when their rhombi share an edge, not
  when they share a corner only.
- S-HEX-1..3 by enumeration: every free cell touching two hexagons, every hexagon of the hand, every turning, each
  side compared with the side it meets.
- S-BUILD-1 and S-VAR-1 by enumeration: every set of four of the player's spaces, every connected group.
- Turning the whole board by 60 degrees and shifting it changes no legal list (turned alike) and no score.
"""
from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, pairwise
from typing import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import DIRECTIONS

from .helpers import playout, rotate_state, rotate_step

players = st.sampled_from((2, 3, 4))
seeds = st.integers(min_value=0, max_value=10_000)
lengths = st.integers(min_value=0, max_value=120)

Point = tuple[Fraction, Fraction]


def _corner(at: tuple[int, int], before: int) -> Point:
    """The corner between side `before` and side `before + 1`: a third of the way to the sum of the two
    neighbours' offsets (the corner lies on the hexagon's circumscribed circle; axial coordinates are linear)."""
    a, b = DIRECTIONS[before % 6], DIRECTIONS[(before + 1) % 6]
    return at[0] + Fraction(a[0] + b[0], 3), at[1] + Fraction(a[1] + b[1], 3)


def rhombus_edges(at: tuple[int, int], rotation: int, space: int) -> set[frozenset[Point]]:
    """S-GEO-2 drawn: space `space` of a hexagon turned `rotation` covers sides k + 2i and k + 2i + 1."""
    first = rotation + 2 * space
    centre: Point = (Fraction(at[0]), Fraction(at[1]))
    corners = [_corner(at, first - 1), _corner(at, first), _corner(at, first + 1)]
    outline = [centre, *corners, centre]
    return {frozenset(pair) for pair in pairwise(outline)}


def drawn_adjacency(board: tuple[sg.Placed, ...]) -> tuple[list[set[int]], list[set[int]]]:
    """(shares an edge, shares a point only) for every space 3h + i, from the drawing alone."""
    edges = [rhombus_edges(p.at, p.rotation, i) for p in board for i in range(3)]
    points = [{point for edge in e for point in edge} for e in edges]
    sides: list[set[int]] = [set() for _ in edges]
    corners: list[set[int]] = [set() for _ in edges]
    for s, t in combinations(range(len(edges)), 2):
        if edges[s] & edges[t]:
            sides[s].add(t)
            sides[t].add(s)
        elif points[s] & points[t]:
            corners[s].add(t)
            corners[t].add(s)
    return sides, corners


def with_extra_tokens(state: sg.State, player: int, seed: int, count: int) -> sg.State:
    """`state` with up to `count` more of `player`'s tokens on random spaces with room (the supply is not used)."""
    rng = random.Random(seed)
    tokens = list(state.tokens)
    room = [s for s in range(len(tokens)) if state.towers[s] is None and len(tokens[s]) < 2]
    for s in rng.sample(room, min(count, len(room))):
        tokens[s] = tuple(sorted(tokens[s] + (player,)))
    return replace(state, tokens=tuple(tokens))


@settings(max_examples=25, deadline=None)
@given(n=players, seed=seeds, steps=lengths)
def test_S_GEO_3_adjacency_is_the_drawing_s_shared_edges_and_never_a_corner(n, seed, steps):
    state = playout(n, seed, steps)
    lay = sg.layout(state.board)
    sides, corners = drawn_adjacency(state.board)
    assert [set(lay.neighbours[s]) for s in range(lay.spaces)] == sides
    if len(state.board) >= 3:
        assert any(corners)  # the drawing does have spaces meeting at a corner only, and they are not adjacent


def _brute_placements(state: sg.State) -> set[tuple]:
    cells = {p.at: p for p in state.board}
    hand = set(state.players[state.turn].hexes)
    free = {(p.at[0] + dq, p.at[1] + dr) for p in state.board for dq, dr in DIRECTIONS} - set(cells)
    out = set()
    for at in free:
        touching = [d for d, (dq, dr) in enumerate(DIRECTIONS) if (at[0] + dq, at[1] + dr) in cells]
        if len(touching) < 2:  # S-HEX-2
            continue
        for kind in hand:
            for k in range(6):
                clash = False
                for d in touching:  # S-HEX-3: the guild on my side d against the guild on its side d + 3
                    other = cells[(at[0] + DIRECTIONS[d][0], at[1] + DIRECTIONS[d][1])]
                    mine = kind[((d - k) % 6) // 2]
                    theirs = other.guilds[(((d + 3) % 6) - other.rotation) % 6 // 2]
                    clash |= mine == theirs
                if not clash:
                    out.add((at, kind, k))
    return out


@settings(max_examples=25, deadline=None)
@given(n=players, seed=seeds, steps=lengths)
def test_S_HEX_2_and_S_HEX_3_every_legal_placement_and_no_other(n, seed, steps):
    state = playout(n, seed, steps)
    if state.over or not state.players[state.turn].hexes:
        return
    state = replace(state, step=sg.HEX)
    legal = {(s.at, s.hex, s.rotation) for s in sg.legal_steps(state)}
    assert legal == _brute_placements(state)


def _brute_buildable(state: sg.State, player: int, large: bool) -> set[int]:
    sides, _ = drawn_adjacency(state.board)
    guild = [g for p in state.board for g in p.guilds]
    own = [s for s, t in enumerate(state.tokens) if player in t and state.towers[s] is None]

    def connected(group) -> bool:
        group = set(group)
        seen, todo = set(), [next(iter(group))]
        while todo:
            s = todo.pop()
            if s not in seen:
                seen.add(s)
                todo.extend(sides[s] & group)
        return seen == group

    out: set[int] = set()
    sizes = range(4, len(own) + 1) if large else (4,)
    for size in sizes:
        for group in combinations(own, size):
            if set(out) >= set(group):
                continue
            names = [guild[s] for s in group]
            if set(names) == set(sg.GUILDS) and (large or len(set(names)) == 4) and connected(group):
                out.update(group)
    return out


@settings(max_examples=25, deadline=None)
@given(n=players, seed=seeds, steps=st.integers(min_value=0, max_value=60), extra=st.integers(0, 7),
       large=st.booleans())
def test_S_BUILD_1_and_S_VAR_1_every_space_a_tower_may_go_on_and_no_other(n, seed, steps, extra, large):
    state = with_extra_tokens(playout(n, seed, steps, large=large), 0, seed, extra)
    own = sum(0 in t and state.towers[s] is None for s, t in enumerate(state.tokens))
    if large and own > 11:
        return  # the enumeration of every subset stays small
    assert set(sg.buildable(state, 0)) == _brute_buildable(state, 0, large)


def _hoarding(players: int, seed: int, steps: int) -> Iterator[sg.State]:
    """A seeded game whose players never build: their tokens pile up into several groups each."""
    rng, state = random.Random(seed), sg.new_game(seed, players=players)
    for _ in range(steps):
        legal = [s for s in sg.legal_steps(state) if s.type != "build"]
        if not legal or state.over:
            return
        state = sg.apply_step(state, rng.choice(legal))[0]
        yield state


def test_S_BUILD_2_every_space_of_every_group_with_a_player_holding_several_groups():
    several = 0
    for seed in range(6):
        for state in _hoarding(2, seed, 90):
            for player in range(2):
                expected = _brute_buildable(state, player, False)
                assert set(sg.buildable(state, player)) == expected, (seed, player)
            several += sum(len(sg.buildable(state, p)) > 6 for p in range(2))
    assert several  # positions where a player's tokens form more than one group of four were met


def shift_state(state: sg.State, dq: int, dr: int) -> sg.State:
    """The whole board moved by (dq, dr): the order of the hexagons (by coordinates) is kept."""
    board = tuple(p._replace(at=(p.at[0] + dq, p.at[1] + dr)) for p in state.board)
    return replace(state, board=board)


def shift_step(step: sg.Step, dq: int, dr: int) -> sg.Step:
    return step if step.at is None else step._replace(at=(step.at[0] + dq, step.at[1] + dr))


@settings(max_examples=25, deadline=None)
@given(n=players, seed=seeds, steps=lengths, turns=st.integers(min_value=0, max_value=5),
       dq=st.integers(-9, 9), dr=st.integers(-9, 9), large=st.booleans())
def test_S_GEO_1_turning_and_shifting_the_board_changes_no_legal_list_and_no_score(n, seed, steps, turns, dq, dr,
                                                                                    large):
    state = playout(n, seed, steps, large=large, builder=True)
    moved = shift_state(rotate_state(state, turns), dq, dr)

    def move(step: sg.Step) -> sg.Step:
        return shift_step(rotate_step(step, turns), dq, dr)

    assert sorted(move(s) for s in sg.legal_steps(state)) == sorted(sg.legal_steps(moved))
    assert sg.score(moved) == sg.score(state)
    assert sg.validate_state(sg.state_json(moved))[0] == []
    assert [sg.possible_group(moved, p) for p in range(n)] == [sg.possible_group(state, p) for p in range(n)]
    assert sg.engine.stuck(moved) == sg.engine.stuck(state)
    for step in sg.legal_steps(state)[:3]:
        after, events = sg.apply_step(state, step)
        moved_after, moved_events = sg.apply_step(moved, move(step))
        assert moved_after == shift_state(rotate_state(after, turns), dq, dr)
        assert [e["type"] for e in moved_events] == [e["type"] for e in events]
