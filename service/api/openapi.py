"""The OpenAPI document: generated from the marshmallow schemas (flask-smorest/apispec), with an example for
every request and response taken from real answers of the service. `openapi.yaml` at the top of the project is
this output, committed; a test fails when the two differ (`python -m service openapi` rewrites it)."""
from __future__ import annotations

import copy
import inspect
import re
from dataclasses import replace
from typing import Any

import yaml
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask
from marshmallow import fields as mfields

from ..games.core.game import Capability, Game
from ..wire.schemas import (
    MAX_BUDGET_MS,
    ExactlyOneOfSchema,
    ListOrCounted,
    MoveUnion,
    TypedUnion,
    component_name,
)
from ..games.registry import GAMES
from .schemas import ProblemSchema

LISTED_RULES = 3  # a taste of a rule catalogue; the live answer has them all
LISTED_MOVES = 6  # the first few legal moves

# (path, method) -> {"requests": {name: body}, "responses": {status: {media type: {name: body}}}}
Recorded = dict[tuple[str, str], dict[str, Any]]


class ExampleCalls:
    """Calls the app and records each request and answer as a named example of its operation."""

    def __init__(self, app: Flask) -> None:
        self.client = app.test_client()
        self.recorded: Recorded = {}

    def _open(self, path: str, body: Any, method: str, accept: str) -> Any:
        # a fixed request id keeps the generated file byte-for-byte reproducible
        return self.client.open(path, method=method.upper(), json=body,
                                headers={"X-Request-Id": "example", "Accept": accept})

    def __call__(self, path: str, body: Any = None, *, method: str = "post", name: str = "example",
                 accept: str = "application/json") -> Any:
        response = self._open(path, body, method, accept)
        answer = response.get_json() if response.is_json else response.get_data(as_text=True)
        entry = self.recorded.setdefault((path, method), {"requests": {}, "responses": {}})
        if body is not None and response.status_code != 400:  # a malformed request does not fit its schema
            entry["requests"].setdefault(name, body)
        by_media = entry["responses"].setdefault(str(response.status_code), {})
        by_media.setdefault(response.mimetype, {}).setdefault(name, answer)
        return answer

    def probe(self, path: str, body: Any) -> Any:
        """An answer that is not recorded."""
        return self._open(path, body, "post", "application/json").get_json()


def shortened_svg(svg: str) -> str:
    """The opening tag of an SVG document (its size and aria-label say what it shows), the drawing elided."""
    return svg[:svg.index(">") + 1] + "…</svg>" if ">" in svg else svg


def repeated_move(calls: ExampleCalls, base: str, state: Any, legal: list) -> list | None:
    """Moves that are well formed but illegal: a legal move made twice in a row (the second time, the turn
    has moved on). None when no listed move shows it."""
    for move in legal[:LISTED_MOVES]:
        answer = calls.probe(f"{base}/apply", {"state": state, "moves": [move, move]})
        if isinstance(answer, dict) and answer.get("legal") is False:
            return [move, move]
    return None


def game_examples(calls: ExampleCalls, game_id: str, game: Game) -> None:
    """Every endpoint of one game called with the requests its adapter offers (Game.examples): new,
    legal-moves, apply (legal, illegal and malformed), replay, score, view, validate and legal-moves of an
    impossible state, then the picture and the notation where the game has them."""
    base = f"/v1/games/{game_id}"
    examples = game.examples
    rules = calls(f"{base}/rules", method="get")
    rules["rules"] = rules["rules"][:LISTED_RULES]
    state = calls(f"{base}/new", examples["new"])["state"]
    listing = calls(f"{base}/legal-moves", {"state": state})
    legal = list(listing["moves"])
    listing["moves"] = legal[:LISTED_MOVES]
    moves = examples["apply"]["moves"]
    calls(f"{base}/apply", {"state": state, "moves": moves}, name="legal")
    illegal = repeated_move(calls, base, state, legal)
    if illegal is not None:
        calls(f"{base}/apply", {"state": state, "moves": illegal}, name="illegal")
    calls(f"{base}/apply", {"state": state, "moves": [{"type": moves[-1]["type"], "by_mistake": True}]},
          name="malformed")
    calls(f"{base}/replay", {"state": state, "moves": moves[:2]})
    calls(f"{base}/score", examples.get("score", {"state": state}))
    calls(f"{base}/view", {"state": state, "player": 1})
    calls(f"{base}/validate", examples["validate"], name="impossible_state")
    calls(f"{base}/legal-moves", examples["validate"], name="impossible_state")
    suggestion_examples(calls, base, state, examples)
    if game.offers(Capability.PICTURE):
        calls(f"{base}/picture", examples["picture"], accept="image/svg+xml")
        calls(f"{base}/picture", examples["picture"], accept="application/json")
        drawn = calls.recorded[(f"{base}/picture", "post")]["responses"].get("200", {})
        for named in drawn.get("image/svg+xml", {}), drawn.get("application/json", {}):
            for name, answer in named.items():  # a whole drawing is too long for the contract
                if isinstance(answer, dict) and isinstance(answer.get("svg"), str):
                    answer["svg"] = shortened_svg(answer["svg"])
                elif isinstance(answer, str):
                    named[name] = shortened_svg(answer)
    if game.offers(Capability.NOTATION):
        calls(f"{base}/notation", examples["notation"])


