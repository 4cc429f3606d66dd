"""A picture of a Campanile table as SVG: the five towers in their row (A nearest the Finito piles), each as the
stack of its cards (a card is 1, 2 or 3 stories), the flag each tower would earn (C-END-2), the tokens under it in
betting order in the players' colours, who takes the large and small numbers, and every player's total.

Pure: text in, text out; no fonts or images from anywhere (the system's sans-serif), so it renders offline and can
be embedded in a page, a report or a file.

    >>> from service.games import campanile
    >>> from service.games.campanile import picture
    >>> picture.svg(campanile.new_game(7)).startswith("<svg")
    True
"""
from __future__ import annotations

from ..core.svg import escape, quoteattr
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


def svg(table: Table | State, score: Score | None = None) -> str:
    """The table (or a state's table) as an SVG document (a string). `score` defaults to the table's score."""
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
    label = summary(table, score)
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
        out.extend(_tower(tower.plays, result, x, ground, story_h))
        out.extend(_flag(result, x, ground - result.height * story_h - 6))
        out.extend(_tokens(tower.tokens, result, x, ground + 26, table.names))
    legend_y = height - 20 * len(table.names) - 6
    for player, name in enumerate(table.names):
        y = legend_y + 20 * player
        out.append(f'<circle cx="{MARGIN + 7}" cy="{y - 4}" r="7" fill="{_fill(player)}" stroke="#3b2f22"/>')
        out.append(f'<text x="{MARGIN + 20}" y="{y}" font-size="13" fill="#3b2f22">{escape(name)}: '
                   f'{score.players[player].total} points</text>')
    out.append("</svg>")
    return "".join(out)


def summary(table: Table, score: Score) -> str:
    """One sentence per fact a screen reader needs: every total, then who wins."""
    totals = "; ".join(f"{p.name}: {p.total} points" for p in score.players)
    if len(score.winners) == 1:
        return f"{totals}. {table.names[score.winners[0]]} leads."
    names = " and ".join(table.names[w] for w in score.winners)
    return f"{totals}. {names} share the lead."


def _totals_line(score: Score) -> str:
    return " · ".join(f"{p.name} {p.total}" for p in score.players)


def _fill(player: int) -> str:
    return PLAYER_FILL[player % len(PLAYER_FILL)]


def _tower(plays: tuple[int, ...], result: TowerScore, x: int, ground: int, story_h: int) -> list[str]:
    fill = STYLE_FILL.get(result.style, "#777777")
    out = [f'<g><title>Tower {escape(result.style)}: {result.height} stories, {result.cards} cards, '
           f'rank {result.rank}</title>']
    y = ground
    for card, stories in enumerate(plays):
        h = stories * story_h
        y -= h
        out.append(f'<rect x="{x + 10}" y="{y}" width="{TOWER_W - 20}" height="{h}" fill="{fill}" '
                   f'stroke="#f6f0e4" stroke-width="1.5"><title>Card {card + 1}: {stories} '
                   f'stor{"y" if stories == 1 else "ies"}</title></rect>')
    out.append(f'<rect x="{x + 4}" y="{ground}" width="{TOWER_W - 8}" height="18" rx="3" fill="{fill}"/>')
    out.append(f'<text x="{x + TOWER_W / 2}" y="{ground + 13}" font-size="12" font-weight="700" fill="#ffffff" '
               f'text-anchor="middle">{escape(result.style)} · {result.height}</text>')
    out.append("</g>")
    return out


def _flag(result: TowerScore, x: int, top: int) -> list[str]:
    if result.flag is None:
        return []
    large, small = result.flag
    pole_x = x + TOWER_W / 2
    return [f'<line x1="{pole_x}" y1="{top}" x2="{pole_x}" y2="{top - 26}" stroke="#3b2f22" stroke-width="1.5"/>',
            f'<path d="M{pole_x} {top - 26} l30 6 l-30 6 z" fill="#c8a23c" stroke="#3b2f22" stroke-width="1"/>',
            f'<text x="{pole_x + 34}" y="{top - 16}" font-size="12" fill="#3b2f22">{large}/{small}</text>']


def _tokens(tokens, result: TowerScore, x: int, top: int, names: tuple[str, ...]) -> list[str]:
    out = []
    cx = x + TOWER_W / 2
    for order, token in enumerate(tokens):
        cy = top + TOKEN_R + order * (2 * TOKEN_R + 4)
        out.append(f'<g><title>{escape(names[token.player])}: {token.value} (bet {order + 1})</title>'
                   f'<circle cx="{cx}" cy="{cy}" r="{TOKEN_R}" fill="{_fill(token.player)}" stroke="#3b2f22"/>'
                   f'<text x="{cx}" y="{cy + 4}" font-size="12" font-weight="700" text-anchor="middle" '
                   f'fill="{PLAYER_INK[token.player % len(PLAYER_INK)]}">{token.value}</text></g>')
    awards = [f"{names[a.player]} +{a.points}" for a in (result.large, result.small) if a is not None]
    if awards:
        y = top + max(len(tokens), 1) * (2 * TOKEN_R + 4) + 16
        out.append(f'<text x="{cx}" y="{y}" font-size="11" text-anchor="middle" fill="#3b2f22">'
                   f'{escape(", ".join(awards))}</text>')
    return out
