"""Torri's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a referee reads
out for one event of /apply or /replay. Towers are counted as people count them, in the order they were built
("their second tower" is tower 1 on the wire)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.narration import Event, article, counted, listed, narrator, ordinal, player_name

NOBLES = {
    "buona_pietra": "Buona Pietra", "via_francigena": "Via Francigena", "monumento": "Monumento",
    "giostra": "Giostra", "cappella": "Cappella di Santa Fina", "palazzo": "Palazzo Comunale", "mura": "Mura",
}
SOURCES = {"deck": "the deck", "market": "the market", "noble_deck": "the noble deck"}
ACTIONS = {"build": "build", "extend": "extension", "trade": "Trade", "conspiracy": "Conspiracy"}


def card(name: str) -> str:
    """A card as said at the table: a noble by its name, a rank as a number."""
    return NOBLES.get(name, name)


def a_card(name: str) -> str:
    """`a 9`, `an 8`, `Mura`."""
    return NOBLES[name] if name in NOBLES else article(name)


def cards(names: Sequence[str]) -> str:
    return listed(card(name) for name in names) or "no card"


def tower(index: int) -> str:
    return f"{ordinal(index)} tower"


def _built(event: Event, names: Sequence[str]) -> str:
    who, stack = player_name(names, event["player"]), event["cards"]
    if event.get("kind") == "plain":
        shape = f"a plain tower of {event['rank']}s"
    else:
        shape = f"a colorful tower from {event.get('rank')} down"
    return (f"{who} built {shape}, {counted(len(stack), 'story', 'stories')} high ({cards(stack)}): their "
            f"{tower(event['tower'])}.")


def _donazione(event: Event, names: Sequence[str]) -> str:
    who, effect = player_name(names, event["player"]), event.get("effect")
    if effect == "income":
        return f"Donazione, Income: {who} draws {counted(event.get('draws', 0), 'card')}."
    if effect == "trade":
        return f"Donazione, Trade: {who} takes cards at random from the other hand, then gives cards back."
    return f"Donazione, Conspiracy: {who} may have one incomplete tower no taller than the new one destroyed."


def _phase(event: Event, names: Sequence[str]) -> str:
    why = {"deck_empty": "the deck is empty", "close": "a player called Close"}.get(event.get("reason"), "")
    return "The Ending phase begins" + (f": {why}." if why else ".")


def _noble(event: Event, names: Sequence[str]) -> str:
    said = f"{player_name(names, event['player'])} played {card(event['card'])}"
    if event.get("cost"):
        said += f", paying {cards(event['cost'])}"
    if event.get("fizzled"):
        said += "; it has no lasting effect and leaves the game"
    return said + "."


def _giostra(event: Event, names: Sequence[str]) -> str:
    against = event.get("against", "")
    what = ACTIONS.get(against) or card(against)
    builder = player_name(names, 1 - event["player"]) if isinstance(event["player"], int) else "the opponent"
    return f"{player_name(names, event['player'])} answered with Giostra against {builder}'s {what}."


SENTENCES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "purchase": lambda e, n: f"{player_name(n, e['player'])} made a Purchase: {counted(e['draws'], 'card')} to "
                             "draw.",
    "exchange": lambda e, n: f"{player_name(n, e['player'])} made an Exchange: put {cards(e['cards'])} onto the "
                             f"market, to draw {len(e['cards'])} back.",
    "drew": lambda e, n: f"{player_name(n, e['player'])} drew {a_card(e['card'])} from "
                         f"{SOURCES.get(e['from'], e['from'])}.",
    "stopped": lambda e, n: f"{player_name(n, e['player'])} stopped drawing.",
    "built": _built,
    "extended": lambda e, n: f"{player_name(n, e['player'])} extended their {tower(e['tower'])} with "
                             f"{cards(e['cards'])}.",
    "marker": lambda e, n: f"{player_name(n, e['player'])} takes the Highest marker: their tower of "
                           f"{counted(e['height'], 'story', 'stories')} is the tallest.",
    "completed": lambda e, n: f"{player_name(n, e['player'])} completed their "
                              f"{listed(ordinal(t) for t in e['towers'])} "
                              f"{'tower' if len(e['towers']) == 1 else 'towers'}.",
    "closed": lambda e, n: f"{player_name(n, e['player'])} called Close.",
    "passed": lambda e, n: f"{player_name(n, e['player'])} passed.",
    "donazione": _donazione,
    "targeted": lambda e, n: f"The Conspiracy targets {player_name(n, e['player'])}'s {tower(e['tower'])}.",
    "no_target": lambda e, n: "The Conspiracy finds no tower it may destroy.",
    "guarded": lambda e, n: f"{player_name(n, e['player'])} played a 5 to Guard against the "
                            f"{ACTIONS.get(e['effect'], e['effect'])}.",
    "declined": lambda e, n: f"{player_name(n, e['player'])} let it happen, without answering.",
    "took": lambda e, n: f"{player_name(n, e['player'])} took {cards(e['cards'])} from "
                         f"{player_name(n, e['from'])}'s hand.",
    "gave": lambda e, n: f"{player_name(n, e['player'])} gave {cards(e['cards'])} to {player_name(n, e['to'])}.",
    "destroyed": lambda e, n: f"{player_name(n, e['player'])}'s {tower(e['tower'])} ({cards(e['cards'])}) was "
                              "destroyed.",
    "refilled": lambda e, n: f"The market was refilled with {cards(e['cards'])}.",
    "phase": _phase,
    "turn": lambda e, n: f"{player_name(n, e['player'])}'s turn.",
    "game_over": lambda e, n: "Both players passed in a row: the game is over.",
    "noble": _noble,
    "giostra": _giostra,
    "cancelled": lambda e, n: f"{player_name(n, e['player'])}'s {card(e['card'])} is cancelled.",
    "took_back": lambda e, n: f"{player_name(n, e['player'])} took {cards(e['cards'])} back into their hand.",
}


narrate = narrator(SENTENCES)  # one of Torri's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
