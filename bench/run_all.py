"""Every benchmark in one command: the engines (Torri, Carcassonne, San Gimignano), the request schemas, the answer
cache, the service over HTTP against the floor, the slowest legal requests, a worker's memory, and the computer
players' strength.

    python bench/run_all.py              # about 26 minutes: engines ~3 min, schemas ~1, cache ~1, service ~7,
                                         # worst cases ~8, memory ~4; and the players' strength, about an hour
    python bench/run_all.py --quick      # about 3 minutes: smaller samples, 1 round of 3 s over HTTP
    python bench/run_all.py --profile    # the service benchmark also py-spies the workers
    python bench/run_all.py --only service --json /tmp/service.json

Each benchmark runs as its own process (bench/<name>.py) and prints its own figures here as it goes; a missing
tool (redis-server for cache.py, wrk for service.py) fails that one only.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

BENCH = Path(__file__).resolve().parent
NAMES = ("engine", "carcassonne", "sangimignano", "schemas", "requests", "cache", "ratelimit", "service", "worst_case",
         "memory", "players")


def command(name: str, args: argparse.Namespace) -> list[str]:
    argv = [sys.executable, str(BENCH / f"{name}.py")]
    if name in ("engine", "carcassonne", "sangimignano", "players"):
        argv += ["--quick"] if args.quick else []
    elif name == "schemas":
        argv += ["--rounds", "50"] if args.quick else []
    elif name == "cache":
        argv += ["--rounds", "300", "--replay-rounds", "30"] if args.quick else []
    elif name == "requests":
        argv += ["--rounds", "1", "--bodies", "50"] if args.quick else []
    elif name == "ratelimit":
        argv += ["--calls", "5000", "--rounds", "2"] if args.quick else []
    elif name == "worst_case":
        argv += ["--seconds", "5", "--repeat", "3"] if args.quick else []
    elif name == "memory":
        argv += ["--requests", "150", "--every", "25"] if args.quick else []
    elif name == "service":
        argv += ["--quick"] if args.quick else []
        argv += ["--profile"] if args.profile else []
        argv += ["--json", args.json] if args.json else []
        argv += shlex.split(args.service_args)
    return argv


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short runs of every benchmark")
    parser.add_argument("--only", default=",".join(NAMES), help=f"comma-separated subset of {', '.join(NAMES)}")
    parser.add_argument("--profile", action="store_true", help="bench/service.py --profile (needs py-spy)")
    parser.add_argument("--json", metavar="PATH", help="bench/service.py --json PATH")
    parser.add_argument("--service-args", default="", help="more options for bench/service.py, quoted as one")
    args = parser.parse_args()
    chosen = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = set(chosen) - set(NAMES)
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")

    print(f"bench/run_all.py {'--quick ' if args.quick else ''}at {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{os.cpu_count()} CPUs, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    outcomes: list[tuple[str, int, float]] = []
    for name in chosen:
        argv = command(name, args)
        shown = " ".join(str(Path(a).relative_to(BENCH.parent)) if a.startswith(str(BENCH)) else a for a in argv[1:])
        print(f"\n{'=' * 100}\n{name}: python {shown}\n"
              f"{'=' * 100}", flush=True)
        started = time.monotonic()
        try:
            code = subprocess.run(argv, cwd=BENCH.parent).returncode
        except KeyboardInterrupt:
            print(f"\n{name}: interrupted")
            return 130
        outcomes.append((name, code, time.monotonic() - started))

    print(f"\n{'=' * 100}")
    for name, code, seconds in outcomes:
        print(f"{name:<10} {'ok' if code == 0 else f'FAILED (exit {code})':<18} {seconds:6.0f} s")
    return 0 if all(code == 0 for _, code, _ in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
