"""What Torri's narration tests (tests/test_narration.py) play and check: the random games, the event types
they do not reach, and what each event's sentence must say."""
from __future__ import annotations

from service.games.torri.narration import NOBLES

NAMES = ("Adso", "William")
LIKED = ("guard", "giostra", "noble", "target", "build", "extend", "decline")


def card(name: str) -> str:
    return NOBLES.get(name, name)


PLAYED = {"seeds": range(40), "players": [2], "variants": [{}, {"nobles": True}], "liked": LIKED, "names": NAMES}
UNREACHED: set[str] = set()


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say besides the name of its player."""
    kind = event["type"]
    said = [card(c) for c in event.get("cards", [])]
    if kind == "built":
        said += [f"{event['rank']}", event["kind"], f"{len(event['cards'])} stories" if len(event["cards"]) > 1
                 else "1 story"]
    if kind in ("built", "extended", "destroyed", "targeted"):
        said.append(["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                     "tenth"][event["tower"]] + " tower")
    if kind in ("purchase", "donazione") and "draws" in event:
        said.append(f"{event['draws']} card")
    if kind == "drew":
        said += [card(event["card"]), event["from"].replace("_", " ")]
    if kind == "marker":
        said.append(f"{event['height']} stor")
    if kind == "took":
        said.append(names[event["from"]])
    if kind == "gave":
        said.append(names[event["to"]])
    if kind in ("noble", "cancelled"):
        said.append(card(event["card"]))
    if kind == "noble":
        said += [card(c) for c in event["cost"]]
    if kind == "donazione":
        said.append(event["effect"].capitalize())
    return said
