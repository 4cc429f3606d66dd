"""Steps: one decision each, as small immutable values, and their JSON form.

    {"type": "token", "at": [0, 1], "guild": "B"}                       S-TURN-1
    {"type": "hex", "hex": ["A", "C", "D"], "at": [1, 1], "rotation": 4}  S-TURN-2 (rotation 0 to 5)
    {"type": "build", "at": [0, 1], "guild": "B"}                       S-TURN-3
    {"type": "end"}                                                     S-TURN-3 (no tower this turn); S-SVC-UNKNOWN

A hexagon step is read into one spelling (`hex_step`): the hexagon written as its kind (from its first guild in A-D
order) with the rotation adjusted to match, so every way of writing the same placement is the same step. A move's
JSON form is read by the game's move schema (schemas.py: `parse_step`), as the API reads it.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import Problem
from ..core.records import from_fields
from .geometry import GUILDS, Coord, Guilds, hexagon_kind
from .messages import tr


class Step(NamedTuple):
    type: str
    at: Coord | None = None
    guild: str | None = None
    hex: Guilds | None = None  # hex: the hexagon's kind
    rotation: int | None = None  # hex: 0 to 5, for the kind as written

    def to_json(self) -> dict[str, Any]:
        kind = self.type  # one literal per kind: a legal listing writes every step of a board
        if kind == "token" or kind == "build":
            return {"type": kind, "at": [*(self.at or ())], "guild": self.guild}
        if kind == "hex":
            return {"type": kind, "hex": [*(self.hex or ())], "at": [*(self.at or ())], "rotation": self.rotation}
        return {"type": kind}


# Step from (type, at, guild, hex, rotation): a legal listing makes one for every space or placement of a board
made_step = from_fields(Step)


def hex_step(guilds: Guilds, at: Coord, rotation: int) -> Step:
    """A hexagon step in its one spelling: the kind, and the rotation that lays it the same way."""
    kind = hexagon_kind(guilds)
    shift = guilds.index(kind[0])  # kind[j] == guilds[j + shift]: space j + shift of the written form
    return Step("hex", at=at, hex=kind, rotation=(rotation + 2 * shift) % 6)


def read_guild(value: Any, pointer: str, problems: list[Problem]) -> str | None:
    if isinstance(value, str) and value in GUILDS:
        return value
    # Translators: {value} is what was given instead, as written in the request (a program's notation).
    problems.append(Problem(None, pointer, tr("{value} is not a guild: \"A\", \"B\", \"C\" or \"D\".",
                                              value=repr(value)[:40])))
    return None


def read_guilds(value: Any, pointer: str, problems: list[Problem], rules: list[Problem]) -> Guilds | None:
    """Three guilds; three different ones is a rule (S-COMP-1), reported in `rules`."""
    if not isinstance(value, list) or len(value) != 3:
        problems.append(Problem(None, pointer, tr("A hexagon is its three guilds in counter-clockwise order, e.g. "
                                                  "[\"A\", \"B\", \"C\"].")))
        return None
    guilds = [read_guild(g, f"{pointer}/{i}", problems) for i, g in enumerate(value)]
    if any(g is None for g in guilds):
        return None
    return distinct_guilds(guilds, pointer, rules)  # type: ignore[arg-type]


def distinct_guilds(guilds: list[str], pointer: str, rules: list[Problem]) -> Guilds | None:
    """Three guilds (of the right shape) as a hexagon; None, with S-COMP-1 in `rules`, when one repeats."""
    if len(set(guilds)) != 3:
        # Translators: {guilds} is the hexagon as given, a list of guild letters: ['A', 'A', 'B'].
        rules.append(Problem("S-COMP-1", pointer, tr("A hexagon shows three different guilds; {guilds} repeats one.",
                                                     guilds=str(guilds))))
        return None
    return tuple(guilds)  # type: ignore[return-value]
