"""CPU per request over real HTTP, servers measured in turn on the same bodies: fine enough to tell a few per cent
apart, where bench/service.py's loaded runs swing by ±15 % on a shared 2-core machine.

Servers, each gunicorn with the project's deploy/gunicorn.conf.py, one worker (WEB_CONCURRENCY=1, no recycling:
GUNICORN_MAX_REQUESTS=0), otherwise the deployed settings as bench/service.py's servers have them (the rate
limiter counting every request, never refusing), LOG_LEVEL as deployed (INFO), its own PROMETHEUS_MULTIPROC_DIR:

    floor     bench/floor_app.py, answering as many bytes as the service answers each body (as in service.py)
    service   the service, CACHE_MAX_ENTRIES=0: every answer computed
    overhead  (--overhead) bench/overhead_app.py: the service with each body's answer kept once computed, so what
              is left is everything but the game (parse, cache key, metrics, access line, response, gunicorn)
    ref       (--ref DIR) the service as another checkout has it (a `git worktree add` of an older commit), with
              the same settings: before and after, side by side

Bodies as bench/service.py samples them (its `sample_bodies`: seeded random games, states drawn uniformly). A round
sends every body of a scenario once to each server in turn (the order rotating from round to round), one request
after another on a keep-alive connection, and reads the worker's CPU time from /proc/<pid>/task/*/schedstat
(nanoseconds, every thread) before and after. Figures: the median over rounds of CPU µs per request, and the
median of the per-round ratios (floor ÷ server, higher is better, as service.py's CPU column; ref ÷ service for a
before and after). One request at a time, the client on the same cores: the absolute figures are higher than under
wrk's load; the ratios are what this is for.

    python bench/paired.py                                        # every game and variant, ~6 min
    python bench/paired.py --game sangimignano --scenarios apply --rounds 40 --overhead
    python bench/paired.py --ref /tmp/before --game carcassonne   # this checkout beside another
    python bench/paired.py --ref /tmp/before --ref-env RATE_LIMIT= # ... the other with a setting of its own

Nothing is asserted: the tables go to RESULTS.md.
"""
from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import service as bench_service  # noqa: E402  (its cases, bodies and helpers; ROOT first on the path)

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
JSON = {"Content-Type": "application/json"}


@dataclass
class Server(bench_service.Server):
    """bench/service.py's server with one worker and no recycling, asked one request at a time on a keep-alive
    connection, its CPU read from the worker's threads."""

    worker: int = 0
    connection: http.client.HTTPConnection | None = None

    def wait_ready(self, timeout: float = 60) -> None:  # type: ignore[override]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:  # type: ignore[union-attr]
                raise SystemExit(f"{self.name}: gunicorn exited ({self.process.returncode}); log:\n"  # type: ignore[union-attr]
                                 f"{self.log_tail()}")
            workers = self.workers()
            if workers:
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                    connection.request("GET", "/healthz")
                    connection.getresponse().read()
                    self.worker, self.connection = workers[0], connection
                    return
                except OSError:
                    pass
            time.sleep(0.1)
        raise SystemExit(f"{self.name}: not ready after {timeout:.0f} s; log:\n{self.log_tail()}")

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        connection = self.connection
        assert connection is not None
        try:
            connection.request("POST", path, body=body, headers=JSON)
            response = connection.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # the server closed the connection while it was idle (gunicorn's keepalive, 5 s: while the next case's
            # bodies were made): a client opens another, as any does
            connection.close()
            connection = self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            connection.request("POST", path, body=body, headers=JSON)
            response = connection.getresponse()
        answer = response.read()
        if response.getheader("Connection", "").lower() == "close":  # keepalive_requests reached
            connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        return response.status, answer

    def cpu_seconds(self) -> float:
        """The worker's CPU time so far, every thread, from the scheduler's nanosecond counters."""
        total = 0
        tasks = Path(f"/proc/{self.worker}/task")
        for task in tasks.iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):
                pass  # a thread that ended between the listing and the read
        return total / 1e9


# what every server here runs with, beside bench/service.py's settings: one worker, every answer computed, no Redis
ONE_WORKER = {"WEB_CONCURRENCY": "1", "CACHE_MAX_ENTRIES": "0", "REDIS_URL": None, "CACHE_MIN_COMPUTE_MS": None}


def requests_for(server: Server, case, scenario: str, bodies: list[bytes], sizes: list[int]) -> list[tuple]:
    if server.name == "floor":
        return [(f"/echo?bytes={size}", body) for body, size in zip(bodies, sizes)]
    return [(f"{case.base_path}/{scenario}", body) for body in bodies]


