"""Reading the notation: a lexer (a line's tokens, each with its column) and a parser that turns the text into
the table document `read_table` takes, filling in the map of where each part of it stands in the text."""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any

from .cards import (
    BUONA_PIETRA,
    CAPPELLA,
    CARD_NAMES,
    CARDS_BY_NAME,
    GIOSTRA,
    MONUMENTO,
    MURA,
    PALAZZO,
    RANKS,
    TOWER_COUNTS,
    VIA_FRANCIGENA,
    is_tower_card,
)
from .messages import either, tr
from .model import COLORFUL, PLAIN
from .notation_messages import (
    PLAYED_CODES,
    NotationError,
    NotationProblem,
    _clip,
    _gapped_stack,
    _missing_colon,
    _Parsed,
    _PlayerSource,
    _problem,
    _reading,
    _Stop,
    _TowerSource,
    _unknown_word,
)
from .notation_writer import CLOSED, NOBLE_CODES, _stands_for
from .towers import HIGHEST_STANDIN, LOWEST_STANDIN, interpretations

MAX_HEIGHT = 45  # no tower is taller than all the tower cards; bounds what a typo like 10x99999 can cost
MAX_LINES = 10_000

NOBLE_ALIASES: dict[str, int] = {
    **{code: card for card, code in NOBLE_CODES.items()},
    **{name.upper(): card for card, name in CARD_NAMES.items() if not is_tower_card(card)},
    "MONUMENT": MONUMENTO, "MONUMENTO": MONUMENTO,
    "CAPPELLA": CAPPELLA, "SANTAFINA": CAPPELLA, "SANTA_FINA": CAPPELLA, "CAPPELLA_DI_SANTA_FINA": CAPPELLA,
    "CSF": CAPPELLA, "MURA": MURA, "WALLS": MURA, "PALAZZO": PALAZZO, "PALAZZO_COMUNALE": PALAZZO,
    "FRANCIGENA": VIA_FRANCIGENA, "VIA_FRANCIGENA": VIA_FRANCIGENA, "GIOSTRA": GIOSTRA, "JOUST": GIOSTRA,
}
VARIANTS = {"nobles": True, "advanced": True, "basic": False, "base": False}


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

def _parse(text: Any, max_name: int) -> _Parsed:
    """The text read: the table document, where each part of it stands in the text, and the notes (slips
    forgiven). `max_name` is the longest name the table document takes."""
    if not isinstance(text, str):
        raise NotationError([_problem(None, None, tr("notation is a text, one line per player."))])
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise NotationError([_problem(None, None, tr("more than {most} lines: a table has two players.",
                                                     most=str(MAX_LINES)))])
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
            problems.append(_problem(number, _first_column(line), tr("Torri is for two players: this is a third "
                                                                     "player line. Write one line per player."),
                                     "T-COMP-3"))
            break
        try:
            player, source, line_notes = _player_line(line, number, max_name)
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
            raise NotationError([_problem(last_line + 1, 1, tr("expected a second line for the other player, like "
                                                               "William: 7x3* 9-5*"), "T-COMP-3")])
        raise NotationError([_problem(1, 1, tr("the notation is empty: write one line per player, like "
                                               "Adso @: 10x3* 9-7 and William: 7x3* 8-6"), "T-COMP-3")])
    closers = [source for _, source in players if source.closed is not None]
    if len(closers) == 2:
        raise NotationError([_problem(closers[1].line, closers[1].closed, tr("both players are marked (closed), "
                                                                             "and one player calls Close: keep the "
                                                                             "mark of the player who did."),
                                      "T-ACT-CLOSE-1")])
    holders = [source for _, source in players if source.marker is not None]
    if len(holders) == 2:
        raise NotationError([_problem(holders[1].line, holders[1].marker, tr("both players are marked @, and there "
                                                                             "is one Highest marker: keep the @ of "
                                                                             "the player who holds it."),
                                      "T-COMP-3")])
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


