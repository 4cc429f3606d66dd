"""Every registered game's events in words (tests/narration.py plays the games): every event type the game's engine
makes has a sentence in service/games/<game>/narration.py, seeded random games reach every event type (but the rare
ones tests/<game>/narration.py names in `UNREACHED`, whose sentences its own tests check by hand), and each sentence
names the players and says the facts `facts` lists; /apply's events carry it as `text`. A registered game without
tests/<game>/narration.py fails here, so no game skips this."""
from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

import pytest

from service.games.registry import GAMES
from tests.narration import check_sentences, engine_event_types, played_events

ALL = list(GAMES)


def declared(game: str) -> ModuleType:
    return importlib.import_module(f"tests.{game}.narration")


def sentences(game: str) -> dict:
    return importlib.import_module(f"service.games.{game}.narration").SENTENCES


@cache
def events(game: str) -> list[tuple[dict, tuple[str, ...]]]:
    return played_events(game, **declared(game).PLAYED)


@pytest.mark.parametrize("game", ALL)
def test_every_event_type_the_engine_makes_has_a_sentence(game: str) -> None:
    assert engine_event_types(game) == set(sentences(game))


@pytest.mark.parametrize("game", ALL)
def test_random_games_reach_every_event_type_but_the_rare_ones(game: str) -> None:
    assert {event["type"] for event, _ in events(game)} == set(sentences(game)) - declared(game).UNREACHED


@pytest.mark.parametrize("game", ALL)
def test_every_sentence_names_the_players_and_the_facts(game: str) -> None:
    check_sentences(events(game), sentences(game), declared(game).facts)
