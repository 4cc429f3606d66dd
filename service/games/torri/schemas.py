"""Request and response schemas of Le Torri di San Gimignano (api.md: The Torri state, Moves, Tables)."""
from __future__ import annotations

from functools import partial
import copy
import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ...wire import schemas as wire
from .cards import CARD_NAMES, CARDS_BY_NAME, NOBLE_NAMES
from .messages import tr, tr_n
from .position import build_state, build_table
from .steps import MAX_CARDS_IN_STEP, Step
from .towers import MIN_HEIGHT

CARD_VALUES = list(CARD_NAMES.values())
MAX_CARDS = 128  # no legal pile or row is longer; bounds the work a hostile document can cause
MAX_NAME = 100
MAX_MOVES = 1000
PENDING_TYPES = ("draw", "guard", "target", "take", "give", "refill", "giostra", "rebuild")


def Card(**kwargs) -> fields.String:  # noqa: N802 - a field factory reads like a field class
    return fields.String(validate=validate.OneOf(CARD_VALUES), **kwargs)


def Cards(**kwargs) -> fields.List:  # noqa: N802
    return wire.List(Card(), validate=validate.Length(max=MAX_CARDS), **kwargs)


_CARDS_FIELD = Cards()  # a pile given as a plain list, read by Pile/Counted (one field, reused)


def StepCards(**kwargs) -> fields.List:  # noqa: N802 - the cards a move names (no legal step names more)
    return wire.List(Card(), validate=validate.Length(max=MAX_CARDS_IN_STEP), **kwargs)


def Index(**kwargs) -> fields.Integer:  # noqa: N802
    return fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_CARDS), **kwargs)


CARDS_JSON = {"type": "array", "maxItems": MAX_CARDS, "items": {"type": "string", "enum": CARD_VALUES}}


class TorriCountedDeckSchema(wire.StrictSchema):
    """A face-down pile whose order is not known to the caller (a player's view, a table off a photo)."""

    count = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_CARDS),
                           metadata={"description": "How many cards the pile holds in all, the known `top` and "
                                                    "`bottom` ones included."})
    top = Cards(metadata={"description": "The cards known to lie on top, top first (part of `count`)."})
    bottom = Cards(metadata={"description": "The cards known to lie at the bottom, the lowest last (part of "
                                            "`count`)."})


class TorriCountedHandSchema(wire.StrictSchema):
    """A hand whose cards are not all known to the caller (the opponent's, in a player's view)."""

    count = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_CARDS),
                           metadata={"description": "How many cards the hand holds in all, the `known` ones "
                                                    "included."})
    known = Cards(metadata={"description": "The cards of the hand known to the caller (part of `count`)."})


def Pile(counted: type[Schema], **kwargs: Any) -> wire.ListOrCounted:  # noqa: N802
    """A list of cards, or `{"count": n, …}` when some or all of the cards are unknown."""
    return wire.ListOrCounted(_CARDS_FIELD, CARDS_JSON, counted,
                              tr("Must be a list of cards, or {\"count\": n} when the cards are unknown."), **kwargs)


class TorriVariantSchema(wire.StrictSchema):
    nobles = wire.StrictBoolean(load_default=False, metadata={"description": "The advanced game with noble cards."})


class TorriTowerSchema(wire.StrictSchema):
    cards = Cards(required=True, metadata={"description": "Stories, bottom first."})
    complete = wire.StrictBoolean(load_default=False, metadata={"description": "Roofed (T-ACT-COMPLETE): it takes no "
                                                                                 "more stories."})
    kind = fields.String(validate=validate.OneOf(["plain", "colorful"]),
                         metadata={"description": "Always returned; needed in input only when Buona Pietra makes "
                                                  "the cards ambiguous."})
    rank = fields.Integer(strict=True, validate=validate.Range(min=4, max=11),
                          metadata={"description": "A plain tower's rank, or a colorful tower's bottom rank."})


class TorriPlayerSchema(wire.StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=MAX_NAME),
                         metadata={"description": "The player's name (default: Player 1, 2)."})
    hand = Pile(TorriCountedHandSchema, required=True, metadata={
        "description": "The cards in hand (sorted on output), or {\"count\", \"known\"} when not all are known."})
    towers = wire.List(fields.Nested(TorriTowerSchema), validate=validate.Length(max=MAX_CARDS),
                       metadata={"description": "The player's towers, in the order built."})
    played = Cards(metadata={"description": "Nobles played in front of the player, in order."})


