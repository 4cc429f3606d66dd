"""Request and response schemas of Campanile (api.md adapted: 2 to 5 players, the Campanile state and moves of
service/games/campanile, tables of towers and tokens)."""
from __future__ import annotations

import copy
import functools
from typing import Any, Callable

from marshmallow import Schema, ValidationError, fields, validate

from ...games import campanile
from .common import List, ProblemDetailSchema, StrictBoolean, StrictSchema

STYLE_VALUES = list(campanile.STYLES)
MAX_CARDS = 128
MAX_MOVES = 1000
MAX_PLAYER_LIST = 8  # the count itself is a rule (C-SETUP-1): 422, not 400
PLAYER_INDEX = validate.Range(min=0, max=campanile.MAX_PLAYERS - 1)
TOWER_INDEX = validate.Range(min=0, max=len(campanile.STYLES) - 1)


def Card(**kwargs) -> fields.String:  # noqa: N802 - a field factory reads like a field class
    return fields.String(validate=validate.OneOf(STYLE_VALUES), **kwargs)


def Cards(**kwargs) -> fields.List:  # noqa: N802
    return List(Card(), validate=validate.Length(max=MAX_CARDS), **kwargs)


_CARDS_FIELD = Cards()  # a pile given as a plain list, read by Pile/Counted (one field, reused)


def Count(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_CARDS), **kwargs)


def Stories(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=validate.OneOf([1, 2, 3]), **kwargs)


CARDS_JSON = {"type": "array", "maxItems": MAX_CARDS, "items": {"type": "string", "enum": STYLE_VALUES}}


class CampanileCountedCardsSchema(StrictSchema):
    count = Count(required=True)
    known = Cards()


class CampanileCountedPileSchema(StrictSchema):
    count = Count(required=True)
    top = Card(metadata={"description": "The face-up top card (C-SETUP-3); required unless the pile is empty."})


class Counted(fields.Field):
    """A list of cards, or `{"count": n, …}` when some or all of them are unknown (C-SVC-UNKNOWN)."""

    def __init__(self, counted: type[Schema], **kwargs: Any) -> None:
        self.counted = counted
        self._counted_instance: Schema | None = None
        parts = {name: (CARDS_JSON if name == "known" else {"type": "string", "enum": STYLE_VALUES})
                 for name in counted._declared_fields if name != "count"}
        counted_json = {"type": "object", "additionalProperties": False, "required": ["count"],
                        "properties": {"count": {"type": "integer", "minimum": 0, "maximum": MAX_CARDS}, **parts}}
        super().__init__(metadata={"oneOf": [CARDS_JSON, counted_json], **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            return _CARDS_FIELD.deserialize(value)
        if isinstance(value, dict):
            return self._counted_schema().load(value)
        raise ValidationError("Must be a list of cards, or {\"count\": n, …} when the cards are unknown.")

    def _counted_schema(self) -> Schema:
        # One instance, made on first use: building a Schema deep-copies its fields (far dearer than a load).
        if self._counted_instance is None:
            self._counted_instance = self.counted()
        return self._counted_instance

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class CampanileVariantSchema(StrictSchema):
    bet_on_played = StrictBoolean(load_default=False, metadata={
        "description": "C-VAR-1: a player may also bet on the tower they played on this turn."})


class CampanileSupplySchema(StrictSchema):
    """Tokens not yet placed, by value (C-COMP-4: 5 of value 1, 3 of value 2, 1 of value 3 at the start)."""

    one = Count(data_key="1", required=True)
    two = Count(data_key="2", required=True)
    three = Count(data_key="3", required=True)


class CampanilePlayerSchema(StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=100))
    hand = Counted(CampanileCountedCardsSchema, required=True,
                   metadata={"description": "The cards in hand (sorted on output), or {\"count\", \"known\"}."})
    supply = fields.Nested(CampanileSupplySchema, metadata={"description": "Left out: the full supply."})


class CampanileTablePlayerSchema(StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=100))


class CampanileTokenSchema(StrictSchema):
    player = fields.Integer(strict=True, required=True, validate=PLAYER_INDEX)
    value = fields.Integer(strict=True, required=True, validate=validate.OneOf([1, 2, 3]))


class CampanileTowerSchema(StrictSchema):
    style = Card(metadata={"description": "The tower at position i has style i (A nearest the piles); may be left "
                                          "out."})
    plays = List(Stories(), validate=validate.Length(max=MAX_CARDS),
                        metadata={"description": "The stories each card added, in order: the height is their sum, "
                                                 "the card count their number."})
    tokens = List(fields.Nested(CampanileTokenSchema), validate=validate.Length(max=MAX_CARDS),
                         metadata={"description": "Tokens under the tower, in the order placed (C-TURN-BET)."})


