"""What the answer cache buys: the same request computed, served from Redis, and served from the in-process LRU.

Two requests: a cheap one (/apply with one purchase step) and an expensive one (/replay of a 100-step game made of
legal steps from a seed). Each is sent through the Flask test client to three apps, interleaved round by round so
the three are measured side by side under the same conditions:

    computed  no Redis, CACHE_MAX_ENTRIES=0: every request is computed
    redis     REDIS_URL to a redis-server this script starts on a free loopback port: every request is a hit
    memory    no Redis, the in-process LRU: every request is a hit

Run: python bench/cache.py [--rounds 2000] [--replay-rounds 300] [--seed 7]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT
from service.games import torri  # noqa: E402

APPLY = "/v1/games/torri/apply"
REPLAY = "/v1/games/torri/replay"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisProcess:
    def __init__(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not os.access(binary, os.X_OK):
            sys.exit("redis-server is not installed")
        self.dir = tempfile.mkdtemp(prefix="bench-redis-")
        self.port = free_port()
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "no", "--logfile", os.path.join(self.dir, "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    break
            except redis.RedisError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.close()
                    sys.exit("redis-server did not start")
                time.sleep(0.02)
        client.close()
        self.version = redis.Redis(port=self.port).info("server")["redis_version"]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def game_of(steps: int, seed: int) -> tuple[dict, list[dict]]:
    """The deal for `seed` and `steps` legal steps chosen at random among the legal ones (the step chooser is
    seeded from `seed`, then `seed`+1, ... until a game lasts that long)."""
    start = torri.new_game(seed=seed)
    for attempt in range(100):
        rng = random.Random(seed + attempt)
        state, moves = start, []
        while len(moves) < steps:
            legal = torri.legal_steps(state)
            if not legal:
                break
            step = rng.choice(legal)
            moves.append(step.to_json())
            state, _ = torri.apply_step(state, step)
        else:
            return torri.state_json(start), moves
    raise SystemExit(f"no game from seed {seed} lasted {steps} steps")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def measure(clients: dict, path: str, body: bytes, rounds: int, expected: bytes) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {name: [] for name in clients}
    wanted = {"computed": "miss", "redis": "hit", "memory": "hit"}
    for name, client in clients.items():  # warm up: fills the caches, checks every answer
        for _ in range(3):
            response = client.post(path, data=body, content_type="application/json")
            assert response.status_code == 200, (name, response.status_code)
            assert orjson.loads(response.data) == orjson.loads(expected), name
    order = list(clients)
    for index in range(rounds):
        for name in order[index % len(order):] + order[:index % len(order)]:  # rotate who goes first
            client = clients[name]
            started = time.perf_counter_ns()
            response = client.post(path, data=body, content_type="application/json")
            elapsed = time.perf_counter_ns() - started
            if response.status_code != 200 or response.headers.get("X-Cache") != wanted[name]:
                raise SystemExit(f"{name}: {response.status_code} X-Cache={response.headers.get('X-Cache')}")
            timings[name].append(elapsed / 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2000, help="requests per store for /apply")
    parser.add_argument("--replay-rounds", type=int, default=300, help="requests per store for the /replay")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()

    server = RedisProcess()
    try:
        common = {"RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "LOG_LEVEL": "WARNING", "TESTING": True}
        clients = {
            "computed": create_app({**common, "CACHE_MAX_ENTRIES": 0}).test_client(),
            "redis": create_app({**common, "REDIS_URL": server.url}).test_client(),
            "memory": create_app({**common}).test_client(),
        }
        state, moves = game_of(args.steps, args.seed)
        cases = [
            ("/apply, 1 purchase step", APPLY, {"state": state, "moves": [{"type": "purchase"}]}, args.rounds),
            (f"/replay, {len(moves)} steps", REPLAY, {"state": state, "moves": moves}, args.replay_rounds),
        ]
        print(f"python {sys.version.split()[0]}, redis-server {server.version} on 127.0.0.1:{server.port}, "
              f"Flask test client, seed {args.seed}")
        header = f"{'request':<24} {'store':<9} {'n':>5} {'median µs':>10} {'p99 µs':>10} " \
                 f"{'answer B':>9} {'vs computed (median)':>21}"
        print(header)
        print("-" * len(header))
        for label, path, request, rounds in cases:
            body = orjson.dumps(request)
            expected = clients["computed"].post(path, data=body, content_type="application/json").data
            timings = measure(clients, path, body, rounds, expected)
            base = statistics.median(timings["computed"])
            for name, values in timings.items():
                median = statistics.median(values)
                ratio = "1.0x" if name == "computed" else f"{base / median:.1f}x faster"
                print(f"{label:<24} {name:<9} {len(values):>5} {median:>10.0f} {percentile(values, 99):>10.0f} "
                      f"{len(expected):>9} {ratio:>21}")
            print()
    finally:
        server.close()


if __name__ == "__main__":
    main()
