"""Torri's sentences as a referee says them, and an event of a type the narration does not know (every game's
sentences in random games are tests/test_narration.py's)."""
from __future__ import annotations

from service.games.core.narration import plainly
from service.games.torri.narration import narrate

from .narration import NAMES


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
    """In the shared core's plain words (core.narration.plainly: how it joins the facts is the core's)."""
    event = {"type": "new_thing", "player": 0, "cards": ["5"]}
    said = narrate(event, NAMES)
    assert said == plainly(event, NAMES)
    assert said.startswith("New thing: player Adso") and said.endswith("cards 5.")
