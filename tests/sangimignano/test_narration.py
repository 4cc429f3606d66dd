"""San Gimignano's rare events in words, said by hand (every game's sentences in random games are
tests/test_narration.py's)."""
from __future__ import annotations

from service.games.sangimignano.narration import SENTENCES, narrate
from tests.narration import check_sentences, told

from .narration import facts


def test_a_declared_misfit_and_the_skips_are_said() -> None:
    names = ("Ada", "Bea")
    declared = {"type": "no_fit", "player": 1, "step": 3}
    skipped = {"type": "skipped", "player": 0, "phase": "token", "reason": "no_token", "step": 3}
    assert narrate(declared, names) == "Bea declared that no hexagon in hand fits."
    assert narrate(skipped, names) == "Ada skips placing a token: no token is left in supply."
    check_sentences(told(narrate, names, declared, skipped), SENTENCES, facts)
