"""A picture of a Torri table as SVG: each player's towers as stacks of cards, complete towers roofed, the
Highest marker beside its holder, names, played nobles and totals. The table of a game still going on says who
leads, not who wins. With a proposed step (`/picture` with `moves`), that step drawn faded where it was tried,
marked legal (✓) or refused (✗, dashed), and the verdict in words below the players (`_proposed`).

Pure: text in, text out; no fonts or images from anywhere (the system's sans-serif), so it renders offline
and can be embedded in a page, a report or a file.

    >>> from service.games.torri import notation, picture
    >>> table, _ = notation.read("Adso @: 10x3* 10-6\\nWilliam: 7x3*")
    >>> picture.svg(table).startswith("<svg")
    True
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core.language import DEFAULT, Listed, said
from ..core.svg import Mark, escape, mark_of, quoteattr, verdict, verdict_band
from .cards import BUONA_PIETRA, CAPPELLA, CARD_NAMES, GIOSTRA, MONUMENTO, MURA, PALAZZO, VIA_FRANCIGENA
from .messages import ordinal, tr, tr_n, tr_p
from .model import COLORFUL, PLAIN, State, Table, Tower
from .narration import _source
from .narration import cards as said_cards
from .position import table_of
from .scoring import Score, score_table
from .towers import interpretations

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
CARD_W, GAP, MARGIN = 46, 16, 24
NAME_H = 66  # the band above each player's towers: name, marker, nobles, total
LABEL_H = 34  # below the ground: the tower's label
ROOF_H = 20
MIN_WIDTH = 560

# One colour per rank, warm stone tones (San Gimignano's towers), dark enough for white numbers.
RANK_FILL = {5: "#7a8f5a", 6: "#4f7f8c", 7: "#8a6bb0", 8: "#b8783a", 9: "#a8483e", 10: "#5a5f73"}
BP_FILL = "#d9b24c"
NOBLE_LABELS = {MONUMENTO: "Monumento", CAPPELLA: "Cappella di Santa Fina", MURA: "Mura", PALAZZO: "Palazzo",
                VIA_FRANCIGENA: "Via Francigena", GIOSTRA: "Giostra", BUONA_PIETRA: "Buona Pietra"}  # in every language

# The picture's words (said in the picture's language where it is drawn)
# Translators: the label of the Highest marker, beside its holder's name in the picture
HIGHEST_MARKER = tr("Highest marker")
# Translators: a label beside the winner's name in the picture
WINNER = tr_p("picture", "Winner")
# Translators: a label beside the name of the player ahead on points, in the picture of a game still going on
LEADING = tr_p("picture", "Leading")
# Translators: a label beside the name of the player who called Close, in the picture
CLOSED = tr_p("picture", "Closed")
# Translators: in the picture, where a player has no tower
NO_TOWERS = tr("no towers")
# Translators: under a tower in the picture: its kind
PLAIN_LABEL = tr_p("picture", "plain")
COLORFUL_LABEL = tr_p("picture", "colorful")


def svg(table: Table | State, score: Score | None = None, *, title: str | None = None,
        language: str = DEFAULT, proposal: Any = None) -> str:
    """The table as an SVG document (a string), its words in `language`. `score` defaults to the table's score.
    With a `proposal` (service.games.core.game.Proposal: a step tried on the position this table is of), the step
    is drawn faded where it was tried, marked legal or refused, and its verdict is said below the players."""
    if isinstance(table, State):
        table = table_of(table)
    score = score or score_table(table)
    placed = _placed(table, proposal.step, _actor(proposal)) if proposal is not None else None
    tallest = max((t.height for towers in table.towers for t in towers), default=3)
    if placed is not None:
        tallest = max(tallest, placed.height)
    card_h = 22 if tallest <= 8 else 18 if tallest <= 11 else 15
    towers_h = max(tallest, 3) * card_h + ROOF_H + 6 + (ROOM_H if placed is not None else 0)
    band = NAME_H + towers_h + LABEL_H
    widest = max(len(towers) for towers in table.towers)
    if placed is not None:
        widest = max(widest, placed.widest)
    width = max(MIN_WIDTH, 2 * MARGIN + widest * (CARD_W + GAP) - GAP,
                *(2 * MARGIN + _badges_width(table, score, i, language) for i in range(2)))
    if placed is not None:
        width = max(width, _pill_room(table, score, placed, language))
    width = int(width + 0.5)
    head = 44 if title is None or title else 0
    height = head + 2 * band + 30
    proposed = verdict_group = ""
    if placed is not None:
        layout = Layout(width, head, band, card_h, towers_h)
        proposed, verdict_group, height = _proposed(table, score, proposal, placed, layout, language)
    label = said(_summary(table, score), language)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label={quoteattr(label)} font-family={quoteattr(FONT)}>',
        f"<title>{escape(label)}</title>",
        "<defs><linearGradient id=\"sky\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
        "<stop offset=\"0\" stop-color=\"#fbf7ef\"/><stop offset=\"1\" stop-color=\"#f1e8d8\"/></linearGradient>"
        "</defs>",
        f'<rect width="{width}" height="{height}" rx="14" fill="url(#sky)"/>',
    ]
    if head:
        out.append(_text(MARGIN, 30, title or said(_headline(table, score), language), size=17, weight=700,
                         fill="#3b3127"))
    for i in range(2):
        out.append(_player(table, score, i, head + i * band, width, card_h, towers_h, language))
    if proposal is not None:
        out.extend((proposed, verdict_group))
    out.append(_text(width - MARGIN, height - 12, "Le Torri di San Gimignano", size=10, fill="#9a8b76",
                     anchor="end"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _summary(table: Table, score: Score) -> str:
    """What the picture shows, in words (its title and label, for those who do not see it)."""
    parts = []
    for i in range(2):
        towers = table.towers[i]
        counted = {
            "player": table.names[i],
            # Translators: a player's points, in the picture's description ("Adso: 61 points, 5 towers (3 complete)")
            "points": tr_n("{count} point", "{count} points", score.players[i].total),
            "towers": tr_n("{count} tower", "{count} towers", len(towers)),
            # Translators: how many of a player's towers are complete ("5 towers (3 complete)")
            "complete": tr_n("{count} complete", "{count} complete", sum(t.complete for t in towers)),
        }
        parts.append(tr("{player}: {points}, {towers} ({complete}), holds the Highest marker", **counted)
                     if table.highest == i else tr("{player}: {points}, {towers} ({complete})", **counted))
    # Translators: the picture's description: each player's part, then who won
    return tr("{first}; {second}. {headline}", first=parts[0], second=parts[1], headline=_headline(table, score))


def _headline(table: Table, score: Score) -> str:
    """Who won, and how (the picture's title); while the game goes on, who leads on points, or that it is level."""
    if not table.finished:
        first, second = (p.total for p in score.players)
        if first == second:
            # Translators: the picture's title while the game goes on, both players having the same points
            return tr_n("Level at {count} point.", "Level at {count} points.", first)
        ahead, behind = (score.players[0], score.players[1]) if first > second else (score.players[1],
                                                                                     score.players[0])
        # Translators: the picture's title while the game goes on: who is ahead on points so far
        return tr("{player} leads, {won} to {lost}.", player=ahead.name, won=ahead.total, lost=behind.total)
    if score.winner is None:
        return tr_n("A draw at {count} point.", "A draw at {count} points.", score.players[0].total)
    won = score.players[score.winner]
    lost = score.players[1 - score.winner]
    if score.decided_by == "points":
        return tr("{player} wins, {won} to {lost} (on points).", player=won.name, won=won.total, lost=lost.total)
    return tr("{player} wins, {won} to {lost} (tie broken by the Highest marker).", player=won.name, won=won.total,
              lost=lost.total)


def _player(table: Table, score: Score, i: int, top: int, width: int, card_h: int, towers_h: int,
            language: str) -> str:
    name = table.names[i]
    total = score.players[i].total
    standing = _standing(table, score, i)
    out = [f'<g class="player" data-player="{i}"><title>{escape(name)}</title>']
    if i == 1:
        out.append(f'<line x1="{MARGIN}" y1="{top + 4}" x2="{width - MARGIN}" y2="{top + 4}" stroke="#e0d3bd"/>')
    y = top + 32
    out.append(_text(MARGIN, y, _clip(name, 40), size=20, weight=700, fill="#2f261d", cls="name"))
    out.append(f'<text x="{width - MARGIN}" y="{y}" text-anchor="end" fill="#2f261d" class="total">'
               f'<tspan font-size="26" font-weight="800">{total}</tspan>'
               f'<tspan font-size="12" fill="#7d6d58" dx="5">{escape(said(_points(total), language))}</tspan>'
               '</text>')
    x = MARGIN
    if table.highest == i:
        marker = said(HIGHEST_MARKER, language)
        out.append(_marker(x, y + 8, marker))
        x += _text_width(marker, 11, 600) + 44
    if standing is not None:
        won = said(standing, language)
        out.append(_pill(x, y + 8, won, "#2f6b3a" if standing is WINNER else "#6d5a2c", "#ffffff", size=11))
        x += _text_width(won, 11, 600) + 24
    if getattr(table, "closed_by", None) == i:
        closed = said(CLOSED, language)
        out.append(_pill(x, y + 8, closed, "#e3dccf", "#4a3d2e", size=11))
        x += _text_width(closed, 11, 600) + 24
    for card in table.played[i]:
        text = "+ " + NOBLE_LABELS.get(card, str(card))
        out.append(_pill(x, y + 8, text, "#efe1bf", "#5b4720", size=11))
        x += _text_width(text, 11, 600) + 24
    ground = top + NAME_H + towers_h
    out.append(f'<rect x="{MARGIN - 8}" y="{ground}" width="{width - 2 * MARGIN + 16}" height="5" rx="2.5" '
               f'fill="#c9b796"/>')
    towers = table.towers[i]
    if not towers:
        out.append(_text(MARGIN, ground - 12, said(NO_TOWERS, language), size=13, fill="#9a8b76", italic=True))
    for n, tower in enumerate(towers):
        out.append(_tower(tower, n, MARGIN + n * (CARD_W + GAP), ground, card_h, language))
    out.append("</g>")
    return "\n".join(out)


def _points(total: int) -> str:
    # Translators: beside a player's total in the picture, in smaller letters ("61 points": the number is apart)
    return tr_n("point", "points", total)


def _standing(table: Table, score: Score, i: int) -> Any:
    """The label beside player `i`'s name: Winner on a finished table, Leading (on points) while the game goes on,
    or none."""
    if table.finished:
        return WINNER if score.winner == i else None
    mine, theirs = score.players[i].total, score.players[1 - i].total
    return LEADING if mine > theirs else None


def _badges_width(table: Table, score: Score, i: int, language: str) -> float:
    width = _text_width(said(HIGHEST_MARKER, language), 11, 600) + 44 if table.highest == i else 0
    standing = _standing(table, score, i)
    width += _text_width(said(standing, language), 11, 600) + 24 if standing is not None else 0
    width += _text_width(said(CLOSED, language), 11, 600) + 24 if getattr(table, "closed_by", None) == i else 0
    return width + sum(_text_width("+ " + NOBLE_LABELS.get(card, str(card)), 11, 600) + 24
                       for card in table.played[i])


def _tower(tower: Tower, index: int, x: int, ground: int, card_h: int, language: str, role: str = "tower",
           face: Any = str, readable: bool = True) -> str:
    """A tower standing on `ground`; a proposed one (`role`) with its cards' faces written by `face`, and, when its
    cards make no tower (`readable` False), labelled by its cards without a kind."""
    state = "complete" if tower.complete else "incomplete"
    label = _tower_label(tower) if readable else "-".join(_short(card) for card in tower.cards)
    title = escape(said(_tower_title(tower) if readable else _named(tower.cards), language))
    out = [f'<g class="{role} {state}" data-tower="{index}"><title>{title}</title>']
    for story, card in enumerate(tower.cards):
        out.extend(_story(tower, story, card, x, ground - (story + 1) * card_h, card_h, face))
    summit = ground - tower.height * card_h
    if tower.complete:  # a roof, and a check on it
        out.extend(_roof(x, summit))
    else:  # open at the top: scaffolding
        out.append(f'<path d="M{x + 4} {summit - 2} v-8 M{x + CARD_W - 4} {summit - 2} v-8 M{x + 2} {summit - 8} '
                   f'h{CARD_W - 4}" stroke="#a4916f" stroke-width="1.5" stroke-dasharray="2 2" fill="none"/>')
    out.append(_text(x + CARD_W / 2, ground + 18, label, size=12, weight=600, fill="#4a3d2e", anchor="middle"))
    if readable:
        kind = said(PLAIN_LABEL if tower.kind == PLAIN else COLORFUL_LABEL, language)
        out.append(_text(x + CARD_W / 2, ground + 30, kind, size=9, fill="#8c7c66", anchor="middle"))
    out.append("</g>")
    return "\n".join(out)


def _story(tower: Tower, story: int, card: int, x: int, y: int, card_h: int, face: Any = str) -> list[str]:
    """One story of `tower` (its `story`th from the bottom, 0 first): `card` as a card, its top edge at `y`, its
    face written by `face` (a proposed step's cards: `_card_face`)."""
    if card == BUONA_PIETRA:
        stands = tower.rank if tower.kind == PLAIN else tower.rank - story
        return [(f'<rect x="{x}" y="{y + 1}" width="{CARD_W}" height="{card_h - 2}" rx="3" fill="{BP_FILL}" '
                 f'stroke="#8a6a1c" stroke-width="1.2" stroke-dasharray="3 2"/>'),
                _text(x + CARD_W / 2, y + card_h / 2 + 4, f"BP·{stands}", size=11, weight=700, fill="#3d2e08",
                      anchor="middle")]
    fill = RANK_FILL.get(card, "#777777")
    return [f'<rect x="{x}" y="{y + 1}" width="{CARD_W}" height="{card_h - 2}" rx="3" fill="{fill}"/>',
            f'<rect x="{x + 3}" y="{y + 3}" width="{CARD_W - 6}" height="2" rx="1" fill="#ffffff" opacity="0.18"/>',
            _text(x + CARD_W / 2, y + card_h / 2 + 4.5, face(card), size=13, weight=700, fill="#ffffff",
                  anchor="middle")]


def _card_face(card: int) -> str:
    """What a proposed card shows on a story: its rank, or a noble (other than Buona Pietra: a refused step) the
    first letters of its name."""
    return str(card) if card <= 10 else NOBLE_LABELS.get(card, str(card))[:4]


def _short(card: int) -> str:
    """A card in a label of a proposed stack that is no tower (`9-7-5`): a rank, BP, or a noble's first letters."""
    return str(card) if card <= 10 else "BP" if card == BUONA_PIETRA else NOBLE_LABELS.get(card, str(card))[:2]


def _roof(x: int, summit: float) -> list[str]:
    """A complete tower's roof on its top story (at `summit`), with a check on it."""
    cx = x + CARD_W / 2
    return [(f'<path d="M{x - 3} {summit} L{cx} {summit - ROOF_H + 2} L{x + CARD_W + 3} {summit} Z" '
             'fill="#7a2f22"/>'),
            (f'<path d="M{cx - 5} {summit - 8} l4 4 l7 -8" fill="none" stroke="#ffffff" stroke-width="2" '
             'stroke-linecap="round" stroke-linejoin="round"/>')]


def _tower_label(tower: Tower) -> str:
    if tower.kind == PLAIN:
        return f"{tower.rank}×{tower.height}"
    return f"{tower.rank}–{tower.top}"


def _tower_title(tower: Tower) -> str:
    """A tower in words (its title in the picture): `plain 9, 3 stories, 1 Buona Pietra, complete`."""
    # Translators: a tower in the picture, by its kind, rank and height ("plain 9, 3 stories")
    kind = (tr_n("plain {rank}, {count} story", "plain {rank}, {count} stories", tower.height, rank=tower.rank)
            if tower.kind == PLAIN else
            tr_n("colorful {rank} down to {top}, {count} story", "colorful {rank} down to {top}, {count} stories",
                 tower.height, rank=tower.rank, top=tower.top))
    bp = sum(card == BUONA_PIETRA for card in tower.cards)
    # Translators: whether a tower is complete, at the end of its description in the picture
    state = tr_p("tower", "complete") if tower.complete else tr_p("tower", "incomplete")
    if bp:
        # Translators: a tower in the picture: its kind, the Buona Pietra in it ("1 Buona Pietra"), complete or not
        return tr("{kind}, {buona_pietra}, {state}", kind=kind,
                  buona_pietra=tr_n("{count} Buona Pietra", "{count} Buona Pietra", bp), state=state)
    return tr("{kind}, {state}", kind=kind, state=state)


def _marker(x: float, y: float, label: str) -> str:
    """The Highest marker: a gold token with a little tower on it, in a pill with its name (`label`)."""
    w = _text_width(label, 11, 600) + 36
    cx, cy = x + 11, y + 10.5
    return (f'<g class="marker"><rect x="{x}" y="{y}" width="{w:.0f}" height="21" rx="10.5" fill="#f6e3a8"/>'
            f'<circle cx="{cx}" cy="{cy}" r="9" fill="#d9a521" stroke="#8a6412" stroke-width="1.2"/>'
            f'<path d="M{cx - 3.5} {cy + 5} v-7.5 h1.5 v-2.5 h4 v2.5 h1.5 v7.5 Z" fill="#fff6dc"/>'
            + _text(x + 25, y + 14.5, label, size=11, weight=600, fill="#6e4f0c") + "</g>")


def _pill(x: float, y: float, text: str, fill: str, color: str, size: int = 12) -> str:
    w = _text_width(text, size, 600) + 18
    return (f'<g class="pill"><rect x="{x}" y="{y}" width="{w:.0f}" height="{size + 10}" rx="{(size + 10) / 2}" '
            f'fill="{fill}"/>' + _text(x + 9, y + size + 3.5, text, size=size, weight=600, fill=color) + "</g>")


def _text(x: float, y: float, text: str, *, size: int, fill: str, weight: int = 400, anchor: str = "start",
          italic: bool = False, cls: str | None = None) -> str:
    attrs = [f'x="{_num(x)}"', f'y="{_num(y)}"', f'font-size="{size}"', f'fill="{fill}"']
    if weight != 400:
        attrs.append(f'font-weight="{weight}"')
    if anchor != "start":
        attrs.append(f'text-anchor="{anchor}"')
    if italic:
        attrs.append('font-style="italic"')
    if cls:
        attrs.append(f'class="{cls}"')
    return f"<text {' '.join(attrs)}>{escape(text)}</text>"


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text_width(text: str, size: int, weight: int = 400) -> float:
    """A generous estimate of the rendered width of a sans-serif text (no font metrics without a font)."""
    narrow = sum(ch in "il.,:;'|!ftjI1 " for ch in text)
    wide = sum(ch in "MWmw@" for ch in text)
    bold = 1.08 if weight >= 600 else 1.0
    return bold * size * (0.6 * (len(text) - narrow - wide) + 0.32 * narrow + 0.9 * wide)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---------------------------------------------------------------- a proposed step (Game.picture with `moves`)
#
# A table knows the towers, the played nobles and the marker, not the hands, the market nor the decks: a step is
# drawn where the table shows what it changes (a new tower after its builder's towers, added cards on top of their
# tower, roofs on the towers completed, the tower a Conspiracy targets, a noble or Close in its player's row of
# badges); a step that changes nothing the table shows (a Purchase, an Exchange, a draw, a Pass, a Guard, a Trade's
# take or give…) is said in words in that row, the band of the player whose step it is highlighted. A step of
# nobody's (the game over) is said below the players, the whole board highlighted.

ROOM_H = 18  # with a proposal: room above the tallest tower for the ✓/✗
VERDICT_GAP = 6  # between the players (or the strip) and the verdict
STRIP_H = 40  # below the players: the words of a step of nobody's
FADED = "0.55"
# the mark of a verdict: its class, colour, glyph (not colour alone) and outline (refused: dashed)
STEP_FILL, STEP_INK = "#dccdb1", "#3b3127"  # a step in words, in a player's row


class Layout(NamedTuple):
    """Where the picture put things: what a proposed step is placed by."""

    width: int
    head: int  # the title's height
    band: int  # a player's band: name row, towers, labels
    card_h: int
    towers_h: int

    def top(self, player: int) -> int:
        return self.head + player * self.band

    def ground(self, player: int) -> int:
        return self.top(player) + NAME_H + self.towers_h

    @property
    def board_h(self) -> int:  # the players' bands' foot
        return self.head + 2 * self.band


class Placed(NamedTuple):
    """Where a proposed step goes. `where`: build (a new tower), extend (cards on a tower), complete (roofs), target
    (a tower aimed at), row (a badge in the player's row: a noble, Giostra, Close), player (the step in words in the
    player's row, their band highlighted) or board (nobody's step: in words below the players)."""

    where: str
    player: int | None
    towers: tuple[int, ...] = ()  # the towers it concerns, by index in the player's towers
    tower: Tower | None = None  # a build's new tower; an extension's tower with the cards added
    readable: bool = True  # whether a build's cards make a tower (else it is labelled by its cards)
    words: Any = None  # the step in words (a badge's text)
    height: int = 0  # the stories of the tallest tower it draws (room for it)
    widest: int = 0  # the towers in the player's row with it (room for them)



def _actor(proposal: Any) -> int | None:
    """The seat whose step it is (the player to act where it was tried); None when nobody is (the game over)."""
    player = proposal.player
    return player if isinstance(player, int) and not isinstance(player, bool) and player in (0, 1) else None


def _at(index: Any, towers: tuple) -> bool:
    return isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(towers)


def _placed(table: Table, step: Any, actor: int | None) -> Placed:
    """Where the table shows what `step` (by `actor`) changes."""
    kind = step.type
    if actor is None:
        return Placed("board", None, words=_words(table, step))
    towers = table.towers[actor]
    if kind == "build" and step.cards:
        built, readable = _built(step)
        return Placed("build", actor, (len(towers),), built, readable=readable, height=built.height,
                      widest=len(towers) + 1)
    if kind == "extend" and step.cards and _at(step.tower, towers):
        old = towers[step.tower]
        grown = Tower(old.cards + step.cards, old.complete, old.kind, old.rank)
        return Placed("extend", actor, (step.tower,), grown, height=grown.height + old.complete)
    if kind == "complete" and any(_at(t, towers) for t in step.towers):
        return Placed("complete", actor, tuple(t for t in step.towers if _at(t, towers)))
    if kind == "target" and step.player in (0, 1) and _at(step.tower, table.towers[step.player]):
        return Placed("target", step.player, (step.tower,))
    if kind in ("noble", "giostra", "close"):
        return Placed("row", actor, words=_words(table, step))
    return Placed("player", actor, words=_words(table, step))


def _built(step: Any) -> tuple[Tower, bool]:
    """The tower a proposed build makes, and whether its cards make one: read as the step says (kind, rank), or as
    they can be read; a stack that is no tower, as plain when its ranks agree, else colorful from its first rank."""
    readings = interpretations(step.cards)
    reading = next((option for option in readings if step.kind in (None, option[0]) and step.rank in (None, option[1])),
                   readings[0] if readings else None)
    if reading is None:
        ranks = [card for card in step.cards if card <= 10]
        kind = step.kind or (PLAIN if len(set(ranks)) <= 1 else COLORFUL)
        return Tower(step.cards, False, kind, step.rank or (ranks[0] if ranks else 10)), False
    return Tower(step.cards, False, *reading), True


def _named(cards: tuple[int, ...]) -> Any:
    return said_cards([CARD_NAMES[card] for card in cards])


def _words(table: Table, step: Any) -> Any:
    """A step in words, as short as a badge: what it does at the table."""
    kind = step.type
    if kind == "purchase":
        # Translators: a proposed step in the picture, in a badge beside its player's name (the action's name)
        return tr_p("step", "Purchase")
    if kind == "exchange":
        # Translators: a proposed step in the picture: an Exchange putting these cards on the market ("Exchange 5
        # and 6")
        return tr("Exchange {cards}", cards=_named(step.cards))
    if kind == "draw":
        source = _source(step.source)
        if step.card is not None:
            # Translators: a proposed draw in the picture ("Draw 7 from the market"); {source} is "from the deck",
            # "from the market" or "from the noble deck"
            return tr("Draw {card} {source}", card=_named((step.card,)), source=source)
        # Translators: a proposed draw in the picture ("Draw from the deck")
        return tr("Draw {source}", source=source)
    if kind == "stop":
        # Translators: a proposed step in the picture: ending Via Francigena's draws (or taking a cancelled build's
        # cards back)
        return tr_p("step", "Stop drawing")
    if kind == "build":
        # Translators: a proposed build in the picture, by its cards bottom first
        return tr("Build {cards}", cards=_named(step.cards))
    if kind == "extend":
        # Translators: a proposed extension in the picture ("Extend the second tower with 7 and 7")
        return tr("Extend the {ordinal} tower with {cards}", ordinal=ordinal(step.tower), cards=_named(step.cards))
    if kind == "complete":
        # Translators: a proposed step in the picture ("Complete the first and third towers")
        return tr_n("Complete the {ordinals} tower", "Complete the {ordinals} towers", len(step.towers),
                    ordinals=Listed(ordinal(t) for t in step.towers))
    if kind == "close":
        return CLOSED
    if kind == "pass":
        # Translators: a proposed step in the picture, in a badge beside its player's name
        return tr_p("step", "Pass")
    if kind == "guard":
        # Translators: a proposed step in the picture: a 5 played against a Trade or a Conspiracy (T-DON-5)
        return tr("Guard with a 5")
    if kind == "decline":
        # Translators: a proposed step in the picture: letting the Trade, Conspiracy or noble happen
        return tr_p("step", "Decline")
    if kind == "target":
        player = table.names[step.player] if step.player in (0, 1) else str(step.player)
        # Translators: a proposed Conspiracy target in the picture ("Target William's second tower")
        return tr("Target {player}'s {ordinal} tower", player=player, ordinal=ordinal(step.tower))
    if kind == "take":
        if step.positions is None:
            # Translators: a proposed Trade's take in the picture, by the cards taken ("Take 7 and 9")
            return tr("Take {cards}", cards=_named(step.cards))
        # Translators: a proposed Trade's take in the picture: cards taken at random from the opponent's hand
        return tr_n("Take {count} card", "Take {count} cards", len(step.positions))
    if kind == "give":
        # Translators: a proposed step in the picture: the cards a Trade gives back ("Give back 5 and 8")
        return tr("Give back {cards}", cards=_named(step.cards))
    if kind == "refill":
        # Translators: a proposed step in the picture: the cards turned up onto the market
        return tr("Refill the market with {cards}", cards=_named(step.cards))
    if kind in ("noble", "giostra"):
        card = GIOSTRA if kind == "giostra" else step.card
        return "+ " + NOBLE_LABELS.get(card, CARD_NAMES.get(card, str(card)))
    return str(kind)


def _pill_room(table: Table, score: Score, placed: Placed, language: str) -> float:
    """The width a proposed step's badge needs: margins, its player's badges before it, its ✓/✗ after it."""
    if placed.where not in ("row", "player", "board"):
        return 0
    before = 0 if placed.player is None else _badges_width(table, score, placed.player, language)
    return 2 * MARGIN + before + _text_width(said(placed.words, language), 11, 600) + 18 + 24


def _glyph(mark: Mark, x: float, y: float, anchor: str = "middle") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" font-size="16" font-weight="700" fill="{mark.colour}" '
            f'text-anchor="{anchor}" aria-hidden="true">{mark.glyph}</text>')


