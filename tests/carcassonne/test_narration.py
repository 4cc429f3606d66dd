"""Carcassonne's rare events in words, and where a sentence says a feature is, said by hand (every game's sentences
in random games are tests/test_narration.py's)."""
from __future__ import annotations

from service.games.carcassonne.narration import SENTENCES, narrate
from tests.narration import check_sentences, told

from .narration import facts


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