def _player_line(line: str, number: int,
                 max_name: int) -> tuple[dict[str, Any], _PlayerSource, list[NotationProblem]]:
    start = _first_column(line) - 1
    notes: list[NotationProblem] = []
    if line[start] == '"':
        name, position = _quoted_name(line, start)
        colon = line.find(":", position)
        if colon < 0:
            raise _Stop(position + len(line[position:]) - len(line[position:].lstrip()) + 1,
                        tr("expected ':' after the quoted name, like \"A: B\" @: 10x3"))
        rest, marker, closed = _marks(line, position, colon, number, notes)
        if line[position:rest].strip():
            raise _Stop(position + len(line[position:rest]) - len(line[position:rest].lstrip()) + 1,
                        tr("expected ':' after the quoted name, like \"A: B\" @: 10x3"))
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
            raise _Stop(start + inner + 1 + (line[start] == "@"),
                        tr("the Highest marker '@' goes after the name, like {name} @: (a name with '@' in it is "
                           "written in quotes: {quoted}:)", name=bare, quoted=json.dumps(head.strip())))
        name = " ".join(head.split())
        if not name:
            raise _Stop(start + 1, tr("expected the player's name before ':', like Adso: 10x3*"))
    if len(name) > max_name:
        raise _Stop(start + 1, tr("a name has at most {most} characters; this one has {length}.", most=str(max_name),
                                  length=str(len(name))))
    source = _PlayerSource(number, start + 1, name, marker, closed=closed)
    body, tower_notes = _towers_part(line, colon + 1, number, source)
    return {"name": name, **body}, source, notes + tower_notes


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
            notes.append(_problem(number, end, tr("ignored a stray '!'.")))
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
                raise _Stop(start + 1, tr("a quoted name is written like a JSON string: \"Brother \\\"Adso\\\"\"")) \
                    from None
            if not value:
                raise _Stop(start + 1, tr("expected the player's name between the quotes."))
            return value, position + 1
        position += 1
    raise _Stop(start + 1, tr("expected a closing '\"' for the name opened here."))


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
            if towers and not token.spaced:
                last = _clip(source.towers[-1].text, 40)
                said = (tr("ignored a stray '!' after {tower}.", tower=last) if towers[-1].get("complete") else
                        tr("ignored a stray '!' after {tower} (write {tower}* if that tower is complete).",
                           tower=last))
            else:
                said = tr("ignored a stray '!'.")
            notes.append(_problem(number, token.column, said))
            i += 1
        elif kind == "at":
            if source.marker is None:
                source.marker = token.column
            i += 1
        elif kind == "bar":
            nobles_part = True
            i += 1
        elif kind == "star":
            raise _Stop(token.column, tr("'*' goes right after the tower it marks complete, like 9x3*."))
        elif kind == "plus" or (kind == "word" and (nobles_part or token.text.upper() in NOBLE_ALIASES)):
            card, i = _noble(tokens, i)
            played.append(CARD_NAMES[card])
            source.played.append(token.column)
        elif kind in ("num", "lbr", "x"):
            if nobles_part:
                raise _Stop(token.column, tr("towers go before '|' and the nobles after it; move this tower before "
                                             "the '|'."))
            tower, tower_source, i = _tower(tokens, i, text, offset)
            towers.append(tower)
            source.towers.append(tower_source)
        elif kind == "word":
            raise _Stop(token.column, _unknown_word(token.text))
        elif kind == "dash":
            raise _Stop(token.column, tr("expected a tower like 8x3, 10-6 or [9 9 BP]; a colorful tower is written "
                                         "bottom-top, like 10-6."))
        elif kind == "rbr":
            raise _Stop(token.column, tr("this ']' closes no stack: a stack is written like [9 9 BP]."))
        else:
            raise _Stop(token.column, tr("unexpected '{token}': expected a tower like 8x3, 10-6 or [9 9 BP] or a "
                                         "noble like +MON.", token=token.shown) if nobles_part else
                        tr("unexpected '{token}': expected a tower like 8x3, 10-6 or [9 9 BP].", token=token.shown))
    return {"towers": towers, "played": played}, notes


