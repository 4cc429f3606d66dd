"""Regenerate service/games/campanile/rule_book.json from the Campanile rule book (markdown).

Usage: python tools/gen_campanile_catalogue.py [RULE_BOOK] [--check]

RULE_BOOK defaults to the game's own rule book, service/games/campanile/rules.md.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import rule_book

ITEM = re.compile(r"^- \*\*(C-[A-Z0-9-]+)(?: ([^*]+?))?\.?\*\*\s*(.*)$")


def parse(markdown: str):
    rules, section, current = [], None, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            current = None
            continue
        match = ITEM.match(line)
        if match:
            rule_id, title, text = match.groups()
            current = {"id": rule_id, "section": section, "title": (title or "").strip().rstrip("."),
                       "text": text.strip()}
            rules.append(current)
        elif current is not None and line.startswith("  ") and line.strip():
            current["text"] += " " + line.strip()
        else:
            current = None
    for rule in rules:
        rule["ruling"] = "*Ruling:*" in rule["text"]
        rule["text"] = rule["text"].replace("*Ruling:*", "Ruling:").replace("**", "").replace("*", "")
    return rules


if __name__ == "__main__":
    sys.exit(rule_book.main("campanile", parse))
