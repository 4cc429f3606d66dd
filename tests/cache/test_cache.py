"""The cache seam against real stores: the in-process LRU, and a real redis-server (killed, hung, restarted,
password-protected, over TLS, and as a 3-node Cluster).

Run: python -m pytest tests/cache -q -p no:cacheprovider
"""
from __future__ import annotations

import dataclasses
import logging
import shutil
import subprocess
import threading
import time
import tracemalloc

import orjson
import pytest
import redis

from service import cache as cache_module
from service.api import create_app
from service.api.jsonio import canonical
from service.cache import (
    BYPASS,
    CORRUPT,
    ERROR,
    HIT,
    MISS,
    VALUE_MAGIC,
    MemoryCache,
    RedisCache,
    cache_key,
    make_cache,
    seal,
)
from service.games import torri
from service.games.registry import GAMES
from tests.settings import AS_DEPLOYED

APPLY = "/v1/games/torri/apply"
REPLAY = "/v1/games/torri/replay"
# A hang guard, not a speed check (speed is measured in bench/): with Redis down or hung, a request that waited on
# it without a timeout would never return; with the service's 0.1 s timeouts it answers in milliseconds.
FAST = 5.0


# ---------------------------------------------------------------------------------------------------------------
# helpers

def state(seed: int = 7) -> dict:
    return torri.state_json(torri.new_game(seed=seed))


def apply_body(seed: int = 7) -> dict:
    return {"state": state(seed), "moves": [{"type": "purchase"}]}


def reorder(value):
    """The same document with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {key: reorder(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reorder(item) for item in value]
    return value


_UNCACHED = []


def expected_answer(path: str, body: dict) -> dict:
    """The answer computed by an app with no Redis and no cache at all."""
    if not _UNCACHED:
        _UNCACHED.append(create_app({**AS_DEPLOYED, "CACHE_MAX_ENTRIES": 0}).test_client())
    response = _UNCACHED[0].post(path, json=body)
    assert response.status_code == 200
    return response.get_json()


def json_or_none(response):
    try:
        return orjson.loads(response.data)
    except orjson.JSONDecodeError:
        return None


def make_client(redis_url: str | None = None, **config):
    settings = {**AS_DEPLOYED, "REDIS_URL": redis_url, "LOG_LEVEL": "INFO", **config}  # INFO: a recovery is logged
    app = create_app(settings)
    return app, app.test_client()


def post(client, path: str, body: dict):
    """(response, seconds)"""
    started = time.perf_counter()
    response = client.post(path, data=orjson.dumps(body), content_type="application/json")
    return response, time.perf_counter() - started


def our_keys(server) -> list[bytes]:
    client = server.client()
    try:
        return sorted(client.keys(f"{cache_module.KEY_PREFIX}:*"))
    finally:
        client.close()


class _Records(logging.Handler):
    """Keeps the records it is given, each once (the same record may arrive through more than one logger)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not any(kept is record for kept in self.records):
            self.records.append(record)


@pytest.fixture
def cache_log():
    """Records of the `service.cache` logger, from a handler on the logger itself: create_app stops `service`
    from propagating to the root logger (it has its own JSON handler), so pytest's caplog may not see them, or,
    depending on the pytest version, may see each of them twice."""
    logger = logging.getLogger("service.cache")
    handler = _Records()
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


