"""Steps: one decision each, as small immutable values, and their JSON form.

    {"type": "place", "tile": "BA/RFr", "at": [1, 0], "rotation": 90}   K-PLACE (tile optional with a listed bag)
    {"type": "discard", "tile": "BA/L"}                                  K-PLACE-3
    {"type": "meeple", "feature": "N"}                                   K-MEEPLE
    {"type": "floor", "at": [0, 2]}                                      K-TOW-ACT-1, K-TOW-ACT-2
    {"type": "tower_meeple", "at": [0, 2]}                               K-TOW-ACT-3
    {"type": "capture", "at": [1, 2], "feature": "WR", "player": 1}      K-TOW-CAP-1, K-TOW-CAP-2
    {"type": "skip"}                                                     no action, or no capture (K-SVC-STEP)
    {"type": "ransom", "from": 2}                                        K-TOW-RANSOM
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import MalformedError, Problem
from .model import MAX_PLAYERS, Square
from .tiles import ROTATIONS, TILES

STEP_TYPES = ("place", "discard", "meeple", "floor", "tower_meeple", "capture", "skip", "ransom")
COORDINATE = 1000  # no board reaches this far from the start tile; bounds what a document can ask for
MAX_NAME = 16

# The fields each step type takes (besides "type"): (allowed, required).
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "place": (("tile", "at", "rotation"), ("at", "rotation")),
    "discard": (("tile",), ("tile",)),
    "meeple": (("feature",), ("feature",)),
    "floor": (("at",), ("at",)),
    "tower_meeple": (("at",), ("at",)),
    "capture": (("at", "feature", "player"), ("at", "feature", "player")),
    "skip": ((), ()),
    "ransom": (("from",), ("from",)),
}


class Step(NamedTuple):
    type: str
    tile: str | None = None
    at: Square | None = None
    rotation: int | None = None
    feature: str | None = None
    player: int | None = None  # capture: the owner of the meeple taken; ransom: the player paid ("from")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.tile is not None:
            out["tile"] = self.tile
        if self.at is not None:
            out["at"] = [self.at[0], self.at[1]]
        if self.rotation is not None:
            out["rotation"] = self.rotation
        if self.feature is not None:
            out["feature"] = self.feature
        if self.player is not None:
            out["from" if self.type == "ransom" else "player"] = self.player
        return out


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_square(value: Any) -> Square | None:
    if type(value) is list and len(value) == 2:
        x, y = value
        if type(x) is int and type(y) is int and -COORDINATE <= x <= COORDINATE and -COORDINATE <= y <= COORDINATE:
            return x, y  # type(...) is int: a bool is no coordinate
    return None


SQUARE_MESSAGE = f"A square is [x, y], two whole numbers from -{COORDINATE} to {COORDINATE} (K-TILE-1)."


def parse_step(data: Any) -> Step:
    """A Step from its JSON form; every problem with the document's shape at once (pointers from the step)."""
    if isinstance(data, Step):
        return data
    if not isinstance(data, dict):
        raise MalformedError(Problem(None, "", "A move must be an object with a \"type\"."))
    step_type = data.get("type")
    if not isinstance(step_type, str) or step_type not in FIELDS:
        raise MalformedError(Problem(None, "/type", f"\"type\" must be one of {', '.join(STEP_TYPES)}."))
    allowed, required = FIELDS[step_type]
    problems: list[Problem] = []
    for key in data:
        if key != "type" and key not in allowed:
            problems.append(Problem(None, f"/{_escape(key)}", f"A {step_type} move has no field \"{str(key):.40}\"."))
    for key in required:
        if key not in data:
            problems.append(Problem(None, f"/{key}", f"A {step_type} move needs \"{key}\"."))
    fields: dict[str, Any] = {}
    if "tile" in data and "tile" in allowed:
        if isinstance(data["tile"], str) and data["tile"] in TILES:
            fields["tile"] = data["tile"]
        else:
            problems.append(Problem(None, "/tile", f"{data['tile']!r:.40} is not a tile of the game (K-COMP-1, "
                                                   "K-TOW-TILE-1)."))
    if "at" in data and "at" in allowed:
        square = read_square(data["at"])
        if square is None:
            problems.append(Problem(None, "/at", SQUARE_MESSAGE))
        fields["at"] = square
    if "rotation" in data and "rotation" in allowed:
        if _whole(data["rotation"]) and data["rotation"] in ROTATIONS:
            fields["rotation"] = data["rotation"]
        else:
            problems.append(Problem(None, "/rotation", "\"rotation\" is 0, 90, 180 or 270 (K-TILE-1)."))
    if "feature" in data and "feature" in allowed:
        if isinstance(data["feature"], str) and 0 < len(data["feature"]) <= MAX_NAME:
            fields["feature"] = data["feature"]
        else:
            problems.append(Problem(None, "/feature", "\"feature\" names a feature of a tile: an edge (\"N\"), a "
                                                      "half-edge (\"WR\"), inner, cloister or tower (K-TILE-4)."))
    for key in ("player", "from"):
        if key in data and key in allowed:
            if _whole(data[key]) and 0 <= data[key] < MAX_PLAYERS:
                fields["player"] = data[key]
            else:
                problems.append(Problem(None, f"/{key}", f"\"{key}\" is a player: 0 to {MAX_PLAYERS - 1}."))
    if problems:
        raise MalformedError(problems)
    return Step(step_type, **fields)
