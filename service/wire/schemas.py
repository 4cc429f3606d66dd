"""The building blocks of every game's wire schemas, where each game's JSON is described once:
- fields: bounded lists, strict booleans, a list or `{"count": n, …}`, the move union (which reads a move straight
  into the game's step, and so is the library's `parse_step` too: `step_reader`);
- a whole document (a state, a table) that loads straight into the game's model (`BuiltSchema`, giving a
  `Reading`), and the library's readings through the same schemas (`state_readers`, `table_readers`);
- the requests and answers every game has, made in its own types (/new, the state requests, validate, legal moves,
  apply, replay, picture, a score's winner and warnings, the spec's named components);
- marshmallow's error messages as problems with JSON pointers."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping

from marshmallow import Schema, ValidationError, fields, missing, post_load, validate, validates_schema

from ..games.core.errors import MalformedError, Problem
from ..games.core.language import Listed
from ..games.core.reading import Reading
from .messages import tr, translatable
from .strict import Decline, List, Reader, StrictBoolean, StrictSchema, compile_field, loader_of  # noqa: F401 (StrictBoolean: for the games)

class MoveUnion(fields.Field):
    """One move: an object whose `type` selects its shape among a game's `move_schemas` (type -> schema class). The
    spec shows it as a oneOf of those schemas' components. A game's field loads a move straight into its step value
    with `to_step` (the loaded fields -> a Step; ValidationError for what one field's schema cannot see), so the
    library's `parse_step` (`step_reader`) and the API read a move the same way."""

    move_schemas: ClassVar[dict[str, type[Schema]]] = {}
    to_step: ClassVar[Callable[[dict], Any] | None] = None  # a staticmethod in the game's field
    component: ClassVar[str] = ""  # the union's name in the spec, `<Game>Move`: every move field refers to it

    @classmethod
    def spec_component(cls) -> dict[str, Any]:
        """The union as a named JSON Schema: a oneOf of the move schemas (openapi.py adds the discriminator)."""
        return {"description": " ".join((cls.__doc__ or "").split()),
                "oneOf": [{"$ref": f"#/components/schemas/{component_name(schema)}"}
                          for schema in cls.move_schemas.values()]}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ValidationError(tr("A move is an object with a \"type\"."))
        kind = value.get("type")
        if not isinstance(kind, str) or kind not in self.move_schemas:
            raise ValidationError({"type": [tr("Must be one of {kinds}.", kinds=", ".join(self.move_schemas))]})
        loaded = self._loader(kind).load(value)
        return loaded if self.to_step is None else self.to_step(loaded)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value

    def compiled_reader(self) -> Reader | None:
        """`deserialize` compiled (strict.py): the move's type picks its schema's compiled loader."""
        loaders = {kind: loader_of(self._loader(kind)) for kind in self.move_schemas}
        if any(load is None for load in loaders.values()):
            return None
        to_step = self.to_step

        def read(value: Any) -> Any:
            kind = value.get("type") if type(value) is dict else None
            load = loaders.get(kind) if type(kind) is str else None
            if load is None:
                raise Decline
            loaded = load(value)
            if to_step is None:
                return loaded
            try:
                return to_step(loaded)
            except ValidationError:
                raise Decline from None
        return read

    @classmethod
    def _loader(cls, kind: str) -> Schema:
        """One instance per move type, reused (building a Schema per move was most of a /replay's parsing)."""
        loaders = cls.__dict__.get("_loaders")
        if loaders is None:
            loaders = {}
            cls._loaders = loaders
        loader = loaders.get(kind)
        if loader is None:
            loader = loaders[kind] = cls.move_schemas[kind]()
        return loader


class ListOrCounted(fields.Field):
    """A list of items (cards, tiles), or `{"count": n, …}` when some or all of them are unknown to the caller: the
    list read by `items`, the object by the `counted` schema. The spec shows a oneOf of the list (`items_json`) and
    the counted object (`counted_json`; by default a reference to the `counted` schema's component)."""

    def __init__(self, items: fields.List, items_json: dict, counted: type[Schema], error: str,
                 counted_json: dict | None = None, **kwargs: Any) -> None:
        self.items, self.counted, self.error = items, counted, error
        self._counted_instance: Schema | None = None
        self.counted_by_name = counted_json is None  # the spec registers the component (openapi.py)
        if counted_json is None:
            counted_json = {"$ref": f"#/components/schemas/{component_name(counted)}"}
        super().__init__(metadata={"oneOf": [items_json, counted_json], **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            return self.items.deserialize(value)
        if isinstance(value, dict):
            return self._counted_schema().load(value)
        raise ValidationError(self.error)

    def compiled_reader(self) -> Reader | None:
        """`deserialize` compiled (strict.py): the list's reader, or the counted schema's compiled loader."""
        items, counted = compile_field(self.items), loader_of(self._counted_schema())
        if counted is None:
            return None

        def read(value: Any) -> Any:
            if type(value) is list:
                return items(value)
            if type(value) is dict:
                return counted(value)
            raise Decline
        return read

    def _counted_schema(self) -> Schema:
        # One instance, made on first use: building a Schema deep-copies its fields (far dearer than a load).
        if self._counted_instance is None:
            self._counted_instance = self.counted()
        return self._counted_instance

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class BuiltSchema(StrictSchema):
    """A whole document (a state, a table) that loads straight into the game's model: once every field has the
    right shape, the game's `build` (a staticmethod: the loaded fields -> a Reading) makes the model objects and
    checks the rules of a position, which a schema cannot say."""

    build: ClassVar[Callable[[dict], Reading]]

    @post_load
    def _built(self, data: dict, **kwargs: Any) -> Reading:
        return self.build(data)


def document_reader(schema: type[Schema]) -> Callable[[Any], Reading]:
    """A game library's `load_state` or `load_table`: a document's JSON form read by the same schema as the API's
    (so the library and the API cannot disagree) into a Reading. A wrong shape raises MalformedError (every problem,
    pointers from the document)."""
    loader = schema()

    def read(data: Any) -> Reading:
        if not isinstance(data, dict):
            raise MalformedError(Problem(None, "", tr("Must be an object.")))
        try:
            return loader.load(data)
        except ValidationError as error:
            raise MalformedError(problems_from_messages(error.messages)) from None

    return read


class ExactlyOneOfSchema(StrictSchema):
    """A request that carries exactly one of the fields named in `exactly_one`. Loading checks it (one clear 400);
    the spec shows the request as a oneOf of named alternatives (`alternatives()`), one per field, each with that
    field required and the others absent: exact for validators, and a model per alternative for generated
    clients."""

    exactly_one: tuple[str, ...] = ()

    def load(self, data, *args, **kwargs):  # type: ignore[override]
        loaded = super().load(data, *args, **kwargs)
        if sum(name in loaded for name in self.exactly_one) != 1:
            quoted = Listed((f'"{name}"' for name in self.exactly_one), "or")
            raise ValidationError({"": [tr("Send exactly one of {fields}.", fields=quoted)]})
        return loaded

    @classmethod
    def alternatives(cls) -> dict[str, type[Schema]]:
        """Component name -> schema of each alternative: `<Game>ScoreRequest` gives `<Game>ScoreStateRequest`,
        `<Game>ScoreTableRequest`, … (spec only: loading goes through this schema)."""
        made = cls.__dict__.get("_alternatives")
        if made is None:
            stem = cls.__name__.removesuffix("Schema").removesuffix("Request")
            made = {}
            for chosen in cls.exactly_one:
                declared: dict[str, Any] = {}
                for name, field in cls._declared_fields.items():
                    if name in cls.exactly_one and name != chosen:
                        continue
                    declared[name] = copy.deepcopy(field)
                    if name == chosen:
                        declared[name].required = True
                title = "".join(part.title() for part in chosen.split("_"))
                doc = f"The form of {stem}Request that sends `{chosen}`."
                made[f"{stem}{title}Request"] = type(f"{stem}{title}RequestSchema", (StrictSchema,),
                                                     {"__doc__": doc, **declared})
            cls._alternatives = made
        return made


class SeededRequestSchema(StrictSchema):
    """A /new request: its optional `seed` is an integer or a text of at most 200 characters (a game declares the
    field with its own description)."""

    def load(self, data, *args, **kwargs):  # type: ignore[override]
        loaded = super().load(data, *args, **kwargs)
        seed = loaded.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))
                                 or (isinstance(seed, str) and len(seed) > 200)
                                 or (isinstance(seed, int) and abs(seed) > 2 ** 63)):
            raise ValidationError({"seed": [tr("Must be an integer or a text of at most 200 characters.")]})
        return loaded


