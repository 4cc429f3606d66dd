"""How Torri's rule ids read, for tests/test_rule_coverage.py: the per-rule battery answers for the base game's rules
and the service's rulings."""
from service.games import torri
from tests.rule_coverage import ids_of_a_family_and_a_part

# the catalogue's rule-book part is checked by the ids it must hold (tests/torri/test_rule_coverage.py)
BOOK_IDS = None

# Advanced-game rules, tested elsewhere; T-COMP-2 keeps a base-game test (a noble in a base state is rejected).
NOT_BASE = {"T-COMP-2", "T-SETUP-3", "T-END-3"}
BATTERY_RULE_IDS = [rule.id for rule in torri.RULES if not rule.id.startswith("T-NOB-") and rule.id not in NOT_BASE]

CITED = ids_of_a_family_and_a_part("T")
# the wire schemas name an action by its family of rules ("Pass (T-ACT-PASS)"): a family is the common prefix of
# catalogue ids, which the reader finds there as T-ACT-PASS-1, …
FAMILIES = {rule_id.rsplit("-", 1)[0] for rule_id in torri.RULES_BY_ID
            if rule_id.rsplit("-", 1)[-1].isdigit()} - set(torri.RULES_BY_ID)
CITED_AT_LEAST = 40
CITATION_EXAMPLE = ("T-ACT-BUILD-4 (T-DON-8/9/10), T-DRAW-SHORT; T-SVC-* and Actions (T-ACT), T-NOB-BP.",
                    ["T-ACT-BUILD-4", "T-DON-8", "T-DRAW-SHORT", "T-NOB-BP"])
