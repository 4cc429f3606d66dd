"""Events in words: every game's `narrate(event, names)` says what one event of /apply and /replay means, as a
sentence a referee can read out at the table (who did what, what it scored). The service adds it to every event
as `text` where events leave the game (service.games.core.game), so pages, the command line and API clients
all read the same words. Here: the type of a game's narrator and the small pieces of English they share."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .events import Event
from .language import DEFAULT, Listed, said
from .messages import tr

Narrator = Callable[[Event, Sequence[str]], str]  # an event in words: a Message (service.games.core.language)


def player_name(names: Sequence[str], player: Any) -> str:
    """A player's name from their index; a reference no seat answers to is said as it is (`player 7`)."""
    if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(names):
        return names[player]
    return tr("player {number}", number=player)


def winners_sentence(names: Sequence[str], winners: Sequence[int]) -> str:
    """Who won: one player, several sharing the win, or nobody (a clause, to go into a game's sentence)."""
    if not winners:
        return tr("nobody wins")
    if len(winners) == 1:
        return tr("{player} wins", player=player_name(names, winners[0]))
    return tr("{players} share the win", players=Listed(player_name(names, w) for w in winners))


def winners_said(names: Sequence[str], winners: Sequence[int]) -> str:
    """Who won, as a sentence of its own (`Ada wins.`)."""
    if not winners:
        return tr("Nobody wins.")
    if len(winners) == 1:
        return tr("{player} wins.", player=player_name(names, winners[0]))
    return tr("{players} share the win.", players=Listed(player_name(names, w) for w in winners))


def plainly(event: Event, names: Sequence[str]) -> str:
    """An event no sentence is written for yet, said as its type and facts, so no event goes without words (the
    facts are the event's data, said as they are)."""
    def fact(key: str, value: Any) -> Any:
        if key == "player":
            return player_name(names, value)
        return Listed(value) if isinstance(value, list) else str(value)

    facts = [tr("{key} {value}", key=key, value=fact(key, value)) for key, value in event.items()
             if key not in ("type", "step", "text")]
    kind = str(event.get("type", "event")).replace("_", " ")
    kind = kind[:1].upper() + kind[1:]
    if not facts:
        return tr("{kind}.", kind=kind)
    return tr("{kind}: {facts}.", kind=kind, facts=Listed(facts))


def narrator(sentences: Mapping[str, Narrator]) -> Narrator:
    """A game's `narrate(event, names)`: the game's sentence for each event type (`sentences`), and a plain one
    for a type it has none for (an event a newer engine makes)."""

    def narrate(event: Event, names: Sequence[str]) -> str:
        sentence = sentences.get(event.get("type", ""))
        return sentence(event, names) if sentence else plainly(event, names)

    return narrate


def narrated(event: Event, narrate: Narrator, names: Sequence[str], language: str = DEFAULT) -> dict[str, Any]:
    """An event's JSON form with its `text`, the event in words in `language` (a new document: the event stays as
    made)."""
    return {**event, "text": said(narrate(event, names), language)}


__all__ = ["Event", "Listed", "Narrator", "narrated", "narrator", "plainly", "player_name", "winners_said",
           "winners_sentence"]
