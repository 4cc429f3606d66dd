"""Schemas shared by every game: problems, the game list, probes."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate


MAX_ITEM_ERRORS = 10  # per list: reading stops there (a body of wrong items must not cost seconds)


class StrictBoolean(fields.Boolean):
    """true or false only (marshmallow's Boolean also takes 1, "yes", "on", …): a wrong type is a 400."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Must be true or false.")
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
    """Unknown fields are an error (api.md: 400, wrong shape)."""

    class Meta:
        ordered = True


class ExactlyOneOfSchema(StrictSchema):
    """A request that carries exactly one of the fields named in `exactly_one`; the spec says so too, as a oneOf
    of `required` (see `json_schema_extra`, merged in by the spec generator)."""

    exactly_one: tuple[str, ...] = ()

    def load(self, data, *args, **kwargs):  # type: ignore[override]
        loaded = super().load(data, *args, **kwargs)
        if sum(name in loaded for name in self.exactly_one) != 1:
            quoted = [f'"{name}"' for name in self.exactly_one]
            raise ValidationError({"": [f"Send exactly one of {', '.join(quoted[:-1])} or {quoted[-1]}."]})
        return loaded

    @classmethod
    def json_schema_extra(cls) -> dict:
        return {"oneOf": [{"required": [name]} for name in cls.exactly_one]}


class ProblemDetailSchema(StrictSchema):
    rule = fields.String(allow_none=True, metadata={"description": "The rule id broken (see /rules), or null "
                                                                   "for a malformed document."})
    pointer = fields.String(required=True, metadata={"description": "JSON pointer into the request body."})
    message = fields.String(required=True, metadata={"description": "One plain sentence a referee can read out."})


class ProblemSchema(StrictSchema):
    """RFC 9457 problem details, with the individual problems in `errors`."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    instance = fields.String()
    request_id = fields.String()
    error_id = fields.String(metadata={"description": "On a 500 only: the id under which the failure was logged; "
                                                      "quote it when reporting the fault."})
    errors = fields.List(fields.Nested(ProblemDetailSchema), required=True)


class VariantInfoSchema(StrictSchema):
    name = fields.String(required=True)
    description = fields.String(required=True)


class GameInfoSchema(StrictSchema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    variants = fields.List(fields.Nested(VariantInfoSchema), required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class GamesSchema(StrictSchema):
    games = fields.List(fields.Nested(GameInfoSchema), required=True)


class RuleSchema(StrictSchema):
    id = fields.String(required=True)
    section = fields.String(required=True)
    title = fields.String(required=True)
    text = fields.String(required=True)
    ruling = fields.Boolean(required=True, metadata={"description": "A ruling settles a point the rulesheet "
                                                                    "leaves open."})


class RulesSchema(StrictSchema):
    game = fields.String(required=True)
    rules_version = fields.String(required=True)
    rules = fields.List(fields.Nested(RuleSchema), required=True)


class HealthSchema(StrictSchema):
    status = fields.String(required=True, validate=validate.OneOf(["ok", "degraded"]))
    cache = fields.String(required=True, metadata={"description": "memory, redis, or degraded (Redis "
                                                                  "unreachable: answers are computed)."})
    version = fields.String(required=True)
