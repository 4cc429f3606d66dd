"""A picture of a Torri table as SVG: each player's towers as stacks of cards, complete towers roofed, the
Highest marker beside its holder, names, played nobles and totals.

Pure: text in, text out; no fonts or images from anywhere (the system's sans-serif), so it renders offline
and can be embedded in a page, a report or a file.

    >>> from service.games.torri import notation, picture
    >>> table, _ = notation.read("Adso @: 10x3* 10-6\\nWilliam: 7x3*")
    >>> picture.svg(table).startswith("<svg")
    True
"""
from __future__ import annotations

from ..core.language import DEFAULT, said
from ..core.svg import escape, quoteattr
from .cards import BUONA_PIETRA, CAPPELLA, GIOSTRA, MONUMENTO, MURA, PALAZZO, VIA_FRANCIGENA
from .messages import tr, tr_n, tr_p
from .model import PLAIN, State, Table, Tower
from .position import table_of
from .scoring import Score, score_table

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
# Translators: a label beside the name of the player who called Close, in the picture
CLOSED = tr_p("picture", "Closed")
# Translators: in the picture, where a player has no tower
NO_TOWERS = tr("no towers")
# Translators: under a tower in the picture: its kind
PLAIN_LABEL = tr_p("picture", "plain")
COLORFUL_LABEL = tr_p("picture", "colorful")


def svg(table: Table | State, score: Score | None = None, *, title: str | None = None,
        language: str = DEFAULT) -> str:
    """The table as an SVG document (a string), its words in `language`. `score` defaults to the table's score."""
    if isinstance(table, State):
        table = table_of(table)
    score = score or score_table(table)
    tallest = max((t.height for towers in table.towers for t in towers), default=3)
    card_h = 22 if tallest <= 8 else 18 if tallest <= 11 else 15
    towers_h = max(tallest, 3) * card_h + ROOF_H + 6
    band = NAME_H + towers_h + LABEL_H
    widest = max(len(towers) for towers in table.towers)
    width = max(MIN_WIDTH, 2 * MARGIN + widest * (CARD_W + GAP) - GAP,
                *(2 * MARGIN + _badges_width(table, score, i, language) for i in range(2)))
    width = int(width + 0.5)
    head = 44 if title is None or title else 0
    height = head + 2 * band + 30
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
    """Who won, and how (the picture's title)."""
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
    winner = score.winner == i
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
    if winner:
        won = said(WINNER, language)
        out.append(_pill(x, y + 8, won, "#2f6b3a", "#ffffff", size=11))
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


def _badges_width(table: Table, score: Score, i: int, language: str) -> float:
    width = _text_width(said(HIGHEST_MARKER, language), 11, 600) + 44 if table.highest == i else 0
    width += _text_width(said(WINNER, language), 11, 600) + 24 if score.winner == i else 0
    width += _text_width(said(CLOSED, language), 11, 600) + 24 if getattr(table, "closed_by", None) == i else 0
    return width + sum(_text_width("+ " + NOBLE_LABELS.get(card, str(card)), 11, 600) + 24
                       for card in table.played[i])


def _tower(tower: Tower, index: int, x: int, ground: int, card_h: int, language: str) -> str:
    state = "complete" if tower.complete else "incomplete"
    label = _tower_label(tower)
    title = escape(said(_tower_title(tower), language))
    out = [f'<g class="tower {state}" data-tower="{index}"><title>{title}</title>']
    for story, card in enumerate(tower.cards):
        y = ground - (story + 1) * card_h
        if card == BUONA_PIETRA:
            stands = tower.rank if tower.kind == PLAIN else tower.rank - story
            out.append(f'<rect x="{x}" y="{y + 1}" width="{CARD_W}" height="{card_h - 2}" rx="3" fill="{BP_FILL}" '
                       f'stroke="#8a6a1c" stroke-width="1.2" stroke-dasharray="3 2"/>')
            out.append(_text(x + CARD_W / 2, y + card_h / 2 + 4, f"BP·{stands}", size=11, weight=700,
                             fill="#3d2e08", anchor="middle"))
        else:
            fill = RANK_FILL.get(card, "#777777")
            out.append(f'<rect x="{x}" y="{y + 1}" width="{CARD_W}" height="{card_h - 2}" rx="3" fill="{fill}"/>')
            out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CARD_W - 6}" height="2" rx="1" fill="#ffffff" '
                       f'opacity="0.18"/>')
            out.append(_text(x + CARD_W / 2, y + card_h / 2 + 4.5, str(card), size=13, weight=700, fill="#ffffff",
                             anchor="middle"))
    summit = ground - tower.height * card_h
    if tower.complete:  # a roof, and a check on it
        cx = x + CARD_W / 2
        out.append(f'<path d="M{x - 3} {summit} L{cx} {summit - ROOF_H + 2} L{x + CARD_W + 3} {summit} Z" '
                   f'fill="#7a2f22"/>')
        out.append(f'<path d="M{cx - 5} {summit - 8} l4 4 l7 -8" fill="none" stroke="#ffffff" stroke-width="2" '
                   f'stroke-linecap="round" stroke-linejoin="round"/>')
    else:  # open at the top: scaffolding
        out.append(f'<path d="M{x + 4} {summit - 2} v-8 M{x + CARD_W - 4} {summit - 2} v-8 M{x + 2} {summit - 8} '
                   f'h{CARD_W - 4}" stroke="#a4916f" stroke-width="1.5" stroke-dasharray="2 2" fill="none"/>')
    out.append(_text(x + CARD_W / 2, ground + 18, label, size=12, weight=600, fill="#4a3d2e", anchor="middle"))
    kind = said(PLAIN_LABEL if tower.kind == PLAIN else COLORFUL_LABEL, language)
    out.append(_text(x + CARD_W / 2, ground + 30, kind, size=9, fill="#8c7c66", anchor="middle"))
    out.append("</g>")
    return "\n".join(out)


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
