"""A picture of a Campanile table as SVG: the five towers in their row (A nearest the Finito piles), each as the
stack of its cards (a card is 1, 2 or 3 stories), the flag each tower would earn (C-END-2), the tokens under it in
betting order in the players' colours, who takes the large and small numbers, and every player's total.

Its words (titles, the legend, the screen readers' summary) are the game's messages, said in the language asked.

Pure: text in, text out; no fonts or images from anywhere (the system's sans-serif), so it renders offline and can
be embedded in a page, a report or a file.

    >>> from service.games import campanile
    >>> from service.games.campanile import picture
    >>> picture.svg(campanile.new_game(7)).startswith("<svg")
    True
"""
from __future__ import annotations

from functools import reduce

from ..core.language import DEFAULT, Message
from ..core.svg import escape, quoteattr
from .messages import tr, tr_n
from .model import State, Table
from .position import table_of
from .scoring import Score, TowerScore, score_table

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
# One stone tone per style, dark enough for white letters.
STYLE_FILL = {"A": "#8c6d4f", "B": "#5d7a8c", "C": "#7d6b99", "D": "#9a5b4b", "E": "#5f7d5a"}
PLAYER_FILL = ("#c0392b", "#2c6fbb", "#e0a526", "#2e8b57", "#6c3483")
PLAYER_INK = ("#ffffff", "#ffffff", "#222222", "#ffffff", "#ffffff")
TOWER_W, GAP, MARGIN = 84, 22, 24
STORY_MIN_H = 7
TOKEN_R = 11
HEAD_H = 58  # title line and totals
FLAG_H = 34


