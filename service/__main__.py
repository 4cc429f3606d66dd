"""Command line: `python -m service serve` starts the service (gunicorn with deploy/gunicorn.conf.py);
`python -m service openapi` rewrites openapi.yaml from the schemas; `python -m service score FILE|-` scores a
Torri table written in notation; `python -m service replay FILE|-` replays a game log {"state", "moves"} step by
step and says where it first goes wrong."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

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


# ---------------------------------------------------------------- score and replay (Torri)

def _read_input(name: str) -> tuple[str, str]:
    """(label, text) of a file, or of stdin for "-"."""
    if name == "-":
        return "<stdin>", sys.stdin.read()
    return name, Path(name).read_text(encoding="utf-8")


def _show_problems(label: str, text: str, problems: list, out: TextIO) -> None:
    lines = text.split("\n")
    for problem in problems:
        line, column = getattr(problem, "line", None), getattr(problem, "column", None)
        rule = f" [{problem.rule}]" if problem.rule else ""
        print(f"{label}: error{rule}: {problem.message}", file=out)
        if line is not None and 0 < line <= len(lines):
            source = lines[line - 1].rstrip("\r")
            print(f"  {line:>3} | {source}", file=out)
            if column is not None:
                print(f"      | {' ' * (column - 1)}^", file=out)


def score_table_text(score: Any, warnings: list, out: TextIO) -> None:
    """The breakdown as a readable table: a row per category, a column per player; totals; winner and why."""
    from .games.torri import CATEGORIES

    players = score.players
    names = [p.name if len(p.name) <= 24 else p.name[:23] + "…" for p in players]
    widths = [max(len(name), 8) for name in names]
    label_width = max(len(c) for c in (*CATEGORIES, "plain ranks won"))

    def row(label: str, cells: list[str]) -> str:
        return f"{label:<{label_width}}  " + "  ".join(f"{cell:>{w}}" for cell, w in zip(cells, widths))

    print(row("", names), file=out)
    for category in CATEGORIES:
        print(row(category, [str(p.categories[category]) for p in players]), file=out)
    print(row("-" * label_width, ["-" * w for w in widths]), file=out)
    print(row("total", [str(p.total) for p in players]), file=out)
    print(row("plain ranks won", [" ".join(map(str, p.plain_ranks_won)) or "-" for p in players]), file=out)
    print(file=out)
    print(verdict(score), file=out)
    for warning in warnings:
        print(f"warning: {warning.message}", file=out)


def verdict(score: Any) -> str:
    """Who won and why (T-SCORE-WIN), in one sentence."""
    first, second = score.players
    if score.winner is None:
        return f"A draw: {first.total} to {second.total}, and nobody holds the Highest marker to break the tie."
    won, lost = score.players[score.winner], score.players[1 - score.winner]
    if score.decided_by == "points":
        return f"{won.name} wins on points, {won.total} to {lost.total}."
    return (f"{won.name} wins: {won.total} to {lost.total} is a tie, and a tie goes to the holder of the Highest "
            "marker (T-SCORE-WIN).")


def score(args: argparse.Namespace) -> int:
    from .games.core.errors import GameError
    from .games.torri import notation, picture, score_table

    try:
        label, text = _read_input(args.file)
    except OSError as error:
        print(f"{args.file}: {error.strerror or error}", file=sys.stderr)
        return 1
    try:
        table, warnings = notation.read(text)
    except GameError as error:
        _show_problems(label, text, error.problems, sys.stderr)
        return 1
    result = score_table(table)
    if args.json:
        print(json.dumps({**result.to_json(), "warnings": [w.to_json() for w in warnings]}, indent=2,
                         ensure_ascii=False))
    else:
        score_table_text(result, warnings, sys.stdout)
    if args.picture:
        Path(args.picture).write_text(picture.svg(table, result), encoding="utf-8")
    return 0


def _describe(step: dict) -> str:
    kind = step["type"]
    extra = []
    for key, value in step.items():
        if key == "type":
            continue
        if isinstance(value, list):
            value = "[" + " ".join(map(str, value)) + "]"
        extra.append(f"{key} {value}")
    return kind + (" " + ", ".join(extra) if extra else "")


def _event_text(event: dict, names: tuple[str, str]) -> str:
    facts = []
    for key, value in event.items():
        if key in ("type", "step"):
            continue
        if key == "player" and isinstance(value, int) and 0 <= value <= 1:
            value = names[value]
        if isinstance(value, list):
            value = "[" + " ".join(map(str, value)) + "]"
        facts.append(f"{key}={value}")
    return event["type"] + (" " + " ".join(facts) if facts else "")


def _log_problems(label: str, prefix: str, error: Any) -> int:
    for problem in error.problems:
        rule = f" [{problem.rule}]" if problem.rule else ""
        print(f"{label}: error{rule}: {prefix}{problem.pointer}: {problem.message}", file=sys.stderr)
    return 1


def replay(args: argparse.Namespace) -> int:
    from .games.core.errors import GameError, IllegalStepError
    from .games.torri import apply_step, read_state, score
    from .games.torri.game import as_step

    try:
        label, text = _read_input(args.file)
        log = json.loads(text)
    except OSError as error:
        print(f"{args.file}: {error.strerror or error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"{args.file}: error: not JSON: {error}", file=sys.stderr)
        return 1
    if not isinstance(log, dict) or "state" not in log or not isinstance(log.get("moves"), list) \
            or set(log) - {"state", "moves"}:
        print(f"{label}: error: a game log is an object {{\"state\": …, \"moves\": […]}}", file=sys.stderr)
        return 1
    try:
        state = read_state(log["state"])
    except GameError as error:
        return _log_problems(label, "/state", error)
    try:
        steps = [as_step(move, i) for i, move in enumerate(log["moves"])]
    except GameError as error:
        return _log_problems(label, "/moves", error)
    names = (state.players[0].name, state.players[1].name)
    print(f"start: {state.phase} phase, {names[state.to_act] if state.to_act is not None else 'nobody'} to act, "
          f"deck {state.deck_size}, market {' '.join(map(str, state.market)) or 'empty'}")
    width = len(str(len(steps)))
    for index, step in enumerate(steps):
        actor = names[state.to_act] if state.to_act is not None else "-"
        described = _describe(step.to_json())
        try:
            state, events = apply_step(state, step)
        except IllegalStepError as error:
            print(f"{index + 1:>{width}}. {actor}: {described}  ✗ illegal")
            print(f"{label}: move {index + 1} (/moves/{index}) is illegal; the game first goes wrong here:",
                  file=sys.stderr)
            for problem in error.problems:
                where = f"/moves/{index}{problem.pointer}"
                print(f"  [{problem.rule}] {where}: {problem.message}", file=sys.stderr)
            return 1
        print(f"{index + 1:>{width}}. {actor}: {described}")
        for event in events:
            print(f"{' ' * (width + 2)}  · {_event_text(event, names)}")
    print(f"all {len(steps)} moves are legal; {state.phase} phase"
          + (f", {names[state.to_act]} to act" if state.to_act is not None else ""))
    if state.phase == "over" or args.score:
        print()
        score_table_text(score(state), [], sys.stdout)
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
    scoring = commands.add_parser("score", help="score a Torri table written in notation (a file, or - for stdin)",
                                  description="Score a table in the notation of api.md, e.g.\n"
                                              "  Adso @: 10x3* 9x3* 8x3 6x3* 10-6\n"
                                              "  William: 7x3* 9-5* 10-8* 7-5*",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    scoring.add_argument("file", metavar="FILE", help="the notation file, or - to read stdin")
    scoring.add_argument("--json", action="store_true", help="print the answer of the score endpoint instead")
    scoring.add_argument("--picture", metavar="SVG", help="also draw the table into this SVG file")
    scoring.set_defaults(func=score)
    replaying = commands.add_parser("replay", help="replay a Torri game log {\"state\", \"moves\"} step by step")
    replaying.add_argument("file", metavar="FILE", help="the JSON game log, or - to read stdin")
    replaying.add_argument("--score", action="store_true", help="print the score at the end even if the game "
                                                                "is not over")
    replaying.set_defaults(func=replay)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
