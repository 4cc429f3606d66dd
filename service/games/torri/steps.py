"""Steps: one decision each, as small immutable values, and their JSON form (api.md, Moves). A move's JSON form is read
by the game's move schema (schemas.py: `parse_step`), as the API reads it."""
from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CARD_NAMES

MAX_CARDS_IN_STEP = 64  # more than any legal step names; keeps hostile input cheap


class Step(NamedTuple):
    """One decision. `cards` keeps the caller's order where order matters (build, extend: bottom first)
    and is sorted where it names a set of cards (exchange, give, take, refill)."""

    type: str
    cards: tuple[int, ...] = ()
    source: str | None = None
    card: int | None = None
    tower: int | None = None
    towers: tuple[int, ...] = ()
    player: int | None = None
    positions: tuple[int, ...] | None = None
    kind: str | None = None
    rank: int | None = None
    cost: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        kind = self.type
        if kind == "draw":
            out["from"] = self.source
            if self.card is not None:
                out["card"] = CARD_NAMES[self.card]
        elif kind in ("exchange", "give", "refill"):
            out["cards"] = [CARD_NAMES[c] for c in self.cards]
        elif kind == "build":
            out["cards"] = [CARD_NAMES[c] for c in self.cards]
            if self.kind is not None:
                out["kind"] = self.kind
            if self.rank is not None:
                out["rank"] = self.rank
        elif kind == "extend":
            out["tower"] = self.tower
            out["cards"] = [CARD_NAMES[c] for c in self.cards]
        elif kind == "complete":
            out["towers"] = list(self.towers)
        elif kind == "target":
            out["player"] = self.player
            out["tower"] = self.tower
        elif kind == "take":
            if self.positions is not None:
                out["positions"] = list(self.positions)
            else:
                out["cards"] = [CARD_NAMES[c] for c in self.cards]
        elif kind == "noble":
            out["card"] = CARD_NAMES[self.card]
            if self.cost:
                out["cost"] = [CARD_NAMES[c] for c in self.cost]
        return out
