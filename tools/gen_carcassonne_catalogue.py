"""Regenerate service/games/carcassonne/rule_book.json from the Carcassonne rule book (markdown).

Usage: python tools/gen_carcassonne_catalogue.py [RULE_BOOK] [--check]

RULE_BOOK defaults to the game's own rule book, service/games/carcassonne/rules.md.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import rule_book

# "- **K-COMP-1** text", "1. **K-PLACE** text", "   - **K-PLACE-1** text" (items nest under a turn's parts)
ITEM = re.compile(r"^\s*(?:-|\d+\.) \*\*(K-[A-Z0-9-]+)\*\*\s*(.*)$")


def parse(markdown: str) -> list[dict]:
    rules, section, current = [], None, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            current = None
            continue
        match = ITEM.match(line)
        if match:
            rule_id, text = match.groups()
            current = {"id": rule_id, "section": section, "title": "", "text": text.strip()}
            rules.append(current)
        elif current is not None and line.startswith("  ") and line.strip() and not line.strip().startswith("-"):
            current["text"] += " " + line.strip()
        else:
            current = None
    for rule in rules:
        rule["ruling"] = "*Ruling:*" in rule["text"]
        rule["text"] = rule["text"].replace("*Ruling:*", "Ruling:").replace("**", "").replace("*", "")
    return rules


if __name__ == "__main__":
    sys.exit(rule_book.main("carcassonne", parse))
