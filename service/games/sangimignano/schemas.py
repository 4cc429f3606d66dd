"""Request and response schemas of San Gimignano (api.md adapted: 2 to 4 players, the hex board, guild spaces,
tokens and towers of service/games/sangimignano)."""
from __future__ import annotations

from functools import partial
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from ...wire import schemas as wire
from .geometry import GUILDS, MAX_COORD
from .messages import tr
from .model import HEXAGONS, MAX_PLAYERS, MIN_PLAYERS, TOKENS, TOWERS
from .position import build_state
from .steps import Step, hex_step

GUILD_VALUES = list(GUILDS)
MAX_MOVES = 1000
MAX_PLAYER_LIST = 8  # the count itself is a rule (S-SETUP-1): 422, not 400
MAX_BOARD = 64  # the count itself is a rule (S-COMP-4)
PLAYER_INDEX = validate.Range(min=0, max=MAX_PLAYERS - 1)


def Guild(**kwargs) -> fields.String:  # noqa: N802 - a field factory reads like a field class
    kwargs.setdefault("metadata", {"description": "A guild: \"A\", \"B\", \"C\" or \"D\" (S-COMP-1)."})
    return fields.String(validate=validate.OneOf(GUILD_VALUES), **kwargs)


def Hexagon(**kwargs) -> fields.List:  # noqa: N802
    kwargs.setdefault("metadata", {"description": "A hexagon's three guilds in counter-clockwise order (S-COMP-1)."})
    return wire.List(fields.String(validate=validate.OneOf(GUILD_VALUES)), validate=validate.Length(equal=3), **kwargs)


def Coordinates(**kwargs) -> fields.List:  # noqa: N802
    kwargs.setdefault("metadata", {"description": "Axial coordinates [q, r] of a hexagon's place (S-GEO-1)."})
    return wire.List(fields.Integer(strict=True, validate=validate.Range(min=-MAX_COORD, max=MAX_COORD)),
                     validate=validate.Length(equal=2), **kwargs)


def Rotation(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=validate.Range(min=0, max=5), **kwargs)


HEXAGON_JSON = {"type": "array", "minItems": 3, "maxItems": 3, "items": {"type": "string", "enum": GUILD_VALUES}}


class SanGimignanoUnknownHandSchema(wire.StrictSchema):
    count = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=HEXAGONS),
                           metadata={"description": "How many hexagons the hand holds."})


_HEXAGONS_FIELD = wire.List(Hexagon(), validate=validate.Length(max=HEXAGONS))


def Hand(**kwargs: Any) -> wire.ListOrCounted:  # noqa: N802
    """A list of hexagons, or `{"count": n}` when they are unknown (S-SVC-UNKNOWN)."""
    unknown = {"type": "object", "additionalProperties": False, "required": ["count"],
               "properties": {"count": {"type": "integer", "minimum": 0, "maximum": HEXAGONS,
                                        "description": "How many hexagons the hand holds, none of them known."}}}
    listed = {"type": "array", "maxItems": HEXAGONS, "items": HEXAGON_JSON}
    return wire.ListOrCounted(_HEXAGONS_FIELD, listed, SanGimignanoUnknownHandSchema,
                              tr("Must be a list of hexagons, or {\"count\": n} when they are unknown."),
                              counted_json=unknown, **kwargs)


class SanGimignanoVariantSchema(wire.StrictSchema):
    large_groups = wire.StrictBoolean(load_default=False, metadata={
        "description": "S-VAR-1: a tower may be built on a connected group of four or more spaces among which all "
                            "four guilds appear."})


class SanGimignanoPlayerSchema(wire.StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=100), metadata={"description": "The player's name."})
    hexes = Hand(required=True, metadata={"description": "The hexagons in hand (each written from its first guild in "
                                                         "A-D order, sorted, on output), or {\"count\": n}."})
    tokens = fields.Integer(strict=True, validate=validate.Range(min=0, max=TOKENS), metadata={
        "description": "Tokens in supply (S-COMP-2: 20 at the start). Left out: what conservation leaves."})
    towers = fields.Integer(strict=True, validate=validate.Range(min=0, max=TOWERS), metadata={
        "description": "Towers in supply (S-COMP-2: 10 at the start). Left out: what conservation leaves."})


class SanGimignanoHexagonSchema(wire.StrictSchema):
    """A hexagon on the board: guild space i covers sides (rotation + 2i) mod 6 and (rotation + 2i + 1) mod 6."""

    at = Coordinates(required=True)
    rotation = Rotation(metadata={"description": "0 to 5 (S-GEO-2); the service writes 0 or 1, with the guilds, "
                                                 "tokens and towers turned to match. Left out: 0."})
    guilds = Hexagon(required=True, metadata={"description": "The guilds of spaces 0, 1, 2 (three different ones)."})
    tokens = wire.List(wire.List(fields.Integer(strict=True, validate=PLAYER_INDEX), validate=validate.Length(max=8)),
                       validate=validate.Length(equal=3), metadata={
                           "description": "Per guild space, the players whose tokens lie there (at most two, "
                                          "S-TOKEN-1). Left out: none."})
    towers = wire.List(fields.Integer(strict=True, allow_none=True, validate=PLAYER_INDEX),
                       validate=validate.Length(equal=3), metadata={
                           "description": "Per guild space, whose tower stands there, or null. Left out: none."})


