"""The settings the suite's apps run with: the deployed ones (Settings' defaults, which deploy/k8s/configmap.yaml
spells out), but for three that a test suite cannot share with a deployment, each named here:
- RATE_LIMIT: the suite is one client sending thousands of requests a minute; the limiter counts every one of
  them, the same code at the same cost, at a rate it never refuses (the tests of the limit set their own);
- REDIS_URL: never the environment's Redis: the in-process cache (tests/cache starts a real redis-server);
- LOG_LEVEL: WARNING, not INFO: the access lines would only fill the captured output (tests/api/test_access_log.py
  checks them at INFO).
"""
from __future__ import annotations

from typing import Any

from service.api.config import HEAVY_CLIENT_RATE_LIMIT

AS_DEPLOYED: dict[str, Any] = {"TESTING": True, "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "REDIS_URL": "",
                               "LOG_LEVEL": "WARNING"}