EXAMPLE_ELAPSED_MS = 120.0  # an example's search time: the real one differs from run to run (and the file may not)


def suggestion_examples(calls: ExampleCalls, base: str, state: Any, examples: dict) -> None:
    """/suggest of the dealt state at the search level (a playout budget: reproducible) and at the greedy level,
    and of a finished game (the score example's state, where it is one): no one is to act."""
    for level, body in (("mcts", {"level": "mcts", "seed": 7, "playouts": 100}), ("greedy", {"level": "greedy",
                                                                                             "seed": 7})):
        answer = calls(f"{base}/suggest", {"state": state, **body}, name=level)
        answer["elapsed_ms"] = EXAMPLE_ELAPSED_MS if level == "mcts" else 1.0
    if "state" in examples.get("score", {}):
        calls(f"{base}/suggest", {"state": examples["score"]["state"], "playouts": 100}, name="game_over")


def _examples(app: Flask) -> Recorded:
    """Real calls to every endpoint of every game, and to the probes."""
    calls = ExampleCalls(app)
    referee = app.extensions["referee"]
    settings = referee.settings
    # the examples' playout budgets run in full however busy the machine: the file is the same on every run
    referee.settings = replace(settings, SUGGEST_MAX_BUDGET_MS=MAX_BUDGET_MS)
    try:
        calls("/v1/games", method="get")
        for game_id, game in GAMES.items():
            game_examples(calls, game_id, game)
        calls("/healthz", method="get")
        calls("/readyz", method="get")
    finally:
        referee.settings = settings
    return calls.recorded


class SchemaExtrasPlugin(BasePlugin):
    """Adds to a schema's JSON Schema what marshmallow fields cannot say: the schema class's docstring as its
    description; a request with alternatives (ExactlyOneOfSchema) or a union of kinds (TypedUnion: events, a
    pending decision) as a oneOf of its named alternatives; the counted forms of a list (ListOrCounted) as named
    components; and a move field as a reference to the game's named move union (`<Game>Move`)."""

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        self.spec = spec
        for plugin in spec.plugins:
            if isinstance(plugin, MarshmallowPlugin):
                plugin.converter.add_attribute_function(_move_union_reference)

    def schema_helper(self, name: str, definition: dict, **kwargs: Any) -> dict | None:
        schema = kwargs.get("schema")
        schema_class = schema if isinstance(schema, type) else type(schema)
        extra: dict[str, Any] = {}
        doc = schema_class.__dict__.get("__doc__")
        if doc:
            extra["description"] = " ".join(inspect.cleandoc(doc).split())
        for field in getattr(schema_class, "_declared_fields", {}).values():
            self._name_counted_forms(field)
        alternatives = _alternatives(schema_class)
        if alternatives:
            for alternative, alternative_schema in alternatives.items():
                if alternative not in self.spec.components.schemas:
                    self.spec.components.schema(alternative, schema=alternative_schema)
            definition.clear()  # the alternatives carry the properties
            extra["oneOf"] = [{"$ref": f"#/components/schemas/{alternative}"} for alternative in alternatives]
        return extra

    def _name_counted_forms(self, field: Any) -> None:
        """A list-or-count field refers to its counted schema by name: the component is made here."""
        if isinstance(field, ListOrCounted) and field.counted_by_name:
            name = component_name(field.counted)
            if name not in self.spec.components.schemas:
                self.spec.components.schema(name, schema=field.counted)
        elif isinstance(field, mfields.List):
            self._name_counted_forms(field.inner)


def _alternatives(schema_class: type) -> dict[str, Any]:
    if not isinstance(schema_class, type):
        return {}
    if issubclass(schema_class, ExactlyOneOfSchema) and schema_class.exactly_one:
        return schema_class.alternatives()
    if issubclass(schema_class, TypedUnion) and schema_class.kinds:
        return schema_class.alternatives()
    return {}


def _move_union_reference(converter: Any, field: Any, **kwargs: Any) -> dict:
    """A move field is the game's named move union (registered with the game's COMPONENTS)."""
    if isinstance(field, MoveUnion) and field.component:
        return {"$ref": f"#/components/schemas/{field.component}"}
    return {}


def describe_defaults_in_words(schemas: dict[str, Any]) -> None:
    """Takes `default` out of the schemas' properties, and says the default in the description instead. What a
    request leaves out has a meaning (the description says which), but client generators read `default` as "always
    present" and then require the field in requests (openapi-typescript), so `variant: {}` would not type-check."""
    for schema in schemas.values():
        for prop in (schema.get("properties") or {}).values():
            if isinstance(prop, dict) and "default" in prop:
                default = prop.pop("default")
                description = prop.get("description", "")
                if "default" not in description.lower():
                    spelled = yaml.safe_dump(default, default_flow_style=True).strip().removesuffix("...").strip()
                    prop["description"] = f"{description} Default: {spelled}.".strip()


