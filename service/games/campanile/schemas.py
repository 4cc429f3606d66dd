"""Request and response schemas of Campanile (api.md adapted: 2 to 5 players, the Campanile state and moves of
service/games/campanile, tables of towers and tokens)."""
from __future__ import annotations

from functools import partial
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ...wire import schemas as wire
from .cards import MAX_PLAYERS, MIN_PLAYERS, STYLES
from .messages import tr, tr_n
from .position import build_state, build_table
from .steps import Step

STYLE_VALUES = list(STYLES)
MAX_CARDS = 128
MAX_MOVES = 1000
MAX_PLAYER_LIST = 8  # the count itself is a rule (C-SETUP-1): 422, not 400
PLAYER_INDEX = validate.Range(min=0, max=MAX_PLAYERS - 1)
TOWER_INDEX = validate.Range(min=0, max=len(STYLES) - 1)


def Card(**kwargs) -> fields.String:  # noqa: N802 - a field factory reads like a field class
    return fields.String(validate=validate.OneOf(STYLE_VALUES), **kwargs)


def Cards(**kwargs) -> fields.List:  # noqa: N802
    return wire.List(Card(), validate=validate.Length(max=MAX_CARDS), **kwargs)


_CARDS_FIELD = Cards()  # a pile given as a plain list, read by Pile/Counted (one field, reused)


def Count(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_CARDS), **kwargs)


class OneOf(validate.OneOf):
    """marshmallow's OneOf, its error a message of the catalogues given as it is (marshmallow would format it into a
    plain English str)."""

    def _format_error(self, value: Any) -> str:
        return self.error


def Stories(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=OneOf(
        [1, 2, 3], error=tr("1, 2 or 3: a card raises its tower by 1, 2 or 3 stories (C-TURN-PLAY).")), **kwargs)


CARDS_JSON = {"type": "array", "maxItems": MAX_CARDS, "items": {"type": "string", "enum": STYLE_VALUES}}


class CampanileCountedCardsSchema(wire.StrictSchema):
    """Cards not all known to the caller (another player's hand in a view, the removed cards)."""

    count = Count(required=True, metadata={"description": "How many cards there are in all, the `known` ones "
                                                          "included."})
    known = Cards(metadata={"description": "The cards known to the caller (part of `count`)."})

    @validates_schema
    def _count_covers_known(self, data: dict, **kwargs: Any) -> None:
        known = len(data.get("known", ()))
        if data["count"] < known:
            # Translators: "count" is a field of the state, kept in English.
            raise ValidationError({"count": [tr_n("\"count\" is the number of cards: at least the {count} known one.",
                                                  "\"count\" is the number of cards: at least the {count} known "
                                                  "ones.", known)]})


class CampanileCountedPileSchema(wire.StrictSchema):
    """A Finito pile whose cards under the face-up top are unknown to the caller."""

    count = Count(required=True, metadata={"description": "How many cards the pile holds in all, the face-up "
                                                          "`top` included."})
    top = Card(metadata={"description": "The face-up top card (C-SETUP-3); required unless the pile is empty."})

    @validates_schema
    def _empty_has_no_top(self, data: dict, **kwargs: Any) -> None:
        if data["count"] == 0 and "top" in data:
            raise ValidationError({"top": [tr("An empty pile has no top card.")]})


def Counted(counted: type[Schema], **kwargs: Any) -> wire.ListOrCounted:  # noqa: N802
    """A list of cards, or `{"count": n, …}` when some or all of them are unknown (C-SVC-UNKNOWN)."""
    # Translators: {"count": n, …} is the JSON form of cards not all known, kept as it is.
    refused = tr("Must be a list of cards, or {\"count\": n, …} when the cards are unknown.")
    return wire.ListOrCounted(_CARDS_FIELD, CARDS_JSON, counted, refused, **kwargs)


class CampanileVariantSchema(wire.StrictSchema):
    bet_on_played = wire.StrictBoolean(load_default=False, metadata={
        "description": "C-VAR-1: a player may also bet on the tower they played on this turn."})


class CampanileSupplySchema(wire.StrictSchema):
    """Tokens not yet placed, by value (C-COMP-4: 5 of value 1, 3 of value 2, 1 of value 3 at the start)."""

    one = Count(data_key="1", required=True, metadata={"description": "Tokens of value 1 not yet placed."})
    two = Count(data_key="2", required=True, metadata={"description": "Tokens of value 2 not yet placed."})
    three = Count(data_key="3", required=True, metadata={"description": "Tokens of value 3 not yet placed."})


