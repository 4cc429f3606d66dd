"""San Gimignano's rule book (rules.md) read into the catalogue's rules (tools/gen_catalogue.py writes
rule_book.json).

Every S-* id becomes an entry, in the order the book first names it: the numbered items (`- **S-TURN-1 Token.**`,
nested ones too), and the ids the items define inline: a bold id (`**S-TOKEN-1**`) gets the sentence that names
it, a ruling (`*Ruling (S-SVC-SKIP):*`) gets its text up to the next ruling.
"""
from __future__ import annotations

import re

from ..core import rule_book

ITEM = re.compile(r"^\s*- \*\*(S-[A-Z0-9-]+)(?: ([^*]+?))?\.?\*\*\s*(.*)$")
INLINE_BOLD = re.compile(r"\*\*(S-[A-Z0-9-]+)\*\*")
INLINE_RULING = re.compile(r"\*Ruling \((S-[A-Z0-9-]+)\):\*")
SENTENCE_END = re.compile(r"(?<!Fig)\. ")  # "Fig. C" ends no sentence
ANY_RULING = re.compile(r"\*Ruling(?: \(S-[A-Z0-9-]+\))?:\*")


def clean(text: str) -> str:
    text = ANY_RULING.sub(lambda m: "Ruling" + (m.group(0)[7:-2] if "(" in m.group(0) else "") + ":", text)
    return re.sub(r"\s+", " ", text.replace("**", "").replace("*", "").replace("`", "")).strip()


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of `text` holding [start, end): from after the previous full stop to the next one."""
    stops = [m.end() for m in SENTENCE_END.finditer(text)]
    begin = max([0] + [stop for stop in stops if stop <= start])
    finish = min([len(text)] + [stop for stop in stops if stop > end])
    return text[begin:finish]


def parse(markdown: str) -> list[dict]:
    items = rule_book.items(markdown, ITEM, nested=True)
    rules, seen = [], set()
    for item in items:
        text = item["text"]
        seen.add(item["id"])
        ruling = "*Ruling:*" in text or text.startswith("*Ruling")
        rules.append({**item, "text": clean(text), "ruling": ruling})
        for match in INLINE_BOLD.finditer(text):
            if match.group(1) not in seen:
                seen.add(match.group(1))
                rules.append({"id": match.group(1), "section": item["section"], "title": "",
                              "text": clean(sentence_around(text, match.start(), match.end())), "ruling": False})
        marks = list(ANY_RULING.finditer(text))
        for k, mark in enumerate(marks):
            inline = INLINE_RULING.match(text, mark.start())
            if inline is None or inline.group(1) in seen:
                continue
            seen.add(inline.group(1))
            stop = marks[k + 1].start() if k + 1 < len(marks) else len(text)
            rules.append({"id": inline.group(1), "section": item["section"], "title": "",
                          "text": clean(text[mark.end():stop]), "ruling": True})
    return rules
