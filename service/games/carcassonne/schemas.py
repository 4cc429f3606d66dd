"""Request and response schemas of Carcassonne and The Tower (api.md adapted: 2 to 5 players, the state shape of
the rule book, tiles by their data ids, features by the names of K-TILE-4)."""
from __future__ import annotations

from functools import partial
from typing import Any

from marshmallow import Schema, fields, validate

from ...wire import schemas as wire
from .messages import tr
from .model import MAX_PLAYERS, MEEPLES, MIN_PLAYERS
from .position import build_state
from .steps import COORDINATE, Step
from .tiles import tile_counts

TILE_IDS = list(tile_counts(True))
MAX_TILES = 128
MAX_MOVES = 2000
MAX_PLAYER_LIST = 8  # the count itself is a rule (K-SETUP-2): 422, not 400
PLAYER_INDEX = validate.Range(min=0, max=MAX_PLAYERS - 1)
FEATURE_NAMES = ("N, E, S, W for a road or city by an edge it touches; NL, NR, EL, ER, SL, SR, WL, WR for a field "
                 "by a half-edge it touches; inner for an enclosed field; cloister (K-TILE-4).")


def Tile(**kwargs) -> fields.String:  # noqa: N802 - a field factory reads like a field class
    return fields.String(validate=validate.OneOf(TILE_IDS), **kwargs)


def Square(**kwargs) -> fields.List:  # noqa: N802
    coordinate = fields.Integer(strict=True, validate=validate.Range(min=-COORDINATE, max=COORDINATE))
    return wire.List(coordinate, validate=validate.Length(equal=2), **kwargs)


def Rotation(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=validate.OneOf([0, 90, 180, 270]), **kwargs)


def Feature(**kwargs) -> fields.String:  # noqa: N802
    return fields.String(validate=validate.Length(min=1, max=16), **kwargs)


def Player(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=PLAYER_INDEX, **kwargs)


TILES_JSON = {"type": "array", "maxItems": MAX_TILES, "items": {"type": "string", "enum": TILE_IDS}}
_TILES_FIELD = wire.List(Tile(), validate=validate.Length(max=MAX_TILES))


class CarcassonneCountedBagSchema(wire.StrictSchema):
    count = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_TILES),
                           metadata={"description": "How many tiles are left to draw."})


def Bag(**kwargs: Any) -> wire.ListOrCounted:  # noqa: N802
    """The bag: tile ids in drawing order, or {"count": n} when the order is unknown (K-SVC-BAG)."""
    counted = {"type": "object", "additionalProperties": False, "required": ["count"],
               "properties": {"count": {"type": "integer", "minimum": 0, "maximum": MAX_TILES,
                                        "description": "How many tiles are left to draw."}}}
    return wire.ListOrCounted(_TILES_FIELD, TILES_JSON, CarcassonneCountedBagSchema,
                              tr("Must be a list of tile ids, or {\"count\": n} when the order is unknown."),
                              counted_json=counted, **kwargs)


class CarcassonneVariantSchema(wire.StrictSchema):
    tower = wire.StrictBoolean(load_default=False, metadata={
        "description": "The Tower (K-TOW): the 18 tower tiles in the bag, floors, captures, prisoners, ransom."})


class CarcassonnePlacementSchema(wire.StrictSchema):
    tile = Tile(required=True, metadata={"description": "The tile id of the data (\"BA/RFr\", \"TO/CRcr\")."})
    at = Square(required=True, metadata={"description": "The square [x, y]: x to the east, y to the south "
                                                        "(K-TILE-1)."})
    rotation = Rotation(metadata={"description": "Degrees clockwise: 0, 90, 180 or 270 (K-TILE-1); left out: 0."})


class CarcassonneMeepleSchema(wire.StrictSchema):
    player = Player(required=True, metadata={"description": "The meeple's owner."})
    at = Square(required=True, metadata={"description": "The square of the tile it stands on."})
    feature = Feature(required=True, metadata={"description": "The feature it stands on: " + FEATURE_NAMES
                                                              + " Written back by its first name clockwise."})


