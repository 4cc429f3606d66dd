"""Configuration from the environment (12-factor); every setting has a default that works on a laptop."""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any, Mapping


def _int(value: str | int, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None


# For a client that alone sends more than any real one (the test suite, a benchmark, the contract corpus): the
# deployed limiter still counts every request, the same code at the same cost, and never refuses it.
HEAVY_CLIENT_RATE_LIMIT = "100000000 per minute"


@dataclass(frozen=True)
class Settings:
    REDIS_URL: str | None = None  # unset: the in-process cache
    REDIS_CLUSTER: bool = False  # REDIS_URL names a Redis Cluster node
    CACHE_TTL_SECONDS: int = 3600
    CACHE_MAX_ENTRIES: int = 2048  # the in-process cache's bound in answers
    CACHE_MAX_BYTES: int = 16 * 1024 * 1024  # ... and in bytes (per worker: full within a few thousand requests)
    CACHE_MAX_VALUE_BYTES: int = 1024 * 1024  # a larger answer is not cached (in process or in Redis)
    CACHE_MIN_COMPUTE_MS: float = 0.0  # answers cheaper than this are not worth a Redis round trip
    MAX_BODY_BYTES: int = 256 * 1024
    RATE_LIMIT: str = "1200 per minute"  # per client address, over the whole API; "" turns it off
    # where the rate-limit counters live: "" the Redis of REDIS_URL if there is one (shared by every worker and
    # replica), else this host's shared memory (every worker of this server); "memory://" each worker alone; or
    # any storage URI of the `limits` library (redis://, redis+cluster://, memcached://, ...)
    RATE_LIMIT_STORAGE: str = ""
    FORWARDED_PROXIES: int = 0  # proxies in front whose X-Forwarded-For names the client (0: the peer does)
    CORS_ORIGINS: tuple[str, ...] = ("*",)
    SUGGEST_DEFAULT_BUDGET_MS: int = 300  # a /suggest without a budget searches this long
    SUGGEST_MAX_BUDGET_MS: int = 1000  # no /suggest searches longer, whatever its budget (a worker is never held)
    SUGGEST_RATE_COST: int = 10  # a /suggest counts as this many requests against RATE_LIMIT
    ENGINE_MEMO_REQUESTS: int = 1000  # a worker empties the engines' memos every so many requests (0: never)
    LOG_LEVEL: str = "INFO"
    PROMETHEUS_MULTIPROC_DIR: str | None = None

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> "Settings":
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for item in fields(cls):
            raw = (overrides or {}).get(item.name, environ.get(item.name))
            if raw is None or (raw == "" and item.name != "RATE_LIMIT"):
                continue
            values[item.name] = _convert(item.name, raw)
        return cls(**values)


def _convert(name: str, raw: Any) -> Any:
    if name in ("CACHE_TTL_SECONDS", "CACHE_MAX_ENTRIES", "CACHE_MAX_BYTES", "CACHE_MAX_VALUE_BYTES",
                "MAX_BODY_BYTES", "SUGGEST_DEFAULT_BUDGET_MS", "SUGGEST_MAX_BUDGET_MS", "SUGGEST_RATE_COST",
                "ENGINE_MEMO_REQUESTS", "FORWARDED_PROXIES"):
        value = _int(raw, name)
        if value < 0:
            raise ValueError(f"{name} must not be negative")
        return value
    if name == "CACHE_MIN_COMPUTE_MS":
        return float(raw)
    if name == "REDIS_CLUSTER":
        return raw if isinstance(raw, bool) else str(raw).strip().lower() in ("1", "true", "yes", "on")
    if name == "CORS_ORIGINS":
        items = raw if isinstance(raw, (list, tuple)) else str(raw).split(",")
        return tuple(item.strip() for item in items if item.strip())
    if name == "LOG_LEVEL":
        return str(raw).upper()
    return raw