class TypedUnion:
    """A schema that the spec shows as a oneOf of named schemas, one per `type` (`kinds`: type -> schema), so that
    generated clients get a union discriminated on `type` (openapi.py adds the discriminator) and check each kind's
    fields. The kinds are the documentation; a schema that also loads (Torri's pending decision) loads as it
    declares, and its kinds say exactly what it accepts of each type."""

    kinds: ClassVar[dict[str, type[Schema]]] = {}

    @classmethod
    def alternatives(cls) -> dict[str, type[Schema]]:
        return {component_name(schema): schema for schema in cls.kinds.values()}


class EventSchema(StrictSchema):
    """What every event carries: its `type`, the `step` that caused it and its `text`, the event in words (each kind
    adds its facts)."""

    step = fields.Integer(required=True, metadata={"description": "The index of the move that caused it."})
    text = fields.String(required=True, metadata={
        "description": "What happened, in one sentence a referee can read out at the table (who did what, what it "
                       "scored); the same words for every client, written by the service in English."})


class EventUnion(TypedUnion, StrictSchema):
    """A game's events: a union of its event kinds (`event_kinds`), told apart by `type`."""


def event_kinds(game: str, described: dict[str, tuple[str, dict[str, fields.Field]]]) -> dict[str, type[Schema]]:
    """A game's event schemas, `<Game><Kind>Event`, from {type: (what it means, its facts)}: every fact is always
    given but those wrapped in `sometimes`; the facts come after `type` and `step`, in the order given (`text`, the
    event in words, comes with `step` from EventSchema)."""
    made: dict[str, type[Schema]] = {}
    for kind, (doc, facts) in described.items():
        title = "".join(part.title() for part in kind.split("_"))
        declared: dict[str, Any] = {"type": fields.String(required=True, validate=validate.Equal(kind),
                                                          metadata={"description": f"Always \"{kind}\"."})}
        declared["step"] = copy.deepcopy(EventSchema._declared_fields["step"])
        for name, field in facts.items():
            field.required = not getattr(field, "given_sometimes", False)
            declared[name] = field
        made[kind] = type(f"{game}{title}EventSchema", (EventSchema,), {"__doc__": doc, **declared})
    return made


