"""Command line: `python -m service serve` starts the service (gunicorn with deploy/gunicorn.conf.py);
`python -m service openapi` rewrites openapi.yaml from the schemas."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def serve(args: argparse.Namespace) -> int:
    config = ROOT / "deploy" / "gunicorn.conf.py"
    argv = ["gunicorn", "--config", str(config), "--bind", f"{args.host}:{args.port}"]
    if args.workers:
        argv += ["--workers", str(args.workers)]
    argv.append("service.api:create_app()")
    os.execvp(sys.executable, [sys.executable, "-m", *argv])
    return 0  # not reached


def openapi(args: argparse.Namespace) -> int:
    from .api import create_app
    from .api.openapi import spec_yaml

    text = spec_yaml(create_app({"RATE_LIMIT": "", "LOG_LEVEL": "WARNING"}))
    if args.check:
        current = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
        if current != text:
            print("openapi.yaml is out of date: run `python -m service openapi`", file=sys.stderr)
            return 1
        return 0
    (ROOT / "openapi.yaml").write_text(text, encoding="utf-8")
    print("wrote openapi.yaml")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tower-referee", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="start the HTTP service under gunicorn")
    run.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    run.add_argument("--workers", type=int, default=0, help="default: WEB_CONCURRENCY or 2 per core")
    run.set_defaults(func=serve)
    spec = commands.add_parser("openapi", help="write openapi.yaml from the schemas (or --check it)")
    spec.add_argument("--check", action="store_true")
    spec.set_defaults(func=openapi)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