def one_pass(server: Server, requests: list[tuple]) -> float:
    """CPU µs per request of one pass over the requests."""
    started = server.cpu_seconds()
    for path, body in requests:
        status, _ = server.post(path, body)
        if status != 200:
            raise SystemExit(f"{server.name} {path}: {status}")
    return (server.cpu_seconds() - started) / len(requests) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", help="comma-separated game ids (default: all)")
    parser.add_argument("--variant", help="comma-separated variant names, `base` for none (default: all)")
    parser.add_argument("--scenarios", default="apply,legal-moves,score", help="default apply,legal-moves,score")
    parser.add_argument("--bodies", type=int, default=300, help="random games per case (default 300)")
    parser.add_argument("--rounds", type=int, default=10, help="passes over the bodies per server (default 10)")
    parser.add_argument("--overhead", action="store_true", help="add the service without the game's work")
    parser.add_argument("--ref", type=Path, help="a checkout of the service to measure beside this one")
    parser.add_argument("--ref-env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the ref server alone (repeatable), e.g. RATE_LIMIT= for an older build "
                        "whose limiter was another path")
    parser.add_argument("--log-level", default="INFO", help="the service's LOG_LEVEL (default INFO, as deployed)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    scenarios = tuple(s.strip() for s in args.scenarios.split(",") if s.strip())
    cases = bench_service.chosen_cases(args.game, args.variant)

    workdir = Path(tempfile.mkdtemp(prefix="bench-paired-"))
    apps = [("floor", "bench.floor_app:app", ROOT), ("service", "service.api:create_app()", ROOT)]
    if args.overhead:
        apps.append(("overhead", "bench.overhead_app:create_app()", ROOT))
    if args.ref:
        apps.append(("ref", "service.api:create_app()", args.ref.resolve()))
    ref_env = dict(item.split("=", 1) for item in args.ref_env)
    servers = [Server(name, app, {**ONE_WORKER, **(ref_env if name == "ref" else {})}, workdir, cwd=cwd)
               for name, app, cwd in apps]
    print(f"machine: {bench_service.machine_line()}")
    print(f"servers: {', '.join(s.name for s in servers)}; one gunicorn worker each, {GUNICORN_CONF.relative_to(ROOT)}"
          f", the deployed settings with RATE_LIMIT={bench_service.HEAVY_CLIENT_RATE_LIMIT!r} (counted, never refused)"
          f", CACHE_MAX_ENTRIES=0, LOG_LEVEL={args.log_level}"
          + (f"; ref: {', '.join(f'{k}={v!r}' for k, v in ref_env.items())}" if ref_env else "")
          + f"; {args.rounds} rounds over {args.bodies} games' bodies a case", flush=True)
    rows = []
    try:
        for server in servers:
            server.start(args.log_level, max_requests=0)
        for server in servers:
            server.wait_ready()
        for case in cases:
            bodies = bench_service.sample_bodies(case, args.bodies, args.seed, scenarios)
            for scenario in scenarios:
                service = servers[1]
                sizes = [len(service.post(f"{case.base_path}/{scenario}", body)[1]) for body in bodies[scenario]]
                requests = {s.name: requests_for(s, case, scenario, bodies[scenario], sizes) for s in servers}
                for server in servers:  # warm: each server's first pass is not counted
                    one_pass(server, requests[server.name])
                cpu: dict[str, list[float]] = {s.name: [] for s in servers}
                for round_ in range(args.rounds):
                    for server in servers[round_ % len(servers):] + servers[:round_ % len(servers)]:
                        cpu[server.name].append(one_pass(server, requests[server.name]))
                row = {"case": case.name, "scenario": scenario,
                       **{name: statistics.median(values) for name, values in cpu.items()},
                       **{f"floor/{name}": statistics.median(f / v for f, v in zip(cpu["floor"], values))
                          for name, values in cpu.items() if name != "floor"}}
                if "ref" in cpu:
                    row["ref/service"] = statistics.median(r / s for r, s in zip(cpu["ref"], cpu["service"]))
                if "overhead" in cpu:
                    row["game"] = statistics.median(s - o for s, o in zip(cpu["service"], cpu["overhead"]))
                rows.append(row)
                print("  ".join([f"{case.name:26} {scenario:12}",
                                 *(f"{s.name} {row[s.name]:5.0f} µs" for s in servers),
                                 *(f"floor÷{s.name} {row['floor/' + s.name]:.3f}" for s in servers[1:]),
                                 *([f"ref÷service {row['ref/service']:.3f}"] if "ref" in cpu else []),
                                 *([f"game {row['game']:4.0f} µs"] if "overhead" in cpu else [])]), flush=True)
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
