"""Meta-tests of the per-rule battery: every rule of the catalogue (the rule book's S-* ids, its S-SVC-* rulings and
the service's own) has a test named after it, and every rule id the library cites is in the catalogue it serves."""
from __future__ import annotations

import re
from pathlib import Path

from service.games import sangimignano
from tests import rule_coverage

HERE = Path(__file__).parent
LIBRARY = Path(sangimignano.__file__).parent

# The rule book (service/games/sangimignano/rules.md) in the order it names its ids, as the catalogue must serve it.
BOOK_IDS = ["S-COMP-1", "S-COMP-2", "S-COMP-3", "S-SVC-TILES", "S-COMP-4", "S-GEO-1", "S-GEO-2", "S-GEO-3",
            "S-SETUP-1", "S-SETUP-2", "S-SVC-START", "S-SETUP-3", "S-TURN-1", "S-TOKEN-1", "S-SVC-SKIP", "S-TURN-2",
            "S-HEX-1", "S-HEX-2", "S-HEX-3", "S-SVC-NOFIT", "S-TURN-3", "S-BUILD-1", "S-BUILD-2", "S-BUILD-3",
            "S-BUILD-4", "S-END-1", "S-END-2", "S-SVC-STUCK", "S-END-3", "S-VAR-1"]
BOOK_RULINGS = {"S-COMP-3", "S-SVC-TILES", "S-SVC-START", "S-SVC-SKIP", "S-SVC-NOFIT", "S-TURN-3", "S-SVC-STUCK",
                "S-END-3"}
SERVICE_RULINGS = ["S-SVC-FORM", "S-SVC-UNKNOWN", "S-SVC-STEP", "S-SVC-LAYOUT", "S-SVC-EDGE", "S-SVC-SCORE"]

# An id is a family and at least one more part: S-TURN-1, S-SVC-SKIP. Wildcards ("S-SVC-*") are not ids.
CITED = re.compile(r"(?<![A-Za-z0-9_-])S-[A-Z]+(?:-[A-Z0-9]+)+(?![A-Za-z0-9*])")


def battery_text() -> str:
    return rule_coverage.battery_text(HERE)


def test_the_catalogue_has_the_rule_book_and_the_service_rulings():
    ids = [rule.id for rule in sangimignano.RULES]
    assert len(ids) == len(set(ids)) and ids == list(sangimignano.RULES_BY_ID)
    assert ids == BOOK_IDS + SERVICE_RULINGS
    assert {r.id for r in sangimignano.RULES if r.ruling and r.id in BOOK_IDS} == BOOK_RULINGS
    assert all(sangimignano.RULES_BY_ID[i].ruling and sangimignano.RULES_BY_ID[i].title for i in SERVICE_RULINGS)
    assert all(r.text.strip() and r.section for r in sangimignano.RULES)


def test_every_rule_has_a_test():
    text = battery_text()
    missing = [rule.id for rule in sangimignano.RULES if rule.id.replace("-", "_") not in text]
    assert missing == [], f"rules without a test in tests/sangimignano/test_rules*.py: {missing}"


def test_every_rule_is_named_by_a_test_function():
    missing = rule_coverage.not_named_by_a_test([rule.id for rule in sangimignano.RULES], battery_text())
    assert missing == [], f"rules with no test named after them: {missing}"


def test_every_rule_id_cited_by_the_library_is_in_the_catalogue():
    known = set(sangimignano.RULES_BY_ID)
    cited = rule_coverage.cited_rule_ids(LIBRARY, CITED)
    assert len(cited) > 20  # the pattern does find the library's citations
    unknown = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in known}
    assert unknown == {}, f"rule ids cited but not in the catalogue: {unknown}"


def test_the_citation_pattern_reads_ids_and_skips_families():
    found = CITED.findall("S-TURN-1 (S-END-2/3), S-SVC-SKIP; S-SVC-* and A turn (S-TURN), S-VAR-1.")
    assert found == ["S-TURN-1", "S-END-2", "S-SVC-SKIP", "S-VAR-1"]
