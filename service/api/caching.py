"""The answer cache as one Flask extension (`init_app`, as flaskr sets up each concern): the store (Redis, or the
in-process LRU bounded in bytes; service/cache.py), the `cached` decorator the game routes wear, its metrics, and
the early layer that answers well-formed questions, hits and computed, before Flask (early.py).

Answers are keyed by (endpoint, game, rules version, canonical request). Only 200 answers are stored (and not one
its view marks `Cache-Control: no-store`), so a hit is always for a valid request; the `X-Cache` header says `hit`,
`miss` (computed, offered to the store) or `bypass`.
"""
from __future__ import annotations

import functools
import time
from typing import Any, Callable

import orjson
from flask import Flask, Response, request

from ..cache import HIT, Cache, cache_key, make_cache
from .config import Settings
from .early import LOOKUP_KEY, Answer, CachedRoute, EarlyAnswers
from .jsonio import canonical, request_document

EXTENSION = "answer_cache"


class AnswerCache:
    """One app's answer cache: `init_app(app, settings, metrics)`, then `cached(...)` on each cached route, then
    `answer_early(app)` once every route is registered."""

    def __init__(self) -> None:
        self.routes: dict[str, CachedRoute] = {}  # path -> route, for the early layer
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

    def cached(self, path: str, game: Any, endpoint: str,
               deterministic: Callable[[dict], bool] = lambda doc: True, answer: Answer | None = None) -> Callable:
        """Serve a POST answer from the cache when the same canonical request was answered before.

        The key is computed from the raw body, before schema validation, so a hit costs one parse and one look-up.
        Usually the early layer has answered hits and well-formed questions already (with `answer`, the route's
        answer to a body) and hands over its look-up of a miss. `deterministic(doc)` False: the answer is computed
        and not stored (a deal without a seed)."""
        self.routes[path] = CachedRoute(game, endpoint, deterministic, answer)
        game_id, rules_version = game.info.id, game.info.rules_version
        settings = self.settings
        assert settings is not None, "init_app first"

        def decorate(view: Callable) -> Callable:
            @functools.wraps(view)
            def wrapper(*args: Any, **kwargs: Any) -> Response:
                looked_up = request.environ.pop(LOOKUP_KEY, None)
                if looked_up is not None:
                    key, value, outcome = looked_up
                else:
                    try:
                        doc = request_document(request)
                    except orjson.JSONDecodeError:
                        return view(*args, **kwargs)  # the parser answers 400
                    if not isinstance(doc, dict) or not deterministic(doc):
                        response = view(*args, **kwargs)
                        response.headers["X-Cache"] = "bypass"
                        return response
                    key = cache_key(endpoint, game_id, rules_version, canonical(doc))
                    value, outcome = self.call("get", key)
                if outcome == HIT:
                    response = Response(value, mimetype="application/json")
                    response.headers["X-Cache"] = "hit"
                    self.count_hit(game_id, endpoint)
                    return response
                started = time.perf_counter()
                response = view(*args, **kwargs)
                elapsed_ms = (time.perf_counter() - started) * 1000
                storable = response.status_code == 200 and response.headers.get("Cache-Control") != "no-store"
                response.headers["X-Cache"] = self.offer(key, response.get_data(), elapsed_ms) if storable \
                    else "bypass"
                return response
            return wrapper
        return decorate

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

    def answer_early(self, app: Flask) -> None:
        """Answer well-formed questions before Flask, where the answer depends on the body alone (no rate limit to
        count, CORS open to every origin, as flask-cors answers it then). Called once every cached route is
        registered."""
        settings = self.settings
        assert settings is not None, "init_app first"
        if settings.EARLY_CACHE_HITS and not settings.RATE_LIMIT and settings.CORS_ORIGINS == ("*",):
            app.wsgi_app = EarlyAnswers(app.wsgi_app, self, settings.MAX_BODY_BYTES)  # type: ignore[method-assign]