class TorriTablePlayerSchema(wire.StrictSchema):
    name = fields.String(validate=validate.Length(min=1, max=MAX_NAME), metadata={"description": "The player's name."})
    towers = wire.List(fields.Nested(TorriTowerSchema), validate=validate.Length(max=MAX_CARDS),
                       metadata={"description": "The player's towers, in the order built."})
    played = Cards(metadata={"description": "Nobles played in front of the player, in order."})


class TorriPendingTargetSchema(wire.StrictSchema):
    player = Index(required=True, metadata={"description": "The player whose tower is targeted."})
    tower = Index(metadata={"description": "The targeted tower, by index in that player's towers."})


PENDING_ACTIONS = list(dict.fromkeys(("purchase", "exchange", "extend", "income", "via_francigena", "trade",
                                       "conspiracy", "build", *NOBLE_NAMES.values())))


class TorriPendingSchema(wire.TypedUnion, wire.StrictSchema):
    """The decision the current action still waits for, one of the kinds below by `type`. Send it back untouched:
    each type carries only its own fields (loading refuses any other)."""

    type = fields.String(required=True, validate=validate.OneOf(list(PENDING_TYPES)),
                         metadata={"description": "The decision awaited; the moves of /legal-moves answer it."})
    action = fields.String(required=True, validate=validate.OneOf(PENDING_ACTIONS),
                           metadata={"description": "The action or noble that started the decision."})
    player = fields.Integer(strict=True, required=True, validate=validate.OneOf([0, 1]),
                            metadata={"description": "The player who decides."})
    left = Index(metadata={"description": "draw, refill, take: how many cards are still to come."})
    from_ = wire.List(fields.String(validate=validate.OneOf(["deck", "noble_deck", "market"])),
                      data_key="from", validate=validate.Length(max=3),
                      metadata={"description": "draw: the piles the cards may come from."})
    excluded = Cards(metadata={"description": "draw: the market cards that may not be taken (T-ACT-EXCHANGE-2)."})
    built = Index(metadata={"description": "target: the tower just built, by index in its owner's towers."})
    height = Index(metadata={"description": "target: the height the targeted towers share."})
    target = fields.Nested(TorriPendingTargetSchema, metadata={"description": "guard: the tower under threat."})
    size = Index(metadata={"description": "guard: the number of cards the action would take."})
    give = Index(metadata={"description": "take, give: how many cards are to be given back."})
    cards = StepCards(metadata={"description": "giostra, rebuild: the cards of the tower concerned."})
    tower = Index(metadata={"description": "giostra, rebuild: the tower concerned, by index."})
    kind = fields.String(validate=validate.OneOf(["plain", "colorful"]),
                         metadata={"description": "giostra, rebuild: the tower's kind."})
    rank = fields.Integer(strict=True, validate=validate.Range(min=4, max=11),
                          metadata={"description": "giostra, rebuild: the tower's rank."})


# ---------------------------------------------------------------- what one field's schema cannot say

# Each kind of pending decision carries only its own fields: anything else is refused rather than ignored, so a
# hand-edited state cannot carry data that looks meaningful but would be ignored.
_PENDING_BASE = ("type", "action", "player")
PENDING_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": _PENDING_BASE + ("left", "from", "excluded"),
    "refill": _PENDING_BASE + ("left", "from", "excluded"),
    "target": _PENDING_BASE + ("built", "height"),
    "guard": _PENDING_BASE + ("target", "size"),
    "take": _PENDING_BASE + ("left", "give"),
    "give": _PENDING_BASE + ("left", "give"),
    "giostra": _PENDING_BASE + ("cards", "tower", "kind", "rank"),
    "rebuild": _PENDING_BASE + ("cards", "tower", "kind", "rank"),
}
DRAW_ACTIONS = ("purchase", "exchange", "extend", "income", "via_francigena")
PENDING_ACTIONS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "draw": DRAW_ACTIONS, "refill": DRAW_ACTIONS, "target": ("conspiracy",), "guard": ("trade", "conspiracy"),
    "take": ("trade",), "give": ("trade",), "giostra": ("build", "extend", *NOBLE_NAMES.values()),
    "rebuild": ("build", "extend"),
}


