"""Steps: one decision each, as small immutable values, and their JSON form.

    {"type": "play", "card": "C", "stories": 2}     C-TURN-PLAY
    {"type": "bet", "tower": 3, "value": 2}         C-TURN-BET
    {"type": "no_bet"}                              C-TURN-BET (the bet is optional, but an explicit step)
    {"type": "draw"}  /  {"type": "draw", "reveals": "E"}   C-TURN-DRAW (reveals: C-SVC-UNKNOWN)
    {"type": "pass"}                                C-TURN-END, C-SVC-PASS

A move's JSON form is read by the game's move schema (schemas.py: `parse_step`), as the API reads it.
"""
from __future__ import annotations

from typing import Any, NamedTuple


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
