"""The project's strict fields and schemas (`StrictBoolean`, the bounded `List`, `StrictSchema`) and their compiled
loading: a schema's `load` at the cost of the checks it makes.

marshmallow loads a document through generic machinery, field by field (about 5 µs a field, 20 µs an object of a
board list), which made the schema most of a computed answer. For a schema of the project (`StrictSchema`), a
loader is compiled once per schema instance from the schema itself: its fields, their validators, its
`validates_schema` and `post_load` hooks (a state's `build`). It gives exactly what `load` gives for a document it
accepts, and declines (`Decline`) at the first doubt (a wrong type, a value a validator refuses, a missing
required field, an unknown key, a hook that refuses), so that marshmallow loads the document again and reports its
usual errors. The schema stays the one description of the contract: nothing here is written per game.

A list of flat objects (a board: each item's fields plain values and lists of them, no nested object, no default)
of FLAT_LIST_MIN items or more is read in one pass by msgspec (`convert` to a list of TypedDicts generated from the
item schema: types, lengths, ranges and choices checked in C), which gives the same dicts; a list it refuses is a
doubt like any other.

Compiled as marshmallow does it: String, Integer and Boolean taking their own JSON type only (marshmallow's
coercions, e.g. "3" for an Integer, decline), Raw, List (the project's bounded List too), Nested (one object,
through the nested schema's own compiled loader), Length / Range / OneOf validators (any other validator is
called). A field of another kind (a move union, a list-or-count) is read by its own `compiled_reader()` when it has
one, else by its `deserialize`. A schema with what this does not mirror (pre_load or `validates` hooks, post_load
on collections or with the original, many, partial, unknown other than RAISE) is not compiled: `load` runs.
"""
from __future__ import annotations

from typing import Annotated, Any, Callable, Literal, NotRequired, Optional, Required, TypedDict

import msgspec
from marshmallow import RAISE, Schema, ValidationError, fields, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.utils import missing

from .messages import tr

Reader = Callable[[Any], Any]  # a value -> what the field loads from it; raises Decline
MAX_ITEM_ERRORS = 10  # per list: reading stops there (a body of wrong items must not cost seconds)


class Decline(Exception):
    """The compiled loader is not sure: let marshmallow load the document (and report its errors)."""


def _predicate(validator: Callable[[Any], Any]) -> Callable[[Any], bool]:
    """A test of a value by one of a field's validators."""
    if isinstance(validator, validate.OneOf):
        return frozenset(validator.choices).__contains__
    if isinstance(validator, validate.Range) and validator.min_inclusive and validator.max_inclusive:
        low, high = validator.min, validator.max
        return lambda v: (low is None or v >= low) and (high is None or v <= high)
    if isinstance(validator, validate.Length):
        low, high, equal = validator.min, validator.max, validator.equal
        if equal is not None:
            return lambda v: len(v) == equal
        return lambda v: (low is None or len(v) >= low) and (high is None or len(v) <= high)

    def called(value: Any) -> bool:  # as marshmallow calls it: only an error refuses
        try:
            validator(value)
        except ValidationError:
            return False
        return True
    return called


def _validation(field: fields.Field) -> Callable[[Any], bool] | None:
    """One test for all of a field's validators, or None when it has none."""
    tests = [_predicate(v) for v in field.validators]
    if not tests:
        return None
    if len(tests) == 1:
        return tests[0]
    return lambda v: all(test(v) for test in tests)


def _nested(field: fields.Nested) -> Reader | None:
    if field.many or field.unknown is not None or not isinstance(field.schema, Schema) \
            or type(field.schema).load not in (StrictSchema.load, Schema.load):  # a load of its own: call it
        return None
    load, valid, allow_none = loader_of(field.schema), _validation(field), field.allow_none
    if load is None or (valid is None and not allow_none):
        return load  # nothing to add to the nested schema's own loader: one call less per object of a board list

    def read(value: Any) -> Any:
        if value is None and allow_none:
            return None
        loaded = load(value)
        if valid is not None and not valid(loaded):
            raise Decline
        return loaded
    return read


