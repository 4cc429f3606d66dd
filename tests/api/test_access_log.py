"""The access log: one JSON line at INFO on `service.access` for every answered request, whichever layer answered
it (the front: computed or a cache hit; Flask: an error), written straight to the service's own handler when
nothing else could see the line, and through a LogRecord otherwise, the line the same either way."""
from __future__ import annotations

import io
import logging

import orjson
import pytest

from service.api.observability import AccessLog, JsonFormatter

from .helpers import BASE, body_for, fresh_state


@pytest.fixture
def app(make_app):
    return make_app(LOG_LEVEL="INFO")


@pytest.fixture
def written(app):
    """What the app's own JSON handler writes, as parsed lines."""
    handler = next(h for h in logging.getLogger("service").handlers if isinstance(h.formatter, JsonFormatter))
    stream = io.StringIO()
    previous = handler.setStream(stream)
    lines: list[dict] = []

    def read() -> list[dict]:
        lines.extend(orjson.loads(line) for line in stream.getvalue().splitlines())
        stream.seek(0)
        stream.truncate()
        return lines
    yield read
    handler.setStream(previous)


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(orjson.loads(JsonFormatter().format(record)))


def _ask(client, seed: int = 7) -> None:
    body = body_for("legal-moves", fresh_state(seed))
    assert client.post(f"{BASE}/legal-moves", json=body).headers["X-Cache"] == "miss"  # the front computes
    assert client.post(f"{BASE}/legal-moves", json=body).headers["X-Cache"] == "hit"
    assert client.post(f"{BASE}/apply", data=b"{", content_type="application/json").status_code == 400  # Flask


def _without_clock(line: dict) -> dict:
    return {key: value for key, value in line.items() if key not in ("time", "duration_ms", "request_id")}


def test_every_answer_writes_one_line(client, written):
    _ask(client)
    lines = written()
    assert [(line["status"], line.get("cache")) for line in lines] == [(200, "miss"), (200, "hit"), (400, None)]
    for line in lines:
        assert line["level"] == "INFO" and line["logger"] == "service.access" and line["method"] == "POST"
        assert line["message"] == f"POST {line['path']} {line['status']}"
        assert len(line["request_id"]) == 32 and line["duration_ms"] >= 0
    assert [line["game"] for line in lines[:2]] == ["torri", "torri"]


def test_the_line_is_the_same_through_a_log_record(client, written):
    _ask(client)
    direct = [_without_clock(line) for line in written()]
    records = Records()
    access = logging.getLogger("service.access")
    access.addHandler(records)  # another handler: every line now goes through Logger.info
    try:
        _ask(client, seed=8)
    finally:
        access.removeHandler(records)
    assert [_without_clock(line) for line in records.lines] == direct
    assert [_without_clock(line) for line in written()[len(direct):]] == direct  # the own handler still has them


def test_a_filter_is_obeyed(client, written):
    class NoHits(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            return getattr(record, "cache", None) != "hit"

    access = logging.getLogger("service.access")
    no_hits = NoHits()
    access.addFilter(no_hits)
    try:
        _ask(client)
    finally:
        access.removeFilter(no_hits)
    assert [line.get("cache") for line in written()] == ["miss", None]


def test_nothing_is_written_above_info(make_app, written):
    client = make_app(LOG_LEVEL="WARNING").test_client()
    _ask(client)
    assert written() == []


def test_a_failed_write_is_reported_by_logging_not_raised(capsys):
    logger = logging.getLogger("service.access.test")
    logger.propagate = False
    handler = logging.StreamHandler(io.StringIO())
    handler.setFormatter(JsonFormatter())
    handler.stream.close()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        AccessLog("service.access.test")("POST", "/x", 200, request_id="r", game=None, cache=None, started=0.0)
    finally:
        logger.removeHandler(handler)
    assert "Logging error" in capsys.readouterr().err