def _noble(tokens: list[_Token], i: int) -> tuple[int, int]:
    token = tokens[i]
    if token.kind == "plus":
        if i + 1 >= len(tokens) or tokens[i + 1].kind != "word" or tokens[i + 1].spaced:
            raise _Stop(token.column, tr("expected a noble after '+', like +MON, +SF, +MU, +PC, +VF or +GI."))
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
        if guess:
            fix = "+" + NOBLE_CODES[NOBLE_ALIASES[guess[0]]]
            raise _Stop(column, tr("expected a played noble like +MON, +SF, +MU, +PC, +VF or +GI; did you mean "
                                   "{fix}?", fix=fix))
        raise _Stop(column, tr("expected a played noble like +MON, +SF, +MU, +PC, +VF or +GI."))
    if card == BUONA_PIETRA:
        raise _Stop(column, tr("Buona Pietra is played as a story of a tower, not in front of a player: put it in a "
                               "stack, like [9 9 BP]."), "T-NOB-PLAY")
    if i < len(tokens) and tokens[i].kind in ("num", "x", "lbr") and not tokens[i].spaced:
        raise _Stop(tokens[i].column, tr("unexpected '{token}' right after a noble; separate nobles with spaces, "
                                         "like +MON +SF.", token=tokens[i].shown))
    return card, i


def _tower(tokens: list[_Token], i: int, text: str, offset: int) -> tuple[dict[str, Any], _TowerSource, int]:
    start = tokens[i]
    if start.kind == "lbr":
        tower, source, i = _stack(tokens, i)
    elif start.kind == "x":
        raise _Stop(start.column, tr("expected the rank before 'x', like 8x3 (a tower like 8x3, 10-6 or [9 9 BP])."))
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
            raise _Stop(tokens[i].column, tr("unexpected '{token}' right after the tower {tower}; separate towers "
                                             "with spaces.", token=tokens[i].shown,
                                             tower=_clip(text[start.column - offset - 1:end - offset - 1], 40)))
    source.column = start.column
    source.text = " ".join(text[start.column - offset - 1:end - offset - 1].split())
    if not source.cards:
        source.cards = [start.column] * len(tower["cards"])
    return tower, source, i


def _rank(token: _Token) -> int:
    value = token.number
    if value not in RANKS:
        raise _Stop(token.column, tr("rank {token} is not a rank: ranks are 5 to 10.", token=token.shown))
    return value