PENDING_REQUIRED: dict[str, tuple[str, ...]] = {"target": ("built", "height"), "guard": ("target",)}
PENDING_ALWAYS_GIVEN: dict[str, tuple[str, ...]] = {  # by answers (position.pending_json)
    "draw": ("left", "from", "excluded"), "refill": ("left",), "target": ("built", "height"), "guard": ("target",),
    "take": ("left", "give"), "give": ("left",)}
PENDING_MEANINGS = {
    "draw": "Cards still to draw for the action (T-TURN-4): `left` more, from the piles in `from`, none of the "
            "`excluded` market cards (T-ACT-EXCHANGE-2).",
    "refill": "The market waits to be refilled from a deck whose order is unknown (T-SVC-REFILL): `left` cards to "
              "name.",
    "target": "The Conspiracy's target is to be chosen among the opponent's towers of one height (T-DON-10).",
    "guard": "The opponent may play a 5 against the Trade or Conspiracy (T-DON-5). `size` is given for a Trade only.",
    "take": "The Trade's random take from the opponent's hand (T-DON-9).",
    "give": "The cards the Trade gives back (T-DON-9).",
    "giostra": "The opponent may play Giostra against the build, extension or noble (T-NOB-GIOSTRA).",
    "rebuild": "Giostra removed a Buona Pietra: the builder builds or extends with the rest, or takes them back "
               "(T-NOB-GIOSTRA).",
}


def _pending_kind(kind: str) -> type[Schema]:
    """`Torri<Kind>Pending`: what a pending decision of one type carries (only its own fields, as loading checks)."""
    declared: dict[str, fields.Field] = {}
    for name, field in TorriPendingSchema._declared_fields.items():
        key = field.data_key or name
        if key not in PENDING_FIELDS[kind]:
            continue
        field = copy.deepcopy(field)
        if name == "type":
            field.validators = [validate.Equal(kind)]
            field.metadata = {"description": f"Always \"{kind}\"; the moves of /legal-moves answer it."}
        elif name == "action":
            field.validators = [validate.OneOf(PENDING_ACTIONS_BY_TYPE[kind])]
        elif key not in _PENDING_BASE:  # "draw, refill: the piles …" -> "The piles …"
            text = re.sub(r"^[a-z/, ]+: ", "", field.metadata.get("description", ""))
            field.metadata = {**field.metadata, "description": text[:1].upper() + text[1:]}
            field.required = key in PENDING_REQUIRED.get(kind, ())
        declared[name] = field
    omitted = tuple(name for name, field in declared.items()
                    if (field.data_key or name) not in (*_PENDING_BASE, *PENDING_ALWAYS_GIVEN.get(kind, ())))
    title = kind.title()
    return type(f"Torri{title}PendingSchema", (wire.StrictSchema,),
                {"__doc__": PENDING_MEANINGS[kind], "answer_may_omit": omitted, **declared})


TorriPendingSchema.kinds = {kind: _pending_kind(kind) for kind in PENDING_FIELDS}


def _whole(messages: dict, name: str, value: int | None, low: int, high: int = MAX_CARDS) -> None:
    if value is None or not low <= value <= high:
        messages[name] = [tr("Must be a whole number from {low} to {high}.", low=low, high=high)]


def _pending_messages(loaded: dict, original: dict) -> dict:
    """A pending decision's fields against its type: only its own (in the order the document gives them), its
    action, and the numbers it needs."""
    kind, action = loaded["type"], loaded["action"]
    messages: dict = {key: [tr("Unknown field \"{field}\".", field=str(key)[:40])] for key in original
                      if key not in PENDING_FIELDS[kind]}
    actions = PENDING_ACTIONS_BY_TYPE[kind]
    if action not in actions:
        messages["action"] = [tr("Must be one of {actions}.", actions=", ".join(actions))]
    if kind == "target":
        _whole(messages, "built", loaded.get("built"), 0)
        _whole(messages, "height", loaded.get("height"), MIN_HEIGHT)
    elif kind == "guard":
        target = loaded.get("target")
        if target is None:
            messages["target"] = [tr("Must be an object.")]
        if target is None or action not in actions:
            return messages
        aimed: dict = {}
        _whole(aimed, "player", target["player"], 0, 1)
        if action == "conspiracy":
            _whole(aimed, "tower", target.get("tower"), 0)
        if aimed:
            messages["target"] = aimed
        if action == "trade":
            _whole(messages, "size", loaded.get("size"), MIN_HEIGHT)
    return messages