def _deserialized(field: fields.Field) -> Reader:
    """A field this module does not mirror: its own `deserialize`, any error a doubt."""
    def read(value: Any) -> Any:
        try:
            return field.deserialize(value)
        except ValidationError:
            raise Decline from None
    return read


def compile_field(field: fields.Field) -> Reader:
    """A reader giving what `field.deserialize(value)` gives for the values it accepts (Decline otherwise)."""
    reader: Reader | None = None
    if _inlined(field):
        namespace, const = _namespace()
        lines, result = _inline(field, const)
        reader = _generated(["def read(value):", *(f"    {line}" for line in lines), f"    return {result}"],
                            namespace, f"<compiled read of {type(field).__name__}>", "read")
    elif type(field) is fields.Nested:
        reader = _nested(field)  # type: ignore[arg-type]
    elif hasattr(field, "compiled_reader") and not field.validators and not field.allow_none:
        reader = field.compiled_reader()
    return reader if reader is not None else _deserialized(field)


def _mirrored(schema: Schema) -> bool:
    """Whether the schema's load is what `loader_of` compiles (see the module's docstring)."""
    hooks = schema._hooks
    return (not schema.many and not schema.partial and schema.unknown == RAISE and not hooks[PRE_LOAD]
            and not hooks[VALIDATES]
            and not any(many or options.get("pass_original") for _, many, options in hooks[POST_LOAD])
            and not any(many for _, many, _ in hooks[VALIDATES_SCHEMA])
            and all(not field.attribute or "." not in field.attribute for field in schema.load_fields.values()))


def loader_of(schema: Schema) -> Reader | None:
    """The compiled `schema.load` (made once per schema instance), or None when the schema is not mirrored."""
    try:
        return schema.__dict__["_compiled_load"]
    except KeyError:
        pass
    load = _compile(schema) if _mirrored(schema) else None
    schema.__dict__["_compiled_load"] = load
    return load


def _compile(schema: Schema) -> Reader:
    """The schema's load as one generated function: a few lines a field, the checks of plain fields (their type and
    validators, a list of them) written inline, any other field read by its compiled reader, then the hooks."""
    namespace, const = _namespace()
    fields_ = schema.load_fields
    known = frozenset(field.data_key or name for name, field in fields_.items())
    required = [field.data_key or name for name, field in fields_.items() if field.required]
    lines = ["def load(document):",
             f"    if type(document) is not dict or not {const(known)}.issuperset(document):",
             "        raise Decline"]
    if required:  # read at once, a missing one caught once: cheaper than a look-up and a test each
        lines += ["    try:", *(f"        required{i} = document[{key!r}]" for i, key in enumerate(required)),
                  "    except KeyError:", "        raise Decline from None"]
    lines.append("    loaded = {}")
    for name, field in fields_.items():
        key, default = field.data_key or name, field.load_default
        target = f"loaded[{field.attribute or name!r}]"
        checks, result = _inline(field, const)
        if field.required:
            lines += [f"    value = required{required.index(key)}", *(f"    {line}" for line in checks),
                      f"    {target} = {result}"]
            continue
        lines += [f"    value = document.get({key!r}, missing)", "    if value is missing:"]
        if default is missing:
            lines.append("        pass")
        else:
            lines.append(f"        {target} = {const(default)}{'()' if callable(default) else ''}")
        lines += ["    else:", *(f"        {line}" for line in checks), f"        {target} = {result}"]
    hooks = _hooks(schema)
    lines.append(f"    return {const(hooks)}(loaded, document)" if hooks else "    return loaded")
    return _generated(lines, namespace, f"<compiled load of {type(schema).__name__}>", "load")


def _namespace() -> tuple[dict[str, Any], Callable[[Any], str]]:
    """The globals of a generated function, and `const`: a value put there, by the name the code uses for it."""
    namespace: dict[str, Any] = {"Decline": Decline, "missing": missing}

    def const(value: Any) -> str:
        name = f"c{len(namespace)}"
        namespace[name] = value
        return name
    return namespace, const


def _generated(lines: list[str], namespace: dict[str, Any], filename: str, name: str) -> Reader:
    exec(compile("\n".join(lines), filename, "exec"), namespace)  # noqa: S102 - code written above, from a schema
    return namespace[name]