class CarcassonneTowerSchema(wire.StrictSchema):
    at = Square(required=True, metadata={"description": "The square of the tile whose foundation it stands on."})
    height = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=64),
                            metadata={"description": "Floors in the tower: its reach (K-TOW-CAP-1)."})
    top = Player(allow_none=True, metadata={"description": "The player whose meeple is on top (K-TOW-ACT-3), or "
                                                           "null."})


class CarcassonnePlayerSchema(wire.StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=100), metadata={"description": "The player's name."})
    score = fields.Integer(strict=True, validate=validate.Range(min=0, max=10_000),
                           metadata={"description": "Points on the score track (K-SVC-SCORE); left out: 0."})
    supply = fields.Integer(strict=True, validate=validate.Range(min=0, max=MEEPLES),
                            metadata={"description": "Meeples in supply (K-COMP-2); left out: what conservation "
                                                     "leaves (K-SVC-SUPPLY)."})
    floors = fields.Integer(strict=True, validate=validate.Range(min=0, max=10),
                            metadata={"description": "Tower floors in supply (K-TOW-TILE-1); left out: 0."})
    prisoners = wire.List(Player(), validate=validate.Length(max=4 * MEEPLES),
                          metadata={"description": "The owner of each prisoner this player holds (K-TOW-CAP-2)."})


class CarcassonneStateSchema(wire.BuiltSchema):
    """A whole Carcassonne position (the rule book's state shape)."""

    build = staticmethod(build_state)

    game = fields.String(validate=validate.Equal("carcassonne"), metadata={"description": "\"carcassonne\"."})
    variant = fields.Nested(CarcassonneVariantSchema, metadata={"description": "The variant; left out: the base "
                                                                              "game."})
    phase = fields.String(validate=validate.OneOf(["play", "over"]),
                          metadata={"description": "over once the last tile is placed or discarded (K-END-1)."})
    turn = Player(metadata={"description": "The player whose turn it is."})
    step = fields.String(validate=validate.OneOf(["place", "action", "capture"]),
                         metadata={"description": "The step due (K-SVC-STEP)."})
    bag = Bag(required=True, metadata={"description": "The tiles to draw, next first, or {\"count\": n} "
                                                      "(K-SVC-BAG)."})
    discarded = wire.List(Tile(), validate=validate.Length(max=MAX_TILES),
                          metadata={"description": "Tiles that fitted nowhere (K-PLACE-3)."})
    board = wire.List(fields.Nested(CarcassonnePlacementSchema), required=True, validate=validate.Length(max=MAX_TILES),
                      metadata={"description": "The placed tiles, the start tile at [0, 0] (K-SETUP-1)."})
    last = Square(allow_none=True, metadata={"description": "The tile placed this turn (action and capture steps), "
                                                            "else null."})
    raised = Square(allow_none=True, metadata={"description": "The tower a floor was just put on (capture step), "
                                                              "else null."})
    meeples = wire.List(fields.Nested(CarcassonneMeepleSchema), validate=validate.Length(max=64),
                        metadata={"description": "Meeples on the board's features (K-MEEPLE)."})
    towers = wire.List(fields.Nested(CarcassonneTowerSchema), validate=validate.Length(max=32),
                       metadata={"description": "Towers with at least one floor (K-SVC-TOWER)."})
    players = wire.List(fields.Nested(CarcassonnePlayerSchema), required=True,
                        validate=validate.Length(max=MAX_PLAYER_LIST), metadata={"description": "2 to 5 players."})
    ransomed = wire.StrictBoolean(metadata={"description": "A ransom was paid this turn (K-TOW-RANSOM)."})


# ---------------------------------------------------------------- moves

