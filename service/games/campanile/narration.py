"""Campanile's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a referee
reads out for one event of /apply or /replay. A tower is named by its style (the tower at position i has style i,
C-COMP-1)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.narration import Event, article, counted, narrator, player_name, winners_sentence
from .cards import STYLES


def tower(index: int) -> str:
    return f"tower {STYLES[index]}" if isinstance(index, int) and 0 <= index < len(STYLES) else f"tower {index}"


def _played(event: Event, names: Sequence[str]) -> str:
    return (f"{player_name(names, event['player'])} played {article(event['card'])} card on {tower(event['tower'])}, "
            f"{counted(event['stories'], 'story', 'stories')} up: it stands {event['height']} high.")


def _drew(event: Event, names: Sequence[str]) -> str:
    said = f"{player_name(names, event['player'])} took the {event['card']} from Finito pile {event['pile']}"
    if event.get("left"):
        revealed = event.get("revealed")
        shown = f"{article(revealed)} is turned face up" if revealed else "the next card is turned up"
        return said + f"; {shown}, {counted(event['left'], 'card')} left there."
    return said + ", its last card."


def _game_over(event: Event, names: Sequence[str]) -> str:
    if event.get("reason") == "pile_empty":
        why = f"Finito pile {event.get('pile')} is empty"
    else:
        why = "nobody holds a card any more"
    return f"The game is over: {why}; {winners_sentence(names, event.get('winners', []))}."


SENTENCES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "played": _played,
    "bet": lambda e, n: f"{player_name(n, e['player'])} bet a token worth {e['value']} under {tower(e['tower'])}.",
    "no_bet": lambda e, n: f"{player_name(n, e['player'])} placed no token.",
    "drew": _drew,
    "passed": lambda e, n: f"{player_name(n, e['player'])} holds no card and passed.",
    "turn": lambda e, n: f"{player_name(n, e['player'])}'s turn.",
    "game_over": _game_over,
}


narrate = narrator(SENTENCES)  # one of Campanile's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
