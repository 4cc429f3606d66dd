"""The part of the game interface (service.games.core.base.Game) that is the same for every game whose requests
carry a whole state: deal, read the state (or a table), validate, list the legal moves, apply and replay, score, a
player's view. A game names its library's functions in a `GameLibrary`; its adapter subclasses `StateGame` and adds
what is its own (`info`, `examples`, other forms of `score`, pictures).

Pointers in errors and violations point into the request (`/state/...`, `/table/...`, `/moves/3/...`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from random import Random
from typing import Any, Callable, ClassVar, Generic, Protocol, Sequence, TypeVar

from .base import GameInfo, Json
from .errors import GameError, MalformedError, Problem
from .narration import Narrator, narrate_all
from .players import Appraisal, Budget, Rules, suggest
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


def _winners(score: Any) -> Sequence[int]:
    """Who won a scored game: its `winners`, or its one `winner`; a draw (no winner): everyone."""
    winners = getattr(score, "winners", None)
    if winners is None:
        winners = () if score.winner is None else (score.winner,)
    return winners or range(len(score.players))


def _names(state: Any) -> tuple[str, ...]:
    return tuple(player.name for player in state.players)


@dataclass(frozen=True)
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
    # for the computer players (players.py): a deal of what a seat cannot see, consistent with what it sees; each
    # player's points so far; what a seat knows (its view unless the rules put more in its hand)
    sample_unseen: Callable[[S, int, Random], S] | None = None
    standing: Callable[[S], Sequence[float]] | None = None
    seen_by: Callable[[S, int], S] | None = None
    playout_turns: int | None = None  # a search's playouts end after this many turns, judged by `standing`
    lead_scale: float | None = None  # ... as a logistic of the lead in points, this many points a unit

    def read_state(self, document: Any) -> S:
        """A state from its JSON form, checked: MalformedError or InvalidStateError (pointers from the state)."""
        return self.load_state(document).checked()

    @cached_property
    def rules(self) -> Rules[S, Any]:
        """The game as the computer players need it."""
        assert self.sample_unseen is not None and self.standing is not None, "a game with players names both"
        score = self.score
        return Rules(self.steps.legal_steps, self.steps.apply_step, self.to_act, self.player_view,
                     self.seen_by or self.player_view, self.sample_unseen, self.standing,
                     lambda state: _winners(score(state)), self.players, self.playout_turns,
                     self.lead_scale)


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

    def suggest(self, request: Json, *, ceiling_ms: float | None = None) -> Json:
        """A computer player's steps for the seat to act (players.py): `level` random, greedy or mcts (the
        default), `seed`, and a budget of `playouts` or `budget_ms` (wall clock), none past `ceiling_ms`."""
        state = self.read(request)
        playouts, budget_ms = request.get("playouts"), request.get("budget_ms")
        budget = Budget(playouts=playouts, seconds=None if budget_ms is None else budget_ms / 1000,
                        ceiling=None if ceiling_ms is None else ceiling_ms / 1000)
        found = suggest(self.library.rules, state, level=request.get("level", "mcts"), seed=request.get("seed", 0),
                        budget=budget)
        return {
            "player": found.player, "level": found.level, "seed": request.get("seed", 0),
            "moves": [step.to_json() for step in found.steps],
            "expected": _figures(found.best),
            "alternatives": [{"move": a.step.to_json(), **_figures(a)} for a in found.alternatives],
            "playouts": found.playouts, "elapsed_ms": round(found.elapsed_ms, 3), "complete": found.complete,
        }

    def view(self, request: Json) -> Json:
        state = self.read(request)
        player, players = request["player"], self.library.players(state)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
            raise MalformedError(Problem(None, "/player", f"\"player\" is a player of this game: 0 to "
                                                          f"{players - 1}."))
        return {"state": self.library.state_json(self.library.player_view(state, player))}


def _figures(appraisal: Appraisal) -> Json:
    """What the search thinks of a step, rounded for the wire."""
    return {"win_chance": None if appraisal.win_chance is None else round(appraisal.win_chance, 4),
            "margin": None if appraisal.margin is None else round(appraisal.margin, 3),
            "playouts": appraisal.playouts}


__all__ = ["GameLibrary", "StateGame", "checked", "under"]