class CampanilePlayerSchema(wire.StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=100), metadata={"description": "The player's name."})
    hand = Counted(CampanileCountedCardsSchema, required=True,
                   metadata={"description": "The cards in hand (sorted on output), or {\"count\", \"known\"}."})
    supply = fields.Nested(CampanileSupplySchema, metadata={"description": "Left out: the full supply."})


class CampanileTablePlayerSchema(wire.StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=100), metadata={"description": "The player's name."})


class CampanileTokenSchema(wire.StrictSchema):
    player = fields.Integer(strict=True, required=True, validate=PLAYER_INDEX,
                            metadata={"description": "The player who placed it."})
    value = fields.Integer(strict=True, required=True, validate=validate.OneOf([1, 2, 3]),
                           metadata={"description": "The token's value: 1, 2 or 3."})


class CampanileTowerSchema(wire.StrictSchema):
    style = Card(metadata={"description": "The tower at position i has style i (A nearest the piles); may be left "
                                          "out."})
    plays = wire.List(Stories(), validate=validate.Length(max=MAX_CARDS),
                             metadata={"description": "The stories each card added, in order: the height is their sum, "
                                                      "the card count their number."})
    tokens = wire.List(fields.Nested(CampanileTokenSchema), validate=validate.Length(max=MAX_CARDS),
                              metadata={"description": "Tokens under the tower, in the order placed (C-TURN-BET)."})


class CampanileLastPlaySchema(wire.StrictSchema):
    tower = fields.Integer(strict=True, required=True, validate=TOWER_INDEX,
                           metadata={"description": "The tower just played on, by position (0 to 4)."})
    stories = Stories(required=True, metadata={"description": "The stories the card added: 1, 2 or 3."})


class CampanileStateSchema(wire.BuiltSchema):
    """A whole Campanile position."""

    build = staticmethod(build_state)

    game = fields.String(validate=validate.Equal("campanile"), metadata={"description": "Always \"campanile\"."})
    variant = fields.Nested(CampanileVariantSchema, metadata={"description": "The variant played (default: none)."})
    players = wire.List(fields.Nested(CampanilePlayerSchema), required=True,
                        validate=validate.Length(max=MAX_PLAYER_LIST), metadata={"description": "2 to 5 players."})
    towers = wire.List(fields.Nested(CampanileTowerSchema), required=True, validate=validate.Length(max=MAX_CARDS),
                       metadata={"description": "The five towers, position 0 (style A, nearest the piles) to 4."})
    piles = wire.List(Counted(CampanileCountedPileSchema), required=True, validate=validate.Length(max=MAX_CARDS),
                             metadata={"description": "Finito piles 1, 2, 3: each a list, top first, or {\"count\", "
                                                      "\"top\"} when the cards under the face-up top are unknown."})
    removed = Counted(CampanileCountedCardsSchema, metadata={
        "description": "The cards removed after the deal (C-SETUP-2, C-SVC-REMOVED), or {\"count\", \"known\"}."})
    turn = fields.Integer(strict=True, validate=PLAYER_INDEX, metadata={"description": "The player whose turn it "
                                                                                      "is."})
    step = fields.String(validate=validate.OneOf(["play", "bet", "draw", "over"]),
                         metadata={"description": "The step due (C-SVC-STEP)."})
    last_play = fields.Nested(CampanileLastPlaySchema, allow_none=True,
                              metadata={"description": "During the bet and draw steps: the tower just played and the "
                                                       "stories added; otherwise null."})


class CampanileTableSchema(wire.BuiltSchema):
    """What a photo of a finished table shows: the players and the five towers with their tokens."""

    build = staticmethod(build_table)

    variant = fields.Nested(CampanileVariantSchema, metadata={"description": "The variant played (default: none)."})
    players = wire.List(fields.Nested(CampanileTablePlayerSchema), required=True,
                        validate=validate.Length(max=MAX_PLAYER_LIST),
                        metadata={"description": "The players, in turn order."})
    towers = wire.List(fields.Nested(CampanileTowerSchema), required=True, validate=validate.Length(max=MAX_CARDS),
                       metadata={"description": "The five towers, position 0 (style A, nearest the piles) to 4."})


# ---------------------------------------------------------------- moves

