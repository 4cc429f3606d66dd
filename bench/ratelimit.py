"""What the rate limit costs a request: the limiter's count alone, in each place it can keep it, and a whole
request through the service with the limit and without it.

    python bench/ratelimit.py                 # about a minute; needs redis-server for the Redis rows
    python bench/ratelimit.py --calls 50000

The count alone (`RateLimiter.hit`, the service's call for every request but the probes): CPU µs a call, best of
`--rounds`, for
    host      the host's shared-memory table (the default without Redis: every worker of a server)
    memory    the `limits` library's memory storage (`RATE_LIMIT_STORAGE=memory://`: each worker alone)
    redis     the `limits` library's Redis storage, on a redis-server this script starts on a loopback port (the
              default with REDIS_URL: every worker and replica); wall µs too, since most of it waits on the socket
A whole request: a cache hit of a Torri /legal-moves through the test client (the cheapest answer the service
gives, where the limiter's share is largest), the app with RATE_LIMIT as deployed (counted in the host's table)
and with RATE_LIMIT off, in turn. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.cache import RedisProcess  # noqa: E402
from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT  # noqa: E402
from service.api.ratelimit import RateLimiter  # noqa: E402
from service.games import torri  # noqa: E402


def per_call(call, calls: int, rounds: int) -> tuple[float, float]:
    """(CPU µs, wall µs) a call, each the best of the rounds."""
    cpu = wall = float("inf")
    for _ in range(rounds):
        started, started_wall = time.process_time(), time.perf_counter()
        for i in range(calls):
            call(i)
        cpu = min(cpu, (time.process_time() - started) / calls * 1e6)
        wall = min(wall, (time.perf_counter() - started_wall) / calls * 1e6)
    return cpu, wall


def limiter(storage: str, redis_url: str = "") -> RateLimiter:
    settings = SimpleNamespace(RATE_LIMIT=HEAVY_CLIENT_RATE_LIMIT, RATE_LIMIT_STORAGE=storage, REDIS_URL=redis_url,
                               REDIS_CLUSTER=False)
    made = RateLimiter.from_settings(settings)
    assert made is not None
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20000, help="calls a round (default 20000)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    clients = [f"198.51.100.{i % 200}" for i in range(args.calls)]  # 200 clients, as a busy server sees them
    print(f"python {sys.version.split()[0]}; RATE_LIMIT={HEAVY_CLIENT_RATE_LIMIT!r}; {args.calls} calls a round, "
          f"best of {args.rounds}")
    print(f"{'count kept in':32} {'CPU µs/call':>12} {'wall µs/call':>13}")
    rows = [("host (shared memory)", limiter("")), ("memory:// (limits, a worker)", limiter("memory://"))]
    redis = RedisProcess()
    try:
        rows.append((f"redis (limits, redis-server {redis.version})", limiter("", redis.url)))
        for name, made in rows:
            assert made.hit("warm-up").allowed
            cpu, wall = per_call(lambda i, made=made: made.hit(clients[i]), args.calls, args.rounds)
            print(f"{name:32} {cpu:>12.1f} {wall:>13.1f}", flush=True)
    finally:
        redis.close()

    state = torri.state_json(torri.new_game(7))
    apps = {"RATE_LIMIT as deployed (host table)": create_app(
                {"TESTING": True, "REDIS_URL": "", "LOG_LEVEL": "ERROR", "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT}),
            "RATE_LIMIT off": create_app({"TESTING": True, "REDIS_URL": "", "LOG_LEVEL": "ERROR", "RATE_LIMIT": ""})}
    clients_of = {name: app.test_client() for name, app in apps.items()}
    for client in clients_of.values():
        assert client.post("/v1/games/torri/legal-moves", json={"state": state}).status_code == 200
    calls = max(1, args.calls // 10)
    figures: dict[str, float] = {name: float("inf") for name in apps}
    for _ in range(2):  # in turn, so both see the same machine
        for name, client in clients_of.items():
            def request(i: int, client=client) -> None:
                assert client.post("/v1/games/torri/legal-moves", json={"state": state}).headers["X-Cache"] == "hit"
            figures[name] = min(figures[name], per_call(request, calls, args.rounds)[0])
    print(f"\n{'a cache hit of /legal-moves':40} {'CPU µs/request':>15}")
    for name, figure in figures.items():
        print(f"{name:40} {figure:>15.1f}")
    limited, free = figures.values()
    print(f"{'the limit’s share':40} {limited - free:>15.1f}  ({(limited - free) / limited:.1%} of the request)")


if __name__ == "__main__":
    main()
