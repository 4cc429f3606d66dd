"""The limits: the rate limit (RATE_LIMIT, per client address) answers 429 problem+json with Retry-After, counted
in the host's shared memory without Redis and in a real Redis when REDIS_URL is set (shared by every worker), with
the probes exempt; the body size limit (MAX_BODY_BYTES) answers 413."""
from __future__ import annotations

import io

import pytest

from service.api import create_app

from .helpers import BASE, assert_healthy, assert_problem, timed
from tests.settings import AS_DEPLOYED

LIMIT = "5 per minute"


def assert_rate_limited(response) -> None:
    body = assert_problem(response, 429, pointer="")
    assert "5 per 1 minute" in body["detail"], body
    retry_after = int(response.headers["Retry-After"])
    # a sliding-window count may ask to wait past one period, while the last one's count slides out
    assert 0 < retry_after <= 2 * 60, retry_after
    assert response.headers["X-RateLimit-Limit"] == "5"
    assert response.headers["X-RateLimit-Remaining"] == "0"


def spend(client, count: int, label: str) -> list[int]:
    return [timed(client, f"{label} #{i}", "POST", f"{BASE}/new", json={"seed": i}).status_code for i in range(count)]


def assert_probes_exempt(client) -> None:
    for path in ("/healthz", "/readyz", "/metrics"):
        for _ in range(12):
            assert client.get(path).status_code == 200, path


# ---------------------------------------------------------------- in memory

def test_rate_limit_in_the_host_s_memory(make_app):
    client = make_app(RATE_LIMIT=LIMIT).test_client()
    assert spend(client, 5, "host limiter") == [200] * 5
    assert_rate_limited(timed(client, "host limiter: over", "POST", f"{BASE}/new", json={"seed": 1}))
    assert_probes_exempt(client)
    # per client address: another one is served
    other = client.post(f"{BASE}/new", json={"seed": 1}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 200
    # a hostile request over the limit is still a 429, not a crash
    assert_rate_limited(timed(client, "host limiter: hostile body", "POST", f"{BASE}/new", data=b"[" * 10_000,
                              content_type="application/json"))


def test_default_rate_limit_is_1200_per_minute(monkeypatch):
    monkeypatch.delenv("RATE_LIMIT", raising=False)
    client = create_app({"TESTING": True, "REDIS_URL": "", "LOG_LEVEL": "WARNING"}).test_client()
    response = client.post(f"{BASE}/new", json={"seed": 1})
    assert response.status_code == 200 and response.headers["X-RateLimit-Limit"] == "1200"


def test_rate_limit_off(make_app):
    client = make_app(RATE_LIMIT="").test_client()
    assert set(spend(client, 30, "no limiter")) == {200}


# ---------------------------------------------------------------- in Redis

def test_rate_limit_in_redis_is_shared_by_workers(make_app, redis_server):
    """Two apps (two gunicorn workers, or two replicas) with the same Redis share one count per address."""
    first = make_app(RATE_LIMIT=LIMIT, REDIS_URL=redis_server.url).test_client()
    second = make_app(RATE_LIMIT=LIMIT, REDIS_URL=redis_server.url).test_client()
    assert spend(first, 3, "redis limiter, worker 1") == [200] * 3
    assert spend(second, 2, "redis limiter, worker 2") == [200] * 2
    assert_rate_limited(timed(first, "redis limiter: over (worker 1)", "POST", f"{BASE}/new", json={"seed": 9}))
    assert_rate_limited(timed(second, "redis limiter: over (worker 2)", "POST", f"{BASE}/new", json={"seed": 9}))
    keys = [key.decode() for key in redis_server.keys("LIMITS*")]
    assert keys and all("127.0.0.1" in key for key in keys), keys
    assert_probes_exempt(first)
    assert_probes_exempt(second)
    other = second.post(f"{BASE}/new", json={"seed": 1}, environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert other.status_code == 200


def test_rate_limit_with_redis_down_keeps_answering(make_app, redis_server):
    """Redis dies: the limiter counts in the host's memory instead; no request fails or waits on the dead Redis."""
    client = make_app(RATE_LIMIT=LIMIT, REDIS_URL=redis_server.url).test_client()
    assert spend(client, 2, "redis limiter before the outage") == [200] * 2
    redis_server.kill()
    statuses = []
    for i in range(10):
        response = timed(client, f"redis limiter, Redis down #{i}", "POST", f"{BASE}/new", json={"seed": i},
                         limit=10.0)  # waiting on the dead Redis would hang: its timeouts are 0.1 s
        statuses.append(response.status_code)
        if response.status_code == 429:
            assert_rate_limited(response)
    assert statuses[0] == 200 and set(statuses) <= {200, 429} and 429 in statuses, statuses
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["status"] == "degraded"
    assert_probes_exempt(client)


# ---------------------------------------------------------------- body size

def _padded(size: int) -> bytes:
    head = b'{"seed": 1'
    return head + b" " * (size - len(head) - 1) + b"}"


def test_default_body_limit_is_256_kib(make_app):
    client = make_app().test_client()
    limit = 256 * 1024
    at_limit = timed(client, "body of 256 KiB", "POST", f"{BASE}/new", data=_padded(limit),
                     content_type="application/json")
    assert at_limit.status_code == 200
    over = timed(client, "body of 256 KiB + 1", "POST", f"{BASE}/new", data=_padded(limit + 1),
                 content_type="application/json")
    body = assert_problem(over, 413, pointer="")
    assert f"{limit:,}" in body["detail"]  # the number as English writes it
    assert_healthy(client)


@pytest.mark.parametrize("source", ["config", "environment"])
def test_body_limit_setting(make_app, monkeypatch, source):
    if source == "environment":
        monkeypatch.setenv("MAX_BODY_BYTES", "1000")
        client = create_app(AS_DEPLOYED).test_client()
    else:
        client = make_app(MAX_BODY_BYTES=1000).test_client()
    assert client.post(f"{BASE}/new", data=_padded(1000), content_type="application/json").status_code == 200
    body = assert_problem(timed(client, f"body over MAX_BODY_BYTES=1000 ({source})", "POST", f"{BASE}/new",
                                data=_padded(1001), content_type="application/json"), 413)
    assert "1,000" in body["detail"]


def test_a_chunked_body_over_the_limit_is_413(make_app):
    """No Content-Length (chunked, as gunicorn passes it on: wsgi.input_terminated): the body is read up to the
    limit and refused when it fills it, instead of being parsed cut short (test_http.py sends real chunks)."""
    client = make_app(MAX_BODY_BYTES=1000).test_client()
    for size, expected in ((500, 200), (5000, 413)):
        raw = _padded(size)
        response = timed(client, f"chunked body of {size} bytes, limit 1000", "POST", f"{BASE}/new",
                         input_stream=io.BytesIO(raw), environ_base={"wsgi.input_terminated": True},
                         headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"})
        assert response.status_code == expected, (size, response.get_data(as_text=True)[:300])
        if expected == 413:
            assert_problem(response, 413, pointer="")
