"""A worker's memory: under a stream of distinct large answers (does it level off?), and after 10,000 mixed
requests of every game (how much does it grow?).

    python bench/memory.py                     # large answers: 600 requests to each server, about 4 minutes
    python bench/memory.py --requests 200 --every 25
    python bench/memory.py --mixed             # 10,000 mixed requests to each server, about 6 minutes
    python bench/memory.py --mixed --requests 2000 --every 500

Large answers (the default). Two gunicorn servers with the project's config (2 workers, in-process cache, no rate
limit), side by side:

    bounded    the defaults: the cache bounded in bytes (CACHE_MAX_BYTES) and answers over CACHE_MAX_VALUE_BYTES
               not kept
    entries    bounded by entries only (CACHE_MAX_ENTRIES=2048, no byte bound), as the cache was before

Each gets the same stream of `/replay` requests of a whole Carcassonne game with The Tower (about 200 steps, an
answer of about 0.75 MB), every one with other player names, so no two share a cache key. The workers' resident
memory (VmRSS from /proc, summed over both) is read every `--every` requests.

Mixed (`--mixed`). Two gunicorn servers with the project's config and its default cache settings (in-process LRU
of CACHE_MAX_ENTRIES answers and CACHE_MAX_BYTES per worker; no rate limit), side by side:

    no-recycle  GUNICORN_MAX_REQUESTS=0: workers live for the whole run, so their growth is all there is to see
    default     the config's max_requests, 5000 + up to 500 of jitter per worker: a worker is replaced by a fresh
                fork of the master after that many requests of its own

Each gets the same stream of `--requests` requests over every registered game and variant, from `--clients`
clients at once, each request on a connection of its own (so both workers get their share). A fresh request is
drawn from bodies sampled over seeded random games as bench/service.py samples them (bench/service.py:
game_bodies): a game and variant at random, an endpoint by weight (legal-moves 30, apply 30, validate 10, view 10,
score 10, replay 10), the body of the next unused game of that pair; `--repeats` of the requests (30 % by default)
send again a body sent before, drawn uniformly from all sent so far, so the cache fills with answers it serves
again. Every answer must be a 200. Each worker's VmRSS is read before the first request and after every `--every`
requests, and the growth from the middle of the run to its end is printed per worker.

Both servers run under bench/memory_probe.py (the project's gunicorn settings and a hook): every `--every` / 2
requests of its own, each worker also notes what its allocators hold (Python's live blocks, pymalloc's arenas and
the free blocks in its pools, glibc's heap in use and free, its mmapped blocks), printed per worker at the end, so
that growth of live data can be told from the allocators' slack.

Nothing is asserted: the tables go to RESULTS.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
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
PROBE_CONF = ROOT / "bench" / "memory_probe.py"  # the project's gunicorn settings, and a look at the allocators
ENDPOINT_WEIGHTS = {"legal-moves": 30, "apply": 30, "validate": 10, "view": 10, "score": 10, "replay": 10}


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


def answers_by_worker(server: Server) -> dict[int, int]:
    """The answers each worker (live or gone) gave so far, by pid: the service's referee_adjudications_total
    from the per-process files of Prometheus' multiprocess mode (counter_<pid>.db)."""
    from prometheus_client.mmap_dict import MmapedDict

    answers: dict[int, int] = {}
    for path in (server.workdir / f"{server.name}-metrics").glob("counter_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        answers[pid] = int(sum(value for key, value, *_ in MmapedDict.read_all_values_from_file(str(path))
                               if orjson.loads(key)[1] == "referee_adjudications_total"))
    return answers


def worker_rss_kib(server: Server) -> dict[int, int]:
    """Each live worker's VmRSS, by pid."""
    return {pid: rss_kib([pid]) for pid in sorted(server.workers())}


def mixed_stream(count: int, repeats: float, seed: int) -> tuple[list[tuple[str, bytes]], int]:
    """`count` requests ((path, body)): fresh ones over every game, variant and endpoint, and `repeats` of them
    bodies sent before. Also how many distinct bodies it holds."""
    rng = random.Random(seed)
    cases = bench_service.all_cases()
    endpoints, weights = list(ENDPOINT_WEIGHTS), list(ENDPOINT_WEIGHTS.values())
    fresh_wanted = Counter()  # (case, endpoint) -> fresh bodies needed
    plan: list[tuple[bench_service.Case, str] | None] = []
    for index in range(count):
        if index and rng.random() < repeats:
            plan.append(None)
        else:
            pick = (rng.choice(cases), rng.choices(endpoints, weights)[0])
            fresh_wanted[pick] += 1
            plan.append(pick)
    sampled: dict[tuple, list[bytes]] = {}
    for case in cases:
        games = max([fresh_wanted[case, e] for e in endpoints] + [0]) * 11 // 10 + 5  # a few spare: see below
        bodies = bench_service.sample_bodies(case, games, seed, tuple(endpoints))
        for endpoint in endpoints:
            sampled[case, endpoint] = bodies[endpoint][::-1]  # popped from the end: in the games' order
    stream: list[tuple[str, bytes]] = []
    for pick in plan:
        if pick is None or not sampled[pick]:  # (a body that two short games share is sampled once)
            stream.append(rng.choice(stream))
        else:
            case, endpoint = pick
            stream.append((f"{case.base_path}/{endpoint}", sampled[case, endpoint].pop()))
    return stream, len(set(stream))