_move_schema = partial(wire.move_schema, "Carcassonne", type_text="\"{kind}\".")


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "place": _move_schema(
        "place", "Place the tile drawn (K-PLACE-1, K-PLACE-2).",
        tile=Tile(metadata={"description": "The tile drawn: may be left out when the bag is a list (K-SVC-BAG)."}),
        at=Square(required=True, metadata={"description": "An empty square touching a tile by an edge."}),
        rotation=Rotation(required=True, metadata={"description": "0, 90, 180 or 270 degrees clockwise."})),
    "discard": _move_schema("discard", "Discard the tile drawn: it fits nowhere (K-PLACE-3).",
                            tile=Tile(required=True, metadata={"description": "The tile drawn."})),
    "meeple": _move_schema("meeple", "Put a meeple on a feature of the tile just placed (K-MEEPLE).",
                           feature=Feature(required=True, metadata={"description": FEATURE_NAMES})),
    "floor": _move_schema("floor", "Put a floor on an empty foundation or an open tower (K-TOW-ACT-1/2).",
                          at=Square(required=True, metadata={"description": "The foundation's or tower's square."})),
    "tower_meeple": _move_schema("tower_meeple", "Put a meeple on top of a tower (K-TOW-ACT-3).",
                                 at=Square(required=True, metadata={"description": "The tower's square."})),
    "capture": _move_schema(
        "capture", "Capture a meeple in reach of the tower just raised (K-TOW-CAP-1/2).",
        at=Square(required=True, metadata={"description": "The meeple's square."}),
        feature=Feature(required=True, metadata={"description": "Its feature, or tower for a tower's top."}),
        player=Player(required=True, metadata={"description": "Its owner."})),
    "skip": _move_schema("skip", "No action after the tile, or no capture after a floor (K-SVC-STEP)."),
    "ransom": _move_schema("ransom", "Pay 3 points to free one of one's meeples (K-TOW-RANSOM).",
                           **{"from": Player(required=True, data_key="from",
                                             metadata={"description": "The player holding it."})}),
}


def _to_step(loaded: dict) -> Step:
    at = loaded.get("at")
    return Step(loaded["type"], tile=loaded.get("tile"), at=None if at is None else (at[0], at[1]),
                rotation=loaded.get("rotation"), feature=loaded.get("feature"),
                player=loaded.get("player", loaded.get("from")))


Move = wire.move_union("Carcassonne", "Carcassonne", MOVE_SCHEMAS, _to_step)


parse_step = wire.step_reader(Move)  # the library's reading of a move: the same as the API's


# ---------------------------------------------------------------- the library's reading: the same schema

load_state, read_state, validate_state = wire.state_readers(CarcassonneStateSchema)


# ---------------------------------------------------------------- requests and responses



def _number(text: str) -> fields.Integer:
    return fields.Integer(metadata={"description": text})


class CarcassonneScoredFeatureSchema(wire.StrictSchema):
    """The feature a `scored` event scored."""

    type = fields.String(required=True, validate=validate.OneOf(["road", "city", "cloister"]),
                         metadata={"description": "The feature's kind."})
    at = Square(required=True, metadata={"description": "A tile of the feature (the first in board order)."})
    feature = fields.String(required=True, metadata={"description": "Its name on that tile (K-TILE-4)."})
    tiles = wire.List(Square(), required=True, metadata={"description": "The squares it covers (a cloister: its own "
                                                                        "and the tiles around it)."})
    pennants = fields.Integer(required=True, metadata={"description": "Pennants in a city."})


class CarcassonneReturnedMeepleSchema(wire.StrictSchema):
    """A meeple that went back to its owner's supply (K-SCORE-RETURN)."""

    player = fields.Integer(required=True, metadata={"description": "Its owner."})
    at = Square(required=True, metadata={"description": "The square it stood on."})
    feature = fields.String(required=True, metadata={"description": "The feature it stood on, by its name on that "
                                                                    "tile."})


