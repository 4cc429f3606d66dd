"""Perft: how many step sequences of a given length start from a position. A fixed count per seeded position
catches any change in what is legal (the golden data in tests/), and its speed measures an engine (bench/)."""
from __future__ import annotations

from typing import Any, Protocol


class SteppedGame(Protocol):
    """A game's rules library (`service.games.torri`, `service.games.campanile`)."""

    def legal_steps(self, state: Any) -> list: ...

    def apply_step(self, state: Any, step: Any) -> tuple[Any, list]: ...


def perft(game: SteppedGame, state: Any, depth: int) -> int:
    """perft(s, 0) = 1; perft(s, 1) = len(legal_steps(s)); perft(s, d) = the sum over legal steps of
    perft(apply(s, step), d - 1)."""
    if depth <= 0:
        return 1
    legal = game.legal_steps(state)
    if depth == 1:
        return len(legal)
    nodes = 0
    for step in legal:  # (a plain loop: no generator resumed at every step of a timed walk)
        nodes += perft(game, game.apply_step(state, step)[0], depth - 1)
    return nodes
