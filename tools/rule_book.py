"""What the four catalogue generators share: writing a game's rule book as data, or checking it is up to date.

    python tools/gen_<game>_catalogue.py [RULE_BOOK] [--check]

writes service/games/<game>/rule_book.json from the rule book (markdown) the generator parses, by default the
game's own, service/games/<game>/rules.md; with --check it writes nothing and exits 1 if the file differs. The
service's own rulings are written by hand beside it (rulings.toml); service/games/core/catalogue.py reads both.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "service" / "games"
KEYS = ("id", "section", "title", "text", "ruling")


def render(rules: list[dict]) -> str:
    """The rule book's rules as rule_book.json: a list of {"id", "section", "title", "text", "ruling"}."""
    return json.dumps([{key: rule[key] for key in KEYS} for rule in rules], ensure_ascii=False, indent=1) + "\n"


def main(game: str, parse: Callable[[str], list[dict]], argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = [arg for arg in argv if arg != "--check"]
    book = Path(args[0]) if args else GAMES / game / "rules.md"
    out = GAMES / game / "rule_book.json"
    rules = parse(book.read_text(encoding="utf-8"))
    text = render(rules)
    if "--check" in argv:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"differs: {out.relative_to(ROOT)}")
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    print(len(rules), "rules")
    return 0
