"""San Gimignano's service rulings, after the rule book in the catalogue (the rule book's part, that every rule has a
test and every cited id is catalogued are tests/test_rule_coverage.py's)."""
from __future__ import annotations

from service.games import sangimignano

from .rule_coverage import BOOK_IDS

SERVICE_RULINGS = ["S-SVC-FORM", "S-SVC-UNKNOWN", "S-SVC-STEP", "S-SVC-LAYOUT", "S-SVC-EDGE", "S-SVC-SCORE"]


def test_the_catalogue_has_the_rule_book_and_the_service_rulings():
    assert [rule.id for rule in sangimignano.RULES] == BOOK_IDS + SERVICE_RULINGS
