"""Fixtures for the hostile tests: apps with warnings logged (rate limit off, in-process cache), a real redis-server with a password
(a missing redis-server fails the test, never skips it), and a summary of the measured request times."""
from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any, Callable

import pytest
from flask import Flask

from service.api import create_app
from tests.conftest import TEST_SETTINGS

from .helpers import REPORTS, TIMINGS, bench_module, fresh_state


@pytest.fixture(scope="session")
def make_app() -> Callable[..., Flask]:
    """The root conftest's test settings, with warnings kept in the logs (the leak tests read them); the root's
    `app` and `client` are made with it."""
    def make(**overrides: Any) -> Flask:
        return create_app({**TEST_SETTINGS, "LOG_LEVEL": "WARNING", **overrides})

    return make


@pytest.fixture
def state() -> dict:
    return fresh_state(42)


@pytest.fixture
def redis_server(tmp_path: Path):
    """A real redis-server with a password on a free loopback port, killed at the end."""
    faults = bench_module("faults")
    try:
        server = faults.RedisServer(tmp_path).start()
    except RuntimeError as error:
        pytest.fail(f"redis-server is needed (apt-get install -y redis-server): {error}", pytrace=False)
    yield server
    server.kill()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    for report in REPORTS:
        terminalreporter.write_sep("-", report.splitlines()[0])
        for line in report.splitlines()[1:]:
            terminalreporter.write_line(line)
    if not TIMINGS:
        return
    seconds = [t for _, t in TIMINGS]
    terminalreporter.write_sep("-", f"hostile requests: {len(TIMINGS)} timed, median "
                                    f"{statistics.median(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms")
    for label, elapsed in sorted(TIMINGS, key=lambda item: -item[1])[:15]:
        terminalreporter.write_line(f"  {elapsed * 1000:8.1f} ms  {label}")
