"""The table notation of api.md (for people transcribing a photo, and for tests), both ways.

    Adso @: 10x3* 9x3* 8x3 6x3* 10-6 | +MON
    William: 7x3* 9-5* 10-8* 7-5*

One line per player: the name, `@` if they hold the Highest marker, `:`, then the towers; after `|` the nobles
they played. A tower is `RxH` (plain, rank R, height H), `A-B` (colorful, from bottom rank A down to top rank B)
or an explicit stack `[10 10 BP 10]` (bottom first, `BP` Buona Pietra); `*` after a tower marks it complete.

Beyond api.md, for round trips and for the rare cases it cannot say:
- a Buona Pietra may name the rank it stands for, `BP9`, which settles a stack that could be read two ways
  (`[10 BP BP]` is plain 10 or colorful 10-8; `[10 BP10 BP10]` and `[10 BP9 BP8]` are not);
- a name that is not plain words (it holds `:`, `@`, `"`, …) is written in double quotes, JSON style;
- a line `variant: nobles` (or `variant: basic`) fixes the variant when no noble on the table implies it;
- `(closed)` after a name marks the player who called Close (T-ACT-CLOSE-1, T-SCORE-DEALS): `Adso (closed) @:`;
- a line starting with `#` is a comment, and so is the rest of a line after ` #` in the towers.

`parse` turns text into the table document that `read_table` takes; `read` parses and checks it (errors and
warnings point at the line and column, name the player and the tower); `write` gives the canonical text of a
table or a state's table, so `write(read(text))` is canonical and `read(write(table))` gives the table back.

Input is read patiently: case, spaces (`10 x 4`), `10X4`, `×`, dashes, commas between towers, a trailing comma,
a stray `!`, the `@` before or after the `:` are all accepted when they are unambiguous. Anything else is a
`NotationError` (a `MalformedError`) whose message starts `line L, column C:` and, where it can, shows the fix.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    BUONA_PIETRA,
    CAPPELLA,
    CARD_NAMES,
    CARDS_BY_NAME,
    GIOSTRA,
    MONUMENTO,
    MURA,
    NOBLE_COUNTS,
    PALAZZO,
    RANKS,
    TOWER_COUNTS,
    VIA_FRANCIGENA,
    is_tower_card,
)
from .errors import InvalidStateError, MalformedError, Problem
from .model import COLORFUL, PLAIN, State, Table, Tower
from .position import table_of
from .schemas import MAX_CARDS, MAX_NAME, read_table
from .towers import HIGHEST_STANDIN, LOWEST_STANDIN, interpretations

POINTER = "/notation"
TOWER_HINT = "a tower like 8x3, 10-6 or [9 9 BP]"
EXAMPLE = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6 | +MON\nWilliam: 7x3* 9-5* 10-8* 7-5*"
MAX_HEIGHT = 45  # no tower is taller than all the tower cards; bounds what a typo like 10x99999 can cost
MAX_LINES = 10_000

NOBLE_CODES: dict[int, str] = {
    MONUMENTO: "MON", CAPPELLA: "SF", MURA: "MU", PALAZZO: "PC", VIA_FRANCIGENA: "VF", GIOSTRA: "GI",
    BUONA_PIETRA: "BP",
}
NOBLE_ALIASES: dict[str, int] = {
    **{code: card for card, code in NOBLE_CODES.items()},
    **{name.upper(): card for card, name in CARD_NAMES.items() if not is_tower_card(card)},
    "MONUMENT": MONUMENTO, "MONUMENTO": MONUMENTO,
    "CAPPELLA": CAPPELLA, "SANTAFINA": CAPPELLA, "SANTA_FINA": CAPPELLA, "CAPPELLA_DI_SANTA_FINA": CAPPELLA,
    "CSF": CAPPELLA, "MURA": MURA, "WALLS": MURA, "PALAZZO": PALAZZO, "PALAZZO_COMUNALE": PALAZZO,
    "FRANCIGENA": VIA_FRANCIGENA, "VIA_FRANCIGENA": VIA_FRANCIGENA, "GIOSTRA": GIOSTRA, "JOUST": GIOSTRA,
}
PLAYED_CODES = ("MON", "SF", "MU", "PC", "VF", "GI")
VARIANTS = {"nobles": True, "advanced": True, "basic": False, "base": False}


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


# ---------------------------------------------------------------- tokens

@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # num word x dash lbr rbr star comma bar at bang plus other
    text: str
    column: int  # 1-based
    spaced: bool  # whitespace (or the start of the section) before it

    @property
    def end(self) -> int:
        return self.column + len(self.text)

    @property
    def number(self) -> int:
        """A number token's value; anything over 9 digits is just "too big" (never a huge int to convert)."""
        return int(self.text) if len(self.text) <= 9 else 10 ** 9

    @property
    def shown(self) -> str:
        """The token as quoted back in a message (a pasted essay is not quoted whole)."""
        return _clip(self.text)