def _outline(mark: Mark, x: float, y: float, width: float, height: float, rx: float = 4) -> str:
    return (f'<rect class="mark" x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" '
            f'rx="{_num(rx)}" fill="none" stroke="{mark.colour}" stroke-width="2.5"{mark.dash}/>')


def _tint(mark: Mark, x: float, y: float, width: float, height: float, rx: float = 4) -> str:
    return (f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" rx="{_num(rx)}" '
            f'fill="{mark.colour}" fill-opacity="0.12"/>')


def _proposed(table: Table, score: Score, proposal: Any, placed: Placed, layout: Layout,
              language: str) -> tuple[str, str, int]:
    """The proposed step, faded where it was tried and marked, in one group `proposed legal|refused` titled with
    the verdict's first line; the verdict below the board; the picture's new height."""
    mark = mark_of(proposal)
    kind = mark.kind
    faded, marks, strip = _drawn(table, score, placed, layout, mark, language)
    lines = verdict(proposal, language)
    group = (f'<g class="proposed {kind}" data-step={quoteattr(str(proposal.step.type))}>'
             f'<title>{escape(lines[0] if lines else "")}</title>'
             f'<g opacity="{FADED}">{"".join(faded)}</g>{"".join(marks)}</g>')
    top = layout.board_h + strip + VERDICT_GAP
    band, band_h = verdict_band(proposal, language, MARGIN, top, layout.width - 2 * MARGIN)
    return group, band, int(top + band_h + 26)


