"""The one notion of a game, as OpenSpiel's `Game`/`State` and boardgame.io's game object are: what every game
implements once, and all that the HTTP layer, the computer players, perft, the conformance harness, the command
line and the pages rely on.

A game subclasses `Game` in its folder's `game.py` and is registered with one line in `service.games.registry`.
It gives the rules on typed values (a state, a step, events) and their JSON forms; `Game` answers every question of
the service from them (`new`, `validate`, `legal_moves`, `apply`, `score`, `view`, `suggest`, `rules`), with
pointers in errors and violations into the request (`/state/...`, `/table/...`, `/moves/3/...`).

What only some games have is declared in `capabilities`, never probed: scoring a finished table sent without a
state (`TABLE`), drawing it (`PICTURE`), writing it in notation (`NOTATION`), an editor on the referee page
(`EDITOR`). Declaring one and leaving its methods out fails when the class is made.
"""
from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from pathlib import Path
from random import Random
from typing import Any, Callable, ClassVar, Generic, Iterable, Mapping, Protocol, Sequence, TypeVar

from .catalogue import Rule
from .errors import GameError, IllegalStepError, MalformedError, Problem
from .events import Event
from .language import DEFAULT, Catalogues, said, speaks
from .messages import tr, tr_n
from .narration import narrated, winners_said
from .reading import Reading

Json = dict[str, Any]
S = TypeVar("S")  # a game's state
T = TypeVar("T")  # a game's step


class Documented(Protocol):
    """A score: what the answer carries is its JSON form."""

    def to_json(self) -> Json: ...


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant /new deals: its `name` in the request's `variant` object, what it changes (`description`, with
    its rule id), the value it has when left out (`default`) and one that plays it (`example`). Its value may be of
    any JSON type; the game's wire schema for `variant` says which."""

    name: str
    description: str
    default: Any = False
    example: Any = True


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    variants: tuple[Variant, ...] = field(default=())


class Capability(str, Enum):
    """What a game may offer beyond the questions every game answers."""

    TABLE = "table"  # scores a finished table sent without a state: score_table, table_of (and its wire's table)
    PICTURE = "picture"  # draws a state (or its table) as SVG: draw
    NOTATION = "notation"  # reads and writes a table in notation for people: read_notation, write_notation
    EDITOR = "editor"  # an editor on the referee page: the folder named by `editor` (editor.js, editor.css)


REQUIRES: dict[Capability, tuple[str, ...]] = {
    Capability.TABLE: ("score_table", "table_of"),
    Capability.PICTURE: ("draw",),
    Capability.NOTATION: ("read_notation", "write_notation"),
    Capability.EDITOR: (),
}


@dataclass(slots=True)
class Outcome(Generic[S]):
    """What applying a list of steps gave: the state after the last legal one, and what happened (each event
    placed at the index of the step that made it)."""

    legal: bool
    state: S
    events: list[Event]
    violations: list[Problem] = field(default_factory=list)
    failed_at: int | None = None
    states: list[S] = field(default_factory=list)  # after each applied step, when asked for


def under(prefix: str, error: GameError) -> GameError:
    """The same error with its pointers moved under `prefix` (where the document sits in the request)."""
    return type(error)([p.under(prefix) for p in error.problems])


def checked(reading: Reading[S], field: str) -> S:
    """The value of the request's `field` as read, if it breaks no rule; InvalidStateError pointing into the
    request (`/state/...`) otherwise."""
    try:
        return reading.checked()
    except GameError as error:
        raise under(f"/{field}", error) from None



@dataclass(frozen=True)
class Proposal(Generic[T]):
    """A step tried on a position, for a picture (`Game.picture` with `moves`): the step, its index among the
    moves, whether the rules take it, the violations if not (pointers from the moves), what it does in words when
    they do (its events' sentences), and whose step it is."""

    step: T
    index: int
    legal: bool
    violations: tuple[Problem, ...] = ()
    sentences: tuple[str, ...] = ()
    player: int | None = None  # the seat to act where it is tried (None: nobody, the game being over)

