"""Compiled loading (service/wire/strict.py) changes nothing but speed: every game's request schemas load
the same data, and refuse with the same messages, with it and without it (marshmallow alone), for real requests and
for requests broken anywhere."""
from __future__ import annotations

import copy
from contextlib import contextmanager
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, post_load, pre_load, validate, validates_schema

from service.wire import schemas as wire
from service.wire import strict
from service.wire.strict import FLAT_LIST_MIN, Decline, flat_list_reader, loader_of
from service.wire.schemas import List, StrictSchema
from service.games.registry import GAMES
from tests.conformance import json_paths

REQUESTS = ("NewRequest", "StateRequest", "ViewRequest", "MovesRequest", "ScoreRequest")


def _bodies(game: str) -> list[dict]:
    """Real request bodies of the game: its contract examples and the state they deal, before and after the moves."""
    adapter = GAMES[game]
    examples = adapter.examples
    dealt = adapter.new({**examples["new"], "seed": examples["new"].get("seed", 1)})["state"]
    bodies = [{**examples["new"], "seed": 3}, {"state": dealt}, {"state": dealt, "player": 1},
              {"state": dealt, "moves": examples["apply"]["moves"]}]
    after = adapter.apply({"state": dealt, "moves": examples["apply"]["moves"]})["state"]
    bodies.append({"state": after})
    for name in ("score", "picture", "validate"):
        if name in examples:
            bodies.append(copy.deepcopy(examples[name]))
    return bodies


BODIES = {game: _bodies(game) for game in GAMES}


@contextmanager
def without_fast_path() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(List, "_fast_items", lambda self: None)
        patch.setattr(wire, "loader_of", lambda schema: None)
        patch.setattr(strict, "loader_of", lambda schema: None)
        yield


def _load(schema: Schema, body: Any) -> tuple[str, Any]:
    try:
        return "loaded", schema.load(body)
    except ValidationError as error:
        return "refused", error.messages


def _both(schema_class: type[Schema], body: Any) -> tuple[tuple[str, Any], tuple[str, Any]]:
    fast = _load(schema_class(), copy.deepcopy(body))
    with without_fast_path():
        slow = _load(schema_class(), copy.deepcopy(body))
    return fast, slow


def _schema_classes(game: str) -> list[type[Schema]]:
    forms = GAMES[game].wire
    return [forms.schema(role) for role in REQUESTS if forms.schema(role) is not None]


def _schema_loads(schema_class: type[Schema], body: Any) -> int:
    """How many schema loads reading `body` takes (the request, each nested object loaded through its schema)."""
    calls = 0
    original = Schema._do_load

    def counting(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        return original(self, *args, **kwargs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Schema, "_do_load", counting)
        schema_class().load(copy.deepcopy(body))
    return calls


@pytest.mark.parametrize("game", sorted(GAMES))
def test_real_requests_load_the_same_and_take_the_fast_path(game):
    for body in BODIES[game]:
        for schema_class in _schema_classes(game):
            fast, slow = _both(schema_class, body)
            assert fast == slow, (schema_class.__name__, body)
    # the board items of the examples (tiles, hexagons, towers) are checked by a compiled checker, not one load each
    saved = 0
    for body in BODIES[game]:
        for schema_class in _schema_classes(game):
            with without_fast_path():
                slow = _schema_loads(schema_class, body) if _load(schema_class(), body)[0] == "loaded" else 0
            saved += slow and slow - _schema_loads(schema_class, body)
    assert saved > 0


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 40, 2 ** 40), st.floats(allow_nan=False),
                 st.text(max_size=6), st.sampled_from([0, 1, 90, 2, 10_001, "A", "BA/L", "N", "cloister", ""]),
                 st.lists(st.integers(-3, 3), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(),
                                                                            max_size=2))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), game=st.sampled_from(sorted(GAMES)))
def test_requests_broken_anywhere_load_or_fail_the_same(data, game):
    body = copy.deepcopy(data.draw(st.sampled_from(BODIES[game])))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in json_paths(body) if p]))
        parent = body
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["extra", "at", "tile", "player", "x"]))] = data.draw(JUNK)
        else:
            parent[path[-1]] = data.draw(JUNK)
        if not list(json_paths(body))[1:]:
            break
    for schema_class in _schema_classes(game):
        fast, slow = _both(schema_class, body)
        assert fast == slow


