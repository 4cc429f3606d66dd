"""Regenerate every game's service/games/<game>/rule_book.json from its rule book, service/games/<game>/rules.md,
read by the game's own `rule_book.parse` (service/games/<game>/rule_book.py; the usual shape is read by
service/games/core/rule_book.py).

    python tools/gen_catalogue.py [GAME ...] [--check]

With --check it writes nothing and exits 1 if a file differs. The service's own rulings are written by hand beside
it (rulings.toml); service/games/core/catalogue.py reads both.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games.registry import GAMES  # noqa: E402

KEYS = ("id", "section", "title", "text", "ruling")


def render(rules: list[dict]) -> str:
    """The rule book's rules as rule_book.json: a list of {"id", "section", "title", "text", "ruling"}."""
    return json.dumps([{key: rule[key] for key in KEYS} for rule in rules], ensure_ascii=False, indent=1) + "\n"


def generated(game_id: str) -> tuple[Path, str]:
    """Where the game's catalogue goes, and what its rule book makes of it."""
    package = Path(importlib.import_module(f"service.games.{game_id}").__file__ or "").parent
    parse = importlib.import_module(f"service.games.{game_id}.rule_book").parse
    return package / "rule_book.json", render(parse((package / "rules.md").read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: every game ({', '.join(GAMES)})")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    unknown = [game for game in args.games if game not in GAMES]
    if unknown:
        parser.error(f"no game {', '.join(unknown)}; the games are {', '.join(GAMES)}")
    stale = 0
    for game_id in args.games or GAMES:
        out, text = generated(game_id)
        if out.is_file() and out.read_text(encoding="utf-8") == text:
            continue
        if args.check:
            print(f"differs: {out.relative_to(ROOT)}")
            stale += 1
        else:
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out.relative_to(ROOT)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
