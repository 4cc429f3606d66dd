"""Every registered game's per-rule battery against its rule catalogue (tests/rule_coverage.py reads them): every
rule the battery answers for (all of them, or what tests/<game>/rule_coverage.py names in `BATTERY_RULE_IDS`) has a
test function named after it in tests/<game>/test_rules*.py, every rule id the library cites is in the catalogue it
serves, and the catalogue is the rule book (`BOOK_IDS` in order, `BOOK_RULINGS` its rulings) then the service's own
rulings. A registered game without tests/<game>/rule_coverage.py fails here, so no game skips this; one that checks
its rule book otherwise says so (`BOOK_IDS = None`) and checks it in its folder."""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from service.games.registry import GAMES
from tests import rule_coverage

TESTS = Path(__file__).resolve().parent
ALL = list(GAMES)


def declared(game: str) -> ModuleType:
    return importlib.import_module(f"tests.{game}.rule_coverage")


def catalogue(game: str) -> ModuleType:
    return importlib.import_module(f"service.games.{game}")


def battery_rule_ids(game: str) -> list[str]:
    every_rule = [rule.id for rule in catalogue(game).RULES]
    return getattr(declared(game), "BATTERY_RULE_IDS", every_rule)


@pytest.mark.parametrize("game", ALL)
def test_the_catalogue_has_each_rule_once_with_its_text(game: str) -> None:
    rules = catalogue(game).RULES
    ids = [rule.id for rule in rules]
    assert len(ids) == len(set(ids)) and ids == list(catalogue(game).RULES_BY_ID)
    assert all(rule.text.strip() and rule.section for rule in rules)


def checks_its_rule_book_elsewhere(game: str) -> bool:
    try:
        return declared(game).BOOK_IDS is None
    except Exception:  # noqa: BLE001 - a game that declares nothing fails each test here instead
        return False


@pytest.mark.parametrize("game", [game for game in ALL if not checks_its_rule_book_elsewhere(game)])
def test_the_catalogue_is_the_rule_book_then_the_service_rulings(game: str) -> None:
    book_ids, rules = declared(game).BOOK_IDS, catalogue(game).RULES
    book, service = rules[:len(book_ids)], rules[len(book_ids):]
    assert [rule.id for rule in book] == book_ids
    assert {rule.id for rule in book if rule.ruling} == declared(game).BOOK_RULINGS
    service_prefix = book_ids[0].split("-")[0] + "-SVC-"
    assert len(service) >= 5
    assert all(r.id.startswith(service_prefix) and r.ruling and r.text and r.title for r in service)


@pytest.mark.parametrize("game", ALL)
def test_every_rule_has_a_test(game: str) -> None:
    text = rule_coverage.battery_text(TESTS / game)
    missing = [rule_id for rule_id in battery_rule_ids(game) if rule_id.replace("-", "_") not in text]
    assert missing == [], f"rules without a test in tests/{game}/test_rules*.py: {missing}"


@pytest.mark.parametrize("game", ALL)
def test_every_rule_is_named_by_a_test_function(game: str) -> None:
    text = rule_coverage.battery_text(TESTS / game)
    missing = rule_coverage.not_named_by_a_test(battery_rule_ids(game), text)
    assert missing == [], f"rules with no test named after them: {missing}"


@pytest.mark.parametrize("game", ALL)
def test_every_rule_id_cited_by_the_library_is_in_the_catalogue(game: str) -> None:
    game_s = declared(game)
    known = set(catalogue(game).RULES_BY_ID)
    cited = rule_coverage.cited_rule_ids(Path(catalogue(game).__file__).parent, game_s.CITED,
                                         families=game_s.FAMILIES)
    assert len(cited) > game_s.CITED_AT_LEAST  # the pattern does find the library's citations
    unknown = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in known}
    assert unknown == {}, f"rule ids cited but not in the catalogue: {unknown}"


@pytest.mark.parametrize("game", ALL)
def test_the_citation_pattern_reads_ids_and_skips_families(game: str) -> None:
    text, ids = declared(game).CITATION_EXAMPLE
    assert declared(game).CITED.findall(text) == ids
