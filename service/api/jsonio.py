"""JSON in and out with orjson: fast, and bounded (nesting depth, 64-bit integers) so hostile bodies fail
cleanly as 400 instead of exhausting the stack."""
from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import JSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


class OrjsonProvider(JSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj)


BODY_KEY = "referee.body"  # environ: the request's JSON body, parsed once for the cache, the schema and the view


def request_document(req: Any) -> Any:
    """The request's JSON body, parsed at most once per request (raises orjson.JSONDecodeError)."""
    environ = req.environ
    if BODY_KEY not in environ:
        environ[BODY_KEY] = orjson.loads(req.get_data(cache=True))
    return environ[BODY_KEY]


def canonical(obj: Any) -> bytes:
    """Equal documents give equal bytes, whatever their key order."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


class JsonParser(FlaskParser):
    """webargs' parser with orjson and the API's status for a wrong shape (400, api.md)."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        if not data:
            return core.missing  # webargs then names each required field
        try:
            return request_document(req)
        except orjson.JSONDecodeError as error:
            # webargs answers a json.JSONDecodeError as invalid JSON (400), except one whose document is empty,
            # which it takes for an empty body: orjson leaves `doc` empty for a body that is not UTF-8.
            raise json.JSONDecodeError(error.msg, data.decode("utf-8", "replace"), error.pos) from error
