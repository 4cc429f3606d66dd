"""Schemathesis against the contract (openapi.yaml as the app serves it), every operation, every check.

For each operation: schemathesis' coverage phase (deterministic boundary and type-confusion cases from every
keyword of the schema, valid and invalid), its examples, then `--examples` hypothesis-generated cases (valid and
invalid). Every answer is checked with all of schemathesis' checks; nothing stops at the first failure: every
failure is recorded, the run goes on, and the report lists them. Requests go straight into the WSGI app (no
server); a counting WSGI middleware sees every request the app gets, whatever schemathesis sends, and its status.

    python bench/fuzz.py                 # coverage + 300 generated cases per operation: ~15 000 requests, ~5 min
    python bench/fuzz.py --quick         # coverage + 5 per operation (what tests/hostile runs): ~10 000, ~1 min
    python bench/fuzz.py --examples 2000 --seed 7 --json /tmp/fuzz.json
    python bench/fuzz.py --states 2000   # ... then tests/hostile/test_state_fuzz.py, 2000 random states per kind

Exit status 0 when no answer was a 5xx and every failure is one of KNOWN_BUGS below (each reproduced by a strict
xfail in tests/api, so its fix shows). The report (--json) has the counts by operation and status, the
failures, the tolerated known bugs and the time taken.

The file is also the pytest module that does the work: `main()` runs pytest on this file with the settings in
environment variables (FUZZ_*), as schemathesis' coverage phase is reached through its pytest integration.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ENV_EXAMPLES, ENV_REPORT, ENV_SEED, ENV_COVERAGE, ENV_SHARD = ("FUZZ_EXAMPLES", "FUZZ_REPORT", "FUZZ_SEED",
                                                               "FUZZ_COVERAGE", "FUZZ_SHARD")


# ---------------------------------------------------------------- known bugs, tolerated in their precise shape

# Each entry: name -> predicate(case, response, failure), for a bug reproduced by a strict xfail in tests/api.
# None is open.
KNOWN_BUGS: dict = {}


def known_bug(case, response, failure) -> str | None:
    for name, matches in KNOWN_BUGS.items():
        if matches(case, response, failure):
            return name
    return None


# ---------------------------------------------------------------- the pytest module (collected when FUZZ_REPORT is set)

if os.environ.get(ENV_REPORT):
    import schemathesis
    from hypothesis import HealthCheck, Phase, settings
    from schemathesis import GenerationMode
    from schemathesis.config import PositiveDataAcceptanceConfig
    from schemathesis.core.failures import FailureGroup

    from service.api import create_app
    from service.api.config import HEAVY_CLIENT_RATE_LIMIT

    EXAMPLES = int(os.environ.get(ENV_EXAMPLES, "5"))
    SEED = os.environ.get(ENV_SEED)
    REPORT = Path(os.environ[ENV_REPORT])
    STARTED = time.perf_counter()

    app = create_app({"TESTING": True, "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "LOG_LEVEL": "CRITICAL",
                      "REDIS_URL": ""})
    STATS: dict = {"requests": 0, "by_status": collections.Counter(), "by_operation": collections.Counter(),
                   "failures": [], "tolerated": collections.Counter(), "server_errors": [], "slowest_ms": 0.0}
    _wsgi = app.wsgi_app

    def counting_wsgi(environ, start_response):
        """Every request the app gets, with its status (schemathesis may send several per case)."""
        def record(status, headers, exc_info=None):
            STATS["by_status"][status.split()[0]] += 1
            return start_response(status, headers, exc_info)

        STATS["requests"] += 1
        started = time.perf_counter()
        try:
            return _wsgi(environ, record)
        finally:
            STATS["slowest_ms"] = max(STATS["slowest_ms"], (time.perf_counter() - started) * 1000)

    app.wsgi_app = counting_wsgi

    schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app)
    SHARD, SHARDS = (int(n) for n in os.environ.get(ENV_SHARD, "0/1").split("/"))
    if SHARDS > 1:  # every SHARDS-th operation (by label), so that parallel runs share the work
        LABELS = sorted(result.ok().label for result in schema.get_all_operations())
        schema = schema.include(name=LABELS[SHARD::SHARDS])
    schema.config.generation.update(modes=list(GenerationMode), max_examples=EXAMPLES)
    schema.config.phases.coverage.enabled = os.environ.get(ENV_COVERAGE, "1") == "1"
    # The contract: a schema-valid request may still be refused with 422 (an impossible state: conservation and the
    # like cannot be written in JSON Schema) or 400 (the game's own document checks are finer than the schema).
    # Never 404, 405, 413 or 415 for valid data.
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=["2xx", "400", "422"])

    def _write_report() -> None:
        report = {**STATS, "by_status": dict(STATS["by_status"]), "by_operation": dict(STATS["by_operation"]),
                  "tolerated": dict(STATS["tolerated"]), "examples_per_operation": EXAMPLES,
                  "operations": sorted(result.ok().label for result in schema.get_all_operations()),
                  "seconds": round(time.perf_counter() - STARTED, 1)}
        REPORT.write_text(json.dumps(report, indent=1))

    hypothesis_settings = settings(max_examples=EXAMPLES, deadline=None, database=None,
                                   derandomize=SEED is None, suppress_health_check=list(HealthCheck),
                                   phases=[Phase.explicit, Phase.generate])

    @schema.parametrize()
    @hypothesis_settings
    def test_operation(case):
        before = STATS["requests"]
        response = case.call()
        STATS["by_operation"][case.operation.label] += STATS["requests"] - before
        if response.status_code >= 500:
            STATS["server_errors"].append({"operation": case.operation.label, "status": response.status_code,
                                           "curl": case.as_curl_command(), "body": response.text[:500]})
        try:
            case.validate_response(response)
        except FailureGroup as group:
            for failure in group.exceptions:
                name = known_bug(case, response, failure)
                if name:
                    STATS["tolerated"][name] += 1
                else:
                    STATS["failures"].append({"operation": case.operation.label, "check": type(failure).__name__,
                                              "status": response.status_code, "message": str(failure)[:600],
                                              "curl": case.as_curl_command()[:2000]})
        _write_report()  # after every case: a crash or a timeout still leaves the figures so far

    if SEED is not None:
        import hypothesis

        test_operation = hypothesis.seed(int(SEED))(test_operation)


# ---------------------------------------------------------------- the command

def run(examples: int, report: Path, *, seed: int | None = None, coverage: bool = True, shards: int = 2,
        timeout: float | None = None) -> dict:
    """Runs pytest on this file in `shards` child processes side by side (each on every shards-th operation);
    returns their reports merged."""
    env = {**os.environ, ENV_EXAMPLES: str(examples), ENV_COVERAGE: "1" if coverage else "0"}
    env.pop("PYTEST_XDIST_WORKER", None)
    if seed is not None:
        env[ENV_SEED] = str(seed)
    command = [sys.executable, "-m", "pytest", str(Path(__file__).resolve()), "-q", "-p", "no:cacheprovider",
               "-p", "no:xdist", "-p", "no:randomly", "-o", "addopts=", "--import-mode=importlib",
               "--rootdir", str(ROOT), "-W", "ignore"]
    started = time.perf_counter()
    children = []
    for shard in range(shards):
        path = report.with_name(f"{report.stem}.shard{shard}.json")
        path.unlink(missing_ok=True)
        out = tempfile.TemporaryFile(mode="w+")
        child = subprocess.Popen(command, cwd=ROOT, env={**env, ENV_REPORT: str(path), ENV_SHARD: f"{shard}/{shards}"},
                                 stdout=out, stderr=subprocess.STDOUT, text=True)
        children.append((child, path, out))
    merged: dict = {"requests": 0, "by_status": collections.Counter(), "by_operation": {}, "failures": [],
                    "tolerated": collections.Counter(), "server_errors": [], "slowest_ms": 0.0, "operations": [],
                    "examples_per_operation": examples, "pytest_exit": 0, "pytest_tail": "", "shards": shards}
    for child, path, out in children:
        try:
            code = child.wait(timeout=None if timeout is None else max(1.0, timeout - (time.perf_counter() - started)))
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
        out.seek(0)
        tail = out.read()[-1500:]
        out.close()
        if not path.exists():
            raise RuntimeError(f"a fuzz shard wrote no report (exit {code}):\n{tail}")
        part = json.loads(path.read_text())
        path.unlink()
        merged["requests"] += part["requests"]
        merged["by_status"].update(part["by_status"])
        merged["by_operation"].update(part["by_operation"])
        merged["tolerated"].update(part["tolerated"])
        merged["failures"] += part["failures"]
        merged["server_errors"] += part["server_errors"]
        merged["operations"] += part["operations"]
        merged["slowest_ms"] = max(merged["slowest_ms"], part["slowest_ms"])
        merged["pytest_exit"] = max(merged["pytest_exit"], code)
        merged["pytest_tail"] += tail
    merged.update(by_status=dict(merged["by_status"]), tolerated=dict(merged["tolerated"]),
                  seconds=round(time.perf_counter() - started, 1))
    report.write_text(json.dumps(merged, indent=1))
    return merged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="coverage + 5 generated cases per operation")
    parser.add_argument("--examples", type=int, default=300, help="generated cases per operation (default 300)")
    parser.add_argument("--seed", type=int, help="hypothesis seed (default: derandomized, reproducible)")
    parser.add_argument("--no-coverage", action="store_true", help="skip schemathesis' coverage phase")
    parser.add_argument("--shards", type=int, default=2, help="child processes side by side (default 2)")
    parser.add_argument("--states", type=int, metavar="N",
                        help="also run the random-state fuzz of tests/hostile/test_state_fuzz.py with N examples per "
                             "kind and a new seed")
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args(argv)
    examples = 5 if args.quick else args.examples
    with tempfile.TemporaryDirectory() as tmp:
        report = run(examples, args.json or Path(tmp) / "fuzz.json", seed=args.seed, coverage=not args.no_coverage,
                     shards=args.shards)
    print(f"{report['requests']} requests in {report['seconds']} s ({examples} generated per operation"
          f"{'' if args.no_coverage else ' + coverage phase'}); slowest answer {report['slowest_ms']:.0f} ms")
    print("by status:", dict(sorted(report["by_status"].items())))
    for label, count in sorted(report["by_operation"].items()):
        print(f"  {label:45s} {count:6d}")
    print("tolerated known bugs:", report["tolerated"] or "none")
    for failure in report["failures"][:20]:
        print(f"FAILURE {failure['operation']} {failure['check']} ({failure['status']}): "
              f"{failure['message'][:300]}\n  {failure['curl'][:300]}")
    for error in report["server_errors"][:20]:
        print(f"5xx {error['operation']} {error['status']}: {error['body'][:200]}\n  {error['curl'][:300]}")
    ok = not report["failures"] and not report["server_errors"] and report["pytest_exit"] == 0
    print("OK" if ok else f"NOT OK: {len(report['failures'])} failures, {len(report['server_errors'])} 5xx")
    if args.states:
        started = time.perf_counter()
        env = {**os.environ, "HOSTILE_STATE_EXAMPLES": str(args.states), "HOSTILE_STATE_RANDOM": "1"}
        done = subprocess.run([sys.executable, "-m", "pytest", "tests/hostile/test_state_fuzz.py", "-q",
                               "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts="], cwd=ROOT, env=env)
        print(f"random states: {args.states} per kind, {time.perf_counter() - started:.0f} s, "
              f"{'OK' if done.returncode == 0 else 'NOT OK'}")
        ok = ok and done.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