def _count_message(loaded: Any, parts: tuple[str, ...]) -> list[str] | None:
    """A counted pile ({"count": n, <known parts>}) must count at least the cards it names."""
    if isinstance(loaded, list):
        return None
    known = sum(len(loaded.get(part, ())) for part in parts)
    if loaded["count"] >= known:
        return None
    return [tr_n("\"count\" is the pile's size: at least the {count} known card.",
                 "\"count\" is the pile's size: at least the {count} known cards.", known)]


def _state_shape_messages(loaded: dict, original: dict) -> dict:
    """What the state's fields cannot check one by one, as marshmallow's messages in the document's order: counts
    that cover the cards named beside them, the pending decision against its type. (Only up to two players are
    looked at: a third is a rule broken, T-COMP-3, and then none is read.)"""
    messages: dict = {}
    deck = _count_message(loaded["deck"], ("top", "bottom"))
    if deck:
        messages["deck"] = {"count": deck}
    players = loaded["players"]
    for i, player in enumerate(players if len(players) <= 2 else ()):
        hand = _count_message(player["hand"], ("known",))
        if hand:
            messages.setdefault("players", {})[i] = {"hand": {"count": hand}}
    if loaded.get("pending") is not None:
        pending = _pending_messages(loaded["pending"], original["pending"])
        if pending:
            messages["pending"] = pending
    if loaded.get("variant", {}).get("nobles", False) and "noble_deck" in loaded:  # else unread (T-COMP-2)
        noble_deck = _count_message(loaded["noble_deck"], ("top", "bottom"))
        if noble_deck:
            messages["noble_deck"] = {"count": noble_deck}
    return messages


class TorriStateSchema(wire.BuiltSchema):
    """A whole Torri position (api.md, The Torri state)."""

    build = staticmethod(build_state)
    answer_may_omit = ("noble_deck", "removed", "palazzo")  # the advanced game's only

    game = fields.String(validate=validate.Equal("torri"), metadata={"description": "Always \"torri\"."})
    variant = fields.Nested(TorriVariantSchema, metadata={"description": "The variant played (default: the base "
                                                                         "game)."})
    phase = fields.String(validate=validate.OneOf(["main", "ending", "over"]),
                          metadata={"description": "main until Close is called, then ending, then over."})
    turn = fields.Integer(strict=True, validate=validate.OneOf([0, 1]),
                          metadata={"description": "The player whose turn it is."})
    to_act = fields.Integer(strict=True, allow_none=True, validate=validate.OneOf([0, 1]),
                            metadata={"description": "The player to decide next (the opponent during a reaction); "
                                                     "null once the game is over."})
    passes = fields.Integer(strict=True, validate=validate.Range(min=0, max=2),
                            metadata={"description": "Passes in a row (T-TURN-3: two end the game)."})
    highest = fields.Integer(strict=True, allow_none=True, validate=validate.OneOf([0, 1]),
                             metadata={"description": "The holder of the Highest marker, or null."})
    closed_by = fields.Integer(strict=True, allow_none=True, validate=validate.OneOf([0, 1]),
                               metadata={"description": "Who called Close (T-ACT-CLOSE-1), for T-SCORE-DEALS."})
    deck = Pile(TorriCountedDeckSchema, required=True, metadata={
        "description": "The deck, top first, or {\"count\", \"top\", \"bottom\"} when its order is unknown."})
    market = Cards(required=True, metadata={"description": "The face-up market cards."})
    noble_deck = Pile(TorriCountedDeckSchema, metadata={"description": "The advanced game's noble deck, top first, "
                                                                       "or counted like the deck."})
    removed = Cards(metadata={"description": "Nobles removed from the game."})
    palazzo = fields.Integer(strict=True, allow_none=True, validate=validate.OneOf([0, 1]),
                             metadata={"description": "The player who played Palazzo (T-NOB-PC), or null."})
    players = wire.List(fields.Nested(TorriPlayerSchema), required=True, validate=validate.Length(max=8),
                        metadata={"description": "The two players, player 0 first."})
    pending = fields.Nested(TorriPendingSchema, allow_none=True,
                            metadata={"description": "The decision the current action waits for, or null."})

    @validates_schema(pass_original=True)  # once every field has its shape (skip_on_field_errors)
    def _parts_fit(self, data: dict, original: dict, **kwargs: Any) -> None:
        messages = _state_shape_messages(data, original)
        if messages:
            raise ValidationError(messages)


