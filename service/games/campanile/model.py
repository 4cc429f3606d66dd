"""The Campanile position as small immutable values.

A `State` is a value: the engine never changes one, it returns a new one (`dataclasses.replace`). Hands and the
removed cards have no order, so they are kept sorted (C-SVC-HAND): equal positions are equal values, and equal
bytes once serialised. What the caller does not know card by card (a referee at a real table) is a count of
unknown cards: a hand's or the removed cards' `hidden`, a pile's cards below its face-up top.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import HAND_SIZE, STYLES, TOKEN_VALUES, TOKENS

PLAY, BET, DRAW, OVER = "play", "bet", "draw", "over"
STEPS = (PLAY, BET, DRAW, OVER)


class Token(NamedTuple):
    player: int
    value: int


class Tower(NamedTuple):
    """One tower: its style, the stories each card added (in order), the tokens under it (in the order placed)."""

    style: str
    plays: tuple[int, ...] = ()
    tokens: tuple[Token, ...] = ()

    @property
    def height(self) -> int:
        return sum(self.plays)

    @property
    def cards(self) -> int:
        return len(self.plays)


class Pile(NamedTuple):
    """A Finito pile: known cards, top first, then `hidden` unknown ones. With hidden cards, exactly the face-up
    top is known (C-SETUP-3)."""

    cards: tuple[str, ...] = ()
    hidden: int = 0

    @property
    def size(self) -> int:
        return len(self.cards) + self.hidden

    @property
    def top(self) -> str | None:
        return self.cards[0] if self.cards else None


class Player(NamedTuple):
    name: str
    hand: tuple[str, ...] = ()  # the known cards, sorted
    hidden: int = 0  # cards in hand the caller does not know
    supply: tuple[int, int, int] = (TOKENS[1], TOKENS[2], TOKENS[3])  # tokens of value 1, 2, 3 not yet placed

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.hidden

    def tokens_left(self, value: int) -> int:
        return self.supply[value - 1]


FULL_SUPPLY = tuple(TOKENS[v] for v in TOKEN_VALUES)


class LastPlay(NamedTuple):
    tower: int
    stories: int


@dataclass(frozen=True, slots=True)
class State:
    bet_on_played: bool  # C-VAR-1
    players: tuple[Player, ...]
    towers: tuple[Tower, ...]
    piles: tuple[Pile, ...]
    removed: tuple[str, ...] = ()  # known removed cards (C-SETUP-2), sorted
    removed_hidden: int = 0
    turn: int = 0
    step: str = PLAY
    last_play: LastPlay | None = None

    @property
    def over(self) -> bool:
        return self.step == OVER

    @property
    def has_hidden(self) -> bool:
        return bool(self.removed_hidden or any(p.hidden for p in self.players) or any(p.hidden for p in self.piles))


@dataclass(frozen=True, slots=True)
class Table:
    """What a photo of a finished table shows: the players and the five towers with their tokens."""

    bet_on_played: bool
    names: tuple[str, ...]
    towers: tuple[Tower, ...]


def empty_towers() -> tuple[Tower, ...]:
    return tuple(Tower(style) for style in STYLES)


__all__ = ["BET", "DRAW", "FULL_SUPPLY", "HAND_SIZE", "LastPlay", "OVER", "PLAY", "Pile", "Player", "STEPS",
           "State", "Table", "Token", "Tower", "empty_towers"]