class SanGimignanoStateSchema(wire.BuiltSchema):
    """A whole San Gimignano position."""

    build = staticmethod(build_state)

    game = fields.String(validate=validate.Equal("sangimignano"), metadata={"description": "\"sangimignano\"."})
    variant = fields.Nested(SanGimignanoVariantSchema, metadata={"description": "The variant in play."})
    phase = fields.String(validate=validate.OneOf(["play", "over"]),
                          metadata={"description": "\"over\" once the game has ended (S-END-1, S-END-2)."})
    turn = fields.Integer(strict=True, validate=PLAYER_INDEX, metadata={"description": "The player to act."})
    step = fields.String(allow_none=True, validate=validate.OneOf(["token", "hex", "build"]), metadata={
        "description": "The phase due (S-SVC-STEP): always one where the player to act has a choice; null once the "
                       "game is over."})
    players = wire.List(fields.Nested(SanGimignanoPlayerSchema), required=True,
                        validate=validate.Length(max=MAX_PLAYER_LIST),
                        metadata={"description": "2 to 4 players, in turn order."})
    board = wire.List(fields.Nested(SanGimignanoHexagonSchema), required=True, validate=validate.Length(max=MAX_BOARD),
                      metadata={"description": "The hexagons on the table (sorted by coordinates on output)."})
    box = fields.Integer(strict=True, validate=validate.Range(min=0, max=HEXAGONS), metadata={
        "description": "Hexagons back in the box (S-SETUP-1: 6, 4 or 0). Left out: as the player count says."})


# ---------------------------------------------------------------- moves

_move_schema = partial(wire.move_schema, "SanGimignano", type_text="\"{kind}\".")


def _space_fields(what: str) -> dict[str, fields.Field]:
    return {"at": Coordinates(required=True, metadata={"description": f"The hexagon of the space {what}."}),
            "guild": Guild(required=True, metadata={"description": f"The guild of the space {what} (a hexagon shows "
                                                                   "each guild at most once)."})}


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "token": _move_schema("token", "Place a token from supply on a guild space with no tower and fewer than two "
                                   "tokens (S-TURN-1, S-TOKEN-1).", **_space_fields("taking the token")),
    "hex": _move_schema("hex", "Lay a hexagon from hand, touching two hexagons in play, no two spaces of one guild "
                               "sharing a side (S-TURN-2, S-HEX-1..3).",
                        hex=Hexagon(required=True, metadata={"description": "The hexagon laid, its guilds in "
                                                                            "counter-clockwise order."}),
                        at=Coordinates(required=True, metadata={"description": "Where it is laid."}),
                        rotation=Rotation(required=True, metadata={"description": "0 to 5: guild i of `hex` covers "
                                                                                  "sides rotation + 2i and rotation + "
                                                                                  "2i + 1 (S-GEO-2)."})),
    "build": _move_schema("build", "Build a tower on a space of a qualifying group (S-TURN-3, S-BUILD-1..4, S-VAR-1).",
                          **_space_fields("taking the tower")),
    "end": _move_schema("end", "Build no tower this turn (S-TURN-3); from an unknown hand in the hexagon phase: none "
                               "of my hexagons fits (S-SVC-UNKNOWN)."),
}


def _to_step(loaded: dict) -> Step:
    kind = loaded["type"]
    if kind == "end":
        return Step("end")
    at = (loaded["at"][0], loaded["at"][1])
    if kind in ("token", "build"):
        return Step(kind, at=at, guild=loaded["guild"])
    guilds = loaded["hex"]
    if len(set(guilds)) != 3:
        # Translators: {guilds} is the hexagon as given, a list of guild letters: ['A', 'A', 'B'].
        raise ValidationError({"hex": [tr("A hexagon shows three different guilds; {guilds} repeats one. (S-COMP-1)",
                                          guilds=str(guilds))]})
    return hex_step(tuple(guilds), at, loaded["rotation"])  # one spelling of a placement (S-SVC-FORM)


Move = wire.move_union("SanGimignano", "San Gimignano", MOVE_SCHEMAS, _to_step)


parse_step = wire.step_reader(Move)  # the library's reading of a move: the same as the API's


# ---------------------------------------------------------------- the library's reading: the same schema

load_state, read_state, validate_state = wire.state_readers(SanGimignanoStateSchema)


# ---------------------------------------------------------------- requests and responses



def _number(text: str) -> fields.Integer:
    return fields.Integer(metadata={"description": text})