def _drawn(table: Table, score: Score, placed: Placed, layout: Layout, mark: Mark,
           language: str) -> tuple[list[str], list[str], int]:
    """(what is faded, its marks, the height of the strip it needs below the players)."""
    where, player = placed.where, placed.player
    card_h = layout.card_h
    if where in ("build", "extend", "complete", "target"):
        assert player is not None
        ground = layout.ground(player)
        xs = [MARGIN + n * (CARD_W + GAP) for n in placed.towers]
    if where == "build":  # T-ACT-BUILD: the new tower after its builder's towers; ✓/✗ above its scaffolding
        x, tower = xs[0], placed.tower
        assert tower is not None
        summit = ground - tower.height * card_h
        drawn = _tower(tower, placed.towers[0], x, ground, card_h, language, role="new-tower", face=_card_face,
                       readable=placed.readable)
        return [drawn], [_outline(mark, x - 5, summit - 14, CARD_W + 10, ground - summit + 14 + LABEL_H - 2),
                         _glyph(mark, x + CARD_W / 2, summit - 19)], 0
    if where == "extend":  # T-ACT-EXTEND: the cards on top of their tower (above its roof, if it has one)
        x, tower = xs[0], placed.tower
        assert tower is not None
        old = table.towers[player][placed.towers[0]]
        lift = ROOF_H if old.complete else 0
        faded = [part for story in range(old.height, tower.height)
                 for part in _story(tower, story, tower.cards[story], x, ground - (story + 1) * card_h - lift, card_h,
                                    _card_face)]
        top = ground - tower.height * card_h - lift
        return faded, [_outline(mark, x - 3, top - 1, CARD_W + 6, (tower.height - old.height) * card_h + 2),
                       _glyph(mark, x + CARD_W / 2, top - 7)], 0
    if where == "complete":  # T-ACT-COMPLETE: a roof on each tower named
        faded, marks = [], []
        for n, x in zip(placed.towers, xs):
            summit = ground - table.towers[player][n].height * card_h
            faded.extend(_roof(x, summit))
            marks.append(_outline(mark, x - 5, summit - ROOF_H, CARD_W + 10, ground - summit + ROOF_H + 3))
            marks.append(_glyph(mark, x + CARD_W / 2, summit - ROOF_H - 5))
        return faded, marks, 0
    if where == "target":  # T-DON-10: the tower a Conspiracy would destroy, crossed by a sight
        x, tower = xs[0], table.towers[player][placed.towers[0]]
        top = ground - tower.height * card_h - (ROOF_H if tower.complete else 12)
        cx, cy = x + CARD_W / 2, (top + ground) / 2
        sight = (f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="13" fill="none" stroke="{mark.colour}" '
                 f'stroke-width="2.5"/><path d="M{_num(cx - 19)} {_num(cy)} h38 M{_num(cx)} {_num(cy - 19)} v38" '
                 f'stroke="{mark.colour}" stroke-width="2"/>')
        return [_tint(mark, x - 4, top - 2, CARD_W + 8, ground - top + 4), sight], [
            _outline(mark, x - 4, top - 2, CARD_W + 8, ground - top + 4), _glyph(mark, cx, top - 8)], 0
    text = said(placed.words, language)
    w = _text_width(text, 11, 600) + 18
    if where == "board":  # nobody's step (the game over): the whole board, the step in words below it
        x, y = MARGIN, layout.board_h + 10
        area = (MARGIN - 12, layout.head + 6, layout.width - 2 * MARGIN + 24, 2 * layout.band - 2)
        return [_tint(mark, *area, 10), _pill(x, y, text, STEP_FILL, STEP_INK, size=11)], [
            _outline(mark, *area, 10), _glyph(mark, x + w + 9, y + 16, "start")], STRIP_H
    assert player is not None
    top = layout.top(player)
    x, y = round(MARGIN + _badges_width(table, score, player, language), 1), top + 40
    glyph = _glyph(mark, x + w + 9, y + 16, "start")
    if where == "row":  # a noble or Giostra where it lies in the played row; Close beside the name
        fill, ink = ("#e3dccf", "#4a3d2e") if placed.words is CLOSED else ("#efe1bf", "#5b4720")
        return [_pill(x, y, text, fill, ink, size=11)], [_outline(mark, x - 3, y - 3, w + 6, 27, 13.5), glyph], 0
    # a step the table does not show: in words beside the name, the player's band highlighted
    area = (MARGIN - 12, top + 8, layout.width - 2 * MARGIN + 24, layout.band - 6)
    return [_tint(mark, *area, 10), _pill(x, y, text, STEP_FILL, STEP_INK, size=11)], [
        _outline(mark, *area, 10), glyph], 0