_PLAYER = "The player who did it."
EVENT_KINDS = wire.event_kinds("Carcassonne", {
    "placed": ("A tile was placed (K-PLACE).",
               {"player": _number(_PLAYER), "tile": Tile(metadata={"description": "The tile's id."}),
                "at": Square(metadata={"description": "Its square [x, y]."}),
                "rotation": _number("Its rotation: 0, 90, 180 or 270 (clockwise).")}),
    "discarded": ("A tile that fits nowhere was put out of the game (K-PLACE-3).",
                  {"player": _number(_PLAYER), "tile": Tile(metadata={"description": "The tile's id."})}),
    "meeple": ("A meeple was put on a feature of the tile just placed (K-MEEPLE).",
               {"player": _number(_PLAYER), "at": Square(metadata={"description": "The tile's square."}),
                "feature": fields.String(metadata={"description": "The feature, by its name on the tile "
                                                                  "(K-TILE-4)."})}),
    "skipped": ("The player took no action after the tile, or captured nothing after a floor (K-SVC-STEP).",
                {"player": _number(_PLAYER),
                 "during": fields.String(validate=validate.OneOf(["action", "capture"]),
                                         metadata={"description": "The step passed over: action or capture."})}),
    "floor": ("A floor was put on a tower (K-TOW-ACT-1, K-TOW-ACT-2).",
              {"player": _number(_PLAYER), "at": Square(metadata={"description": "The tower's square."}),
               "height": _number("The tower's height after it.")}),
    "tower_meeple": ("A meeple was put on top of a tower, closing it (K-TOW-ACT-3).",
                     {"player": _number(_PLAYER), "at": Square(metadata={"description": "The tower's square."})}),
    "captured": ("A meeple in reach of the tower just raised was captured (K-TOW-CAP-1, K-TOW-CAP-2).",
                 {"player": _number("The capturer."), "at": Square(metadata={"description": "The meeple's square."}),
                  "feature": fields.String(metadata={"description": "Its feature, or tower for a tower's top."}),
                  "owner": _number("The meeple's owner."),
                  "to": fields.String(validate=validate.OneOf(["supply", "prisoner"]),
                                      metadata={"description": "supply: one's own meeple goes back to supply; "
                                                               "prisoner: another's is held."})}),
    "exchanged": ("Two players who each held a prisoner of the other exchanged them (K-TOW-SWAP).",
                  {"players": wire.List(fields.Integer(), metadata={"description": "The two players."})}),
    "ransom": ("A player paid to free one of their meeples (K-TOW-RANSOM).",
               {"player": _number("The player who paid."), "from": _number("The player who held the meeple."),
                "points": _number("The points paid to that player.")}),
    "scored": ("A road, city or cloister was completed and scored (K-SCORE); its meeples went back "
               "(K-SCORE-RETURN).",
               {"feature": fields.Nested(CarcassonneScoredFeatureSchema, metadata={"description": "The feature."}),
                "points": _number("The points each scorer took: 0 when nobody holds the feature."),
                "worth": _number("What the feature was worth to its holders, held or not: the points of /score's "
                                 "feature list."),
                "scorers": wire.List(fields.Integer(), metadata={"description": "The players with most meeples on "
                                                                               "it (K-SCORE-MAJORITY)."}),
                "returned": wire.List(fields.Nested(CarcassonneReturnedMeepleSchema),
                                      metadata={"description": "The meeples that went back to their owners."})}),
    "turn": ("The turn passed to a player.", {"player": _number("The player whose turn it is now.")}),
    "game_over": ("The bag is empty: the game is over (K-END-1); the end scoring is /score's (K-SVC-SCORE).",
                  {"totals": wire.List(fields.Integer(), metadata={"description": "Each player's total with the end "
                                                                                  "scoring, player 0 first."}),
                   "winners": wire.List(fields.Integer(), metadata={"description": "The winners (K-END-4)."})}),
})


