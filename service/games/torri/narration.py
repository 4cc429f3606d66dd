"""Torri's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a referee reads
out for one event of /apply or /replay (a Message: English as a str, said in another language where it leaves the
library). Towers are counted as people count them, in the order they were built ("their second tower" is tower 1
on the wire)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.language import Listed
from ..core.narration import Event, narrator, player_name
from .messages import card_list, ordinal, tr, tr_n

# The nobles keep their Italian names in every language.
NOBLES = {
    "buona_pietra": "Buona Pietra", "via_francigena": "Via Francigena", "monumento": "Monumento",
    "giostra": "Giostra", "cappella": "Cappella di Santa Fina", "palazzo": "Palazzo Comunale", "mura": "Mura",
}


def card(name: str) -> str:
    """A card as said at the table: a noble by its name, a rank as a number."""
    return NOBLES.get(name, name)


def _an(name: str) -> bool:
    """Whether English says `an` before the card (`an 8`, `an 11`)."""
    return name[:1].upper() in "AEIOU8" or name[:1] in "FHLMNRSX" and len(name) == 1 or name.startswith(("11", "18"))


def cards(names: Sequence[str]) -> Any:
    return card_list([card(name) for name in names])


def _source(source: Any) -> Any:
    """Where a card was drawn from, with its preposition."""
    if source == "deck":
        # Translators: where a card was drawn from ("Adso drew a 9 from the deck")
        return tr("from the deck")
    if source == "market":
        return tr("from the market")
    if source == "noble_deck":
        return tr("from the noble deck")
    return tr("from {source}", source=source)


FACE_DOWN = ("deck", "noble_deck")  # the sources a card is drawn from unseen by the opponent


def _drew(event: Event, names: Sequence[str]) -> Any:
    who, name, source = player_name(names, event["player"]), event.get("card"), _source(event["from"])
    if name is None:  # drawn face down by the opponent of the player told (Game.told)
        # Translators: a card the opponent drew unseen ("Bea drew a card from the deck")
        return tr("{player} drew a card {source}.", player=who, source=source)
    if name in NOBLES:
        return tr("{player} drew {card} {source}.", player=who, card=card(name), source=source)
    if _an(name):
        # Translators: "an" before a number English says with a vowel ("an 8"); say the article your way
        return tr("{player} drew an {card} {source}.", player=who, card=name, source=source)
    return tr("{player} drew a {card} {source}.", player=who, card=name, source=source)


def _built(event: Event, names: Sequence[str]) -> Any:
    who, stack = player_name(names, event["player"]), event["cards"]
    said = {"player": who, "cards": cards(stack), "ordinal": ordinal(event["tower"]), "rank": event.get("rank")}
    if event.get("kind") == "plain":
        # Translators: "a plain tower of 9s": a tower whose every story is a 9
        return tr_n("{player} built a plain tower of {rank}s, {count} story high ({cards}): their {ordinal} tower.",
                    "{player} built a plain tower of {rank}s, {count} stories high ({cards}): their {ordinal} tower.",
                    len(stack), **said)
    # Translators: "from 10 down": a colorful tower whose bottom story is a 10
    return tr_n("{player} built a colorful tower from {rank} down, {count} story high ({cards}): their {ordinal} "
                "tower.",
                "{player} built a colorful tower from {rank} down, {count} stories high ({cards}): their {ordinal} "
                "tower.", len(stack), **said)


def _donazione(event: Event, names: Sequence[str]) -> Any:
    who, effect = player_name(names, event["player"]), event.get("effect")
    if effect == "income":
        return tr_n("Donazione, Income: {player} draws {count} card.",
                    "Donazione, Income: {player} draws {count} cards.", event.get("draws", 0), player=who)
    if effect == "trade":
        return tr("Donazione, Trade: {player} takes cards at random from the other hand, then gives cards back.",
                  player=who)
    return tr("Donazione, Conspiracy: {player} may have one incomplete tower no taller than the new one destroyed.",
              player=who)


def _phase(event: Event, names: Sequence[str]) -> Any:
    reason = event.get("reason")
    if reason == "deck_empty":
        return tr("The Ending phase begins: the deck is empty.")
    if reason == "close":
        return tr("The Ending phase begins: a player called Close.")
    return tr("The Ending phase begins.")


def _noble(event: Event, names: Sequence[str]) -> Any:
    said = {"player": player_name(names, event["player"]), "card": card(event["card"])}
    cost, fizzled = event.get("cost"), event.get("fizzled")
    if cost and fizzled:
        return tr("{player} played {card}, paying {cost}; it has no lasting effect and leaves the game.",
                  cost=cards(cost), **said)
    if cost:
        return tr("{player} played {card}, paying {cost}.", cost=cards(cost), **said)
    if fizzled:
        return tr("{player} played {card}; it has no lasting effect and leaves the game.", **said)
    return tr("{player} played {card}.", **said)


def _giostra(event: Event, names: Sequence[str]) -> Any:
    against = event.get("against", "")
    builder = player_name(names, 1 - event["player"]) if isinstance(event["player"], int) else tr("the opponent")
    said = {"player": player_name(names, event["player"]), "builder": builder}
    if against == "build":
        return tr("{player} answered with Giostra against {builder}'s build.", **said)
    if against == "extend":
        return tr("{player} answered with Giostra against {builder}'s extension.", **said)
    if against == "trade":
        return tr("{player} answered with Giostra against {builder}'s Trade.", **said)
    if against == "conspiracy":
        return tr("{player} answered with Giostra against {builder}'s Conspiracy.", **said)
    # Translators: {card} is a noble card's name (Via Francigena, Palazzo Comunale, …)
    return tr("{player} answered with Giostra against {builder}'s {card}.", card=card(against), **said)


def _guarded(event: Event, names: Sequence[str]) -> Any:
    who, effect = player_name(names, event["player"]), event["effect"]
    if effect == "trade":
        return tr("{player} played a 5 to Guard against the Trade.", player=who)
    if effect == "conspiracy":
        return tr("{player} played a 5 to Guard against the Conspiracy.", player=who)
    if effect == "build":
        return tr("{player} played a 5 to Guard against the build.", player=who)
    if effect == "extend":
        return tr("{player} played a 5 to Guard against the extension.", player=who)
    return tr("{player} played a 5 to Guard against the {effect}.", player=who, effect=effect)


def _completed(event: Event, names: Sequence[str]) -> Any:
    towers = event["towers"]
    return tr_n("{player} completed their {ordinals} tower.", "{player} completed their {ordinals} towers.",
                len(towers), player=player_name(names, event["player"]),
                ordinals=Listed(ordinal(t) for t in towers))


SENTENCES: dict[str, Callable[[Event, Sequence[str]], Any]] = {
    "purchase": lambda e, n: tr_n("{player} made a Purchase: {count} card to draw.",
                                  "{player} made a Purchase: {count} cards to draw.", e["draws"],
                                  player=player_name(n, e["player"])),
    "exchange": lambda e, n: tr("{player} made an Exchange: put {cards} onto the market, to draw {number} back.",
                                player=player_name(n, e["player"]), cards=cards(e["cards"]), number=len(e["cards"])),
    "drew": _drew,
    "stopped": lambda e, n: tr("{player} stopped drawing.", player=player_name(n, e["player"])),
    "built": _built,
    "extended": lambda e, n: tr("{player} extended their {ordinal} tower with {cards}.",
                                player=player_name(n, e["player"]), ordinal=ordinal(e["tower"]),
                                cards=cards(e["cards"])),
    "marker": lambda e, n: tr_n("{player} takes the Highest marker: their tower of {count} story is the tallest.",
                                "{player} takes the Highest marker: their tower of {count} stories is the tallest.",
                                e["height"], player=player_name(n, e["player"])),
    "completed": _completed,
    "closed": lambda e, n: tr("{player} called Close.", player=player_name(n, e["player"])),
    "passed": lambda e, n: tr("{player} passed.", player=player_name(n, e["player"])),
    "donazione": _donazione,
    "targeted": lambda e, n: tr("The Conspiracy targets {player}'s {ordinal} tower.",
                                player=player_name(n, e["player"]), ordinal=ordinal(e["tower"])),
    "no_target": lambda e, n: tr("The Conspiracy finds no tower it may destroy."),
    "guarded": _guarded,
    "declined": lambda e, n: tr("{player} let it happen, without answering.", player=player_name(n, e["player"])),
    "took": lambda e, n: (tr("{player} took {cards} from {other}'s hand.", player=player_name(n, e["player"]),
                             cards=cards(e["cards"]), other=player_name(n, e["from"])) if "cards" in e
                          # Translators: a Trade foreseen: the cards are taken face down, not yet known
                          else tr("{player} takes cards face down from {other}'s hand.",
                                  player=player_name(n, e["player"]), other=player_name(n, e["from"]))),
    "gave": lambda e, n: tr("{player} gave {cards} to {other}.", player=player_name(n, e["player"]),
                            cards=cards(e["cards"]), other=player_name(n, e["to"])),
    "destroyed": lambda e, n: tr("{player}'s {ordinal} tower ({cards}) was destroyed.",
                                 player=player_name(n, e["player"]), ordinal=ordinal(e["tower"]),
                                 cards=cards(e["cards"])),
    "refilled": lambda e, n: (tr("The market was refilled with {cards}.", cards=cards(e["cards"])) if "cards" in e
                              # Translators: a refill foreseen, before its cards are turned up
                              else tr("The market is refilled from the deck.")),
    "phase": _phase,
    "turn": lambda e, n: tr("{player}'s turn.", player=player_name(n, e["player"])),
    "game_over": lambda e, n: tr("Both players passed in a row: the game is over."),
    "noble": _noble,
    "giostra": _giostra,
    "cancelled": lambda e, n: tr("{player}'s {card} is cancelled.", player=player_name(n, e["player"]),
                                 card=card(e["card"])),
    "took_back": lambda e, n: tr("{player} took {cards} back into their hand.", player=player_name(n, e["player"]),
                                 cards=cards(e["cards"])),
}


narrate = narrator(SENTENCES)  # one of Torri's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
