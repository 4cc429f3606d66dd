"""Every registered game against the shared conformance harness (tests/conformance.py), one test over the registry
as OpenSpiel's games_sim_test runs one over every registered game: for each game of
service.games.registry.GAMES, seeded random games played through the adapters its tests package provides, every
position checked (conservation, JSON round trips, legal list = accepted steps with near misses, the game's own
invariants, views, termination) and each finished game held to the game's own assertions.

A game provides its adapters in one place: `conformance_plans()` in `tests/<game>/conformance.py`, a list of
`tests.conformance.Plan` (an adapter, the (policy, seed) games it plays, the checker's knobs, the assertions at the
end of a game). A registered game that provides none fails here, so no game skips conformance. How many games each
plan plays is the game's to say (its environment variables, e.g. CONFORMANCE_GAMES for Torri).
"""
from __future__ import annotations

import importlib
from functools import cache

import pytest

from service.games.registry import GAMES
from tests.conformance import Plan


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
                out.append(pytest.param(game, index, policy, seed, id=f"{plan.adapter.name}-{policy}-{seed}"))
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_every_registered_game_provides_conformance_plans(game: str) -> None:
    found = plans(game)
    assert found, f"tests/{game}/conformance.py: conformance_plans() lists no adapter"
    names = [plan.adapter.name for plan in found]
    assert len(names) == len(set(names)), f"adapter names given twice: {names}"
    for plan in found:
        assert plan.games, f"{plan.adapter.name}: no random game to play"
        assert {policy for policy, _ in plan.games} <= set(plan.policies), plan.adapter.name


@pytest.mark.slow
@pytest.mark.parametrize(("game", "plan", "policy", "seed"), _games())
def test_random_game_conforms(game: str, plan: int, policy: str, seed) -> None:
    plans(game)[plan].play(policy, seed)