class CampanileLastPlaySchema(StrictSchema):
    tower = fields.Integer(strict=True, required=True, validate=TOWER_INDEX)
    stories = Stories(required=True)


class CampanileStateSchema(StrictSchema):
    """A whole Campanile position."""

    game = fields.String(validate=validate.Equal("campanile"))
    variant = fields.Nested(CampanileVariantSchema)
    players = List(fields.Nested(CampanilePlayerSchema), required=True,
                          validate=validate.Length(max=MAX_PLAYER_LIST), metadata={"description": "2 to 5 players."})
    towers = List(fields.Nested(CampanileTowerSchema), required=True, validate=validate.Length(max=MAX_CARDS),
                         metadata={"description": "The five towers, position 0 (style A, nearest the piles) to 4."})
    piles = List(Counted(CampanileCountedPileSchema), required=True, validate=validate.Length(max=MAX_CARDS),
                        metadata={"description": "Finito piles 1, 2, 3: each a list, top first, or {\"count\", "
                                                 "\"top\"} when the cards under the face-up top are unknown."})
    removed = Counted(CampanileCountedCardsSchema, metadata={
        "description": "The cards removed after the deal (C-SETUP-2, C-SVC-REMOVED), or {\"count\", \"known\"}."})
    turn = fields.Integer(strict=True, validate=PLAYER_INDEX)
    step = fields.String(validate=validate.OneOf(["play", "bet", "draw", "over"]),
                         metadata={"description": "The step due (C-SVC-STEP)."})
    last_play = fields.Nested(CampanileLastPlaySchema, allow_none=True,
                              metadata={"description": "During the bet and draw steps: the tower just played and the "
                                                       "stories added; otherwise null."})


class CampanileTableSchema(StrictSchema):
    """What a photo of a finished table shows: the players and the five towers with their tokens."""

    variant = fields.Nested(CampanileVariantSchema)
    players = List(fields.Nested(CampanileTablePlayerSchema), required=True,
                          validate=validate.Length(max=MAX_PLAYER_LIST))
    towers = List(fields.Nested(CampanileTowerSchema), required=True, validate=validate.Length(max=MAX_CARDS))


# ---------------------------------------------------------------- moves

def _move_schema(name: str, doc: str, **declared: fields.Field) -> type[Schema]:
    ordered = {"type": fields.String(required=True, validate=validate.Equal(name)), **declared}
    title = "".join(part.title() for part in name.split("_"))
    return type(f"Campanile{title}MoveSchema", (StrictSchema,), {"__doc__": doc, **ordered})


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "play": _move_schema("play", "Play a card onto the tower of its style, raising it by 1, 2 or 3 stories "
                                 "(C-TURN-PLAY).", card=Card(required=True), stories=Stories(required=True)),
    "bet": _move_schema("bet", "Place a token under a tower (C-TURN-BET, C-VAR-1).",
                        tower=fields.Integer(strict=True, required=True, validate=TOWER_INDEX),
                        value=fields.Integer(strict=True, required=True, validate=validate.OneOf([1, 2, 3]))),
    "no_bet": _move_schema("no_bet", "Place no token this turn (C-TURN-BET)."),
    "draw": _move_schema("draw", "Take the top card of the pile numbered as the stories just built (C-TURN-DRAW). "
                                 "`reveals` names the card turned face up next when the state does not know it "
                                 "(C-SVC-UNKNOWN).", reveals=Card()),
    "pass": _move_schema("pass", "Pass: only a player with no card in hand (C-TURN-END, C-SVC-PASS)."),
}


@functools.lru_cache(maxsize=None)
def _move_schema_instance(kind: str) -> Schema:
    """One instance per move type, reused (building a Schema per move was most of a /replay's parsing)."""
    return MOVE_SCHEMAS[kind]()


