"""Well-formed questions answered before Flask: a thin WSGI layer in front of the app answers what the body alone
decides, a cache hit or a computed answer, and hands everything else to Flask.

An answer that needs no error document costs the game's work plus the parse, the cache look-up and the response;
the web framework's request machinery (request and response objects, routing, the hooks of each extension) costs
as much again, so the layer skips it. For a cached route it parses the body and looks it up; a hit is answered
from the cache; on a miss the route's `answer` loads the body with the request schema's compiled loader and asks
the game, and the answer (a 200) is offered to the cache and sent. Any doubt (a body the compiled loader declines,
a question the game refuses: an error answer to write) goes to Flask untouched, with the body and the look-up
already done, and Flask answers it as it always would. Either way the bytes and headers are the Flask path's.

It stands aside when the answer would depend on more than the body: when a rate limit is set (every request must
be counted by the limiter) or when CORS is restricted to some origins (flask-cors decides per origin).
"""
from __future__ import annotations

import io
import time
from typing import Any, Callable, Iterable

import orjson

from ..cache import HIT, cache_key
from .jsonio import BODY_KEY, canonical
from .observability import REQUEST_ID, AccessLog, new_request_id

LOOKUP_KEY = "referee.cache_lookup"  # environ: (key, value, outcome) of the look-up done here
JSON_TYPES = ("application/json",)

access = AccessLog()

Answer = Callable[[dict], "tuple[bytes, str] | None"]  # body -> (JSON answer, outcome), or None: Flask answers


class CachedRoute:
    """One cached POST endpoint: what the Flask path's `cached` decorator knows about it, and its `answer` to a
    well-formed body (None: every miss goes to Flask)."""

    __slots__ = ("rules", "game", "endpoint", "deterministic", "answer")

    def __init__(self, rules: Any, endpoint: str, deterministic: Callable[[dict], bool],
                 answer: Answer | None = None) -> None:
        self.rules, self.game, self.endpoint, self.deterministic = rules, rules.info.id, endpoint, deterministic
        self.answer = answer


class EarlyAnswers:
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
        started = time.perf_counter()
        doc = self._document(environ, route)
        if doc is None:
            return self.wsgi_app(environ, start_response)
        key = cache_key(route.endpoint, route.game, route.rules.info.rules_version, canonical(doc))
        value, outcome = self.answers.call("get", key)
        if outcome == HIT:
            self.answers.count_hit(route.game, route.endpoint)
            return self._respond(environ, start_response, route, value, "hit", started)
        computing = time.perf_counter()
        computed = route.answer(doc) if route.answer is not None else None
        if computed is None:
            environ[LOOKUP_KEY] = (key, value, outcome)
            return self.wsgi_app(environ, start_response)
        body, verdict = computed
        self.answers.metrics.count(route.game, route.endpoint, verdict)
        stored = self.answers.offer(key, body, (time.perf_counter() - computing) * 1000)
        return self._respond(environ, start_response, route, body, stored, started)

    def _respond(self, environ: dict, start_response: Callable, route: CachedRoute, body: bytes, cache: str,
                 started: float) -> Iterable[bytes]:
        """A 200 with the headers the Flask path gives it."""
        request_id = environ.get("HTTP_X_REQUEST_ID", "")
        if not REQUEST_ID.match(request_id):
            request_id = new_request_id()
        origin = environ.get("HTTP_ORIGIN")
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("X-Cache", cache),
                   ("X-Content-Type-Options", "nosniff"), ("Access-Control-Allow-Origin", origin or "*"),
                   ("Access-Control-Expose-Headers", "X-Cache, X-Request-Id")]
        if origin:
            headers.append(("Vary", "Origin"))
        headers.append(("X-Request-Id", request_id))
        start_response("200 OK", headers)
        metrics = self.answers.metrics
        metrics.child(metrics.early_answers, route.game, route.endpoint, cache).inc()
        access("POST", environ["PATH_INFO"], 200, request_id=request_id, game=route.game, cache=cache,
               started=started)
        return [body]

    def _document(self, environ: dict, route: CachedRoute) -> dict | None:
        """The parsed JSON body of a question the layer may answer; None to let Flask answer (the body is put back
        for it)."""
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
        return doc


class _Unreadable(io.RawIOBase):
    """A request body that fails to read with the error the server's stream gave."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self.error
