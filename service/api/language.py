"""Which language an answer speaks, chosen as HTTP does: `?lang=` when a link or a page names one, else the
request's `Accept-Language` (q-values; a region falls back to its language, `fr-CA` to French), else English.
Anything unknown or malformed is English, never an error. Answers say the language chosen (`Content-Language`)
and that it depends on the header (`Vary: Accept-Language`)."""
from __future__ import annotations

from typing import Mapping

from flask import Response
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..games.core.language import DEFAULT, LANGUAGES, language_of

OVERRIDE = "lang"  # the query parameter that names the language outright
MAX_HEADER = 1000  # a longer Accept-Language is not read (it is English): no header costs more than a short one


def chosen(args: Mapping[str, str], accept_language: str | None) -> str:
    """The language of an answer to a request with these query `args` and this Accept-Language header."""
    named = args.get(OVERRIDE)
    if named:
        return language_of(named)
    if not accept_language or len(accept_language) > MAX_HEADER:
        return DEFAULT
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES, default=DEFAULT)


def spoken(response: Response, language: str) -> Response:
    """The response, saying its language and that it depends on the request's Accept-Language."""
    response.headers["Content-Language"] = language
    response.vary.add("Accept-Language")
    return response


PARAMETERS = [  # how a client chooses the language, as the spec says it
    {"in": "query", "name": OVERRIDE, "required": False,
     "schema": {"type": "string"},
     "description": "The language of the answer's words, overriding Accept-Language (for links and pages): "
                    + ", ".join(LANGUAGES) + " (a region falls back to its language). Anything else is English, "
                    "never an error."},
    {"in": "header", "name": "Accept-Language", "required": False, "schema": {"type": "string"},
     "description": "The languages the client reads, with q-values; a region falls back to its language (fr-CA: "
                    "French). The service speaks " + ", ".join(LANGUAGES) + "; anything else is English. The "
                    "answer's Content-Language says which it chose."},
]

__all__ = ["OVERRIDE", "PARAMETERS", "chosen", "spoken"]
