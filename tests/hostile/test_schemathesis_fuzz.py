"""Schemathesis against openapi.yaml, every operation, all checks, at least 5,000 requests (bench/fuzz.py --quick:
the coverage phase's deterministic cases plus 5 generated per operation, in two processes side by side, about a
minute on two cores; the rate limit is off in that app). No answer may be a 5xx, and no check may fail (bench/fuzz.py
KNOWN_BUGS, the failures a run would tolerate in their exact shape, is empty)."""
from __future__ import annotations

import pytest
import yaml

from service.api import create_app

from .helpers import REPORTS, bench_module
from tests.settings import AS_DEPLOYED

MIN_REQUESTS = 5000
TIMEOUT_SECONDS = 600  # a loaded machine; about 80 s on an idle one


@pytest.mark.slow
def test_schemathesis_all_checks_no_5xx(tmp_path):
    fuzz = bench_module("fuzz")
    report = fuzz.run(5, tmp_path / "fuzz.json", shards=2, timeout=TIMEOUT_SECONDS)
    REPORTS.append(f"schemathesis: {report['requests']} requests in {report['seconds']} s, slowest answer "
                   f"{report['slowest_ms']:.0f} ms\nby status: {dict(sorted(report['by_status'].items()))}\n"
                   f"tolerated known bugs: {report['tolerated']}")
    assert not report["server_errors"], report["server_errors"][:5]
    assert not report["failures"], "\n\n".join(f"{f['operation']} {f['check']} ({f['status']}): {f['message']}\n"
                                               f"{f['curl']}" for f in report["failures"][:10])
    assert report["pytest_exit"] == 0, report["pytest_tail"]
    assert report["requests"] >= MIN_REQUESTS, report["requests"]
    assert not any(status.startswith("5") for status in report["by_status"]), report["by_status"]
    client = create_app(AS_DEPLOYED).test_client()
    spec = yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True))
    in_spec = {f"{method.upper()} {path}" for path, item in spec["paths"].items() for method in item
               if method in ("get", "post", "put", "patch", "delete")}
    assert set(report["operations"]) == in_spec
    assert all(report["by_operation"].get(label, 0) >= 1 for label in in_spec), report["by_operation"]