MOVE_FIELD_DESCRIPTIONS = {  # what a move's field means, unless the field says it itself
    "card": "The card played, by style (A to E): it goes on the tower of its style.",
    "stories": "How many stories the card adds: 1, 2 or 3.",
    "tower": "The tower the token goes under, by position (0 to 4).",
    "value": "The token's value: 1, 2 or 3, from the player's supply.",
    "reveals": "The card turned face up next on the pile, when the state does not know it (C-SVC-UNKNOWN).",
}


_move_schema = partial(wire.move_schema, "Campanile", descriptions=MOVE_FIELD_DESCRIPTIONS)


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


Move = wire.move_union("Campanile", "Campanile", MOVE_SCHEMAS, lambda loaded: Step(**loaded))


parse_step = wire.step_reader(Move)  # the library's reading of a move: the same as the API's


# ---------------------------------------------------------------- the library's reading: the same schemas

load_state, read_state, validate_state = wire.state_readers(CampanileStateSchema)
load_table, read_table = wire.table_readers(CampanileTableSchema)


# ---------------------------------------------------------------- requests and responses

class CampanileScoreRequestSchema(wire.ExactlyOneOfSchema):
    """Exactly one of `state` or `table`: what to score."""

    exactly_one = ("state", "table")
    state = fields.Nested(CampanileStateSchema,
                          metadata={"description": "A position: its towers and tokens are scored."})
    table = fields.Nested(CampanileTableSchema, metadata={"description": "A finished table, as a photo shows it."})


class CampanilePictureRequestSchema(CampanileScoreRequestSchema):
    """Exactly one of `state` or `table`: the table to draw."""


def _number(text: str) -> fields.Integer:
    return fields.Integer(metadata={"description": text})


_PLAYER = "The player who did it."
EVENT_KINDS = wire.event_kinds("Campanile", {
    "played": ("A card was played onto the tower of its style (C-TURN-PLAY).",
               {"player": _number(_PLAYER), "card": Card(metadata={"description": "The card played."}),
                "tower": _number("The tower raised, by its index (its style's place in the row)."),
                "stories": _number("The stories built: 1, 2 or 3."),
                "height": _number("The tower's height after it.")}),
    "bet": ("A token was placed under a tower (C-TURN-BET).",
            {"player": _number(_PLAYER), "tower": _number("The tower, by its index."),
             "value": _number("The token's value: 1, 2 or 3.")}),
    "no_bet": ("The player placed no token this turn (C-TURN-BET).", {"player": _number(_PLAYER)}),
    "drew": ("The top card of a pile was taken and the next turned face up (C-TURN-DRAW).",
             {"player": _number(_PLAYER), "pile": _number("The pile, numbered 1 to 3 as the stories built."),
              "card": Card(metadata={"description": "The card taken."}),
              "revealed": Card(allow_none=True, metadata={"description": "The pile's new face-up top card; null "
                                                                         "when the pile is empty."}),
              "left": _number("The cards left in the pile.")}),
    "passed": ("A player with no card in hand passed (C-TURN-END).", {"player": _number(_PLAYER)}),
    "turn": ("The turn passed to a player.", {"player": _number("The player whose turn it is now.")}),
    "game_over": ("The game ended: a pile's last card was taken (C-END-1), or nobody holds a card (C-SVC-PASS).",
                  {"reason": fields.String(validate=validate.OneOf(["pile_empty", "no_cards"]),
                                           metadata={"description": "pile_empty or no_cards."}),
                   "pile": wire.sometimes(_number("pile_empty: the pile emptied.")),
                   "winners": wire.List(fields.Integer(), metadata={"description": "The winners (C-END-4: equal "
                                                                                    "points share the win)."})}),
})


class CampanileFlagSchema(wire.StrictSchema):
    large = fields.Integer(required=True, metadata={"description": "The points of the tower's large flag (C-END-2)."})
    small = fields.Integer(required=True, metadata={"description": "The points of the tower's small flag (C-END-2)."})


class CampanileStandingSchema(wire.StrictSchema):
    player = fields.Integer(required=True, metadata={"description": "The player, by index."})
    total = fields.Integer(required=True, metadata={"description": "The total of the player's token values."})
    first_token = fields.Integer(required=True, metadata={"description": "Index (in the tower's tokens) of the "
                                                                         "player's first token: C-END-3's tie-break."})
    points = fields.Integer(required=True, metadata={"description": "The points the player scores at this tower."})


