"""Scoring (S-END-3): most towers on the board wins; equal, most tokens on guild spaces; still equal, a shared win.

Any state can be scored: an unfinished one as if the game ended now (S-SVC-SCORE).
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import State


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    towers: int  # on the board
    tokens: int  # on guild spaces

    def to_json(self) -> dict:
        return {"name": self.name, "towers": self.towers, "tokens": self.tokens}


@dataclass(frozen=True, slots=True)
class Score:
    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    decided_by: str  # "towers", "tokens" or "shared"
    over: bool

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> dict:
        return {"players": [p.to_json() for p in self.players], "winners": list(self.winners), "winner": self.winner,
                "decided_by": self.decided_by, "over": self.over}


def score_state(state: State) -> Score:
    n = len(state.players)
    towers = [0] * n
    tokens = [0] * n
    for owner in state.towers:
        if owner is not None:
            towers[owner] += 1
    for space in state.tokens:
        for owner in space:
            tokens[owner] += 1
    players = tuple(PlayerScore(p.name, towers[i], tokens[i]) for i, p in enumerate(state.players))
    most = max(towers)
    leaders = [i for i in range(n) if towers[i] == most]
    if len(leaders) == 1:
        return Score(players, tuple(leaders), "towers", state.over)
    most_tokens = max(tokens[i] for i in leaders)
    leaders = [i for i in leaders if tokens[i] == most_tokens]
    return Score(players, tuple(leaders), "tokens" if len(leaders) == 1 else "shared", state.over)
