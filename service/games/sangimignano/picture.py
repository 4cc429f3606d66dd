"""A picture of a San Gimignano board as SVG: each hexagon cut into its three guild rhombi (S-GEO-2), tokens as
discs and towers as small keeps in the players' colours, each hexagon's coordinates as a small label and each space
named on hover, the players with their towers and tokens, and an aria-label saying who leads.

Pure: state in, text out; no fonts or images from anywhere, so it renders offline.

    >>> from service.games import sangimignano
    >>> from service.games.sangimignano import picture
    >>> picture.svg(sangimignano.new_game(1)).startswith("<svg")
    True
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.language import DEFAULT, Message
from ..core.svg import escape, quoteattr
from .messages import tr, tr_n, tr_p
from .model import State
from .scoring import Score, score_state

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
SIZE = 40.0  # a hexagon's corner radius
MARGIN = 24
LEGEND_W = 250
GUILD_FILL = {"A": "#d9b44a", "B": "#7fa36b", "C": "#b5654a", "D": "#5f86a8"}  # ochre, green, brick, slate
PLAYER_FILL = ("#c0392b", "#f4f1ea", "#2c3e50", "#8e44ad")  # red, white, black, violet: the box's colours
PLAYER_NAME = (tr_p("colour", "red"), tr_p("colour", "white"), tr_p("colour", "black"), tr_p("colour", "violet"))
ROOT3 = math.sqrt(3)


def _center(at: tuple[int, int]) -> tuple[float, float]:
    """Pointy-topped hexagons: side 0 faces east, sides counted counter-clockwise (S-GEO-1), y grows downwards."""
    q, r = at
    return SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r


def _corner(cx: float, cy: float, degrees: float, radius: float = SIZE) -> tuple[float, float]:
    angle = math.radians(degrees)
    return cx + radius * math.cos(angle), cy - radius * math.sin(angle)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _text(x: float, y: float, text: str, *, size: int, fill: str = "#2f261d", weight: int = 400,
          anchor: str = "start") -> str:
    extra = (f' font-weight="{weight}"' if weight != 400 else "") + (f' text-anchor="{anchor}"' if anchor != "start"
                                                                     else "")
    return f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" fill="{fill}"{extra}>' \
           f'{escape(text)}</text>'


def counted_towers(count: int) -> Message:
    return tr_n("{count} tower", "{count} towers", count)


def counted_tokens(count: int) -> Message:
    return tr_n("{count} token", "{count} tokens", count)


def counted_hexagons(count: int) -> Message:
    return tr_n("{count} hexagon", "{count} hexagons", count)


def on_the_board(towers: int, tokens: int) -> Message:
    """A player's pieces on the board: "2 towers, 5 tokens on the board"."""
    return tr("{tower_count}, {token_count} on the board", tower_count=counted_towers(towers),
              token_count=counted_tokens(tokens))


def _together(items: Sequence[Message | str], make) -> Message | str:
    """Items chained two by two by `make(items, item)` (a message of the items so far and the next)."""
    out = items[0]
    for item in items[1:]:
        out = make(out, item)
    return out


def verdict(state: State, score: Score) -> Message:
    """Who won, or leads: "Ada wins on towers", "Ada and Bea are level"."""
    names = [score.players[i].name for i in score.winners]
    if score.decided_by == "shared":
        # Translators: players' names, chained two by two: "Ada and Bea"; for three, "Ada and Bea" and "Cy".
        players = _together(names, lambda players, player: tr("{players} and {player}", players=players,
                                                               player=player))
        return (tr("{players} share the win", players=players) if state.over else
                tr("{players} are level", players=players))
    name = names[0]
    if score.decided_by == "towers":
        return (tr("{player} wins on towers", player=name) if state.over else
                tr("{player} leads on towers", player=name))
    return (tr("{player} wins on tokens", player=name) if state.over else
            tr("{player} leads on tokens", player=name))


def summary(state: State, score: Score, language: str = DEFAULT) -> str:
    """Who leads (or won), in words in `language`: the aria-label and title of the picture."""
    parts = [tr("{player} ({colour}): {pieces}", player=p.name, colour=PLAYER_NAME[i],
                pieces=on_the_board(p.towers, p.tokens)) for i, p in enumerate(score.players)]
    # Translators: the players' standings, one after another: "Ada (red): …; Bea (white): …".
    standings = _together(parts, lambda standings, standing: tr("{standings}; {standing}", standings=standings,
                                                                standing=standing))
    return tr("{standings}. {verdict}.", standings=standings, verdict=verdict(state, score)).said(language)


