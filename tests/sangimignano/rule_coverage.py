"""San Gimignano's rule book and how its rule ids read, for tests/test_rule_coverage.py."""
from tests.rule_coverage import ids_of_a_family_and_a_part

# The rule book (service/games/sangimignano/rules.md) in the order it names its ids, as the catalogue must serve it.
BOOK_IDS = ["S-COMP-1", "S-COMP-2", "S-COMP-3", "S-SVC-TILES", "S-COMP-4", "S-GEO-1", "S-GEO-2", "S-GEO-3",
            "S-SETUP-1", "S-SETUP-2", "S-SVC-START", "S-SETUP-3", "S-TURN-1", "S-TOKEN-1", "S-SVC-SKIP", "S-TURN-2",
            "S-HEX-1", "S-HEX-2", "S-HEX-3", "S-SVC-NOFIT", "S-TURN-3", "S-BUILD-1", "S-BUILD-2", "S-BUILD-3",
            "S-BUILD-4", "S-END-1", "S-END-2", "S-SVC-STUCK", "S-END-3", "S-VAR-1"]
BOOK_RULINGS = {"S-COMP-3", "S-SVC-TILES", "S-SVC-START", "S-SVC-SKIP", "S-SVC-NOFIT", "S-TURN-3", "S-SVC-STUCK",
                "S-END-3"}
SERVICE_RULINGS = ["S-SVC-FORM", "S-SVC-UNKNOWN", "S-SVC-STEP", "S-SVC-LAYOUT", "S-SVC-EDGE", "S-SVC-SCORE"]

CITED = ids_of_a_family_and_a_part("S")
FAMILIES: set[str] = set()
CITED_AT_LEAST = 20
CITATION_EXAMPLE = ("S-TURN-1 (S-END-2/3), S-SVC-SKIP; S-SVC-* and A turn (S-TURN), S-VAR-1.",
                    ["S-TURN-1", "S-END-2", "S-SVC-SKIP", "S-VAR-1"])
