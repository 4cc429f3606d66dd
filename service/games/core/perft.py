"""Perft: how many step sequences of a given length start from a position. A fixed count per seeded position
catches any change in what is legal (the golden data in tests/), and its speed measures an engine (bench/)."""
from __future__ import annotations

from typing import Any

from .game import Game


def perft(game: Game, state: Any, depth: int) -> int:
    """perft(s, 0) = 1; perft(s, 1) = len(legal_steps(s)); perft(s, d) = the sum over legal steps of
    perft(apply(s, step), d - 1)."""
    if depth <= 0:
        return 1
    legal = game.legal_steps(state)
    if depth == 1:
        return len(legal)
    nodes = 0
    apply_step = game.apply_step
    for step in legal:  # (a plain loop: no generator resumed at every step of a timed walk)
        nodes += perft(game, apply_step(state, step)[0], depth - 1)
    return nodes
