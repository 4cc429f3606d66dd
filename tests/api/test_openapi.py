"""openapi.yaml is a valid OpenAPI 3.1 document, is what the code generates, covers exactly the app's routes, and
every example in it validates against its schema."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from service.api import create_app
from service.api.docs import SPEC_PATH
from service.api.openapi import spec_yaml

from .helpers import BASE, canonical_state, fresh_state
from tests.settings import AS_DEPLOYED

ROOT = Path(__file__).resolve().parents[2]
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@pytest.fixture(scope="module")
def committed_text() -> str:
    assert SPEC_PATH == ROOT / "openapi.yaml"
    return SPEC_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def spec(committed_text: str) -> dict:
    return yaml.safe_load(committed_text)


def _generate() -> str:
    # exactly what `python -m service openapi` writes
    return spec_yaml(create_app(AS_DEPLOYED))


@pytest.fixture(scope="module")
def generated() -> str | Exception:
    try:
        return _generate()
    except Exception as error:  # noqa: BLE001 - reported by the tests that need the text
        return error


@pytest.fixture
def generated_text(generated: str | Exception) -> str:
    if isinstance(generated, Exception):
        raise AssertionError(f"`python -m service openapi` crashes: {generated!r}") from generated
    return generated


def test_spec_generation_works(generated):
    assert not isinstance(generated, Exception), repr(generated)


def test_spec_is_valid_openapi_3_1(spec):
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def _without_request_ids(text: str) -> str:
    return re.sub(r"(?m)^(\s*request_id: )[0-9a-f]{32}$", r"\1<id>", text)


def _without_examples(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_examples(v) for k, v in node.items() if k not in ("example", "examples")}
    if isinstance(node, list):
        return [_without_examples(v) for v in node]
    return node


def test_committed_spec_has_the_code_s_paths_and_schemas(spec, generated_text):
    """Everything but the examples: operations, parameters, schemas, responses, descriptions."""
    assert _without_examples(spec) == _without_examples(yaml.safe_load(generated_text)), \
        "openapi.yaml is out of date: run `python -m service openapi`"


def test_committed_spec_matches_the_code_apart_from_request_ids(committed_text, generated_text):
    assert _without_request_ids(committed_text) == _without_request_ids(generated_text), \
        "openapi.yaml is out of date: run `python -m service openapi`"


def test_committed_spec_equals_freshly_generated_output(committed_text, generated_text):
    assert committed_text == generated_text


def test_generation_is_reproducible(generated_text):
    assert _generate() == generated_text


def test_generation_is_deterministic_apart_from_request_ids(generated_text):
    again = _generate()
    assert _without_request_ids(again) == _without_request_ids(generated_text)


# ---------------------------------------------------------------- routes


def _app_operations() -> set[tuple[str, str]]:
    app = create_app(AS_DEPLOYED)
    out = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1"):
            continue
        if rule.endpoint.startswith("unknown_game"):
            continue  # the catch-all that answers 404/405 problems for unknown games and questions
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((path, method.lower()))
    return out


def _spec_operations(spec: dict, prefix: str = "/v1") -> set[tuple[str, str]]:
    return {(path, method) for path, item in spec["paths"].items() if path.startswith(prefix)
            for method in item if method in HTTP_METHODS}


def test_every_v1_route_is_in_the_spec_and_vice_versa(spec):
    app_ops = _app_operations()
    spec_ops = _spec_operations(spec)
    assert app_ops, "the app has /v1 routes"
    assert app_ops - spec_ops == set(), "routes missing from openapi.yaml"
    assert spec_ops - app_ops == set(), "operations in openapi.yaml that the app does not serve"
    assert (f"{BASE}/apply", "post") in spec_ops and ("/v1/games", "get") in spec_ops


def test_probes_are_in_the_spec(spec):
    assert {("/healthz", "get"), ("/readyz", "get")} <= _spec_operations(spec, prefix="/")


def test_every_operation_documents_its_answers(spec):
    for path, method in _spec_operations(spec):
        operation = spec["paths"][path][method]
        responses = operation["responses"]
        assert "200" in responses and "application/json" in responses["200"]["content"], (path, method)
        assert "default" in responses, (path, method)
        if method == "post":
            assert operation["requestBody"]["required"] is True or "content" in operation["requestBody"]
            for status in ("400", "413", "415", "429"):
                assert "application/problem+json" in responses[status]["content"], (path, method, status)
            if not path.endswith(("/new", "/validate")):
                assert "422" in responses, (path, method)


# ---------------------------------------------------------------- examples


def _validator(spec: dict, schema: dict) -> Draft202012Validator:
    # the schema with the spec's components beside it, so "#/components/schemas/..." resolves
    root = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "components": spec["components"]}
    Draft202012Validator.check_schema(root)
    return Draft202012Validator(root)


def _examples(spec: dict) -> Iterator[tuple[str, dict, Any]]:
    """(where, schema, example) for every example of a request or response body."""
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            contents = []
            if "requestBody" in operation:
                contents.append((f"{method.upper()} {path} request", operation["requestBody"].get("content", {})))
            for status, response in operation.get("responses", {}).items():
                if "$ref" in response:
                    name = response["$ref"].rsplit("/", 1)[-1]
                    response = spec["components"]["responses"][name]
                contents.append((f"{method.upper()} {path} {status}", response.get("content", {})))
            for where, content in contents:
                for media_type, media in content.items():
                    if "example" in media:
                        yield f"{where} {media_type}", media["schema"], media["example"]
                    for name, example in media.get("examples", {}).items():
                        yield f"{where} {media_type} ({name})", media["schema"], example["value"]


def test_there_is_an_example_for_every_request_and_answer(spec):
    where = {w.split(" application/")[0] for w, _, _ in _examples(spec)}
    for path, method in _spec_operations(spec, prefix="/"):
        assert f"{method.upper()} {path} 200" in where, (path, method)
        if method == "post":
            assert f"{method.upper()} {path} request" in where, (path, method)


def test_every_example_validates_against_its_schema(spec):
    checked = 0
    failures = []
    for where, schema, example in _examples(spec):
        errors = sorted(_validator(spec, schema).iter_errors(example), key=lambda e: list(e.absolute_path))
        failures += [f"{where}: /{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:3]]
        checked += 1
    assert checked >= 20
    assert failures == []


def test_the_validator_does_reject_a_wrong_example(spec):
    """Guard against a vacuous check: refs resolve and a wrong body fails."""
    schema = spec["paths"][f"{BASE}/apply"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator = _validator(spec, schema)
    good = {"legal": True, "state": canonical_state(), "events": [], "violations": [], "failed_at": None}
    assert list(validator.iter_errors(good)) == []
    bad = {**good, "state": {**good["state"], "players": [{"hand": 5}]}}
    assert list(validator.iter_errors(bad))
    assert list(validator.iter_errors({**good, "surprise": 1}))


# ---------------------------------------------------------------- live answers against the spec


def _response_schema(spec: dict, path: str, method: str, status: str, media_type: str) -> dict:
    response = spec["paths"][path][method]["responses"].get(status) or spec["paths"][path][method]["responses"][
        "default"]
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    return response["content"][media_type]["schema"]


@pytest.mark.parametrize("question, body, status", [
    ("apply", {"state": "STATE", "moves": [{"type": "close"}]}, "200"),
    ("replay", {"state": "STATE", "moves": [{"type": "purchase"}, {"type": "draw", "from": "deck"}]}, "200"),
    ("view", {"state": "STATE", "player": 0}, "200"),
    ("legal-moves", {"state": "STATE"}, "200"),
    ("validate", {"state": {"deck": [], "market": [], "players": []}}, "200"),
    ("apply", {"state": "STATE", "moves": [{"type": "drawx"}]}, "400"),
    ("view", {"state": {"deck": [], "market": [], "players": []}, "player": 0}, "422"),
])
def test_live_answers_match_the_spec(spec, client, question, body, status):
    body = {k: fresh_state() if v == "STATE" else v for k, v in body.items()}
    response = client.post(f"{BASE}/{question}", json=body)
    assert str(response.status_code) == status
    schema = _response_schema(spec, f"{BASE}/{question}", "post", status, response.mimetype)
    assert list(_validator(spec, schema).iter_errors(response.get_json())) == []


def test_500_problem_matches_the_spec(spec, make_app):
    app = make_app(TESTING=False, PROPAGATE_EXCEPTIONS=False)

    @app.route("/v1/boom")
    def boom():
        raise RuntimeError("boom")

    response = app.test_client().get("/v1/boom")
    assert response.status_code == 500
    schema = spec["components"]["responses"]["DEFAULT_ERROR"]["content"]["application/problem+json"]["schema"]
    assert list(_validator(spec, schema).iter_errors(response.get_json())) == []


# ---------------------------------------------------------------- the spec and the code agree on what is malformed


def _request_schema(spec: dict, question: str) -> dict:
    return spec["paths"][f"{BASE}/{question}"]["post"]["requestBody"]["content"]["application/json"]["schema"]


def _pending_state() -> dict:
    state = fresh_state()
    state["pending"] = {"type": "draw", "action": "", "player": 0, "left": 1, "from": ["deck"]}
    return state


@pytest.mark.parametrize("question, make", [
    pytest.param("score", lambda: {}, id="score-empty"),
    pytest.param("validate", lambda: {"state": _pending_state()}, id="pending-action"),
    pytest.param("apply", lambda: {"state": fresh_state(), "moves": [{"type": "noble", "card": "palazzo",
                                                                      "cost": ["5"] * 65}]}, id="cost-65"),
    pytest.param("score", lambda: {"table": {"players": [{"name": "A", "towers": []}, {"name": "B", "towers": []}]}},
                 id="control-valid-table"),
])
def test_the_spec_refuses_exactly_what_the_code_answers_with_a_400(spec, client, question, make):
    body = make()
    refused_by_spec = bool(list(_validator(spec, _request_schema(spec, question)).iter_errors(body)))
    response = client.post(f"{BASE}/{question}", json=body)
    assert refused_by_spec is (response.status_code == 400), (refused_by_spec, response.get_json())


# ---------------------------------------------------------------- for client generators

PROBES = {"/healthz", "/readyz"}


def _operations(spec: dict) -> Iterator[tuple[str, str, dict]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                yield path, method, operation


def test_every_operation_has_a_readable_unique_operation_id_and_a_description(spec):
    ids = []
    for path, method, operation in _operations(spec):
        assert re.fullmatch(r"[a-z][a-z0-9_]*", operation.get("operationId", "")), (path, method)
        assert operation.get("description", "").strip(), (path, method)
        ids.append(operation["operationId"])
        if path.startswith("/v1/games/"):
            game, endpoint = path.split("/")[3:5]
            assert operation["operationId"] == f"{game}_{endpoint.replace('-', '_')}"
    assert len(ids) == len(set(ids))
    assert {"list_games", "torri_apply", "campanile_score", "torri_legal_moves"} <= set(ids)


def test_the_spec_says_no_authentication_is_needed(spec):
    assert spec["security"] == []
    assert "securitySchemes" not in spec["components"]


def test_every_operation_but_the_probes_documents_its_4xx_answers(spec):
    """The probes are never rate-limited and take no input: they have no 4xx answer to document."""
    for path, method, operation in _operations(spec):
        client_errors = [status for status in operation["responses"] if status.startswith("4")]
        assert bool(client_errors) == (path not in PROBES), (path, method, client_errors)
        for status in client_errors:
            assert "application/problem+json" in operation["responses"][status]["content"], (path, method, status)


def test_nothing_in_components_is_unused(spec):
    text = yaml.safe_dump({key: value for key, value in spec.items() if key != "components"})
    referenced = set(re.findall(r"#/components/(\w+)/([\w.-]+)", text))
    for kind, entries in spec["components"].items():
        for name, entry in entries.items():
            referenced |= set(re.findall(r"#/components/(\w+)/([\w.-]+)", yaml.safe_dump(entry)))
    declared = {(kind, name) for kind, entries in spec["components"].items() for name in entries}
    assert declared - referenced == set()


def _properties(node: Any, where: str) -> Iterator[tuple[str, dict]]:
    if isinstance(node, dict):
        for name, schema in node.get("properties", {}).items():
            yield f"{where}.{name}", schema
            yield from _properties(schema, f"{where}.{name}")
        for key in ("items", "oneOf", "anyOf", "allOf"):
            for index, part in enumerate(node.get(key, []) if key != "items" else [node.get(key)]):
                yield from _properties(part, f"{where}.{key}[{index}]")


def test_every_schema_property_is_described(spec):
    undescribed = [where for name, schema in spec["components"]["schemas"].items()
                   for where, prop in _properties(schema, name) if not prop.get("description", "").strip()]
    assert undescribed == []


def test_a_counted_pile_says_what_its_count_counts(spec):
    deck = spec["components"]["schemas"]["TorriCountedDeck"]["properties"]
    assert "in all" in deck["count"]["description"] and "included" in deck["count"]["description"]


def test_bodies_with_alternatives_are_a_oneof_of_named_exact_schemas(spec, client):
    found = 0
    for path, method, operation in _operations(spec):
        schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
        name = schema.get("$ref", "").rsplit("/", 1)[-1]
        alternatives = spec["components"]["schemas"].get(name, {}).get("oneOf")
        if not alternatives or "Move" in name:
            continue
        found += 1
        chosen = []
        for alternative in alternatives:
            target = spec["components"]["schemas"][alternative["$ref"].rsplit("/", 1)[-1]]
            assert target["additionalProperties"] is False and len(target["required"]) == 1, (path, alternative)
            chosen.append(target["required"][0])
        assert len(set(chosen)) == len(chosen) >= 2, (path, chosen)
    assert found >= 4  # score, picture and notation of Torri, score of Campanile, …
    validator = _validator(spec, _request_schema(spec, "score"))
    table = {"players": [{"name": "A", "towers": []}, {"name": "B", "towers": []}]}
    assert list(validator.iter_errors({"table": table})) == []
    assert list(validator.iter_errors({"table": table, "notation": "A:\nB:"}))  # two alternatives at once
    assert list(validator.iter_errors({}))
    assert client.post(f"{BASE}/score", json={"table": table, "notation": "A:\nB:"}).status_code == 400