class TorriTableSchema(wire.BuiltSchema):
    """What a photo of a finished table shows."""

    build = staticmethod(build_table)

    variant = fields.Nested(TorriVariantSchema, metadata={"description": "The variant played (default: the base "
                                                                         "game)."})
    players = wire.List(fields.Nested(TorriTablePlayerSchema), required=True, validate=validate.Length(max=8),
                        metadata={"description": "The two players' towers."})
    highest = fields.Integer(strict=True, allow_none=True, validate=validate.OneOf([0, 1]),
                             metadata={"description": "The holder of the Highest marker, or null."})
    closed_by = fields.Integer(strict=True, allow_none=True, validate=validate.OneOf([0, 1]),
                               metadata={"description": "Who called Close, if anyone (T-SCORE-DEALS)."})


# ---------------------------------------------------------------- moves

MOVE_FIELD_DESCRIPTIONS = {  # what a move's field means, unless the field says it itself
    "from_": "Where the card comes from: the top of the deck or of the noble deck, or the market.",
    "card": "A card, by name: the market card taken, the card that came off an unknown deck, or the noble played.",
    "cards": "Cards, by name, in the order the move uses them (a tower's bottom first).",
    "kind": "plain or colorful: the tower's kind (T-ACT-BUILD-2, T-ACT-BUILD-3).",
    "rank": "A plain tower's rank, or a colorful tower's bottom rank.",
    "tower": "A tower, by its index in its owner's towers.",
    "towers": "The towers, by their index in the player's towers.",
    "player": "The player who owns the tower.",
    "positions": "Positions in the opponent's hand as listed (sorted), one per card taken.",
    "cost": "The cards paid to play the noble, by name.",
}


_move_schema = partial(wire.move_schema, "Torri", descriptions=MOVE_FIELD_DESCRIPTIONS)


MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "purchase": _move_schema("purchase", "Start a Purchase (T-ACT-PURCHASE); then draw steps."),
    "exchange": _move_schema("exchange", "Put 2+ cards on the market (T-ACT-EXCHANGE); then draw steps.",
                             cards=StepCards(required=True)),
    "draw": _move_schema("draw", "Draw one card (T-TURN-4). `card` names a market card, or the card that came off "
                                 "an unknown deck.",
                         from_=fields.String(required=True, data_key="from",
                                             validate=validate.OneOf(["deck", "noble_deck", "market"])),
                         card=Card()),
    "stop": _move_schema("stop", "End Via Francigena draws early."),
    "build": _move_schema("build", "Build a tower from hand (T-ACT-BUILD), bottom first. `kind` and `rank` may "
                                   "always be given (they must agree with the cards); they are required only when "
                                   "Buona Pietra makes the cards ambiguous.",
                          cards=StepCards(required=True),
                          kind=fields.String(validate=validate.OneOf(["plain", "colorful"])),
                          rank=fields.Integer(strict=True, validate=validate.Range(min=4, max=11))),
    "extend": _move_schema("extend", "Add cards on top of an own incomplete tower (T-ACT-EXTEND). `kind` and "
                                     "`rank`, if given, are the tower's and must agree with it.",
                           tower=Index(required=True), cards=StepCards(required=True),
                           kind=fields.String(validate=validate.OneOf(["plain", "colorful"])),
                           rank=fields.Integer(strict=True, validate=validate.Range(min=4, max=11))),
    "complete": _move_schema("complete", "Complete own towers (T-ACT-COMPLETE).",
                             towers=wire.List(Index(), required=True, validate=validate.Length(max=MAX_CARDS))),
    "close": _move_schema("close", "Close the construction (T-ACT-CLOSE)."),
    "pass": _move_schema("pass", "Pass (T-ACT-PASS)."),
    "guard": _move_schema("guard", "Play a 5 against a Trade or Conspiracy (T-DON-5)."),
    "giostra": _move_schema("giostra", "Play Giostra against the opponent's noble (T-NOB-GIOSTRA)."),
    "decline": _move_schema("decline", "Let the effect happen."),
    "target": _move_schema("target", "Choose the Conspiracy's target among tied towers (T-DON-10).",
                           player=Index(required=True), tower=Index(required=True)),
    "take": _move_schema("take", "The Trade's random take (T-DON-9): positions in the opponent's hand as listed "
                                 "(sorted), or the cards when that hand is unknown.",
                         positions=wire.List(Index(), validate=validate.Length(max=MAX_CARDS)), cards=StepCards()),
    "give": _move_schema("give", "The cards a Trade gives back (T-DON-9).", cards=StepCards(required=True)),
    "refill": _move_schema("refill", "Name the cards turned up to refill the market from an unknown deck "
                                               "(T-SVC-REFILL).", cards=StepCards(required=True)),
    "noble": _move_schema("noble", "Play a noble as the turn's action (T-NOB-PLAY).", card=Card(required=True),
                          cost=StepCards()),
}


