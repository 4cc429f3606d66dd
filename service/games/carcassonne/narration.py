"""Carcassonne's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a referee
reads out for one event of /apply or /replay, a Message (service.games.core.language) said in any language.
Squares are said as the wire gives them (`[x, y]`); a feature on a tile by where it touches, as K-TILE-4 names
it: a road or city by an edge ("the road or city on its north edge"), a field by a half edge, or as the inner
field, cloister or tower."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.language import Listed
from ..core.narration import Event, narrator, player_name, winners_sentence
from .messages import tr, tr_n

# Where a feature touches its tile (K-TILE-4), by its name: a road or city by an edge, a field by a half edge
# (K-TILE-2: looking outward through an edge, L is the left half and R the right one), the inner field, the
# cloister. Each twice: as a phrase of its own, and with "on" before it (the meeple put on it), so that each
# language writes its preposition and article together (sur le, auf die, sul).
FEATURES = {
    # Translators: a feature of a tile, by the edge it touches; "its": the tile's.
    "N": tr("the road or city on its north edge"),
    "E": tr("the road or city on its east edge"),
    "S": tr("the road or city on its south edge"),
    "W": tr("the road or city on its west edge"),
    # Translators: a field of a tile, by the half edge it touches; "its": the tile's.
    "NL": tr("the field on the west half of its north edge"),
    "NR": tr("the field on the east half of its north edge"),
    "EL": tr("the field on the north half of its east edge"),
    "ER": tr("the field on the south half of its east edge"),
    "SL": tr("the field on the east half of its south edge"),
    "SR": tr("the field on the west half of its south edge"),
    "WL": tr("the field on the south half of its west edge"),
    "WR": tr("the field on the north half of its west edge"),
    # Translators: the field enclosed by a city on a tile ("its": the tile's).
    "inner": tr("the field inside its city"),
    "cloister": tr("the cloister"),
}
ON_FEATURES = {
    # Translators: where a meeple was put: on a feature of a tile, by the edge it touches ("its": the tile's).
    "N": tr("on the road or city on its north edge"),
    "E": tr("on the road or city on its east edge"),
    "S": tr("on the road or city on its south edge"),
    "W": tr("on the road or city on its west edge"),
    # Translators: where a meeple was put: on a field of a tile, by the half edge it touches ("its": the tile's).
    "NL": tr("on the field on the west half of its north edge"),
    "NR": tr("on the field on the east half of its north edge"),
    "EL": tr("on the field on the north half of its east edge"),
    "ER": tr("on the field on the south half of its east edge"),
    "SL": tr("on the field on the east half of its south edge"),
    "SR": tr("on the field on the west half of its south edge"),
    "WL": tr("on the field on the south half of its west edge"),
    "WR": tr("on the field on the north half of its west edge"),
    # Translators: where a meeple was put: on the field enclosed by a city on the tile.
    "inner": tr("on the field inside its city"),
    "cloister": tr("on the cloister"),
}


def square(at: Sequence[Any]) -> str:
    return f"[{at[0]}, {at[1]}]" if len(at) == 2 else str(list(at))


def feature_on_tile(name: str) -> str:
    """Where a feature touches its tile, in words: `the road or city on its north edge`, `the field on the west
    half of its north edge`, `the cloister`."""
    # Translators: a feature of a tile by its name in the data (K-TILE-4), one no phrase is written for.
    return FEATURES.get(name) or tr("the {name}", name=name)


def on_feature(name: str) -> str:
    """Where a meeple was put, in words: `on the road or city on its north edge`, `on the cloister`."""
    # Translators: where a meeple was put: on a feature of a tile by its name in the data (K-TILE-4), one no
    # phrase is written for.
    return ON_FEATURES.get(name) or tr("on the {name}", name=name)


def _placed(event: Event, names: Sequence[str]) -> str:
    return tr("{player} placed tile {tile_id} at {square}, rotated {rotation}°.", player=player_name(names,
              event["player"]), tile_id=event["tile"], square=square(event["at"]), rotation=event["rotation"])


def _discarded(event: Event, names: Sequence[str]) -> str:
    return tr("{player} discarded tile {tile_id}: it fits nowhere.", player=player_name(names, event["player"]),
              tile_id=event["tile"])


def _meeple(event: Event, names: Sequence[str]) -> str:
    # Translators: {where} is a phrase such as "on the road or city on its north edge", preposition included.
    return tr("{player} put a meeple on the tile at {square}, {where}.", player=player_name(names, event["player"]),
              square=square(event["at"]), where=on_feature(event["feature"]))


def _skipped(event: Event, names: Sequence[str]) -> str:
    who, during = player_name(names, event["player"]), event["during"]
    if during == "action":
        return tr("{player} placed no meeple, floor or tower meeple.", player=who)
    if during == "capture":
        return tr("{player} captured nobody.", player=who)
    # Translators: {step} is the code of a step of the turn (place, action, capture), as the JSON says it.
    return tr("{player} skipped {step}.", player=who, step=str(during))


def _floor(event: Event, names: Sequence[str]) -> str:
    return tr_n("{player} added a floor to the tower at {square}: it now has {count} floor.",
                "{player} added a floor to the tower at {square}: it now has {count} floors.", event["height"],
                player=player_name(names, event["player"]), square=square(event["at"]))


def _tower_meeple(event: Event, names: Sequence[str]) -> str:
    return tr("{player} put a meeple on top of the tower at {square}, completing it.",
              player=player_name(names, event["player"]), square=square(event["at"]))


def _captured(event: Event, names: Sequence[str]) -> str:
    who, at = player_name(names, event["player"]), square(event["at"])
    on_tower = event["feature"] == "tower"
    if event.get("to") == "supply":
        if on_tower:
            return tr("{player} took back their own meeple from the top of the tower at {square}, to their supply.",
                      player=who, square=at)
        # Translators: {spot} is a phrase such as "the field on the west half of its north edge".
        return tr("{player} took back their own meeple on the tile at {square} ({spot}), to their supply.",
                  player=who, square=at, spot=feature_on_tile(event["feature"]))
    owner = player_name(names, event["owner"])
    if on_tower:
        return tr("{player} captured {owner}'s meeple from the top of the tower at {square}: a prisoner.",
                  player=who, owner=owner, square=at)
    # Translators: {spot} is a phrase such as "the field on the west half of its north edge".
    return tr("{player} captured {owner}'s meeple on the tile at {square} ({spot}): a prisoner.", player=who,
              owner=owner, square=at, spot=feature_on_tile(event["feature"]))


def _exchanged(event: Event, names: Sequence[str]) -> str:
    return tr("{players} exchanged prisoners, one for one.",
              players=Listed(player_name(names, p) for p in event["players"]))


def _ransom(event: Event, names: Sequence[str]) -> str:
    return tr_n("{player} paid {holder} a ransom of {count} point to free a meeple.",
                "{player} paid {holder} a ransom of {count} points to free a meeple.", event["points"],
                player=player_name(names, event["player"]), holder=player_name(names, event["from"]))


def _completed(feature: dict) -> str:
    """The feature a `scored` event completed, as a phrase: `a road of 3 tiles`, `a city of 2 tiles with 1
    pennant`, `a cloister`."""
    kind = feature.get("type", "feature")
    if kind == "cloister":
        return tr("a cloister")
    tiles = len(feature.get("tiles") or [])
    if kind == "road":
        what = tr_n("a road of {count} tile", "a road of {count} tiles", tiles)
    elif kind == "city":
        what = tr_n("a city of {count} tile", "a city of {count} tiles", tiles)
    else:
        # Translators: {kind} is a feature's type as the JSON says it (road, city, cloister).
        what = tr_n("a {kind} of {count} tile", "a {kind} of {count} tiles", tiles, kind=kind)
    pennants = feature.get("pennants")
    if pennants:
        # Translators: {what} is a phrase such as "a city of 3 tiles".
        what = tr_n("{what} with {count} pennant", "{what} with {count} pennants", pennants, what=what)
    return what


def _scored(event: Event, names: Sequence[str]) -> str:
    feature = event.get("feature") or {}
    scorers = event.get("scorers") or []
    if len(scorers) == 1:
        scoring = tr_n("{player} scores {count} point", "{player} scores {count} points", event["points"],
                       player=player_name(names, scorers[0]))
    elif scorers:
        scoring = tr_n("{players} each score {count} point", "{players} each score {count} points",
                       event["points"], players=Listed(player_name(names, p) for p in scorers))
    else:
        worth = event.get("worth")  # what the feature was worth, had anybody held it
        # Translators: said of a feature just completed that no meeple holds.
        scoring = (tr_n("worth {count} point, but nobody holds it", "worth {count} points, but nobody holds it",
                        worth) if worth else tr("nobody scores it"))
    what, at = _completed(feature), square(feature.get("at", []))
    returned = event.get("returned") or []
    if returned:
        back = tr_n("{count} meeple goes back to supply", "{count} meeples go back to supply", len(returned))
        # Translators: {what} is a phrase such as "a city of 2 tiles with 1 pennant"; {scoring} a clause such as
        # "Ada scores 6 points"; {returned} a clause such as "2 meeples go back to supply".
        return tr("Completed {what} at {square}: {scoring}; {returned}.", what=what, square=at, scoring=scoring,
                  returned=back)
    # Translators: {what} is a phrase such as "a city of 2 tiles with 1 pennant"; {scoring} a clause such as
    # "Ada scores 6 points" or "nobody scores it".
    return tr("Completed {what} at {square}: {scoring}.", what=what, square=at, scoring=scoring)


def _game_over(event: Event, names: Sequence[str]) -> str:
    totals = event.get("totals") or []
    # Translators: one player's total in the list of final scores: the name, then the points.
    final = Listed(tr("{player} {total}", player=player_name(names, p), total=total) for p, total in enumerate(totals))
    # Translators: {totals} lists each player's total ("Ada 31, Bea 27 and Cy 19"); {winners} is a clause such as
    # "Ada wins" or "Ada and Bea share the win".
    return tr("The bag is empty and the game is over: with the end scoring, {totals}; {winners}.", totals=final,
              winners=winners_sentence(names, event.get("winners", [])))


def _turn(event: Event, names: Sequence[str]) -> str:
    return tr("{player}'s turn.", player=player_name(names, event["player"]))


SENTENCES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "placed": _placed,
    "discarded": _discarded,
    "meeple": _meeple,
    "skipped": _skipped,
    "floor": _floor,
    "tower_meeple": _tower_meeple,
    "captured": _captured,
    "exchanged": _exchanged,
    "ransom": _ransom,
    "scored": _scored,
    "turn": _turn,
    "game_over": _game_over,
}


narrate = narrator(SENTENCES)  # one of Carcassonne's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
