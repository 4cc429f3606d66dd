"""The San Gimignano position as small immutable values.

A `State` is a value: the engine never changes one, it returns a new one. The board's hexagons (`board`, sorted by
coordinates, each in canonical form) are kept apart from what lies on their spaces (`tokens`, `towers`, indexed by
space: 3 * hexagon + guild space), so the geometry of a board is computed once however the pieces move.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, TypeVar

from .geometry import Guilds, Placed

T = TypeVar("T")

TOKEN, HEX, BUILD = "token", "hex", "build"
PHASES = (TOKEN, HEX, BUILD)
PLAY, OVER = "play", "over"

HEXAGONS = 16  # S-COMP-1
TOKENS = 20  # S-COMP-2, each player
TOWERS = 10  # S-COMP-2, each player
MIN_PLAYERS, MAX_PLAYERS = 2, 4
# S-SETUP-1: by player count, (hexagons on the table, hexagons each player holds, hexagons back in the box)
SETUP = {2: (2, 4, 6), 3: (3, 3, 4), 4: (4, 3, 0)}
# S-SVC-START: where /new lays the starting hexagons
START = {2: ((0, 0), (1, 0)), 3: ((0, 0), (1, 0), (0, 1)), 4: ((0, 0), (1, 0), (0, 1), (1, 1))}


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    hexes: tuple[Guilds, ...] = ()  # known hexagons in hand, each written as its kind, sorted
    hidden: int = 0  # hexagons in hand the caller does not know (S-SVC-UNKNOWN)
    tokens: int = TOKENS  # in supply
    towers: int = TOWERS  # in supply

    @property
    def hand_size(self) -> int:
        return len(self.hexes) + self.hidden


@dataclass(frozen=True, slots=True)
class State:
    large_groups: bool  # S-VAR-1
    players: tuple[Player, ...]
    board: tuple[Placed, ...]  # sorted by coordinates
    tokens: tuple[tuple[int, ...], ...]  # per space: the players whose tokens lie there, sorted
    towers: tuple[int | None, ...]  # per space: whose tower stands there
    box: int
    turn: int = 0
    step: str | None = TOKEN  # the phase due; None once the game is over
    phase: str = PLAY

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def has_hidden(self) -> bool:
        return any(p.hidden for p in self.players)


def evolve(value: T, **changes: Any) -> T:
    """`dataclasses.replace(value, **changes)` for a State or a Player, without looking their fields up again at
    every call: a step makes several on its way. Every field is copied through its slot, then the changed ones
    set."""
    kind = type(value)
    new = object.__new__(kind)
    copy_fields, set_field = _COPIES[kind], object.__setattr__
    for set_slot, field in zip(copy_fields[0], copy_fields[1](value)):
        set_slot(new, field)
    for name, field in changes.items():
        set_field(new, name, field)
    return new


# per class: the setter of each slot, and what reads them all at once, in the same order
_COPIES = {kind: (tuple(getattr(kind, name).__set__ for name in kind.__slots__), attrgetter(*kind.__slots__))
           for kind in (Player, State)}


__all__ = ["BUILD", "HEX", "HEXAGONS", "MAX_PLAYERS", "MIN_PLAYERS", "OVER", "PHASES", "PLAY", "Player", "SETUP",
           "START", "State", "TOKEN", "TOKENS", "TOWERS", "evolve"]