def mixed(args: argparse.Namespace) -> None:
    requests, every = args.requests or 10_000, args.every or 1000
    started = time.monotonic()
    stream, distinct = mixed_stream(requests, args.repeats, args.seed)
    by_endpoint = Counter(path.rsplit("/", 1)[1] for path, _ in stream)
    print(f"{requests} requests ({distinct} distinct bodies, {100 * (1 - distinct / requests):.0f} % repeats), over "
          f"{len(bench_service.all_cases())} games and variants; by endpoint: "
          + ", ".join(f"{e} {n}" for e, n in by_endpoint.most_common())
          + f"; bodies sampled in {time.monotonic() - started:.0f} s", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="referee-memory-"))
    app = "service.api:create_app()"
    for name in ("REDIS_URL", "CACHE_MAX_ENTRIES", "CACHE_MAX_BYTES", "CACHE_MAX_VALUE_BYTES", "CACHE_TTL_SECONDS",
                 "GUNICORN_MAX_REQUESTS", "GUNICORN_MAX_REQUESTS_JITTER", "GUNICORN_PRELOAD"):
        os.environ.pop(name, None)  # the config's and the service's defaults
    probes = {name: workdir / f"{name}-probe" for name in ("no-recycle", "default")}
    servers = {name: Server(name, app, {"MEMORY_PROBE_DIR": str(probe), "MEMORY_PROBE_EVERY": str(max(every // 2, 1))},
                            workdir, config=PROBE_CONF) for name, probe in probes.items()}
    for probe in probes.values():
        probe.mkdir()
    recycling = {"no-recycle": 0, "default": None}
    results: dict[str, Counter] = {name: Counter() for name in servers}
    answer_bytes: dict[tuple[str, bytes], int] = {}  # by distinct request
    table: dict[str, list[tuple[int, dict[int, int]]]] = {name: [] for name in servers}

    def send(item: tuple[str, bytes]) -> None:
        path, body = item
        for name, server in servers.items():
            status, headers, answer = post(server.url(path), body, timeout=120)
            if status != 200:
                raise SystemExit(f"{name} {path}: {status} {answer[:300]!r}")
            results[name][headers.get("X-Cache", "none")] += 1
            answer_bytes[item] = len(answer)

    try:
        for name, server in servers.items():
            server.start("INFO", recycling[name])  # as deployed (and gunicorn logs each worker it boots)
        for server in servers.values():
            server.wait_ready("/v1/games", b"")
        for name, server in servers.items():
            table[name].append((0, worker_rss_kib(server)))
        with ThreadPoolExecutor(args.clients) as pool:
            for done in range(0, requests, every):
                list(pool.map(send, stream[done:done + every]))
                for name, server in servers.items():
                    table[name].append((min(done + every, requests), worker_rss_kib(server)))
                print(f"  {min(done + every, requests):>6} requests, {time.monotonic() - started:4.0f} s: " + "; ".join(
                    f"{name} " + " ".join(f"{kib / 1024:.0f}" for kib in table[name][-1][1].values()) + " MiB"
                    for name in servers), flush=True)
        boots = {name: server.worker_boots() for name, server in servers.items()}
        answered = {name: answers_by_worker(server) for name, server in servers.items()}
    finally:
        for server in servers.values():
            server.stop()
    sizes = sorted(answer_bytes.values())
    print(f"\n{len(sizes)} distinct answers, {sum(sizes) / 2 ** 20:.1f} MiB in all: median "
          f"{sizes[len(sizes) // 2]:,} B, mean {sum(sizes) / len(sizes):,.0f} B, largest {sizes[-1]:,} B "
          f"(an LRU holds at most CACHE_MAX_ENTRIES "
          f"2048 and CACHE_MAX_BYTES 16 MiB of them per worker, and none over CACHE_MAX_VALUE_BYTES 1 MiB)\n")
    for name in servers:
        print_memory_table(name, table[name], results[name], boots[name], recycling[name], answered[name])
    for name, probe in probes.items():
        print_allocators(name, probe)


def print_memory_table(name: str, rows: list[tuple[int, dict[int, int]]], caching: Counter, boots: int,
                       max_requests: int | None, answered: dict[int, int]) -> None:
    """Each worker's RSS (MiB) after each count of requests, a worker's column by its pid (a pid first seen after
    the start is a recycled worker's successor, marked *), and the growth from the middle to the end."""
    pids = list(dict.fromkeys(pid for _, by_pid in rows for pid in by_pid))
    first = set(rows[0][1])
    print(f"{name}: max_requests {'0 (no recycling)' if max_requests == 0 else 'config default (5000 + 0..500)'}; "
          f"{boots} worker(s) booted in all (2 at the start); answers by X-Cache: "
          + ", ".join(f"{k} {v}" for k, v in caching.most_common()))
    labels = [f"pid {pid}{'' if pid in first else '*'}" for pid in pids]
    print(f"{'requests':>8} " + " ".join(f"{label:>12}" for label in labels) + f" {'sum':>8}")
    for count, by_pid in rows:
        cells = [f"{by_pid[pid] / 1024:>12.1f}" if pid in by_pid else f"{'-':>12}" for pid in pids]
        print(f"{count:>8} " + " ".join(cells) + f" {sum(by_pid.values()) / 1024:>8.1f}")
    middle = min(rows, key=lambda row: abs(row[0] - rows[-1][0] / 2))
    growth = [f"pid {pid} {(rows[-1][1][pid] - middle[1][pid]) / 1024:+.1f} MiB" for pid in pids
              if pid in middle[1] and pid in rows[-1][1]]
    print(f"{'answered':>8} " + " ".join(f"{answered.get(pid, 0):>12}" for pid in pids)
          + (f"   (and {sum(n for pid, n in answered.items() if pid not in pids)} by workers never read)"
             if set(answered) - set(pids) else ""))
    print(f"growth from {middle[0]} to {rows[-1][0]} requests: " + (", ".join(growth) or "no worker lived through "
                                                                   "both") + "\n")


def print_allocators(name: str, probe: Path) -> None:
    """What each worker's allocators held, as bench/memory_probe.py wrote it every MEMORY_PROBE_EVERY requests of
    the worker's own: live data (Python's blocks, glibc's heap in use) against what the allocators keep around it
    (pymalloc's arenas and the free blocks in its pools, glibc's free chunks)."""
    # (the probe's figure, its heading, its divisor: KiB to MiB, blocks to thousands, arenas as counted)
    columns = (("rss_anon_kib", "RssAnon", 1024), ("python_blocks", "Py blocks k", 1000), ("arenas", "arenas", 1),
               ("free_in_pools_kib", "pool free", 1024), ("heap_used_kib", "heap used", 1024),
               ("heap_free_kib", "heap free", 1024), ("mmapped_kib", "mmapped", 1024))
    for path in sorted(probe.glob("*.jsonl"), key=lambda p: int(p.stem)):
        lines = [orjson.loads(line) for line in path.read_text().splitlines()]
        print(f"{name}, worker pid {path.stem}: what its allocators held (MiB, but Python's blocks and arenas)")
        print(f"{'own req.':>10} " + " ".join(f"{head:>11}" for _, head, _ in columns))
        for line in lines:
            figures = (line.get(key, -1) / unit for key, _, unit in columns)
            print(f"{line['requests']:>10} " + " ".join(f"{figure:>11.1f}" for figure in figures))
        if len(lines) >= 2:
            middle, last = lines[(len(lines) - 1) // 2], lines[-1]
            print(f"from {middle['requests']} to {last['requests']} of its requests: " + ", ".join(
                f"{head} {(last.get(key, 0) - middle.get(key, 0)) / unit:+.1f}" for key, head, unit in columns) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mixed", action="store_true", help="the mixed run over every game (see above)")
    parser.add_argument("--requests", type=int, help="requests to each server (default 600; mixed: 10000)")
    parser.add_argument("--every", type=int, help="read RSS after this many requests (default 50; mixed: 1000)")
    parser.add_argument("--repeats", type=float, default=0.3, help="mixed: share of repeated bodies (default 0.3)")
    parser.add_argument("--clients", type=int, default=4, help="mixed: requests at once (default 4)")
    parser.add_argument("--seed", type=int, default=11, help="mixed: seed of the stream and the games")
    args = parser.parse_args()
    (mixed if args.mixed else large_answers)(args)


def large_answers(args: argparse.Namespace) -> None:
    requests, every = args.requests or 600, args.every or 50

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
        for i in range(1, requests + 1):
            names = [f"Ada {i}", f"Bea {i}", f"Cy {i}"]
            doc = {**start, "players": [{**p, "name": n} for p, n in zip(start["players"], names)]}
            body = orjson.dumps({"state": doc, "moves": steps})
            for server in servers.values():
                status, headers, _ = post(server.url(path), body, timeout=60)
                assert status == 200, status
            if i % every == 0 or i == 1:
                row = [i] + [rss_kib(server.workers()) / 1024 for server in servers.values()]
                rows.append(row)
                print(f"{row[0]:>8}  {row[1]:>8.0f}  {row[2]:>8.0f}", flush=True)
    finally:
        for server in servers.values():
            server.stop()




if __name__ == "__main__":
    main()
