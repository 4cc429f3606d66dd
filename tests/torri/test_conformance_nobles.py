"""Torri, advanced game (the ten nobles), against the conformance harness, beside the registry-wide random games
(tests/test_games_conform.py, which plays them through tests/torri/conformance.py's knowledge): games followed
by a referee who sees one player's view (the other hand, the tower deck and the noble deck unknown), the noble
decisions the policies reach, and hypothesis properties of the JSON forms.

`CONFORMANCE_NOBLE_FOLLOWED` sets how many games a one-view referee follows (default 12).
"""
from __future__ import annotations

import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games import torri
from service.games.torri.cards import BUONA_PIETRA, CARD_NAMES, PALAZZO, is_tower_card
from tests.conformance import Checker, biased, by_type
from tests.torri import test_conformance as base

from .conformance import ACTION_NOBLES, NOBLES, noble_hungry

FOLLOWED = int(os.environ.get("CONFORMANCE_NOBLE_FOLLOWED", "12"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8000, 8000 + FOLLOWED))
def test_referee_follows_a_noble_game_from_one_view(seed: int) -> None:
    """A referee who sees one player's view (the other hand, the tower deck and the noble deck unknown) is fed the
    real game's steps, naming the cards that come off either deck: each is legal in the view, the view keeps
    agreeing with the game, every view position passes the harness's checks, and the score comes out the same."""
    policy = (noble_hungry, by_type(0.03), noble_hungry, biased(0.03))[seed % 4]
    checker = Checker(NOBLES, random_candidates=2, near_miss_candidates=2)
    full, view = checker.follow(seed, policy, viewer=seed % 2)
    assert view.phase == torri.OVER
    assert torri.score(view).to_json() == torri.score(full).to_json()


def test_noble_games_cover_every_noble_step() -> None:
    """The policies reach every noble decision: each action noble played (a Palazzo fizzling too), Buona Pietra built
    and extended, Giostra answering a build and an action noble, Giostra declined, Via Francigena stopped, a rebuild
    and a rebuild stopped, nobles drawn from the noble deck and from the market."""
    seen: set[tuple] = set()
    for i in range(60):
        seed = 9000 + i
        rng = random.Random(f"cover:{seed}")
        state = torri.new_game(seed, nobles=True)
        while state.phase != torri.OVER:
            step = noble_hungry(rng, torri.legal_steps(state), NOBLES)
            pending = state.pending
            after = torri.apply_step(state, step)[0]
            if step.type == "noble":
                fizzled = step.card == PALAZZO and PALAZZO in after.removed and after.pending is None
                seen.add(("noble", CARD_NAMES[step.card]) + (("fizzled",) if fizzled else ()))
            elif pending is not None and pending.type == "rebuild":
                seen.add(("rebuild", step.type))
            elif step.type in ("build", "extend") and BUONA_PIETRA in step.cards:
                seen.add((step.type, "buona_pietra"))
            elif step.type == "giostra":
                seen.add(("giostra", "build" if pending.action in ("build", "extend") else "noble"))
            elif step.type == "decline" and pending.type == "giostra":
                seen.add(("decline",))
            elif step.type == "stop":
                seen.add(("stop", pending.action))
            elif step.type == "draw" and step.source == "noble_deck":
                seen.add(("draw", "noble_deck"))
            elif step.type == "draw" and step.card is not None and not is_tower_card(step.card):
                seen.add(("draw", "market noble"))
            state = after
    wanted = {("noble", name) for name in ACTION_NOBLES} | {
        ("noble", "palazzo", "fizzled"), ("build", "buona_pietra"), ("extend", "buona_pietra"), ("giostra", "build"),
        ("giostra", "noble"), ("decline",), ("stop", "via_francigena"), ("rebuild", "build"), ("rebuild", "stop"),
        ("draw", "noble_deck"), ("draw", "market noble")}
    assert wanted <= seen, wanted - seen


# ---------------------------------------------------------------- hypothesis properties

def _play(seed, steps: int, choices: int) -> list[torri.State]:
    return base._play(seed, steps, choices, nobles=True, choose=noble_hungry, subject=NOBLES)


seeds = base.seeds


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32))
def test_noble_json_round_trip(seed, steps, choices) -> None:
    base.assert_json_round_trip(_play(seed, steps, choices)[-1])


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32),
       depth=st.integers(min_value=1, max_value=2))
def test_noble_perft_survives_json(seed, steps, choices, depth) -> None:
    base.assert_perft_survives_json(_play(seed, steps, choices)[-1], depth)
