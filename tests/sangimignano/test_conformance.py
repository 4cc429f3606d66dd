"""San Gimignano against the conformance harness, beside the registry-wide random games
(tests/test_games_conform.py, which plays them through tests/sangimignano/conformance.py's knowledge): long games
covering every step type and both endings, a referee following a game from one player's view, and hypothesis
properties of the JSON forms.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import sangimignano as sg
from tests.conformance import Checker, by_type, check_a_mutated_state, uniform

from .conformance import GAME, PLAYER_COUNTS, builder, subject
from .helpers import playout


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_referee_follows_a_game_from_one_view(players: int) -> None:
    """A referee who sees one player's view (the other hands' hexagons unknown) is fed the real game's steps: each
    is legal in the view, the view stays the game's view at every step (the harness's default agreement), every
    view position passes the harness's checks, and the score comes out the same."""
    checker = Checker(subject(players, players == 3), random_candidates=2, near_miss_candidates=2)
    full, view = checker.follow(1000 + players, (builder, uniform, by_type(0.1))[players % 3], viewer=players - 1)
    assert full.over and view.over
    assert sg.score(view).to_json() == sg.score(full).to_json()


def test_long_games_cover_every_step_type_and_both_endings() -> None:
    seen: Counter = Counter()
    endings = set()
    for players in PLAYER_COUNTS:
        for large in (False, True):
            checker = Checker(subject(players, large), random_candidates=0, near_miss_candidates=0,
                              check_views=False)
            for i in range(3):
                state, history = checker.play(7000 + i, (builder, uniform, by_type(0.1))[i], check=False)
                endings.add("tenth_tower" if any(p.towers == 0 for p in state.players) else "stuck")
            seen.update(checker.stats.step_types)
    assert {"token", "hex", "build", "end"} <= set(seen)
    assert "stuck" in endings
    tenth = playout(2, 25, 3000, large=True, builder=True)  # a seed whose game reaches S-END-1 (rare at random)
    assert tenth.over and [p.towers for p in tenth.players].count(0) == 1


# ---------------------------------------------------------------- hypothesis properties

seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(max_size=12))
counts = st.sampled_from(PLAYER_COUNTS)


@settings(max_examples=30, deadline=None)
@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=140),
       choices=st.integers(min_value=0, max_value=2**32), large=st.booleans())
def test_json_round_trip(players, seed, steps, choices, large) -> None:
    state = playout(players, seed, steps, large=large, choices=choices)
    for candidate in (state, *(sg.player_view(state, p) for p in range(players))):
        text = json.dumps(sg.state_json(candidate))
        back = sg.read_state(json.loads(text))
        assert back == candidate
        assert json.dumps(sg.state_json(back)) == text


@settings(max_examples=30, deadline=None)
@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=140),
       choices=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_json_parses(players, seed, steps, choices) -> None:
    state = playout(players, seed, steps, choices=choices)
    for candidate in (state, sg.player_view(state, state.turn)):
        moves = json.loads(json.dumps(sg.legal_moves(candidate)))
        parsed = [sg.parse_step(move) for move in moves]
        assert parsed == sg.legal_steps(candidate)
        assert [step.to_json() for step in parsed] == moves


json_values = st.recursive(st.none() | st.booleans() | st.integers(-3, 70) | st.sampled_from(["A", "D", "x", ""]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
                               ["count", "at", "guilds", "tokens", "towers", "rotation", "hexes"]), inner,
                               max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(players=counts, steps=st.integers(min_value=0, max_value=80), data=st.data())
def test_mutated_states_are_answered_never_crash(players, steps, data) -> None:
    """Any document near a real state is either read (valid or with rule problems) or refused as malformed; legal
    steps of a readable state apply."""
    check_a_mutated_state(GAME, sg.state_json(playout(players, 5, steps, choices=steps)), data, json_values)
