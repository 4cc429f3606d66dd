"""What the notation says back, and where: NotationProblem and the two errors (each problem names its line and
column), the map of where each player, tower and story stands in the text (which the parser fills), the fixes
suggested for common slips, and the problems of the table document mapped back to the text they come from."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import InvalidStateError, MalformedError, Problem
from ..core.language import Message
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
from .messages import tr, tr_p
from .model import PLAIN
from .notation_writer import _stands_for
from .schemas import MAX_CARDS
from .towers import interpretations, reading

POINTER = "/notation"
TOWER_HINT = "a tower like 8x3, 10-6 or [9 9 BP]"  # (each sentence that shows it says it whole, for translators)
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
    """A problem of the notation, its message led by where it is (`line 2, column 7: …`)."""
    if line is None:
        # Translators: {problem} is what is wrong, a sentence without its capital ("expected ':' after …")
        said = tr("the notation: {problem}", problem=message)
    elif column is None:
        said = tr("line {line}: {problem}", line=str(line), problem=message)
    else:
        # Translators: where a problem of the notation is, then the problem; the referee page reads the line and
        # column back from the start of this sentence
        said = tr("line {line}, column {column}: {problem}", line=str(line), column=str(column), problem=message)
    return NotationProblem(rule, POINTER, said, line, column)


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
            fix = f"{name}{marker}: {towers}"
            # Translators: {fix} is the line as it should be written ("Adso @: 10x3* 9-7")
            return _Stop(start + match.start() + 1, tr("expected ':' after the player's name; did you mean {fix} ?",
                                                       fix=fix))
    if match:
        return _Stop(start + 1, tr("expected the player's name and ':' before the towers, like Adso: {towers}",
                                   towers=" ".join(line.split())))
    return _Stop(len(line.rstrip()) + 1, tr("expected ':' and the towers after the player's name, like {name}: "
                                            "10x3* 9-7", name=" ".join(line.split())))


def _unknown_word(word: str) -> str:
    upper = word.upper()
    if upper.startswith("BP"):
        return tr("a Buona Pietra stands in a tower: write the tower as a stack, like [9 9 BP].")
    guess = difflib.get_close_matches(upper, PLAYED_CODES, n=1, cutoff=0.6)
    if guess:
        fix = "+" + guess[0]
        return tr("expected a tower like 8x3, 10-6 or [9 9 BP], or after '|' a noble; did you mean {fix}?", fix=fix)
    return tr("expected a tower like 8x3, 10-6 or [9 9 BP]; '{word}' is not a tower.", word=_clip(word))


def _gapped_stack(ranks: list[int]) -> str:
    """9-7-6 as a stack with Buona Pietra in the gaps, [9 BP 7 6], when that can be a tower."""
    if any(b >= a for a, b in zip(ranks, ranks[1:])):
        return ""
    items = [str(ranks[0])]
    for a, b in zip(ranks, ranks[1:]):
        items += ["BP"] * (a - b - 1) + [str(b)]
    return f"[{' '.join(items)}]" if items.count("BP") <= NOBLE_COUNTS[BUONA_PIETRA] else ""


def _reading(kind: str, rank: int, height: int) -> str:
    """A stack's reading as a tower, said: `plain 10`, `colorful 10-8` (from its bottom rank to its top)."""
    if kind == PLAIN:
        return reading(kind, rank)
    # Translators: a colorful tower by its bottom and top ranks, in "the stack is plain 10 or colorful 10-8"
    return tr_p("reading", "colorful {rank}-{top}", rank=rank, top=rank - height + 1)


# ---------------------------------------------------------------- locating the table's problems

def _shape_problems(document: dict[str, Any]) -> list[Problem]:
    """What a parsed document can hold that no table document may: more towers, stories or nobles than the
    table schema takes, or a story written with a leading zero ([05 5 5]). Said here, in the notation's words,
    rather than in the schema's."""
    problems: list[Problem] = []
    for p, player in enumerate(document["players"]):
        towers = player["towers"]
        if len(towers) > MAX_CARDS:
            problems.append(Problem(None, f"/players/{p}/towers", tr("Must be a list of at most {most} towers.",
                                                                     most=MAX_CARDS)))
            towers = []
        for t, tower in enumerate(towers):
            problems.extend(_card_list_problems(tower["cards"], f"/players/{p}/towers/{t}/cards"))
        problems.extend(_card_list_problems(player["played"], f"/players/{p}/played"))
    return problems


def _card_list_problems(cards: list[str], pointer: str) -> list[Problem]:
    if len(cards) > MAX_CARDS:
        return [Problem(None, pointer, tr("Lists more than {most} cards.", most=MAX_CARDS))]
    return [Problem(None, f"{pointer}/{i}", tr("{card} is not a card (\"5\"…\"10\" or a noble's name).",
                                               card=repr(card)[:40]))
            for i, card in enumerate(cards) if card not in CARDS_BY_NAME]


_POINTER = re.compile(r"^/players/(\d+)(?:/(towers|played)(?:/(\d+)(?:/(cards|kind|rank)(?:/(\d+))?)?)?)?")


