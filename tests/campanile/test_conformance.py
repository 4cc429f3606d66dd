"""Campanile against the conformance harness, beside the registry-wide random games (tests/test_games_conform.py,
which plays them through tests/campanile/conformance.py's knowledge): a referee following a game from one player's
view, the step types the policies reach, and hypothesis properties of the JSON forms.

`CAMPANILE_CONFORMANCE_FOLLOWED` sets how many games per player count a one-view referee follows (default 3).
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games import campanile
from service.games.core.perft import perft
from tests.conformance import Checker, by_type, check_a_mutated_state, uniform

from .conformance import GAME, PLAYER_COUNTS, SUBJECTS, bettor

FOLLOWED = int(os.environ.get("CAMPANILE_CONFORMANCE_FOLLOWED", "3"))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", range(FOLLOWED))
def test_referee_follows_a_game_from_one_view(players: int, seed: int) -> None:
    """A referee who sees one player's view (other hands, the removed cards and the piles below their tops unknown)
    is fed the real game's steps, naming each card turned face up: each is legal in the view, the view keeps
    agreeing with the game, every view position passes the harness's checks, and the score comes out the same."""
    checker = Checker(SUBJECTS[players], random_candidates=2, near_miss_candidates=2)
    full, view = checker.follow(1000 + seed, (bettor, by_type(0.03), uniform)[seed % 3], viewer=seed % players)
    assert view.over
    assert campanile.score(view).to_json() == campanile.score(full).to_json()


def test_long_games_cover_every_step_type() -> None:
    seen: Counter = Counter()
    for players in PLAYER_COUNTS:
        checker = Checker(SUBJECTS[players], random_candidates=0, near_miss_candidates=0, check_views=False)
        for i in range(4):
            checker.play(9000 + i, (bettor, uniform)[i % 2], check=False)
        seen.update(checker.stats.step_types)
    assert {"play", "bet", "no_bet", "draw"} <= set(seen)


# ---------------------------------------------------------------- hypothesis properties

def _play(players: int, seed, steps: int, choices: int, variant: bool = False) -> campanile.State:
    rng = random.Random(choices)
    state = campanile.new_game(seed, players=players, bet_on_played=variant)
    for _ in range(steps):
        legal = campanile.legal_steps(state)
        if not legal:
            break
        state = GAME.apply_step(state, rng.choice(legal))[0]
    return state


seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(max_size=12))
counts = st.sampled_from(PLAYER_COUNTS)


@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=160),
       choices=st.integers(min_value=0, max_value=2**32), variant=st.booleans())
def test_json_round_trip(players, seed, steps, choices, variant) -> None:
    state = _play(players, seed, steps, choices, variant)
    for candidate in (state, *(campanile.player_view(state, p) for p in range(players))):
        text = json.dumps(campanile.state_json(candidate))
        back = campanile.read_state(json.loads(text))
        assert back == candidate
        assert json.dumps(campanile.state_json(back)) == text


@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=160),
       choices=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_json_parses(players, seed, steps, choices) -> None:
    state = _play(players, seed, steps, choices)
    for candidate in (state, campanile.player_view(state, state.turn)):
        moves = json.loads(json.dumps(campanile.legal_moves(candidate)))
        parsed = [campanile.parse_step(move) for move in moves]
        assert parsed == campanile.legal_steps(candidate)
        assert [step.to_json() for step in parsed] == moves


@given(players=counts, seed=seeds, depth=st.integers(min_value=1, max_value=3))
def test_perft_counts_listed_steps(players, seed, depth) -> None:
    state = campanile.new_game(seed, players=players)
    assert perft(GAME, state, 1) == len(campanile.legal_steps(state))
    assert perft(GAME, state, depth + 1) == sum(perft(GAME, GAME.apply_step(state, s)[0], depth)
                                                for s in campanile.legal_steps(state))


json_values = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from(["A", "E", "x", ""]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
                               ["count", "top", "known", "1", "player", "value", "tower", "stories"]), inner,
                               max_size=3), max_leaves=8)


@given(players=counts, steps=st.integers(min_value=0, max_value=60), data=st.data())
def test_mutated_states_are_answered_never_crash(players, steps, data) -> None:
    """Any document near a real state is either read (valid or with rule problems) or refused as malformed; legal
    steps of a readable state apply."""
    check_a_mutated_state(GAME, campanile.state_json(_play(players, 5, steps, steps)), data, json_values)