_PLAIN = {fields.String: "str", fields.Integer: "int", fields.Boolean: "bool"}


def _plain_type(field: fields.Field) -> str | None:
    """The JSON type of a plain field (String, Integer, Boolean, StrictBoolean), or None."""
    kind = type(field)
    return "bool" if kind is StrictBoolean else _PLAIN.get(kind)


def _refusals(field: fields.Field, value: str, const: Callable[[Any], str]) -> list[str]:
    """Conditions under which one of the field's validators refuses `value` (an expression)."""
    out = []
    for validator in field.validators:
        if isinstance(validator, validate.OneOf):
            out.append(f"{value} not in {const(frozenset(validator.choices))}")
        elif isinstance(validator, validate.Range) and validator.min_inclusive and validator.max_inclusive:
            if validator.min is not None:
                out.append(f"{value} < {const(validator.min)}")
            if validator.max is not None:
                out.append(f"{value} > {const(validator.max)}")
        elif isinstance(validator, validate.Length) and validator.equal is not None:
            out.append(f"len({value}) != {validator.equal}")
        elif isinstance(validator, validate.Length):
            if validator.min is not None:
                out.append(f"len({value}) < {validator.min}")
            if validator.max is not None:
                out.append(f"len({value}) > {validator.max}")
        else:
            out.append(f"not {const(_predicate(validator))}({value})")
    return out


def _inlined(field: fields.Field) -> bool:
    """Whether `_inline` writes the field's checks itself: a plain field, Raw, or a list whose validators are
    lengths (checked before the items, as List does)."""
    return _plain_type(field) is not None or type(field) is fields.Raw or (
        type(field) in (fields.List, List) and all(isinstance(v, validate.Length) for v in field.validators))


def _inline(field: fields.Field, const: Callable[[Any], str], var: str = "value",
            depth: int = 0, by_items: bool = False) -> tuple[list[str], str]:
    """(lines checking `var`, the expression of what the field loads from it): a field `_inlined` says it writes,
    checked here (a list's items too, as far as they are such fields); a list of flat objects read by msgspec when
    it is long enough (unless `by_items`); any other field read by its compiled reader."""
    flat = None if by_items or depth else flat_list_reader(field)
    if flat is not None:
        lines, result = _inline(field, const, var, depth, by_items=True)
        return [f"if type({var}) is list and len({var}) >= {FLAT_LIST_MIN}:", f"    {var} = {const(flat)}({var})",
                "else:", *(f"    {line}" for line in lines), f"    {var} = {result}"], var
    if not _inlined(field):
        return [], f"{const(compile_field(field))}({var})"
    plain = _plain_type(field)
    refused = [f"type({var}) is not {plain}"] if plain is not None else []
    result = var
    items: list[str] = []
    if plain is None and type(field) is not fields.Raw:  # a list
        item = f"item{depth}"
        item_lines, item_result = _inline(field.inner, const, item, depth + 1)  # type: ignore[attr-defined]
        refused = [f"(type({var}) is not list and type({var}) is not tuple)"]
        length = next((v.equal for v in field.validators if isinstance(v, validate.Length)), None)
        if item_lines and length is not None and length <= 4:  # a square, a pair: each item checked in turn, no loop
            items = [line for i in range(length) for line in (f"{item} = {var}[{i}]", *item_lines)]
        elif item_lines:
            items = [f"for {item} in {var}:", *(f"    {line}" for line in item_lines)]
        result = f"list({var})" if item_result == item else f"[{item_result} for {item} in {var}]"
    refused += _refusals(field, var, const)
    lines = ([f"if {' or '.join(refused)}:", "    raise Decline"] if refused else []) + items
    if field.allow_none:  # null where the field allows it; else null is a wrong type, refused above (or here)
        lines = [f"if {var} is not None:", *(f"    {line}" for line in lines)] if lines else []
        result = result if result == var else f"(None if {var} is None else {result})"
    elif plain is None and type(field) is fields.Raw:
        lines = [f"if {var} is None:", "    raise Decline", *lines]
    return lines, result


# ------------------------------------------------------------------ lists of flat objects, by msgspec

