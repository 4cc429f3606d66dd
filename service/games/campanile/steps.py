"""Steps: one decision each, as small immutable values, and their JSON form.

    {"type": "play", "card": "C", "stories": 2}     C-TURN-PLAY
    {"type": "bet", "tower": 3, "value": 2}         C-TURN-BET
    {"type": "no_bet"}                              C-TURN-BET (the bet is optional, but an explicit step)
    {"type": "draw"}  /  {"type": "draw", "reveals": "E"}   C-TURN-DRAW (reveals: C-SVC-UNKNOWN)
    {"type": "pass"}                                C-TURN-END, C-SVC-PASS
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import MalformedError, Problem
from .cards import STORIES, STYLES, TOKEN_VALUES

STEP_TYPES = ("play", "bet", "no_bet", "draw", "pass")

# The fields each step type takes (besides "type"): (allowed, required).
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "play": (("card", "stories"), ("card", "stories")),
    "bet": (("tower", "value"), ("tower", "value")),
    "no_bet": ((), ()),
    "draw": (("reveals",), ()),
    "pass": ((), ()),
}


class Step(NamedTuple):
    type: str
    card: str | None = None  # play: the card played
    stories: int | None = None  # play: 1, 2 or 3
    tower: int | None = None  # bet: the tower's position 0..4
    value: int | None = None  # bet: the token's value 1..3
    reveals: str | None = None  # draw: the card turned face up next, when the pile's next card is unknown

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.type == "play":
            out["card"] = self.card
            out["stories"] = self.stories
        elif self.type == "bet":
            out["tower"] = self.tower
            out["value"] = self.value
        elif self.type == "draw" and self.reveals is not None:
            out["reveals"] = self.reveals
        return out


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_step(data: Any) -> Step:
    """A Step from its JSON form; every problem with the document's shape at once (pointers from the step)."""
    if not isinstance(data, dict):
        raise MalformedError(Problem(None, "", "A move must be an object with a \"type\"."))
    step_type = data.get("type")
    if not isinstance(step_type, str) or step_type not in _FIELDS:
        raise MalformedError(Problem(None, "/type", f"\"type\" must be one of {', '.join(STEP_TYPES)}."))
    allowed, required = _FIELDS[step_type]
    problems: list[Problem] = []
    for key in data:
        if key != "type" and key not in allowed:
            problems.append(Problem(None, f"/{_escape(key)}", f"A {step_type} move has no field \"{str(key):.40}\"."))
    for key in required:
        if key not in data:
            problems.append(Problem(None, f"/{key}", f"A {step_type} move needs \"{key}\"."))
    fields: dict[str, Any] = {}
    for key in ("card", "reveals"):
        if key in data and key in allowed:
            if isinstance(data[key], str) and data[key] in STYLES:
                fields[key] = data[key]
            else:
                problems.append(Problem(None, f"/{key}", f"{data[key]!r:.40} is not a card: a card is its style, "
                                                         "\"A\" to \"E\"."))
    if "stories" in data and "stories" in allowed:
        if _whole(data["stories"]) and data["stories"] in STORIES:
            fields["stories"] = data["stories"]
        else:
            problems.append(Problem(None, "/stories", "\"stories\" is 1, 2 or 3: a card raises its tower by 1, 2 or "
                                                      "3 stories (C-TURN-PLAY)."))
    if "tower" in data and "tower" in allowed:
        if _whole(data["tower"]) and 0 <= data["tower"] < len(STYLES):
            fields["tower"] = data["tower"]
        else:
            problems.append(Problem(None, "/tower", "\"tower\" is a tower's position, 0 to 4 (C-COMP-1)."))
    if "value" in data and "value" in allowed:
        if _whole(data["value"]) and data["value"] in TOKEN_VALUES:
            fields["value"] = data["value"]
        else:
            problems.append(Problem(None, "/value", "\"value\" is a token's value: 1, 2 or 3 (C-COMP-4)."))
    if problems:
        raise MalformedError(problems)
    return Step(step_type, **fields)
