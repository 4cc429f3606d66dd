"""Meta-tests of the per-rule battery: every rule of the catalogue (the rule book's C-* ids and the service's
C-SVC-* rulings) has a test named after it, and every rule id the library cites is in the catalogue it serves."""
from __future__ import annotations

import re
from pathlib import Path

from service.games import campanile
from tests import rule_coverage

HERE = Path(__file__).parent
LIBRARY = Path(campanile.__file__).parent

# The rule book (service/games/campanile/rules.md), as the catalogue must serve it.
BOOK_IDS = ["C-COMP-1", "C-COMP-2", "C-COMP-3", "C-COMP-4", "C-COMP-5", "C-SETUP-1", "C-SETUP-2", "C-SETUP-3",
            "C-TURN-PLAY", "C-TURN-BET", "C-TURN-DRAW", "C-TURN-END", "C-END-1", "C-END-2", "C-END-3", "C-END-4",
            "C-VAR-1"]
BOOK_RULINGS = {"C-TURN-END", "C-END-4"}

# An id is a family and at least one more part: C-TURN-BET, C-SVC-PASS. Wildcards ("C-SVC-*") are not ids.
CITED = re.compile(r"(?<![A-Za-z0-9_-])C-[A-Z]+(?:-[A-Z0-9]+)+(?![A-Za-z0-9*])")


def battery_text() -> str:
    return rule_coverage.battery_text(HERE)


def test_the_catalogue_has_the_rule_book_and_the_service_rulings():
    ids = [rule.id for rule in campanile.RULES]
    assert len(ids) == len(set(ids)) and ids == list(campanile.RULES_BY_ID)
    assert ids[:len(BOOK_IDS)] == BOOK_IDS
    assert {r.id for r in campanile.RULES if r.ruling and not r.id.startswith("C-SVC-")} == BOOK_RULINGS
    service = [r for r in campanile.RULES if r.id.startswith("C-SVC-")]
    assert len(service) >= 5 and all(r.ruling and r.text and r.title for r in service)
    assert all(r.text.strip() and r.section for r in campanile.RULES)


def test_every_rule_has_a_test():
    text = battery_text()
    missing = [rule.id for rule in campanile.RULES if rule.id.replace("-", "_") not in text]
    assert missing == [], f"rules without a test in tests/campanile/test_rules*.py: {missing}"


def test_every_rule_is_named_by_a_test_function():
    missing = rule_coverage.not_named_by_a_test([rule.id for rule in campanile.RULES], battery_text())
    assert missing == [], f"rules with no test named after them: {missing}"


def test_every_rule_id_cited_by_the_library_is_in_the_catalogue():
    known = set(campanile.RULES_BY_ID)
    cited = rule_coverage.cited_rule_ids(LIBRARY, CITED)
    assert len(cited) > 15  # the pattern does find the library's citations
    unknown = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in known}
    assert unknown == {}, f"rule ids cited but not in the catalogue: {unknown}"


def test_the_citation_pattern_reads_ids_and_skips_families():
    found = CITED.findall("C-TURN-BET (C-END-2/3), C-SVC-PASS; C-SVC-* and A turn (C-TURN), C-VAR-1.")
    assert found == ["C-TURN-BET", "C-END-2", "C-SVC-PASS", "C-VAR-1"]