class CampanileAwardSchema(wire.StrictSchema):
    player = fields.Integer(required=True, metadata={"description": "The player who wins the flag."})
    points = fields.Integer(required=True, metadata={"description": "The flag's points."})
    total = fields.Integer(required=True,
                           metadata={"description": "The winner's total of token values under the tower."})
    reason = fields.String(required=True, validate=validate.OneOf(["total", "placed_first", "placed_later"]),
                           metadata={"description": "total: no other bettor had the same total; placed_first: an "
                                                    "equal total below, beaten by placing a token first (C-END-3); "
                                                    "placed_later: an equal total above, which placed first."})


class CampanileTowerScoreSchema(wire.StrictSchema):
    position = fields.Integer(required=True,
                              metadata={"description": "The tower's position, 0 (nearest the piles) to 4."})
    style = fields.String(required=True, metadata={"description": "The tower's style, A to E."})
    height = fields.Integer(required=True, metadata={"description": "The tower's height in stories."})
    cards = fields.Integer(required=True, metadata={"description": "How many cards the tower holds."})
    rank = fields.Integer(required=True, metadata={"description": "1 for the tallest (C-END-2)."})
    ranked_by = fields.String(required=True, validate=validate.OneOf(["height", "position"]),
                              metadata={"description": "position: another tower has the same height, and the one "
                                                       "nearer the piles ranks higher."})
    tied_with = wire.List(fields.Integer(), required=True,
                          metadata={"description": "The positions of the towers of the same height."})
    flag = fields.Nested(CampanileFlagSchema, required=True, allow_none=True,
                         metadata={"description": "The flags the tower's rank is worth, or null when it scores none."})
    standings = wire.List(fields.Nested(CampanileStandingSchema), required=True,
                          metadata={"description": "Every player with a token under the tower."})
    large = fields.Nested(CampanileAwardSchema, required=True, allow_none=True,
                          metadata={"description": "Who wins the large flag, or null."})
    small = fields.Nested(CampanileAwardSchema, required=True, allow_none=True,
                          metadata={"description": "Who wins the small flag, or null."})


class CampanilePlayerScoreSchema(wire.StrictSchema):
    name = fields.String(required=True, metadata={"description": "The player's name."})
    towers = wire.List(fields.Integer(), required=True, metadata={"description": "Points from each tower, by "
                                                                                        "position."})
    total = fields.Integer(required=True, metadata={"description": "The player's points: the sum over the towers."})
    supply = fields.Nested(CampanileSupplySchema, required=True, metadata={"description": "Tokens never placed: "
                                                                                          "they score nothing."})


class CampanileScoreResponseSchema(wire.StrictSchema):
    towers = wire.List(fields.Nested(CampanileTowerScoreSchema), required=True,
                       metadata={"description": "Each tower's ranking and flags, by position."})
    players = wire.List(fields.Nested(CampanilePlayerScoreSchema), required=True,
                        metadata={"description": "Each player's points, in turn order."})
    winners = wire.List(fields.Integer(), required=True, metadata={"description": "Every player with the most "
                                                                                         "points (C-END-4)."})
    winner = wire.winner_field()
    decided_by = fields.String(required=True, validate=validate.OneOf(["points", "shared"]),
                               metadata={"description": "points: one player has the most; shared: several do "
                                                        "(C-END-4)."})
    warnings = wire.warnings_field()


# every request and answer, by role (`Campanile<role>` in the spec)
FORMS = wire.forms(
    "Campanile", state=CampanileStateSchema, table=CampanileTableSchema, move=Move, events=EVENT_KINDS,
    score=CampanileScoreResponseSchema, score_request=CampanileScoreRequestSchema,
    picture_request=CampanilePictureRequestSchema,
    new={"variant": CampanileVariantSchema,
         "seed_text": "The same seed (and player count) always deals the same cards. Left out: a random seed, "
                      "returned in the answer.",
         "variant_text": "The variant to deal (default: none).",
         "names": wire.names_field(MIN_PLAYERS, MAX_PLAYERS, "The players, 2 to 5, in turn order: their number is the "
                                                             "player count (C-SETUP-1).")},
    requests={"max_moves": MAX_MOVES,
              "player": fields.Integer(strict=True, required=True, validate=PLAYER_INDEX, metadata={
                  "description": "A player of the state (0 to its player count - 1)."})},
    answers={"seed_text": "The seed dealt from: send it again for the same deal."})
