"""Cache hits answered before Flask: a question asked before is answered from the cache by a thin WSGI layer.

A hit needs no game work, so what it costs is the web framework's request machinery (request and response
objects, routing, the hooks of each extension). This layer answers a hit with exactly the bytes and headers the
Flask path gives, and passes everything else on to Flask untouched, with the body and the cache look-up it
already did (so a miss is looked up once). A hit can only be for a valid request: only 200 answers are stored.

It stands aside when the answer would depend on more than the body: when a rate limit is set (every request must
be counted by the limiter) or when CORS is restricted to some origins (flask-cors decides per origin).
"""
from __future__ import annotations

import io
import logging
import time
import uuid
from typing import Any, Callable, Iterable

import orjson

from ..cache import HIT, cache_key
from .jsonio import BODY_KEY, canonical
from .observability import REQUEST_ID

LOOKUP_KEY = "referee.cache_lookup"  # environ: (key, value, outcome) of the look-up done here
JSON_TYPES = ("application/json",)

log = logging.getLogger("service.access")


class CachedRoute:
    """One cached POST endpoint: what the Flask path's `cached` decorator knows about it."""

    __slots__ = ("rules", "game", "endpoint", "deterministic")

    def __init__(self, rules: Any, endpoint: str, deterministic: Callable[[dict], bool]) -> None:
        self.rules, self.game, self.endpoint, self.deterministic = rules, rules.info.id, endpoint, deterministic


class EarlyHits:
    """WSGI middleware in front of the Flask app (see the module's doc)."""

    def __init__(self, wsgi_app: Callable, answers: Any, max_body: int | None) -> None:
        self.wsgi_app = wsgi_app
        self.answers = answers  # the app's AnswerCache (caching.py): its routes, store and metrics
        self.routes: dict[str, CachedRoute] = answers.routes
        self.max_body = max_body

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        route = self.routes.get(environ.get("PATH_INFO", ""))
        if route is None or environ.get("REQUEST_METHOD") != "POST":
            return self.wsgi_app(environ, start_response)
        answer = self._hit(environ, route)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        started, body = answer
        request_id = environ.get("HTTP_X_REQUEST_ID", "")
        if not REQUEST_ID.match(request_id):
            request_id = uuid.uuid4().hex
        origin = environ.get("HTTP_ORIGIN")
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("X-Cache", "hit"),
                   ("X-Content-Type-Options", "nosniff"), ("Access-Control-Allow-Origin", origin or "*"),
                   ("Access-Control-Expose-Headers", "X-Cache, X-Request-Id")]
        if origin:
            headers.append(("Vary", "Origin"))
        headers.append(("X-Request-Id", request_id))
        start_response("200 OK", headers)
        self.answers.count_hit(route.game, route.endpoint)
        if log.isEnabledFor(logging.INFO):
            path = environ["PATH_INFO"]
            log.info("POST %s 200", path, extra={
                "request_id": request_id, "method": "POST", "path": path, "status": 200, "game": route.game,
                "cache": "hit", "duration_ms": round((time.perf_counter() - started) * 1000, 3)})
        return [body]

    def _hit(self, environ: dict, route: CachedRoute) -> tuple[float, bytes] | None:
        """(start time, cached answer) for a hit; None to let Flask answer (the body is put back for it)."""
        started = time.perf_counter()
        content_type = environ.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
        if content_type not in JSON_TYPES or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        if length <= 0 or (self.max_body is not None and length > self.max_body):
            return None
        try:
            body = environ["wsgi.input"].read(length)
        except Exception as error:  # noqa: BLE001 - the body is unreadable: Flask meets the same error, as before
            environ["wsgi.input"] = _Unreadable(error)
            return None
        environ["wsgi.input"] = io.BytesIO(body)
        try:
            doc = environ[BODY_KEY] = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(doc, dict) or not route.deterministic(doc):
            return None
        key = cache_key(route.endpoint, route.game, route.rules.info.rules_version, canonical(doc))
        value, outcome = self.answers.call("get", key)
        if outcome != HIT:
            environ[LOOKUP_KEY] = (key, value, outcome)
            return None
        return started, value


class _Unreadable(io.RawIOBase):
    """A request body that fails to read with the error the server's stream gave."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self.error
