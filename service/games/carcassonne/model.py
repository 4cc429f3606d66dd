"""The state of a Carcassonne game as small immutable values (the rule book's state shape)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from operator import attrgetter
from typing import Any, NamedTuple

Square = tuple[int, int]  # [x, y]: x to the east, y to the south (K-TILE-1)

MEEPLES = 7  # K-COMP-2: 8 a player, one of them on the score track
FLOORS = {2: 10, 3: 9, 4: 7, 5: 6}  # K-TOW-TILE-1: floors a player by player count
RANSOM = 3  # K-TOW-RANSOM
MIN_PLAYERS, MAX_PLAYERS = 2, 5


class Phase(str, Enum):
    PLAY = "play"
    OVER = "over"


class StepDue(str, Enum):
    PLACE = "place"
    ACTION = "action"
    CAPTURE = "capture"


# The pieces on the board are named tuples, ordered by their fields: every request reads a whole board, and a tuple
# is made several times faster than a frozen dataclass.

class Placement(NamedTuple):
    tile: str
    at: Square
    rotation: int


class Meeple(NamedTuple):
    """A meeple on a feature of a placed tile (feature: its canonical name, K-TILE-4)."""

    at: Square
    feature: str
    player: int


class Tower(NamedTuple):
    at: Square
    height: int
    top: int | None  # the player whose meeple is on top (K-TOW-ACT-3), or None


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    score: int = 0
    supply: int = MEEPLES
    floors: int = 0
    prisoners: tuple[int, ...] = ()  # the owner of each prisoner held, sorted


@dataclass(frozen=True, slots=True)
class Bag:
    """The tiles still to draw: known in order (`tiles`, next first) or only counted (`tiles` None)."""

    tiles: tuple[str, ...] | None
    count: int

    @staticmethod
    def known(tiles: tuple[str, ...]) -> "Bag":
        return Bag(tuple(tiles), len(tiles))


@dataclass(frozen=True, slots=True)
class State:
    tower: bool
    phase: Phase
    turn: int
    step: StepDue
    bag: Bag
    discarded: tuple[str, ...]
    board: tuple[Placement, ...]
    last: Square | None  # the tile placed this turn (action and capture steps)
    raised: Square | None  # the tower a floor was put on this turn (capture step)
    meeples: tuple[Meeple, ...]  # sorted
    towers: tuple[Tower, ...]  # sorted
    players: tuple[Player, ...]
    ransomed: bool
    # The board's feature index (board.BoardIndex), built on first use and handed on by the engine. Not an init
    # field, so dataclasses.replace never carries it over to a different board.
    index: Any = field(default=None, init=False, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def with_index(self, index: Any) -> "State":
        object.__setattr__(self, "index", index)
        return self

    def but(self, **changes: Any) -> "State":
        """The state with `changes` (dataclasses.replace, quicker: the engine makes a state at every step). As with
        replace, the index is not carried over."""
        values = list(_STATE_VALUES(self))
        for name, value in changes.items():
            values[_STATE_POSITION[name]] = value
        return State(*values)


_STATE_FIELDS = tuple(f.name for f in fields(State) if f.init)
_STATE_VALUES = attrgetter(*_STATE_FIELDS)
_STATE_POSITION = {name: i for i, name in enumerate(_STATE_FIELDS)}