def build_spec(app: Flask) -> dict[str, Any]:
    api = app.extensions["referee"].api
    with app.app_context():
        spec = copy.deepcopy(api.spec.to_dict())
    for (path, method), recorded in _examples(app).items():
        operation = spec["paths"].get(path, {}).get(method)
        if operation is None:
            continue
        if recorded["requests"] and "requestBody" in operation:
            content = operation["requestBody"]["content"]["application/json"]
            content.pop("example", None)
            content["examples"] = {name: {"value": body} for name, body in recorded["requests"].items()}
        for status, by_media in recorded["responses"].items():
            response = operation["responses"].get(status)
            if response is None or "content" not in response:
                continue
            for media_type, media in response["content"].items():
                named = by_media.get(media_type)
                if not named:
                    continue
                media.pop("example", None)
                if len(named) == 1:
                    media["example"] = next(iter(named.values()))
                else:
                    media["examples"] = {name: {"value": body} for name, body in named.items()}
    drop_unused_components(spec)
    describe_defaults_in_words(spec.get("components", {}).get("schemas", {}))
    name_enum_members(spec.get("components", {}))
    add_discriminators(spec, spec.get("components", {}).get("schemas", {}))
    return spec


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def drop_unused_components(spec: dict[str, Any]) -> None:
    """Removes the components that nothing refers to (flask-smorest registers some of its own, such as
    PaginationMetadata): a generated client would carry them as dead models."""
    components = spec.get("components", {})
    pending = _refs({key: value for key, value in spec.items() if key != "components"})
    used: set[str] = set()
    while pending:
        ref = pending.pop()
        if ref in used or not ref.startswith("#/components/"):
            continue
        used.add(ref)
        kind, name = ref.split("/")[2:4]
        pending |= _refs(components.get(kind, {}).get(name))
    for kind, entries in components.items():
        for name in [name for name in entries if f"#/components/{kind}/{name}" not in used]:
            del entries[name]


def _enum_names(values: list[str]) -> list[str] | None:
    """Names for the members of a string enum whose values differ only in punctuation or case ("BA/CccR" and
    "BA/CccR+"): client generators name members from the values' letters and digits, and such values would share a
    name (openapi-python-client then drops all but one). None when the values' own letters already tell them
    apart."""
    plain = [re.sub(r"[^0-9A-Za-z]", "", value).upper() for value in values]
    if len(set(plain)) == len(plain):
        return None
    names: list[str] = []
    for value in values:
        spelled = value.replace("+", " plus ").replace("!", " bang ").replace(".", " dot ")
        name = re.sub(r"[^0-9A-Za-z]+", "_", spelled).strip("_").upper() or "VALUE"
        while name in names:
            name += "_"
        names.append(name)
    return names


def name_enum_members(node: Any) -> None:
    """Adds `x-enum-varnames` (read by openapi-python-client, openapi-generator and others) where `_enum_names`
    finds that generators would give two values the same member name."""
    if isinstance(node, dict):
        values = node.get("enum")
        if isinstance(values, list) and values and all(isinstance(value, str) for value in values):
            names = _enum_names(values)
            if names is not None:
                node["x-enum-varnames"] = names
        for value in node.values():
            name_enum_members(value)
    elif isinstance(node, list):
        for value in node:
            name_enum_members(value)


def add_discriminators(node: Any, schemas: dict[str, Any]) -> None:
    """Marks a oneOf of object schemas told apart by a one-value `type` (the moves of every game) with a
    `discriminator`, so that generated clients pick the model from `type` instead of trying each in turn."""
    if isinstance(node, dict):
        refs = [item.get("$ref", "") for item in node.get("oneOf", []) if isinstance(item, dict)]
        names = [ref.rsplit("/", 1)[-1] for ref in refs if ref.startswith("#/components/schemas/")]
        if len(names) >= 2 and len(names) == len(node["oneOf"]) and "discriminator" not in node:
            kinds = [schemas.get(name, {}).get("properties", {}).get("type", {}).get("enum") for name in names]
            required = all("type" in schemas.get(name, {}).get("required", []) for name in names)
            values = [kind[0] for kind in kinds if isinstance(kind, list) and len(kind) == 1]
            if required and len(values) == len(names) == len(set(values)):
                node["discriminator"] = {"propertyName": "type", "mapping": dict(zip(values, refs))}
        for value in node.values():
            add_discriminators(value, schemas)
    elif isinstance(node, list):
        for value in node:
            add_discriminators(value, schemas)


class _PlainDumper(yaml.SafeDumper):
    """Writes a shared object (an example state used twice) out in full each time: anchors and aliases are valid
    YAML, but the published contract reads better, and more tools read it, without them."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def spec_yaml(app: Flask) -> str:
    return yaml.dump(build_spec(app), Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, width=100)


def register_problem_responses(api: Any) -> None:
    """Error responses are problem+json (RFC 9457) with the service's problem schema."""
    from flask_smorest.utils import prepare_response

    response = {"description": "A problem (RFC 9457): 404, 405, 500, or any status listed for the operation.",
                "schema": ProblemSchema}
    prepare_response(response, api.spec, "application/problem+json")
    api.spec.components.response("DEFAULT_ERROR", response)