# A call of msgspec costs about as much as checking two or three items in Python: a shorter list (a Campanile
# tower's tokens) is checked item by item by the compiled loader.
FLAT_LIST_MIN = 6


def flat_list_reader(field: fields.Field) -> Reader | None:
    """The reader of a list of flat objects by msgspec (see the module's doc), or None when `field` is no such
    list."""
    if type(field) not in (fields.List, List) or field.allow_none or type(field.inner) is not fields.Nested:
        return None
    try:
        return field.__dict__["_flat_reader"]
    except KeyError:
        pass
    reader = None
    item_type = _flat_item_type(field.inner)  # type: ignore[attr-defined]
    listed = None if item_type is None else _constrained(list[item_type], field.validators)  # type: ignore[valid-type]
    if listed is not None:
        convert, ValidationError_ = msgspec.convert, msgspec.ValidationError

        def reader(value: Any) -> Any:
            try:
                items = convert(value, listed)
            except ValidationError_:
                raise Decline from None
            if list(map(len, items)) != list(map(len, value)):  # a key unknown to the item schema, dropped
                raise Decline
            return items
    field.__dict__["_flat_reader"] = reader
    return reader


def _flat_item_type(nested: fields.Nested) -> Any:
    """A TypedDict of the nested schema's fields, when it is flat: mirrored (`_mirrored`) with no hook, every field
    plain (`_value_type`) under its own name, with no default; else None."""
    schema = nested.schema
    if nested.many or nested.unknown is not None or nested.validators or nested.allow_none \
            or not isinstance(schema, Schema) or not _mirrored(schema) \
            or any(schema._hooks[hook] for hook in (POST_LOAD, VALIDATES_SCHEMA)):
        return None
    keys: dict[str, Any] = {}
    for name, field in schema.load_fields.items():
        value_type = _value_type(field)
        if value_type is None or field.load_default is not missing or (field.data_key or name) != name \
                or (field.attribute or name) != name:
            return None
        keys[name] = Required[value_type] if field.required else NotRequired[value_type]
    return TypedDict(f"{type(schema).__name__}Item", keys)  # type: ignore[operator]


def _value_type(field: fields.Field) -> Any:
    """The msgspec type of a plain field (String, Integer, Boolean and lists of them, with OneOf, Equal, Range and
    Length validators), accepting what the compiled loader accepts; None for any other field."""
    kind = type(field)
    if kind in (fields.List, List):
        inner = _value_type(field.inner)  # type: ignore[attr-defined]
        value_type = None if inner is None else _constrained(list[inner], field.validators)  # type: ignore[valid-type]
    else:
        plain = _plain_type(field)
        value_type = None if plain is None else _constrained({"str": str, "int": int, "bool": bool}[plain],
                                                              field.validators)
    if value_type is None or not field.allow_none:
        return value_type
    return Optional[value_type]  # marshmallow checks no validator of a null


def _constrained(base: Any, validators: list[Any]) -> Any:
    """`base` with the validators as msgspec constraints (Literal for OneOf and Equal, Meta for Range and Length),
    or None for a validator msgspec cannot say."""
    choices, meta = None, {}
    scalar = base if base in (str, int) else None
    for validator in validators:
        if isinstance(validator, validate.OneOf) and scalar is not None and choices is None \
                and all(type(choice) is scalar for choice in validator.choices):
            choices = tuple(validator.choices)
        elif isinstance(validator, validate.Equal) and scalar is not None and choices is None \
                and type(validator.comparable) is scalar:
            choices = (validator.comparable,)
        elif isinstance(validator, validate.Range) and scalar is int:
            if validator.min is not None:
                meta["ge" if validator.min_inclusive else "gt"] = validator.min
            if validator.max is not None:
                meta["le" if validator.max_inclusive else "lt"] = validator.max
        elif isinstance(validator, validate.Length) and base is not int and base is not bool:
            low, high = (validator.equal, validator.equal) if validator.equal is not None else \
                (validator.min, validator.max)
            if low is not None:
                meta["min_length"] = low
            if high is not None:
                meta["max_length"] = high
        else:
            return None
    if choices is not None:
        return Literal[choices] if not meta else None  # type: ignore[valid-type]
    return Annotated[base, msgspec.Meta(**meta)] if meta else base