MOVE_TYPE_TEXT = "Always \"{kind}\": the kind of move."


def move_schema(game: str, kind: str, doc: str, /, *, type_text: str = MOVE_TYPE_TEXT,
                descriptions: Mapping[str, str] | None = None, **declared: fields.Field) -> type[Schema]:
    """One kind of a game's moves, `<Game><Kind>MoveSchema`: its `type` (described by `type_text`), then its
    fields in the order given, each described by the game's `descriptions` of move fields unless it says itself
    what it means."""
    ordered = {"type": fields.String(required=True, validate=validate.Equal(kind),
                                     metadata={"description": type_text.format(kind=kind)}), **declared}
    for name, field in ordered.items():
        if descriptions and name in descriptions:
            field.metadata.setdefault("description", descriptions[name])
    title = "".join(part.title() for part in kind.split("_"))
    return type(f"{game}{title}MoveSchema", (StrictSchema,), {"__doc__": doc, **ordered})


def move_union(game: str, title: str, kinds: Mapping[str, type[Schema]],
               to_step: Callable[[dict], Any]) -> type[MoveUnion]:
    """A game's move field, `<Game>Move` in the spec: a union of its move `kinds` read straight into a step by
    `to_step` (the loaded fields -> a Step; ValidationError for what one kind's schema cannot see)."""
    return type(f"{game}Move", (MoveUnion,), {
        "__doc__": f"A {title} move: an object whose `type` selects its shape (read into a Step).",
        "move_schemas": dict(kinds), "component": f"{game}Move", "to_step": staticmethod(to_step)})


EVENTS_TEXT = ("What happened, for animation and for the record: one of the kinds below, told apart by `type`; `step` "
               "is the index of the move that caused it.")


def sometimes(field: fields.Field) -> fields.Field:
    """An event fact given only sometimes (its description says when)."""
    field.given_sometimes = True  # type: ignore[attr-defined]
    return field


def picture_response_schema(game: str) -> type[Schema]:
    """`<Game>PictureResponseSchema`: /picture's answer for a client that asks for application/json."""
    return type(f"{game}PictureResponseSchema", (StrictSchema,), {
        "__doc__": "The picture inside JSON, for a client that asks for application/json.",
        "svg": fields.String(required=True, metadata={"description": "An SVG document (image/svg+xml)."}),
    })


class ProblemDetailSchema(StrictSchema):
    rule = fields.String(allow_none=True, metadata={"description": "The rule id broken (see /rules), or null "
                                                                   "for a malformed document."})
    pointer = fields.String(required=True, metadata={"description": "JSON pointer into the request body."})
    message = fields.String(required=True, metadata={"description": "One plain sentence a referee can read out."})


def validate_response_schema(game: str) -> type[Schema]:
    """`<Game>ValidateResponseSchema`: /validate's answer."""
    return type(f"{game}ValidateResponseSchema", (StrictSchema,), {
        "valid": fields.Boolean(required=True, metadata={"description": "True when the state breaks no rule."}),
        "errors": List(fields.Nested(ProblemDetailSchema), required=True,
                       metadata={"description": "Every rule the state breaks, each with a pointer into the request."}),
        "warnings": List(fields.Nested(ProblemDetailSchema), required=True,
                         metadata={"description": "What looks unlikely but breaks no rule."}),
    })


