"""The answer cache as one Flask extension (`init_app`, as flaskr sets up each concern): the store (Redis, or the
in-process LRU bounded in bytes; service/cache.py), the game questions it keeps answers of, and its metrics. The
front (front.py) looks answers up and offers computed ones.

Answers are keyed by (endpoint, game, rules version, canonical request). Only 200 answers are stored (and not one
its route marks unstorable, `Cache-Control: no-store`), so a hit is always for a valid request; the `X-Cache`
header says `hit`, `miss` (computed, offered to the store) or `bypass`.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from flask import Flask

from ..cache import Cache, make_cache
from .config import Settings
from .front import Answer, CachedRoute

EXTENSION = "answer_cache"


class AnswerCache:
    """One app's answer cache: `init_app(app, settings, metrics)`, then `route(...)` for each game question."""

    def __init__(self) -> None:
        self.routes: dict[str, CachedRoute] = {}  # path -> route, for the front
        self.store: Cache | None = None
        self.settings: Settings | None = None
        self.metrics: Any = None  # the app's Metrics (observability.py)

    def init_app(self, app: Flask, settings: Settings, metrics: Any) -> None:
        self.settings, self.metrics = settings, metrics
        self.store = make_cache(settings.REDIS_URL, ttl_seconds=settings.CACHE_TTL_SECONDS,
                                max_entries=settings.CACHE_MAX_ENTRIES, cluster=settings.REDIS_CLUSTER,
                                max_bytes=settings.CACHE_MAX_BYTES, max_value_bytes=settings.CACHE_MAX_VALUE_BYTES)
        app.extensions[EXTENSION] = self

    def call(self, operation: str, key: str, value: bytes | None = None) -> tuple[Any, str]:
        """A get or set on the store, timed and counted: (value found, outcome)."""
        store = self.store
        assert store is not None, "init_app first"
        started = time.perf_counter()
        if operation == "get":
            found, result = store.get(key)
        else:
            found, result = None, store.set(key, value)  # type: ignore[arg-type]
        metrics = self.metrics
        metrics.child(metrics.cache_seconds, store.kind, operation).observe(time.perf_counter() - started)
        metrics.child(metrics.cache_requests, store.kind, operation, result).inc()
        return found, result

    def route(self, path: str, game: Any, endpoint: str, answer: Answer,
              deterministic: Callable[[dict], bool] = lambda doc: True,
              speaks: Callable[[dict], bool] = lambda doc: False) -> None:
        """A game question whose answers the front looks up and keeps: `answer(body, language)` computes one;
        `deterministic(body)` False: the answer is computed and not kept (a deal without a seed); `speaks(body)`:
        its answer has words for people, said and kept per language."""
        self.routes[path] = CachedRoute(game, endpoint, path, deterministic, answer, speaks)

    def offer(self, key: str, answer: bytes, elapsed_ms: float) -> str:
        """A computed 200 answer offered to the store: kept ("miss") unless it was quicker to compute than
        CACHE_MIN_COMPUTE_MS ("bypass")."""
        assert self.settings is not None, "init_app first"
        if elapsed_ms < self.settings.CACHE_MIN_COMPUTE_MS:
            return "bypass"
        self.call("set", key, answer)
        return "miss"

    def count_hit(self, game: str, endpoint: str) -> None:
        """An answer served from the cache, in the adjudication metric (outcome `cached`)."""
        self.metrics.count(game, endpoint, "cached")
