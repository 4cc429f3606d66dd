"""Carcassonne's events in words: every event type the engine makes has a sentence, and in seeded random games
(2 to 5 players, with and without The Tower) each sentence names the players and says the facts; /apply's events
carry it as `text`."""
from __future__ import annotations

import pytest

from service.games.carcassonne.narration import SENTENCES, narrate
from tests.narration import check_sentences, engine_event_types, played_events, said, told

LIKED = ("capture", "ransom", "floor", "tower_meeple", "meeple")


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say."""
    out = [names[event["player"]]] if "player" in event else []
    kind = event["type"]
    if "at" in event:
        out.append(said(event["at"]))
    if kind in ("placed", "discarded"):
        out.append(event["tile"])
    if kind == "placed":
        out.append(f"{event['rotation']}°")
    if kind == "floor":
        out.append(f"{event['height']} floor")
    if kind == "captured":
        out.append(names[event["owner"]] if event["to"] == "prisoner" else "own meeple")
    if kind == "exchanged":
        out += [names[p] for p in event["players"]]
    if kind == "ransom":
        out += [names[event["from"]], f"{event['points']} points"]
    if kind == "scored":
        feature = event["feature"]
        out += [feature["type"], said(feature["at"])]
        if feature["type"] != "cloister":
            out.append(f"{len(feature['tiles'])} tile")
        if event["scorers"]:
            out += [names[p] for p in event["scorers"]] + [f"{event['points']} point"]
        elif event.get("worth"):
            out.append(f"worth {event['worth']} point")
    if kind == "game_over":
        out += [f"{names[p]} {total}" for p, total in enumerate(event["totals"])]
        out += [names[w] for w in event["winners"]]
    return out


@pytest.fixture(scope="module")
def events() -> list[tuple[dict, tuple[str, ...]]]:
    return played_events("carcassonne", seeds=range(2), players=[2, 3, 5], variants=[{}, {"tower": True}],
                         liked=LIKED)


def test_every_event_type_the_engine_makes_has_a_sentence() -> None:
    assert engine_event_types("carcassonne") == set(SENTENCES)


def test_random_games_reach_every_event_type_but_a_discard(events) -> None:
    # K-PLACE-3: a tile that fits nowhere is rare in a random game (its sentence is checked below)
    assert {event["type"] for event, _ in events} == set(SENTENCES) - {"discarded"}


def test_every_sentence_names_the_players_and_the_facts(events) -> None:
    check_sentences(events, SENTENCES, facts)


def test_a_discard_and_features_are_said_where_they_touch_the_tile() -> None:
    names = ("Ada", "Bea")
    discarded = {"type": "discarded", "player": 1, "tile": "BA/L", "step": 9}
    assert narrate(discarded, names) == "Bea discarded tile BA/L: it fits nowhere."
    assert narrate({"type": "meeple", "player": 0, "at": [1, 0], "feature": "WR"}, names) == \
        "Ada put a meeple on the tile at [1, 0], on the field on the north half of its west edge."
    assert narrate({"type": "scored", "feature": {"type": "city", "at": [0, 1], "feature": "S", "tiles": [[0, 1],
                    [0, 2]], "pennants": 1}, "points": 6, "scorers": [0, 1], "returned": []}, names) == \
        "Completed a city of 2 tiles with 1 pennant at [0, 1]: Ada and Bea each score 6 points."
    unheld = {"type": "scored", "feature": {"type": "road", "at": [2, 0], "feature": "E", "tiles": [[1, 0], [2, 0],
              [3, 0]], "pennants": 0}, "points": 0, "worth": 3, "scorers": [], "returned": []}
    assert narrate(unheld, names) == "Completed a road of 3 tiles at [2, 0]: worth 3 points, but nobody holds it."
    check_sentences(told(narrate, names, discarded, unheld), SENTENCES, facts)