def _to_step(loaded: dict) -> Step:
    kind = loaded["type"]
    problems: dict[str, list[str]] = {}
    fields_: dict[str, Any] = {}
    if "cards" in loaded:
        cards = tuple(CARDS_BY_NAME[card] for card in loaded["cards"])
        fields_["cards"] = cards if kind in ("build", "extend") else tuple(sorted(cards))  # bottom first
    if "from_" in loaded:
        fields_["source"] = loaded["from_"]
    if "card" in loaded:
        fields_["card"] = CARDS_BY_NAME[loaded["card"]]
    for key in ("tower", "player", "kind", "rank"):
        if key in loaded:
            fields_[key] = loaded[key]
    for key in ("towers", "positions"):
        if key in loaded:
            if len(set(loaded[key])) != len(loaded[key]):
                problems[key] = [tr("A tower is named twice.") if key == "towers" else tr("A position is named twice.")]
            fields_[key] = tuple(sorted(loaded[key]))
    if kind == "take" and ("positions" in loaded) == ("cards" in loaded):
        problems["_schema"] = [tr("A take move names either \"positions\" or \"cards\".")]
    if problems:
        raise ValidationError(problems)
    if kind == "noble":
        fields_["cost"] = tuple(sorted(CARDS_BY_NAME[card] for card in loaded.get("cost", ())))  # none = empty
    return Step(kind, **fields_)


Move = wire.move_union("Torri", "Torri", MOVE_SCHEMAS, _to_step)


parse_step = wire.step_reader(Move)  # the library's reading of a move: the same as the API's


# ---------------------------------------------------------------- the library's reading: the same schemas

load_state, read_state, validate_state = wire.state_readers(TorriStateSchema)
load_table, read_table = wire.table_readers(TorriTableSchema)


# ---------------------------------------------------------------- requests and responses

MAX_NOTATION = 20_000
NOTATION_DESCRIPTION = ("A table in the notation for people (api.md, Notation): one line per player, `Name @: towers "
                        "| nobles`, e.g. `Adso @: 10x3* 9x3* 8x3 6x3* 10-6` and `William: 7x3* 9-5* 10-8* 7-5*`. "
                        "A parse error is a 400 whose message names the line and column.")


class TorriPictureRequestSchema(wire.ExactlyOneOfSchema):
    """Exactly one of `state`, `table` or `notation`: the table to draw."""

    exactly_one = ("state", "table", "notation")
    state = fields.Nested(TorriStateSchema, metadata={"description": "A position: its table is used."})
    table = fields.Nested(TorriTableSchema, metadata={"description": "A table, as a photo shows it."})
    notation = fields.String(validate=validate.Length(max=MAX_NOTATION),
                             metadata={"description": NOTATION_DESCRIPTION})


class TorriScoreRequestSchema(TorriPictureRequestSchema):
    """Exactly one of `state`, `table` or `notation`."""

    several_deals = wire.StrictBoolean(load_default=False, metadata={
        "description": "Score one deal of several (T-SCORE-DEALS, T-SVC-DEALS): the player who called Close and "
                            "did not win the deal gets a close_penalty of -10. Off by default: a single game."})


class TorriNotationRequestSchema(wire.ExactlyOneOfSchema):
    """Exactly one of `state` or `table`: the table to write in notation."""

    exactly_one = ("state", "table")
    state = fields.Nested(TorriStateSchema, metadata={"description": "A position: its table is used."})
    table = fields.Nested(TorriTableSchema, metadata={"description": "A table, as a photo shows it."})


