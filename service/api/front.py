"""The one path every request takes: a WSGI layer in front of the Flask app, whatever the settings.

For every request it sets what every answer carries (the request id, CORS, `X-Content-Type-Options`, the rate-limit
headers), counts it against the client's rate limit, records the HTTP metrics and writes the access line, each in
one place. Then it decides, in this order:
1. a refusal: the client is over its rate limit (429 problem+json, `Retry-After`);
2. for a POST to a game's question, when the body is a well-formed JSON object: a cache hit, else the answer
   computed by the route (the game's call on what the request schema loaded), offered to the cache;
3. anything else goes to Flask: the pages, the GET routes, /picture, and every question the route could not answer
   (a body that is not JSON, a shape the schema refuses, a state the game refuses), for which Flask writes the
   problem document.

Why before Flask rather than inside it: a question answered here costs the game's work plus the parse, the cache
look-up and the response; Flask's request machinery (request and response objects, routing, each extension's
hooks) costs as much again, and the service's answers need none of it. Flask keeps what it does well: routing the
rest, the error documents, the OpenAPI spec and the pages.
"""
from __future__ import annotations

import io
import time
from typing import Any, Callable, Iterable

import orjson
from flask_cors.core import get_cors_headers, get_cors_options
from werkzeug.datastructures import EnvironHeaders

from ..cache import HIT, cache_key
from ..games.core import memo
from ..games.core.errors import Problem
from .jsonio import BODY_KEY, canonical
from .language import LANGUAGE_KEY, negotiated
from .messages import tr
from .observability import GAME_KEY, REQUEST_ID, REQUEST_ID_KEY, RULE_KEY, AccessLog, new_request_id
from .problems import problem_document
from .ratelimit import RateLimiter

JSON_TYPES = ("application/json",)
EXEMPT = frozenset({"/healthz", "/readyz", "/metrics"})  # probes and scrapes: never limited, never logged
EXPOSED_HEADERS = ["X-Cache", "X-Request-Id"]
CORS_MEMO_SIZE = 256  # Origin values whose CORS headers are kept (more are computed each time)

# (body, language) -> (JSON, outcome, storable); None: Flask answers
Answer = Callable[[dict, str], "tuple[bytes, str, bool] | None"]


class CachedRoute:
    """One game question the front answers: the route's path and game (its rules version is part of every key,
    read at each request), whether a body's answer may be kept (`deterministic`), and its `answer` to a body."""

    __slots__ = ("answer", "deterministic", "endpoint", "game", "rule", "served", "speaks")

    def __init__(self, served: Any, endpoint: str, path: str, deterministic: Callable[[dict], bool],
                 answer: Answer, speaks: Callable[[dict], bool]) -> None:
        self.served, self.game = served, served.info.id
        self.endpoint, self.deterministic, self.answer, self.rule = endpoint, deterministic, answer, path
        self.speaks = speaks  # whether its answer to a body has words for people: said and kept per language


