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

This module is where the notation meets the table document (`read_table`, `table_of`): the text is read in
notation_parser, written in notation_writer, and what it says back, where in the text, is notation_messages'.
"""
from __future__ import annotations

from typing import Any

from ..core.errors import InvalidStateError, MalformedError, Problem
from .model import State, Table
from .notation_messages import (
    POINTER,
    TOWER_HINT,
    NotationError,
    NotationProblem,
    NotationTableError,
    _locate,
    _shape_problems,
)
from .notation_parser import MAX_HEIGHT, MAX_LINES, NOBLE_ALIASES, PLAYED_CODES, VARIANTS, _parse
from .notation_writer import CLOSED, NOBLE_CODES, write_name, write_table, write_tower
from .position import table_of
from .schemas import MAX_NAME, read_table

EXAMPLE = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6 | +MON\nWilliam: 7x3* 9-5* 10-8* 7-5*"

__all__ = [
    "CLOSED", "EXAMPLE", "MAX_HEIGHT", "MAX_LINES", "NOBLE_ALIASES", "NOBLE_CODES", "PLAYED_CODES", "POINTER",
    "TOWER_HINT", "VARIANTS", "NotationError", "NotationProblem", "NotationTableError", "canonical", "parse", "read",
    "write", "write_name", "write_tower",
]


def parse(text: str) -> dict[str, Any]:
    """The table document (the shape `read_table` takes) that the text describes; raises NotationError."""
    return _parse(text, MAX_NAME).document


def read(text: str) -> tuple[Table, list[Problem]]:
    """The table and its warnings. Raises NotationError (not notation) or NotationTableError (not a real table);
    every problem's pointer is /notation and its message names the line, the column, the player and the tower."""
    parsed = _parse(text, MAX_NAME)
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


def write(table: Table | State) -> str:
    """The canonical notation of a table (or of a state's table): one line per player, ending with a newline."""
    return write_table(table_of(table) if isinstance(table, State) else table)
