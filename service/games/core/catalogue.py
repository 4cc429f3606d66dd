"""A game's rule catalogue: every rule id with its section, title and text, rulings marked (`GET .../rules`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    section: str
    title: str
    text: str
    ruling: bool  # a point the rule sheet leaves open, settled by the rule book or the service

    def to_json(self) -> dict:
        return {"id": self.id, "section": self.section, "title": self.title, "text": self.text,
                "ruling": self.ruling}


def rule_book(rows: Iterable[tuple[str, str, str, str, bool]]) -> tuple[tuple[Rule, ...], dict[str, Rule]]:
    """The catalogue from its rows (id, section, title, text, ruling), in order, and by id."""
    rules = tuple(Rule(*row) for row in rows)
    return rules, {rule.id: rule for rule in rules}
