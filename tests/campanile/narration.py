"""What Campanile's narration tests (tests/test_narration.py) play and check: the random games, the event types
they do not reach, and what each event's sentence must say."""
from __future__ import annotations

STYLES = "ABCDE"

PLAYED = {"seeds": range(3), "players": [2, 3, 5], "variants": [{}, {"bet_on_played": True}]}
# C-TURN-END: a player with no card passes, which normal play never reaches
UNREACHED = {"passed"}


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say besides the name of its player."""
    said: list[str] = []
    kind = event["type"]
    if kind in ("played", "bet"):
        said.append(f"tower {STYLES[event['tower']]}")
    if kind == "played":
        said += [f"{event['card']} card", f"{event['stories']} stor", f"{event['height']} high"]
    if kind == "bet":
        said.append(f"worth {event['value']}")
    if kind == "drew":
        said += [f"the {event['card']}", f"pile {event['pile']}"]
        if event["left"]:
            said += [f"{event['revealed']} is turned face up", f"{event['left']} card"]
    if kind == "game_over":
        said += [names[w] for w in event["winners"]]
        if event["reason"] == "pile_empty":
            said.append(f"pile {event['pile']} is empty")
    return said
