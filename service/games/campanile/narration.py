"""Campanile's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a referee
reads out for one event of /apply or /replay, a message of the game's catalogues (said in the answer's language). A
tower is named by its style (the tower at position i has style i, C-COMP-1)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.narration import Event, narrator, player_name, winners_sentence
from .cards import STYLES
from .messages import tr, tr_n


def tower(index: int) -> str | int:
    """A tower as the sentences name it: its style (`A`), or a position no tower has as it is."""
    return STYLES[index] if isinstance(index, int) and 0 <= index < len(STYLES) else index


def spoken_with_an(word: object) -> bool:
    """Whether English says "an" before `word` as read out: a card's letter (`an A`, `an E`, `a B`), a number."""
    text = str(word)
    return text[:1].upper() in "AEIOU8" or (len(text) == 1 and text in "FHLMNRSX") or text.startswith(("11", "18"))


def _played(event: Event, names: Sequence[str]) -> str:
    facts = {"player": player_name(names, event["player"]), "card": event["card"], "tower": tower(event["tower"]),
             "height": event["height"]}
    if spoken_with_an(event["card"]):
        # Translators: the same sentence as "… played a {card} card …": English says "an" before a letter read
        # with a vowel (an A, an E). {card} and {tower} are style letters A to E; {height}: the tower's stories.
        return tr_n("{player} played an {card} card on tower {tower}, {count} story up: it stands {height} high.",
                    "{player} played an {card} card on tower {tower}, {count} stories up: it stands {height} high.",
                    event["stories"], **facts)
    # Translators: {card} and {tower} are style letters A to E; {count}: the stories the card added; {height}: the
    # tower's height in stories after it.
    return tr_n("{player} played a {card} card on tower {tower}, {count} story up: it stands {height} high.",
                "{player} played a {card} card on tower {tower}, {count} stories up: it stands {height} high.",
                event["stories"], **facts)


def _drew(event: Event, names: Sequence[str]) -> str:
    facts = {"player": player_name(names, event["player"]), "card": event["card"], "pile": event["pile"]}
    left = event.get("left")
    if not left:
        return tr("{player} took the {card} from Finito pile {pile}, its last card.", **facts)
    revealed = event.get("revealed")
    if not revealed:
        return tr_n("{player} took the {card} from Finito pile {pile}; the next card is turned up, {count} card left "
                    "there.",
                    "{player} took the {card} from Finito pile {pile}; the next card is turned up, {count} cards "
                    "left there.", left, **facts)
    if spoken_with_an(revealed):
        # Translators: the same sentence as "…; a {revealed} is turned face up, …": English says "an" before a
        # letter read with a vowel (an A, an E). {card} and {revealed} are style letters A to E; {count}: the cards
        # left in the pile.
        return tr_n("{player} took the {card} from Finito pile {pile}; an {revealed} is turned face up, {count} card "
                    "left there.",
                    "{player} took the {card} from Finito pile {pile}; an {revealed} is turned face up, {count} cards "
                    "left there.", left, revealed=revealed, **facts)
    # Translators: {card} and {revealed} are style letters A to E; {count}: the cards left in the pile.
    return tr_n("{player} took the {card} from Finito pile {pile}; a {revealed} is turned face up, {count} card left "
                "there.",
                "{player} took the {card} from Finito pile {pile}; a {revealed} is turned face up, {count} cards left "
                "there.", left, revealed=revealed, **facts)


def _game_over(event: Event, names: Sequence[str]) -> str:
    winners = winners_sentence(names, event.get("winners", []))
    if event.get("reason") == "pile_empty":
        # Translators: {winners} is a clause: "Ada wins", "Ada and Bea share the win" or "nobody wins".
        return tr("The game is over: Finito pile {pile} is empty; {winners}.", pile=event.get("pile"), winners=winners)
    # Translators: {winners} is a clause: "Ada wins", "Ada and Bea share the win" or "nobody wins".
    return tr("The game is over: nobody holds a card any more; {winners}.", winners=winners)


def _bet(event: Event, names: Sequence[str]) -> str:
    # Translators: {value} is the token's value (1, 2 or 3); {tower} a style letter A to E.
    return tr("{player} bet a token worth {value} under tower {tower}.", player=player_name(names, event["player"]),
              value=event["value"], tower=tower(event["tower"]))


SENTENCES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "played": _played,
    "bet": _bet,
    "no_bet": lambda e, n: tr("{player} placed no token.", player=player_name(n, e["player"])),
    "drew": _drew,
    "passed": lambda e, n: tr("{player} holds no card and passed.", player=player_name(n, e["player"])),
    # Translators: whose turn it is now.
    "turn": lambda e, n: tr("{player}'s turn.", player=player_name(n, e["player"])),
    "game_over": _game_over,
}


narrate = narrator(SENTENCES)  # one of Campanile's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
