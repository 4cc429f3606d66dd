"""JSON in and out with orjson: fast, and bounded (nesting depth, 64-bit integers) so hostile bodies fail
cleanly as 400 instead of exhausting the stack."""
from __future__ import annotations

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


def canonical(obj: Any) -> bytes:
    """Equal documents give equal bytes, whatever their key order."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


class JsonParser(FlaskParser):
    """webargs' parser with orjson and the API's status for a wrong shape (400, api.md)."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        # orjson.JSONDecodeError is a json.JSONDecodeError: webargs answers it as invalid JSON (400)
        return orjson.loads(req.get_data(cache=True))
