"""Fixtures in the Flask tutorial's style: `app` from the factory, `client` from the app.

A test that needs other settings marks itself: `@pytest.mark.app_config(RATE_LIMIT="3 per minute")`.
By default the settings are the deployed ones (tests/settings.py names the few the suite changes).
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest
from flask import Flask

from service.api import create_app

from tests.settings import AS_DEPLOYED

from .helpers import fresh_state

DEFAULT_CONFIG: dict[str, Any] = AS_DEPLOYED


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "app_config(**settings): settings for the `app` fixture's create_app")


@pytest.fixture
def make_app() -> Callable[..., Flask]:
    """create_app with the test defaults plus overrides."""

    def make(**overrides: Any) -> Flask:
        return create_app({**DEFAULT_CONFIG, **overrides})

    return make


@pytest.fixture
def app(request: pytest.FixtureRequest, make_app: Callable[..., Flask]) -> Flask:
    overrides: dict[str, Any] = {}
    for marker in reversed(list(request.node.iter_markers("app_config"))):
        overrides.update(marker.kwargs)
    return make_app(**overrides)


@pytest.fixture
def client(app: Flask):
    return app.test_client()


@pytest.fixture
def state() -> dict:
    """A fresh deal (seed 42) in the wire form; each test gets its own copy to mutate."""
    return copy.deepcopy(_STATE_42)


_STATE_42 = fresh_state(42)
