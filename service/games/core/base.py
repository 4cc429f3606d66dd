"""What every game offers the service: JSON documents in, JSON documents out, GameError on bad input.

The HTTP layer knows games only through this interface, so a new game is a new folder (its request and answer
schemas, the wire contract, in its own `schemas.py`) plus one line in `service.games.registry`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    description: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    variants: tuple[Variant, ...] = field(default=())


class Game(Protocol):
    """A game as the service serves it (its adapter, `service/games/<game>/adapter.py`, built on the game's
    library): each call takes a request as the endpoint's schema loaded it (a state or a table already built into
    the game's model, a `Reading`; the moves as the game's steps; the JSON form works too, for a caller without the
    schemas) and gives the answer's JSON form; GameError for what the request gets wrong.

    Besides these, an adapter may offer `picture(request) -> str` (SVG; its docstring describes the endpoint) and
    `notation(request) -> Json`, and `suggest(request, *, ceiling_ms) -> Json` (a computer player's steps:
    `core.adapter.StateGame` gives it from the library's `sample_unseen` and `standing`); the API adds those
    endpoints for the games that have them. An adapter may also
    name `referee_assets`: the folder inside its package holding its editor for the referee page (`editor.js`, an
    ES module, and optionally `editor.css`), served under /referee/<game>/."""

    info: GameInfo
    schemas: ModuleType
    """The game's wire schemas (service/games/<game>/schemas.py): `<PREFIX>NewRequestSchema`,
    `<PREFIX>StateRequestSchema`, … and their answers, found by role (service.games.core.schemas.wire_schema)."""
    examples: dict[str, Json]
    """Request bodies the contract's examples (openapi.yaml) are made from, by endpoint: "new" always; "apply":
    {"moves": [...]} legal from the state that the "new" example deals; "score", "picture", "notation" where the
    game has them (e.g. a finished table); "validate": a request whose state is impossible (to show errors).
    The API makes every other example from these (service/api/openapi.py): legal-moves, replay and view of the
    dealt state, an illegal apply (a listed move made twice) and a malformed one, legal-moves of the impossible
    state; without "score", the dealt state is scored."""

    def rules(self) -> list[Json]:
        """The rule catalogue: id, section, title, text, ruling."""

    def new(self, request: Json) -> Json:
        """{"state", "seed"}: a fresh deal for request["seed"] (always given: the API picks one if the caller
        did not)."""

    def validate(self, request: Json) -> Json:
        """{"valid", "errors", "warnings"}; raises MalformedError for a wrong shape only."""

    def legal_moves(self, request: Json) -> Json:
        """{"to_act", "moves"}."""

    def apply(self, request: Json, *, replay: bool = False) -> Json:
        """{"legal", "state", "events", "violations", "failed_at"} (+ "states", "score" with replay)."""

    def score(self, request: Json) -> Json:
        """The breakdown of {"state"} or {"table"}, with warnings."""

    def view(self, request: Json) -> Json:
        """{"state"} as request["player"] may see it."""
