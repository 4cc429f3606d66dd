"""The service with the game's work taken out: what a computed answer costs beyond the game.

The service's app (`service.api:create_app()`, the environment's settings), its front unchanged, but each route's
answer to a body (`CachedRoute.answer`: the request schema's reading, the game's work and the answer's JSON) kept
once given, by the body's JSON: from the second time on, a computed answer costs the parse, the cache
key, the look-up, the rate limit, the metrics, the access line and the response, and no game. bench/paired.py runs it beside the
service and the floor (`--overhead`), with CACHE_MAX_ENTRIES=0 so that every request takes the computed path:
the service's CPU minus this one's is the game's share of a request.

    gunicorn --config deploy/gunicorn.conf.py 'bench.overhead_app:create_app()'
"""
from __future__ import annotations

import orjson
from flask import Flask

from service.api import create_app as create_service_app
from service.api.front import Answer, Front


def _kept(answer: Answer) -> Answer:
    given: dict[bytes, tuple[bytes, str, bool] | None] = {}

    def kept(doc: dict) -> tuple[bytes, str, bool] | None:
        key = orjson.dumps(doc)  # about a microsecond a kilobyte: counted with the overhead
        if key not in given:
            given[key] = answer(doc)
        return given[key]
    return kept


def create_app() -> Flask:
    app = create_service_app()
    layer = app.wsgi_app
    while not isinstance(layer, Front):  # a proxy's ProxyFix may stand before it
        layer = layer.app
    for route in layer.routes.values():
        route.answer = _kept(route.answer)
    return app
