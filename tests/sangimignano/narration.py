"""What San Gimignano's narration tests (tests/test_narration.py) play and check: the random games, the event types
they do not reach, and what each event's sentence must say."""
from __future__ import annotations

from tests.narration import said

PLAYED = {"seeds": range(3), "players": [2, 3, 4], "variants": [{}, {"large_groups": True}], "liked": ("build",)}
# S-SVC-UNKNOWN: "no hexagon fits" is declared only for a hand the state does not know
UNREACHED = {"no_fit"}


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say besides the name of its player."""
    out: list[str] = []
    kind = event["type"]
    if kind in ("token", "built"):
        out.append(f"the {event['guild']} space of {said(event['at'])}")
    if kind == "hex":
        out += ["".join(event["hex"]), said(event["at"]), f"rotation {event['rotation']}"]
    if kind == "built":
        out += [names[p] for p in event["returned"]]
        out.append(f"{event['towers_left']} tower")
    if kind == "game_over":
        out += [names[w] for w in event["winners"]]
    return out
