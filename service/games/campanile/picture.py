"""A picture of a Campanile table as SVG: the five towers in their row (A nearest the Finito piles), each as the
stack of its cards (a card is 1, 2 or 3 stories), the flag each tower would earn (C-END-2), the tokens under it in
betting order in the players' colours, who takes the large and small numbers, and every player's total. With a
proposed step (`/picture` with `moves`), that step drawn faded where it was tried, marked legal (✓) or refused (✗,
dashed), and the verdict in words below the players.

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
from typing import Any, NamedTuple

from ..core.language import DEFAULT, Message
from ..core.svg import Mark, escape, mark_of, quoteattr, verdict, verdict_band
from .cards import STYLE_INDEX
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


def svg(table: Table | State, score: Score | None = None, language: str = DEFAULT, proposal: Any = None) -> str:
    """The table (or a state's table) as an SVG document (a string), its words in `language`. `score` defaults to
    the table's score. With a `proposal` (service.games.core.game.Proposal: a step tried on the position this
    table is of), the step is drawn faded where it was tried, marked legal or refused, and its verdict is said
    below the board (`_proposed`)."""
    if isinstance(table, State):
        table = table_of(table)
    score = score or score_table(table)
    towers = score.towers
    step = proposal.step if proposal is not None else None
    played, bet_on = _played_on(table, step), _bet_under(table, step)
    tallest = max((t.height for t in towers), default=0)
    if played is not None:  # room for the card proposed on top of its tower
        tallest = max(tallest, table.towers[played[0]].height + played[1])
    story_h = max(STORY_MIN_H, min(16, 220 // max(tallest, 1)))
    stack_h = max(tallest, 6) * story_h
    most_tokens = max((len(t.tokens) for t in table.towers), default=0)
    if bet_on is not None:  # room for the token proposed under its tower
        most_tokens = max(most_tokens, len(table.towers[bet_on].tokens) + 1)
    tokens_h = 30 + max(most_tokens, 1) * (2 * TOKEN_R + 4)
    width = 2 * MARGIN + len(towers) * TOWER_W + (len(towers) - 1) * GAP
    ground = HEAD_H + FLAG_H + stack_h + 8
    height = board_h = ground + 26 + tokens_h + 34 + 20 * len(table.names)
    proposed = band = ""
    if proposal is not None:
        layout = Layout(width, ground, story_h, ground + 26, tokens_h, board_h - 20 * len(table.names) - 6, board_h)
        proposed, band, height = _proposed(table, proposal, layout, language)
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
        if played is not None and played[0] == result.position:  # the card proposed on it: under its flag
            out.append(proposed)
        out.extend(_flag(result, x, ground - result.height * story_h - 6))
        out.extend(_tokens(tower.tokens, result, x, ground + 26, table.names, language,
                           room=1 if result.position == bet_on else 0))
    legend_y = board_h - 20 * len(table.names) - 6
    for player, name in enumerate(table.names):
        y = legend_y + 20 * player
        out.append(f'<circle cx="{MARGIN + 7}" cy="{y - 4}" r="7" fill="{_fill(player)}" stroke="#3b2f22"/>')
        points = _points(name, score.players[player].total).said(language)
        out.append(f'<text x="{MARGIN + 20}" y="{y}" font-size="13" fill="#3b2f22">{escape(points)}</text>')
    if played is None:
        out.append(proposed)
    out.append(band)
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
    # (class and data-*: a page makes the tower a target, service/games/campanile/referee/board.js)
    out = [f'<g class="tower" data-tower="{result.position}" data-style="{escape(result.style)}">'
           f'<title>{escape(title.said(language))}</title>']
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
            language: str = DEFAULT, room: int = 0) -> list[str]:
    """The tokens under a tower and who takes its numbers; `room`: slots kept free below the tokens (a proposed
    token's)."""
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
        y = top + max(len(tokens) + room, 1) * (2 * TOKEN_R + 4) + 16
        out.append(f'<text x="{cx}" y="{y}" font-size="11" text-anchor="middle" fill="#3b2f22">'
                   f'{escape(", ".join(awards))}</text>')
    return out


# ---------------------------------------------------------------- a proposed step (Game.picture with `moves`)
#
# A table knows the towers and their tokens, not whose turn it is nor the piles: each step is drawn where the table
# shows what it changes (a play on its tower, a bet under its tower, no bet over the row of tokens, a pass on the
# players, a draw on the Finito piles, drawn for it below the players). Whose step it is comes from the verdict's own
# words when they name exactly one player of the table (`_actor`); a token of nobody known is white.

FADED = "0.55"
# the mark of a verdict: its class, colour, glyph (not colour alone) and outline (refused: dashed)
PILE_W, PILE_H, PILE_GAP = 24, 32, 8
FINITO_H = 50  # the strip below the players that shows the Finito piles, for a proposed draw


class Layout(NamedTuple):
    """Where the picture put things: what a proposed step is placed by."""

    width: int
    ground: int  # the towers' foot
    story_h: int
    tokens_top: int
    tokens_h: int
    legend_y: int  # the first player's line of the legend
    board_h: int  # the picture's height without the proposal



class Drawn(NamedTuple):
    """A proposed step as drawn: what is faded, its marks, the height of the strip it needs below the board."""

    faded: list[str]
    marks: list[str]
    strip: int = 0


def _tower_at(table: Table, position: Any) -> int | None:
    ok = isinstance(position, int) and not isinstance(position, bool) and 0 <= position < len(table.towers)
    return position if ok else None


def _played_on(table: Table, step: Any) -> tuple[int, int] | None:
    """A proposed play's tower (the one of the card's style, C-TURN-PLAY) and the stories it adds; None for any
    other step."""
    if step is None or step.type != "play" or step.stories not in (1, 2, 3):
        return None
    position = next((i for i, tower in enumerate(table.towers) if tower.style == step.card),
                    STYLE_INDEX.get(step.card))
    position = _tower_at(table, position)
    return None if position is None else (position, step.stories)


def _bet_under(table: Table, step: Any) -> int | None:
    """A proposed bet's tower; None for any other step."""
    return _tower_at(table, step.tower) if step is not None and step.type == "bet" else None


def _actor(table: Table, proposal: Any) -> int | None:
    """The seat whose step it is (the player to act where it was tried)."""
    player = proposal.player
    return player if isinstance(player, int) and 0 <= player < len(table.names) else None


def _glyph(mark: Mark, x: float, y: float, anchor: str = "middle") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="16" font-weight="700" fill="{mark.colour}" '
            f'text-anchor="{anchor}" aria-hidden="true">{mark.glyph}</text>')


