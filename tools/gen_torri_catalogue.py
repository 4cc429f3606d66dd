"""Regenerate service/games/torri/rule_book.json from the Torri rule book (markdown).

Usage: python tools/gen_torri_catalogue.py [RULE_BOOK] [--check]

RULE_BOOK defaults to the game's own rule book, service/games/torri/rules.md.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import rule_book

ITEM = re.compile(r"^- \*\*(T-[A-Z0-9-]+)(?: ([^*]+?))?\.?\*\*\s*(.*)$")


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
        text = rule["text"].replace("*Ruling:*", "Ruling:").replace("**", "")
        rule["text"] = re.sub(r"\*([^*\s)][^*]*?)\*", r"\1", text)  # italics; a lone * (T-ACT-*) stays
    return rules


if __name__ == "__main__":
    sys.exit(rule_book.main("torri", parse))
