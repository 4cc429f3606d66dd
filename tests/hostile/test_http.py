"""Hostile HTTP over a real socket, against gunicorn with the project's config (deploy/gunicorn.conf.py, two
workers): oversized and malformed bodies in both framings (Content-Length and chunked), lying lengths, over-long
request lines and headers, garbage. Each is answered quickly with a 4xx (problem+json whenever the app answers;
gunicorn's own plain answer when the request never reaches it), and afterwards the same two workers are alive,
nothing was logged as a traceback, and a normal request succeeds."""
from __future__ import annotations

import json
import socket
import time

import pytest

from .helpers import PROBLEM_JSON, HANG_SECONDS, TIMINGS, assert_no_internals, bench_module
from service.api.config import HEAVY_CLIENT_RATE_LIMIT

NEW = b"POST /v1/games/torri/new HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
TEN_MB = 10 * 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    faults = bench_module("faults")
    gunicorn = faults.Gunicorn(tmp_path_factory.mktemp("gunicorn-http"), {"REDIS_URL": "", "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT})
    gunicorn.start()
    workers = sorted(gunicorn.workers())
    yield gunicorn
    try:
        assert sorted(gunicorn.workers()) == workers, "a worker died or was replaced during the hostile requests"
        log = gunicorn.log()
        assert "Traceback" not in log and "WORKER TIMEOUT" not in log, log[-3000:]
    finally:
        gunicorn.stop()


def exchange(server, label: str, head: bytes, chunks: list[bytes] = (), half_close: bool = False,
             limit: float = HANG_SECONDS) -> tuple[int, dict, bytes]:
    """Sends raw bytes; returns (status, headers, body) of the first answer, timed."""
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head)
        for chunk in chunks:
            try:
                sock.sendall(chunk)
            except OSError:  # the server answered early and closed: the answer is what counts
                break
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
            try:
                more = sock.recv(65536)
            except OSError:
                break
            if not more:
                break
            data += more
    elapsed = time.perf_counter() - started
    TIMINGS.append((f"HTTP {label}", elapsed))
    assert elapsed < limit, f"{label}: {elapsed:.2f} s"
    head_text, _, body = data.partition(b"\r\n\r\n")
    lines = head_text.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body[:_length(data)] if _length(data) else body


def _length(data: bytes) -> int:
    head = data.split(b"\r\n\r\n", 1)[0].lower()
    for line in head.split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


def assert_app_problem(status: int, headers: dict, body: bytes, expected: int, pointer: str = "") -> None:
    assert status == expected, (status, body[:300])
    assert headers["content-type"] == PROBLEM_JSON, headers
    problem = json.loads(body)
    assert problem["status"] == expected and problem["errors"] and problem["errors"][0]["pointer"] == pointer
    assert_no_internals(body.decode(), f"HTTP {expected}")


def test_ten_megabytes_with_content_length(server):
    status, headers, body = exchange(server, "10 MB, Content-Length", NEW + b"Content-Length: %d\r\n\r\n" % TEN_MB,
                                     [b" " * 65536] * 160)
    assert_app_problem(status, headers, body, 413)


def test_ten_megabytes_chunked(server):
    chunks = [b"10000\r\n" + b" " * 65536 + b"\r\n"] * 160 + [b"0\r\n\r\n"]
    status, headers, body = exchange(server, "10 MB, chunked", NEW + b"Transfer-Encoding: chunked\r\n\r\n", chunks)
    assert_app_problem(status, headers, body, 413)


def test_a_small_chunked_body_is_answered(server):
    body = b'{"seed": 1}'
    chunks = [b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)]
    status, headers, answer = exchange(server, "small chunked body", NEW + b"Transfer-Encoding: chunked\r\n\r\n",
                                       chunks)
    assert status == 200 and json.loads(answer)["seed"] == 1


def test_content_length_far_over_the_limit_with_no_body(server):
    status, headers, body = exchange(server, "Content-Length 10**11, no body",
                                     NEW + b"Content-Length: 99999999999\r\n\r\n{}", half_close=True)
    assert_app_problem(status, headers, body, 413)


@pytest.mark.parametrize("chunk", [b"zz\r\nabc\r\n0\r\n\r\n", b"3\r\nabcdef\r\n0\r\n\r\n", b"-1\r\nx\r\n0\r\n\r\n"],
                         ids=["size-not-hex", "size-too-small", "size-negative"])
def test_malformed_chunked_body(server, chunk):
    status, headers, body = exchange(server, f"malformed chunk {chunk[:8]!r}",
                                     NEW + b"Transfer-Encoding: chunked\r\n\r\n", [chunk])
    assert_app_problem(status, headers, body, 400)


def test_body_shorter_than_its_content_length(server):
    """The client stops sending: the answer comes at once, not after a timeout."""
    status, headers, body = exchange(server, "body shorter than Content-Length",
                                     NEW + b"Content-Length: 100\r\n\r\n{\"seed\": ", half_close=True)
    assert_app_problem(status, headers, body, 400)


@pytest.mark.parametrize("label, request_bytes, expected", [
    ("negative Content-Length", NEW + b"Content-Length: -1\r\n\r\n{}", 400),
    ("request line of 5000 bytes", b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    ("101 headers", b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(101))
     + b"\r\n", 431),
    ("a 10 KB header", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 10_000 + b"\r\n\r\n", 431),
    ("garbage", b"GARBAGE\r\n\r\n", 400),
    ("NUL in the path", b"GET /he\x00althz HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("two Content-Lengths", NEW + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400),
    ("chunked and Content-Length", NEW + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}", 400),
])
def test_malformed_http_is_refused_by_gunicorn(server, label, request_bytes, expected):
    status, headers, body = exchange(server, label, request_bytes, half_close=True)
    assert status == expected, (status, body[:300])
    assert_no_internals(body.decode("latin-1"), label)


def test_normal_requests_still_succeed(server):
    status, _, body = exchange(server, "normal request", NEW + b"Content-Length: 11\r\nConnection: close\r\n\r\n"
                                                         b'{"seed": 1}')
    assert status == 200 and json.loads(body)["seed"] == 1
    status, _, body = exchange(server, "healthz", b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 200 and json.loads(body)["status"] == "ok"