class TorriNotationResponseSchema(wire.StrictSchema):
    notation = fields.String(required=True, metadata={"description": "The table in canonical notation: one line "
                                                                     "per player, each ending with a newline."})




def _who(text: str = "The player who did it.") -> fields.Integer:
    return fields.Integer(metadata={"description": text})


def _named(text: str) -> fields.List:
    return wire.List(fields.String(validate=validate.OneOf(CARD_VALUES)), metadata={"description": text})


def _tower(text: str = "The tower, by its index in its owner's towers.") -> fields.Integer:
    return fields.Integer(metadata={"description": text})


EVENT_KINDS = wire.event_kinds("Torri", {
    "purchase": ("A Purchase began (T-ACT-PURCHASE): draw steps follow.",
                 {"player": _who(), "draws": fields.Integer(metadata={"description": "How many cards it draws."})}),
    "exchange": ("Cards were put on the market (T-ACT-EXCHANGE): as many draw steps follow.",
                 {"player": _who(), "cards": _named("The cards put on the market.")}),
    "drew": ("A card was drawn (T-TURN-4).",
             {"player": _who("The player who drew it."),
              "from": fields.String(validate=validate.OneOf(["deck", "noble_deck", "market"]),
                                    metadata={"description": "Where it came from."}),
              "card": wire.sometimes(fields.String(validate=validate.OneOf(CARD_VALUES), metadata={
                  "description": "The card; left out when the events are told to the opponent of a player who drew "
                                 "from a deck (`player` in the request): drawn face down."}))}),
    "stopped": ("Via Francigena's draws were ended early.", {"player": _who()}),
    "refilled": ("The market was refilled from the deck (T-MKT-1).",
                 {"cards": _named("The market's cards after the refill.")}),
    "built": ("A tower was built from hand (T-ACT-BUILD).",
              {"player": _who("The builder."), "tower": _tower("The new tower, by its index in the builder's towers."),
               "cards": _named("Its stories, bottom first."),
               "kind": fields.String(validate=validate.OneOf(["plain", "colorful"]),
                                     metadata={"description": "plain or colorful."}),
               "rank": fields.Integer(metadata={"description": "A plain tower's rank, or a colorful tower's bottom "
                                                              "rank."})}),
    "extended": ("Cards were added on top of a tower (T-ACT-EXTEND).",
                 {"player": _who(), "tower": _tower(), "cards": _named("The cards added, bottom first.")}),
    "completed": ("Towers were roofed (T-ACT-COMPLETE).",
                  {"player": _who(), "towers": wire.List(fields.Integer(), metadata={
                      "description": "The towers completed, by index in the player's towers."})}),
    "marker": ("The Highest marker changed hands (T-HIGH).",
               {"player": _who("Its new holder."),
                "height": fields.Integer(metadata={"description": "The height of the holder's tallest tower."})}),
    "donazione": ("A tower's Donazione took effect (T-DON): income (draws), trade or conspiracy.",
                  {"effect": fields.String(validate=validate.OneOf(["income", "trade", "conspiracy"]),
                                           metadata={"description": "The Donazione's effect."}),
                   "player": _who("The builder."),
                   "draws": wire.sometimes(fields.Integer(metadata={"description": "income only: the cards to "
                                                                                   "draw."}))}),
    "no_target": ("A Conspiracy found no tower to target (T-DON-10).", {}),
    "targeted": ("A Conspiracy aims at a tower (T-DON-10).",
                 {"player": _who("The tower's owner."), "tower": _tower()}),
    "guarded": ("A 5 was played against a Trade or Conspiracy (T-DON-5): it has no effect.",
                {"player": _who("The player who guarded."),
                 "effect": fields.String(validate=validate.OneOf(["trade", "conspiracy"]),
                                         metadata={"description": "The effect guarded against."})}),
    "declined": ("A player let a Trade, a Conspiracy or a noble happen without answering it.",
                 {"player": _who("The player who declined.")}),
    "took": ("A Trade took cards from the opponent's hand (T-DON-9).",
             {"player": _who("The player who took them."),
              "from": fields.Integer(metadata={"description": "The player they were taken from."}),
              "cards": _named("The cards taken.")}),
    "gave": ("A Trade gave cards back (T-DON-9).",
             {"player": _who("The player who gave them."),
              "to": fields.Integer(metadata={"description": "The player they were given to."}),
              "cards": _named("The cards given.")}),
    "destroyed": ("A Conspiracy destroyed a tower (T-DON-10).",
                  {"player": _who("The tower's owner."), "tower": _tower(),
                   "cards": _named("The tower's cards, out of the game.")}),
    "phase": ("The game entered another phase: ending, after the deck ran out or Close was called (T-END).",
              {"phase": fields.String(validate=validate.OneOf(["ending"]), metadata={"description": "The new "
                                                                                                 "phase."}),
               "reason": fields.String(validate=validate.OneOf(["deck_empty", "close"]),
                                       metadata={"description": "Why."})}),
    "closed": ("Close was called (T-ACT-CLOSE).", {"player": _who()}),
    "passed": ("A player passed (T-ACT-PASS).", {"player": _who()}),
    "turn": ("The turn passed to a player.", {"player": _who("The player whose turn it is now.")}),
    "game_over": ("Two passes in a row ended the game (T-TURN-3, T-END-4): /score scores it.", {}),
    "noble": ("A noble was played (T-NOB-PLAY).",
              {"player": _who(), "card": fields.String(validate=validate.OneOf(CARD_VALUES),
                                                       metadata={"description": "The noble."}),
               "cost": _named("The cards paid for it."),
               "fizzled": wire.sometimes(fields.Boolean(metadata={"description": "Present and true when the noble "
                                                                                "had no effect."}))}),
    "giostra": ("Giostra was played against the opponent's build, extension or noble (T-NOB-GIOSTRA).",
                {"player": _who("The player who played Giostra."),
                 "against": fields.String(validate=validate.OneOf(PENDING_ACTIONS),
                                          metadata={"description": "The action or noble countered."})}),
    "cancelled": ("A noble was cancelled by Giostra (T-NOB-GIOSTRA).",
                  {"player": _who("The noble's player."),
                   "card": fields.String(validate=validate.OneOf(CARD_VALUES),
                                         metadata={"description": "The noble cancelled."})}),
    "took_back": ("After Giostra, the builder took the tower's cards back into hand (T-NOB-GIOSTRA).",
                  {"player": _who("The builder."), "cards": _named("The cards taken back.")}),
})


