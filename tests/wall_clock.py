"""The rate limiter's clock stopped at the start of a period, for every test (tests/conftest.py).

The host's table (service/api/ratelimit.py) counts in periods of the epoch (whole seconds, minutes, ...): a period
turning over mid-test would slide part of a count out and let through a request that the test expects refused, the
likelier the slower the machine. Stopped, the clock puts every request of a test in one period. The tests of the
window's arithmetic give the time themselves.
"""
from __future__ import annotations

import pytest

from service.api import ratelimit

PERIOD_START = 86_400.0 * 20_000  # midnight UTC, 4 October 2024: the start of a second, a minute, an hour and a day


def stop_the_limiter_s_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratelimit, "clock", lambda: PERIOD_START)
