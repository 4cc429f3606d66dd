"""Which language an answer speaks, chosen as HTTP does: `?lang=` when a link or a page names one, else the
request's `Accept-Language` (q-values; a region falls back to its language, `fr-CA` to French), else English.
Anything unknown or malformed is English, never an error. Answers say the language chosen (`Content-Language`)
and that it depends on the header (`Vary: Accept-Language`)."""
from __future__ import annotations

from typing import Mapping
from urllib.parse import parse_qsl

from flask import Response, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..games.core.language import DEFAULT, LANGUAGES, language_of

OVERRIDE = "lang"  # the query parameter that names the language outright
MAX_HEADER = 1000  # a longer Accept-Language is not read (it is English): no header costs more than a short one
LANGUAGE_KEY = "referee.language"  # the WSGI environ's key for the language the front chose
MEMO_SIZE = 512  # Accept-Language values whose choice is kept (more are worked out each time)
_memo: dict[str, str] = {}


def chosen(args: Mapping[str, str], accept_language: str | None) -> str:
    """The language of an answer to a request with these query `args` and this Accept-Language header."""
    named = args.get(OVERRIDE)
    if named:
        return language_of(named)
    if not accept_language or len(accept_language) > MAX_HEADER:
        return DEFAULT
    # the most preferred tag the service speaks, a region standing for its language (RFC 4647's lookup): for
    # "fr-CA, en;q=0.5" French, though English matches exactly; "*" is the default
    for tag, quality in parse_accept_header(accept_language, LanguageAccept):  # by quality, then order
        if quality <= 0:
            continue
        primary = tag.replace("_", "-").split("-")[0].strip().lower()
        if primary in LANGUAGES:
            return primary
        if primary == "*":
            return DEFAULT
    return DEFAULT


NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano"}  # each language named in itself


def choices() -> list[tuple[str, str, str]]:
    """The language picker's entries: (language, its name in itself, the link that chooses it)."""
    return [(code, NAMES[code], f"?{OVERRIDE}={code}") for code in LANGUAGES]


def negotiated(environ: dict) -> str:
    """The language of the answer to a WSGI request (what `chosen` says for its query and header), worked out
    once per distinct header: browsers send a handful of values, and a flood of new ones is only not memoized."""
    query = environ.get("QUERY_STRING", "")
    if OVERRIDE + "=" in query:
        named = next((value for key, value in parse_qsl(query) if key == OVERRIDE), None)
        if named:
            return language_of(named)
    header = environ.get("HTTP_ACCEPT_LANGUAGE")
    if not header:
        return DEFAULT
    found = _memo.get(header)
    if found is None:
        found = chosen({}, header)
        if len(_memo) < MEMO_SIZE:
            _memo[header] = found
    return found


def language() -> str:
    """The language of the answer to the request being handled (the front's choice; worked out here for a
    request that did not come through it)."""
    found = request.environ.get(LANGUAGE_KEY)
    if found is None:
        found = request.environ[LANGUAGE_KEY] = negotiated(request.environ)
    return found


def spoken(response: Response, language: str) -> Response:
    """The response, saying its language and that it depends on the request's Accept-Language."""
    response.headers["Content-Language"] = language
    response.vary.add("Accept-Language")
    return response


LANGUAGE_PARAMETERS = {  # how a client chooses the language, as the spec says it (components, by name)
    "lang": {"in": "query", "name": OVERRIDE, "required": False, "schema": {"type": "string"},
             "description": "The language of the answer's words, overriding Accept-Language (for links and pages): "
                            + ", ".join(LANGUAGES) + " (a region falls back to its language). Anything else is "
                            "English, never an error."},
    "Accept-Language": {"in": "header", "name": "Accept-Language", "required": False, "schema": {"type": "string"},
                        "description": "The languages the client reads, with q-values; a region falls back to its "
                                       "language (fr-CA: French). The service speaks " + ", ".join(LANGUAGES)
                                       + "; anything else is English. The answer's Content-Language says which "
                                       "it chose."},
}
LANGUAGE_HEADERS = {
    "Content-Language": {"description": "The language of the answer's words (violations, events, problems, "
                                        "rules).", "schema": {"type": "string"}},
    "Vary": {"description": "Accept-Language (and Origin where CORS applies): the answer depends on them.",
             "schema": {"type": "string"}},
}
PARAMETERS = list(LANGUAGE_PARAMETERS)  # an operation's, by reference
HEADERS = {name: name for name in LANGUAGE_HEADERS}  # an answer's, by reference


def register_language_components(spec) -> None:  # type: ignore[no-untyped-def]
    """The parameters and headers every operation refers to, once in the spec's components."""
    for name, parameter in LANGUAGE_PARAMETERS.items():
        spec.components.parameter(name, parameter["in"], {k: v for k, v in parameter.items() if k != "in"})
    for name, header in LANGUAGE_HEADERS.items():
        spec.components.header(name, header)


__all__ = ["HEADERS", "LANGUAGE_KEY", "NAMES", "OVERRIDE", "PARAMETERS", "choices", "chosen", "language", "negotiated",
           "register_language_components", "spoken"]
