"""Carcassonne's rule book and how its rule ids read, for tests/test_rule_coverage.py."""
import re

# The rule book (service/games/carcassonne/rules.md), as the catalogue must serve it.
BOOK_IDS = ["K-COMP-1", "K-COMP-2", "K-COMP-3", "K-TILE-1", "K-TILE-2", "K-TILE-3", "K-TILE-4", "K-SETUP-1",
            "K-SETUP-2", "K-PLACE", "K-PLACE-1", "K-PLACE-2", "K-PLACE-3", "K-MEEPLE", "K-MEEPLE-1", "K-MEEPLE-2",
            "K-SCORE", "K-SCORE-ROAD", "K-SCORE-CITY", "K-SCORE-CLOISTER", "K-SCORE-MAJORITY", "K-SCORE-RETURN",
            "K-END-1", "K-END-2", "K-END-3", "K-END-4", "K-TOW-TILE-1", "K-TOW-TILE-2", "K-TOW-ACT", "K-TOW-ACT-1",
            "K-TOW-ACT-2", "K-TOW-ACT-3", "K-TOW-CAP-1", "K-TOW-CAP-2", "K-TOW-SWAP", "K-TOW-RANSOM",
            "K-TOW-SCORE"]
BOOK_RULINGS = {"K-END-4", "K-TOW-RANSOM"}

# An id is a family and at least one more part, or a bare part of a turn (K-PLACE); wildcards are not ids.
CITED = re.compile(r"(?<![A-Za-z0-9_-])K-[A-Z]+(?:-[A-Z0-9]+)*(?![A-Za-z0-9*-])")
FAMILIES = {"K-COMP", "K-TILE", "K-SETUP", "K-TURN", "K-END", "K-TOW", "K-SVC"}  # sections, cited as such
CITED_AT_LEAST = 25
CITATION_EXAMPLE = ("K-TOW-ACT-1 (K-END-2/3), K-SVC-BAG; K-SVC-* and K-PLACE, K-TOW-CAP-1/2.",
                    ["K-TOW-ACT-1", "K-END-2", "K-SVC-BAG", "K-PLACE", "K-TOW-CAP-1"])
