"""Campanile's rule book (rules.md) read into the catalogue's rules (tools/gen_catalogue.py writes rule_book.json):
items `- **C-TURN-BET Bet.** text` under their sections."""
from __future__ import annotations

from functools import partial

from ..core import rule_book

parse = partial(rule_book.parse, item=rule_book.item_pattern("C"))
