"""Every registered game against the shared conformance harness (tests/conformance.py), one test over the registry
as OpenSpiel's games_sim_test runs one over every registered game: for each game of
service.games.registry.GAMES, seeded random games played through its registered `Game`, every position checked
(conservation, JSON round trips, legal list = accepted steps with near misses, the game's own invariants, views,
termination) and each finished game held to the game's own assertions.

The harness takes from the `Game` everything the protocol gives; a game's tests package gives the rest in one
place, `tests/<game>/conformance.py`: its `Knowledge` (pieces, invariants, candidates, view-following, every piece
optional) and `conformance_plans()`, a list of `tests.conformance.Plan` (a subject: the registered game, a deal and
that knowledge; the (policy, seed) games it plays, the checker's knobs, the assertions at the end of a game). A
registered game without that module, or whose plans leave out a player count or a variant, fails here, so no game
skips conformance. How many games each plan plays is the game's to say (its environment variables, e.g.
CONFORMANCE_GAMES for Torri).
"""
from __future__ import annotations

import importlib
from functools import cache

import pytest

from service.games.registry import GAMES
from tests.conformance import Checker, Plan, Subject, uniform


@cache
def plans(game: str) -> tuple[Plan, ...]:
    module = importlib.import_module(f"tests.{game}.conformance")
    return tuple(module.conformance_plans())


def _games() -> list:
    out = []
    for game in GAMES:
        try:
            found = plans(game)
        except Exception:  # noqa: BLE001 - test_every_registered_game_provides_conformance_plans reports it
            continue
        for index, plan in enumerate(found):
            for policy, seed in plan.games:
                out.append(pytest.param(game, index, policy, seed, id=f"{plan.subject.name}-{policy}-{seed}"))
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_every_registered_game_provides_conformance_plans(game: str) -> None:
    found = plans(game)
    assert found, f"tests/{game}/conformance.py: conformance_plans() lists no plan"
    names = [plan.subject.name for plan in found]
    assert len(names) == len(set(names)), f"subject names given twice: {names}"
    for plan in found:
        assert plan.subject.game is GAMES[game], f"{plan.subject.name}: not the registered game {game}"
        assert plan.games, f"{plan.subject.name}: no random game to play"
        assert {policy for policy, _ in plan.games} <= set(plan.policies), plan.subject.name


@pytest.mark.parametrize("game", list(GAMES))
def test_the_plans_deal_every_player_count_and_variant(game: str) -> None:
    """Random games seat every player count the game takes, and play each variant (its `example` value)."""
    info, deals = GAMES[game].info, [plan.subject.deal for plan in plans(game)]
    assert {players for players, _ in deals} == set(range(info.min_players, info.max_players + 1))
    for variant in info.variants:
        assert any(values[variant.name] == variant.example for _, values in deals), variant.name


@pytest.mark.parametrize("game", list(GAMES))
def test_the_harness_needs_nothing_but_the_game(game: str) -> None:
    """Every piece of a game's knowledge is optional: with none (no pieces to conserve, no step schema, no aliases,
    so no candidates; views need `reveal`, so none), a game is still played and checked at every position (JSON
    round trips, the legal list applied, over when nothing is listed, termination)."""
    checker = Checker(Subject(GAMES[game]), near_miss_candidates=0, check_views=False)
    state, history = checker.play(0, uniform)
    assert history and GAMES[game].to_act(state) is None
    assert checker.stats.listed_applied >= checker.stats.positions - 1 and checker.stats.candidates == 0


@pytest.mark.slow
@pytest.mark.parametrize(("game", "plan", "policy", "seed"), _games())
def test_random_game_conforms(game: str, plan: int, policy: str, seed) -> None:
    plans(game)[plan].play(policy, seed)