def svg(table: Table | State, score: Score | None = None, language: str = DEFAULT) -> str:
    """The table (or a state's table) as an SVG document (a string), its words in `language`. `score` defaults to
    the table's score."""
    if isinstance(table, State):
        table = table_of(table)
    score = score or score_table(table)
    towers = score.towers
    tallest = max((t.height for t in towers), default=0)
    story_h = max(STORY_MIN_H, min(16, 220 // max(tallest, 1)))
    stack_h = max(tallest, 6) * story_h
    most_tokens = max((len(t.tokens) for t in table.towers), default=0)
    tokens_h = 30 + max(most_tokens, 1) * (2 * TOKEN_R + 4)
    width = 2 * MARGIN + len(towers) * TOWER_W + (len(towers) - 1) * GAP
    ground = HEAD_H + FLAG_H + stack_h + 8
    height = ground + 26 + tokens_h + 34 + 20 * len(table.names)
    label = summary(table, score).said(language)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label={quoteattr(label)} font-family={quoteattr(FONT)}>',
        f"<title>{escape(label)}</title>",
        f'<rect width="{width}" height="{height}" rx="14" fill="#f6f0e4"/>',
        f'<text x="{MARGIN}" y="30" font-size="18" font-weight="700" fill="#3b2f22">Campanile</text>',
        f'<text x="{MARGIN}" y="50" font-size="13" fill="#5a4a38">{escape(_totals_line(score))}</text>',
        f'<line x1="{MARGIN - 8}" y1="{ground}" x2="{width - MARGIN + 8}" y2="{ground}" stroke="#7a6a55" '
        'stroke-width="2"/>',
    ]
    for tower, result in zip(table.towers, towers):
        x = MARGIN + result.position * (TOWER_W + GAP)
        out.extend(_tower(tower.plays, result, x, ground, story_h, language))
        out.extend(_flag(result, x, ground - result.height * story_h - 6))
        out.extend(_tokens(tower.tokens, result, x, ground + 26, table.names, language))
    legend_y = height - 20 * len(table.names) - 6
    for player, name in enumerate(table.names):
        y = legend_y + 20 * player
        out.append(f'<circle cx="{MARGIN + 7}" cy="{y - 4}" r="7" fill="{_fill(player)}" stroke="#3b2f22"/>')
        points = _points(name, score.players[player].total).said(language)
        out.append(f'<text x="{MARGIN + 20}" y="{y}" font-size="13" fill="#3b2f22">{escape(points)}</text>')
    out.append("</svg>")
    return "".join(out)


def _points(name: str, total: int) -> Message:
    return tr_n("{player}: {count} point", "{player}: {count} points", total, player=name)


def _all_of(names: list[str]) -> Message | str:
    """Players named together, as the picture has always named them in English: `Ada and Bea and Cy`."""
    # Translators: two players named together ("Ada and Bea"); three are named "Ada and Bea and Cy".
    return reduce(lambda first, second: tr("{first} and {second}", first=first, second=second), names)


def summary(table: Table, score: Score) -> Message:
    """One sentence per fact a screen reader needs: every total, then who wins (a message)."""
    # Translators: each player's points ("Ada: 12 points"), one after the other, separated by "; ".
    totals = reduce(lambda said, more: tr("{totals}; {more}", totals=said, more=more),
                    [_points(p.name, p.total) for p in score.players])
    if len(score.winners) == 1:
        # Translators: {totals}: every player's points ("Ada: 12 points; Bea: 8 points"); then who leads.
        return tr("{totals}. {player} leads.", totals=totals, player=table.names[score.winners[0]])
    # Translators: {totals}: every player's points ("Ada: 12 points; Bea: 8 points"); {players}: the players who
    # share the lead ("Ada and Bea").
    return tr("{totals}. {players} share the lead.", totals=totals,
              players=_all_of([table.names[w] for w in score.winners]))


def _totals_line(score: Score) -> str:
    return " · ".join(f"{p.name} {p.total}" for p in score.players)


def _fill(player: int) -> str:
    return PLAYER_FILL[player % len(PLAYER_FILL)]


def _tower(plays: tuple[int, ...], result: TowerScore, x: int, ground: int, story_h: int,
           language: str = DEFAULT) -> list[str]:
    fill = STYLE_FILL.get(result.style, "#777777")
    # Translators: {tower} is the tower's style letter A to E; {height}: "5 stories"; {card_count}: "3 cards";
    # {rank}: 1 for the tallest tower.
    title = tr("Tower {tower}: {height}, {card_count}, rank {rank}", tower=result.style,
               height=tr_n("{count} story", "{count} stories", result.height),
               card_count=tr_n("{count} card", "{count} cards", result.cards), rank=result.rank)
    out = [f'<g><title>{escape(title.said(language))}</title>']
    y = ground
    for card, stories in enumerate(plays):
        h = stories * story_h
        y -= h
        out.append(f'<rect x="{x + 10}" y="{y}" width="{TOWER_W - 20}" height="{h}" fill="{fill}" '
                   f'stroke="#f6f0e4" stroke-width="1.5"><title>{escape(_card(card + 1, stories).said(language))}'
                   '</title></rect>')
    out.append(f'<rect x="{x + 4}" y="{ground}" width="{TOWER_W - 8}" height="18" rx="3" fill="{fill}"/>')
    out.append(f'<text x="{x + TOWER_W / 2}" y="{ground + 13}" font-size="12" font-weight="700" fill="#ffffff" '
               f'text-anchor="middle">{escape(result.style)} · {result.height}</text>')
    out.append("</g>")
    return out


def _card(number: int, stories: int) -> Message:
    # Translators: the {number}th card of a tower (from the ground up) and the stories it added.
    return tr_n("Card {number}: {count} story", "Card {number}: {count} stories", stories, number=number)


def _flag(result: TowerScore, x: int, top: int) -> list[str]:
    if result.flag is None:
        return []
    large, small = result.flag
    pole_x = x + TOWER_W / 2
    return [f'<line x1="{pole_x}" y1="{top}" x2="{pole_x}" y2="{top - 26}" stroke="#3b2f22" stroke-width="1.5"/>',
            f'<path d="M{pole_x} {top - 26} l30 6 l-30 6 z" fill="#c8a23c" stroke="#3b2f22" stroke-width="1"/>',
            f'<text x="{pole_x + 34}" y="{top - 16}" font-size="12" fill="#3b2f22">{large}/{small}</text>']


def _tokens(tokens, result: TowerScore, x: int, top: int, names: tuple[str, ...],
            language: str = DEFAULT) -> list[str]:
    out = []
    cx = x + TOWER_W / 2
    for order, token in enumerate(tokens):
        cy = top + TOKEN_R + order * (2 * TOKEN_R + 4)
        # Translators: a token under a tower: its owner, its value (1, 2 or 3) and when it was bet ({number}: the
        # first, second… token placed under the tower).
        said = tr("{player}: {value} (bet {number})", player=names[token.player], value=token.value, number=order + 1)
        out.append(f'<g><title>{escape(said.said(language))}</title>'
                   f'<circle cx="{cx}" cy="{cy}" r="{TOKEN_R}" fill="{_fill(token.player)}" stroke="#3b2f22"/>'
                   f'<text x="{cx}" y="{cy + 4}" font-size="12" font-weight="700" text-anchor="middle" '
                   f'fill="{PLAYER_INK[token.player % len(PLAYER_INK)]}">{token.value}</text></g>')
    awards = [f"{names[a.player]} +{a.points}" for a in (result.large, result.small) if a is not None]
    if awards:
        y = top + max(len(tokens), 1) * (2 * TOKEN_R + 4) + 16
        out.append(f'<text x="{cx}" y="{y}" font-size="11" text-anchor="middle" fill="#3b2f22">'
                   f'{escape(", ".join(awards))}</text>')
    return out
