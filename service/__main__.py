"""Command line: `python -m service serve` starts the service (gunicorn with deploy/gunicorn.conf.py);
`python -m service openapi` rewrites openapi.yaml from the schemas; `python -m service score FILE|-` scores a
Torri table written in notation; `python -m service replay [--game GAME] FILE|-` replays a record {"state",
"moves"} of any game step by step, every event in words, and says where it first goes wrong (the rule, its text and
why), exiting 1."""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from .games.core.language import DEFAULT, Catalogues, language_of, said

ROOT = Path(__file__).resolve().parents[1]
tr, tr_n, tr_p = Catalogues.of(__file__).makers()


def spoken_language(environ: dict[str, str] = os.environ) -> str:  # type: ignore[assignment]
    """The language of the command's words, from the environment as gettext reads it: LANGUAGE (its first),
    LC_ALL, LC_MESSAGES, then LANG (`fr_FR.UTF-8` is French); English for anything the service does not speak."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").split(":")[0].split(".")[0]
        if value and value not in ("C", "POSIX"):
            return language_of(value)
    return DEFAULT


def say(text: str, out: TextIO = sys.stdout) -> None:
    """A line for people, in the command's language."""
    print(said(text, LANGUAGE), file=out)


LANGUAGE = DEFAULT  # set by main() from the environment


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
            say(tr("openapi.yaml is out of date: run `python -m service openapi`"), sys.stderr)
            return 1
        return 0
    (ROOT / "openapi.yaml").write_text(text, encoding="utf-8")
    say(tr("wrote openapi.yaml"))
    return 0


# ---------------------------------------------------------------- score (a table in notation) and replay (any game)

def _read_input(name: str) -> tuple[str, str]:
    """(label, text) of a file, or of stdin for "-"."""
    if name == "-":
        return "<stdin>", sys.stdin.read()
    return name, Path(name).read_text(encoding="utf-8")


def _show_problems(label: str, text: str, problems: list, out: TextIO) -> None:
    lines = text.split("\n")
    for problem in problems:
        line, column = getattr(problem, "line", None), getattr(problem, "column", None)
        if problem.rule:
            say(tr("{label}: error [{rule}]: {message}", label=label, rule=problem.rule, message=problem.message), out)
        else:
            say(tr("{label}: error: {message}", label=label, message=problem.message), out)
        if line is not None and 0 < line <= len(lines):
            source = lines[line - 1].rstrip("\r")
            print(f"  {line:>3} | {source}", file=out)
            if column is not None:
                print(f"      | {' ' * (column - 1)}^", file=out)


def _notation_game(asked: str | None) -> Any:
    """The game whose notation `score` reads: `--game`, else the first game served that has a notation; None
    (said) if that game has none."""
    from .games.core.game import Capability
    from .games.registry import GAMES

    written = [game for game in GAMES.values() if game.offers(Capability.NOTATION)]
    game = GAMES.get(asked) if asked else (written[0] if written else None)
    if game is None or not game.offers(Capability.NOTATION):
        say(tr("error: {game} has no notation; the games with one are {games}", game=asked or tr("no game"),
               games=", ".join(g.info.id for g in written) or tr("none")), sys.stderr)
        return None
    return game


def score(args: argparse.Namespace) -> int:
    from .games.core.errors import GameError
    from .games.core.game import Capability

    game = _notation_game(args.game)
    if game is None:
        return 1

    try:
        label, text = _read_input(args.file)
    except OSError as error:
        print(f"{args.file}: {error.strerror or error}", file=sys.stderr)  # the system's own words
        return 1
    try:
        table, warnings = game.read_notation(text)
    except GameError as error:
        _show_problems(label, text, error.problems, sys.stderr)
        return 1
    result = game.score_table(table)
    if args.json:
        print(json.dumps({**result.to_json(), "warnings": [w.to_json(LANGUAGE) for w in warnings]}, indent=2,
                         ensure_ascii=False))
    else:
        print("\n".join(game.score_text(result, warnings, LANGUAGE)))
    if args.picture and game.offers(Capability.PICTURE):
        Path(args.picture).write_text(game.draw(table, LANGUAGE), encoding="utf-8")
    return 0


def _describe(step: dict) -> str:
    """A move as typed in a record, compactly: `build cards [6 7 8]`, `place tile BA/Rr, at [-1, 0], rotation 90`
    (a place as the events say it)."""
    kind = step["type"]
    extra = []
    for key, value in step.items():
        if key == "type":
            continue
        if isinstance(value, list):
            place = len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            value = "[" + (", " if place else " ").join(map(str, value)) + "]"
        extra.append(f"{key} {value}")
    return kind + (" " + ", ".join(extra) if extra else "")


def _log_problems(label: str, prefix: str, error: Any) -> int:
    for problem in error.problems:
        where = f"{prefix}{problem.pointer}"
        if problem.rule:
            say(tr("{label}: error [{rule}]: {pointer}: {message}", label=label, rule=problem.rule, pointer=where,
                   message=problem.message), sys.stderr)
        else:
            say(tr("{label}: error: {pointer}: {message}", label=label, pointer=where, message=problem.message),
                sys.stderr)
    return 1


def _read_record(label: str, text: str) -> dict | None:
    """The record {"state", "moves"}, or None (said on stderr) for anything else."""
    try:
        record = json.loads(text)
    except ValueError as error:
        say(tr("{label}: error: not JSON: {error}", label=label, error=str(error)), sys.stderr)
        return None
    if not isinstance(record, dict) or "state" not in record or not isinstance(record.get("moves"), list) \
            or set(record) - {"state", "moves"}:
        say(tr("{label}: error: a game log is an object {{\"state\": …, \"moves\": […]}}", label=label), sys.stderr)
        return None
    return record


