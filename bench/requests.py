"""What a computed answer costs in process, for every game and variant, beside the framework floor.

    python bench/requests.py                                  # this checkout, every game and variant
    python bench/requests.py --game carcassonne --variant tower --rounds 5
    python bench/requests.py --json /tmp/now.json             # ... and keep the figures, to set beside another build's

The bodies are bench/service.py's (the same seeded random games, 2 to 4 players, one body per game and endpoint,
states drawn uniformly from the whole game; `--bodies` games per case): /apply of a state and one legal move,
/legal-moves of another state, /score of the finished board. Every body is a different position, as over HTTP, so
what a game keeps between requests (San Gimignano's layouts, Torri's memos) helps here only as much as it would
there: with as many bodies as there (300, the default), a memo of 256 boards asked in turn meets none of them
again. They go through Flask's test client with the cache off (every answer computed: the reading, the game, the
JSON) and, in turn, to bench/floor_app.py (Flask parsing the same bodies and answering as many bytes): the ratio
floor ÷ service is what bench/service.py measures over HTTP, without the server's and the load generator's share
(which both pay alike, so over HTTP the ratio is closer to 1). The service runs the deployed settings, the rate
limiter counting every request in this host's shared memory (at HEAVY_CLIENT_RATE_LIMIT, which one client never
reaches); with `--limiter`, also the same service with RATE_LIMIT off, so that the limiter's cost per request is
the difference. Each figure is CPU time (time.process_time) per request, the best of `--rounds` passes over the bodies, the
servers in turn twice: the machine's other load moves wall time far more. Nothing is asserted.

`--language fr` also sends every request asking for French (Accept-Language), in turn with the English ones: the
ratio is what saying the answer's words in another language costs.

`--idle-ms N` sleeps N ms before each request (not counted: the CPU time is the process's): a server's CPU idles
between its clients' requests, and a request that follows an idle spell finds less of its code and data in the
processor's caches than one run in a tight loop. Set beside a run without it, it tells what an idle spell adds to
a request.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT  # noqa: E402

ENDPOINTS = ("apply", "legal-moves", "score")


def _bench_module(name: str, file: str):
    """A sibling script as a module (bench/ is no package, and its service.py would shadow the project's)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def cpu_per_request(client, requests: list[tuple[str, bytes]], rounds: int, idle: float = 0.0,
                    headers: dict | None = None) -> float:
    """µs of CPU per request, the best of `rounds` passes over the requests; `idle` seconds asleep before each."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for url, body in requests:
            if idle:
                time.sleep(idle)
            response = client.post(url, data=body, content_type="application/json", headers=headers)
            assert response.status_code == 200, response.get_data()[:300]
        best = min(best, (time.process_time() - started) / len(requests) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bodies", type=int, default=300, help="random games sampled per case (default 300, as "
                        "bench/service.py)")
    parser.add_argument("--game", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--variant", help="comma-separated variant names, `base` for none (default: all)")
    parser.add_argument("--endpoints", default=",".join(ENDPOINTS), help="default: apply,legal-moves,score")
    parser.add_argument("--seed", type=int, default=7, help="the first game's seed (default 7, as bench/service.py)")
    parser.add_argument("--limiter", action="store_true", help="also the service with no rate limit (the limiter's "
                        "cost is the difference)")
    parser.add_argument("--idle-ms", type=float, default=0.0, help="sleep this long before each request (default 0: "
                        "back to back)")
    parser.add_argument("--language", help="also every request asking for this language (Accept-Language), "
                        "beside English")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    idle = args.idle_ms / 1000
    logging.disable(logging.CRITICAL)
    over_http = _bench_module("bench_service", "service.py")
    floor = _bench_module("bench_floor_app", "floor_app.py").app.test_client()
    settings = {"RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "CACHE_MAX_ENTRIES": 0, "LOG_LEVEL": "ERROR"}
    service = create_app(settings).test_client()
    print(f"settings: the deployed ones, RATE_LIMIT={HEAVY_CLIENT_RATE_LIMIT!r} (counted, never refused), "
          f"CACHE_MAX_ENTRIES=0, LOG_LEVEL=ERROR")
    unlimited = create_app({**settings, "RATE_LIMIT": ""}).test_client() if args.limiter else None
    endpoints = tuple(args.endpoints.split(","))
    figures: dict[str, dict] = {}
    print(f"{'case':28} {'endpoint':12} {'body median':>11} {'service µs':>10} {'floor µs':>9} {'floor ÷ service':>15}"
          + (f" {'no limit µs':>11} {'limiter µs':>10}" if args.limiter else "")
          + (f" {args.language + ' µs':>10} {args.language + ' ÷ en':>9}" if args.language else ""))
    asked = {"Accept-Language": args.language} if args.language else None
    for case in over_http.chosen_cases(args.game, args.variant):
        bodies = over_http.sample_bodies(case, args.bodies, args.seed, endpoints)
        for endpoint in endpoints:
            url = f"{case.base_path}/{endpoint}"
            texts = bodies[endpoint]
            requests = [(url, text) for text in texts]
            sizes = [len(service.post(url, data=t, content_type="application/json").get_data()) for t in texts]
            echoes = [(f"/echo?bytes={size}", text) for size, text in zip(sizes, texts)]
            mine, theirs, without_limit, spoken = [], [], [], []
            for _ in range(2):  # the apps in turn, so all see the same machine
                mine.append(cpu_per_request(service, requests, args.rounds, idle))
                theirs.append(cpu_per_request(floor, echoes, args.rounds, idle))
                if unlimited is not None:
                    without_limit.append(cpu_per_request(unlimited, requests, args.rounds, idle))
                if asked:
                    spoken.append(cpu_per_request(service, requests, args.rounds, idle, asked))
            row = {"bodies": len(texts), "body_median": statistics.median(len(t) for t in texts),
                   "service_us": min(mine), "floor_us": min(theirs)}
            row["ratio"] = row["floor_us"] / row["service_us"]
            line = (f"{case.name:28} {endpoint:12} {row['body_median']:>9.0f} B {row['service_us']:>10.0f} "
                    f"{row['floor_us']:>9.0f} {row['ratio']:>14.2f}x")
            if without_limit:
                row["no_limit_us"] = min(without_limit)
                line += f" {row['no_limit_us']:>11.0f} {row['service_us'] - row['no_limit_us']:>10.1f}"
            if spoken:
                row["language_us"] = min(spoken)
                line += f" {row['language_us']:>10.0f} {row['language_us'] / row['service_us']:>8.3f}x"
            figures[f"{case.name} {endpoint}"] = row
            print(line, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
