"""Steps: one decision each, as small immutable values, and their JSON form (api.md, Moves)."""
from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CARD_NAMES, CARDS_BY_NAME
from .errors import MalformedError, Problem
from .model import COLORFUL, PLAIN

ACTION_TYPES = ("purchase", "exchange", "build", "extend", "complete", "close", "pass", "noble")
STEP_TYPES = ACTION_TYPES + ("draw", "stop", "guard", "giostra", "decline", "target", "take", "give", "refill")
SOURCES = ("deck", "noble_deck", "market")

# The fields each step type takes (besides "type"), with which of them are required.
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "purchase": ((), ()),
    "exchange": (("cards",), ("cards",)),
    "draw": (("from", "card"), ("from",)),
    "stop": ((), ()),
    "build": (("cards", "kind", "rank"), ("cards",)),
    "extend": (("tower", "cards", "kind", "rank"), ("tower", "cards")),  # kind/rank: the tower's, if given
    "complete": (("towers",), ("towers",)),
    "close": ((), ()),
    "pass": ((), ()),
    "guard": ((), ()),
    "giostra": ((), ()),
    "decline": ((), ()),
    "target": (("player", "tower"), ("player", "tower")),
    "take": (("positions", "cards"), ()),
    "give": (("cards",), ("cards",)),
    "refill": (("cards",), ("cards",)),
    "noble": (("card", "cost"), ("card",)),
}
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


def parse_step(data: Any) -> Step:
    """A Step from its JSON form; every problem with the document's shape at once (pointers from the step)."""
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise MalformedError(Problem(None, "", "A move must be an object with a \"type\"."))
    step_type = data.get("type")
    if not isinstance(step_type, str) or step_type not in _FIELDS:
        raise MalformedError(Problem(None, "/type", f"\"type\" must be one of {', '.join(STEP_TYPES)}."))
    allowed, required = _FIELDS[step_type]
    for key in data:
        if key != "type" and key not in allowed:
            problems.append(Problem(None, f"/{_escape(key)}", f"A {step_type} move has no field \"{key}\"."))
    for key in required:
        if key not in data:
            problems.append(Problem(None, f"/{key}", f"A {step_type} move needs \"{key}\"."))
    fields: dict[str, Any] = {}
    if "cards" in data and "cards" in allowed:
        cards = _cards(data["cards"], "/cards", problems)
        if cards is not None:
            fields["cards"] = cards if step_type in ("build", "extend") else tuple(sorted(cards))
    if step_type == "draw" and "from" in data:
        if data["from"] in SOURCES:
            fields["source"] = data["from"]
        else:
            problems.append(Problem(None, "/from", f"\"from\" must be one of {', '.join(SOURCES)}."))
    if "card" in data and "card" in allowed:
        card = _card(data["card"], "/card", problems)
        if card is not None:
            fields["card"] = card
    for key in ("tower", "player"):
        if key in data and key in allowed:
            value = _index(data[key], f"/{key}", problems)
            if value is not None:
                fields[key] = value
    if "towers" in data and "towers" in allowed:
        towers = _indices(data["towers"], "/towers", problems)
        if towers is not None:
            if len(set(towers)) != len(towers):
                problems.append(Problem(None, "/towers", "A tower is named twice."))
            fields["towers"] = tuple(sorted(towers))
    if "positions" in data and "positions" in allowed:
        positions = _indices(data["positions"], "/positions", problems)
        if positions is not None:
            if len(set(positions)) != len(positions):
                problems.append(Problem(None, "/positions", "A position is named twice."))
            fields["positions"] = tuple(sorted(positions))
    if step_type == "take" and ("positions" in data) == ("cards" in data):
        problems.append(Problem(None, "", "A take move names either \"positions\" or \"cards\"."))
    if "kind" in data and "kind" in allowed:
        if data["kind"] in (PLAIN, COLORFUL):
            fields["kind"] = data["kind"]
        else:
            problems.append(Problem(None, "/kind", "\"kind\" must be \"plain\" or \"colorful\"."))
    if "rank" in data and "rank" in allowed:
        rank = data["rank"]
        if isinstance(rank, int) and not isinstance(rank, bool) and 4 <= rank <= 11:
            fields["rank"] = rank
        else:
            problems.append(Problem(None, "/rank", "\"rank\" must be a whole number from 4 to 11."))
    if "cost" in data and "cost" in allowed:
        cost = _cards(data["cost"], "/cost", problems)
        if cost is not None:
            fields["cost"] = tuple(sorted(cost))
    if problems:
        raise MalformedError(problems)
    if step_type == "noble":
        fields.setdefault("cost", ())  # no cost and an empty cost are the same move
    return Step(step_type, **fields)


def _escape(key: str) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _card(value: Any, pointer: str, problems: list[Problem]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and str(value) in CARDS_BY_NAME:
        return value  # a forgiving caller may send 7 for "7"
    if isinstance(value, str) and value in CARDS_BY_NAME:
        return CARDS_BY_NAME[value]
    problems.append(Problem(None, pointer, f"{value!r:.40} is not a card (\"5\"…\"10\" or a noble's name)."))
    return None


def _cards(value: Any, pointer: str, problems: list[Problem]) -> tuple[int, ...] | None:
    if not isinstance(value, list):
        problems.append(Problem(None, pointer, "Must be a list of cards."))
        return None
    if len(value) > MAX_CARDS_IN_STEP:
        problems.append(Problem(None, pointer, f"Names more than {MAX_CARDS_IN_STEP} cards."))
        return None
    before = len(problems)
    cards = tuple(_card(item, f"{pointer}/{i}", problems) for i, item in enumerate(value))
    return None if len(problems) > before else cards  # type: ignore[return-value]


def _index(value: Any, pointer: str, problems: list[Problem]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    problems.append(Problem(None, pointer, "Must be a whole number, 0 or more."))
    return None


def _indices(value: Any, pointer: str, problems: list[Problem]) -> tuple[int, ...] | None:
    if not isinstance(value, list) or len(value) > MAX_CARDS_IN_STEP:
        problems.append(Problem(None, pointer, f"Must be a list of at most {MAX_CARDS_IN_STEP} whole numbers."))
        return None
    before = len(problems)
    out = tuple(_index(item, f"{pointer}/{i}", problems) for i, item in enumerate(value))
    return None if len(problems) > before else out  # type: ignore[return-value]
