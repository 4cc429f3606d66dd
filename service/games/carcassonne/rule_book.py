"""Carcassonne's rule book (rules.md) read into the catalogue's rules (tools/gen_catalogue.py writes
rule_book.json): items `- **K-COMP-1** text`, `1. **K-PLACE** text` and `   - **K-PLACE-1** text` (items nest under
a turn's parts), with no titles."""
from __future__ import annotations

from functools import partial

from ..core import rule_book

parse = partial(rule_book.parse, item=rule_book.item_pattern("K", numbered=True, titled=False), nested=True)