def _hooks(schema: Schema) -> Callable[[dict, Any], Any] | None:
    """The schema's validates_schema and post_load hooks, called as marshmallow calls them, a refusal a doubt."""
    options = {"partial": schema.partial, "many": False, "unknown": schema.unknown}
    checks = [(getattr(schema, name), hook.get("pass_original", False))
              for name, _, hook in schema._hooks[VALIDATES_SCHEMA]]
    builds = [getattr(schema, name) for name, _, _ in schema._hooks[POST_LOAD]]
    if not checks and not builds:
        return None

    def finish(loaded: dict, document: dict) -> Any:
        try:
            for check, pass_original in checks:
                if pass_original:
                    check(loaded, document, **options)
                else:
                    check(loaded, **options)
            for build in builds:
                loaded = build(loaded, **options)
        except ValidationError:
            raise Decline from None
        return loaded
    return finish


class StrictBoolean(fields.Boolean):
    """true or false only (marshmallow's Boolean also takes 1, "yes", "on", …): a wrong type is a 400."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError(tr("Must be true or false."))
        return value


class List(fields.List):
    """fields.List bounded for hostile input: the length limit is checked before the items (a 100,000-item list
    is one error at once), and reading stops at the MAX_ITEM_ERRORS-th wrong item."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, (list, tuple)):
            raise self.make_error("invalid")
        for validator in self.validators:
            if isinstance(validator, validate.Length):
                longest = validator.max if validator.max is not None else validator.equal
                if longest is not None and len(value) > longest:
                    validator(value)  # raises its usual ValidationError ("Longer than maximum length N.")
        choices = self._plain_choices()
        if choices is not None and all(type(item) is str and item in choices for item in value):
            return list(value)  # the common case (cards), checked at set speed; any doubt takes the full path
        fast = self._fast_items()
        if fast is not None:  # boards: lists of small plain objects (compiled below); any doubt takes the full path
            try:
                return [fast(item) for item in value]
            except Decline:
                pass
        result, errors = [], {}
        for index, item in enumerate(value):
            try:
                result.append(self.inner.deserialize(item, **kwargs))
            except ValidationError as error:
                errors[index] = error.messages
                if len(errors) >= MAX_ITEM_ERRORS:
                    break
        if errors:
            raise ValidationError(errors, valid_data=result)
        return result

    def _fast_items(self) -> Callable[[Any], Any] | None:
        """The compiled checker of the items when they are objects of a plain schema, else None."""
        try:
            return self._fast
        except AttributeError:
            pass
        fast = compile_field(self.inner) if type(self.inner) is fields.Nested else None
        self._fast: Callable[[Any], Any] | None = fast
        return fast

    def _plain_choices(self) -> frozenset | None:
        """The allowed values when the items are plain strings checked by one OneOf, else None."""
        try:
            return self._choices
        except AttributeError:
            pass
        inner, choices = self.inner, None
        if type(inner) is fields.String and not inner.allow_none and len(inner.validators) == 1 \
                and isinstance(inner.validators[0], validate.OneOf):
            choices = frozenset(inner.validators[0].choices)
        self._choices: frozenset | None = choices
        return choices


class StrictSchema(Schema):
    """Unknown fields are an error (api.md: 400, wrong shape). Loading runs the schema's compiled loader
    (below), which gives what marshmallow's `load` gives; marshmallow loads what it declines, with its errors."""

    class Meta:
        ordered = True

    answer_may_omit: ClassVar[tuple[str, ...]] = ()  # fields an answer may leave out (answer_form)

    def load(self, data, *, many=None, partial=None, unknown=None):  # type: ignore[override]
        if many is None and partial is None and unknown is None:
            compiled = loader_of(self)
            if compiled is not None:
                try:
                    return compiled(data)
                except Decline:
                    pass
        return super().load(data, many=many, partial=partial, unknown=unknown)


__all__ = ["MAX_ITEM_ERRORS", "Decline", "List", "Reader", "StrictBoolean", "StrictSchema", "compile_field",
           "flat_list_reader", "loader_of"]
