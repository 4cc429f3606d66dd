"""Cross-cutting HTTP behaviour: the answer cache as seen through X-Cache, CORS, request ids, metrics."""
from __future__ import annotations

import json
import re

import pytest
from prometheus_client.parser import text_string_to_metric_families

from .helpers import BASE, POST_QUESTIONS, body_for, fresh_state, impossible_state, table

JSON = "application/json"

# ---------------------------------------------------------------- cache


@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_miss_then_hit(client, question):
    body = body_for(question)
    first = client.post(f"{BASE}/{question}", json=body)
    second = client.post(f"{BASE}/{question}", json=body)
    assert first.status_code == second.status_code == 200
    assert first.headers["X-Cache"] == "miss"
    assert second.headers["X-Cache"] == "hit"
    assert second.get_data() == first.get_data()
    assert second.mimetype == "application/json"


def test_key_order_does_not_matter(client, state):
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"}]
    forward = json.dumps({"state": state, "moves": moves})
    reordered_state = dict(reversed(list(state.items())))
    reordered_moves = [dict(reversed(list(m.items()))) for m in moves]
    backward = json.dumps({"moves": reordered_moves, "state": reordered_state})
    assert forward != backward
    first = client.post(f"{BASE}/apply", data=forward, content_type=JSON)
    second = client.post(f"{BASE}/apply", data=backward, content_type=JSON)
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("miss", "hit")
    assert first.get_data() == second.get_data()


def test_whitespace_does_not_matter(client, state):
    first = client.post(f"{BASE}/validate", data=json.dumps({"state": state}), content_type=JSON)
    second = client.post(f"{BASE}/validate", data=json.dumps({"state": state}, indent=4), content_type=JSON)
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("miss", "hit")


def test_different_requests_do_not_share_an_answer(client, state):
    a = client.post(f"{BASE}/view", json={"state": state, "player": 0})
    b = client.post(f"{BASE}/view", json={"state": state, "player": 1})
    assert (a.headers["X-Cache"], b.headers["X-Cache"]) == ("miss", "miss")
    assert a.get_data() != b.get_data()


def test_same_body_on_two_endpoints_is_two_entries(client, state):
    body = {"state": state}
    assert client.post(f"{BASE}/validate", json=body).headers["X-Cache"] == "miss"
    assert client.post(f"{BASE}/legal-moves", json=body).headers["X-Cache"] == "miss"
    assert client.post(f"{BASE}/score", json=body).headers["X-Cache"] == "miss"


def test_new_without_a_seed_is_never_cached(client):
    first = client.post(f"{BASE}/new", json={})
    second = client.post(f"{BASE}/new", json={})
    assert first.headers["X-Cache"] == second.headers["X-Cache"] == "bypass"
    assert first.get_json()["seed"] != second.get_json()["seed"]
    assert client.post(f"{BASE}/new", json={"names": ["A", "B"]}).headers["X-Cache"] == "bypass"


def test_new_with_a_seed_is_cached(client):
    assert client.post(f"{BASE}/new", json={"seed": 5}).headers["X-Cache"] == "miss"
    assert client.post(f"{BASE}/new", json={"seed": 5}).headers["X-Cache"] == "hit"


def test_errors_are_not_cached(client):
    state = impossible_state()
    for _ in range(2):
        response = client.post(f"{BASE}/legal-moves", json={"state": state})
        assert response.status_code == 422
        assert response.headers.get("X-Cache") != "hit"
    for _ in range(2):
        response = client.post(f"{BASE}/validate", json={"state": {"bogus": 1}})
        assert response.status_code == 400
        assert response.headers.get("X-Cache") != "hit"


def test_an_illegal_move_answer_is_cached_like_any_answer(client, state):
    body = {"state": state, "moves": [{"type": "close"}]}
    first = client.post(f"{BASE}/apply", json=body)
    assert first.get_json()["legal"] is False
    assert client.post(f"{BASE}/apply", json=body).headers["X-Cache"] == "hit"


def test_each_app_has_its_own_cache(make_app):
    body = {"table": table()}
    assert make_app().test_client().post(f"{BASE}/score", json=body).headers["X-Cache"] == "miss"
    assert make_app().test_client().post(f"{BASE}/score", json=body).headers["X-Cache"] == "miss"


@pytest.mark.app_config(CACHE_MAX_ENTRIES=0)
def test_cache_turned_off_never_hits(client):
    for _ in range(3):
        response = client.post(f"{BASE}/new", json={"seed": 3})
        assert response.status_code == 200
        assert response.headers["X-Cache"] != "hit"


def test_get_endpoints_carry_no_cache_header(client):
    for path in ("/v1/games", f"{BASE}/rules", "/healthz"):
        assert "X-Cache" not in client.get(path).headers


# ---------------------------------------------------------------- CORS

ORIGIN = "https://front.example"


@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_preflight(client, question):
    response = client.options(f"{BASE}/{question}", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type, X-Request-Id"})
    assert response.status_code in (200, 204)
    assert response.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    allowed_headers = response.headers["Access-Control-Allow-Headers"].lower()
    assert "content-type" in allowed_headers and "x-request-id" in allowed_headers
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_preflight_for_a_get_endpoint(client):
    response = client.options("/v1/games", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "GET"})
    assert response.status_code in (200, 204)
    assert response.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)
    assert "Access-Control-Max-Age" in response.headers


