"""Meta-tests of the per-rule battery: every base-game rule and every service ruling has a test, and every rule id
the library cites is in the catalogue it serves."""
from __future__ import annotations

import re
from pathlib import Path


from service.games import torri
from tests import rule_coverage

HERE = Path(__file__).parent
LIBRARY = Path(torri.__file__).parent

# Advanced-game rules, tested elsewhere; T-COMP-2 keeps a base-game test (a noble in a base state is rejected).
NOT_BASE = {"T-COMP-2", "T-SETUP-3", "T-END-3"}

# An id is a family and at least one more part: T-ACT-BUILD-2, T-DRAW-SHORT, T-SVC-EMPTY. Section names
# ("T-ACT") and wildcards ("T-SVC-*") are not ids.
CITED = re.compile(r"(?<![A-Za-z0-9_-])T-[A-Z]+(?:-[A-Z0-9]+)+(?![A-Za-z0-9*])")


def base_rule_ids() -> list[str]:
    return [rule.id for rule in torri.RULES if not rule.id.startswith("T-NOB-") and rule.id not in NOT_BASE]


def battery_text() -> str:
    return rule_coverage.battery_text(HERE)


def test_the_catalogue_has_the_rule_book_and_the_service_rulings():
    ids = [rule.id for rule in torri.RULES]
    assert len(ids) == len(set(ids))
    assert ids == list(torri.RULES_BY_ID)
    assert {"T-COMP-1", "T-DRAW-SHORT", "T-DON-ONCE", "T-SCORE-DEALS", "T-SVC-EMPTY"} <= set(ids)
    service = [r for r in torri.RULES if r.id.startswith("T-SVC-")]
    assert {"T-SVC-HAND", "T-SVC-UNKNOWN", "T-SVC-REFILL", "T-SVC-MARKER", "T-SVC-LIMIT", "T-SVC-REBUILD",
            "T-SVC-EMPTY"} <= {r.id for r in service}
    assert all(r.ruling and r.text for r in service)


def test_every_base_rule_and_service_ruling_has_a_test():
    text = battery_text()
    missing = [rule_id for rule_id in base_rule_ids()
               if rule_id not in text and rule_id.replace("-", "_") not in text]
    assert missing == [], f"rules without a test in tests/torri/test_rules*.py: {missing}"


def test_every_base_rule_is_named_by_a_test_function():
    missing = rule_coverage.not_named_by_a_test(base_rule_ids(), battery_text())
    assert missing == [], f"rules with no test named after them: {missing}"


def test_every_rule_id_cited_by_the_library_is_in_the_catalogue():
    known = set(torri.RULES_BY_ID)
    # the wire schemas name an action by its family of rules ("Pass (T-ACT-PASS)"): a family is the common
    # prefix of catalogue ids, which the reader finds there as T-ACT-PASS-1, …
    families = {rule_id.rsplit("-", 1)[0] for rule_id in known if rule_id.rsplit("-", 1)[-1].isdigit()}
    cited = rule_coverage.cited_rule_ids(LIBRARY, CITED, families=families - known)
    assert len(cited) > 40  # the pattern does find the library's citations
    unknown = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in known}
    assert unknown == {}, f"rule ids cited but not in the catalogue: {unknown}"


def test_the_citation_pattern_reads_ids_and_skips_families():
    found = CITED.findall("T-ACT-BUILD-4 (T-DON-8/9/10), T-DRAW-SHORT; T-SVC-* and Actions (T-ACT), T-NOB-BP.")
    assert found == ["T-ACT-BUILD-4", "T-DON-8", "T-DRAW-SHORT", "T-NOB-BP"]


def test_rule_texts_cite_whole_ids_or_wildcards():
    dangling = {rule.id: rule.text for rule in torri.RULES if re.search(r"\bT-[A-Z]+-(?![A-Z0-9*])", rule.text)}
    assert dangling == {}
