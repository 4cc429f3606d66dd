"""Torri (base game) against the conformance harness, beside the registry-wide random games
(tests/test_games_conform.py, which plays them through tests/torri/conformance.py's knowledge): games followed by a
referee who sees one player's view, the step types and view decisions the policies reach, and hypothesis properties
of the JSON forms.

`CONFORMANCE_FOLLOWED` sets how many games a one-view referee follows (default 20).
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games import torri
from service.games.core.perft import perft
from tests.conformance import Checker, Subject, biased, by_type

from .conformance import BASE, GAME, market_hungry

FOLLOWED = int(os.environ.get("CONFORMANCE_FOLLOWED", "20"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2000, 2000 + FOLLOWED))
def test_referee_follows_a_game_from_one_view(seed: int) -> None:
    """A referee who sees one player's view (the other hand and the deck unknown) is fed the real game's steps,
    naming the cards that come off the deck and that the Trade picks: each is legal in the view, the view keeps
    agreeing with the game, every view position passes the harness's checks, and the score comes out the same."""
    policy = (market_hungry, by_type(0.03), biased(0.03))[seed % 3]
    checker = Checker(BASE, random_candidates=3, near_miss_candidates=3)
    full, view = checker.follow(seed, policy, viewer=seed % 2)
    assert view.phase == torri.OVER
    assert torri.score(view).to_json() == torri.score(full).to_json()


def test_draw_naming_known_top_card_is_the_listed_draw() -> None:
    """Naming the known top card is accepted as the listed draw; naming another card is illegal (T-COMP-4)."""
    state = torri.apply_steps(torri.new_game(1000), [{"type": "purchase"}]).state
    top = state.deck[0]
    named = torri.parse_step({"type": "draw", "from": "deck", "card": torri.CARD_NAMES[top]})
    assert named not in torri.legal_steps(state)
    assert torri.canonical_step(state, named) in torri.legal_steps(state)
    assert torri.apply_step(state, named)[0] == torri.apply_step(state, torri.Step("draw", source="deck"))[0]
    other = next(rank for rank in torri.RANKS if rank != top)
    with pytest.raises(torri.IllegalStepError) as error:
        torri.apply_step(state, torri.parse_step({"type": "draw", "from": "deck", "card": torri.CARD_NAMES[other]}))
    assert error.value.problems[0].rule == "T-COMP-4"


def test_long_games_cover_every_step_type() -> None:
    """The biased policies reach every kind of step of the base game: the suite is not checking empty games."""
    checker = Checker(BASE, random_candidates=0, near_miss_candidates=0, check_views=False)
    for i in range(40):
        checker.play(5000 + i, by_type(0.03) if i % 2 else biased(0.03), check=False)
    seen = set(checker.stats.step_types)
    base = {"purchase", "exchange", "draw", "build", "extend", "complete", "close", "pass", "guard", "decline",
            "target", "take", "give"}
    assert base <= seen, base - seen
    assert checker.stats.longest_game > 100


def test_views_reach_refill_and_named_draws() -> None:
    """In a view the deck is unknown: draws name their card, and an emptied market waits for a refill step."""
    seen: Counter = Counter()
    for seed in range(30):
        state = torri.new_game(seed)
        rng = random.Random(seed)
        while state.phase != torri.OVER:
            legal = torri.legal_steps(state)
            step = market_hungry(rng, legal, BASE)
            view = torri.player_view(state, state.to_act)
            for view_step in torri.legal_steps(view):
                seen[view_step.type, view_step.card is not None] += 1
                if view_step.type == "draw" and view_step.source == "deck":
                    after = BASE.apply(view, view_step)
                    if after.pending is not None and after.pending.type == "refill":
                        seen["refill-pending"] += 1
                        for refill in torri.legal_steps(after)[:3]:
                            BASE.apply(after, refill)
            state = BASE.apply(state, step)
    assert seen["draw", True] and seen["refill-pending"]


# ---------------------------------------------------------------- hypothesis properties

def _play(seed: int | str, steps: int, choices: int, *, nobles: bool = False, choose=biased(0.05),
          subject: Subject = BASE) -> list[torri.State]:
    """The states of a game of at most `steps` steps from a seeded deal, the steps picked by `choose`."""
    rng = random.Random(choices)
    state = torri.new_game(seed, nobles=nobles)
    states = [state]
    for _ in range(steps):
        legal = torri.legal_steps(state)
        if not legal:
            break
        state = BASE.apply(state, choose(rng, legal, subject))
        states.append(state)
    return states


def assert_json_round_trip(state: torri.State) -> None:
    """The state and both players' views read back equal from their JSON, and write back the same bytes."""
    for candidate in (state, torri.player_view(state, 0), torri.player_view(state, 1)):
        text = json.dumps(torri.state_json(candidate))
        back = torri.read_state(json.loads(text))
        assert back == candidate
        assert json.dumps(torri.state_json(back)) == text


def assert_perft_survives_json(state: torri.State, depth: int) -> None:
    """The tree of step sequences below a position is the same below its JSON round trip."""
    back = torri.read_state(json.loads(json.dumps(torri.state_json(state))))
    assert perft(GAME, back, depth) == perft(GAME, state, depth)


seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(max_size=12))


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32))
def test_json_round_trip(seed, steps, choices) -> None:
    assert_json_round_trip(_play(seed, steps, choices)[-1])


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_json_parses(seed, steps, choices) -> None:
    state = _play(seed, steps, choices)[-1]
    for candidate in (state, torri.player_view(state, state.to_act if state.to_act is not None else 0)):
        moves = json.loads(json.dumps(torri.legal_moves(candidate)))
        parsed = [torri.parse_step(move) for move in moves]
        assert parsed == torri.legal_steps(candidate)
        assert [step.to_json() for step in parsed] == moves


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32),
       depth=st.integers(min_value=1, max_value=3))
def test_perft_survives_json(seed, steps, choices, depth) -> None:
    assert_perft_survives_json(_play(seed, steps, choices)[-1], depth)
