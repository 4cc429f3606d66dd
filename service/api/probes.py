"""Liveness and readiness. Readiness stays 200 when Redis is down: the service still answers (computing)."""
from __future__ import annotations

from flask import Response, current_app

from .. import __version__
from .blueprint import Blueprint
from .games import json_response
from .schemas import HealthSchema

probes_blp = Blueprint("probes", __name__, description="Liveness and readiness for orchestrators.")


@probes_blp.route("/healthz", methods=["GET"])
@probes_blp.doc(operationId="liveness")
@probes_blp.response(200, HealthSchema)
def healthz() -> Response:
    """The process is alive.

    For a liveness probe: never touches the cache, never rate-limited, so it has no 4xx answer."""
    kind = current_app.extensions["answer_cache"].store.kind
    return json_response({"status": "ok", "cache": kind, "version": __version__})


@probes_blp.route("/readyz", methods=["GET"])
@probes_blp.doc(operationId="readiness")
@probes_blp.response(200, HealthSchema)
def readyz() -> Response:
    """Ready to answer.

    For a readiness probe: `cache` is memory, redis, or degraded (Redis unreachable: still ready, answers are
    computed). Never rate-limited, so it has no 4xx answer."""
    cache = current_app.extensions["answer_cache"].store.status()
    return json_response({"status": "ok" if cache != "degraded" else "degraded", "cache": cache,
                          "version": __version__})