def _clip(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


_SINGLE = {"[": "lbr", "]": "rbr", "*": "star", ",": "comma", ";": "comma", "|": "bar", "@": "at", "!": "bang",
           "+": "plus", "×": "x", "-": "dash", "–": "dash", "—": "dash", "−": "dash"}
_TOKEN = re.compile(r"\s+|[0-9]+|[^\W\d_]+|.", re.UNICODE)


def _tokens(text: str, offset: int) -> list[_Token]:
    out: list[_Token] = []
    spaced = True
    for match in _TOKEN.finditer(text):
        value = match.group()
        if value.isspace():
            spaced = True
            continue
        if value.isascii() and value.isdigit():
            kind = "num"
        elif value.isalpha():
            kind = "x" if value in ("x", "X") else "word"
        else:
            kind = _SINGLE.get(value, "other")
        out.append(_Token(kind, value, offset + match.start(), spaced))
        spaced = False
    return out


# ---------------------------------------------------------------- parsing

def parse(text: str) -> dict[str, Any]:
    """The table document (the shape `read_table` takes) that the text describes; raises NotationError."""
    return _parse(text).document


def read(text: str) -> tuple[Table, list[Problem]]:
    """The table and its warnings. Raises NotationError (not notation) or NotationTableError (not a real table);
    every problem's pointer is /notation and its message names the line, the column, the player and the tower."""
    parsed = _parse(text)
    shape = _shape_problems(parsed.document)
    if shape:
        raise NotationError([_locate(p, parsed) for p in shape])
    try:
        table, warnings = read_table(parsed.document)
    except MalformedError as error:  # cannot happen for a parsed document; say where anyway
        raise NotationError([_locate(p, parsed) for p in error.problems]) from None
    except InvalidStateError as error:
        raise NotationTableError([_locate(p, parsed) for p in error.problems]) from None
    return table, [*parsed.notes, *(_locate(p, parsed, warning=True) for p in warnings)]


def canonical(text: str) -> str:
    """The canonical spelling of a notation text."""
    return write(read(text)[0])


def _parse(text: Any) -> _Parsed:
    if not isinstance(text, str):
        raise NotationError([_problem(None, None, "notation is a text, one line per player.")])
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise NotationError([_problem(None, None, f"more than {MAX_LINES} lines: a table has two players.")])
    problems: list[NotationProblem] = []
    notes: list[NotationProblem] = []
    players: list[tuple[dict[str, Any], _PlayerSource]] = []
    variant: bool | None = None
    last_line = 0
    for number, raw in enumerate(lines, start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        last_line = number
        directive = re.fullmatch(r"\s*variant\s*:\s*(\w+)\s*", line, re.IGNORECASE)
        if directive and directive.group(1).lower() in VARIANTS:
            variant = VARIANTS[directive.group(1).lower()]
            continue
        if len(players) == 2:
            problems.append(_problem(number, _first_column(line), "Torri is for two players: this is a third "
                                     "player line. Write one line per player.", "T-COMP-3"))
            break
        try:
            player, source, line_notes = _player_line(line, number)
        except _Stop as stop:
            problems.append(_problem(number, stop.column, stop.message, stop.rule))
            players.append(({"name": "?", "towers": [], "played": []}, _PlayerSource(number, 1, "?")))
            continue
        players.append((player, source))
        notes.extend(line_notes)
    if problems:
        raise NotationError(problems)
    if len(players) < 2:
        if players:
            raise NotationError([_problem(last_line + 1, 1, "expected a second line for the other player, like "
                                                            "William: 7x3* 9-5*", "T-COMP-3")])
        raise NotationError([_problem(1, 1, "the notation is empty: write one line per player, like "
                                            "Adso @: 10x3* 9-7 and William: 7x3* 8-6", "T-COMP-3")])
    closers = [source for _, source in players if source.closed is not None]
    if len(closers) == 2:
        raise NotationError([_problem(closers[1].line, closers[1].closed, "both players are marked (closed), and "
                                      "one player calls Close: keep the mark of the player who did.",
                                      "T-ACT-CLOSE-1")])
    holders = [source for _, source in players if source.marker is not None]
    if len(holders) == 2:
        raise NotationError([_problem(holders[1].line, holders[1].marker, "both players are marked @, and there "
                                      "is one Highest marker: keep the @ of the player who holds it.", "T-COMP-3")])
    document: dict[str, Any] = {
        "players": [player for player, _ in players],
        "highest": next((i for i, (_, s) in enumerate(players) if s.marker is not None), None),
    }
    if closers:
        document["closed_by"] = next(i for i, (_, s) in enumerate(players) if s.closed is not None)
    if variant is not None:
        document["variant"] = {"nobles": variant}
    return _Parsed(document, [source for _, source in players], notes)


def _first_column(line: str) -> int:
    return len(line) - len(line.lstrip()) + 1


def _player_line(line: str, number: int) -> tuple[dict[str, Any], _PlayerSource, list[NotationProblem]]:
    start = _first_column(line) - 1
    notes: list[NotationProblem] = []
    if line[start] == '"':
        name, position = _quoted_name(line, start)
        colon = line.find(":", position)
        if colon < 0:
            raise _Stop(position + len(line[position:]) - len(line[position:].lstrip()) + 1,
                        "expected ':' after the quoted name, like \"A: B\" @: 10x3")
        rest, marker, closed = _marks(line, position, colon, number, notes)
        if line[position:rest].strip():
            raise _Stop(position + len(line[position:rest]) - len(line[position:rest].lstrip()) + 1,
                        "expected ':' after the quoted name, like \"A: B\" @: 10x3")
    else:
        colon = line.find(":")
        if colon < 0:
            raise _missing_colon(line, start)
        rest, marker, closed = _marks(line, start, colon, number, notes)
        head = line[start:rest]
        if head.startswith("@"):
            marker = marker or start + 1
            head = head[1:]
        inner = head.find("@")
        if inner >= 0:
            bare = " ".join(head.replace("@", "").split()) or "Adso"
            raise _Stop(start + inner + 1 + (line[start] == "@"), f"the Highest marker '@' goes after the name, "
                                                                  f"like {bare} @: (a name with '@' in it is written "
                                                                  f"in quotes: {json.dumps(head.strip())}:)")
        name = " ".join(head.split())
        if not name:
            raise _Stop(start + 1, "expected the player's name before ':', like Adso: 10x3*")
    if len(name) > MAX_NAME:
        raise _Stop(start + 1, f"a name has at most {MAX_NAME} characters; this one has {len(name)}.")
    source = _PlayerSource(number, start + 1, name, marker, closed=closed)
    body, tower_notes = _towers_part(line, colon + 1, number, source)
    return {"name": name, **body}, source, notes + tower_notes


CLOSED = "(closed)"


def _marks(line: str, begin: int, end: int, number: int,
           notes: list[NotationProblem]) -> tuple[int, int | None, int | None]:
    """Peel the marks off the end of a player's head, line[begin:end]: `@` (the Highest marker), `(closed)` (the
    player who called Close) and a stray `!` between them, in any order. Returns (where the name ends, the
    column of the @, the column of the (closed))."""
    marker = closed = None
    while True:
        end = begin + len(line[begin:end].rstrip())
        head = line[begin:end]
        if head.endswith("@"):
            marker = marker or end
            end -= 1
        elif head.lower().endswith(CLOSED):
            closed = closed or end - len(CLOSED) + 1
            end -= len(CLOSED)
        elif head.endswith("!") and (head[:-1].rstrip().endswith("@") or head[:-1].rstrip().lower().endswith(CLOSED)):
            notes.append(_problem(number, end, "ignored a stray '!'."))
            end -= 1
        else:
            return end, marker, closed


def _quoted_name(line: str, start: int) -> tuple[str, int]:
    position = start + 1
    while position < len(line):
        char = line[position]
        if char == "\\":
            position += 2
            continue
        if char == '"':
            try:
                value = json.loads(line[start:position + 1])
            except ValueError:
                raise _Stop(start + 1, "a quoted name is written like a JSON string: \"Brother \\\"Adso\\\"\"") \
                    from None
            if not value:
                raise _Stop(start + 1, "expected the player's name between the quotes.")
            return value, position + 1
        position += 1
    raise _Stop(start + 1, "expected a closing '\"' for the name opened here.")


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


def _towers_part(line: str, offset: int, number: int, source: _PlayerSource) -> tuple[dict, list[NotationProblem]]:
    text = line[offset:]
    comment = re.search(r"(?:^|\s)#", text)
    if comment:
        text = text[:comment.start()]
    tokens = _tokens(text, offset + 1)
    towers: list[dict[str, Any]] = []
    played: list[str] = []
    notes: list[NotationProblem] = []
    nobles_part = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.kind
        if kind == "comma":
            i += 1
        elif kind == "bang":
            after = f" after {_clip(source.towers[-1].text, 40)}" if towers and not token.spaced else ""
            hint = f" (write {_clip(source.towers[-1].text, 40)}* if that tower is complete)" if after and not \
                towers[-1].get("complete") else ""
            notes.append(_problem(number, token.column, f"ignored a stray '!'{after}{hint}."))
            i += 1
        elif kind == "at":
            if source.marker is None:
                source.marker = token.column
            i += 1
        elif kind == "bar":
            nobles_part = True
            i += 1
        elif kind == "star":
            raise _Stop(token.column, "'*' goes right after the tower it marks complete, like 9x3*.")
        elif kind == "plus" or (kind == "word" and (nobles_part or token.text.upper() in NOBLE_ALIASES)):
            card, i = _noble(tokens, i)
            played.append(CARD_NAMES[card])
            source.played.append(token.column)
        elif kind in ("num", "lbr", "x"):
            if nobles_part:
                raise _Stop(token.column, "towers go before '|' and the nobles after it; move this tower before "
                                          "the '|'.")
            tower, tower_source, i = _tower(tokens, i, text, offset)
            towers.append(tower)
            source.towers.append(tower_source)
        elif kind == "word":
            raise _Stop(token.column, _unknown_word(token.text))
        elif kind == "dash":
            raise _Stop(token.column, f"expected {TOWER_HINT}; a colorful tower is written bottom-top, like 10-6.")
        elif kind == "rbr":
            raise _Stop(token.column, "this ']' closes no stack: a stack is written like [9 9 BP].")
        else:
            raise _Stop(token.column, f"unexpected '{token.shown}': expected {TOWER_HINT}"
                                      f"{' or a noble like +MON' if nobles_part else ''}.")
    return {"towers": towers, "played": played}, notes


def _noble(tokens: list[_Token], i: int) -> tuple[int, int]:
    token = tokens[i]
    if token.kind == "plus":
        if i + 1 >= len(tokens) or tokens[i + 1].kind != "word" or tokens[i + 1].spaced:
            raise _Stop(token.column, "expected a noble after '+', like +MON, +SF, +MU, +PC, +VF or +GI.")
        i += 1
    column = token.column
    # the longest known name: "+MON", "+via_francigena", "+Via Francigena", "+Cappella di Santa Fina"
    words, ends = [tokens[i].text.upper()], [i + 1]
    j = i + 1
    while j < len(tokens) and len(words) < 4:
        if tokens[j].text == "_" and not tokens[j].spaced and j + 1 < len(tokens) and tokens[j + 1].kind == "word" \
                and not tokens[j + 1].spaced:
            j += 1
        elif tokens[j].kind != "word" or not tokens[j].spaced:
            break
        words.append(tokens[j].text.upper())
        j += 1
        ends.append(j)
    for count in range(len(words), 0, -1):
        card = NOBLE_ALIASES.get("_".join(words[:count]))
        if card is not None:
            i = ends[count - 1]
            break
    else:
        word = words[0]
        guess = difflib.get_close_matches(word, PLAYED_CODES + tuple(NOBLE_ALIASES), n=1, cutoff=0.5)
        fix = f"; did you mean +{NOBLE_CODES[NOBLE_ALIASES[guess[0]]]}?" if guess else "."
        raise _Stop(column, f"expected a played noble like +MON, +SF, +MU, +PC, +VF or +GI{fix}")
    if card == BUONA_PIETRA:
        raise _Stop(column, "Buona Pietra is played as a story of a tower, not in front of a player: put it in a "
                            "stack, like [9 9 BP].", "T-NOB-PLAY")
    if i < len(tokens) and tokens[i].kind in ("num", "x", "lbr") and not tokens[i].spaced:
        raise _Stop(tokens[i].column, f"unexpected '{tokens[i].shown}' right after a noble; separate nobles with "
                                      "spaces, like +MON +SF.")
    return card, i


def _unknown_word(word: str) -> str:
    upper = word.upper()
    if upper.startswith("BP"):
        return "a Buona Pietra stands in a tower: write the tower as a stack, like [9 9 BP]."
    guess = difflib.get_close_matches(upper, PLAYED_CODES, n=1, cutoff=0.6)
    if guess:
        return f"expected {TOWER_HINT}, or after '|' a noble; did you mean +{guess[0]}?"
    return f"expected {TOWER_HINT}; '{_clip(word)}' is not a tower."


def _tower(tokens: list[_Token], i: int, text: str, offset: int) -> tuple[dict[str, Any], _TowerSource, int]:
    start = tokens[i]
    if start.kind == "lbr":
        tower, source, i = _stack(tokens, i)
    elif start.kind == "x":
        raise _Stop(start.column, f"expected the rank before 'x', like 8x3 ({TOWER_HINT}).")
    else:
        tower, source, i = _ranked(tokens, i)
    while i < len(tokens) and tokens[i].kind == "star":
        glued_to_next = i + 1 < len(tokens) and not tokens[i + 1].spaced and tokens[i + 1].kind in ("num", "lbr")
        if tokens[i].spaced and glued_to_next:
            break  # "10x3 *9x3": which tower does it mark? Reported by the caller.
        tower["complete"] = True
        i += 1
    end = tokens[i - 1].end
    if i < len(tokens) and not tokens[i].spaced and tokens[i].kind in ("num", "word", "x", "lbr", "dash"):
        if tokens[i].kind not in ("num", "lbr") or not tower.get("complete"):
            raise _Stop(tokens[i].column, f"unexpected '{tokens[i].shown}' right after the tower "
                                          f"{_clip(text[start.column - offset - 1:end - offset - 1], 40)}; separate "
                                          "towers with spaces.")
    source.column = start.column
    source.text = " ".join(text[start.column - offset - 1:end - offset - 1].split())
    if not source.cards:
        source.cards = [start.column] * len(tower["cards"])
    return tower, source, i


def _rank(token: _Token, what: str) -> int:
    value = token.number
    if value not in RANKS:
        raise _Stop(token.column, f"{what} {token.shown} is not a rank: ranks are 5 to 10.")
    return value


def _ranked(tokens: list[_Token], i: int) -> tuple[dict[str, Any], _TowerSource, int]:
    first = tokens[i]
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    if following is not None and following.kind == "x":
        height_token = tokens[i + 2] if i + 2 < len(tokens) else None
        if height_token is None or height_token.kind != "num":
            column = height_token.column if height_token else following.end
            raise _Stop(column, f"expected the height after '{first.shown}x', like {first.shown}x3.")
        rank, height = first.number, height_token.number
        if rank not in RANKS:
            if height in RANKS and 1 <= rank <= MAX_HEIGHT:
                raise _Stop(first.column, f"{first.shown} is not a rank (5 to 10): the rank comes first; did you "
                                          f"mean {height}x{rank}?")
            raise _Stop(first.column, f"{first.shown} is not a rank: ranks are 5 to 10, like 8x3.")
        if height < 1:
            raise _Stop(height_token.column, f"a tower has at least one story; did you mean {rank}x3?")
        if height > MAX_HEIGHT:
            raise _Stop(height_token.column, f"no tower is {height_token.shown} stories tall: there are "
                                             f"{TOWER_COUNTS[rank]} "
                                             f"cards of {rank} and 3 Buona Pietra.")
        return ({"cards": [str(rank)] * height, "complete": False, "kind": PLAIN, "rank": rank},
                _TowerSource(first.column, ""), i + 3)
    if following is not None and following.kind == "dash":
        chain = [first]
        j = i + 1
        while j < len(tokens) and tokens[j].kind == "dash":
            if j + 1 >= len(tokens) or tokens[j + 1].kind != "num":
                column = tokens[j + 1].column if j + 1 < len(tokens) else tokens[j].end
                raise _Stop(column, f"expected the top rank after '{chain[-1].shown}-', like "
                                    f"{chain[-1].shown}-{max(5, min(chain[-1].number, 10) - 2)}.")
            chain.append(tokens[j + 1])
            j += 2
        ranks = [_rank(t, "rank") for t in chain]
        bottom, top = ranks[0], ranks[-1]
        if len(ranks) == 2 and bottom < top:
            raise _Stop(first.column, f"a colorful tower is written from its bottom rank down to its top rank; "
                                      f"did you mean {top}-{bottom}?")
        if len(ranks) > 2:
            for k in range(1, len(ranks)):
                if ranks[k] != ranks[k - 1] - 1:
                    stack = _gapped_stack(ranks)
                    fix = f" or, with Buona Pietra, {stack}" if stack else ""
                    raise _Stop(chain[k].column, f"a colorful tower descends one rank a story: after "
                                                 f"{ranks[k - 1]} comes {ranks[k - 1] - 1}; did you mean "
                                                 f"{bottom}-{top}{fix}?")
        cards = [str(r) for r in range(bottom, top - 1, -1)]
        return ({"cards": cards, "complete": False, "kind": COLORFUL, "rank": bottom},
                _TowerSource(first.column, ""), j)
    # a lone number: a slip for RxH most of the time
    raise _Stop(first.column, f"expected {TOWER_HINT}{_guess(tokens, i)}")


def _gapped_stack(ranks: list[int]) -> str:
    """9-7-6 as a stack with Buona Pietra in the gaps, [9 BP 7 6], when that can be a tower."""
    if any(b >= a for a, b in zip(ranks, ranks[1:])):
        return ""
    items = [str(ranks[0])]
    for a, b in zip(ranks, ranks[1:]):
        items += ["BP"] * (a - b - 1) + [str(b)]
    return f"[{' '.join(items)}]" if items.count("BP") <= NOBLE_COUNTS[BUONA_PIETRA] else ""


def _guess(tokens: list[_Token], i: int) -> str:
    """A likely fix for a tower that is a lone number (8, 83, 8 3, 8*3, 8/3, 8.3)."""
    digits, value = tokens[i].text, tokens[i].number
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    after = tokens[i + 2] if i + 2 < len(tokens) else None
    if value in RANKS and following is not None and not following.spaced and following.text in "*/:.'" \
            and after is not None and after.kind == "num" and not after.spaced and 1 <= after.number <= 13:
        return f"; did you mean {digits}x{after.text}?"
    if value in RANKS and following is not None and following.kind == "num" and following.spaced \
            and 1 <= following.number <= 13:
        return f"; did you mean {digits}x{following.text}?"
    for cut in (2, 1) if len(digits) <= 3 else ():
        rank, height = digits[:cut], digits[cut:]
        if height and int(rank) in RANKS and height[0] != "0" and 1 <= int(height) <= 13:
            return f"; did you mean {rank}x{height}?"
    if value in RANKS:
        return f"; did you mean {digits}x3 (plain, 3 stories) or {digits}-{max(5, value - 2)} (colorful)?"
    return "."


def _stack(tokens: list[_Token], i: int) -> tuple[dict[str, Any], _TowerSource, int]:
    opening = tokens[i]
    cards: list[str] = []
    columns: list[int] = []
    stands: list[tuple[int, int, int]] = []  # (story, rank stood for, column)
    j = i + 1
    while True:
        if j >= len(tokens):
            raise _Stop(opening.column, "expected ']' to close the stack opened here, like [9 9 BP].")
        token = tokens[j]
        if token.kind == "rbr":
            j += 1
            break
        if token.kind == "comma":
            j += 1
            continue
        if token.kind == "num":
            value = token.number
            if value not in RANKS:
                raise _Stop(token.column, f"{token.shown} is not a rank: the stories of a stack are ranks 5 to 10 "
                                          "or BP (a Buona Pietra may say what it stands for: BP11 … BP4).")
            cards.append(token.text)
        elif token.kind == "word" and token.text.upper() == "BP":
            cards.append(CARD_NAMES[BUONA_PIETRA])
            if j + 1 < len(tokens) and tokens[j + 1].kind == "num" and not tokens[j + 1].spaced:
                stood = tokens[j + 1].number
                if not LOWEST_STANDIN <= stood <= HIGHEST_STANDIN:
                    raise _Stop(tokens[j + 1].column, f"a Buona Pietra stands for a rank from {HIGHEST_STANDIN} "
                                                      f"down to {LOWEST_STANDIN}, not {stood}.", "T-NOB-BP")
                stands.append((len(cards) - 1, stood, token.column))
                j += 1
        elif token.kind == "word":
            upper = token.text.upper()
            if upper in NOBLE_ALIASES or upper.startswith("B") or difflib.get_close_matches(upper, ["BP"], 1, 0.5):
                extra = " (only Buona Pietra stands in a tower)" if upper in NOBLE_ALIASES else ""
                raise _Stop(token.column, f"expected a rank 5 to 10 or BP in the stack{extra}; did you mean BP?")
            raise _Stop(token.column, f"expected a rank 5 to 10 or BP in the stack, not '{token.shown}'.")
        elif token.kind == "lbr":
            raise _Stop(opening.column, "expected ']' to close this stack before the next one opens.")
        elif token.kind == "x" and cards and j + 1 < len(tokens) and tokens[j + 1].kind == "num":
            raise _Stop(token.column, "a stack lists every story, like [9 9 BP]; a plain tower without Buona "
                                      f"Pietra is written {cards[-1]}x{tokens[j + 1].shown}.")
        else:
            raise _Stop(token.column, f"unexpected '{token.shown}' in the stack: list the stories bottom first, "
                                      "like [10 10 BP 10].")
        columns.append(token.column)
        j += 1
    if not cards:
        raise _Stop(opening.column, "an empty stack: list the stories bottom first, like [9 9 BP].")
    tower: dict[str, Any] = {"cards": cards, "complete": False}
    if stands:
        card_values = tuple(CARDS_BY_NAME[c] for c in cards)
        options = interpretations(card_values)
        fitting = [(kind, rank) for kind, rank in options
                   if all(_stands_for(kind, rank, story) == stood for story, stood, _ in stands)]
        if options and not fitting:
            story, stood, column = next((s for s in stands if not any(
                _stands_for(kind, rank, s[0]) == s[1] for kind, rank in options)), stands[0])
            readings = " or ".join(_reading(kind, rank, len(cards)) for kind, rank in options)
            raise _Stop(column, f"this Buona Pietra cannot stand for {stood} here: the stack is {readings}.",
                        "T-NOB-BP")
        if len(fitting) == 1 and len(options) > 1:
            tower["kind"], tower["rank"] = fitting[0]
    return tower, _TowerSource(opening.column, "", columns), j


def _stands_for(kind: str, rank: int, story: int) -> int:
    return rank if kind == PLAIN else rank - story


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


# ---------------------------------------------------------------- writing

_PLAIN_NAME = re.compile(r"[^\s:@\"#|\\]+(?: [^\s:@\"#|\\]+)*")


def write(table: Table | State) -> str:
    """The canonical notation of a table (or of a state's table): one line per player, ending with a newline."""
    if isinstance(table, State):
        table = table_of(table)
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

