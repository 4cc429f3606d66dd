"""What the notation says back, and where: NotationProblem and the two errors (each problem names its line and
column), the map of where each player, tower and story stands in the text (which the parser fills), the fixes
suggested for common slips, and the problems of the table document mapped back to the text they come from."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import InvalidStateError, MalformedError, Problem
from .cards import (
    BUONA_PIETRA,
    CAPPELLA,
    CARDS_BY_NAME,
    GIOSTRA,
    MONUMENTO,
    MURA,
    NOBLE_COUNTS,
    PALAZZO,
    TOWER_COUNTS,
    VIA_FRANCIGENA,
)
from .model import PLAIN
from .notation_writer import _stands_for
from .schemas import MAX_CARDS
from .towers import interpretations

POINTER = "/notation"
TOWER_HINT = "a tower like 8x3, 10-6 or [9 9 BP]"
PLAYED_CODES = ("MON", "SF", "MU", "PC", "VF", "GI")


# ---------------------------------------------------------------- errors

@dataclass(frozen=True, slots=True)
class NotationProblem(Problem):
    """A Problem that also carries where in the text it is (1-based; None for the text as a whole)."""

    line: int | None = None
    column: int | None = None


class _Located:
    problems: list[Problem]

    @property
    def line(self) -> int | None:
        return next((p.line for p in self.problems if getattr(p, "line", None)), None)

    @property
    def column(self) -> int | None:
        return next((p.column for p in self.problems if getattr(p, "line", None)), None)


class NotationError(_Located, MalformedError):
    """The text is not notation. Each problem's message starts with `line L, column C:`."""


class NotationTableError(_Located, InvalidStateError):
    """The notation reads, but the table cannot be real (too many cards, a tower that is no tower, …)."""


def _problem(line: int | None, column: int | None, message: str, rule: str | None = None) -> NotationProblem:
    where = ("the notation" if line is None else f"line {line}" if column is None
             else f"line {line}, column {column}")
    return NotationProblem(rule, POINTER, f"{where}: {message}", line, column)


