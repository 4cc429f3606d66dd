"""Every non-2xx answer is RFC 9457 problem+json with `errors[]` of {rule, pointer, message}.

Lower-layer errors are mapped here, once: game errors (malformed → 400, impossible state → 422), webargs /
marshmallow validation (400 with JSON pointers), werkzeug's HTTP errors, and anything unexpected (500 with an
id that the log carries too, never a stack trace).
"""
from __future__ import annotations

import logging
import uuid
from typing import Any, Iterable

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from ..games.core.errors import GameError, GameOverError, InvalidStateError, MalformedError, Problem
from ..wire.schemas import problems_from_messages
from .jsonio import dumps
from .observability import REQUEST_ID_KEY

log = logging.getLogger("service.api")

PROBLEM_TYPES = {
    400: ("/problems/malformed-request", "The request is not a well-formed document of the expected shape."),
    404: ("about:blank", "Not Found"),
    405: ("about:blank", "Method Not Allowed"),
    413: ("/problems/body-too-large", "The request body is over the size limit."),
    415: ("/problems/not-json", "The request body must be JSON (Content-Type: application/json)."),
    422: ("/problems/impossible-state", "The state is well formed but cannot be a real position."),
    "game-over": ("/problems/game-over", "The game is over."),
    429: ("/problems/rate-limited", "Too many requests."),
    500: ("/problems/internal-error", "The service failed unexpectedly."),
}


MAX_LISTED_ERRORS = 100  # shape errors listed in one 400 answer


class ApiProblem(Exception):
    """An answer that is a problem (raised by views; rendered by the handler)."""

    def __init__(self, status: int, detail: str, errors: Iterable[Problem] = (), headers: dict | None = None,
                 title: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = list(errors)
        self.headers = headers or {}
        self.title = title


def problem_document(status: int, detail: str, errors: Iterable[Problem], instance: str, request_id: str | None,
                     title: str | None = None, kind: str | int | None = None, **extra: Any) -> bytes:
    """A problem+json body; `kind` picks a problem type other than the status's own (PROBLEM_TYPES)."""
    kind, default_title = PROBLEM_TYPES.get(status if kind is None else kind, ("about:blank", "Error"))
    body = {"type": kind, "title": title or default_title, "status": status, "detail": detail,
            "instance": instance, "errors": [p.to_json() for p in errors]}
    if request_id:
        body["request_id"] = request_id
    body.update(extra)
    return dumps(body)


def problem_response(status: int, detail: str, errors: Iterable[Problem] = (), headers: dict | None = None,
                     title: str | None = None, kind: str | int | None = None, **extra: Any) -> Response:
    """A problem+json answer to the request being handled."""
    body = problem_document(status, detail, errors, request.path, request.environ.get(REQUEST_ID_KEY), title, kind,
                            **extra)
    response = Response(body, status=status, mimetype="application/problem+json")
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def game_error_response(error: GameError, prefix: str = "") -> Response:
    problems = [p.under(prefix) for p in error.problems]
    if isinstance(error, MalformedError):
        return problem_response(400, "The document is not of the expected shape.", problems)
    if isinstance(error, InvalidStateError):
        count = len(problems)
        return problem_response(422, f"The state cannot be a real position ({count} problem"
                                     f"{'s' if count != 1 else ''}).", problems)
    if isinstance(error, GameOverError):
        return problem_response(422, "The game is over: no one is to act.", problems, kind="game-over")
    return problem_response(400, str(error), problems)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiProblem)
    def _api_problem(error: ApiProblem) -> Response:
        return problem_response(error.status, error.detail, error.errors, error.headers, error.title)

    @app.errorhandler(GameError)
    def _game_error(error: GameError) -> Response:
        return game_error_response(error, getattr(error, "pointer_prefix", ""))

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        headers = dict(error.get_headers()) if status in (405, 429) else {}
        headers.pop("Content-Type", None)
        if status in (400, 422) and messages:
            # webargs: {"json": {...}} — the pointer is into the JSON body
            body_messages = messages.get("json", messages) if isinstance(messages, dict) else messages
            problems = problems_from_messages(body_messages)
            if any(p.message == "Invalid JSON body." for p in problems):
                return problem_response(400, "The body is not valid JSON.", [Problem(None, "", "The body is not "
                                                                                             "valid JSON.")])
            if len(problems) > MAX_LISTED_ERRORS:  # a hostile body must not turn into an answer many times its size
                return problem_response(400, f"The request does not have the expected shape ({len(problems)} "
                                             f"problems; the first {MAX_LISTED_ERRORS} are listed).",
                                        problems[:MAX_LISTED_ERRORS])
            return problem_response(400, "The request does not have the expected shape.", problems)
        if status == 400:
            return problem_response(400, error.description or "Bad request.", [Problem(None, "", error.description
                                                                                      or "Bad request.")])
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            return problem_response(413, f"The body is over the limit of {limit} bytes.",
                                    [Problem(None, "", f"Send at most {limit} bytes.")])
        if status == 429:
            return problem_response(429, f"Rate limit exceeded ({error.description}). Try again later.",
                                    [Problem(None, "", "Too many requests.")], headers)
        if status == 405:
            return problem_response(405, f"{request.method} is not allowed here.", [], headers)
        if status == 404:
            return problem_response(404, f"There is nothing at {request.path}.")
        return problem_response(status, error.description or error.name, [], headers)

    try:  # gunicorn raises these from wsgi.input while the app reads a malformed chunked body
        from gunicorn.http.errors import ParseException
    except ImportError:  # pragma: no cover - served by another server
        ParseException = None
    if ParseException is not None:
        @app.errorhandler(ParseException)
        def _unreadable_body(error: Exception) -> Response:
            return problem_response(400, "The request body could not be read: its transfer encoding is malformed.",
                                    [Problem(None, "", "The body's chunked transfer encoding is malformed.")])

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        error_id = uuid.uuid4().hex
        log.exception("unexpected error %s", error_id, extra={"error_id": error_id})
        return problem_response(500, "The service failed unexpectedly; the error id identifies it in the log.",
                                error_id=error_id)
