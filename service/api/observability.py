"""Request ids, JSON logs, and Prometheus metrics (multiprocess-aware under gunicorn)."""
from __future__ import annotations

import itertools
import logging
import os
import re
import sys
import time
from typing import Any

import orjson
from flask import Flask, Response, g, request
from prometheus_client import CollectorRegistry, Counter, Histogram

REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class _RequestIds:
    """Ids for the requests that come without one: 32 hex digits, 16 drawn at random once per process (again in
    each forked worker) and 16 counting the process's requests. Unique across workers and replicas like uuid4's,
    at a tenth of the cost: no system call a request."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._prefix, self._count = os.urandom(8).hex(), itertools.count()

    def __call__(self) -> str:
        return f"{self._prefix}{next(self._count):016x}"


new_request_id = _RequestIds()


class JsonFormatter(logging.Formatter):
    """One JSON object per line, with the request id when there is one."""

    FIELDS = ("request_id", "error_id", "method", "path", "status", "duration_ms", "game", "cache")

    _stamp: tuple[int, str] = (-1, "")  # (second, its text): one strftime per second, not per line

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self._time(record.created), "level": record.levelname, "logger": record.name,
                 "message": record.getMessage()}
        for name in self.FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()

    def _time(self, created: float) -> str:
        second, text = self._stamp
        if int(created) != second:
            second = int(created)
            text = time.strftime("%Y-%m-%dT%H:%M:%S%z", self.converter(created))
            self._stamp = (second, text)
        return text


def configure_logging(level: str) -> None:
    root = logging.getLogger("service")
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
        root.propagate = False
    root.setLevel(level)


class Metrics:
    """The service's own counters, beside the HTTP metrics of prometheus-flask-exporter."""

    def __init__(self, app: Flask) -> None:
        multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        if multiprocess:
            from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

            self.exporter = GunicornInternalPrometheusMetrics(app, group_by="url_rule")
            registry = None  # multiprocess values live in files, gathered at scrape time
        else:
            from prometheus_flask_exporter import PrometheusMetrics

            registry = CollectorRegistry()
            self.exporter = PrometheusMetrics(app, group_by="url_rule", registry=registry)
        kwargs = {"registry": registry} if registry is not None else {}
        self.adjudications = Counter("referee_adjudications_total", "Answers given, by game, endpoint and outcome",
                                     ["game", "endpoint", "outcome"], **kwargs)
        self.cache_requests = Counter("referee_cache_requests_total", "Cache look-ups and stores by result",
                                      ["store", "operation", "result"], **kwargs)
        self.early_answers = Counter("referee_early_answers_total", "Requests answered before Flask (early.py), by "
                                     "game, endpoint and X-Cache", ["game", "endpoint", "cache"], **kwargs)
        self.cache_seconds = Histogram("referee_cache_seconds", "Time spent in the cache", ["store", "operation"],
                                       buckets=(0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5),
                                       **kwargs)
        self._children: dict[tuple, Any] = {}

    def child(self, metric: Any, *labels: str) -> Any:
        """`metric.labels(*labels)`, kept once found: prometheus_client's labels() validates and locks on every
        call, and these are counted on every request."""
        key = (id(metric), labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*labels)
        return found

    def count(self, game: str, endpoint: str, outcome: str) -> None:
        """One answer given, in `referee_adjudications_total`."""
        self.child(self.adjudications, game, endpoint, outcome).inc()


def register_request_hooks(app: Flask) -> None:
    log = logging.getLogger("service.access")

    @app.before_request
    def _start() -> None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if REQUEST_ID.match(given) else new_request_id()
        g.started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        response.headers["X-Request-Id"] = g.get("request_id", "")
        started = g.get("started")
        if started is not None and not request.path.startswith(("/healthz", "/readyz", "/metrics")):
            log.info("%s %s %s", request.method, request.path, response.status_code,
                     extra={"request_id": g.get("request_id"), "method": request.method, "path": request.path,
                            "status": response.status_code, "game": g.get("game"),
                            "cache": response.headers.get("X-Cache"),
                            "duration_ms": round((time.perf_counter() - started) * 1000, 3)})
        return response
