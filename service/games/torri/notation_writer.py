"""Writing the table notation: the canonical text of a table, a name quoted only where it must be, each tower in
the shortest form that says it (`9x3`, `10-6`, a stack where Buona Pietra stands in), the nobles played. The
nobles' codes and the `(closed)` mark are spelled here; the parser reads these and more."""
from __future__ import annotations

import json
import re

from .cards import (
    BUONA_PIETRA,
    CAPPELLA,
    CARD_NAMES,
    GIOSTRA,
    MONUMENTO,
    MURA,
    PALAZZO,
    VIA_FRANCIGENA,
    is_tower_card,
)
from .model import PLAIN, Table, Tower
from .towers import interpretations

NOBLE_CODES: dict[int, str] = {
    MONUMENTO: "MON", CAPPELLA: "SF", MURA: "MU", PALAZZO: "PC", VIA_FRANCIGENA: "VF", GIOSTRA: "GI",
    BUONA_PIETRA: "BP",
}
CLOSED = "(closed)"
_PLAIN_NAME = re.compile(r"[^\s:@\"#|\\]+(?: [^\s:@\"#|\\]+)*")


def write_table(table: Table) -> str:
    """The canonical notation of a table: one line per player, ending with a newline."""
    lines = []
    shows_nobles = any(not is_tower_card(c) for towers in table.towers for t in towers for c in t.cards) or any(
        table.played)
    if table.nobles and not shows_nobles:
        lines.append("variant: nobles")
    elif not table.nobles and shows_nobles:
        lines.append("variant: basic")
    for i in range(2):
        closer = " " + CLOSED if getattr(table, "closed_by", None) == i else ""
        head = write_name(table.names[i]) + closer + (" @" if table.highest == i else "") + ":"
        parts = [write_tower(t) for t in table.towers[i]]
        if table.played[i]:
            parts.append("|")
            parts.extend("+" + NOBLE_CODES.get(card, CARD_NAMES[card].upper()) for card in table.played[i])
        lines.append(" ".join([head, *parts]))
    return "\n".join(lines) + "\n"


def write_name(name: str) -> str:
    if _PLAIN_NAME.fullmatch(name) and not name.startswith(("[", "+", "*")) and name.isprintable() and \
            name.lower() != "variant" and CLOSED not in name.lower():
        return name
    return json.dumps(name, ensure_ascii=False)


def write_tower(tower: Tower) -> str:
    cards = tower.cards
    star = "*" if tower.complete else ""
    if BUONA_PIETRA not in cards and len(interpretations(cards)) == 1:
        if tower.kind == PLAIN:
            return f"{tower.rank}x{len(cards)}{star}"
        return f"{tower.rank}-{tower.top}{star}"
    if BUONA_PIETRA not in cards:  # one story: both plain and colorful; the rank form says which
        return (f"{tower.rank}x{len(cards)}" if tower.kind == PLAIN else f"{tower.rank}-{tower.top}") + star
    ambiguous = len(interpretations(cards)) > 1
    items = []
    for story, card in enumerate(cards):
        if card == BUONA_PIETRA:
            items.append(f"BP{_stands_for(tower.kind, tower.rank, story)}" if ambiguous else "BP")
        else:
            items.append(str(card))
    return "[" + " ".join(items) + "]" + star


def _stands_for(kind: str, rank: int, story: int) -> int:
    """The rank that story `story` (0 at the bottom) of a tower of this kind and rank stands for."""
    return rank if kind == PLAIN else rank - story