def _exposed(response) -> set[str]:
    return {h.strip().lower() for h in response.headers.get("Access-Control-Expose-Headers", "").split(",")}


def test_cross_origin_answer_exposes_the_cache_and_request_id_headers(client, state):
    response = client.post(f"{BASE}/validate", json={"state": state}, headers={"Origin": ORIGIN})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)
    assert {"x-cache", "x-request-id"} <= _exposed(response)


def test_cross_origin_problem_is_readable(client):
    response = client.post(f"{BASE}/validate", json={"bogus": 1}, headers={"Origin": ORIGIN})
    assert response.status_code == 400
    assert response.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)
    assert "x-request-id" in _exposed(response)


@pytest.mark.app_config(CORS_ORIGINS="https://a.example, https://b.example")
def test_cors_origins_setting(client):
    allowed = client.options(f"{BASE}/apply", headers={"Origin": "https://b.example",
                                                       "Access-Control-Request-Method": "POST"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://b.example"
    assert "Origin" in allowed.headers.get("Vary", "")
    other = client.options(f"{BASE}/apply", headers={"Origin": "https://evil.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in other.headers
    simple = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert simple.status_code == 200
    assert "Access-Control-Allow-Origin" not in simple.headers


# ---------------------------------------------------------------- request ids

HEX_ID = re.compile(r"^[0-9a-f]{32}$")


@pytest.mark.parametrize("method, path", [("GET", "/healthz"), ("GET", "/v1/games"), ("POST", f"{BASE}/new"),
                                          ("GET", "/nope")])
def test_request_id_is_echoed(client, method, path):
    response = client.open(path, method=method, json={"seed": 1} if method == "POST" else None,
                           headers={"X-Request-Id": "abc-123.XYZ_9"})
    assert response.headers["X-Request-Id"] == "abc-123.XYZ_9"


def test_request_id_is_generated_when_absent(client):
    first = client.get("/healthz").headers["X-Request-Id"]
    second = client.get("/healthz").headers["X-Request-Id"]
    assert HEX_ID.match(first) and HEX_ID.match(second)
    assert first != second


@pytest.mark.parametrize("given", ["has spaces", "x" * 65, "quote\"", "semi;colon", ""])
def test_unsafe_request_id_is_replaced(client, given):
    response = client.get("/healthz", headers={"X-Request-Id": given})
    assert HEX_ID.match(response.headers["X-Request-Id"])


def test_problem_carries_the_request_id(client):
    response = client.post(f"{BASE}/apply", json={}, headers={"X-Request-Id": "trace-7"})
    assert response.status_code == 400
    assert response.headers["X-Request-Id"] == "trace-7"
    assert response.get_json()["request_id"] == "trace-7"


def test_cache_hit_gets_its_own_request_id(client):
    client.post(f"{BASE}/new", json={"seed": 9}, headers={"X-Request-Id": "first"})
    hit = client.post(f"{BASE}/new", json={"seed": 9}, headers={"X-Request-Id": "second"})
    assert hit.headers["X-Cache"] == "hit"
    assert hit.headers["X-Request-Id"] == "second"


# ---------------------------------------------------------------- metrics


def _samples(client, name: str) -> dict[tuple, float]:
    text = client.get("/metrics").get_data(as_text=True)
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                out[tuple(sorted(sample.labels.items()))] = sample.value
    return out


def _labels(**labels: str) -> tuple:
    return tuple(sorted(labels.items()))


def test_metrics_count_adjudications(client, state):
    assert _samples(client, "referee_adjudications_total") == {}
    client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "pass"}]})
    client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "close"}]})
    client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "pass"}]})  # a cache hit
    samples = _samples(client, "referee_adjudications_total")
    assert samples[_labels(game="torri", endpoint="apply", outcome="legal")] == 1
    assert samples[_labels(game="torri", endpoint="apply", outcome="illegal")] == 1
    assert samples[_labels(game="torri", endpoint="apply", outcome="cached")] == 1


def test_metrics_count_validations_and_cache_use(client):
    client.post(f"{BASE}/validate", json={"state": fresh_state()})
    client.post(f"{BASE}/validate", json={"state": impossible_state()})
    samples = _samples(client, "referee_adjudications_total")
    assert samples[_labels(game="torri", endpoint="validate", outcome="valid")] == 1
    assert samples[_labels(game="torri", endpoint="validate", outcome="invalid")] == 1
    cache = _samples(client, "referee_cache_requests_total")
    assert cache[_labels(store="memory", operation="get", result="miss")] == 2
    assert cache[_labels(store="memory", operation="set", result="ok")] == 2


def test_metrics_include_http_requests(client):
    client.get("/v1/games")
    text = client.get("/metrics").get_data(as_text=True)
    assert "flask_http_request_total" in text or "flask_http_request_duration_seconds" in text


# ---------------------------------------------------------------- small hygiene


@pytest.mark.parametrize("method, path", [("GET", "/v1/games"), ("POST", f"{BASE}/new"), ("GET", "/nope")])
def test_nosniff(client, method, path):
    response = client.open(path, method=method, json={"seed": 1} if method == "POST" else None)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