def _outline(mark: Mark, x: float, y: float, width: float, height: float, rx: int = 4) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="{rx}" fill="none" '
            f'stroke="{mark.colour}" stroke-width="2.5"{mark.dash}/>')


def _ring(mark: Mark, cx: float, cy: float, r: float) -> str:
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="none" stroke="{mark.colour}" '
            f'stroke-width="2.5"{mark.dash}/>')


def _tint(mark: Mark, x: float, y: float, width: float, height: float, rx: int = 4) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="{rx}" fill="{mark.colour}" '
            'fill-opacity="0.15"/>')


def _player_ring(mark: Mark, layout: Layout, player: int | None) -> list[str]:
    """A ring round the legend's dot of the player whose step it is (when known)."""
    return [] if player is None else [_ring(mark, MARGIN + 7, layout.legend_y + 20 * player - 4, 10)]


def _proposed(table: Table, proposal: Any, layout: Layout, language: str) -> tuple[str, str, int]:
    """The proposed step, faded where it was tried and marked, in one group `proposed legal|refused` titled with
    the verdict's first line; the verdict below the board; the picture's new height."""
    mark = mark_of(proposal)
    kind = mark.kind
    drawn = _step(table, proposal.step, _actor(table, proposal), layout, mark, language)
    lines = verdict(proposal, language)
    group = (f'<g class="proposed {kind}"><title>{escape(lines[0] if lines else "")}</title>'
             f'<g opacity="{FADED}">{"".join(drawn.faded)}</g>{"".join(drawn.marks)}</g>')
    top = layout.board_h - 10 + drawn.strip
    band, band_h = verdict_band(proposal, language, MARGIN, top, layout.width - 2 * MARGIN)
    return group, band, int(top + band_h + 9)


