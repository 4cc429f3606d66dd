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
from ..games.core.language import DEFAULT, said
from ..wire.messages import translatable
from ..wire.schemas import problems_from_messages
from .jsonio import dumps
from .language import language
from .messages import tr, tr_n
from .observability import REQUEST_ID_KEY

log = logging.getLogger("service.api")

PROBLEM_TYPES = {  # each with its title (RFC 9457: said in the language the request chose, as the detail is)
    400: ("/problems/malformed-request", tr("The request is not a well-formed document of the expected shape.")),
    404: ("about:blank", tr("Not Found")),
    405: ("about:blank", tr("Method Not Allowed")),
    413: ("/problems/body-too-large", tr("The request body is over the size limit.")),
    415: ("/problems/not-json", tr("The request body must be JSON (Content-Type: application/json).")),
    422: ("/problems/impossible-state", tr("The state is well formed but cannot be a real position.")),
    "game-over": ("/problems/game-over", tr("The game is over.")),
    429: ("/problems/rate-limited", tr("Too many requests.")),
    500: ("/problems/internal-error", tr("The service failed unexpectedly.")),
}
ERROR = tr("Error")


NOT_JSON = tr("The body is not valid JSON.")
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
                     title: str | None = None, kind: str | int | None = None, language: str = DEFAULT,
                     **extra: Any) -> bytes:
    """A problem+json body, its words in `language`; `kind` picks a problem type other than the status's own
    (PROBLEM_TYPES)."""
    kind, default_title = PROBLEM_TYPES.get(status if kind is None else kind, ("about:blank", ERROR))
    body = {"type": kind, "title": said(title or default_title, language), "status": status,
            "detail": said(detail, language), "instance": instance,
            "errors": [p.to_json(language) for p in errors]}
    if request_id:
        body["request_id"] = request_id
    body.update(extra)
    return dumps(body)


def problem_response(status: int, detail: str, errors: Iterable[Problem] = (), headers: dict | None = None,
                     title: str | None = None, kind: str | int | None = None, **extra: Any) -> Response:
    """A problem+json answer to the request being handled, in its language."""
    spoken_in = language()
    body = problem_document(status, detail, errors, request.path, request.environ.get(REQUEST_ID_KEY), title, kind,
                            spoken_in, **extra)
    response = Response(body, status=status, mimetype="application/problem+json")
    response.headers["Content-Language"] = spoken_in
    response.vary.add("Accept-Language")
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def game_error_response(error: GameError, prefix: str = "") -> Response:
    problems = [p.under(prefix) for p in error.problems]
    if isinstance(error, MalformedError):
        return problem_response(400, tr("The document is not of the expected shape."), problems)
    if isinstance(error, InvalidStateError):
        return problem_response(422, tr_n("The state cannot be a real position ({count} problem).",
                                          "The state cannot be a real position ({count} problems).", len(problems)),
                                problems)
    if isinstance(error, GameOverError):
        return problem_response(422, tr("The game is over: no one is to act."), problems, kind="game-over")
    spoken_in = language()  # what GameError says in English ("/pointer: message; …"), in the request's language
    return problem_response(400, "; ".join(f"{p.pointer or '/'}: {said(p.message, spoken_in)}" for p in problems),
                            problems)


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
                return problem_response(400, NOT_JSON, [Problem(None, "", NOT_JSON)])
            if len(problems) > MAX_LISTED_ERRORS:  # a hostile body must not turn into an answer many times its size
                return problem_response(400, tr("The request does not have the expected shape ({count} problems; "
                                                "the first {listed} are listed).", count=len(problems),
                                                listed=MAX_LISTED_ERRORS),
                                        problems[:MAX_LISTED_ERRORS])
            return problem_response(400, tr("The request does not have the expected shape."), problems)
        if status == 400:
            refusal = translatable(error.description) if error.description else tr("Bad request.")
            return problem_response(400, refusal, [Problem(None, "", refusal)])
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            return problem_response(413, tr("The body is over the limit of {limit} bytes.", limit=limit),
                                    [Problem(None, "", tr("Send at most {limit} bytes.", limit=limit))])
        if status == 429:
            return problem_response(429, tr("Rate limit exceeded ({limit}). Try again later.",
                                            limit=error.description),
                                    [Problem(None, "", tr("Too many requests."))], headers)
        if status == 405:
            return problem_response(405, tr("{method} is not allowed here.", method=request.method), [], headers)
        if status == 404:
            return problem_response(404, tr("There is nothing at {path}.", path=request.path))
        return problem_response(status, error.description or error.name, [], headers)

    try:  # gunicorn raises these from wsgi.input while the app reads a malformed chunked body
        from gunicorn.http.errors import ParseException
    except ImportError:  # pragma: no cover - served by another server
        ParseException = None
    if ParseException is not None:
        @app.errorhandler(ParseException)
        def _unreadable_body(error: Exception) -> Response:
            return problem_response(400, tr("The request body could not be read: its transfer encoding is "
                                            "malformed."),
                                    [Problem(None, "", tr("The body's chunked transfer encoding is malformed."))])

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        error_id = uuid.uuid4().hex
        log.exception("unexpected error %s", error_id, extra={"error_id": error_id})
        return problem_response(500, tr("The service failed unexpectedly; the error id identifies it in the log."),
                                error_id=error_id)