def legal_moves_response_schema(game: str, move: fields.Field, *,
                                to_act: str = "Whose turn it is; null once the game is over.",
                                moves: str = "Every legal next move, each ready to post to /apply; empty once the "
                                             "game is over.") -> type[Schema]:
    """`<Game>LegalMovesResponseSchema`: /legal-moves' answer; `move` is the game's move field (a union by type)."""
    return type(f"{game}LegalMovesResponseSchema", (StrictSchema,), {
        "to_act": fields.Integer(required=True, allow_none=True, metadata={"description": to_act}),
        "moves": List(move, required=True, metadata={"description": moves}),
        "texts": List(fields.String(), metadata={"description": TEXTS_ANSWER}),
    })


TEXTS_ASKED = ("Also say each legal move in words (`texts` in the answer), as the events of /apply say what "
               "happened, in the language chosen.")
TEXTS_ANSWER = ("With `texts` asked: each move of `moves`, in the same order, in words: what it would do (its "
                "events' `text`), as it can be foreseen (what chance brings, a card drawn face down or turned up, is "
                "not named), in the answer's language.")


def legal_moves_request_schema(game: str, state_request: type[Schema]) -> type[Schema]:
    """`<Game>LegalMovesRequestSchema`: the state, and whether to say each move in words."""
    return type(f"{game}LegalMovesRequestSchema", (state_request,), {
        "texts": StrictBoolean(load_default=False, metadata={"description": TEXTS_ASKED})})


def apply_response_schema(game: str, state: type[Schema], event: type[Schema]) -> type[Schema]:
    """`<Game>ApplyResponseSchema`: /apply's answer, with the game's state and event schemas."""
    return type(f"{game}ApplyResponseSchema", (StrictSchema,), {
        "legal": fields.Boolean(required=True, metadata={"description": "True when every move was legal."}),
        "state": fields.Nested(answer_form(state), required=True,
                               metadata={"description": "After the last legal move."}),
        "events": List(fields.Nested(event), required=True,
                       metadata={"description": "What the legal moves made happen, in order."}),
        "violations": List(fields.Nested(ProblemDetailSchema), required=True,
                           metadata={"description": "The rules the first illegal move breaks; empty when all are "
                                                    "legal."}),
        "failed_at": fields.Integer(required=True, allow_none=True,
                                    metadata={"description": "The index of the first illegal move, or null."}),
    })


def replay_response_schema(game: str, apply: type[Schema], state: type[Schema], score: type[Schema]) -> type[Schema]:
    """`<Game>ReplayResponseSchema`: /replay's answer, /apply's (`apply`) plus every state and the final score."""
    return type(f"{game}ReplayResponseSchema", (apply,), {
        "states": List(fields.Nested(answer_form(state)), required=True,
                       metadata={"description": "The state after each applied move."}),
        "score": fields.Nested(score, required=True,
                               metadata={"description": "The score of the state after the last legal move."}),
    })


def new_request_schema(game: str, variant: type[Schema], *, seed_text: str, variant_text: str, names: fields.Field,
                       **more: fields.Field) -> type[Schema]:
    """`<Game>NewRequestSchema`: /new's request, an optional `seed` (described by `seed_text`), the `variant` and
    the players' `names`, and `more` fields that the game deals from."""
    return type(f"{game}NewRequestSchema", (SeededRequestSchema,), {
        "seed": fields.Raw(metadata={"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 200}],
                                     "description": seed_text}),
        "variant": fields.Nested(variant, metadata={"description": variant_text}),
        "names": names, **more})


TOLD_TEXT = ("Tell the events as this player (0-based) is told them at the table: what the others do face down "
             "(a card drawn from the deck) is not named. The states in the answer stay whole: /view gives what "
             "the player sees of them.")


def state_request_schemas(game: str, state: type[Schema], move: type[MoveUnion], *, max_moves: int,
                          player: fields.Field, state_text: str = "The position.",
                          moves_text: str = "The moves to apply, in order, from the position.",
                          ) -> tuple[type[Schema], type[Schema], type[Schema]]:
    """`<Game>StateRequestSchema` ({"state"}: /validate, /legal-moves), `<Game>ViewRequestSchema` (and the `player`
    who looks) and `<Game>MovesRequestSchema` (and the `moves` to apply: /apply, /replay)."""
    state_request = type(f"{game}StateRequestSchema", (StrictSchema,), {
        "state": fields.Nested(state, required=True, metadata={"description": state_text})})
    view_request = type(f"{game}ViewRequestSchema", (state_request,), {"player": player})
    moves_request = type(f"{game}MovesRequestSchema", (state_request,), {
        "moves": List(move(), required=True, validate=validate.Length(max=max_moves),
                      metadata={"description": moves_text}),
        "player": fields.Integer(strict=True, validate=validate.Range(min=0), metadata={"description": TOLD_TEXT})})
    return state_request, view_request, moves_request


