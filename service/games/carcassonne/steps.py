"""Steps: one decision each, as small immutable values, and their JSON form.

    {"type": "place", "tile": "BA/RFr", "at": [1, 0], "rotation": 90}   K-PLACE (tile optional with a listed bag)
    {"type": "discard", "tile": "BA/L"}                                  K-PLACE-3
    {"type": "meeple", "feature": "N"}                                   K-MEEPLE
    {"type": "floor", "at": [0, 2]}                                      K-TOW-ACT-1, K-TOW-ACT-2
    {"type": "tower_meeple", "at": [0, 2]}                               K-TOW-ACT-3
    {"type": "capture", "at": [1, 2], "feature": "WR", "player": 1}      K-TOW-CAP-1, K-TOW-CAP-2
    {"type": "skip"}                                                     no action, or no capture (K-SVC-STEP)
    {"type": "ransom", "from": 2}                                        K-TOW-RANSOM

A move's JSON form is read by the game's move schema (schemas.py: `parse_step`), as the API reads it.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .model import Square

COORDINATE = 1000  # no board reaches this far from the start tile; bounds what a document can ask for


class Step(NamedTuple):
    type: str
    tile: str | None = None
    at: Square | None = None
    rotation: int | None = None
    feature: str | None = None
    player: int | None = None  # capture: the owner of the meeple taken; ransom: the player paid ("from")

    def to_json(self) -> dict[str, Any]:
        kind, tile, at, rotation, feature, player = self  # one unpacking: a listing writes every step it finds
        out: dict[str, Any] = {"type": kind}
        if tile is not None:
            out["tile"] = tile
        if at is not None:
            out["at"] = [at[0], at[1]]
        if rotation is not None:
            out["rotation"] = rotation
        if feature is not None:
            out["feature"] = feature
        if player is not None:
            out["from" if kind == "ransom" else "player"] = player
        return out


