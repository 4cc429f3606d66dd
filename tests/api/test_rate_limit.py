"""The rate limit's counting (service/api/ratelimit.py): one budget per client across the workers of a server (the
host's shared memory, really shared by forked processes), the sliding window's arithmetic and its Retry-After, the
client named by a trusted proxy only, and more than one limit at once."""
from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.api.ratelimit import HostWindows, RateLimiter, storage_uri, windows_of

from .helpers import BASE


def _new(client, **kwargs):
    return client.post(f"{BASE}/new", json={"seed": 1}, **kwargs)


def test_workers_forked_from_one_app_share_its_budget(make_app):
    """gunicorn's preloaded app, forked into workers: what one worker counts, the other sees."""
    app = make_app(RATE_LIMIT="5 per minute")
    child = os.fork()
    if child == 0:  # a second worker: spends 3 of the 5
        try:
            codes = [_new(app.test_client()).status_code for _ in range(3)]
            os._exit(0 if codes == [200] * 3 else 1)
        except BaseException:  # noqa: BLE001 - whatever happens, the forked test process must not go on
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    client = app.test_client()
    assert [_new(client).status_code for _ in range(3)] == [200, 200, 429]


def test_a_worker_that_dies_holding_the_table_s_lock_stops_nobody():
    """gunicorn kills a stuck worker: had it held the lock, every other worker would wait for ever."""
    host = HostWindows(slots=64)
    windows = windows_of("2 per minute")
    child = os.fork()
    if child == 0:
        host.lock.acquire()
        os._exit(0)  # dies holding it
    os.waitpid(child, 0)
    assert [host.hit("a", windows, 1, 1000.0).allowed for _ in range(3)] == [True, True, False]
    assert host.lock.acquire(timeout=1)  # and the lock is whole again
    host.lock.release()


def test_memory_storage_counts_in_each_worker_alone(make_app):
    """`memory://`, an operator's choice: a forked worker's count is its own."""
    app = make_app(RATE_LIMIT="2 per minute", RATE_LIMIT_STORAGE="memory://")
    assert app.extensions["referee"].limiter.where == "memory"
    child = os.fork()
    if child == 0:
        try:
            os._exit(0 if [_new(app.test_client()).status_code for _ in range(2)] == [200, 200] else 1)
        except BaseException:  # noqa: BLE001
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert [_new(app.test_client()).status_code for _ in range(3)] == [200, 200, 429]


def test_the_limiter_counts_where_the_settings_say(make_app):
    assert make_app(RATE_LIMIT="").extensions["referee"].limiter is None
    assert make_app().extensions["referee"].limiter.where == "host"
    assert make_app(REDIS_URL="redis://127.0.0.1:1/0").extensions["referee"].limiter.where == "redis"


def test_a_rate_limit_that_says_nothing_stops_the_service_at_start(make_app):
    with pytest.raises(ValueError, match="RATE_LIMIT"):
        make_app(RATE_LIMIT="lots")
    with pytest.raises(ValueError, match="RATE_LIMIT_STORAGE"):
        make_app(RATE_LIMIT_STORAGE="carrier-pigeon://loft")


def test_a_redis_cluster_counts_in_the_cluster():
    settings = SimpleNamespace(RATE_LIMIT_STORAGE="", REDIS_URL="rediss://:pw@node-1.cache:7000/0", REDIS_CLUSTER=True)
    assert storage_uri(settings) == ("redis+cluster://:pw@node-1.cache:7000",
                                     {"socket_timeout": 0.1, "socket_connect_timeout": 0.1, "ssl": True})


def test_only_a_trusted_proxy_names_the_client(make_app):
    direct = make_app(RATE_LIMIT="2 per minute").test_client()
    spoofed = [_new(direct, headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code for i in range(3)]
    assert spoofed == [200, 200, 429]  # no proxy in front: the header is the client's word, not trusted
    behind = make_app(RATE_LIMIT="2 per minute", FORWARDED_PROXIES=1).test_client()
    for address in ("198.51.100.1", "198.51.100.2"):
        codes = [_new(behind, headers={"X-Forwarded-For": f"203.0.113.9, {address}"}).status_code
                 for _ in range(3)]
        assert codes == [200, 200, 429], address  # the proxy's word: its client, the last address it adds


def test_every_limit_of_several_is_kept():
    windows = windows_of("2 per second; 3 per minute")
    host = HostWindows(slots=64)
    allowed = [host.hit("a", windows, 1, 1000.0 + i * 0.6).allowed for i in range(5)]
    assert allowed == [True, True, True, False, False]  # the fourth passes 2 per second, not 3 per minute
    refused = host.hit("a", windows, 1, 1002.5)
    assert refused.text == "3 per 1 minute" and refused.limit == 3 and refused.retry_after > 0
    assert host.hit("a", windows, 1, 1002.6).allowed is False


def test_a_refused_request_is_not_counted():
    windows = windows_of("3 per minute")
    host = HostWindows(slots=64)
    for second in range(10):
        verdict = host.hit("a", windows, 1, 60_000.0 + second)
        assert verdict.allowed == (second < 3)
        assert verdict.remaining == max(0, 2 - second)


@given(times=st.lists(st.floats(min_value=0, max_value=400, allow_nan=False), min_size=1, max_size=40),
       amount=st.integers(min_value=1, max_value=6), cost=st.integers(min_value=1, max_value=3))
def test_retry_after_is_when_the_request_would_pass(times, amount, cost):
    """After a refusal, the same request Retry-After seconds later passes, and a second earlier it does not
    (nothing else sent meanwhile); and no period (each whole minute) admits more than the limit."""
    windows = windows_of(f"{amount} per minute")
    host = HostWindows(slots=64)
    start = 6_000_000.0
    admitted: list[float] = []
    for offset in sorted(times):
        now = start + offset
        verdict = host.hit("a", windows, cost, now)
        if verdict.allowed:
            admitted += [now] * cost
            continue
        if cost > amount:
            continue  # never fits
        probe = HostWindows(slots=64)
        probe.table[:] = host.table[:]  # the counts as they are, tried at two later times
        assert probe.hit("a", windows, cost, now + verdict.retry_after).allowed
        if verdict.retry_after > 1:
            probe.table[:] = host.table[:]
            # (a hundredth before: at a whole second the count may meet the bound exactly, within rounding)
            assert not probe.hit("a", windows, cost, now + verdict.retry_after - 1.01).allowed
    for minute in {int(t // 60) for t in admitted}:
        assert sum(1 for t in admitted if int(t // 60) == minute) <= amount


def test_the_table_stays_its_size_under_a_flood_of_clients():
    windows = windows_of("5 per minute")
    host = HostWindows(slots=256)
    size = len(host.table)
    for i in range(5000):
        assert host.hit(f"192.0.2.{i}", windows, 1, 1000.0).allowed
    assert len(host.table) == size
    for _ in range(5):
        host.hit("hot", windows, 1, 1001.0)
    assert not host.hit("hot", windows, 1, 1001.0).allowed


def test_a_storage_that_fails_costs_no_request(make_app):
    """A Redis nobody answers at: counted in the host's table, every request served, the storage tried again later
    (not at every request)."""
    app = make_app(RATE_LIMIT="3 per minute", REDIS_URL="redis://127.0.0.1:1/0")
    limiter: RateLimiter = app.extensions["referee"].limiter
    client = app.test_client()
    assert [_new(client).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert limiter._storage_down_until > 0