def svg(state: State, score: Score | None = None, language: str = DEFAULT) -> str:
    """The board as an SVG document (a string), its words in `language`."""
    score = score or score_state(state)
    centres = [_center(h.at) for h in state.board]
    xs = [x for x, _ in centres] or [0.0]
    ys = [y for _, y in centres] or [0.0]
    left, top = min(xs) - SIZE, min(ys) - SIZE
    board_w, board_h = max(xs) - min(xs) + 2 * SIZE, max(ys) - min(ys) + 2 * SIZE
    width = int(board_w + 3 * MARGIN + LEGEND_W + 0.5)
    height = int(max(board_h, 60 + 64 * len(state.players)) + 2 * MARGIN + 0.5)
    dx, dy = MARGIN - left, MARGIN - top
    label = summary(state, score, language)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label={quoteattr(label)} font-family={quoteattr(FONT)}>',
        f"<title>{escape(label)}</title>",
        f'<rect width="{width}" height="{height}" rx="14" fill="#f6f0e4"/>',
        f'<g class="board" transform="translate({_num(dx)} {_num(dy)})">',
    ]
    for h, placed in enumerate(state.board):
        out.append(_hexagon(state, h, centres[h], language))
    out.append("</g>")
    out.append(_legend(state, score, int(board_w + 2 * MARGIN), language))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _hexagon(state: State, h: int, centre: tuple[float, float], language: str) -> str:
    placed = state.board[h]
    cx, cy = centre
    q, r = placed.at
    out = [f'<g class="hexagon" data-at="{q},{r}">']
    for i, guild in enumerate(placed.guilds):
        first = placed.rotation + 2 * i  # S-GEO-2: space i covers sides first and first + 1
        rhombus = [(cx, cy), _corner(cx, cy, 60 * first - 30), _corner(cx, cy, 60 * first + 30),
                   _corner(cx, cy, 60 * first + 90)]
        space = 3 * h + i
        tokens, tower = state.tokens[space], state.towers[space]
        what = []
        if tower is not None:
            what.append(tr("tower of {player}", player=state.players[tower].name).said(language))
        what.extend(tr("token of {player}", player=state.players[p].name).said(language) for p in tokens)
        place = f"[{q}, {r}]"
        if what:
            # Translators: a guild space named by its guild's letter and its hexagon's place, then what lies on it:
            # "B at [1, 0]: tower of Ada", "B at [1, 0]: token of Bea, token of Cy".
            title = tr("{guild_letter} at {place}: {pieces}", guild_letter=guild, place=place, pieces=", ".join(what))
        else:
            # Translators: a guild space named by its guild's letter and its hexagon's place: "B at [1, 0]".
            title = tr("{guild_letter} at {place}", guild_letter=guild, place=place)
        out.append(f'<g class="space" data-guild="{guild}"><title>{escape(title.said(language))}</title>'
                   f'<polygon points="{_points(rhombus)}" fill="{GUILD_FILL[guild]}" stroke="#5c4b37" '
                   f'stroke-width="1.2"/>')
        mx, my = _corner(cx, cy, 60 * first + 30, SIZE * 0.5)  # the rhombus's middle
        out.append(_text(mx, my + 4, guild, size=10, fill="#3b2f22", weight=700, anchor="middle")
                   if tower is None and not tokens else "")
        if tower is not None:
            out.append(_tower(mx, my, tower))
        for k, player in enumerate(tokens):
            offset = 0 if len(tokens) == 1 else (-7 if k == 0 else 7)
            out.append(f'<circle class="token" data-player="{player}" cx="{_num(mx + offset)}" cy="{_num(my)}" '
                       f'r="6" fill="{PLAYER_FILL[player]}" stroke="#2f261d" stroke-width="1.2"/>')
        out.append("</g>")
    outline = [_corner(cx, cy, 60 * d - 30) for d in range(6)]
    out.append(f'<polygon points="{_points(outline)}" fill="none" stroke="#3b2f22" stroke-width="2"/>')
    out.append(_text(cx, cy + SIZE * 0.78, f"{q},{r}", size=8, fill="#3b2f22", anchor="middle"))
    out.append("</g>")
    return "".join(out)


def _tower(x: float, y: float, player: int) -> str:
    """A small keep with two merlons."""
    body = [(x - 6, y + 8), (x - 6, y - 6), (x - 3, y - 6), (x - 3, y - 9), (x - 1, y - 9), (x - 1, y - 6),
            (x + 1, y - 6), (x + 1, y - 9), (x + 3, y - 9), (x + 3, y - 6), (x + 6, y - 6), (x + 6, y + 8)]
    return (f'<polygon class="tower" data-player="{player}" points="{_points(body)}" fill="{PLAYER_FILL[player]}" '
            f'stroke="#2f261d" stroke-width="1.2"/>')


def _legend(state: State, score: Score, x: int, language: str) -> str:
    # Translators: the picture's title once the game is over; {game} is the game's name.
    title = tr("{game} (over)", game="San Gimignano").said(language) if state.over else "San Gimignano"
    out = [f'<g class="players" transform="translate({x} {MARGIN})">', _text(0, 16, title, size=15, weight=700)]
    for i, (player, result) in enumerate(zip(state.players, score.players)):
        y = 44 + 64 * i
        mark = " ◀" if not state.over and state.turn == i else ""
        crown = " ★" if i in score.winners else ""
        out.append(f'<g class="player" data-player="{i}">'
                   f'<circle cx="8" cy="{y - 5}" r="7" fill="{PLAYER_FILL[i]}" stroke="#2f261d"/>')
        out.append(_text(22, y, (player.name[:24] + crown + mark), size=14, weight=700))
        out.append(_text(22, y + 18, on_the_board(result.towers, result.tokens).said(language), size=11,
                         fill="#5c4b37"))
        # Translators: what a player still has: towers and tokens in supply, hexagons in hand.
        supply = tr("supply: {tower_count}, {token_count}, {hexagon_count}", tower_count=counted_towers(player.towers),
                    token_count=counted_tokens(player.tokens), hexagon_count=counted_hexagons(player.hand_size))
        out.append(_text(22, y + 33, supply.said(language), size=11, fill="#7d6d58"))
        out.append("</g>")
    out.append("</g>")
    return "".join(out)