class Front:
    """The WSGI layer (see the module's doc). `flask` is the Flask app's own WSGI callable."""

    def __init__(self, flask: Callable, app: Any, settings: Any, answers: Any, limiter: RateLimiter | None) -> None:
        self.flask = flask
        self.answers = answers  # the app's AnswerCache (caching.py): its routes, store and metrics
        self.routes: dict[str, CachedRoute] = answers.routes
        self.metrics = answers.metrics
        self.limiter = limiter
        self.suggest_cost = settings.SUGGEST_RATE_COST
        self.max_body = settings.MAX_BODY_BYTES
        self.cors_options = get_cors_options(app, {
            "origins": list(settings.CORS_ORIGINS), "expose_headers": EXPOSED_HEADERS, "max_age": 86400,
            "supports_credentials": False})
        self._cors_memo: dict[str | None, list[tuple[str, str]]] = {}
        # the game engines' memos serve a search and across requests would only fill (service/games/core/memo.py):
        # emptied every ENGINE_MEMO_REQUESTS requests
        self.forget_every = settings.ENGINE_MEMO_REQUESTS
        self.count = 0  # requests since they were last emptied
        self.access = AccessLog()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        started = time.perf_counter()
        self._forget_memos()
        given = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = environ[REQUEST_ID_KEY] = given if REQUEST_ID.match(given) else new_request_id()
        method, path = environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", "")
        language = environ[LANGUAGE_KEY] = negotiated(environ)
        verdict = None
        if self.limiter is not None and method != "OPTIONS" and path not in EXEMPT:
            cost = self.suggest_cost if path.endswith("/suggest") else 1
            verdict = self.limiter.hit(environ.get("REMOTE_ADDR") or "", cost)
        route = self.routes.get(path) if method == "POST" else None
        if verdict is not None and not verdict.allowed:
            status, headers, body = self._refusal(path, request_id, verdict, language)
            game = route.game if route is not None else None
            rule = route.rule if route is not None else None
        else:
            answered = self._answer(environ, route, language) if route is not None else None
            if answered is None:
                return self._through_flask(environ, start_response, method, path, request_id, verdict, started)
            status, headers, body = answered
            game, rule = route.game, route.rule  # type: ignore[union-attr]
        self._finish(environ, headers, method, request_id, verdict)
        start_response(status, headers)
        self._record(method, path, int(status[:3]), rule, game, headers, request_id, started)
        return [body]

    # -- the decisions

    def _answer(self, environ: dict, route: CachedRoute, language: str) -> tuple[str, list, bytes] | None:
        """A cache hit, or the route's computed answer (offered to the cache); None: Flask answers. An answer with
        words is kept under the language chosen (one of a few), never under the raw header."""
        doc = self._document(environ)
        if doc is None:
            return None
        speaks = route.speaks(doc)
        spoken = _spoken(language) if speaks else _SILENT
        deterministic = route.deterministic(doc)
        if deterministic:
            key = cache_key(route.endpoint, route.game, route.served.info.rules_version, canonical(doc),
                            language if speaks else None)
            value, outcome = self.answers.call("get", key)
            if outcome == HIT:
                self.answers.count_hit(route.game, route.endpoint)
                return _ok(value, "hit", spoken)
        computing = time.perf_counter()
        computed = route.answer(doc, language)
        if computed is None:
            return None
        body, verdict, storable = computed
        self.metrics.count(route.game, route.endpoint, verdict)
        if not storable:
            return _ok(body, "bypass", [("Cache-Control", "no-store"), *spoken])
        if not deterministic:
            return _ok(body, "bypass", spoken)
        return _ok(body, self.answers.offer(key, body, (time.perf_counter() - computing) * 1000), spoken)

    def _refusal(self, path: str, request_id: str, verdict: Any, language: str) -> tuple[str, list, bytes]:
        body = problem_document(429, tr("Rate limit exceeded ({limit}). Try again later.", limit=verdict.text),
                                [Problem(None, "", tr("Too many requests."))], path, request_id, language=language)
        return "429 TOO MANY REQUESTS", [("Content-Type", "application/problem+json"),
                                         ("Content-Length", str(len(body))), *_spoken(language)], body

    def _through_flask(self, environ: dict, start_response: Callable, method: str, path: str, request_id: str,
                       verdict: Any, started: float) -> Iterable[bytes]:
        """Flask's answer, with what every answer carries added here."""
        seen: dict[str, Any] = {}

        def finish_then_start(status: str, headers: list, exc_info: Any = None) -> Callable:
            self._finish(environ, headers, method, request_id, verdict)
            if method == "POST" and path in self.routes and status.startswith("200") \
                    and not any(name == "X-Cache" for name, _ in headers):
                headers.append(("X-Cache", "bypass"))  # a body the front could not read (chunked): not kept
            seen["status"], seen["headers"] = status, headers
            return start_response(status, headers, exc_info)

        body = self.flask(environ, finish_then_start)
        if "status" in seen:  # Flask answers before it returns its body's iterable
            self._record(method, path, int(seen["status"][:3]), environ.get(RULE_KEY), environ.get(GAME_KEY),
                         seen["headers"], request_id, started)
        return body

    # -- what every answer carries

    def _finish(self, environ: dict, headers: list, method: str, request_id: str, verdict: Any) -> None:
        """The request id, CORS, `X-Content-Type-Options` (unless the answer has its own) and the rate-limit
        headers (Retry-After only on a refusal)."""
        if not any(name.lower() == "x-content-type-options" for name, _ in headers):
            headers.append(("X-Content-Type-Options", "nosniff"))
        for name, value in self._cors(environ, method):
            if name.lower() == "vary":  # one Vary field: the answer's own (Accept-Language) and CORS's (Origin)
                at = next((i for i, (other, _) in enumerate(headers) if other.lower() == "vary"), None)
                if at is not None:
                    headers[at] = (headers[at][0], f"{headers[at][1]}, {value}")
                    continue
            headers.append((name, value))
        if verdict is not None:
            headers += [("X-RateLimit-Limit", str(verdict.limit)), ("X-RateLimit-Remaining", str(verdict.remaining)),
                        ("X-RateLimit-Reset", str(verdict.reset))]
            if not verdict.allowed:
                headers.append(("Retry-After", str(verdict.retry_after)))
        headers.append(("X-Request-Id", request_id))

    def _cors(self, environ: dict, method: str) -> list[tuple[str, str]]:
        """flask-cors's headers for this request; for any but a preflight they depend on the Origin alone."""
        if method == "OPTIONS":
            return _pairs(get_cors_headers(self.cors_options, EnvironHeaders(environ), method))
        origin = environ.get("HTTP_ORIGIN")
        found = self._cors_memo.get(origin)
        if found is None:
            found = _pairs(get_cors_headers(self.cors_options, EnvironHeaders(environ), method))
            if len(self._cors_memo) < CORS_MEMO_SIZE:
                self._cors_memo[origin] = found
        return found

    def _record(self, method: str, path: str, status: int, rule: str | None, game: str | None, headers: list,
                request_id: str, started: float) -> None:
        """The HTTP metrics and the access line (none for the probes and scrapes)."""
        self.metrics.observe_request(method, rule, status, time.perf_counter() - started)
        if path in EXEMPT:
            return
        cache = next((value for name, value in headers if name == "X-Cache"), None)
        self.access(method, path, status, request_id=request_id, game=game, cache=cache, started=started)

    def _forget_memos(self) -> None:
        if self.forget_every:
            self.count += 1  # (two threads may count one request as one: the next emptying comes a request late)
            if self.count >= self.forget_every:
                self.count = 0
                memo.forget()

    # -- the body

    def _document(self, environ: dict) -> dict | None:
        """The parsed JSON object of a body the front may answer; None to let Flask answer (the body is put back
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
        except Exception as error:  # noqa: BLE001 - the body is unreadable: Flask meets the same error
            environ["wsgi.input"] = _Unreadable(error)
            return None
        environ["wsgi.input"] = io.BytesIO(body)
        try:
            doc = environ[BODY_KEY] = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
        return doc if isinstance(doc, dict) else None


_SILENT: list[tuple[str, str]] = []
_SPOKEN: dict[str, list[tuple[str, str]]] = {}  # the headers of an answer in each language


def _spoken(language: str) -> list[tuple[str, str]]:
    """The headers of an answer with words: its language, and that it depends on the request's Accept-Language
    (`_finish` adds CORS's Origin to the same Vary field)."""
    found = _SPOKEN.get(language)
    if found is None:
        found = _SPOKEN[language] = [("Content-Language", language), ("Vary", "Accept-Language")]
    return found


def _ok(body: bytes, cache: str, extra: list | None = None) -> tuple[str, list, bytes]:
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("X-Cache", cache)]
    return "200 OK", headers + extra if extra else headers, body


def _pairs(headers: Any) -> list[tuple[str, str]]:
    return [(name, str(value)) for name, value in headers.items(multi=True)]


class _Unreadable(io.RawIOBase):
    """A request body that fails to read with the error the server's stream gave."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self.error