class _Stop(Exception):
    """Ends the reading of one line at its first problem."""

    def __init__(self, column: int, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.rule = rule


def _clip(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---------------------------------------------------------------- the source map

@dataclass(slots=True)
class _TowerSource:
    column: int
    text: str
    cards: list[int] = field(default_factory=list)  # column of each story (a RxH or A-B: the tower's)


@dataclass(slots=True)
class _PlayerSource:
    line: int
    column: int
    name: str
    marker: int | None = None  # column of the @
    closed: int | None = None  # column of the (closed)
    towers: list[_TowerSource] = field(default_factory=list)
    played: list[int] = field(default_factory=list)  # column of each noble


@dataclass(slots=True)
class _Parsed:
    document: dict[str, Any]
    players: list[_PlayerSource]
    notes: list[NotationProblem]


# ---------------------------------------------------------------- suggestions

def _missing_colon(line: str, start: int) -> _Stop:
    match = re.search(r"(?:(?<=\s)|^)[\[\d]", line[start:])
    if match and match.start() > 0:
        name = line[start:start + match.start()].strip()
        towers = " ".join(line[start + match.start():].split())
        marker = " @" if name.endswith("@") else ""
        name = name.rstrip("@").strip()
        if name:
            return _Stop(start + match.start() + 1, f"expected ':' after the player's name; did you mean "
                                                    f"{name}{marker}: {towers} ?")
    if match:
        return _Stop(start + 1, "expected the player's name and ':' before the towers, like Adso: "
                                + " ".join(line.split()))
    return _Stop(len(line.rstrip()) + 1, f"expected ':' and the towers after the player's name, like "
                                         f"{' '.join(line.split())}: 10x3* 9-7")


def _unknown_word(word: str) -> str:
    upper = word.upper()
    if upper.startswith("BP"):
        return "a Buona Pietra stands in a tower: write the tower as a stack, like [9 9 BP]."
    guess = difflib.get_close_matches(upper, PLAYED_CODES, n=1, cutoff=0.6)
    if guess:
        return f"expected {TOWER_HINT}, or after '|' a noble; did you mean +{guess[0]}?"
    return f"expected {TOWER_HINT}; '{_clip(word)}' is not a tower."


def _gapped_stack(ranks: list[int]) -> str:
    """9-7-6 as a stack with Buona Pietra in the gaps, [9 BP 7 6], when that can be a tower."""
    if any(b >= a for a, b in zip(ranks, ranks[1:])):
        return ""
    items = [str(ranks[0])]
    for a, b in zip(ranks, ranks[1:]):
        items += ["BP"] * (a - b - 1) + [str(b)]
    return f"[{' '.join(items)}]" if items.count("BP") <= NOBLE_COUNTS[BUONA_PIETRA] else ""


def _reading(kind: str, rank: int, height: int) -> str:
    return f"plain {rank}" if kind == PLAIN else f"colorful {rank}-{rank - height + 1}"


# ---------------------------------------------------------------- locating the table's problems

def _shape_problems(document: dict[str, Any]) -> list[Problem]:
    """What a parsed document can hold that no table document may: more towers, stories or nobles than the
    table schema takes, or a story written with a leading zero ([05 5 5]). Said here, in the notation's words,
    rather than in the schema's."""
    problems: list[Problem] = []
    for p, player in enumerate(document["players"]):
        towers = player["towers"]
        if len(towers) > MAX_CARDS:
            problems.append(Problem(None, f"/players/{p}/towers", f"Must be a list of at most {MAX_CARDS} towers."))
            towers = []
        for t, tower in enumerate(towers):
            problems.extend(_card_list_problems(tower["cards"], f"/players/{p}/towers/{t}/cards"))
        problems.extend(_card_list_problems(player["played"], f"/players/{p}/played"))
    return problems


def _card_list_problems(cards: list[str], pointer: str) -> list[Problem]:
    if len(cards) > MAX_CARDS:
        return [Problem(None, pointer, f"Lists more than {MAX_CARDS} cards.")]
    return [Problem(None, f"{pointer}/{i}", f"{card!r:.40} is not a card (\"5\"…\"10\" or a noble's name).")
            for i, card in enumerate(cards) if card not in CARDS_BY_NAME]


_POINTER = re.compile(r"^/players/(\d+)(?:/(towers|played)(?:/(\d+)(?:/(cards|kind|rank)(?:/(\d+))?)?)?)?")


def _locate(problem: Problem, parsed: _Parsed, warning: bool = False) -> NotationProblem:
    """The problem of a table document, said in terms of the text it came from."""
    match = _POINTER.match(problem.pointer)
    players = parsed.players
    if problem.pointer == "/highest":
        if problem.rule == "T-HIGH-2":
            return _problem(None, None, "no player is marked @, yet towers stand, so the first of them took the "
                                        "Highest marker: put @ after its holder's name, like Adso @:", problem.rule)
        holder = next((s for s in players if s.marker is not None), None)
        if holder is not None:
            return _problem(holder.line, holder.marker, f"{holder.name} holds the marker, but "
                                                       f"{_lower_first(problem.message)}", problem.rule)
    if problem.pointer == "/closed_by":
        closer = next((s for s in players if s.closed is not None), None)
        if closer is not None:
            return _problem(closer.line, closer.closed, f"{closer.name} (closed): {problem.message}", problem.rule)
    if match is None or int(match.group(1)) >= len(players):
        return _problem(None, None, problem.message, problem.rule)
    player = players[int(match.group(1))]
    part, index, card = match.group(2), match.group(3), match.group(5)
    if part == "towers" and index is not None and int(index) < len(player.towers):
        tower = player.towers[int(index)]
        column = tower.cards[int(card)] if card is not None and int(card) < len(tower.cards) else tower.column
        message = problem.message
        if problem.rule in ("T-COMP-2", "T-COMP-4"):
            message = _count_message(problem, parsed)
        elif problem.rule == "T-NOB-BP" and "more than one tower" in message:
            message = _ambiguous_message(parsed.document["players"][int(match.group(1))]["towers"][int(index)])
        return _problem(player.line, column,
                        f"{player.name}'s tower {int(index) + 1} ({_clip(tower.text, 40)}): {message}",
                        problem.rule)
    if part == "played" and index is not None and int(index) < len(player.played):
        message = _count_message(problem, parsed) if problem.rule in ("T-COMP-2", "T-COMP-4") else problem.message
        return _problem(player.line, player.played[int(index)], f"{player.name}'s played nobles: {message}",
                        problem.rule)
    return _problem(player.line, player.column, f"{player.name}: {problem.message}", problem.rule)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


NOBLE_TITLES: dict[int, str] = {
    BUONA_PIETRA: "Buona Pietra", VIA_FRANCIGENA: "Via Francigena", MONUMENTO: "Monumento", GIOSTRA: "Giostra",
    CAPPELLA: "Cappella di Santa Fina", PALAZZO: "Palazzo Comunale", MURA: "Mura",
}


def _card_title(card: int) -> str:
    return NOBLE_TITLES.get(card, str(card))


def _count_message(problem: Problem, parsed: _Parsed) -> str:
    name = re.search(r"One (\S+) too many", problem.message)
    if problem.rule == "T-COMP-2":
        card = re.match(r"(\S+) is a noble card", problem.message)
        title = _card_title(CARDS_BY_NAME[card.group(1)]) if card and card.group(1) in CARDS_BY_NAME else "this"
        return f"{title} is a noble card, and the line 'variant: basic' says this game has no nobles."
    if not name or name.group(1) not in CARDS_BY_NAME:
        return problem.message
    card = CARDS_BY_NAME[name.group(1)]
    shown = sum(c == name.group(1) for player in parsed.document["players"]
                for cards in [*(t["cards"] for t in player["towers"]), player["played"]] for c in cards)
    full = {**TOWER_COUNTS, **NOBLE_COUNTS}[card]
    return f"one {_card_title(card)} too many: the table shows {shown} and the game has {full}."


def _ambiguous_message(tower: dict[str, Any]) -> str:
    cards = tuple(CARDS_BY_NAME[c] for c in tower["cards"])
    options = interpretations(cards)
    readings = []
    for kind, rank in options:
        items = [f"BP{_stands_for(kind, rank, i)}" if c == BUONA_PIETRA else str(c) for i, c in enumerate(cards)]
        readings.append(f"{_reading(kind, rank, len(cards))}: [{' '.join(items)}]")
    return ("this stack can be read more than one way; write what each Buona Pietra stands for: "
            + "; or ".join(readings) + ".")
