"""The one cache seam: answers keyed by (endpoint, game, rules version, canonical request).

Two stores behind one interface: an in-process LRU (the embedded default, bounded in entries and bytes) and Redis
(one server or a Cluster). Redis is an optimisation, never a dependency: a fault is logged once, counted, and Redis
is skipped for a back-off while answers are computed; a value that is not ours is ignored and recomputed.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
import zlib
from collections import OrderedDict
from typing import Protocol

log = logging.getLogger("service.cache")

KEY_PREFIX = "tr:v3"  # bump when the stored value's format changes
VALUE_MAGIC = b"TR2\n"  # every value we store starts with this and a CRC-32 of the answer; anything else under
CHECKSUM_BYTES = 4  # our key (foreign, truncated, corrupted) is ignored and recomputed

HIT, MISS, BYPASS, ERROR, CORRUPT = "hit", "miss", "bypass", "error", "corrupt"


def cache_key(endpoint: str, game: str, rules_version: str, canonical_request: bytes,
              language: str | None = None) -> str:
    """The key of an answer: its endpoint, game, rules version and request, and for an answer with words the
    language it is said in (one of the few the service speaks: never the raw Accept-Language header)."""
    digest = hashlib.sha256(canonical_request).hexdigest()
    if language is None:
        return f"{KEY_PREFIX}:{game}:{rules_version}:{endpoint}:{digest}"
    return f"{KEY_PREFIX}:{game}:{rules_version}:{endpoint}:{language}:{digest}"


def seal(answer: bytes) -> bytes:
    """The stored form of an answer: magic, CRC-32, answer."""
    return VALUE_MAGIC + zlib.crc32(answer).to_bytes(CHECKSUM_BYTES, "big") + answer


def unseal(value: object) -> bytes | None:
    """The answer inside a stored value, or None if the value is not one of ours, whole and intact."""
    head = len(VALUE_MAGIC) + CHECKSUM_BYTES
    if not isinstance(value, bytes) or len(value) < head or not value.startswith(VALUE_MAGIC):
        return None
    answer = value[head:]
    if zlib.crc32(answer).to_bytes(CHECKSUM_BYTES, "big") != value[len(VALUE_MAGIC):head]:
        return None
    return answer


class Cache(Protocol):
    kind: str

    def get(self, key: str) -> tuple[bytes | None, str]:
        """(value, outcome): outcome is hit, miss, bypass (store skipped), error or corrupt."""

    def set(self, key: str, value: bytes) -> str:
        """Outcome: ok, bypass or error."""

    def status(self) -> str:
        """memory, redis, or degraded."""


def entry_cost(key: str, value: bytes) -> int:
    """What one stored answer costs a worker, near enough: the answer, the key and the bookkeeping around them
    (the bytes and str objects, the LRU's link and its tuple)."""
    return len(value) + len(key) + 200


class MemoryCache:
    """A bounded LRU with expiry, shared by the threads of one worker process.

    Bounded twice: by entries and by bytes (what the answers and keys cost, `entry_cost`), so a stream of distinct
    large answers levels a worker's memory off instead of growing it; an answer over `max_value_bytes` is not kept
    at all (recomputing it costs less than the room it would take from a hundred small ones)."""

    kind = "memory"

    def __init__(self, max_entries: int = 2048, ttl_seconds: int = 3600, *, max_bytes: int = 16 * 1024 * 1024,
                 max_value_bytes: int = 1024 * 1024) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.max_value_bytes = max_value_bytes
        self.ttl = ttl_seconds
        self._entries: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def size_bytes(self) -> int:
        """What the stored answers cost now (`entry_cost` summed)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> tuple[bytes | None, str]:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None, MISS
            expires, value = entry
            if expires < time.monotonic():
                self._drop(key)
                return None, MISS
            self._entries.move_to_end(key)
            return value, HIT

    def set(self, key: str, value: bytes) -> str:
        if not self.max_entries or self.ttl <= 0:  # a zero TTL or size means: keep nothing
            return BYPASS
        cost = entry_cost(key, value)
        if len(value) > self.max_value_bytes or cost > self.max_bytes:
            return BYPASS
        # Keep a copy of exactly the answer's length: orjson (3.12 on) returns its whole write buffer, rounded up to
        # a power of two, so the answer it made may hold 4 to 16 times its length; kept as is, the cache would cost
        # a worker several times what `entry_cost` counts against max_bytes.
        value = bytes(memoryview(value))
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = (time.monotonic() + self.ttl, value)
            self._bytes += cost
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                self._drop(next(iter(self._entries)))
        return "ok"

    def _drop(self, key: str) -> None:
        _, value = self._entries.pop(key)
        self._bytes -= entry_cost(key, value)

    def status(self) -> str:
        return "memory"

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


class RedisCache:
    """Redis with short timeouts; after a fault it is skipped for a back-off that grows while faults last."""

    kind = "redis"

    def __init__(self, url: str, ttl_seconds: int = 3600, *, cluster: bool = False,
                 connect_timeout: float = 0.1, read_timeout: float = 0.1,
                 backoff_seconds: float = 1.0, max_backoff_seconds: float = 30.0,
                 max_value_bytes: int = 1024 * 1024) -> None:
        self.url = url
        self.ttl = ttl_seconds
        self.max_value_bytes = max_value_bytes  # larger answers are not sent: a round trip of megabytes, and room
        self.cluster = cluster
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.backoff = backoff_seconds
        self.max_backoff = max_backoff_seconds
        self._client = None
        self._pid = 0
        self._skip_until = 0.0
        self._current_backoff = backoff_seconds
        self._failing = False
        self._lock = threading.Lock()

    def _connection(self):
        # A pool per process, made after gunicorn forks: sockets must never be shared across workers.
        pid = os.getpid()
        if self._client is None or self._pid != pid:
            with self._lock:
                if self._client is None or self._pid != pid:
                    self._client = self._make_client()
                    self._pid = pid
        return self._client

    def _make_client(self):
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        options = dict(socket_connect_timeout=self.connect_timeout, socket_timeout=self.read_timeout,
                       retry=Retry(NoBackoff(), 1), health_check_interval=30)
        if self.cluster:
            from redis.cluster import RedisCluster

            return RedisCluster.from_url(self.url, **options)
        from redis import Redis

        return Redis.from_url(self.url, **options)

    def _available(self) -> bool:
        return time.monotonic() >= self._skip_until

    def _fault(self, error: Exception) -> None:
        with self._lock:
            if not self._failing:
                # once per outage: the URL may carry a password, so it is never logged
                log.warning("redis cache unavailable, answering from computation: %s", type(error).__name__)
            self._failing = True
            self._skip_until = time.monotonic() + self._current_backoff
            self._current_backoff = min(self._current_backoff * 2, self.max_backoff)
            if self.cluster:
                self._client = None  # the topology may have changed

    def _ping_all(self) -> None:
        """PING; on a cluster every primary, since one node answering says nothing of the others."""
        if self.cluster:
            from redis.cluster import RedisCluster

            self._connection().ping(target_nodes=RedisCluster.PRIMARIES)
        else:
            self._connection().ping()

    def _recovered(self, verified: bool = False) -> None:
        if self._failing:
            if self.cluster and not verified:
                # A key on a healthy node is no sign that the node that failed is back: ask them all, once per
                # back-off window (a failure here only extends the outage, so it is not logged again).
                try:
                    self._ping_all()
                except Exception as error:  # noqa: BLE001
                    self._fault(error)
                    return
            with self._lock:
                if self._failing:
                    log.info("redis cache reachable again")
                self._failing = False
                self._current_backoff = self.backoff

    def get(self, key: str) -> tuple[bytes | None, str]:
        if not self._available():
            return None, BYPASS
        from redis.exceptions import ResponseError

        try:
            value = self._connection().get(key)
        except ResponseError as error:
            if not str(error).startswith("WRONGTYPE"):  # e.g. CLUSTERDOWN: an outage like any other
                self._fault(error)
                return None, ERROR
            # A foreign value of another type under this key only; our SET will replace it.
            self._recovered()
            return None, CORRUPT
        except Exception as error:  # noqa: BLE001 - any client fault means: compute instead
            self._fault(error)
            return None, ERROR
        self._recovered()
        if value is None:
            return None, MISS
        answer = unseal(value)
        if answer is None:
            return None, CORRUPT
        return answer, HIT

    def set(self, key: str, value: bytes) -> str:
        if self.ttl <= 0 or len(value) > self.max_value_bytes or not self._available():
            return BYPASS
        try:
            self._connection().set(key, seal(value), ex=self.ttl)
        except Exception as error:  # noqa: BLE001
            self._fault(error)
            return ERROR
        self._recovered()
        return "ok"

    def ping(self) -> bool:
        try:
            self._ping_all()
        except Exception as error:  # noqa: BLE001
            self._fault(error)
            return False
        self._recovered(verified=True)
        return True

    def status(self) -> str:
        if self._failing and not self._available():
            return "degraded"
        return "redis" if self.ping() else "degraded"


def make_cache(redis_url: str | None, *, ttl_seconds: int, max_entries: int, cluster: bool = False,
               max_bytes: int = 16 * 1024 * 1024, max_value_bytes: int = 1024 * 1024) -> Cache:
    if redis_url:
        return RedisCache(redis_url, ttl_seconds, cluster=cluster, max_value_bytes=max_value_bytes)
    return MemoryCache(max_entries, ttl_seconds, max_bytes=max_bytes, max_value_bytes=max_value_bytes)