def _ranked(tokens: list[_Token], i: int) -> tuple[dict[str, Any], _TowerSource, int]:
    first = tokens[i]
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    if following is not None and following.kind == "x":
        height_token = tokens[i + 2] if i + 2 < len(tokens) else None
        if height_token is None or height_token.kind != "num":
            column = height_token.column if height_token else following.end
            raise _Stop(column, tr("expected the height after '{token}x', like {token}x3.", token=first.shown))
        rank, height = first.number, height_token.number
        if rank not in RANKS:
            if height in RANKS and 1 <= rank <= MAX_HEIGHT:
                fix = f"{height}x{rank}"
                raise _Stop(first.column, tr("{token} is not a rank (5 to 10): the rank comes first; did you mean "
                                             "{fix}?", token=first.shown, fix=fix))
            raise _Stop(first.column, tr("{token} is not a rank: ranks are 5 to 10, like 8x3.", token=first.shown))
        if height < 1:
            fix = f"{rank}x3"
            raise _Stop(height_token.column, tr("a tower has at least one story; did you mean {fix}?", fix=fix))
        if height > MAX_HEIGHT:
            raise _Stop(height_token.column, tr("no tower is {height} stories tall: there are {count} cards of {rank} "
                                                "and 3 Buona Pietra.", height=height_token.shown,
                                                count=TOWER_COUNTS[rank], rank=rank))
        return ({"cards": [str(rank)] * height, "complete": False, "kind": PLAIN, "rank": rank},
                _TowerSource(first.column, ""), i + 3)
    if following is not None and following.kind == "dash":
        chain = [first]
        j = i + 1
        while j < len(tokens) and tokens[j].kind == "dash":
            if j + 1 >= len(tokens) or tokens[j + 1].kind != "num":
                column = tokens[j + 1].column if j + 1 < len(tokens) else tokens[j].end
                fix = f"{chain[-1].shown}-{max(5, min(chain[-1].number, 10) - 2)}"
                raise _Stop(column, tr("expected the top rank after '{token}-', like {fix}.", token=chain[-1].shown,
                                       fix=fix))
            chain.append(tokens[j + 1])
            j += 2
        ranks = [_rank(t) for t in chain]
        bottom, top = ranks[0], ranks[-1]
        if len(ranks) == 2 and bottom < top:
            fix = f"{top}-{bottom}"
            raise _Stop(first.column, tr("a colorful tower is written from its bottom rank down to its top rank; did "
                                         "you mean {fix}?", fix=fix))
        if len(ranks) > 2:
            for k in range(1, len(ranks)):
                if ranks[k] != ranks[k - 1] - 1:
                    stack = _gapped_stack(ranks)
                    said = {"rank": ranks[k - 1], "next": ranks[k - 1] - 1, "fix": f"{bottom}-{top}"}
                    raise _Stop(chain[k].column, tr("a colorful tower descends one rank a story: after {rank} comes "
                                                    "{next}; did you mean {fix} or, with Buona Pietra, {stack}?",
                                                    stack=stack, **said) if stack else
                                tr("a colorful tower descends one rank a story: after {rank} comes {next}; did you "
                                   "mean {fix}?", **said))
        cards = [str(r) for r in range(bottom, top - 1, -1)]
        return ({"cards": cards, "complete": False, "kind": COLORFUL, "rank": bottom},
                _TowerSource(first.column, ""), j)
    # a lone number: a slip for RxH most of the time
    raise _Stop(first.column, _guess(tokens, i))


def _guess(tokens: list[_Token], i: int) -> str:
    """What a tower that is a lone number (8, 83, 8 3, 8*3, 8/3, 8.3) should be, with a likely fix."""
    fix = _fix(tokens, i)
    if isinstance(fix, tuple):
        # Translators: {plain} and {colorful} are towers written in notation ("8x3", "8-6")
        return tr("expected a tower like 8x3, 10-6 or [9 9 BP]; did you mean {plain} (plain, 3 stories) or {colorful} "
                  "(colorful)?", plain=fix[0], colorful=fix[1])
    if fix:
        return tr("expected a tower like 8x3, 10-6 or [9 9 BP]; did you mean {fix}?", fix=fix)
    return tr("expected a tower like 8x3, 10-6 or [9 9 BP].")


def _fix(tokens: list[_Token], i: int) -> str | tuple[str, str]:
    """A likely fix for a tower that is a lone number: a tower, two (plain, colorful), or none ("")."""
    digits, value = tokens[i].text, tokens[i].number
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    after = tokens[i + 2] if i + 2 < len(tokens) else None
    if value in RANKS and following is not None and not following.spaced and following.text in "*/:.'" \
            and after is not None and after.kind == "num" and not after.spaced and 1 <= after.number <= 13:
        return f"{digits}x{after.text}"
    if value in RANKS and following is not None and following.kind == "num" and following.spaced \
            and 1 <= following.number <= 13:
        return f"{digits}x{following.text}"
    for cut in (2, 1) if len(digits) <= 3 else ():
        rank, height = digits[:cut], digits[cut:]
        if height and int(rank) in RANKS and height[0] != "0" and 1 <= int(height) <= 13:
            return f"{rank}x{height}"
    if value in RANKS:
        return f"{digits}x3", f"{digits}-{max(5, value - 2)}"
    return ""