@pytest.fixture
def all_log():
    """Every record of every logger (root and `service`), to look for secrets."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    loggers = [logging.getLogger(), logging.getLogger("service")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def rendered(records: list[logging.LogRecord]) -> str:
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(formatter.format(record) for record in records)


def warnings_of(log: _Records) -> list[logging.LogRecord]:
    return [r for r in log.records if r.name == "service.cache" and r.levelno >= logging.WARNING]


# ---------------------------------------------------------------------------------------------------------------
# MemoryCache


class TestMemoryCache:
    def test_miss_then_hit(self):
        store = MemoryCache(max_entries=4, ttl_seconds=60)
        assert store.get("k") == (None, MISS)
        assert store.set("k", b"v") == "ok"
        assert store.get("k") == (b"v", HIT)
        assert store.status() == "memory"

    def test_lru_bound_evicts_least_recently_used(self):
        store = MemoryCache(max_entries=2, ttl_seconds=60)
        store.set("a", b"1")
        store.set("b", b"2")
        assert store.get("a") == (b"1", HIT)  # a is now the most recently used
        store.set("c", b"3")  # evicts b
        assert store.get("b") == (None, MISS)
        assert store.get("a") == (b"1", HIT)
        assert store.get("c") == (b"3", HIT)
        assert len(store._entries) == 2

    def test_bound_holds_under_many_sets(self):
        store = MemoryCache(max_entries=10, ttl_seconds=60)
        for i in range(1000):
            store.set(f"k{i}", b"x")
        assert len(store._entries) == 10
        assert store.get("k999") == (b"x", HIT)
        assert store.get("k989") == (None, MISS)

    def test_ttl_expiry(self, monkeypatch):
        now = [1000.0]
        monkeypatch.setattr(cache_module.time, "monotonic", lambda: now[0])
        store = MemoryCache(max_entries=4, ttl_seconds=10)
        store.set("k", b"v")
        now[0] += 9.9
        assert store.get("k") == (b"v", HIT)
        now[0] += 0.2
        assert store.get("k") == (None, MISS)
        assert "k" not in store._entries  # an expired entry is dropped when seen

    def test_zero_entries_disables_storing(self):
        store = MemoryCache(max_entries=0, ttl_seconds=60)
        assert store.set("k", b"v") == BYPASS
        assert store.get("k") == (None, MISS)

    def test_bound_in_bytes_evicts_least_recently_used(self):
        value = b"x" * 1000
        each = cache_module.entry_cost("k0", value)
        store = MemoryCache(max_entries=1000, ttl_seconds=60, max_bytes=3 * each, max_value_bytes=10_000)
        for i in range(3):
            assert store.set(f"k{i}", value) == "ok"
        assert store.get("k0") == (value, HIT)  # k0 is now the most recently used
        store.set("k3", value)  # evicts k1
        assert store.get("k1") == (None, MISS)
        assert [store.get(k)[1] for k in ("k0", "k2", "k3")] == [HIT, HIT, HIT]
        assert len(store) == 3 and store.size_bytes == 3 * each

    def test_bytes_level_off_under_a_stream_of_distinct_large_answers(self):
        store = MemoryCache(max_entries=100_000, ttl_seconds=60, max_bytes=1_000_000, max_value_bytes=200_000)
        sizes = []
        for i in range(500):
            store.set(f"answer-{i}", bytes(100_000 + i))
            sizes.append(store.size_bytes)
        assert max(sizes) <= 1_000_000 and min(sizes[250:]) > 800_000  # bounded, and level once full
        assert store.get("answer-499")[1] == HIT and store.get("answer-0")[1] == MISS

    def test_replacing_an_answer_counts_it_once(self):
        store = MemoryCache(max_entries=10, ttl_seconds=60, max_bytes=10_000)
        for _ in range(5):
            store.set("k", b"v" * 100)
        assert len(store) == 1 and store.size_bytes == cache_module.entry_cost("k", b"v" * 100)
        store.clear()
        assert len(store) == 0 and store.size_bytes == 0

    def test_kept_answers_cost_what_is_counted(self):
        # An answer as orjson makes it may sit in a buffer many times its length; what the cache keeps must not.
        def answer(n: int) -> bytes:
            return orjson.dumps({"moves": [{"type": "draw", "card": card} for card in range(n)]})

        store = MemoryCache(max_entries=1000, ttl_seconds=60, max_bytes=10 ** 9)
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for n in range(100, 300):
                store.set(f"k{n}", answer(n))  # the cache holds the only reference
            kept = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert all(store.get(f"k{n}")[0] == answer(n) for n in range(100, 300))
        assert kept < 1.1 * store.size_bytes  # entry_cost is near enough: the LRU's own upkeep is a guess

    def test_an_answer_too_large_to_keep_is_not_kept(self):
        store = MemoryCache(max_entries=10, ttl_seconds=60, max_value_bytes=1000)
        assert store.set("small", b"s" * 1000) == "ok"
        assert store.set("large", b"l" * 1001) == BYPASS
        assert store.get("large") == (None, MISS) and store.get("small")[1] == HIT

    def test_make_cache_without_url_is_memory(self):
        store = make_cache(None, ttl_seconds=5, max_entries=3)
        assert isinstance(store, MemoryCache) and (store.ttl, store.max_entries) == (5, 3)
        assert isinstance(make_cache("redis://127.0.0.1:1/0", ttl_seconds=5, max_entries=3), RedisCache)

    def test_api_memory_hit_and_readyz(self):
        _, client = make_client()
        body = apply_body()
        first, _ = post(client, APPLY, body)
        second, _ = post(client, APPLY, reorder(body))
        assert (first.status_code, first.headers["X-Cache"]) == (200, "miss")
        assert (second.status_code, second.headers["X-Cache"]) == (200, "hit")
        assert second.get_json() == first.get_json()
        assert client.get("/readyz").get_json()["cache"] == "memory"


# ---------------------------------------------------------------------------------------------------------------
# cache_key


def test_cache_key_covers_endpoint_game_rules_version_and_canonical_request():
    body = apply_body()
    base = cache_key("apply", "torri", "torri-2", canonical(body))
    assert base == cache_key("apply", "torri", "torri-2", canonical(reorder(body)))
    assert base != cache_key("replay", "torri", "torri-2", canonical(body))
    assert base != cache_key("apply", "other", "torri-2", canonical(body))
    assert base != cache_key("apply", "torri", "torri-3", canonical(body))
    assert base != cache_key("apply", "torri", "torri-2", canonical(apply_body(seed=8)))
    assert base.startswith(cache_module.KEY_PREFIX + ":")


# ---------------------------------------------------------------------------------------------------------------
# RedisCache against a real server


class TestRedisCacheDirect:
    def test_miss_set_hit_and_stored_form(self, redis_server):
        store = RedisCache(redis_server.url, ttl_seconds=100)
        assert store.get("tr:v1:k") == (None, MISS)
        assert store.set("tr:v1:k", b'{"a":1}') == "ok"
        assert store.get("tr:v1:k") == (b'{"a":1}', HIT)
        raw = redis_server.client()
        assert raw.get("tr:v1:k") == seal(b'{"a":1}')
        assert 0 < raw.ttl("tr:v1:k") <= 100
        assert store.status() == "redis"

    def test_an_answer_too_large_to_keep_is_not_sent(self, redis_server):
        store = RedisCache(redis_server.url, ttl_seconds=100, max_value_bytes=1000)
        assert store.set("tr:v1:small", b"s" * 1000) == "ok"
        assert store.set("tr:v1:large", b"l" * 1001) == BYPASS
        assert redis_server.client().exists("tr:v1:large") == 0
        assert store.get("tr:v1:large") == (None, MISS)

    def test_value_without_our_magic_is_corrupt(self, redis_server):
        store = RedisCache(redis_server.url)
        redis_server.client().set("tr:v1:k", b'{"legal": true}')
        assert store.get("tr:v1:k") == (None, CORRUPT)
        assert store.status() == "redis"  # a foreign value is not a fault

    def test_killed_server_is_an_error_then_a_bypass(self, redis_server, cache_log, cache_clock):
        store = RedisCache(redis_server.url, backoff_seconds=0.3)
        assert store.set("k", b"v") == "ok"
        redis_server.stop()
        value, outcome = store.get("k")
        assert (value, outcome) == (None, ERROR)
        assert store.get("k") == (None, BYPASS)
        assert store.set("k", b"v") == BYPASS
        assert store.status() == "degraded"
        redis_server.start()
        cache_clock[0] += 0.35
        assert store.get("k") == (None, MISS)  # a fresh server: empty
        assert store.status() == "redis"
        assert len(warnings_of(cache_log)) == 1


# ---------------------------------------------------------------------------------------------------------------
# The API with Redis


class TestApiWithRedis:
    def test_miss_then_hit_same_answer(self, redis_server):
        _, client = make_client(redis_server.url)
        body = apply_body()
        first, _ = post(client, APPLY, body)
        second, _ = post(client, APPLY, body)
        assert (first.status_code, first.headers["X-Cache"]) == (200, "miss")
        assert (second.status_code, second.headers["X-Cache"]) == (200, "hit")
        assert second.get_json() == first.get_json() == expected_answer(APPLY, body)
        assert len(our_keys(redis_server)) == 1
        assert client.get("/readyz").get_json() == {"status": "ok", "cache": "redis",
                                                    "version": client.get("/healthz").get_json()["version"]}

    def test_key_order_and_whitespace_do_not_matter(self, redis_server):
        _, client = make_client(redis_server.url)
        body = apply_body()
        first, _ = post(client, APPLY, body)
        assert first.headers["X-Cache"] == "miss"
        shuffled = reorder(body)
        assert list(shuffled) != list(body) and list(shuffled["state"]) != list(body["state"])
        second, _ = post(client, APPLY, shuffled)
        assert (second.status_code, second.headers["X-Cache"]) == (200, "hit")
        spaced = client.post(APPLY, data=orjson.dumps(body, option=orjson.OPT_INDENT_2),
                             content_type="application/json")
        assert spaced.headers["X-Cache"] == "hit"
        assert second.get_json() == spaced.get_json() == first.get_json()
        assert len(our_keys(redis_server)) == 1

    def test_different_requests_and_endpoints_do_not_share_keys(self, redis_server):
        _, client = make_client(redis_server.url)
        body = apply_body()
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
        assert post(client, REPLAY, body)[0].headers["X-Cache"] == "miss"
        assert post(client, APPLY, apply_body(seed=8))[0].headers["X-Cache"] == "miss"
        replay, _ = post(client, REPLAY, body)
        assert replay.headers["X-Cache"] == "hit" and "states" in replay.get_json()
        assert len(our_keys(redis_server)) == 3

    def test_answers_over_the_size_limit_are_not_stored(self, redis_server):
        _, client = make_client(redis_server.url, CACHE_MAX_VALUE_BYTES=100)
        body = apply_body()
        first, _ = post(client, APPLY, body)
        second, _ = post(client, APPLY, body)
        assert first.status_code == second.status_code == 200 and len(first.data) > 100
        assert second.headers["X-Cache"] != "hit" and second.get_json() == first.get_json()
        assert our_keys(redis_server) == []

    def test_error_answers_are_not_stored(self, redis_server):
        _, client = make_client(redis_server.url)
        bad = {"state": state(), "moves": [{"type": "no-such-step"}]}
        for _ in range(2):
            response, _ = post(client, APPLY, bad)
            assert response.status_code == 400
            assert response.headers.get("X-Cache") != "hit"
        assert our_keys(redis_server) == []

    def test_ttl_expires_the_key(self, redis_server):
        # A minute's TTL, then cut to a millisecond as if the minute had passed (Redis's clock cannot be moved): a
        # TTL of a second would expire between two requests on a slow enough machine.
        _, client = make_client(redis_server.url, CACHE_TTL_SECONDS=60)
        body = apply_body()
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
        (key,) = our_keys(redis_server)
        raw = redis_server.client()
        assert raw.pttl(key) is not None and 0 < raw.pttl(key) <= 60_000
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"
        raw.pexpire(key, 1)
        deadline = time.monotonic() + 10
        while raw.exists(key) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not raw.exists(key), "the key outlived its TTL"
        again, _ = post(client, APPLY, body)
        assert (again.status_code, again.headers["X-Cache"]) == (200, "miss")
        assert again.get_json() == expected_answer(APPLY, body)

    def test_rules_version_bump_gives_a_new_key(self, redis_server, monkeypatch):
        _, client = make_client(redis_server.url)
        body = apply_body()
        game = GAMES["torri"]
        old_version = game.info.rules_version
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"
        monkeypatch.setattr(game, "info", dataclasses.replace(game.info, rules_version=old_version + "-bumped"))
        bumped, _ = post(client, APPLY, body)
        assert (bumped.status_code, bumped.headers["X-Cache"]) == (200, "miss")
        keys = our_keys(redis_server)
        assert len(keys) == 2
        assert any(f":{old_version}-bumped:".encode() in key for key in keys)
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"

    @pytest.mark.parametrize("junk", [b"not ours at all", b"", b"\x00\xff\xfe binary", b'{"legal": false}',
                                      VALUE_MAGIC[:-1]])
    def test_foreign_string_value_is_ignored_and_recomputed(self, redis_server, junk):
        _, client = make_client(redis_server.url)
        body = apply_body()
        post(client, APPLY, body)
        (key,) = our_keys(redis_server)
        raw = redis_server.client()
        raw.set(key, junk)
        response, _ = post(client, APPLY, body)
        assert response.status_code == 200
        assert response.headers["X-Cache"] != "hit"
        assert response.get_json() == expected_answer(APPLY, body)
        assert raw.get(key).startswith(VALUE_MAGIC), "the recomputed answer replaces the foreign value"
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"
        assert client.get("/readyz").get_json()["status"] == "ok"

    def test_corrupt_payload_behind_our_prefix_is_not_served(self, redis_server):
        _, client = make_client(redis_server.url)
        body = apply_body()
        post(client, APPLY, body)
        (key,) = our_keys(redis_server)
        raw = redis_server.client()
        raw.set(key, raw.get(key)[:40])  # truncated, our prefix intact
        response, _ = post(client, APPLY, body)
        assert response.status_code == 200
        assert json_or_none(response) == expected_answer(APPLY, body), f"served {response.data[:60]!r}"
    def test_foreign_value_of_another_type_is_ignored(self, redis_server, cache_log):
        _, client = make_client(redis_server.url)
        body = apply_body()
        post(client, APPLY, body)
        (key,) = our_keys(redis_server)
        raw = redis_server.client()
        raw.delete(key)
        raw.rpush(key, b"junk")
        response, _ = post(client, APPLY, body)
        assert response.status_code == 200  # this part holds
        assert response.get_json() == expected_answer(APPLY, body)
        # what must also hold: the rest of the cache keeps working and readiness is not degraded
        other = apply_body(seed=8)
        assert post(client, APPLY, other)[0].headers["X-Cache"] == "miss"
        assert post(client, APPLY, other)[0].headers["X-Cache"] == "hit"
        assert client.get("/readyz").get_json()["status"] == "ok"
        assert warnings_of(cache_log) == []

    def test_ttl_zero_is_not_an_outage(self, redis_server, cache_log):
        _, client = make_client(redis_server.url, CACHE_TTL_SECONDS=0)
        body = apply_body()
        for _ in range(2):
            response, _ = post(client, APPLY, body)
            assert response.status_code == 200
            assert response.get_json() == expected_answer(APPLY, body)
        assert client.get("/readyz").get_json()["status"] == "ok"
        assert warnings_of(cache_log) == []

    def test_password_url(self, redis_factory, all_log):
        secret = "s3cret-Pa55"
        server = redis_factory(password=secret)
        assert server.url == f"redis://:{secret}@127.0.0.1:{server.port}/0"
        with pytest.raises(redis.exceptions.AuthenticationError):
            server.client(password=None).get("x")  # it really needs one
        _, client = make_client(server.url)
        body = apply_body()
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"
        assert len(our_keys(server)) == 1
        assert client.get("/readyz").get_json()["cache"] == "redis"
        assert secret not in rendered(all_log)

    def test_wrong_password_degrades_without_leaking_it(self, redis_factory, all_log, cache_log):
        server = redis_factory(password="the-right-one")
        wrong = "Wr0ng-s3cret"
        _, client = make_client(f"redis://:{wrong}@127.0.0.1:{server.port}/0")
        body = apply_body()
        for _ in range(3):
            response, seconds = post(client, APPLY, body)
            assert response.status_code == 200 and seconds < FAST
            assert response.get_json() == expected_answer(APPLY, body)
        assert client.get("/readyz").get_json()["status"] == "degraded"
        assert len(warnings_of(cache_log)) == 1
        text = rendered(all_log)
        assert wrong not in text and "the-right-one" not in text
        assert f"127.0.0.1:{server.port}" not in rendered(cache_log.records)


# ---------------------------------------------------------------------------------------------------------------
# TLS (rediss://)


def _self_signed(tmp_path):
    openssl = shutil.which("openssl")
    if not openssl:
        pytest.skip("openssl is not installed: cannot make a certificate for the TLS test")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return key, cert


def test_rediss_url_with_password_is_parsed():
    store = RedisCache("rediss://:p%40ss@cache.example:6380/2?ssl_cert_reqs=none")
    client = store._connection()
    kwargs = client.connection_pool.connection_kwargs
    assert client.connection_pool.connection_class is redis.connection.SSLConnection
    assert (kwargs["host"], kwargs["port"], kwargs["db"], kwargs["password"]) == ("cache.example", 6380, 2, "p@ss")
    assert kwargs["socket_timeout"] == 0.1 and kwargs["socket_connect_timeout"] == 0.1


def test_rediss_end_to_end(redis_factory, free_port, tmp_path, all_log):
    key, cert = _self_signed(tmp_path)
    tls_port = free_port()
    server = redis_factory(password="tls-s3cret", extra_args=(
        "--tls-port", str(tls_port), "--tls-cert-file", str(cert), "--tls-key-file", str(key),
        "--tls-ca-cert-file", str(cert), "--tls-auth-clients", "no"))
    url = f"rediss://:tls-s3cret@127.0.0.1:{tls_port}/0?ssl_ca_certs={cert}"
    _, client = make_client(url)
    body = apply_body()
    assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
    hit, _ = post(client, APPLY, body)
    assert (hit.status_code, hit.headers["X-Cache"]) == (200, "hit")
    assert hit.get_json() == expected_answer(APPLY, body)
    assert len(our_keys(server)) == 1  # written through the TLS port, read back on the plain one
    assert client.get("/readyz").get_json()["cache"] == "redis"
    assert "tls-s3cret" not in rendered(all_log)


# ---------------------------------------------------------------------------------------------------------------
# Redis down, hung, and back


def test_redis_killed_mid_run_then_restarted(redis_factory, cache_log, all_log):
    secret = "outage-s3cret"
    server = redis_factory(password=secret)
    app, client = make_client(server.url)
    body, replay_body = apply_body(), apply_body(seed=9)
    want, want_replay = expected_answer(APPLY, body), expected_answer(REPLAY, replay_body)
    assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
    assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"

    server.stop()
    slowest = 0.0
    outcomes = set()
    started = time.monotonic()
    while time.monotonic() - started < 1.6:  # long enough to pass the first back-off and fail again
        for path, request_body, answer in ((APPLY, body, want), (REPLAY, replay_body, want_replay)):
            response, seconds = post(client, path, request_body)
            slowest = max(slowest, seconds)
            assert response.status_code == 200
            assert response.get_json() == answer
            outcomes.add(response.headers["X-Cache"])
        ready_started = time.perf_counter()
        ready = client.get("/readyz")
        slowest = max(slowest, time.perf_counter() - ready_started)
        assert ready.status_code == 200
        assert ready.get_json()["status"] == "degraded" and ready.get_json()["cache"] == "degraded"
        time.sleep(0.1)
    assert outcomes <= {"miss", "bypass"}
    assert slowest < FAST, f"a request took {slowest:.3f}s while Redis was down"

    faults = warnings_of(cache_log)
    assert len(faults) == 1, [r.getMessage() for r in faults]
    text = rendered(all_log)
    assert secret not in text and server.url not in text

    server.start()  # same port, empty
    deadline = time.monotonic() + 8  # the back-off has grown to at most 4 s by now
    seen = []
    while time.monotonic() < deadline:
        response, seconds = post(client, APPLY, body)
        assert response.status_code == 200 and seconds < FAST
        seen.append(response.headers["X-Cache"])
        if seen[-1] == "hit":
            break
        time.sleep(0.1)
    assert seen[-1] == "hit", f"hits did not resume after the restart: {seen}"
    assert client.get("/readyz").get_json() == {"status": "ok", "cache": "redis",
                                                "version": client.get("/healthz").get_json()["version"]}
    assert any(r.name == "service.cache" and "reachable again" in r.getMessage() for r in cache_log.records)
    assert len(warnings_of(cache_log)) == 1
    assert secret not in rendered(all_log)


def test_redis_hung_requests_stay_fast(redis_server, cache_log):
    """SIGSTOP: connections are accepted by the kernel but nothing answers, so only the timeouts bound a call."""
    _, client = make_client(redis_server.url)
    body = apply_body()
    want = expected_answer(APPLY, body)
    assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
    redis_server.pause()
    try:
        timings = []
        started = time.monotonic()
        while time.monotonic() - started < 1.5:
            response, seconds = post(client, APPLY, body)
            timings.append(seconds)
            assert response.status_code == 200 and response.get_json() == want
            assert response.headers["X-Cache"] in ("miss", "bypass")
            ready_started = time.perf_counter()
            assert client.get("/readyz").get_json()["status"] == "degraded"
            timings.append(time.perf_counter() - ready_started)
            time.sleep(0.1)
        assert max(timings) < FAST, f"slowest request {max(timings):.3f}s"
        assert len(warnings_of(cache_log)) == 1
    finally:
        redis_server.resume()


def test_redis_killed_with_rate_limiting_on(redis_server):
    """The rate limiter shares REDIS_URL: a dead Redis must not fail or slow requests through it either."""
    _, client = make_client(redis_server.url, RATE_LIMIT="1000 per minute")
    body = apply_body()
    assert post(client, APPLY, body)[0].status_code == 200
    redis_server.stop()
    for _ in range(5):
        response, seconds = post(client, APPLY, body)
        assert response.status_code == 200 and seconds < FAST
        assert response.get_json() == expected_answer(APPLY, body)


def test_redis_hung_with_rate_limiting_on(redis_server):
    _, client = make_client(redis_server.url, RATE_LIMIT="1000 per minute")
    body = apply_body()
    assert post(client, APPLY, body)[0].status_code == 200
    results: list = []

    def request_once():
        results.append(post(client, APPLY, body))

    redis_server.pause()
    worker = threading.Thread(target=request_once, daemon=True)
    try:
        worker.start()
        worker.join(FAST + 0.5)
        blocked = worker.is_alive()
    finally:
        redis_server.resume()
        worker.join(10)
    assert not blocked, "the request was still blocked on Redis"
    response, seconds = results[0]
    assert response.status_code == 200 and seconds < FAST


# ---------------------------------------------------------------------------------------------------------------
# Cluster


def test_cluster_end_to_end(redis_cluster, cache_log):
    _, client = make_client(redis_cluster.url, REDIS_CLUSTER="true")
    bodies = [apply_body(seed) for seed in range(12)]
    for body in bodies:
        assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
    for body in bodies:
        response, _ = post(client, APPLY, body)
        assert (response.status_code, response.headers["X-Cache"]) == (200, "hit")
    assert post(client, APPLY, reorder(bodies[0]))[0].headers["X-Cache"] == "hit"
    assert client.get("/readyz").get_json()["cache"] == "redis"
    per_node = [len(our_keys(server)) for server in redis_cluster.servers]
    assert sum(per_node) == len(bodies)
    assert sum(1 for n in per_node if n) >= 2, f"keys did not spread over the cluster: {per_node}"

    redis_cluster.servers[1].stop()  # a master (and its slots) gone
    for body in bodies:
        response, seconds = post(client, APPLY, body)
        assert response.status_code == 200 and seconds < FAST
        assert response.get_json() == expected_answer(APPLY, body)
    assert client.get("/readyz").get_json()["status"] == "degraded"
    assert len(warnings_of(cache_log)) == 1


def test_cluster_node_hung_requests_stay_fast(redis_cluster, cache_log):
    _, client = make_client(redis_cluster.url, REDIS_CLUSTER="true")
    bodies = [apply_body(seed) for seed in range(6)]
    for body in bodies:
        post(client, APPLY, body)
    redis_cluster.servers[1].pause()
    try:
        slowest = 0.0
        started = time.monotonic()
        while time.monotonic() - started < 1.5:
            for body in bodies:
                response, seconds = post(client, APPLY, body)
                slowest = max(slowest, seconds)
                assert response.status_code == 200
                assert response.get_json() == expected_answer(APPLY, body)
            time.sleep(0.1)
        assert slowest < FAST, f"slowest request {slowest:.3f}s"
        assert client.get("/readyz").get_json()["status"] == "degraded"
        assert len(warnings_of(cache_log)) == 1
    finally:
        redis_cluster.servers[1].resume()


class FakeCluster:
    """Stands in for redis.cluster.RedisCluster: a dict, and a switch to fail like a lost cluster."""

    instances: list["FakeCluster"] = []
    all_down = False
    PRIMARIES = "primaries"

    def __init__(self, url: str, **options) -> None:
        self.url, self.options = url, options
        self.data: dict[str, bytes] = {}
        self.down = False
        FakeCluster.instances.append(self)

    def _check(self) -> None:
        if self.down or FakeCluster.all_down:
            raise redis.exceptions.ClusterDownError("CLUSTERDOWN The cluster is down")

    def get(self, key):
        self._check()
        return self.data.get(key)

    def set(self, key, value, ex=None):
        self._check()
        self.data[key] = value
        self.ex = ex
        return True

    def ping(self, target_nodes=None):
        self._check()
        self.pinged = target_nodes
        return True


def patch_cluster(monkeypatch) -> None:
    import redis.cluster

    FakeCluster.instances = []
    FakeCluster.all_down = False
    monkeypatch.setattr(redis.cluster.RedisCluster, "from_url",
                        classmethod(lambda cls, url, **options: FakeCluster(url, **options)))


def test_cluster_mode_against_a_fake(monkeypatch, cache_log, cache_clock):
    patch_cluster(monkeypatch)
    url = "redis://:cl-s3cret@node-1.cache:7000/0"
    store = make_cache(url, ttl_seconds=50, max_entries=1, cluster=True)
    assert isinstance(store, RedisCache) and store.cluster
    assert store.get("k") == (None, MISS)
    assert store.set("k", b"v") == "ok"
    assert store.get("k") == (b"v", HIT)
    (fake,) = FakeCluster.instances
    assert fake.url == url and fake.data["k"] == seal(b"v") and fake.ex == 50
    assert fake.options["socket_timeout"] == 0.1 and fake.options["socket_connect_timeout"] == 0.1
    assert store.status() == "redis"

    # a cluster fault drops the client (the topology may have changed); after the back-off a new one is made
    store.backoff = store._current_backoff = 0.2
    FakeCluster.all_down = True
    assert store.get("k") == (None, ERROR)
    assert store.get("k") == (None, BYPASS)
    assert store.status() == "degraded"
    FakeCluster.all_down = False
    cache_clock[0] += 0.25
    assert store.get("k") == (None, MISS)  # a new client (the fake's data lived in the old one)
    assert len(FakeCluster.instances) == 2
    assert store.status() == "redis"
    assert len(warnings_of(cache_log)) == 1
    assert "cl-s3cret" not in rendered(cache_log.records)


def test_cluster_flag_reaches_the_cache_through_the_api(monkeypatch):
    patch_cluster(monkeypatch)
    app, client = make_client("redis://node-1.cache:7000/0", REDIS_CLUSTER="true")
    assert app.extensions["answer_cache"].store.cluster is True
    body = apply_body()
    assert post(client, APPLY, body)[0].headers["X-Cache"] == "miss"
    assert post(client, APPLY, body)[0].headers["X-Cache"] == "hit"
    assert len(FakeCluster.instances[0].data) == 1
