"""Carcassonne's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a referee
reads out for one event of /apply or /replay. Squares are said as the wire gives them (`[x, y]`); a feature on a
tile by where it touches, as K-TILE-4 names it: a road or city by an edge ("the road or city on its north edge"),
a field by a half edge, or as the inner field, cloister or tower."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.narration import Event, counted, listed, narrator, player_name, winners_sentence

EDGES = {"N": "north", "E": "east", "S": "south", "W": "west"}
# K-TILE-2: looking outward through an edge, L is the left half and R the right one
HALVES = {"NL": "west half of its north", "NR": "east half of its north", "EL": "north half of its east",
          "ER": "south half of its east", "SL": "east half of its south", "SR": "west half of its south",
          "WL": "south half of its west", "WR": "north half of its west"}
SKIPS = {"action": "placed no meeple, floor or tower meeple", "capture": "captured nobody"}


def square(at: Sequence[Any]) -> str:
    return f"[{at[0]}, {at[1]}]" if len(at) == 2 else str(list(at))


def feature_on_tile(name: str) -> str:
    """Where a feature touches its tile, in words: `the road or city on its north edge`, `the field on the west
    half of its north edge`, `the cloister`."""
    if name in EDGES:
        return f"the road or city on its {EDGES[name]} edge"
    if name in HALVES:
        return f"the field on the {HALVES[name]} edge"
    if name == "inner":
        return "the field inside its city"
    return f"the {name}"


def _meeple(event: Event, names: Sequence[str]) -> str:
    return (f"{player_name(names, event['player'])} put a meeple on the tile at {square(event['at'])}, on "
            f"{feature_on_tile(event['feature'])}.")


def _captured(event: Event, names: Sequence[str]) -> str:
    who, owner = player_name(names, event["player"]), event["owner"]
    if event["feature"] == "tower":
        where = f"from the top of the tower at {square(event['at'])}"
    else:
        where = f"on the tile at {square(event['at'])} ({feature_on_tile(event['feature'])})"
    if event.get("to") == "supply":
        return f"{who} took back their own meeple {where}, to their supply."
    return f"{who} captured {player_name(names, owner)}'s meeple {where}: a prisoner."


def _scored(event: Event, names: Sequence[str]) -> str:
    feature = event.get("feature") or {}
    kind = feature.get("type", "feature")
    tiles = len(feature.get("tiles") or [])
    what = f"a {kind} of {counted(tiles, 'tile')}" if kind != "cloister" else "a cloister"
    if feature.get("pennants"):
        what += f" with {counted(feature['pennants'], 'pennant')}"
    said = f"Completed {what} at {square(feature.get('at', []))}"
    scorers = event.get("scorers") or []
    if scorers:
        said += f": {listed(player_name(names, p) for p in scorers)} {'scores' if len(scorers) == 1 else 'each score'}"
        said += f" {counted(event['points'], 'point')}"
    else:
        worth = event.get("worth")  # what the feature was worth, had anybody held it
        said += f": worth {counted(worth, 'point')}, but nobody holds it" if worth else ": nobody scores it"
    returned = event.get("returned") or []
    if returned:
        said += f"; {counted(len(returned), 'meeple')} go{'es' if len(returned) == 1 else ''} back to supply"
    return said + "."


def _game_over(event: Event, names: Sequence[str]) -> str:
    totals = event.get("totals") or []
    final = listed(f"{player_name(names, p)} {total}" for p, total in enumerate(totals))
    return (f"The bag is empty and the game is over: with the end scoring, {final}; "
            f"{winners_sentence(names, event.get('winners', []))}.")


SENTENCES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "placed": lambda e, n: f"{player_name(n, e['player'])} placed tile {e['tile']} at {square(e['at'])}, "
                           f"rotated {e['rotation']}°.",
    "discarded": lambda e, n: f"{player_name(n, e['player'])} discarded tile {e['tile']}: it fits nowhere.",
    "meeple": _meeple,
    "skipped": lambda e, n: f"{player_name(n, e['player'])} {SKIPS.get(e['during'], 'skipped ' + str(e['during']))}.",
    "floor": lambda e, n: f"{player_name(n, e['player'])} added a floor to the tower at {square(e['at'])}: "
                          f"it now has {counted(e['height'], 'floor')}.",
    "tower_meeple": lambda e, n: f"{player_name(n, e['player'])} put a meeple on top of the tower at "
                                 f"{square(e['at'])}, completing it.",
    "captured": _captured,
    "exchanged": lambda e, n: f"{listed(player_name(n, p) for p in e['players'])} exchanged prisoners, one for one.",
    "ransom": lambda e, n: f"{player_name(n, e['player'])} paid {player_name(n, e['from'])} a ransom of "
                           f"{counted(e['points'], 'point')} to free a meeple.",
    "scored": _scored,
    "turn": lambda e, n: f"{player_name(n, e['player'])}'s turn.",
    "game_over": _game_over,
}


narrate = narrator(SENTENCES)  # one of Carcassonne's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