def _which_game(label: str, asked: str | None, record: dict) -> Any:
    """The registered game the record is of: `--game`, else the state's own `"game"`; None (said) if neither
    names one, or they disagree."""
    from .games.registry import GAMES

    named = record["state"].get("game") if isinstance(record["state"], dict) else None
    game_id = asked or named or "torri"  # a record without "game" is Torri's, as the command always read
    if game_id not in GAMES:
        say(tr("{label}: error: no game \"{game}\" is served; the games are {games}", label=label, game=game_id,
               games=", ".join(GAMES)), sys.stderr)
        return None
    if asked and named and named != asked:
        say(tr("{label}: error: the state is of {named}, not {asked}", label=label, named=named, asked=asked),
            sys.stderr)
        return None
    return GAMES[game_id]


def replay(args: argparse.Namespace) -> int:
    """Replay a record of any game step by step, each event in words; at the first illegal step, the rule, its
    text and the service's sentence, and exit 1."""
    from .games.core.errors import GameError, IllegalStepError

    try:
        label, text = _read_input(args.file)
    except OSError as error:
        print(f"{args.file}: {error.strerror or error}", file=sys.stderr)
        return 1
    record = _read_record(label, text)
    if record is None:
        return 1
    game = _which_game(label, args.game, record)
    if game is None:
        return 1
    try:
        state = game.load_state(record["state"]).checked()
    except GameError as error:
        return _log_problems(label, "/state", error)
    try:
        steps = [game.as_step(move, i) for i, move in enumerate(record["moves"])]
    except GameError as error:
        return _log_problems(label, "/moves", error)
    names = game.player_names(state)
    rules = {rule["id"]: rule for rule in game.rules(LANGUAGE)}

    def to_act(state: Any) -> str:
        player = game.to_act(state)
        return tr("{player} to act", player=names[player]) if player is not None else tr("nobody to act")

    say(tr_n("{game}: {players}; {count} move; {acting}", "{game}: {players}; {count} moves; {acting}", len(steps),
             game=game.info.title, players=", ".join(names), acting=to_act(state)))
    width = len(str(len(steps)))
    for index, step in enumerate(steps):
        player = game.to_act(state)
        actor = names[player] if player is not None else said(tr("nobody"), LANGUAGE)
        described = _describe(step.to_json())
        try:
            state, events = game.apply_step(state, step)
        except IllegalStepError as error:
            print(f"{index + 1:>{width}}. {actor}: {described}  ✗ " + said(tr("illegal"), LANGUAGE))
            pointer = f"/moves/{index}"
            say(tr("{label}: move {number} ({pointer}) is illegal; the game first goes wrong here:", label=label,
                   number=index + 1, pointer=pointer), sys.stderr)
            for problem in error.problems:
                print(f"  [{problem.rule}] /moves/{index}{problem.pointer}: {said(problem.message, LANGUAGE)}",
                      file=sys.stderr)
                rule = rules.get(problem.rule or "")
                if rule:
                    heading = f"{rule['id']} ({rule['title']})" if rule["title"] else rule["id"]
                    print(textwrap.fill(f"{heading}: {rule['text']}", 116, initial_indent="  ",
                                        subsequent_indent="    "), file=sys.stderr)
            return 1
        print(f"{index + 1:>{width}}. {actor}: {described}")
        for event in events:
            print(f"{' ' * (width + 2)}· {said(game.narrate(event, names), LANGUAGE)}")
    over = game.to_act(state) is None
    if over:
        say(tr_n("the {count} move is legal; the game is over", "all {count} moves are legal; the game is over",
                 len(steps)))
    else:
        say(tr_n("the {count} move is legal; {acting}", "all {count} moves are legal; {acting}", len(steps),
                 acting=to_act(state)))
    if over or args.score:
        print()
        print("\n".join(game.score_text(game.score_state(state), (), LANGUAGE)))
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
    scoring = commands.add_parser("score", help="score a table written in a game's notation (Torri's; a file, or - "
                                               "for stdin)",
                                  description="Score a table in the notation of api.md, e.g.\n"
                                              "  Adso @: 10x3* 9x3* 8x3 6x3* 10-6\n"
                                              "  William: 7x3* 9-5* 10-8* 7-5*",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    scoring.add_argument("file", metavar="FILE", help="the notation file, or - to read stdin")
    scoring.add_argument("--game", help="the game whose notation it is (default: the first with one, torri)")
    scoring.add_argument("--json", action="store_true", help="print the answer of the score endpoint instead")
    scoring.add_argument("--picture", metavar="SVG", help="also draw the table into this SVG file")
    scoring.set_defaults(func=score)
    replaying = commands.add_parser("replay", help="replay a game record {\"state\", \"moves\"} of any game step by "
                                                   "step, saying where it first goes wrong")
    replaying.add_argument("file", metavar="FILE", help="the JSON game record, or - to read stdin")
    replaying.add_argument("--game", help="the game's id (torri, campanile, sangimignano, carcassonne); by default "
                                          "the state's own \"game\"")
    replaying.add_argument("--score", action="store_true", help="print the score at the end even if the game "
                                                                "is not over")
    replaying.set_defaults(func=replay)
    args = parser.parse_args(argv)
    global LANGUAGE
    LANGUAGE = spoken_language()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