class CarcassonneFeatureScoreSchema(CarcassonneScoredFeatureSchema):
    """A feature of the board as /score explains it: what a scored event says of it (a field too), and its
    scoring."""

    type = fields.String(required=True, validate=validate.OneOf(["road", "city", "cloister", "field"]),
                         metadata={"description": "The feature's kind."})
    complete = fields.Boolean(required=True, metadata={"description": "Complete (a field never is)."})
    cities = fields.Integer(required=True, allow_none=True,
                            metadata={"description": "A field: the complete cities it touches (K-END-3)."})
    meeples = wire.List(fields.Integer(), required=True, metadata={"description": "Meeples on it, by player."})
    points = fields.Integer(required=True, metadata={"description": "What it is worth to each winner."})
    winners = wire.List(fields.Integer(), required=True, metadata={"description": "The players with most meeples on it "
                                                                                  "(K-SCORE-MAJORITY)."})


# the end categories are not totals by category: a road completed in play is on the track (so_far), not in roads
_END_ONLY = ("End-of-game scoring only: the player's points for the {} still holding meeples, scored as at the "
             "end ({}). Points scored in play are in so_far, not here; the total is so_far plus the four end "
             "categories.")


class CarcassonnePlayerScoreSchema(wire.StrictSchema):
    name = fields.String(required=True, metadata={"description": "The player's name."})
    so_far = fields.Integer(required=True, metadata={"description": "The score track: every point scored in play, "
                                                                    "whatever the feature."})
    roads = fields.Integer(required=True, metadata={"description": _END_ONLY.format("roads", "K-END-2")})
    cities = fields.Integer(required=True, metadata={"description": _END_ONLY.format("cities", "K-END-2")})
    cloisters = fields.Integer(required=True, metadata={"description": _END_ONLY.format("cloisters", "K-END-2")})
    fields_ = fields.Integer(required=True, data_key="fields",
                             metadata={"description": _END_ONLY.format("fields", "K-END-3")})
    total = fields.Integer(required=True, metadata={"description": "so_far + roads + cities + cloisters + fields."})


class CarcassonneScoreResponseSchema(wire.StrictSchema):
    players = wire.List(fields.Nested(CarcassonnePlayerScoreSchema), required=True,
                        metadata={"description": "Each player's score track (so_far), end-of-game scoring by "
                                                 "category, and total."})
    features = wire.List(fields.Nested(CarcassonneFeatureScoreSchema), required=True,
                         metadata={"description": "Every feature that holds a meeple, with its points and winners."})
    winners = wire.List(fields.Integer(), required=True, metadata={"description": "Every player with the most points "
                                                                                  "(K-END-4)."})
    winner = wire.winner_field()
    decided_by = fields.String(required=True, validate=validate.OneOf(["points", "shared"]),
                               metadata={"description": "shared: several players have the most points."})
    warnings = wire.warnings_field("None so far.")


# every request and answer, by role (`Carcassonne<role>` in the spec)
FORMS = wire.forms(
    "Carcassonne", state=CarcassonneStateSchema, move=Move, events=EVENT_KINDS,
    score=CarcassonneScoreResponseSchema, score_request="The state to score: finished or not (K-SVC-SCORE).",
    picture_request="The state whose board to draw.",
    new={"variant": CarcassonneVariantSchema,
         "seed_text": "The same seed, player count and variant always deal the same bag. Left out: a random seed, "
                      "returned in the answer.",
         "variant_text": "{\"tower\": true} for The Tower.",
         "names": wire.names_field(MIN_PLAYERS, MAX_PLAYERS, "The players, 2 to 5, in turn order (K-SETUP-2).")},
    requests={"max_moves": MAX_MOVES, "moves_text": "The steps to apply, in order.", "state_text": "The state.",
              "player": Player(required=True, metadata={
                  "description": "A player of the state (0 to its player count - 1)."})},
    answers={"state_text": "The state."},
    listing={"moves": "Every legal next step: every square and rotation where the tile fits, every free feature, "
                      "..."})
