"""A fast path for the lists of small objects that make up a board (Carcassonne's placements and meeples, San
Gimignano's hexagons and tokens): marshmallow loads each item through a nested schema, which costs about 20 µs an
item, more than the game spends reading the whole state. For a list whose items are objects of plain fields, a
checker is compiled once from the schema itself and applied to every item; it gives what the schema's `load` gives
for an item it accepts, and declines (`Decline`) at the first doubt, so that the full schema path runs and produces
its usual errors. The schema stays the one source of the contract: nothing here is written per game.

Supported, and checked exactly as marshmallow does: String with OneOf / Length validators, Integer(strict=True)
with Range / OneOf, StrictBoolean, the bounded List of such fields with Length, and Nested schemas built of these
with no hooks, no data_key or attribute, unknown fields refused. Anything else is "not compilable" (None).
"""
from __future__ import annotations

from typing import Any, Callable

from marshmallow import RAISE, Schema, fields, validate
from marshmallow.utils import missing

Checker = Callable[[Any], Any]


class Decline(Exception):
    """The fast path is not sure: let marshmallow load the item (and report its errors)."""


def _validators(field: fields.Field) -> Callable[[Any], bool] | None:
    """One predicate for the field's validators, or None if one of them is not understood."""
    tests: list[Callable[[Any], bool]] = []
    for validator in field.validators:
        if isinstance(validator, validate.OneOf):
            choices = frozenset(validator.choices)
            tests.append(choices.__contains__)
        elif isinstance(validator, validate.Range):
            if not (validator.min_inclusive and validator.max_inclusive):
                return None
            low, high = validator.min, validator.max
            tests.append(lambda v, low=low, high=high: (low is None or v >= low) and (high is None or v <= high))
        elif isinstance(validator, validate.Length):
            low, high, equal = validator.min, validator.max, validator.equal
            tests.append(lambda v, low=low, high=high, equal=equal: (
                len(v) == equal if equal is not None else
                (low is None or len(v) >= low) and (high is None or len(v) <= high)))
        else:
            return None
    if not tests:
        return lambda v: True
    if len(tests) == 1:
        return tests[0]
    return lambda v: all(test(v) for test in tests)


def _scalar(field: fields.Field, kind: type) -> Checker | None:
    valid = _validators(field)
    if valid is None:
        return None
    allow_none = field.allow_none

    def check(value: Any) -> Any:
        if value is None and allow_none:
            return None
        if type(value) is not kind or not valid(value):
            raise Decline
        return value
    return check


def compile_field(field: fields.Field) -> Checker | None:
    """A checker giving what `field.deserialize` gives for values it accepts, or None if the field is not plain."""
    from .schemas import List, StrictBoolean  # the project's own field classes

    if type(field) is fields.String:
        return _scalar(field, str)
    if type(field) is fields.Integer and field.strict:
        return _scalar(field, int)
    if type(field) is StrictBoolean:
        return _scalar(field, bool)
    if type(field) is List:
        inner = compile_field(field.inner)
        valid = _validators(field)
        if inner is None or valid is None or field.allow_none:
            return None

        def check_list(value: Any) -> Any:
            if type(value) is not list or not valid(value):
                raise Decline
            return [inner(item) for item in value]
        return check_list
    if type(field) is fields.Nested and isinstance(field.nested, type) and issubclass(field.nested, Schema) \
            and not field.many and not field.allow_none and not field.only and not field.exclude:
        return compile_schema(field.nested)
    return None


def compile_schema(schema_class: type[Schema]) -> Checker | None:
    """A checker giving what `schema_class().load(item)` gives for items it accepts, or None if not plain."""
    if schema_class.opts.unknown != RAISE or any(schema_class._hooks.values()):
        return None
    plan: list[tuple[str, Checker, bool, Any]] = []
    for name, field in schema_class._declared_fields.items():
        if field.data_key is not None or field.attribute is not None or field.dump_only:
            return None
        check = compile_field(field)
        if check is None:
            return None
        default = field.load_default
        if callable(default):
            return None
        plan.append((name, check, field.required, default))
    known = frozenset(name for name, _, _, _ in plan)

    def check_object(item: Any) -> dict:
        if type(item) is not dict or not known.issuperset(item):
            raise Decline
        loaded = {}
        for name, check, required, default in plan:
            if name in item:
                loaded[name] = check(item[name])
            elif required:
                raise Decline
            elif default is not missing:
                loaded[name] = default
        return loaded
    return check_object


__all__ = ["Decline", "compile_field", "compile_schema"]
