"""What Carcassonne's narration tests (tests/test_narration.py) play and check: the random games, the event types
they do not reach, and what each event's sentence must say."""
from __future__ import annotations

from tests.narration import said

LIKED = ("capture", "ransom", "floor", "tower_meeple", "meeple")

PLAYED = {"seeds": range(2), "players": [2, 3, 5], "variants": [{}, {"tower": True}], "liked": LIKED}
# K-PLACE-3: a tile that fits nowhere is rare in a random game
UNREACHED = {"discarded"}


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say besides the name of its player."""
    out: list[str] = []
    kind = event["type"]
    if "at" in event:
        out.append(said(event["at"]))
    if kind in ("placed", "discarded"):
        out.append(event["tile"])
    if kind == "placed":
        out.append(f"{event['rotation']}°")
    if kind == "floor":
        out.append(f"{event['height']} floor")
    if kind == "captured":
        out.append(names[event["owner"]] if event["to"] == "prisoner" else "own meeple")
    if kind == "exchanged":
        out += [names[p] for p in event["players"]]
    if kind == "ransom":
        out += [names[event["from"]], f"{event['points']} points"]
    if kind == "scored":
        feature = event["feature"]
        out += [feature["type"], said(feature["at"])]
        if feature["type"] != "cloister":
            out.append(f"{len(feature['tiles'])} tile")
        if event["scorers"]:
            out += [names[p] for p in event["scorers"]] + [f"{event['points']} point"]
        elif event.get("worth"):
            out.append(f"worth {event['worth']} point")
    if kind == "game_over":
        out += [f"{names[p]} {total}" for p, total in enumerate(event["totals"])]
        out += [names[w] for w in event["winners"]]
    return out