LEVELS = ("random", "greedy", "mcts")  # the computer players' levels (players.py)
MAX_PLAYOUTS = 100_000  # a playout budget's bound; the time ceiling (SUGGEST_MAX_BUDGET_MS) bounds its cost
MAX_BUDGET_MS = 60_000  # a wall-clock budget's bound; the service caps it lower (SUGGEST_MAX_BUDGET_MS)


def _valid_seed(seed: Any) -> bool:
    return not isinstance(seed, bool) and (isinstance(seed, int) and abs(seed) <= 2 ** 63
                                           or isinstance(seed, str) and len(seed) <= 200)


class SuggestRequestBase(StrictSchema):
    """A /suggest request's checks across fields: a seed as /new takes it, and at most one budget."""

    @validates_schema
    def _one_budget(self, data: dict, **kwargs: Any) -> None:
        if "seed" in data and not _valid_seed(data["seed"]):
            raise ValidationError({"seed": [tr("Must be an integer or a text of at most 200 characters.")]})
        if "playouts" in data and "budget_ms" in data:
            raise ValidationError({"playouts": [tr("Give a budget of playouts or of budget_ms, not both.")]})


def suggest_schemas(game: str, state: type[Schema], move: type[MoveUnion]) -> tuple[type[Schema], type[Schema]]:
    """`<Game>SuggestRequestSchema` and `<Game>SuggestResponseSchema`: a computer player's steps for the seat to
    act (/suggest), with the game's state schema and move union."""
    def figures(what: str) -> dict[str, fields.Field]:
        return {
            "win_chance": fields.Float(required=True, allow_none=True, metadata={
                "description": f"The player's chance of winning as the search sees it: its share of the wins of "
                               f"the playouts through {what}, a playout cut short judged on points (mcts); null for "
                               "the other levels."}),
            "margin": fields.Float(required=True, allow_none=True, metadata={
                "description": f"The points ahead of the best opponent {what} leads to: at the end of the playouts "
                               "(mcts, their mean), or just after the step (greedy); null for random."}),
            "playouts": fields.Integer(required=True, metadata={"description": f"The playouts through {what}."}),
        }
    appraisal = type(f"{game}AppraisalSchema", (StrictSchema,), {
        "__doc__": "What the search thinks of one first step.", **figures("the step")})
    alternative = type(f"{game}AlternativeSchema", (appraisal,), {
        "__doc__": "A first step the search ranked below the one suggested, and what it thinks of it.",
        "move": move(required=True, metadata={"description": "The first step."})})
    request = type(f"{game}SuggestRequestSchema", (SuggestRequestBase,), {
        "__doc__": "The position, and how hard to think: a level and a budget (`playouts`, reproducible and "
                   "cached, or `budget_ms` of wall clock; neither: the service's default wall-clock budget).",
        "state": fields.Nested(state, required=True, metadata={"description": "The position; the player to act "
                                                                              "is advised."}),
        "level": fields.String(validate=validate.OneOf(LEVELS), metadata={
            "description": "random: a legal step at random; greedy: the step that puts the player furthest ahead "
                           "on points right after it; mcts (the default): information-set Monte Carlo tree "
                           "search."}),
        "seed": fields.Raw(metadata={"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 200}],
                                     "description": "Seeds every random choice (the deals of what the player "
                                                    "cannot see, the playouts); without it the service picks one "
                                                    "and returns it."}),
        "playouts": fields.Integer(strict=True, validate=validate.Range(1, MAX_PLAYOUTS), metadata={
            "description": "Search for this many playouts: the same request gives the same answer (cached). The "
                           "service's time ceiling still applies (then `complete` is false)."}),
        "budget_ms": fields.Integer(strict=True, validate=validate.Range(1, MAX_BUDGET_MS), metadata={
            "description": "Search for this long (wall clock), at most the service's ceiling."}),
    })
    response = type(f"{game}SuggestResponseSchema", (StrictSchema,), {
        "__doc__": "A computer player's steps and what it thinks of them.",
        "player": fields.Integer(required=True, metadata={"description": "The player advised: the one to act."}),
        "level": fields.String(required=True, validate=validate.OneOf(LEVELS),
                               metadata={"description": "The level that chose."}),
        "seed": fields.Raw(required=True, metadata={"oneOf": [{"type": "integer"}, {"type": "string"}],
                                                    "description": "The seed searched with."}),
        "moves": List(move(), required=True, metadata={
            "description": "The steps suggested, ready to post as {state, moves} to /apply: the player's turn, or "
                           "its steps up to one whose outcome it cannot know (a card drawn face down); then ask "
                           "again."}),
        "expected": fields.Nested(appraisal, required=True, metadata={
            "description": "What the search thinks of the first step."}),
        "alternatives": List(fields.Nested(alternative), required=True, metadata={
            "description": "The next best first steps, best first (up to four)."}),
        "playouts": fields.Integer(required=True, metadata={"description": "The playouts run in all."}),
        "elapsed_ms": fields.Float(required=True, metadata={"description": "How long the search took."}),
        "complete": fields.Boolean(required=True, metadata={
            "description": "False when the time ceiling stopped a playout budget early (the answer is then not "
                           "cached)."}),
    })
    return request, response