class TorriPlayerScoreSchema(wire.StrictSchema):
    name = fields.String(required=True, metadata={"description": "The player's name."})
    categories = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                             metadata={"description": "completion, blessing, plain, colorful, highest, monumento, "
                                                      "cappella"})
    plain_ranks_won = wire.List(fields.Integer(), required=True,
                                metadata={"description": "The ranks whose plain-tower bonus the player won."})
    total = fields.Integer(required=True, metadata={"description": "The sum of the categories."})


class TorriScoreResponseSchema(wire.StrictSchema):
    players = wire.List(fields.Nested(TorriPlayerScoreSchema), required=True,
                        metadata={"description": "Each player's points, player 0 first."})
    winner = wire.winner_field("The winner, or null for a draw.")
    decided_by = fields.String(required=True, validate=validate.OneOf(["points", "highest", "draw"]),
                               metadata={"description": "points; highest: equal points, the Highest marker "
                                                        "decides (T-SCORE-WIN); draw."})
    warnings = wire.warnings_field()


# every request and answer, by role (`Torri<role>` in the spec)
FORMS = wire.forms(
    "Torri", state=TorriStateSchema, table=TorriTableSchema, move=Move, events=EVENT_KINDS, score=TorriScoreResponseSchema,
    score_request=TorriScoreRequestSchema, picture_request=TorriPictureRequestSchema,
    notation=(TorriNotationRequestSchema, TorriNotationResponseSchema),
    new={"variant": TorriVariantSchema,
         "seed_text": "The same seed always deals the same cards. Left out: a random seed, returned in the answer.",
         "variant_text": "The variant to deal (default: the base game).",
         "names": wire.List(fields.String(validate=validate.Length(min=1, max=MAX_NAME)),
                            validate=validate.Length(equal=2),
                            metadata={"description": "The two players' names, player 0 first (default: Player 1, 2)."})},
    requests={"max_moves": MAX_MOVES,
              "player": fields.Integer(strict=True, required=True, validate=validate.OneOf([0, 1]),
                                       metadata={"description": "The player who looks."})},
    answers={"seed_text": "The seed dealt from: send it again for the same deal."},
    listing={"to_act": "The player who chooses among the moves; null once the game is over."})
