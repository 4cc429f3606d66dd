"""Campanile's events in words: every event type the engine makes has a sentence, and in seeded random games (2 to 5
players, both variants) each sentence names the player and says the facts; /apply's events carry it as `text`."""
from __future__ import annotations

import pytest

from service.games.campanile.narration import SENTENCES, narrate
from tests.narration import check_sentences, engine_event_types, played_events, told

STYLES = "ABCDE"


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say."""
    said = [names[event["player"]]] if "player" in event else []
    kind = event["type"]
    if kind in ("played", "bet"):
        said.append(f"tower {STYLES[event['tower']]}")
    if kind == "played":
        said += [f"{event['card']} card", f"{event['stories']} stor", f"{event['height']} high"]
    if kind == "bet":
        said.append(f"worth {event['value']}")
    if kind == "drew":
        said += [f"the {event['card']}", f"pile {event['pile']}"]
        if event["left"]:
            said += [f"{event['revealed']} is turned face up", f"{event['left']} card"]
    if kind == "game_over":
        said += [names[w] for w in event["winners"]]
        if event["reason"] == "pile_empty":
            said.append(f"pile {event['pile']} is empty")
    return said


@pytest.fixture(scope="module")
def events() -> list[tuple[dict, tuple[str, ...]]]:
    return played_events("campanile", seeds=range(3), players=[2, 3, 5], variants=[{}, {"bet_on_played": True}])


def test_every_event_type_the_engine_makes_has_a_sentence() -> None:
    assert engine_event_types("campanile") == set(SENTENCES)


def test_random_games_reach_every_event_type_but_a_pass(events) -> None:
    # C-TURN-END: a player with no card passes, which normal play never reaches (its sentence is checked below)
    assert {event["type"] for event, _ in events} == set(SENTENCES) - {"passed"}


def test_every_sentence_names_the_player_and_the_facts(events) -> None:
    check_sentences(events, SENTENCES, facts)


def test_a_pass_and_the_end_it_brings_are_said() -> None:
    names = ("Ada", "Bea", "Cy")
    passed = {"type": "passed", "player": 2, "step": 4}
    over = {"type": "game_over", "reason": "no_cards", "winners": [0, 1], "step": 4}
    assert narrate(passed, names) == "Cy holds no card and passed."
    assert narrate(over, names) == "The game is over: nobody holds a card any more; Ada and Bea share the win."
    check_sentences(told(narrate, names, passed, over), SENTENCES, facts)