def _locate(problem: Problem, parsed: _Parsed, warning: bool = False) -> NotationProblem:
    """The problem of a table document, said in terms of the text it came from."""
    match = _POINTER.match(problem.pointer)
    players = parsed.players
    if problem.pointer == "/highest":
        if problem.rule == "T-HIGH-2":
            return _problem(None, None, tr("no player is marked @, yet towers stand, so the first of them took the "
                                           "Highest marker: put @ after its holder's name, like Adso @:"),
                            problem.rule)
        holder = next((s for s in players if s.marker is not None), None)
        if holder is not None:
            return _problem(holder.line, holder.marker, _holder_message(holder.name, problem.message), problem.rule)
    if problem.pointer == "/closed_by":
        closer = next((s for s in players if s.closed is not None), None)
        if closer is not None:
            # Translators: "(closed)" is the notation's mark of the player who called Close: keep it as it is
            return _problem(closer.line, closer.closed, tr("{player} (closed): {problem}", player=closer.name,
                                                           problem=problem.message), problem.rule)
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
        # Translators: a player's tower counted from 1 in the order of the line, as written there ("Adso's tower 2
        # (10x3*): …")
        return _problem(player.line, column,
                        tr("{player}'s tower {number} ({tower}): {problem}", player=player.name,
                           number=int(index) + 1, tower=_clip(tower.text, 40), problem=message),
                        problem.rule)
    if part == "played" and index is not None and int(index) < len(player.played):
        message = _count_message(problem, parsed) if problem.rule in ("T-COMP-2", "T-COMP-4") else problem.message
        return _problem(player.line, player.played[int(index)],
                        tr("{player}'s played nobles: {problem}", player=player.name, problem=message), problem.rule)
    return _problem(player.line, player.column, tr("{player}: {problem}", player=player.name,
                                                   problem=problem.message), problem.rule)


# The warning a marker's holder with a shorter tower gets (position._check_marker), said of the notation's @.
_SHORT_HOLDER = "The marker's holder has no tower as tall as the other player's tallest ({mine} < {theirs}): " \
                "possible only if a taller tower was destroyed."


def _holder_message(name: str, message: str) -> str:
    """A problem of the Highest marker, said of the player marked @."""
    if isinstance(message, Message) and message.text == _SHORT_HOLDER:
        return tr("{player} holds the marker, but the marker's holder has no tower as tall as the other player's "
                  "tallest ({mine} < {theirs}): possible only if a taller tower was destroyed.", player=name,
                  **message.parameters)
    return tr("{player} holds the marker, but {problem}", player=name, problem=_lower_first(message))


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


NOBLE_TITLES: dict[int, str] = {
    BUONA_PIETRA: "Buona Pietra", VIA_FRANCIGENA: "Via Francigena", MONUMENTO: "Monumento", GIOSTRA: "Giostra",
    CAPPELLA: "Cappella di Santa Fina", PALAZZO: "Palazzo Comunale", MURA: "Mura",
}


def _card_title(card: int) -> str:
    return NOBLE_TITLES.get(card, str(card))


def _card_named(problem: Problem, pattern: str) -> str | None:
    """The card (by name) a problem of the position names: its message's `card`, or (a plain text) the card the
    English says where `pattern` finds it."""
    message = problem.message
    if isinstance(message, Message):
        named = message.parameters.get("card")
        return named if isinstance(named, str) else None
    found = re.search(pattern, message)
    return found.group(1) if found else None


def _count_message(problem: Problem, parsed: _Parsed) -> str:
    if problem.rule == "T-COMP-2":
        name = _card_named(problem, r"^(\S+) is a noble card")
        if name in CARDS_BY_NAME:
            return tr("{card} is a noble card, and the line 'variant: basic' says this game has no nobles.",
                      card=_card_title(CARDS_BY_NAME[name]))
        return tr("this is a noble card, and the line 'variant: basic' says this game has no nobles.")
    name = _card_named(problem, r"One (\S+) too many")
    if name not in CARDS_BY_NAME:
        return problem.message
    card = CARDS_BY_NAME[name]
    shown = sum(c == name for player in parsed.document["players"]
                for cards in [*(t["cards"] for t in player["towers"]), player["played"]] for c in cards)
    full = {**TOWER_COUNTS, **NOBLE_COUNTS}[card]
    return tr("one {card} too many: the table shows {shown} and the game has {full}.", card=_card_title(card),
              shown=shown, full=full)


def _ambiguous_message(tower: dict[str, Any]) -> str:
    cards = tuple(CARDS_BY_NAME[c] for c in tower["cards"])
    options = interpretations(cards)
    readings: Any = None
    for kind, rank in options:
        items = [f"BP{_stands_for(kind, rank, i)}" if c == BUONA_PIETRA else str(c) for i, c in enumerate(cards)]
        # Translators: one way to read a stack, then the stack written that way ("plain 10: [10 BP10 BP10]")
        stack = "[" + " ".join(items) + "]"
        said = tr("{reading}: {stack}", reading=_reading(kind, rank, len(cards)), stack=stack)
        # Translators: the ways to read a stack, one after another ("plain 10: [10 BP10 BP10]; or colorful
        # 10-8: [10 BP9 BP8]")
        readings = said if readings is None else tr("{first}; or {second}", first=readings, second=said)
    return tr("this stack can be read more than one way; write what each Buona Pietra stands for: {readings}.",
              readings=readings or "")
