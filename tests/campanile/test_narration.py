"""Campanile's rare events in words, said by hand (every game's sentences in random games are
tests/test_narration.py's)."""
from __future__ import annotations

from service.games.campanile.narration import SENTENCES, narrate
from tests.narration import check_sentences, told

from .narration import facts


def test_a_pass_and_the_end_it_brings_are_said() -> None:
    names = ("Ada", "Bea", "Cy")
    passed = {"type": "passed", "player": 2, "step": 4}
    over = {"type": "game_over", "reason": "no_cards", "winners": [0, 1], "step": 4}
    assert narrate(passed, names) == "Cy holds no card and passed."
    assert narrate(over, names) == "The game is over: nobody holds a card any more; Ada and Bea share the win."
    check_sentences(told(narrate, names, passed, over), SENTENCES, facts)
