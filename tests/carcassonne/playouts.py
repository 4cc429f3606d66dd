"""Seeded random games for the property and conformance tests (a policy that likes towers, captures and ransoms
enough to reach them often)."""
from __future__ import annotations

import random
from typing import Callable, Iterator

from service.games import carcassonne

LIKED = ("capture", "ransom", "floor", "tower_meeple", "meeple")


def choose(rng: random.Random, steps: list[carcassonne.Step]) -> carcassonne.Step:
    for kind in LIKED:
        chosen = [s for s in steps if s.type == kind]
        if chosen and rng.random() < 0.5:
            return rng.choice(chosen)
    return rng.choice(steps)


def playout(seed: int, players: int, tower: bool, *, steps: int | None = None,
            each: Callable[[carcassonne.State, carcassonne.Step, carcassonne.State, list[dict]], None] | None = None
            ) -> Iterator[carcassonne.State]:
    """The states of one game (or its first `steps` steps), the start included."""
    rng = random.Random(f"playout:{seed}:{players}:{tower}")
    state = carcassonne.new_game(seed, players=players, tower=tower)
    yield state
    count = 0
    while not state.over and (steps is None or count < steps):
        step = choose(rng, carcassonne.legal_steps(state))
        after, events = carcassonne.apply_step(state, step)
        if each is not None:
            each(state, step, after, events)
        state = after
        count += 1
        assert count < 1000, "the game does not end"
        yield state