def _stack(tokens: list[_Token], i: int) -> tuple[dict[str, Any], _TowerSource, int]:
    opening = tokens[i]
    cards: list[str] = []
    columns: list[int] = []
    stands: list[tuple[int, int, int]] = []  # (story, rank stood for, column)
    j = i + 1
    while True:
        if j >= len(tokens):
            raise _Stop(opening.column, tr("expected ']' to close the stack opened here, like [9 9 BP]."))
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
                raise _Stop(token.column, tr("{token} is not a rank: the stories of a stack are ranks 5 to 10 or BP "
                                             "(a Buona Pietra may say what it stands for: BP11 … BP4).",
                                             token=token.shown))
            cards.append(token.text)
        elif token.kind == "word" and token.text.upper() == "BP":
            cards.append(CARD_NAMES[BUONA_PIETRA])
            if j + 1 < len(tokens) and tokens[j + 1].kind == "num" and not tokens[j + 1].spaced:
                stood = tokens[j + 1].number
                if not LOWEST_STANDIN <= stood <= HIGHEST_STANDIN:
                    raise _Stop(tokens[j + 1].column, tr("a Buona Pietra stands for a rank from {high} down to {low}, "
                                                         "not {stood}.", high=HIGHEST_STANDIN, low=LOWEST_STANDIN,
                                                         stood=str(stood)), "T-NOB-BP")
                stands.append((len(cards) - 1, stood, token.column))
                j += 1
        elif token.kind == "word":
            upper = token.text.upper()
            if upper in NOBLE_ALIASES or upper.startswith("B") or difflib.get_close_matches(upper, ["BP"], 1, 0.5):
                raise _Stop(token.column, tr("expected a rank 5 to 10 or BP in the stack (only Buona Pietra stands "
                                             "in a tower); did you mean BP?") if upper in NOBLE_ALIASES else
                            tr("expected a rank 5 to 10 or BP in the stack; did you mean BP?"))
            raise _Stop(token.column, tr("expected a rank 5 to 10 or BP in the stack, not '{token}'.",
                                         token=token.shown))
        elif token.kind == "lbr":
            raise _Stop(opening.column, tr("expected ']' to close this stack before the next one opens."))
        elif token.kind == "x" and cards and j + 1 < len(tokens) and tokens[j + 1].kind == "num":
            fix = f"{cards[-1]}x{tokens[j + 1].shown}"
            raise _Stop(token.column, tr("a stack lists every story, like [9 9 BP]; a plain tower without Buona "
                                         "Pietra is written {fix}.", fix=fix))
        else:
            raise _Stop(token.column, tr("unexpected '{token}' in the stack: list the stories bottom first, like "
                                         "[10 10 BP 10].", token=token.shown))
        columns.append(token.column)
        j += 1
    if not cards:
        raise _Stop(opening.column, tr("an empty stack: list the stories bottom first, like [9 9 BP]."))
    tower: dict[str, Any] = {"cards": cards, "complete": False}
    if stands:
        card_values = tuple(CARDS_BY_NAME[c] for c in cards)
        options = interpretations(card_values)
        fitting = [(kind, rank) for kind, rank in options
                   if all(_stands_for(kind, rank, story) == stood for story, stood, _ in stands)]
        if options and not fitting:
            story, stood, column = next((s for s in stands if not any(
                _stands_for(kind, rank, s[0]) == s[1] for kind, rank in options)), stands[0])
            readings = either(_reading(kind, rank, len(cards)) for kind, rank in options)
            raise _Stop(column, tr("this Buona Pietra cannot stand for {stood} here: the stack is {readings}.",
                                   stood=str(stood), readings=readings), "T-NOB-BP")
        if len(fitting) == 1 and len(options) > 1:
            tower["kind"], tower["rank"] = fitting[0]
    return tower, _TowerSource(opening.column, "", columns), j
