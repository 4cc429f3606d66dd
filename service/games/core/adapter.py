"""The part of the game interface (service.games.core.base.GameRules) that is the same for every game whose requests
carry a whole state: read the state, validate, list the legal moves, apply and replay, score a state, a player's view.
A game names its library's functions in a `GameLibrary`; its adapter subclasses `StateGameAdapter` and adds what
is its own (`info`, `new`, other forms of `score`, pictures, examples).

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/...`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generic, Protocol, Sequence, TypeVar

from .base import Json
from .errors import GameError, MalformedError, Problem
from .schemas import Reading
from .stepping import Stepper

S = TypeVar("S")  # a game's state


class Documented(Protocol):
    """A score or a catalogue's rule: what the answer carries is its JSON form."""

    def to_json(self) -> Json: ...


def under(prefix: str, error: GameError) -> GameError:
    """The same error with its pointers moved under `prefix` (where the document sits in the request)."""
    return type(error)([p.under(prefix) for p in error.problems])


def _players(state: Any) -> int:
    return len(state.players)


@dataclass(frozen=True, slots=True)
class GameLibrary(Generic[S]):
    """The functions of a game's rules library that the shared adapter calls."""

    load_state: Callable[[Any], Reading[S]]  # the state schema's reading; MalformedError, pointers from the state
    state_json: Callable[[S], Json]
    steps: Stepper[S, Any]
    legal_moves: Callable[[S], list[Json]]
    to_act: Callable[[S], int | None]
    player_view: Callable[[S, int], S]
    score: Callable[..., Documented]  # (state, **options of the game's score request)
    players: Callable[[S], int] = _players

    def read_state(self, document: Any) -> S:
        """A state from its JSON form, checked: MalformedError or InvalidStateError (pointers from the state)."""
        return self.load_state(document).checked()


class StateGameAdapter(Generic[S]):
    """validate, legal_moves, apply (and replay), score of a {"state"}, view and rules, from `library`."""

    library: ClassVar[GameLibrary[Any]]
    rule_book: ClassVar[Sequence[Documented]]

    def rules(self) -> list[Json]:
        return [rule.to_json() for rule in self.rule_book]

    def reading(self, request: Json, field: str = "state") -> Reading:
        """The request's `field` as its schema read it: the API's view passes what the request schema loaded, a
        library caller may pass the JSON form. Errors point into the request (`/state/...`)."""
        document = request[field]
        if isinstance(document, Reading):
            return document
        try:
            return self.load(field, document)
        except GameError as error:
            raise under(f"/{field}", error) from None

    def load(self, field: str, document: Any) -> Reading:
        """A request field's document in its JSON form, read by the game's schema (a game with other documents
        than a state, such as a table, adds them)."""
        if field != "state":
            raise KeyError(field)
        return self.library.load_state(document)

    def read(self, request: Json, field: str = "state") -> Any:
        """The request's "state" (or `field`), read and checked; errors point into the request (`/state/...`)."""
        reading = self.reading(request, field)
        try:
            return reading.checked()
        except GameError as error:
            raise under(f"/{field}", error) from None

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
        state, warnings = self.read(request), self.reading(request).warnings
        result = self.library.score(state, **options)
        return {**result.to_json(), "warnings": [p.under("/state").to_json() for p in warnings]}

    def view(self, request: Json) -> Json:
        state = self.read(request)
        player, players = request["player"], self.library.players(state)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
            raise MalformedError(Problem(None, "/player", f"\"player\" is a player of this game: 0 to "
                                                          f"{players - 1}."))
        return {"state": self.library.state_json(self.library.player_view(state, player))}


__all__ = ["GameLibrary", "StateGameAdapter", "under"]
