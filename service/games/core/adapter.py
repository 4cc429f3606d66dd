"""The part of the game interface (service.games.core.base.Game) that is the same for every game whose requests
carry a whole state: deal, read the state (or a table), validate, list the legal moves, apply and replay, score, a
player's view. A game names its library's functions in a `GameLibrary`; its adapter subclasses `StateGame` and adds
what is its own (`info`, `examples`, other forms of `score`, pictures).

Pointers in errors and violations point into the request (`/state/...`, `/table/...`, `/moves/3/...`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generic, Protocol, Sequence, TypeVar

from .base import GameInfo, Json
from .errors import GameError, MalformedError, Problem
from .narration import Narrator, narrate_all
from .schemas import Reading
from .stepping import Stepper

S = TypeVar("S")  # a game's state


class Documented(Protocol):
    """A score or a catalogue's rule: what the answer carries is its JSON form."""

    def to_json(self) -> Json: ...


def under(prefix: str, error: GameError) -> GameError:
    """The same error with its pointers moved under `prefix` (where the document sits in the request)."""
    return type(error)([p.under(prefix) for p in error.problems])


def checked(reading: Reading, field: str) -> Any:
    """The value of the request's `field` as read, if it breaks no rule; InvalidStateError pointing into the
    request (`/state/...`) otherwise."""
    try:
        return reading.checked()
    except GameError as error:
        raise under(f"/{field}", error) from None


def _players(state: Any) -> int:
    return len(state.players)


def _names(state: Any) -> tuple[str, ...]:
    return tuple(player.name for player in state.players)


@dataclass(frozen=True, slots=True)
class GameLibrary(Generic[S]):
    """The functions of a game's rules library that the shared adapter calls."""

    new_game: Callable[..., S]  # (seed, *, names, one flag per variant, the game's deal options) -> a fresh deal
    load_state: Callable[[Any], Reading[S]]  # the state schema's reading; MalformedError, pointers from the state
    state_json: Callable[[S], Json]
    steps: Stepper[S, Any]
    legal_moves: Callable[[S], list[Json]]
    to_act: Callable[[S], int | None]
    player_view: Callable[[S, int], S]
    score: Callable[..., Documented]  # (state, **options of the game's score request)
    players: Callable[[S], int] = _players
    load_table: Callable[[Any], Reading] | None = None  # a game whose finished tables can be sent without a state
    player_names: Callable[[S], tuple[str, ...]] = _names
    narrate: Narrator = field(kw_only=True)  # an event in words (the game's narration.py): every event's `text`

    def read_state(self, document: Any) -> S:
        """A state from its JSON form, checked: MalformedError or InvalidStateError (pointers from the state)."""
        return self.load_state(document).checked()


class StateGame(Generic[S]):
    """new, validate, legal_moves, apply (and replay), score of a {"state"} or a {"table"}, view and rules, from
    `library`."""

    info: ClassVar[GameInfo]
    library: ClassVar[GameLibrary[Any]]
    rule_book: ClassVar[Sequence[Documented]]
    deal_options: ClassVar[tuple[str, ...]] = ()  # fields of /new's request that the game's new_game also takes

    def new(self, request: Json) -> Json:
        """A fresh deal: the seed, the names, a flag per variant of `info` and the game's `deal_options`."""
        variant = request.get("variant") or {}
        flags = {v.name: bool(variant.get(v.name, False)) for v in self.info.variants}
        options = {name: request.get(name) for name in self.deal_options}
        state = self.library.new_game(request["seed"], names=request.get("names"), **flags, **options)
        return {"state": self.library.state_json(state), "seed": request["seed"]}

    def rules(self) -> list[Json]:
        return [rule.to_json() for rule in self.rule_book]

    def reading(self, request: Json, field: str = "state") -> Reading:
        """The request's `field` ("state" or "table") as its schema read it: the API's view passes what the request
        schema loaded, a library caller may pass the JSON form. Errors point into the request (`/state/...`,
        `/table/...`)."""
        document = request[field]
        if isinstance(document, Reading):
            return document
        try:
            return self.load(field, document)
        except GameError as error:
            raise under(f"/{field}", error) from None

    def load(self, field: str, document: Any) -> Reading:
        """A request field's document ("state" or "table") in its JSON form, read by the game's schema."""
        load = {"state": self.library.load_state, "table": self.library.load_table}.get(field)
        if load is None:
            raise MalformedError(Problem(None, "", f"{self.info.title} takes no \"{field}\" document."))
        return load(document)

    def read(self, request: Json, field: str = "state") -> Any:
        """The request's "state" (or `field`), read and checked; errors point into the request (`/state/...`,
        `/table/...`)."""
        return checked(self.reading(request, field), field)

    def validate(self, request: Json) -> Json:
        reading = self.reading(request)
        return {"valid": not reading.errors, "errors": [p.under("/state").to_json() for p in reading.errors],
                "warnings": [p.under("/state").to_json() for p in reading.warnings]}

    def legal_moves(self, request: Json) -> Json:
        state = self.read(request)
        return {"to_act": self.library.to_act(state), "moves": self.library.legal_moves(state)}

    def apply(self, request: Json, *, replay: bool = False) -> Json:
        library = self.library
        state = self.read(request)
        try:
            steps = [library.steps.as_step(move, i) for i, move in enumerate(request["moves"])]
        except GameError as error:
            raise under("/moves", error) from None
        outcome = library.steps.apply_steps(state, steps, keep_states=replay)
        narrate_all(outcome.events, library.player_names(state), library.narrate)  # names never change in a game
        answer: dict[str, Any] = {
            "legal": outcome.legal,
            "state": library.state_json(outcome.state),
            "events": outcome.events,
            "violations": [p.under("/moves").to_json() for p in outcome.violations],
            "failed_at": outcome.failed_at,
        }
        if replay:
            answer["states"] = [library.state_json(s) for s in outcome.states]
            answer["score"] = {**library.score(outcome.state).to_json(), "warnings": []}
        return answer

    def score(self, request: Json) -> Json:
        return self.score_state(request)

    def score_state(self, request: Json, **options: Any) -> Json:
        """The score of the request's {"state"}, with the warnings of reading it; `options` go to the library's
        score."""
        return self.score_document(request, "state", lambda state: self.library.score(state, **options))

    def score_document(self, request: Json, field: str, score: Callable[[Any], Documented]) -> Json:
        """The score of the request's `field` (a state or a table) by `score`, with the warnings of reading it."""
        reading = self.reading(request, field)
        result = score(checked(reading, field))
        return {**result.to_json(), "warnings": [p.under(f"/{field}").to_json() for p in reading.warnings]}

    def view(self, request: Json) -> Json:
        state = self.read(request)
        player, players = request["player"], self.library.players(state)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
            raise MalformedError(Problem(None, "/player", f"\"player\" is a player of this game: 0 to "
                                                          f"{players - 1}."))
        return {"state": self.library.state_json(self.library.player_view(state, player))}


__all__ = ["GameLibrary", "StateGame", "checked", "under"]