def state_response_schemas(game: str, state: type[Schema], *, state_text: str = "The position.",
                           seed_text: str = "The seed dealt from.") -> tuple[type[Schema], type[Schema]]:
    """`<Game>StateResponseSchema` ({"state"}: /view) and `<Game>NewResponseSchema` (and the `seed`: /new)."""
    state_response = type(f"{game}StateResponseSchema", (StrictSchema,), {
        "state": fields.Nested(answer_form(state), required=True, metadata={"description": state_text})})
    new_response = type(f"{game}NewResponseSchema", (state_response,), {
        "seed": fields.Raw(required=True, metadata={"oneOf": [{"type": "integer"}, {"type": "string"}],
                                                    "description": seed_text})})
    return state_response, new_response


def state_readers(state: type[BuiltSchema]) -> tuple[Callable[[Any], Reading], Callable[..., Any],
                                                        Callable[[Any], tuple[list[Problem], list[Problem]]]]:
    """A game library's `load_state` (the Reading), `read_state(data, *, check=True)` (the State; MalformedError,
    or with `check` InvalidStateError) and `validate_state(data)` ((errors, warnings); MalformedError only for a
    wrong shape), all through the state schema the API loads with."""
    load_state = document_reader(state)

    def read_state(data: Any, *, check: bool = True) -> Any:
        reading = load_state(data)
        return reading.value if not check and reading.value is not None else reading.checked()

    def validate_state(data: Any) -> tuple[list[Problem], list[Problem]]:
        reading = load_state(data)
        return list(reading.errors), list(reading.warnings)

    return load_state, read_state, validate_state


def table_readers(table: type[BuiltSchema]) -> tuple[Callable[[Any], Reading], Callable[[Any], tuple[Any, list]]]:
    """A game library's `load_table` (the Reading) and `read_table(data)` ((Table, warnings); MalformedError or
    InvalidStateError), through the table schema the API loads with."""
    load_table = document_reader(table)

    def read_table(data: Any) -> tuple[Any, list[Problem]]:
        reading = load_table(data)
        return reading.checked(), list(reading.warnings)

    return load_table, read_table


def names_field(fewest: int, most: int, text: str) -> List:
    """/new's `names`: the players in turn order, `fewest` to `most` of them (their number is the player count),
    each a text of 1 to 100 characters."""
    return List(fields.String(validate=validate.Length(min=1, max=100)), required=True,
                validate=validate.Length(min=fewest, max=most), metadata={"description": text})


def winner_field(text: str = "The winner, or null when the win is shared.") -> fields.Integer:
    """A /score answer's `winner`: a player, or null."""
    return fields.Integer(required=True, allow_none=True, metadata={"description": text})


def warnings_field(text: str = "What looks unlikely but breaks no rule.") -> List:
    """A /score answer's `warnings`: problems that break no rule."""
    return List(fields.Nested(ProblemDetailSchema), required=True, metadata={"description": text})


def component_name(schema: type[Schema]) -> str:
    """A schema's name in the spec: its class name without "Schema", as the spec's resolver names it."""
    return schema.__name__.removesuffix("Schema")


def components(*schemas: type[Schema] | type[MoveUnion]) -> dict[str, type[Schema] | dict[str, Any]]:
    """A game's `COMPONENTS`: what its spec refers to by name besides the request and answer schemas (the move
    union, `<Game>Move`, and its alternatives; /picture's JSON answer), each schema named as its class without
    "Schema", the move union by its `component` (a JSON Schema)."""
    named: dict[str, type[Schema] | dict[str, Any]] = {}
    for schema in schemas:
        if issubclass(schema, MoveUnion):
            named[schema.component] = schema.spec_component()
        else:
            named[component_name(schema)] = schema
    return named


_ANSWER_FORMS: dict[type[Schema], type[Schema]] = {}


