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
from flask import Flask, request
from prometheus_client import CollectorRegistry, Counter, Histogram

REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# what the front (front.py) and Flask tell each other through the WSGI environ
REQUEST_ID_KEY = "referee.request_id"  # the request's id, set by the front for every request
GAME_KEY = "referee.game"  # the game a Flask view answered for (the access line's `game`)
RULE_KEY = "referee.rule"  # the URL rule Flask matched (the HTTP metrics' `url_rule`)


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
        fields = {name: getattr(record, name, None) for name in self.FIELDS}
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        return self.line(record.created, record.levelname, record.name, record.getMessage(), fields)

    def line(self, created: float, level: str, logger: str, message: str, fields: dict[str, Any]) -> str:
        """The line of a record made at `created`; `fields` (FIELDS and `exception`) are left out when None."""
        entry = {"time": self._time(created), "level": level, "logger": logger, "message": message}
        for name, value in fields.items():
            if value is not None:
                entry[name] = value
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


class AccessLog:
    """The access line of an answered request: one JSON object at INFO on the `service.access` logger, with the
    request id, method, path, status, game, X-Cache and duration.

    Where the line can only reach the service's own JSON handler (configure_logging's, the logger's and its
    parents' sole handler, no filter anywhere), it is formatted by that handler's formatter and written to its
    stream here: a LogRecord and the logging module's dispatch cost about 25 µs a request, as much as parsing and
    keying the request together, for the same line. Any other configuration (a handler or filter added, logs
    propagated to the root) gets a LogRecord through `Logger.info`, as any log call does."""

    def __init__(self, name: str = "service.access") -> None:
        self.logger = logging.getLogger(name)

    def __call__(self, method: str, path: str, status: int, *, request_id: str | None, game: str | None,
                 cache: str | None, started: float) -> None:
        logger = self.logger
        if not logger.isEnabledFor(logging.INFO):
            return
        fields = {"request_id": request_id, "method": method, "path": path, "status": status,
                  "duration_ms": round((time.perf_counter() - started) * 1000, 3), "game": game, "cache": cache}
        handler = self._own_handler()
        if handler is not None:
            line = handler.formatter.line(time.time(), "INFO", logger.name, f"{method} {path} {status}", fields)
            handler.acquire()  # as Handler.handle does around emit: lines from several threads stay whole
            try:
                handler.stream.write(line + handler.terminator)
                handler.flush()
                return
            except Exception:  # noqa: BLE001 - the logging module reports a failed write its own way, below
                pass
            finally:
                handler.release()
        logger.info("%s %s %s", method, path, status, extra=fields)

    def _own_handler(self) -> logging.StreamHandler | None:
        """The handler every line of the logger goes to, if it is the only one and a plain JSON stream handler
        that a line at INFO passes (no filter on the way); None otherwise."""
        found = None
        logger: logging.Logger | None = self.logger
        while logger is not None:
            if logger.filters:
                return None
            for handler in logger.handlers:
                if found is not None or type(handler) is not logging.StreamHandler or handler.filters \
                        or type(handler.formatter) is not JsonFormatter or handler.level > logging.INFO:
                    return None
                found = handler
            logger = logger.parent if logger.propagate else None
        return found


class Metrics:
    """The service's own counters, beside the HTTP metrics of prometheus-flask-exporter."""

    def __init__(self, app: Flask) -> None:
        # The exporter serves /metrics (gathering every worker's files under gunicorn); the HTTP metrics it would
        # record in Flask's hooks are recorded by the front for every request instead (observe_request), under
        # the exporter's names and labels.
        multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        if multiprocess:
            from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

            self.exporter = GunicornInternalPrometheusMetrics(app, export_defaults=False)
            registry = None  # multiprocess values live in files, gathered at scrape time
        else:
            from prometheus_flask_exporter import PrometheusMetrics

            registry = CollectorRegistry()
            self.exporter = PrometheusMetrics(app, export_defaults=False, registry=registry)
        kwargs = {"registry": registry} if registry is not None else {}
        self.request_seconds = Histogram("flask_http_request_duration_seconds", "Flask HTTP request duration in "
                                         "seconds", ["method", "url_rule", "status"], **kwargs)
        self.requests = Counter("flask_http_request_total", "Total number of HTTP requests", ["method", "status"],
                                **kwargs)
        self.adjudications = Counter("referee_adjudications_total", "Answers given, by game, endpoint and outcome",
                                     ["game", "endpoint", "outcome"], **kwargs)
        self.cache_requests = Counter("referee_cache_requests_total", "Cache look-ups and stores by result",
                                      ["store", "operation", "result"], **kwargs)
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

    def observe_request(self, method: str, rule: str | None, status: int, seconds: float) -> None:
        """One request answered: its duration by method, URL rule ("None" where no rule matched) and status."""
        self.child(self.request_seconds, method, str(rule), str(status)).observe(seconds)
        self.child(self.requests, method, str(status)).inc()

    def count(self, game: str, endpoint: str, outcome: str) -> None:
        """One answer given, in `referee_adjudications_total`."""
        self.child(self.adjudications, game, endpoint, outcome).inc()


def register_request_hooks(app: Flask) -> None:
    """Tell the front which URL rule Flask matched, for its metrics."""

    @app.before_request
    def _rule() -> None:
        if request.url_rule is not None:
            request.environ[RULE_KEY] = request.url_rule.rule