class Move(fields.Field):
    """One step: an object whose `type` selects its shape."""

    def __init__(self, **kwargs: Any) -> None:
        refs = [f"#/components/schemas/{schema.__name__[:-6]}" for schema in MOVE_SCHEMAS.values()]
        super().__init__(metadata={"oneOf": [{"$ref": ref} for ref in refs]}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ValidationError("A move is an object with a \"type\".")
        kind = value.get("type")
        schema = MOVE_SCHEMAS.get(kind) if isinstance(kind, str) else None
        if schema is None:
            raise ValidationError({"type": [f"Must be one of {', '.join(MOVE_SCHEMAS)}."]})
        return _move_schema_instance(kind).load(value)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


# ---------------------------------------------------------------- requests and responses

class CampanileNewRequestSchema(StrictSchema):
    seed = fields.Raw(metadata={"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 200}],
                                "description": "The same seed (and player count) always deals the same cards. Left "
                                               "out: a random seed, returned in the answer."})
    variant = fields.Nested(CampanileVariantSchema)
    names = List(fields.String(validate=validate.Length(min=1, max=100)), required=True,
                        validate=validate.Length(min=campanile.MIN_PLAYERS, max=campanile.MAX_PLAYERS),
                        metadata={"description": "The players, 2 to 5, in turn order: their number is the player "
                                                "count (C-SETUP-1)."})

    def load(self, data, *args, **kwargs):  # type: ignore[override]
        loaded = super().load(data, *args, **kwargs)
        seed = loaded.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))
                                 or (isinstance(seed, str) and len(seed) > 200)
                                 or (isinstance(seed, int) and abs(seed) > 2 ** 63)):
            raise ValidationError({"seed": ["Must be an integer or a text of at most 200 characters."]})
        return loaded


class CampanileStateRequestSchema(StrictSchema):
    state = fields.Nested(CampanileStateSchema, required=True)


class CampanileViewRequestSchema(CampanileStateRequestSchema):
    player = fields.Integer(strict=True, required=True, validate=PLAYER_INDEX,
                            metadata={"description": "A player of the state (0 to its player count - 1)."})


class CampanileMovesRequestSchema(CampanileStateRequestSchema):
    moves = List(Move(), required=True, validate=validate.Length(max=MAX_MOVES))


class CampanileScoreRequestSchema(StrictSchema):
    """Exactly one of `state` or `table`."""

    state = fields.Nested(CampanileStateSchema)
    table = fields.Nested(CampanileTableSchema)

    def load(self, data, *args, **kwargs):  # type: ignore[override]
        loaded = super().load(data, *args, **kwargs)
        if ("state" in loaded) == ("table" in loaded):
            raise ValidationError({"": ["Send exactly one of \"state\" or \"table\"."]})
        return loaded


class CampanileStateResponseSchema(StrictSchema):
    state = fields.Nested(CampanileStateSchema, required=True)


class CampanileNewResponseSchema(CampanileStateResponseSchema):
    seed = fields.Raw(required=True, metadata={"oneOf": [{"type": "integer"}, {"type": "string"}]})


class CampanileValidateResponseSchema(StrictSchema):
    valid = fields.Boolean(required=True)
    errors = List(fields.Nested(ProblemDetailSchema), required=True)
    warnings = List(fields.Nested(ProblemDetailSchema), required=True)


class CampanileLegalMovesResponseSchema(StrictSchema):
    to_act = fields.Integer(required=True, allow_none=True, metadata={"description": "Whose turn it is; null once "
                                                                                     "the game is over."})
    moves = List(Move(), required=True)


class CampanileEventSchema(Schema):
    """What happened, for animation and for the record: `type` (played, bet, no_bet, drew, passed, turn, game_over)
    and its facts; `step` is the index of the move that caused it."""

    class Meta:
        unknown = "include"

    type = fields.String(required=True)
    step = fields.Integer(required=True)


class CampanileApplyResponseSchema(StrictSchema):
    legal = fields.Boolean(required=True)
    state = fields.Nested(CampanileStateSchema, required=True, metadata={"description": "After the last legal move."})
    events = List(fields.Nested(CampanileEventSchema), required=True)
    violations = List(fields.Nested(ProblemDetailSchema), required=True)
    failed_at = fields.Integer(required=True, allow_none=True)


class CampanileFlagSchema(StrictSchema):
    large = fields.Integer(required=True)
    small = fields.Integer(required=True)


class CampanileStandingSchema(StrictSchema):
    player = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata={"description": "The total of the player's token values."})
    first_token = fields.Integer(required=True, metadata={"description": "Index (in the tower's tokens) of the "
                                                                         "player's first token: C-END-3's tie-break."})
    points = fields.Integer(required=True)


class CampanileAwardSchema(StrictSchema):
    player = fields.Integer(required=True)
    points = fields.Integer(required=True)
    total = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(["total", "placed_first", "placed_later"]),
                           metadata={"description": "total: no other bettor had the same total; placed_first: an "
                                                    "equal total below, beaten by placing a token first (C-END-3); "
                                                    "placed_later: an equal total above, which placed first."})


