"""Shared fixtures: the hypothesis profiles, and the app and a client with the deployed settings (tests/settings.py
names the three the suite changes), one per test module. A folder's own conftest.py may narrow them: tests/hostile keeps
the warnings in its logs, tests/api builds an app per test, with settings from `app_config` markers."""
import os
from typing import Any, Callable

import pytest
from flask import Flask
from hypothesis import HealthCheck, settings

from service.api import create_app
from tests.settings import AS_DEPLOYED
from tests.wall_clock import stop_the_limiter_s_clock

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

TEST_SETTINGS: dict[str, Any] = AS_DEPLOYED


@pytest.fixture(scope="session")
def make_app() -> Callable[..., Flask]:
    """create_app with the deployed settings plus overrides."""

    def make(**overrides: Any) -> Flask:
        return create_app({**TEST_SETTINGS, **overrides})

    return make


@pytest.fixture(scope="module")
def app(make_app: Callable[..., Flask]) -> Flask:
    """One app per module (building one takes a third of a second); it keeps nothing between requests but its
    cache."""
    return make_app()


@pytest.fixture(scope="module")
def client(app: Flask):
    return app.test_client()


@pytest.fixture(autouse=True)
def _limiter_clock_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """No rate-limit period turns over during a test (tests/wall_clock.py)."""
    stop_the_limiter_s_clock(monkeypatch)
