"""Torri's rule catalogue has the rule book's ids and the service's T-SVC-* rulings, and its texts cite whole ids;
that every base-game rule has a test and every cited id is catalogued is tests/test_rule_coverage.py's."""
from __future__ import annotations

import re

from service.games import torri


def test_the_catalogue_has_the_rule_book_and_the_service_rulings():
    ids = [rule.id for rule in torri.RULES]
    assert {"T-COMP-1", "T-DRAW-SHORT", "T-DON-ONCE", "T-SCORE-DEALS", "T-SVC-EMPTY"} <= set(ids)
    service = [r for r in torri.RULES if r.id.startswith("T-SVC-")]
    assert {"T-SVC-HAND", "T-SVC-UNKNOWN", "T-SVC-REFILL", "T-SVC-MARKER", "T-SVC-LIMIT", "T-SVC-REBUILD",
            "T-SVC-EMPTY"} <= {r.id for r in service}
    assert all(r.ruling and r.text for r in service)


def test_rule_texts_cite_whole_ids_or_wildcards():
    dangling = {rule.id: rule.text for rule in torri.RULES if re.search(r"\bT-[A-Z]+-(?![A-Z0-9*])", rule.text)}
    assert dangling == {}
