"""/metrics counts cache look-ups and stores by result (hit, miss, error, ...) and times them."""
from __future__ import annotations

import orjson
from prometheus_client.parser import text_string_to_metric_families

from service.api import create_app
from service.games import torri
from tests.settings import AS_DEPLOYED

APPLY = "/v1/games/torri/apply"


def body(seed: int = 7) -> bytes:
    return orjson.dumps({"state": torri.state_json(torri.new_game(seed=seed)), "moves": [{"type": "purchase"}]})


def scrape(client) -> dict[str, list]:
    response = client.get("/metrics")
    assert response.status_code == 200
    families: dict[str, list] = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        families.setdefault(family.name, []).extend(family.samples)
    return families


def requests_by_label(families) -> dict[tuple[str, str, str], float]:
    return {(s.labels["store"], s.labels["operation"], s.labels["result"]): s.value
            for s in families["referee_cache_requests"] if s.name == "referee_cache_requests_total"}


def seconds_counts(families) -> dict[tuple[str, str], float]:
    return {(s.labels["store"], s.labels["operation"]): s.value
            for s in families["referee_cache_seconds"] if s.name == "referee_cache_seconds_count"}


def post(client, data: bytes):
    response = client.post(APPLY, data=data, content_type="application/json")
    assert response.status_code == 200
    return response.headers["X-Cache"]


def test_memory_hits_and_misses_are_counted_and_timed():
    client = create_app(AS_DEPLOYED).test_client()
    assert [post(client, body()), post(client, body()), post(client, body()), post(client, body(8))] == \
        ["miss", "hit", "hit", "miss"]
    families = scrape(client)
    counts = requests_by_label(families)
    assert counts[("memory", "get", "hit")] == 2
    assert counts[("memory", "get", "miss")] == 2
    assert counts[("memory", "set", "ok")] == 2
    timed = seconds_counts(families)
    assert timed[("memory", "get")] == 4 and timed[("memory", "set")] == 2
    buckets = [s for s in families["referee_cache_seconds"] if s.name == "referee_cache_seconds_bucket"
               and s.labels["store"] == "memory" and s.labels["operation"] == "get"]
    assert buckets and max(s.value for s in buckets) == 4  # the +Inf bucket holds every look-up


def test_redis_hits_misses_and_errors_are_counted(redis_server, cache_clock):
    client = create_app({**AS_DEPLOYED, "REDIS_URL": redis_server.url}).test_client()
    assert [post(client, body()), post(client, body())] == ["miss", "hit"]
    redis_server.stop()
    assert post(client, body()) == "miss"  # the look-up fails: computed
    assert post(client, body()) == "miss"  # within the back-off: Redis skipped
    families = scrape(client)
    counts = requests_by_label(families)
    assert counts[("redis", "get", "miss")] == 1
    assert counts[("redis", "get", "hit")] == 1
    assert counts[("redis", "get", "error")] == 1
    assert counts[("redis", "get", "bypass")] == 1
    assert counts[("redis", "set", "ok")] == 1
    assert counts[("redis", "set", "bypass")] == 2
    assert seconds_counts(families)[("redis", "get")] == 4
    text = client.get("/metrics").get_data(as_text=True)
    assert 'referee_cache_requests_total{operation="get",result="error",store="redis"}' in text \
        or 'referee_cache_requests_total{store="redis",operation="get",result="error"}' in text
    assert "referee_cache_seconds_bucket" in text


def test_corrupt_values_are_counted(redis_server):
    client = create_app({**AS_DEPLOYED, "REDIS_URL": redis_server.url}).test_client()
    post(client, body())
    raw = redis_server.client()
    (key,) = raw.keys("tr:*")
    raw.set(key, b"junk")
    assert post(client, body()) == "miss"
    assert requests_by_label(scrape(client))[("redis", "get", "corrupt")] == 1
