"""What every game's rule-coverage meta-tests read: the per-rule battery's text, the rules no test function is named
after, and the rule ids a rules library cites."""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path


def battery_text(folder: Path) -> str:
    """The text of a game's per-rule battery (its tests/<game>/test_rules*.py)."""
    files = sorted(folder.glob("test_rules*.py"))
    assert files, "no per-rule test files found"
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def not_named_by_a_test(rule_ids: Iterable[str], text: str) -> list[str]:
    """The rule ids with no test function named `test_<ID>_...` (dashes as underscores) in `text`."""
    names = set(re.findall(r"def (test_\w+)", text))
    return [rule_id for rule_id in rule_ids
            if not any(name.startswith("test_" + rule_id.replace("-", "_") + "_") for name in names)]


def ids_of_a_family_and_a_part(letter: str) -> re.Pattern[str]:
    """The rule ids a library cites when an id is a family and at least one more part (C-TURN-BET, C-SVC-PASS): a
    bare family ("C-TURN") and a wildcard ("C-SVC-*") are not ids."""
    return re.compile(rf"(?<![A-Za-z0-9_-]){letter}-[A-Z]+(?:-[A-Z0-9]+)+(?![A-Za-z0-9*])")


# What a library cites rules in: its modules and the service's rulings (the rule book, rule_book.json, is the
# catalogue itself)
CITING = ("*.py", "rulings.toml")


def cited_rule_ids(library: Path, pattern: re.Pattern[str], *, skip: Iterable[str] = (),
                   families: Iterable[str] = ()) -> dict[str, set[str]]:
    """Rule id -> the names of the library's modules (and rulings.toml) citing it (`skip`: data modules;
    `families`: ids that name a family of rules, not a rule)."""
    skipped, family_ids = set(skip), set(families)
    cited: dict[str, set[str]] = {}
    for path in sorted(path for files in CITING for path in library.glob(files)):
        if path.name in skipped:
            continue
        for rule_id in pattern.findall(path.read_text(encoding="utf-8")):
            if rule_id not in family_ids:
                cited.setdefault(rule_id, set()).add(path.name)
    return cited
