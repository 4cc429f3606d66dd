"""The schemas of the API's own answers, the same for every game: a problem, the game list, the rule catalogue,
the probes. Each game's requests and answers are described in its own package (service/games/<game>/schemas.py)."""
from __future__ import annotations

from marshmallow import fields, validate

from ..wire.schemas import ProblemDetailSchema, StrictSchema


class ProblemSchema(StrictSchema):
    """RFC 9457 problem details, with the individual problems in `errors`."""

    type = fields.String(required=True, metadata={"description": "A URI naming the kind of problem (RFC 9457)."})
    title = fields.String(required=True, metadata={"description": "The kind of problem, in a few words."})
    status = fields.Integer(required=True, metadata={"description": "The HTTP status."})
    detail = fields.String(metadata={"description": "What went wrong with this request, in a sentence."})
    instance = fields.String(metadata={"description": "The path requested."})
    request_id = fields.String(metadata={"description": "The request's id (also the X-Request-Id header): quote it "
                                                        "when reporting a problem."})
    error_id = fields.String(metadata={"description": "On a 500 only: the id under which the failure was logged; "
                                                      "quote it when reporting the fault."})
    errors = fields.List(fields.Nested(ProblemDetailSchema), required=True,
                         metadata={"description": "Each problem found, with its rule and a pointer into the request "
                                                  "(empty when the status says it all)."})


class VariantInfoSchema(StrictSchema):
    name = fields.String(required=True, metadata={"description": "The variant's name: the key to set to true in "
                                                                 "`variant` of /new."})
    description = fields.String(required=True, metadata={"description": "What the variant changes, with its rule "
                                                                        "id."})


class GameInfoSchema(StrictSchema):
    id = fields.String(required=True, metadata={"description": "The game's id, as in /v1/games/{id}/."})
    title = fields.String(required=True, metadata={"description": "The game's title."})
    min_players = fields.Integer(required=True, metadata={"description": "The fewest players the game takes."})
    max_players = fields.Integer(required=True, metadata={"description": "The most players the game takes."})
    rules_version = fields.String(required=True, metadata={"description": "The version of the rule catalogue the "
                                                                          "answers follow (part of the cache key)."})
    variants = fields.List(fields.Nested(VariantInfoSchema), required=True,
                           metadata={"description": "The variants the service referees."})
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "Each question's path, by name (rules, new, validate, …)."})


class GamesSchema(StrictSchema):
    games = fields.List(fields.Nested(GameInfoSchema), required=True,
                        metadata={"description": "Every game served."})


class RuleSchema(StrictSchema):
    id = fields.String(required=True, metadata={"description": "The rule id cited by violations and errors."})
    section = fields.String(required=True, metadata={"description": "The section of the rule book."})
    title = fields.String(required=True, metadata={"description": "The rule's short name, where it has one."})
    text = fields.String(required=True, metadata={"description": "What the rule says."})
    ruling = fields.Boolean(required=True, metadata={"description": "A ruling settles a point the rulesheet "
                                                                    "leaves open."})


class RulesSchema(StrictSchema):
    game = fields.String(required=True, metadata={"description": "The game's id."})
    rules_version = fields.String(required=True, metadata={"description": "The version of the rule catalogue."})
    rules = fields.List(fields.Nested(RuleSchema), required=True, metadata={"description": "Every rule, in the "
                                                                                          "rule book's order."})


class HealthSchema(StrictSchema):
    status = fields.String(required=True, validate=validate.OneOf(["ok", "degraded"]),
                           metadata={"description": "ok, or degraded when Redis is unreachable (still answering)."})
    cache = fields.String(required=True, metadata={"description": "memory, redis, or degraded (Redis "
                                                                  "unreachable: answers are computed)."})
    version = fields.String(required=True, metadata={"description": "The service's version."})