def answer_form(schema: type[Schema]) -> type[Schema]:
    """`<Name>Output`: `schema`'s document as answers give it. A request may leave a field out (its absence has a
    meaning, said in its description); an answer always writes every field but those the schema names in
    `answer_may_omit`, so here those fields are required, and nested documents are in their answer forms too. A
    client generated from the spec then reads an answer's state without checking for absent fields, and sends it
    back as a request's (the answer form fits the request's). Documentation only: answers are never loaded."""
    made = _ANSWER_FORMS.get(schema)
    if made is not None:
        return made
    name = f"{component_name(schema)}OutputSchema"
    doc = " ".join((schema.__doc__ or "").split())
    if issubclass(schema, TypedUnion):
        made = type(name, (TypedUnion, StrictSchema), {
            "__doc__": doc, "kinds": {kind: answer_form(each) for kind, each in schema.kinds.items()}})
    else:
        omitted = set(getattr(schema, "answer_may_omit", ()))
        declared = {field_name: _answer_field(field, field_name not in omitted)
                    for field_name, field in schema._declared_fields.items()}
        names = sorted(omitted)
        but = f" but {' and '.join(filter(None, [', '.join(names[:-1]), names[-1]]))}" if names else ""
        said = f" An answer always gives every field{but}."
        made = type(name, (StrictSchema,), {"__doc__": (doc + said).strip(), **declared})
    _ANSWER_FORMS[schema] = made
    return made


def _answer_field(field: fields.Field, always: bool) -> fields.Field:
    field = _copied(field)
    if always:
        field.required = True
        field.load_default = missing
        field.metadata = {key: value for key, value in field.metadata.items() if key != "default"}
    _nested_in_answer_form(field)
    return field


def _copied(field: fields.Field) -> fields.Field:
    """A copy of `field` that can be changed without changing it (marshmallow's deepcopy of a field is shallow)."""
    made = copy.copy(field)
    made.metadata = dict(field.metadata)
    if isinstance(field, fields.List):
        made.inner = _copied(field.inner)
    return made


def _nested_in_answer_form(field: fields.Field) -> None:
    if isinstance(field, fields.Nested) and isinstance(field.nested, type) and issubclass(field.nested, Schema):
        field.nested = answer_form(field.nested)
    elif isinstance(field, fields.List):
        _nested_in_answer_form(field.inner)
    elif isinstance(field, ListOrCounted) and field.counted_by_name:
        field.counted = answer_form(field.counted)
        listed, _ = field.metadata["oneOf"]
        field.metadata = {**field.metadata,
                          "oneOf": [listed, {"$ref": f"#/components/schemas/{component_name(field.counted)}"}]}


@dataclass(frozen=True)
class Forms:
    """A game's documents on the wire by role ("NewRequest", "StateRequest", "ApplyResponse", …): what the API
    routes each endpoint with and the spec names (`<Game><role>`), derived by `forms` from the game's own
    documents; `components`: what the spec also refers to by name (the move union and its kinds, /picture's JSON
    answer); `events`: the game's event kinds. And the game's readings of a state, a step and a table through
    the same schemas (what `Game.load_state`, `parse_step` and `load_table` give)."""

    name: str
    roles: Mapping[str, type[Schema]]
    components: Mapping[str, Any]
    events: Mapping[str, type[Schema]]
    load_state: Callable[[Any], Reading]
    parse_step: Callable[[Any], Any]
    load_table: Callable[[Any], Reading] | None = None

    def schema(self, role: str) -> type[Schema] | None:
        return self.roles.get(role)


def _state_only(name: str, role: str, state_request: type[Schema], doc: str) -> type[Schema]:
    """A request of just the state (`state_request`'s), described by `doc`: what /score or /picture takes in a
    game that scores and draws states only."""
    return type(f"{name}{role}Schema", (state_request,), {"__doc__": doc})


PROPOSED_TEXT = ("Moves to try from the state (as /apply takes them): the picture shows the position the last of "
                 "them is tried from (or the first the rules refuse), that step drawn faded where it was tried and "
                 "marked legal, or refused with the rule it breaks and why. Only with `state`.")


def _proposing(picture_request: type[Schema], move: type[MoveUnion], max_moves: int) -> type[Schema]:
    """/picture's request with its optional `moves`: a step proposed on the position, drawn as tried."""
    return type(picture_request.__name__, (picture_request,), {
        "__doc__": picture_request.__doc__,
        "moves": List(move(), validate=validate.Length(min=1, max=max_moves),
                      metadata={"description": PROPOSED_TEXT})})


