"""Torri's rule book (rules.md) read into the catalogue's rules (tools/gen_catalogue.py writes rule_book.json):
items `- **T-ACT-BUILD-2 Plain tower.** text` under their sections; a lone star stays (`T-ACT-*`)."""
from __future__ import annotations

import re
from functools import partial

from ..core import rule_book


def _plain(text: str) -> str:
    text = text.replace("*Ruling:*", "Ruling:").replace("**", "")
    return re.sub(r"\*([^*\s)][^*]*?)\*", r"\1", text)  # italics; a lone * (T-ACT-*) stays


parse = partial(rule_book.parse, item=rule_book.item_pattern("T"), clean=_plain)