def _space(text: str) -> fields.List:
    return wire.List(fields.Integer(), validate=validate.Length(equal=2), metadata={"description": text})


_PLAYER = "The player who did it."
EVENT_KINDS = wire.event_kinds("SanGimignano", {
    "token": ("A token was placed on a guild space (S-TURN-1).",
              {"player": _number(_PLAYER), "at": _space("The hexagon's place [q, r]."),
               "guild": Guild(metadata={"description": "The guild space."})}),
    "hex": ("A hexagon was placed (S-TURN-2).",
            {"player": _number(_PLAYER), "hex": Hexagon(metadata={"description": "Its three guilds, as placed."}),
             "at": _space("Its place [q, r]."), "rotation": _number("0 to 5 (S-GEO-2).")}),
    "built": ("A tower was built (S-TURN-3, S-BUILD-1..4); the tokens on its space went back to their owners "
              "(S-BUILD-2).",
              {"player": _number(_PLAYER), "at": _space("The hexagon's place [q, r]."),
               "guild": Guild(metadata={"description": "The guild space it stands on."}),
               "returned": wire.List(fields.Integer(), metadata={"description": "The owners of the tokens that went "
                                                                               "back, one entry a token."}),
               "towers_left": _number("The towers the builder has left to build.")}),
    "declined": ("The player built no tower this turn (S-TURN-3).", {"player": _number(_PLAYER)}),
    "no_fit": ("The player, whose hexagons the state does not know, said none of them fits (S-SVC-UNKNOWN).",
               {"player": _number(_PLAYER)}),
    "skipped": ("A phase of the turn offered no choice and was passed over (S-SVC-SKIP).",
                {"player": _number("The player whose turn it is."),
                 "phase": fields.String(validate=validate.OneOf(["token", "hex", "build"]),
                                        metadata={"description": "The phase passed over."}),
                 "reason": fields.String(validate=validate.OneOf(["no_token", "no_room", "no_hexagon", "no_fit",
                                                                  "no_group"]),
                                         metadata={"description": "no_token or no_room (token phase), no_hexagon or "
                                                                  "no_fit (hexagon phase), no_group (tower phase)."})}),
    "turn": ("The turn passed to a player.", {"player": _number("The player whose turn it is now.")}),
    "game_over": ("The game ended: a tenth tower (S-END-1), or nobody can build any more (S-END-2).",
                  {"reason": fields.String(validate=validate.OneOf(["tenth_tower", "no_possible_group"]),
                                           metadata={"description": "tenth_tower or no_possible_group."}),
                   "winners": wire.List(fields.Integer(), metadata={"description": "The winners (S-END-3)."})}),
})


class SanGimignanoPlayerScoreSchema(wire.StrictSchema):
    name = fields.String(required=True, metadata={"description": "The player's name."})
    towers = fields.Integer(required=True, metadata={"description": "Towers on the board (S-END-3)."})
    tokens = fields.Integer(required=True, metadata={"description": "Tokens on guild spaces: the tie-break."})


class SanGimignanoScoreResponseSchema(wire.StrictSchema):
    players = wire.List(fields.Nested(SanGimignanoPlayerScoreSchema), required=True,
                        metadata={"description": "Per player, in turn order."})
    winners = wire.List(fields.Integer(), required=True, metadata={"description": "Every player who wins (or leads)."})
    winner = wire.winner_field()
    decided_by = fields.String(required=True, validate=validate.OneOf(["towers", "tokens", "shared"]), metadata={
        "description": "towers: most towers; tokens: equal towers, most tokens; shared: equal in both (S-END-3)."})
    over = fields.Boolean(required=True, metadata={"description": "Whether the game has ended (else: as if it ended "
                                                                  "now, S-SVC-SCORE)."})
    warnings = wire.warnings_field("Oddities.")


# every request and answer, by role (`SanGimignano<role>` in the spec)
FORMS = wire.forms(
    "SanGimignano", state=SanGimignanoStateSchema, move=Move, events=EVENT_KINDS,
    score=SanGimignanoScoreResponseSchema, score_request="The position to score.",
    picture_request="The position to draw.",
    new={"variant": SanGimignanoVariantSchema,
         "seed_text": "The same seed, player count and hexagons always deal the same. Left out: a random seed, "
                      "returned in the answer.",
         "variant_text": "The variant to play.",
         "names": wire.names_field(MIN_PLAYERS, MAX_PLAYERS, "The players, 2 to 4, in turn order (S-SETUP-1)."),
         "hexes": wire.List(Hexagon(), validate=validate.Length(max=64), metadata={
             "description": "The 16 hexagons of the caller's set, each counter-clockwise (S-SVC-TILES). Left out: "
                            "the default set."})},
    requests={"max_moves": MAX_MOVES, "moves_text": "The steps to apply, in order.",
              "player": fields.Integer(strict=True, required=True, validate=PLAYER_INDEX, metadata={
                  "description": "A player of the state (0 to its player count - 1)."})})
