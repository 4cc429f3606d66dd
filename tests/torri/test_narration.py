"""Torri's events in words: every event type the engine makes has a sentence, and in seeded random games (both
variants) each sentence names the player and says the facts; /apply's and /replay's events carry it as `text`."""
from __future__ import annotations

import pytest

from service.games.torri.narration import NOBLES, SENTENCES, narrate
from tests.narration import check_sentences, engine_event_types, played_events

NAMES = ("Adso", "William")
LIKED = ("guard", "giostra", "noble", "target", "build", "extend", "decline")


def card(name: str) -> str:
    return NOBLES.get(name, name)


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say."""
    said = [names[event["player"]]] if isinstance(event.get("player"), int) else []
    kind = event["type"]
    said += [card(c) for c in event.get("cards", [])]
    if kind == "built":
        said += [f"{event['rank']}", event["kind"], f"{len(event['cards'])} stories" if len(event["cards"]) > 1
                 else "1 story"]
    if kind in ("built", "extended", "destroyed", "targeted"):
        said.append(["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                     "tenth"][event["tower"]] + " tower")
    if kind in ("purchase", "donazione") and "draws" in event:
        said.append(f"{event['draws']} card")
    if kind == "drew":
        said += [card(event["card"]), event["from"].replace("_", " ")]
    if kind == "marker":
        said.append(f"{event['height']} stor")
    if kind == "took":
        said.append(names[event["from"]])
    if kind == "gave":
        said.append(names[event["to"]])
    if kind in ("noble", "cancelled"):
        said.append(card(event["card"]))
    if kind == "noble":
        said += [card(c) for c in event["cost"]]
    if kind == "donazione":
        said.append(event["effect"].capitalize())
    return said


@pytest.fixture(scope="module")
def events() -> list[tuple[dict, tuple[str, ...]]]:
    return played_events("torri", seeds=range(40), players=[2], variants=[{}, {"nobles": True}], liked=LIKED,
                         names=NAMES)


def test_every_event_type_the_engine_makes_has_a_sentence() -> None:
    assert engine_event_types("torri") == set(SENTENCES)


def test_random_games_reach_every_event_type(events) -> None:
    assert {event["type"] for event, _ in events} == set(SENTENCES)


def test_every_sentence_names_the_player_and_the_facts(events) -> None:
    check_sentences(events, SENTENCES, facts)


def test_sentences_read_as_a_referee_says_them() -> None:
    assert narrate({"type": "built", "player": 0, "tower": 1, "cards": ["9", "9", "9"], "kind": "plain",
                    "rank": 9, "step": 0}, NAMES) == \
        "Adso built a plain tower of 9s, 3 stories high (9, 9 and 9): their second tower."
    assert narrate({"type": "drew", "player": 1, "from": "market", "card": "8"}, NAMES) == \
        "William drew an 8 from the market."
    assert narrate({"type": "giostra", "player": 1, "against": "via_francigena"}, NAMES) == \
        "William answered with Giostra against Adso's Via Francigena."
    assert narrate({"type": "phase", "phase": "ending", "reason": "deck_empty"}, NAMES) == \
        "The Ending phase begins: the deck is empty."


def test_an_event_of_an_unknown_type_is_still_said() -> None:
    assert narrate({"type": "new_thing", "player": 0, "cards": ["5"]}, NAMES) == \
        "New thing: player Adso, cards 5."
