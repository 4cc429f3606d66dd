"""A worker's memory under a stream of distinct large answers: does it level off?

    python bench/memory.py                     # 600 requests to each server, about 4 minutes
    python bench/memory.py --requests 200 --every 25

Two gunicorn servers with the project's config (2 workers, in-process cache, no rate limit), side by side:

    bounded    the defaults: the cache bounded in bytes (CACHE_MAX_BYTES) and answers over CACHE_MAX_VALUE_BYTES
               not kept
    entries    bounded by entries only (CACHE_MAX_ENTRIES=2048, no byte bound), as the cache was before

Each gets the same stream of `/replay` requests of a whole Carcassonne game with The Tower (about 200 steps, an
answer of about 0.75 MB), every one with other player names, so no two share a cache key. The workers' resident
memory (VmRSS from /proc, summed over both) is read every `--every` requests. Nothing is asserted: the table goes to
RESULTS.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import tempfile
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.games import carcassonne  # noqa: E402
from service.games.carcassonne import position  # noqa: E402

# bench/service.py's servers (its file name is the package's, so it is loaded by path)
_spec = importlib.util.spec_from_file_location("bench_service", ROOT / "bench" / "service.py")
bench_service = importlib.util.module_from_spec(_spec)
sys.modules["bench_service"] = bench_service
_spec.loader.exec_module(bench_service)  # type: ignore[union-attr]
Server, post = bench_service.Server, bench_service.post


def whole_game(seed: int = 3) -> tuple[dict, list[dict]]:
    """A Carcassonne game with The Tower, from the deal to its end by a seeded random player: (state, steps)."""
    state = carcassonne.new_game(seed, names=["Ada", "Bea", "Cy"], tower=True)
    start = position.state_json(state)
    rng = random.Random(seed)
    steps = []
    while not state.over:
        move = rng.choice(carcassonne.legal_moves(state))
        state = carcassonne.apply_steps(state, [move]).state
        steps.append(move)
    return start, steps


def rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as handle:
                total += next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=600)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()

    start, steps = whole_game()
    path = "/v1/games/carcassonne/replay"
    workdir = Path(tempfile.mkdtemp(prefix="referee-memory-"))
    app = "service.api:create_app()"
    servers = {
        "bounded": Server("bounded", app, {"GUNICORN_MAX_REQUESTS": "0"}, workdir),
        "entries": Server("entries", app, {"GUNICORN_MAX_REQUESTS": "0", "CACHE_MAX_BYTES": str(10 ** 12),
                                           "CACHE_MAX_VALUE_BYTES": str(10 ** 12)}, workdir),
    }
    first = orjson.dumps({"state": start, "moves": steps})
    try:
        for server in servers.values():
            server.start("WARNING", 0)
            server.wait_ready(path, first)
        answer_bytes = len(post(servers["bounded"].url(path), first, timeout=60)[2])
        print(f"{len(steps)} steps, request {len(first)} B, answer {answer_bytes} B; workers' RSS (MiB, both "
              f"workers):")
        print(f"{'requests':>8}  {'bounded':>8}  {'entries':>8}")
        rows = []
        for i in range(1, args.requests + 1):
            names = [f"Ada {i}", f"Bea {i}", f"Cy {i}"]
            doc = {**start, "players": [{**p, "name": n} for p, n in zip(start["players"], names)]}
            body = orjson.dumps({"state": doc, "moves": steps})
            for server in servers.values():
                status, headers, _ = post(server.url(path), body, timeout=60)
                assert status == 200, status
            if i % args.every == 0 or i == 1:
                row = [i] + [rss_kib(server.workers()) / 1024 for server in servers.values()]
                rows.append(row)
                print(f"{row[0]:>8}  {row[1]:>8.0f}  {row[2]:>8.0f}", flush=True)
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
