"""Campanile's rule book and how its rule ids read, for tests/test_rule_coverage.py."""
from tests.rule_coverage import ids_of_a_family_and_a_part

# The rule book (service/games/campanile/rules.md), as the catalogue must serve it.
BOOK_IDS = ["C-COMP-1", "C-COMP-2", "C-COMP-3", "C-COMP-4", "C-COMP-5", "C-SETUP-1", "C-SETUP-2", "C-SETUP-3",
            "C-TURN-PLAY", "C-TURN-BET", "C-TURN-DRAW", "C-TURN-END", "C-END-1", "C-END-2", "C-END-3", "C-END-4",
            "C-VAR-1"]
BOOK_RULINGS = {"C-TURN-END", "C-END-4"}

CITED = ids_of_a_family_and_a_part("C")
FAMILIES: set[str] = set()
CITED_AT_LEAST = 15
CITATION_EXAMPLE = ("C-TURN-BET (C-END-2/3), C-SVC-PASS; C-SVC-* and A turn (C-TURN), C-VAR-1.",
                    ["C-TURN-BET", "C-END-2", "C-SVC-PASS", "C-VAR-1"])
