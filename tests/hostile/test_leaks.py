"""Nothing leaks: with REDIS_URL=redis://:s3cret-pass@127.0.0.1:<port>/0 (a real redis-server with that password),
no answer (body or header) to anything, normal or hostile, and no log line at INFO or above ever holds the password
or the URL, including while Redis is down and when it comes back; no error answer carries a stack trace or a file
path. The `service` logger does not propagate (the app sets propagate=False), so it is captured directly."""
from __future__ import annotations

import logging
import time

import orjson
import pytest

from service.api import create_app
from service.api.observability import JsonFormatter

from .helpers import BASE, CAMPANILE, INTERNALS, assert_problem, fresh_state

PASSWORD = "s3cret-pass"
INTERNAL_DETAIL = "the-internal-detail-7a1f at /site-packages/secret_module.py"


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.formatter_ = JsonFormatter()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.formatter_.format(record))


@pytest.fixture
def capture():
    handler = Capture()
    loggers = [logging.getLogger(name) for name in ("service", "flask-limiter", "")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)


def hostile_requests(state: dict) -> list[tuple[str, str, dict]]:
    exploding = fresh_state(7, nobles=True)
    exploding["players"][0]["hand"] = {"count": len(exploding["players"][0]["hand"]) + 1}
    exploding["players"][1]["hand"] = {"count": len(exploding["players"][1]["hand"])}
    exploding["deck"] = {"count": len(exploding["deck"]) - 1}
    exploding["noble_deck"] = {"count": len(exploding["noble_deck"])}
    tampered = {**state, "pending": {"type": "draw", "action": "purchase", "player": 0, "left": 5,
                                     "from": ["deck", "market"]}}
    json_type = {"content_type": "application/json"}
    return [
        ("GET", "/healthz", {}), ("GET", "/readyz", {}), ("GET", "/metrics", {}), ("GET", "/openapi.yaml", {}),
        ("GET", "/docs", {}), ("GET", "/v1/games", {}), ("GET", f"{BASE}/rules", {}),
        ("POST", f"{BASE}/new", {"json": {"seed": 1}}),
        ("POST", f"{BASE}/legal-moves", {"json": {"state": state}}),
        ("POST", f"{BASE}/legal-moves", {"json": {"state": state}}),  # a cache hit
        ("POST", f"{BASE}/picture", {"json": {"state": state}}),
        ("POST", f"{CAMPANILE}/new", {"json": {"seed": 1, "names": ["A", "B"]}}),
        ("POST", f"{BASE}/apply", {"data": b"not json", **json_type}),
        ("POST", f"{BASE}/apply", {"data": b"{}", "content_type": "text/plain"}),
        ("POST", f"{BASE}/apply", {"data": b"", **json_type}),
        ("POST", f"{BASE}/apply", {"data": b"{" + b" " * (10 * 1024 * 1024) + b"}", **json_type}),
        ("POST", f"{BASE}/apply", {"data": b"[" * 10_000 + b"]" * 10_000, **json_type}),
        ("POST", f"{BASE}/apply", {"data": orjson.dumps({"state": state, "moves": [0] * 100_000}), **json_type}),
        ("POST", f"{BASE}/new", {"data": b'{"seed": 1180591620717411303424}', **json_type}),
        ("POST", f"{BASE}/validate", {"data": b'{"state": {"turn": 1e400}}', **json_type}),
        ("POST", f"{BASE}/validate", {"json": {"state": {**state, "zz": {"yy": 1}}, "xx": 1}}),
        ("POST", f"{BASE}/validate", {"json": {"state": {**state, "players": "x"}}}),
        ("POST", f"{BASE}/apply", {"json": {"state": state, "moves": [{"type": {}}]}}),
        ("POST", f"{BASE}/apply", {"json": {"state": state, "moves": [{"type": "extend", "tower": -1,
                                                                         "cards": ["5"]}]}}),
        ("POST", f"{BASE}/legal-moves", {"json": {"state": tampered}}),
        ("POST", f"{BASE}/legal-moves", {"json": {"state": exploding}}),
        ("POST", f"{BASE}/apply", {"json": {"state": state, "moves": [{"type": "pass"}] * 10_000}}),
        ("POST", "/v1/games/chess/new", {"json": {}}), ("GET", "/nope", {}), ("DELETE", f"{BASE}/apply", {}),
        ("PUT", "/healthz", {}), ("GET", "/boom", {}),
    ]


