"""The Torri position as small value objects.

A `State` is a value (frozen, like its players): the engine never changes one, it returns a new one. Torri's
rules are written as changes to a working copy, so the engine writes a `Draft` of the state (its players
`PlayerDraft`s once changed) and freezes it when the step is done. Hands and the market have no order, so they
are kept sorted; that makes equal positions equal values (and equal bytes once serialised). A pile the caller does
not know card by card (a referee at a real table) keeps its known cards and a count of unknown ones.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import Any, Callable, NamedTuple

from ..core.memo import memo
from .cards import HAND_LIMIT, MURA, MURA_HAND_LIMIT

MAIN, ENDING, OVER = "main", "ending", "over"
PHASES = (MAIN, ENDING, OVER)
PLAIN, COLORFUL = "plain", "colorful"


class Tower(NamedTuple):
    """Stories bottom first. `rank` is a plain tower's rank, or a colorful tower's bottom rank.
    (A NamedTuple rather than a frozen dataclass: the engine makes many, and these are cheaper.)"""

    cards: tuple[int, ...]
    complete: bool
    kind: str
    rank: int

    @property
    def height(self) -> int:  # T-HIGH-1
        return len(self.cards)

    @property
    def top(self) -> int:
        """The rank the top story stands for (colorful towers descend one rank a story)."""
        return self.rank if self.kind == PLAIN else self.rank - len(self.cards) + 1


def _drafter(writable: type) -> Callable[[Any], Any]:
    """A function that copies a value into a new `writable`, one attribute at a time. (Written out per field, the
    way dataclasses writes `__init__`, it copies in half the time of `writable(*fields)`: a step copies the state
    at every step.)"""
    copies = "".join(f"    copy.{field.name} = value.{field.name}\n" for field in fields(writable))
    namespace = {"new": object.__new__, "writable": writable}
    exec(f"def draft(value):\n    copy = new(writable)\n{copies}    return copy\n", namespace)
    return namespace["draft"]


class _Frozen:
    """What makes a value of a writable slots dataclass frozen: its subclass (no slots of its own, so a working
    copy becomes the value by changing its class, at no cost) refuses every assignment, and is built through the
    writable class."""

    __slots__ = ()
    _writable: type
    _values: Callable[[Any], tuple]  # the value's fields, in order (attrgetter: looked up once per class)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._values = attrgetter(*(f.name for f in fields(cls._writable)))

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._writable(*args, **kwargs).freeze()  # (a State's players frozen too)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass  # built in __new__

    def freeze(self) -> Any:
        return self  # already a value

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a {type(self).__name__} is a value")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: a {type(self).__name__} is a value")

    def __reduce__(self) -> tuple:
        return type(self), self._values(self)


@dataclass(slots=True)
class PlayerDraft:
    """A player the engine is changing (see `Draft`)."""

    name: str
    hand: tuple[int, ...]  # the known cards, sorted
    hidden: int = 0  # cards in hand that the caller does not know
    towers: tuple[Tower, ...] = ()
    played: tuple[int, ...] = ()  # nobles played in front of the player, in order

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.hidden

    @property
    def hand_limit(self) -> int:  # T-SETUP-4, T-NOB-MURA
        return MURA_HAND_LIMIT if MURA in self.played else HAND_LIMIT

    def freeze(self) -> "Player":
        self.__class__ = Player
        return self  # type: ignore[return-value]


class Player(_Frozen, PlayerDraft):
    """A player: name, hand, towers and the nobles played; a value."""

    __slots__ = ()
    _writable = PlayerDraft
    draft = _drafter(PlayerDraft)  # () -> PlayerDraft: a working copy


class Pending(NamedTuple):
    """The decision an unfinished action waits for (T-TURN-2).

    type: draw | refill | guard | target | take | give | giostra | rebuild
    action: what it belongs to: purchase | exchange | extend | income | via_francigena (draws and refills),
        trade | conspiracy (Donazione), build | extend or a noble's name (a Giostra window, a rebuild)
    player: whose action it is (the player whose turn it is)
    left: draws, takes, gives or market cards still owed; a Trade's tower height; a Conspiracy's height
    sources: where a draw may come from (T-ACT-PURCHASE-3 restricts a Purchase to the deck)
    excluded: cards a market draw may not take (T-ACT-EXCHANGE-2)
    built: the index of the tower just built (a Conspiracy never destroys it)
    target: (player, tower) aimed at by a Guard window (tower -1 for a Trade)
    give: the number of cards a Trade gives back after its take
    cards, tower, kind, rank: the build or extension a Giostra window or a rebuild is about (T-NOB-GIOSTRA)
    """

    type: str
    action: str
    player: int
    left: int = 0
    sources: tuple[str, ...] = ()
    excluded: tuple[int, ...] = ()
    built: int | None = None
    target: tuple[int, int] | None = None
    give: int = 0
    cards: tuple[int, ...] = ()
    tower: int | None = None
    kind: str | None = None
    rank: int | None = None


_new_tuple = tuple.__new__
_DRAW_DEFAULTS = tuple(Pending._field_defaults[name] for name in Pending._fields[6:])  # the fields after `excluded`


@memo(4096)  # (the draws owed recur all over a game tree: one shared value each; about 1.5 MB full)
def pending_draws(action: str, player: int, left: int, sources: tuple[str, ...],
                  excluded: tuple[int, ...] = ()) -> Pending:
    """Pending("draw", action, player, left, sources, excluded), the commonest decision, built directly: a draw is
    owed at nearly every other step, and this costs a third less than calling the class; a remembered one, half
    of that again."""
    return _new_tuple(Pending, ("draw", action, player, left, sources, excluded) + _DRAW_DEFAULTS)


@dataclass(slots=True)
class Draft:
    """The working copy a step writes (Torri's rules are written as changes); `freeze()` makes it the State, its
    changed players frozen too."""

    nobles: bool
    phase: str
    turn: int
    to_act: int | None
    passes: int
    highest: int | None
    deck: tuple[int, ...]  # known cards at the top of the deck, top first
    deck_hidden: int  # then this many unknown cards
    deck_bottom: tuple[int, ...]  # then these known cards at the bottom (only while deck_hidden > 0)
    market: tuple[int, ...]
    players: tuple[Player, Player]
    pending: Pending | None = None
    noble_deck: tuple[int, ...] = ()
    noble_hidden: int = 0
    noble_bottom: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    palazzo: int | None = None
    closed_by: int | None = None  # who called Close (T-ACT-CLOSE-1), for T-SCORE-DEALS

    @property
    def deck_size(self) -> int:
        return len(self.deck) + self.deck_hidden + len(self.deck_bottom)

    @property
    def noble_deck_size(self) -> int:
        return len(self.noble_deck) + self.noble_hidden + len(self.noble_bottom)

    @property
    def has_hidden(self) -> bool:
        return bool(self.deck_hidden or self.noble_hidden or self.players[0].hidden or self.players[1].hidden)

    def freeze(self) -> "State":
        first, second = self.players  # a changed player is frozen in place: the tuple already holds it
        if type(first) is PlayerDraft:
            first.__class__ = Player
        if type(second) is PlayerDraft:
            second.__class__ = Player
        self.__class__ = State
        return self  # type: ignore[return-value]


class State(_Frozen, Draft):
    """A Torri position; a value."""

    __slots__ = ()
    _writable = Draft
    draft = _drafter(Draft)  # () -> Draft: a working copy


@dataclass(frozen=True, slots=True)
class Table:
    """What a photo of a finished game shows: towers, played nobles and the marker. The table of a state whose game
    goes on (`table_of`) says so (`finished` False): its picture says who leads, not who wins. (`finished` is not
    compared: the same towers, nobles and marker are the same table.)"""

    nobles: bool
    names: tuple[str, str]
    towers: tuple[tuple[Tower, ...], tuple[Tower, ...]]
    played: tuple[tuple[int, ...], tuple[int, ...]]
    highest: int | None
    closed_by: int | None = None
    finished: bool = field(default=True, compare=False)
