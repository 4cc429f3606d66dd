"""Meta-tests of the per-rule battery: every rule of the catalogue (the rule book's K-* and K-TOW-* ids and the
service's K-SVC-* rulings) has a test named after it, and every rule id the library cites is in the catalogue."""
from __future__ import annotations

import re
from pathlib import Path

from service.games import carcassonne
from tests import rule_coverage

HERE = Path(__file__).parent
LIBRARY = Path(carcassonne.__file__).parent

# The rule book (service/games/carcassonne/rules.md), as the catalogue must serve it.
BOOK_IDS = ["K-COMP-1", "K-COMP-2", "K-COMP-3", "K-TILE-1", "K-TILE-2", "K-TILE-3", "K-TILE-4", "K-SETUP-1",
            "K-SETUP-2", "K-PLACE", "K-PLACE-1", "K-PLACE-2", "K-PLACE-3", "K-MEEPLE", "K-MEEPLE-1", "K-MEEPLE-2",
            "K-SCORE", "K-SCORE-ROAD", "K-SCORE-CITY", "K-SCORE-CLOISTER", "K-SCORE-MAJORITY", "K-SCORE-RETURN",
            "K-END-1", "K-END-2", "K-END-3", "K-END-4", "K-TOW-TILE-1", "K-TOW-TILE-2", "K-TOW-ACT", "K-TOW-ACT-1",
            "K-TOW-ACT-2", "K-TOW-ACT-3", "K-TOW-CAP-1", "K-TOW-CAP-2", "K-TOW-SWAP", "K-TOW-RANSOM",
            "K-TOW-SCORE"]
BOOK_RULINGS = {"K-END-4", "K-TOW-RANSOM"}
FAMILIES = {"K-COMP", "K-TILE", "K-SETUP", "K-TURN", "K-END", "K-TOW", "K-SVC"}  # sections, cited as such

# An id is a family and at least one more part, or a bare part of a turn (K-PLACE); wildcards are not ids.
CITED = re.compile(r"(?<![A-Za-z0-9_-])K-[A-Z]+(?:-[A-Z0-9]+)*(?![A-Za-z0-9*-])")


def battery_text() -> str:
    return rule_coverage.battery_text(HERE)


def test_the_catalogue_has_the_rule_book_and_the_service_rulings():
    ids = [rule.id for rule in carcassonne.RULES]
    assert len(ids) == len(set(ids)) and ids == list(carcassonne.RULES_BY_ID)
    assert ids[:len(BOOK_IDS)] == BOOK_IDS
    assert {r.id for r in carcassonne.RULES if r.ruling and not r.id.startswith("K-SVC-")} == BOOK_RULINGS
    service = [r for r in carcassonne.RULES if r.id.startswith("K-SVC-")]
    assert len(service) >= 5 and all(r.ruling and r.text and r.title for r in service)
    assert all(r.text.strip() and r.section for r in carcassonne.RULES)


def test_every_rule_is_named_by_a_test_function():
    missing = rule_coverage.not_named_by_a_test([rule.id for rule in carcassonne.RULES], battery_text())
    assert missing == [], f"rules with no test named after them: {missing}"


def test_every_rule_id_cited_by_the_library_is_in_the_catalogue():
    known = set(carcassonne.RULES_BY_ID)
    cited = rule_coverage.cited_rule_ids(LIBRARY, CITED, families=FAMILIES)
    assert len(cited) > 25  # the pattern does find the library's citations
    unknown = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in known}
    assert unknown == {}, f"rule ids cited but not in the catalogue: {unknown}"


def test_the_citation_pattern_reads_ids_and_skips_families():
    found = CITED.findall("K-TOW-ACT-1 (K-END-2/3), K-SVC-BAG; K-SVC-* and K-PLACE, K-TOW-CAP-1/2.")
    assert found == ["K-TOW-ACT-1", "K-END-2", "K-SVC-BAG", "K-PLACE", "K-TOW-CAP-1"]
