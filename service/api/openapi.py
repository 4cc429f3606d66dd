"""The OpenAPI document: generated from the marshmallow schemas (flask-smorest/apispec), with an example for
every request and response taken from real answers of the service. `openapi.yaml` at the top of the project is
this output, committed; a test fails when the two differ (`python -m service openapi` rewrites it)."""
from __future__ import annotations

import copy
from typing import Any

import yaml
from apispec import BasePlugin
from flask import Flask

from .schemas import GAME_SCHEMAS
from .schemas.common import ProblemSchema

ADSO_WILLIAM_TABLE = {
    "players": [
        {"name": "Adso", "towers": [
            {"cards": ["10", "10", "10"], "complete": True}, {"cards": ["9", "9", "9"], "complete": True},
            {"cards": ["8", "8", "8"]}, {"cards": ["6", "6", "6"], "complete": True},
            {"cards": ["10", "9", "8", "7", "6"]}]},
        {"name": "William", "towers": [
            {"cards": ["7", "7", "7"], "complete": True}, {"cards": ["9", "8", "7", "6", "5"], "complete": True},
            {"cards": ["10", "9", "8"], "complete": True}, {"cards": ["7", "6", "5"], "complete": True}]},
    ],
    "highest": 0,
}


def _examples(app: Flask) -> dict[tuple[str, str], dict[str, Any]]:
    """(path, method) → {"request": body, "responses": {status: body}} from real calls."""
    client = app.test_client()
    out: dict[tuple[str, str], dict[str, Any]] = {}

    def call(path: str, body: Any = None, method: str = "post") -> Any:
        # a fixed request id keeps the generated file byte-for-byte reproducible
        response = client.open(path, method=method.upper(), json=body, headers={"X-Request-Id": "example"})
        entry = out.setdefault((path, method), {"request": body, "responses": {}})
        if entry["request"] is None and body is not None:
            entry["request"] = body
        entry["responses"].setdefault(str(response.status_code), response.get_json())
        return response.get_json()

    base = "/v1/games/torri"
    call("/v1/games", method="get")
    rules = call(f"{base}/rules", method="get")
    rules["rules"] = rules["rules"][:3]  # a taste; the live answer has them all
    state = call(f"{base}/new", {"seed": 42, "names": ["Adso", "William"]})["state"]
    call(f"{base}/legal-moves", {"state": state})
    out[(f"{base}/legal-moves", "post")]["responses"]["200"]["moves"] = \
        out[(f"{base}/legal-moves", "post")]["responses"]["200"]["moves"][:6]
    market_card = state["market"][0]
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"},
             {"type": "draw", "from": "market", "card": market_card}]
    call(f"{base}/apply", {"state": state, "moves": moves})
    call(f"{base}/apply", {"state": state, "moves": [{"type": "build", "cards": ["5", "6", "7"]}]})
    call(f"{base}/replay", {"state": state, "moves": moves[:2]})
    call(f"{base}/score", {"table": ADSO_WILLIAM_TABLE})
    call(f"{base}/view", {"state": state, "player": 1})
    broken = copy.deepcopy(state)
    broken["players"][0]["hand"].append("5")
    call(f"{base}/validate", {"state": broken})
    call(f"{base}/legal-moves", {"state": broken})
    call(f"{base}/apply", {"state": state, "moves": [{"type": "draw", "form": "deck"}]})
    for game_id, schemas in GAME_SCHEMAS.items():  # other games bring their own example calls
        if hasattr(schemas, "openapi_examples"):
            schemas.openapi_examples(call, f"/v1/games/{game_id}")
    call("/healthz", method="get")
    call("/readyz", method="get")
    return out


class SchemaExtrasPlugin(BasePlugin):
    """Adds what marshmallow fields cannot say to a schema's JSON Schema: a schema class's `json_schema_extra()`
    (e.g. "exactly one of these fields", ExactlyOneOfSchema)."""

    def schema_helper(self, name: str, definition: dict, **kwargs: Any) -> dict | None:
        schema = kwargs.get("schema")
        schema_class = schema if isinstance(schema, type) else type(schema)
        extra = getattr(schema_class, "json_schema_extra", None)
        return extra() if callable(extra) else None


def build_spec(app: Flask) -> dict[str, Any]:
    api = app.extensions["referee"].api
    with app.app_context():
        spec = copy.deepcopy(api.spec.to_dict())
    for (path, method), example in _examples(app).items():
        operation = spec["paths"].get(path, {}).get(method)
        if operation is None:
            continue
        if example["request"] is not None and "requestBody" in operation:
            content = operation["requestBody"]["content"]["application/json"]
            content.pop("example", None)
            content["examples"] = {"example": {"value": example["request"]}}
        for status, body in example["responses"].items():
            response = operation["responses"].get(status)
            if response is None or "content" not in response:
                continue
            for media in response["content"].values():
                media["example"] = body
    return spec


def spec_yaml(app: Flask) -> str:
    return yaml.safe_dump(build_spec(app), sort_keys=False, allow_unicode=True, width=100)


def register_problem_responses(api: Any) -> None:
    """Error responses are problem+json (RFC 9457) with the service's problem schema."""
    from flask_smorest.utils import prepare_response

    response = {"description": "A problem (RFC 9457): 404, 405, 500, or any status listed for the operation.",
                "schema": ProblemSchema}
    prepare_response(response, api.spec, "application/problem+json")
    api.spec.components.response("DEFAULT_ERROR", response)
