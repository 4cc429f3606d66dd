"""Load and faults, short (bench/faults.py, about 20 s): gunicorn with the project's config, two workers, a real
Redis with a password, six keep-alive clients sending a fixed mix of questions whose right answers are known.
Redis is killed (SIGKILL) and restarted, then a worker is killed (SIGKILL): every answer is a 200 with the right
bytes, except the requests the killed worker held at that instant; the worker is replaced; /readyz says degraded
during the outage and redis again once the workers' back-off is over; Redis stores answers again after its restart;
the password is in no log line.

`python bench/faults.py` is the same run, longer (its figures are in bench/FAULTS.md)."""
from __future__ import annotations

from .helpers import REPORTS, bench_module

PHASE_SECONDS = 3.0
CLIENTS = 6


def test_no_failed_request_through_redis_and_worker_deaths(tmp_path):
    faults = bench_module("faults")
    result = faults.run_scenario(PHASE_SECONDS, CLIENTS, workdir=tmp_path, say=lambda text: None)
    REPORTS.append(f"faults: {CLIENTS} clients, {PHASE_SECONDS:g} s per phase\n" + faults.markdown(result))
    assert result.ok, "\n".join(result.problems) + "\n" + faults.markdown(result)
    # load in every phase; how much is the machine's pace (bench/faults.py's own run reports it)
    assert all(stats["requests"] > 0 for stats in result.phases.values()), result.phases
    assert result.kill["in_flight_failures"] <= result.kill["client_connections_on_victim"] + 1, result.kill
    assert result.kill["replaced_after_s"] < 30