class Game(ABC, Generic[S, T]):
    """A game: its rules on typed values, its documents' JSON forms, and the questions the service answers."""

    info: ClassVar[GameInfo]
    rule_book: ClassVar[Sequence[Rule]]  # the catalogue (catalogue.py): what violations cite
    # its requests and answers by role (service.wire.schemas.Forms, made in its schemas.py): openapi.yaml's source
    wire: ClassVar[Any]
    step_type: ClassVar[type]
    capabilities: ClassVar[frozenset[Capability]] = frozenset()
    editor: ClassVar[str | None] = None  # EDITOR: the folder, inside the game's package, of its editor
    deal_options: ClassVar[tuple[str, ...]] = ()  # fields of /new's request that `deal` also takes
    # a search's playouts end after this many turns, judged by `evaluate`; None: played to the end
    playout_turns: ClassVar[int | None] = None
    lead_scale: ClassVar[float | None] = None  # ... as a logistic of the lead, this many points a unit

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for capability in cls.capabilities:
            missing = [name for name in REQUIRES[capability] if getattr(cls, name) is getattr(Game, name)]
            if capability is Capability.EDITOR and not cls.editor:
                missing.append("its editor folder")
            if capability is Capability.TABLE and getattr(cls.wire, "load_table", None) is None:
                missing.append("a table in its wire form")
            if missing:
                raise TypeError(f"{cls.__name__} declares {capability.value} without {', '.join(missing)}")

    def offers(self, capability: Capability) -> bool:
        return capability in self.capabilities

    # ---------------------------------------------------------------- the rules: what every game gives

    @abstractmethod
    def deal(self, seed: int | str, *, names: Sequence[str] | None, variant: Mapping[str, Any],
             **options: Any) -> S:
        """A fresh deal for `seed`: the players `names` (None: the fewest, unnamed), each variant's value
        (every one of `info.variants`, defaults filled in) and the game's `deal_options`."""

    def load_state(self, document: Any) -> Reading[S]:
        """A state's JSON form read by the game's schema (its `wire`): MalformedError for a wrong shape (pointers
        from the state); the rules it breaks in the reading's `errors`."""
        return self.wire.load_state(document)

    @abstractmethod
    def state_json(self, state: S) -> Json: ...

    def parse_step(self, document: Any) -> T:
        """A step from its JSON form, read by the game's move union (its `wire`); MalformedError (pointers from the
        step)."""
        return self.wire.parse_step(document)

    @abstractmethod
    def legal_steps(self, state: S) -> list[T]:
        """Every step `apply_step` accepts, none twice; none once the game is over."""

    @abstractmethod
    def apply_step(self, state: S, step: T) -> tuple[S, list[Event]]:
        """The next state and what happened; IllegalStepError naming the rule broken (pointers from the step)."""

    def to_act(self, state: S) -> int | None:
        """Whose turn it is; None once the game is over (by default, a state's `turn` unless it is `over`)."""
        return None if state.over else state.turn  # type: ignore[attr-defined]

    @abstractmethod
    def player_view(self, state: S, seat: int) -> S:
        """The state as `seat` may see it: what it may not know becomes counts."""

    @abstractmethod
    def score_state(self, state: S, **options: Any) -> Documented:
        """The score of a state, with its breakdown; `options` as `score_options` reads them."""

    @abstractmethod
    def narrate(self, event: Event, names: Sequence[str]) -> str:
        """An event in words (the game's narration.py)."""

    # ---------------------------------------------------------------- with a default a game may replace

    def players(self, state: S) -> int:
        return len(state.players)  # type: ignore[attr-defined]

    def foreseen(self, event: Event) -> Event:
        """An event as it can be foreseen before its step is made (a legal step said in words, `step_text`): what
        chance brings (a card drawn face down, a card turned up) is not named. By default, the event itself."""
        return event

    def told(self, event: Event, seat: int) -> Event:
        """An event as `seat` is told it at the table (player_view's counterpart for what happens): what the
        others do face down is not named. By default, the event itself: nothing happens out of sight."""
        return event

    def player_names(self, state: S) -> tuple[str, ...]:
        return tuple(player.name for player in state.players)  # type: ignore[attr-defined]

    def seen_by(self, state: S, seat: int) -> S:
        """What a seat knows: its view, unless the rules put more in its hand (a tile drawn)."""
        return self.player_view(state, seat)

    def sample_unseen(self, seen: S, seat: int, rng: Random) -> S:
        """A whole state `seat` cannot tell from what it knows (`seen_by`): only a game with something hidden
        deals it afresh; with nothing hidden, it is what the seat sees."""
        return seen

    def evaluate(self, state: S) -> Sequence[float]:
        """Each seat's standing, in points, for the computer players: by default each player's `total` in the
        score."""
        return tuple(player["total"] for player in self.score_state(state).to_json()["players"])

    def winners(self, state: S) -> Sequence[int]:
        """Who won a finished game: the score's `winners` (or its one `winner`); nobody named: everyone."""
        score = self.score_state(state)
        winners = getattr(score, "winners", None)
        if winners is None:
            winner = getattr(score, "winner", None)
            winners = () if winner is None else (winner,)
        return winners or range(self.players(state))

    @speaks
    def score_text(self, score: Documented, warnings: Sequence[Problem] = (), language: str = DEFAULT) -> list[str]:
        """A score for people, line by line in `language` (what the command line prints): by default each
        player's `total` points (where the score gives one), who wins, and the warnings."""
        document = score.to_json()
        names = [player["name"] for player in document["players"]]
        winners = document.get("winners")
        if winners is None:
            winners = [] if document.get("winner") is None else [document["winner"]]
        points = [tr_n("{name}: {count} point", "{name}: {count} points", p["total"], name=p["name"])
                  for p in document["players"] if "total" in p]
        warned = [tr("warning: {message}", message=warning.message) for warning in warnings]
        return [*("  " + said(line, language) for line in points), said(winners_said(names, winners), language),
                *(said(line, language) for line in warned)]

    def score_options(self, request: Json) -> dict[str, Any]:
        """The options of a /score request that `score_state` and `score_table` take (none by default)."""
        return {}

    def legal_moves_of(self, state: S) -> list[Json]:
        """The legal steps' JSON forms (what /legal-moves lists)."""
        return [step.to_json() for step in self.legal_steps(state)]  # type: ignore[attr-defined]

    # ---------------------------------------------------------------- capabilities (declared in `capabilities`)

    def load_table(self, document: Any) -> Reading[Any]:
        """TABLE: a finished table's JSON form read by the game's schema (its `wire`)."""
        return self.wire.load_table(document)

    def score_table(self, table: Any, **options: Any) -> Documented:
        """TABLE: the score of a table."""
        raise NotImplementedError

    def table_of(self, state: S) -> Any:
        """TABLE: a state's table (what scoring and drawing it need)."""
        raise NotImplementedError

    def draw(self, subject: Any, language: str = DEFAULT, proposal: "Proposal | None" = None) -> str:
        """PICTURE: an SVG picture of a table (TABLE games) or of a state, its words in `language`; with a
        `proposal`, its step drawn faded where it is tried and marked legal or refused (with the rule)."""
        raise NotImplementedError

    def read_notation(self, text: str) -> tuple[Any, list[Problem]]:
        """NOTATION: a table from its notation, with warnings; MalformedError pointing at /notation."""
        raise NotImplementedError

    def write_notation(self, table: Any) -> str:
        """NOTATION: a table in canonical notation."""
        raise NotImplementedError

    @property
    @abstractmethod
    def examples(self) -> dict[str, Json]:
        """Request bodies the contract's examples (openapi.yaml) are made from, by endpoint: "new" always;
        "apply": {"moves": [...]} legal from the state that the "new" example deals; "score", "picture",
        "notation" where the game has them (e.g. a finished table); "validate": a request whose state is
        impossible (to show errors). The API makes every other example from these (service/api/openapi.py)."""

    # ---------------------------------------------------------------- steps, the same for every game

    def as_step(self, step: T | Json, index: int = 0) -> T:
        """A step from its JSON form (a parsed step passes through); problems point from the list (`/index/...`)."""
        if isinstance(step, self.step_type):
            return step  # type: ignore[return-value]
        try:
            return self.parse_step(step)
        except MalformedError as error:
            raise MalformedError([p.under(f"/{index}") for p in error.problems]) from None

    def apply_steps(self, state: S, steps: Iterable[T | Json], *, keep_states: bool = False) -> Outcome[S]:
        """Apply steps in order, stopping at the first illegal one. Malformed steps raise MalformedError (pointers
        from the list) before anything is applied. Every event is placed at the index of the step that made it."""
        parsed = [self.as_step(step, i) for i, step in enumerate(steps)]
        apply_step = self.apply_step
        events: list[Event] = []
        states: list[S] = []
        for index, step in enumerate(parsed):
            try:
                state, happened = apply_step(state, step)
            except IllegalStepError as error:
                return Outcome(False, state, events, [p.under(f"/{index}") for p in error.problems], index, states)
            events.extend(event.at(index) for event in happened)
            if keep_states:
                states.append(state)
        return Outcome(True, state, events, [], None, states)

    def new_game(self, seed: int | str, *, names: Sequence[str] | None = None,
                 variant: Mapping[str, Any] | None = None, **options: Any) -> S:
        """A fresh deal, the variants not named at their defaults."""
        given = variant or {}
        values = {v.name: given.get(v.name, v.default) for v in self.info.variants}
        return self.deal(seed, names=names, variant=values, **options)

    # ---------------------------------------------------------------- the service's questions

    @cached_property
    def catalogues(self) -> Catalogues:
        """The game's message catalogues, in its folder (service.games.core.language)."""
        return Catalogues(Path(sys.modules[type(self).__module__].__file__ or "").parent)

    @speaks
    def rules(self, language: str = DEFAULT) -> list[Json]:
        """The rule catalogue, its words in `language`."""
        return [rule.to_json(self.catalogues, language) for rule in self.rule_book]

    def new(self, request: Json) -> Json:
        """{"state", "seed"}: a fresh deal for request["seed"] (always given: the API picks one if the caller did
        not), its `names`, `variant` and the game's `deal_options`."""
        options = {name: request.get(name) for name in self.deal_options}
        state = self.new_game(request["seed"], names=request.get("names"), variant=request.get("variant"),
                              **options)
        return {"state": self.state_json(state), "seed": request["seed"]}

    def reading(self, request: Json, field: str = "state") -> Reading[Any]:
        """The request's `field` ("state" or "table") as its schema read it: the API's view passes what the request
        schema loaded, a library caller may pass the JSON form. Errors point into the request."""
        document = request[field]
        if isinstance(document, Reading):
            return document
        if field == "table" and not self.offers(Capability.TABLE) or field not in ("state", "table"):
            raise MalformedError(Problem(None, "", tr("{game} takes no \"{field}\" document.", game=self.info.title,
                                                      field=field)))
        try:
            return self.load_state(document) if field == "state" else self.load_table(document)
        except GameError as error:
            raise under(f"/{field}", error) from None

    def read(self, request: Json, field: str = "state") -> Any:
        """The request's "state" (or `field`), read and checked; errors point into the request."""
        return checked(self.reading(request, field), field)

    @speaks
    def validate(self, request: Json, language: str = DEFAULT) -> Json:
        """{"valid", "errors", "warnings"}, their words in `language`; MalformedError for a wrong shape only."""
        reading = self.reading(request)
        return {"valid": not reading.errors,
                "errors": [p.under("/state").to_json(language) for p in reading.errors],
                "warnings": [p.under("/state").to_json(language) for p in reading.warnings]}

    @speaks
    def legal_moves(self, request: Json, language: str = DEFAULT) -> Json:
        """{"to_act", "moves"}, and with `texts` asked, each move in words in `language` (`step_text`)."""
        state = self.read(request)
        if not request.get("texts"):
            return {"to_act": self.to_act(state), "moves": self.legal_moves_of(state)}
        steps, names = self.legal_steps(state), self.player_names(state)  # listed once, said one by one
        return {"to_act": self.to_act(state), "moves": [step.to_json() for step in steps],  # type: ignore[attr-defined]
                "texts": [self.step_text(state, step, names, language) for step in steps]}

    @speaks
    def step_text(self, state: S, step: T, names: Sequence[str], language: str = DEFAULT) -> str:
        """A legal step in words, in `language`: what it would do, in the voice of the events (their sentences,
        one after another), as it can be foreseen (`foreseen`: not what chance brings)."""
        _, events = self.apply_step(state, step)
        return self.foreseen_text(events, names, language)

    def foreseen_text(self, events: Sequence[Event], names: Sequence[str], language: str = DEFAULT) -> str:
        """Events as a legal step foresees them (`foreseen`), their sentences one after another, in `language`."""
        return " ".join(said(self.narrate(self.foreseen(event), names), language) for event in events)

    @speaks
    def apply(self, request: Json, *, replay: bool = False, language: str = DEFAULT) -> Json:
        """{"legal", "state", "events", "violations", "failed_at"} (+ "states", "score" with replay), their words
        in `language`; with a `player`, the events as that player is told them (`told`)."""
        state = self.read(request)
        try:
            steps = [self.as_step(move, i) for i, move in enumerate(request["moves"])]
        except GameError as error:
            raise under("/moves", error) from None
        seat = None if request.get("player") is None else self._seat_of(state, request["player"])
        outcome = self.apply_steps(state, steps, keep_states=replay)
        names = self.player_names(state)  # names never change in a game
        events = outcome.events if seat is None else [self.told(event, seat) for event in outcome.events]
        answer: dict[str, Any] = {
            "legal": outcome.legal,
            "state": self.state_json(outcome.state),
            "events": [narrated(event, self.narrate, names, language) for event in events],
            "violations": [p.under("/moves").to_json(language) for p in outcome.violations],
            "failed_at": outcome.failed_at,
        }
        if replay:
            answer["states"] = [self.state_json(s) for s in outcome.states]
            answer["score"] = {**self.score_state(outcome.state).to_json(), "warnings": []}
        return answer

    @speaks
    def score(self, request: Json, language: str = DEFAULT) -> Json:
        """The breakdown of {"state"}, or of {"table"} or {"notation"} where the game reads them, with warnings
        (their words in `language`)."""
        options = self.score_options(request)
        if "notation" in request and self.offers(Capability.NOTATION):
            # problems already point at /notation, with line and column in the message
            table, warnings = self.read_notation(request["notation"])
            return {**self.score_table(table, **options).to_json(), "warnings": [p.to_json(language) for p in warnings]}
        field = "table" if "table" in request else "state"
        score: Callable[[Any], Documented] = (
            (lambda table: self.score_table(table, **options)) if field == "table"
            else (lambda state: self.score_state(state, **options)))
        reading = self.reading(request, field)
        result = score(checked(reading, field))
        return {**result.to_json(), "warnings": [p.under(f"/{field}").to_json(language) for p in reading.warnings]}

    def view(self, request: Json) -> Json:
        """{"state"} as request["player"] may see it."""
        state = self.read(request)
        return {"state": self.state_json(self.player_view(state, self._seat_of(state, request["player"])))}

    def _seat_of(self, state: S, player: Any) -> int:
        """`player` of a request (/view, or the events told to a player), checked against the state's players."""
        players = self.players(state)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
            raise MalformedError(Problem(None, "/player", tr("\"player\" is a player of this game: 0 to {last}.",
                                                             last=players - 1)))
        return player

    def table_of_request(self, request: Json) -> Any:
        """What a picture or the notation shows of a request: for a TABLE game, the table of its {"notation"},
        {"table"} or {"state"}; for any other, its state; checked (errors point into the request)."""
        if not self.offers(Capability.TABLE):
            return self.read(request)
        if "notation" in request and self.offers(Capability.NOTATION):
            return self.read_notation(request["notation"])[0]
        if "table" in request:
            return self.read(request, "table")
        return self.table_of(self.read(request))

    @speaks
    def picture(self, request: Json, language: str = DEFAULT) -> str:
        """PICTURE: the SVG of what the request shows, its words in `language` (`draw`'s text describes the
        endpoint); with `moves`, the step they propose drawn on the position it is tried from (`proposal`)."""
        if request.get("moves"):
            before, proposal = self.proposal(request)
            return self.draw(self.table_of(before) if self.offers(Capability.TABLE) else before, language, proposal)
        return self.draw(self.table_of_request(request), language)

    def proposal(self, request: Json) -> tuple[S, "Proposal"]:
        """The position a request's `moves` propose a step on, and that step: the last move when all are legal,
        else the first the rules refuse (as /apply stops there), with its violations; errors point into the
        request."""
        if "state" not in request:
            raise MalformedError(Problem(None, "/moves", tr("Moves are tried on a state: send the state with them.")))
        state = self.read(request)
        try:
            steps = [self.as_step(move, i) for i, move in enumerate(request["moves"])]
        except GameError as error:
            raise under("/moves", error) from None
        outcome = self.apply_steps(state, steps, keep_states=True)
        names = self.player_names(state)
        if outcome.legal:
            index = len(steps) - 1
            before = outcome.states[-2] if index else state
            said = tuple(self.narrate(event, names) for event in outcome.events if event.get("step") == index)
            return before, Proposal(steps[index], index, True, (), said, self.to_act(before))
        index = outcome.failed_at or 0
        return outcome.state, Proposal(steps[index], index, False, tuple(outcome.violations), (),
                                       self.to_act(outcome.state))

    def notation(self, request: Json) -> Json:
        """NOTATION: {"notation"}: the table of a {"state"} or {"table"} request in canonical notation."""
        return {"notation": self.write_notation(self.table_of_request(request))}

    def suggest(self, request: Json, *, ceiling_ms: float | None = None) -> Json:
        """A computer player's steps for the seat to act (players.py): `level` random, greedy or mcts (the
        default), `seed`, and a budget of `playouts` or `budget_ms` (wall clock), none past `ceiling_ms`."""
        from .players import Budget, figures, suggest

        state = self.read(request)
        playouts, budget_ms = request.get("playouts"), request.get("budget_ms")
        budget = Budget(playouts=playouts, seconds=None if budget_ms is None else budget_ms / 1000,
                        ceiling=None if ceiling_ms is None else ceiling_ms / 1000)
        found = suggest(self, state, level=request.get("level", "mcts"), seed=request.get("seed", 0), budget=budget)
        return {
            "player": found.player, "level": found.level, "seed": request.get("seed", 0),
            "moves": [step.to_json() for step in found.steps],
            "expected": figures(found.best),
            "alternatives": [{"move": a.step.to_json(), **figures(a)} for a in found.alternatives],
            "playouts": found.playouts, "elapsed_ms": round(found.elapsed_ms, 3), "complete": found.complete,
        }


__all__ = ["Capability", "Documented", "Game", "GameInfo", "Json", "Outcome", "Proposal", "Reading", "Variant",
           "checked", "under"]