def forms(name: str, *, state: type[Schema], move: type[MoveUnion], events: Mapping[str, type[Schema]],
          score: type[Schema],
          new: Mapping[str, Any], requests: Mapping[str, Any], answers: Mapping[str, Any] | None = None,
          listing: Mapping[str, Any] | None = None, table: type[Schema] | None = None,
          score_request: type[Schema] | str,
          picture_request: type[Schema] | str | None = None,
          notation: tuple[type[Schema], type[Schema]] | None = None) -> Forms:
    """Every request and answer of a game, named `<name><role>`, from its documents: the `state` schema, the
    `move` union, the event kinds (`event_kinds`: `<name>Event` is their union), the `score` answer; `new`, `requests`, `answers` and `listing` are the texts
    and fields of /new's request (`new_request_schema`), of the state requests (`state_request_schemas`), of the
    state answers (`state_response_schemas`) and of /legal-moves' answer (`legal_moves_response_schema`). The
    score and picture requests are the game's own schemas, or a text: then they are the state request so
    described. `notation`: the request and answer of /notation, for a game that writes tables in notation;
    `table`: the schema of a finished table, for a game that scores one sent without a state."""
    event = type(f"{name}EventSchema", (EventUnion,), {"__doc__": EVENTS_TEXT, "kinds": dict(events)})
    state_request, view_request, moves_request = state_request_schemas(name, state, move, **requests)
    state_response, new_response = state_response_schemas(name, state, **(answers or {}))
    apply_response = apply_response_schema(name, state, event)
    suggest_request, suggest_response = suggest_schemas(name, state, move)
    roles: dict[str, type[Schema]] = {
        "NewRequest": new_request_schema(name, **new),
        "StateRequest": state_request, "ViewRequest": view_request, "MovesRequest": moves_request,
        "LegalMovesRequest": legal_moves_request_schema(name, state_request),
        "StateResponse": state_response, "NewResponse": new_response,
        "ValidateResponse": validate_response_schema(name),
        "LegalMovesResponse": legal_moves_response_schema(name, move(), **(listing or {})),
        "ApplyResponse": apply_response,
        "ReplayResponse": replay_response_schema(name, apply_response, state, score),
        "ScoreRequest": (_state_only(name, "ScoreRequest", state_request, score_request)
                         if isinstance(score_request, str) else score_request),
        "ScoreResponse": score,
        "SuggestRequest": suggest_request, "SuggestResponse": suggest_response,
    }
    named: list[type[Schema] | type[MoveUnion]] = [move, *move.move_schemas.values()]
    if picture_request is not None:
        drawn = (_state_only(name, "PictureRequest", state_request, picture_request)
                 if isinstance(picture_request, str) else picture_request)
        roles["PictureRequest"] = _proposing(drawn, move, requests["max_moves"])
        roles["PictureResponse"] = picture_response_schema(name)
        named.append(roles["PictureResponse"])
    if notation is not None:
        roles["NotationRequest"], roles["NotationResponse"] = notation
    return Forms(name, roles, components(*named), dict(events), document_reader(state), step_reader(move),
                 None if table is None else document_reader(table))


def step_reader(move: type[MoveUnion]) -> Callable[[Any], Any]:
    """A game's `parse_step`: a move's JSON form read by the game's move field, into its step value; every problem
    with the move's shape at once (MalformedError, pointers from the move)."""
    field = move()

    def parse_step(data: Any) -> Any:
        try:
            return field.deserialize(data)
        except ValidationError as error:
            raise MalformedError(problems_from_messages(error.messages)) from None

    return parse_step


UNKNOWN = "Unknown field."


def problems_from_messages(messages: Any, prefix: str = "") -> list[Problem]:
    """marshmallow's nested error messages as problems with JSON pointers (rule None: a malformed document)."""
    out: list[Problem] = []
    if isinstance(messages, dict):
        # marshmallow finds unknown fields through a set, so their order would change from process to process:
        # they come after the fields' own errors (as marshmallow puts them), sorted
        unknown = sorted((item for item in messages.items() if item[1] == [UNKNOWN]), key=lambda item: str(item[0]))
        known = [item for item in messages.items() if item[1] != [UNKNOWN]]
        for key, value in known + unknown:
            if key in ("_schema", ""):
                out.extend(problems_from_messages(value, prefix))
            else:
                escaped = str(key).replace("~", "~0").replace("/", "~1")
                out.extend(problems_from_messages(value, f"{prefix}/{escaped}"))
    elif isinstance(messages, (list, tuple)):
        for item in messages:
            if isinstance(item, (dict, list, tuple)):
                out.extend(problems_from_messages(item, prefix))
            else:
                out.append(Problem(None, prefix, translatable(item if isinstance(item, str) else str(item))))
    else:
        out.append(Problem(None, prefix, translatable(messages if isinstance(messages, str) else str(messages))))
    return out