def check_answer(response, request: str) -> None:
    text = response.get_data(as_text=True)
    headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    for secret in (PASSWORD, "s3cret", "redis://"):
        assert secret not in text, f"{request}: {secret!r} in the body"
        assert secret not in headers, f"{request}: {secret!r} in the headers"
    if response.status_code >= 400:
        for marker in INTERNALS + (INTERNAL_DETAIL, "RuntimeError"):
            assert marker not in text, f"{request}: {marker!r} in a {response.status_code} answer: {text[:300]}"
        if response.status_code == 500:
            assert_problem(response, 500, min_errors=0)
            assert len(response.get_json()["error_id"]) == 32


def test_no_secret_or_internals_in_answers_or_logs(redis_server, capture):
    url = redis_server.url
    assert PASSWORD in url
    app = create_app({"REDIS_URL": url, "RATE_LIMIT": "40 per minute", "LOG_LEVEL": "INFO", "TESTING": False,
                      "PROPAGATE_EXCEPTIONS": False})

    @app.route("/boom", methods=["GET"])
    def boom():
        raise RuntimeError(INTERNAL_DETAIL)

    client = app.test_client()
    state = fresh_state(42)
    statuses = []

    def send_all(phase: str) -> None:
        for method, path, kwargs in hostile_requests(state):
            response = client.open(path, method=method, **kwargs)
            statuses.append(response.status_code)
            check_answer(response, f"{phase}: {method} {path}")

    send_all("Redis up")
    for i in range(45):  # over the rate limit on one route
        response = client.post(f"{BASE}/new", json={"seed": i})
        statuses.append(response.status_code)
        check_answer(response, "rate limit")
    assert 429 in statuses
    redis_server.kill()
    send_all("Redis down")
    ready = client.get("/readyz")
    check_answer(ready, "readyz, Redis down")
    assert ready.get_json()["status"] == "degraded"
    redis_server.start()
    deadline = time.monotonic() + 15  # the cache skips Redis for a back-off after a fault, then tries again
    while client.get("/readyz").get_json()["cache"] != "redis":
        assert time.monotonic() < deadline, "the cache did not go back to Redis"
        time.sleep(0.2)
    send_all("Redis back")

    assert {200, 400, 404, 405, 413, 415, 422, 429, 500} <= set(statuses), sorted(set(statuses))
    log = "\n".join(capture.lines)
    assert capture.lines and '"logger":"service.access"' in log  # the capture is not vacuous
    assert "redis cache unavailable" in log and "redis cache reachable again" in log
    assert '"level":"ERROR"' in log and INTERNAL_DETAIL in log  # the 500's details go to the log, only there
    for line in capture.lines:
        assert PASSWORD not in line and "s3cret" not in line and url not in line, line[:500]


def test_a_misconfigured_redis_url_does_not_leak_either(capture, tmp_path):
    """A wrong password (and a Redis that refuses it): every answer still comes, and no line or answer holds the
    password that was configured."""
    from .helpers import bench_module

    server = bench_module("faults").RedisServer(tmp_path, password="the-right-one").start()
    try:
        url = f"redis://:{PASSWORD}@127.0.0.1:{server.port}/0"
        client = create_app({"REDIS_URL": url, "RATE_LIMIT": "40 per minute", "LOG_LEVEL": "INFO",
                             "TESTING": True}).test_client()
        for method, path, kwargs in hostile_requests(fresh_state(42))[:-1]:
            response = client.open(path, method=method, **kwargs)
            assert response.status_code < 500, (path, response.get_data(as_text=True)[:300])
            check_answer(response, f"wrong password: {method} {path}")
        assert client.get("/readyz").get_json()["status"] == "degraded"
    finally:
        server.kill()
    for line in capture.lines:
        assert PASSWORD not in line and "s3cret" not in line, line[:500]