def test_the_compiled_loader_declines_what_it_does_not_know():
    class Placement(StrictSchema):
        at = List(fields.Integer(strict=True), required=True, validate=validate.Length(equal=2))
        note = fields.String(load_default="none")
        seen = fields.Integer(validate=validate.NoneOf([7]))

        @validates_schema
        def _not_origin(self, data, **kwargs):
            if data["at"] == [0, 0]:
                raise ValidationError("Not the origin.")

        @post_load
        def _made(self, data, **kwargs):
            return tuple(data["at"]), data["note"]

    schema = Placement()
    load = loader_of(schema)
    assert load({"at": [1, 2]}) == ((1, 2), "none") == Placement().load({"at": [1, 2]})
    assert load({"at": (1, 2), "seen": 3}) == ((1, 2), "none")
    for doubtful in ({"at": [True, 2]}, {"at": [1.0, 2]}, {"at": [1]}, {}, {"at": [1, 2], "extra": 1}, [], None,
                     {"at": [1, 2], "note": None}, {"at": [0, 0]}, {"at": [1, 2], "seen": 7}, {"at": "12"}):
        with pytest.raises(Decline):
            load(doubtful)
        with pytest.raises(ValidationError):  # marshmallow refuses it too, with its own messages
            schema.load(doubtful)

    # null only where the field allows it, whatever its type (a Raw field too)
    anything = loader_of(type("Anything", (StrictSchema,),
                              {"seed": fields.Raw(), "note": fields.Raw(allow_none=True)})())
    assert anything({"seed": [1], "note": None}) == {"seed": [1], "note": None}
    with pytest.raises(Decline):
        anything({"seed": None})

    # what it does not mirror is not compiled: marshmallow loads it
    assert loader_of(type("WithPreLoad", (Schema,), {"at": fields.Integer(strict=True),
                                                     "done": pre_load(lambda self, data, **kw: data)})()) is None
    assert loader_of(type("Original", (Schema,), {"at": fields.Integer(strict=True), "done": post_load(
        pass_original=True)(lambda self, data, original, **kw: data)})()) is None
    assert loader_of(Placement(many=True)) is None and loader_of(Placement(partial=True)) is None
    # a field of a kind it does not know is read by the field itself
    loose = loader_of(type("Loose", (Schema,), {"at": fields.Float()})())
    assert loose({"at": 1}) == {"at": 1.0} and type(loose({"at": 1})["at"]) is float
    with pytest.raises(Decline):
        loose({"at": "x"})


def test_a_list_of_flat_objects_is_read_in_one_pass_and_the_same():
    class Square(StrictSchema):
        at = List(fields.Integer(strict=True, validate=validate.Range(min=-9, max=9)), required=True,
                  validate=validate.Length(equal=2))
        tile = fields.String(required=True, validate=validate.OneOf(["A", "B"]))
        turn = fields.Integer(strict=True, validate=validate.OneOf([0, 90]))
        name = fields.String(validate=validate.Length(min=1, max=2))
        top = fields.Integer(strict=True, allow_none=True, validate=validate.Range(min=0, max=3))
        tokens = List(List(fields.Integer(strict=True)), validate=validate.Length(max=2))
        done = wire.StrictBoolean()

    class Board(StrictSchema):
        board = List(fields.Nested(Square), required=True, validate=validate.Length(max=FLAT_LIST_MIN + 2))

    board_field = Board().load_fields["board"]
    assert flat_list_reader(board_field) is not None  # read by msgspec, not item by item
    load = loader_of(Board())
    pad = [{"at": [0, 0], "tile": "B"}] * (FLAT_LIST_MIN - 1)  # long enough for msgspec with one item more
    good = {"board": [*pad, {"at": [1, -2], "tile": "A"}, {"at": [0, 0], "tile": "B", "turn": 90, "name": "éé",
                                                           "top": None, "tokens": [[1], []], "done": False}]}
    assert load(copy.deepcopy(good)) == good == Board().load(copy.deepcopy(good))
    short = {"board": good["board"][-2:]}  # checked item by item: the same
    assert load(copy.deepcopy(short)) == short == Board().load(copy.deepcopy(short))
    doubtful_items = [{"at": [1, 2], "tile": "A", "extra": 1}, {"at": [True, 2], "tile": "A"},
                      {"at": [1.0, 2], "tile": "A"}, {"at": [10, 2], "tile": "A"}, {"at": [1], "tile": "A"},
                      {"at": [1, 2], "tile": "C"}, {"at": [1, 2]}, {"at": [1, 2], "tile": "A", "turn": 1},
                      {"at": [1, 2], "tile": "A", "name": "ééé"}, {"at": [1, 2], "tile": "A", "name": ""},
                      {"at": [1, 2], "tile": "A", "top": 4}, {"at": [1, 2], "tile": "A", "done": 1},
                      {"at": [1, 2], "tile": "A", "tokens": [[1], [2], [3]]}, {"at": [1, 2], "tile": None},
                      {"at": [1, 2], "tile": "A", "tokens": [["1"]]}, [], None, "A"]
    for item in doubtful_items:
        for body in ({"board": [*pad, item]}, {"board": [item]}):  # by msgspec, and item by item
            with pytest.raises(Decline):
                load(copy.deepcopy(body))
            with pytest.raises(ValidationError):  # marshmallow refuses it too, with its own messages
                Board().load(copy.deepcopy(body))
    with pytest.raises(Decline):  # the list's own length, checked with its items
        load({"board": [{"at": [0, 0], "tile": "A"}] * (FLAT_LIST_MIN + 3)})

    # an item schema with a default, a hook, a nested object or a validator msgspec cannot say is read as before
    for extra in ({"seen": fields.Integer(load_default=0)}, {"seen": fields.Integer(validate=validate.NoneOf([7]))},
                  {"inner": fields.Nested(Square)}, {"done": post_load(lambda self, data, **kw: data)}):
        item = type("Item", (StrictSchema,), {"at": fields.Integer(strict=True), **extra})
        assert flat_list_reader(List(fields.Nested(item))) is None
