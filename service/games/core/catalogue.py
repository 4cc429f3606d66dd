"""A game's rule catalogue: every rule id with its section, title and text, rulings marked (`GET .../rules`).

A game's folder holds its catalogue as data: `rule_book.json`, the rule book's rules (generated from the rule book
beside it, `rules.md`, by tools/gen_catalogue.py), and `rulings.toml`, the service's own rulings (written by
hand). `load_catalogue` reads both, the book first. Their words in the other languages are the game's `rules`
catalogues (service.games.core.language), one entry a section, title or text, its context the rule's id.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import NamedTuple

from .language import DEFAULT, Catalogues

RULE_BOOK = "rule_book.json"  # [{"id", "section", "title", "text", "ruling"}, …], in the book's order
RULINGS = "rulings.toml"  # [[ruling]] tables of id, section, title and text: every one a ruling
DOMAIN = "rules"  # the catalogue of a game's rules in the other languages: locales/<language>/LC_MESSAGES/rules.po


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    section: str
    title: str
    text: str
    ruling: bool  # a point the rule sheet leaves open, settled by the rule book or the service

    def to_json(self, catalogues: Catalogues | None = None, language: str = DEFAULT) -> dict:
        """The rule as /rules gives it, its words in `language` (from the game's `rules` catalogues)."""
        if catalogues is None or language == DEFAULT:
            return {"id": self.id, "section": self.section, "title": self.title, "text": self.text,
                    "ruling": self.ruling}

        def said(text: str, context: str) -> str:
            return catalogues.say(language, DOMAIN, text, context=context) if text else text
        return {"id": self.id, "section": said(self.section, "section"), "title": said(self.title, f"{self.id} title"),
                "text": said(self.text, f"{self.id} text"), "ruling": self.ruling}

    def entries(self) -> list[tuple[str, str]]:
        """(context, text) of each of the rule's words that a catalogue translates (rule ids stay as they are)."""
        return [(context, text) for context, text in (("section", self.section), (f"{self.id} title", self.title),
                                                      (f"{self.id} text", self.text)) if text]


FIELDS = tuple(field.name for field in fields(Rule))


class Catalogue(NamedTuple):
    rules: tuple[Rule, ...]  # the rule book's rules, then the service's rulings
    by_id: dict[str, Rule]
    rulings: tuple[str, ...]  # the ids of the service's rulings (rulings.toml), in order


def _rule(entry: dict, where: str, **implied: object) -> Rule:
    keys = [name for name in FIELDS if name not in implied]
    if not isinstance(entry, dict) or set(entry) != set(keys):
        raise ValueError(f"{where}: a rule has exactly the keys {', '.join(keys)}: {entry!r}")
    return Rule(**entry, **implied)


def load_catalogue(package_dir: Path | str) -> Catalogue:
    """The catalogue of the game whose folder is `package_dir`: its `rule_book.json`, then its `rulings.toml`."""
    folder = Path(package_dir)
    book = json.loads((folder / RULE_BOOK).read_text(encoding="utf-8"))
    with open(folder / RULINGS, "rb") as file:
        rulings = tomllib.load(file).get("ruling", [])
    rules = tuple([_rule(entry, RULE_BOOK) for entry in book]
                  + [_rule(entry, RULINGS, ruling=True) for entry in rulings])
    by_id = {rule.id: rule for rule in rules}
    if len(by_id) != len(rules):
        raise ValueError(f"{folder}: a rule id stands twice in the catalogue")
    return Catalogue(rules, by_id, tuple(rule.id for rule in rules[len(book):]))
