"""Reading a game's rule book (its `rules.md`) into the catalogue's rules: what `tools/gen_catalogue.py` writes
to the game's `rule_book.json`. A book is markdown: `## Section` headings, and under them items that open with
a bold rule id, `- **C-TURN-BET Bet.** text` (the title optional), their text going on over indented lines; a
text with `*Ruling:*` is a ruling. A game whose book has another shape says so in its own `rule_book.py`."""
from __future__ import annotations

import re
from typing import Callable

Rule = dict  # {"id", "section", "title", "text", "ruling"}


def item_pattern(prefix: str, *, numbered: bool = False, titled: bool = True) -> re.Pattern[str]:
    """The opening of an item: `- **<prefix>-ID Title.** text` (or `1. **…**`, nested items too, with
    `numbered`); without `titled`, the id alone is bold."""
    bullet = r"^\s*(?:-|\d+\.) " if numbered else r"^- "
    title = r"(?: ([^*]+?))?\.?" if titled else r"()"
    return re.compile(bullet + rf"\*\*({prefix}-[A-Z0-9-]+){title}\*\*\s*(.*)$")


def plain(text: str) -> str:
    """A text without its markdown emphasis; `*Ruling:*` said as `Ruling:`."""
    return text.replace("*Ruling:*", "Ruling:").replace("**", "").replace("*", "")


def items(markdown: str, item: re.Pattern[str], *, nested: bool = False) -> list[Rule]:
    """Every item of the book, in order: its id, section, title and raw text (indented lines go on with it; with
    `nested`, an indented item of its own does not)."""
    found: list[Rule] = []
    section, current = None, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            section, current = line[3:].strip(), None
            continue
        match = item.match(line)
        if match:
            rule_id, title, text = match.groups()
            current = {"id": rule_id, "section": section, "title": (title or "").strip().rstrip("."),
                       "text": text.strip()}
            found.append(current)
        elif current is not None and line.startswith("  ") and line.strip() \
                and not (nested and line.strip().startswith("-")):
            current["text"] += " " + line.strip()
        else:
            current = None
    return found


def parse(markdown: str, item: re.Pattern[str], *, nested: bool = False,
          clean: Callable[[str], str] = plain) -> list[Rule]:
    """The book's rules: each item, a ruling when its text says `*Ruling:*`, its text made plain by `clean`."""
    return [{**rule, "ruling": "*Ruling:*" in rule["text"], "text": clean(rule["text"])}
            for rule in items(markdown, item, nested=nested)]


__all__ = ["item_pattern", "items", "parse", "plain"]