def _step(table: Table, step: Any, actor: int | None, layout: Layout, mark: Mark, language: str) -> Drawn:
    """A step drawn where the table shows what it changes."""
    played, bet_on = _played_on(table, step), _bet_under(table, step)
    if played is not None:
        return _card_played(table, *played, layout, mark)
    if bet_on is not None:
        return _token_bet(table, bet_on, step.value, actor, layout, mark)
    if step.type == "draw":
        return _piles(layout, actor, mark, language)
    right = layout.width - MARGIN + 2  # the ✓/✗ of an area: at its right end
    if step.type == "no_bet":  # C-TURN-BET declined: the row of tokens, where no token goes; who declines
        area = (MARGIN - 6, layout.tokens_top - 4, layout.width - 2 * MARGIN + 12, layout.tokens_h + 8)
        marks = [_outline(mark, *area, 8), _glyph(mark, right, layout.tokens_top + 16, "end"),
                 *_player_ring(mark, layout, actor)]
        return Drawn([_tint(mark, *area, 8)], marks)
    if step.type == "pass":  # C-TURN-END: the player who passes (every player when the verdict names none)
        first, count = (0, len(table.names)) if actor is None else (actor, 1)
        area = (MARGIN - 6, layout.legend_y + 20 * first - 15, layout.width - 2 * MARGIN + 12, 20 * count)
        return Drawn([_tint(mark, *area)], [_outline(mark, *area), _glyph(mark, right, area[1] + 15, "end")])
    # a step of no kind the table shows (or a play or bet naming no tower): the row of towers
    area = (MARGIN - 8, HEAD_H, layout.width - 2 * MARGIN + 16, layout.ground + 18 - HEAD_H)
    return Drawn([_tint(mark, *area, 8)], [_outline(mark, *area, 8), _glyph(mark, right, HEAD_H + 18, "end")])


def _card_played(table: Table, position: int, stories: int, layout: Layout, mark: Mark) -> Drawn:
    """C-TURN-PLAY: the card on top of the tower of its style, as many stories tall; its ✓/✗ above its left."""
    x = MARGIN + position * (TOWER_W + GAP)
    h = stories * layout.story_h
    top = layout.ground - table.towers[position].height * layout.story_h - h
    fill = STYLE_FILL.get(table.towers[position].style, "#777777")
    card = (f'<rect x="{x + 10}" y="{top}" width="{TOWER_W - 20}" height="{h}" fill="{fill}" stroke="#f6f0e4" '
            'stroke-width="1.5"/>')
    return Drawn([card], [_outline(mark, x + 7, top - 3, TOWER_W - 14, h + 3, 3), _glyph(mark, x + 24, top - 6)])


def _token_bet(table: Table, position: int, value: Any, actor: int | None, layout: Layout, mark: Mark) -> Drawn:
    """C-TURN-BET: the token under its tower, after the tokens already there, in its owner's colour (white when
    the verdict names nobody); its ✓/✗ to its right."""
    cx = MARGIN + position * (TOWER_W + GAP) + TOWER_W / 2
    cy = layout.tokens_top + TOKEN_R + len(table.towers[position].tokens) * (2 * TOKEN_R + 4)
    fill = "#ffffff" if actor is None else _fill(actor)
    ink = "#3b2f22" if actor is None else PLAYER_INK[actor % len(PLAYER_INK)]
    token = (f'<circle cx="{cx:g}" cy="{cy}" r="{TOKEN_R}" fill="{fill}" stroke="#3b2f22"/>'
             f'<text x="{cx:g}" y="{cy + 4}" font-size="12" font-weight="700" text-anchor="middle" '
             f'fill="{ink}">{escape(str(value))}</text>')
    return Drawn([token], [_ring(mark, cx, cy, TOKEN_R + 3), _glyph(mark, cx + TOKEN_R + 12, cy + 5),
                           *_player_ring(mark, layout, actor)])


def _piles(layout: Layout, actor: int | None, mark: Mark, language: str) -> Drawn:
    """C-TURN-DRAW: the three Finito piles (which one is drawn from, the table cannot tell: the verdict says),
    face down and numbered, in a strip below the players; its ✓/✗ and their name to their right."""
    top = layout.board_h - 4
    faded = []
    for number in (1, 2, 3):
        x = MARGIN + (number - 1) * (PILE_W + PILE_GAP)
        faded.append(f'<rect x="{x}" y="{top + 4}" width="{PILE_W}" height="{PILE_H}" rx="3" fill="#6b5b4a" '
                     'stroke="#3b2f22"/>')
        faded.append(f'<text x="{x + PILE_W // 2}" y="{top + 24}" font-size="12" font-weight="700" fill="#ffffff" '
                     f'text-anchor="middle">{number}</text>')
    piles_w = 3 * PILE_W + 2 * PILE_GAP + 8
    # Translators: the caption beside the three Finito piles (numbered 1, 2, 3) drawn for a proposed draw.
    caption = tr("Finito piles").said(language)
    name = (f'<text x="{MARGIN + piles_w + 24}" y="{top + 25}" font-size="13" fill="#3b2f22">'
            f'{escape(caption)}</text>')
    return Drawn(faded, [_outline(mark, MARGIN - 4, top, piles_w, PILE_H + 8),
                         _glyph(mark, MARGIN + piles_w + 6, top + 25, "start"), name,
                         *_player_ring(mark, layout, actor)], FINITO_H)
