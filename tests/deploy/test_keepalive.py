"""Keep-alive connections are closed after a bounded number of requests (deploy/gunicorn.conf.py,
GUNICORN_KEEPALIVE_REQUESTS), so that clients reconnect and the listen socket spreads them over the workers again
after one restarts or is recycled (bench/faults.py measures that; bench/FAULTS.md has the figures).

Checked on gunicorn itself, with the project's config: the answers on one connection say `keep-alive` until the
bound's request, which says `Connection: close`, after which the server closes the connection; with the bound off,
a connection serves on."""
from __future__ import annotations

import http.client
import os
import runpy
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from .manifests import GUNICORN_CONF, ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def serve(tmp_path):
    """Start gunicorn with the project's config and the given environment; stopped at the end of the test."""
    started: list[subprocess.Popen] = []

    def start(**env: str) -> int:
        port = free_port()
        runtime = tmp_path / f"run-{port}"
        runtime.mkdir()
        child_env = {**os.environ, "WEB_CONCURRENCY": "1", "BIND": f"127.0.0.1:{port}", "REDIS_URL": "",
                     "RATE_LIMIT": "", "LOG_LEVEL": "WARNING", "PROMETHEUS_MULTIPROC_DIR": str(runtime / "metrics"),
                     "XDG_RUNTIME_DIR": str(runtime), **env}
        log = (tmp_path / f"gunicorn-{port}.log").open("wb")
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONF),
                                    "service.api:create_app()"], cwd=ROOT, env=child_env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        started.append(process)
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / f"gunicorn-{port}.log").read_text(errors="replace")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return port
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not listen within 60 s"
                time.sleep(0.05)

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def answers_on_one_connection(port: int, most: int) -> tuple[list[str], bool]:
    """Send GET /healthz up to `most` times on one connection, one after another; the `Connection` header of each
    answer, and whether the server then closed the connection (end of stream)."""
    said: list[str] = []
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        for _ in range(most):
            try:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: referee\r\n\r\n")
            except OSError:
                return said, True
            response = http.client.HTTPResponse(sock)
            response.begin()
            assert response.status == 200
            response.read()
            said.append((response.getheader("Connection") or "").lower())
            if said[-1] == "close":
                return said, sock.recv(1) == b""
        return said, False


def test_a_keep_alive_connection_is_closed_after_the_bound(serve):
    port = serve(GUNICORN_KEEPALIVE_REQUESTS="4")
    said, closed = answers_on_one_connection(port, 10)
    assert said == ["keep-alive"] * 3 + ["close"] and closed
    again, closed = answers_on_one_connection(port, 10)  # a new connection counts from 1
    assert again == said and closed


def test_without_a_bound_a_keep_alive_connection_serves_on(serve):
    port = serve(GUNICORN_KEEPALIVE_REQUESTS="0")
    said, closed = answers_on_one_connection(port, 12)
    assert said == ["keep-alive"] * 12 and not closed


def _config(env: dict[str, str], tmp_path: Path) -> dict:
    """deploy/gunicorn.conf.py as gunicorn loads it in this environment (it reads os.environ when loaded)."""
    saved = dict(os.environ)
    os.environ.pop("GUNICORN_KEEPALIVE_REQUESTS", None)
    os.environ.update({"PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), **env})
    try:
        return runpy.run_path(str(GUNICORN_CONF))
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.mark.parametrize(("env", "bound"), [({}, 100), ({"GUNICORN_KEEPALIVE_REQUESTS": "7"}, 7),
                                            ({"GUNICORN_KEEPALIVE_REQUESTS": "0"}, None)])
def test_the_bound_defaults_to_100_requests_and_0_turns_it_off(env, bound, tmp_path):
    pre_request = _config(env, tmp_path)["pre_request"]
    worker = SimpleNamespace(log=SimpleNamespace(debug=lambda *args: None))
    closed_at = None
    for number in range(1, 301):
        request = SimpleNamespace(method="GET", path="/healthz", req_number=number, must_close=False)
        pre_request(worker, request)
        if request.must_close:
            closed_at = number
            break
    assert closed_at == bound