class CampanileTowerScoreSchema(StrictSchema):
    position = fields.Integer(required=True)
    style = fields.String(required=True)
    height = fields.Integer(required=True)
    cards = fields.Integer(required=True)
    rank = fields.Integer(required=True, metadata={"description": "1 for the tallest (C-END-2)."})
    ranked_by = fields.String(required=True, validate=validate.OneOf(["height", "position"]),
                              metadata={"description": "position: another tower has the same height, and the one "
                                                       "nearer the piles ranks higher."})
    tied_with = List(fields.Integer(), required=True)
    flag = fields.Nested(CampanileFlagSchema, required=True, allow_none=True)
    standings = List(fields.Nested(CampanileStandingSchema), required=True)
    large = fields.Nested(CampanileAwardSchema, required=True, allow_none=True)
    small = fields.Nested(CampanileAwardSchema, required=True, allow_none=True)


class CampanilePlayerScoreSchema(StrictSchema):
    name = fields.String(required=True)
    towers = List(fields.Integer(), required=True, metadata={"description": "Points from each tower, by "
                                                                                   "position."})
    total = fields.Integer(required=True)
    supply = fields.Nested(CampanileSupplySchema, required=True, metadata={"description": "Tokens never placed: "
                                                                                          "they score nothing."})


class CampanileScoreResponseSchema(StrictSchema):
    towers = List(fields.Nested(CampanileTowerScoreSchema), required=True)
    players = List(fields.Nested(CampanilePlayerScoreSchema), required=True)
    winners = List(fields.Integer(), required=True, metadata={"description": "Every player with the most "
                                                                                    "points (C-END-4)."})
    winner = fields.Integer(required=True, allow_none=True, metadata={"description": "The winner, or null when the "
                                                                                     "win is shared."})
    decided_by = fields.String(required=True, validate=validate.OneOf(["points", "shared"]))
    warnings = List(fields.Nested(ProblemDetailSchema), required=True)


class CampanileReplayResponseSchema(CampanileApplyResponseSchema):
    states = List(fields.Nested(CampanileStateSchema), required=True,
                         metadata={"description": "The state after each applied move."})
    score = fields.Nested(CampanileScoreResponseSchema, required=True)


# ---------------------------------------------------------------- examples for the spec

FINISHED_TABLE = {
    "players": [{"name": "Ada"}, {"name": "Bea"}, {"name": "Cy"}],
    "towers": [
        {"style": "A", "plays": [2, 3, 1], "tokens": [{"player": 0, "value": 2}, {"player": 1, "value": 3}]},
        {"style": "B", "plays": [3, 3], "tokens": [{"player": 2, "value": 3}, {"player": 0, "value": 2}]},
        {"style": "C", "plays": [1], "tokens": [{"player": 1, "value": 1}]},
        {"style": "D", "plays": [2, 2, 2], "tokens": [{"player": 1, "value": 2}, {"player": 2, "value": 2}]},
        {"style": "E", "plays": [], "tokens": []},
    ],
}


def openapi_examples(call: Callable[..., Any], base: str) -> None:
    """Real calls whose requests and answers become this game's examples in openapi.yaml."""
    rules = call(f"{base}/rules", method="get")
    rules["rules"] = rules["rules"][:3]  # a taste; the live answer has them all
    state = call(f"{base}/new", {"seed": 42, "names": ["Ada", "Bea", "Cy"]})["state"]
    call(f"{base}/legal-moves", {"state": state})
    card = state["players"][0]["hand"][0]
    moves = [{"type": "play", "card": card, "stories": 1}, {"type": "no_bet"}, {"type": "draw"}]
    call(f"{base}/apply", {"state": state, "moves": moves})
    call(f"{base}/replay", {"state": state, "moves": moves[:2]})
    call(f"{base}/score", {"table": FINISHED_TABLE})
    call(f"{base}/view", {"state": state, "player": 1})
    broken = copy.deepcopy(state)
    broken["players"][0]["hand"].append("A")
    call(f"{base}/validate", {"state": broken})
    call(f"{base}/legal-moves", {"state": broken})
    call(f"{base}/apply", {"state": state, "moves": [{"type": "play", "card": card}]})


# The names the generic game routes look up (service/api/games.py).
NewRequestSchema = CampanileNewRequestSchema
NewResponseSchema = CampanileNewResponseSchema
StateRequestSchema = CampanileStateRequestSchema
StateResponseSchema = CampanileStateResponseSchema
ViewRequestSchema = CampanileViewRequestSchema
MovesRequestSchema = CampanileMovesRequestSchema
ScoreRequestSchema = CampanileScoreRequestSchema
ScoreResponseSchema = CampanileScoreResponseSchema
ValidateResponseSchema = CampanileValidateResponseSchema
LegalMovesResponseSchema = CampanileLegalMovesResponseSchema
ApplyResponseSchema = CampanileApplyResponseSchema
ReplayResponseSchema = CampanileReplayResponseSchema
COMPONENTS: dict[str, type[Schema]] = {schema.__name__[:-6]: schema for schema in MOVE_SCHEMAS.values()}
