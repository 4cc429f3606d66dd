"""A picture of a San Gimignano board as SVG: each hexagon cut into its three guild rhombi (S-GEO-2), tokens as
discs and towers as small keeps in the players' colours, each hexagon's coordinates as a small label and each space
named on hover, the players with their towers and tokens, and an aria-label saying who leads. With a proposed step
(`/picture` with `moves`), that step drawn faded where it was tried, marked legal (✓) or refused (✗, dashed), and the
verdict in words below the board (`_proposed`).

Pure: state in, text out; no fonts or images from anywhere, so it renders offline.

    >>> from service.games import sangimignano
    >>> from service.games.sangimignano import picture
    >>> picture.svg(sangimignano.new_game(1)).startswith("<svg")
    True
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..core.language import DEFAULT, Message, said
from ..core.svg import Mark, escape, mark_of, quoteattr, verdict_band
from ..core.svg import verdict as verdict_lines
from .geometry import Coord, canonical_turn
from .messages import tr, tr_n, tr_p
from .model import HEX, State
from .scoring import Score, score_state
from .steps import Step

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


def svg(state: State, score: Score | None = None, language: str = DEFAULT, proposal: Any = None) -> str:
    """The board as an SVG document (a string), its words in `language`. With a `proposal`
    (service.games.core.game.Proposal: a step tried on `state`), the step drawn where it was tried and the verdict
    below the board, the picture grown to hold them; without one, the picture of the position alone."""
    score = score or score_state(state)
    centres = [_center(h.at) for h in state.board]
    placed = _placed(state, proposal) if proposal is not None else None
    shown = centres + [_center(placed.cell)] if placed is not None and placed.cell is not None else centres
    xs = [x for x, _ in shown] or [0.0]
    ys = [y for _, y in shown] or [0.0]
    left, top = min(xs) - SIZE, min(ys) - SIZE
    board_w, board_h = max(xs) - min(xs) + 2 * SIZE, max(ys) - min(ys) + 2 * SIZE
    width = int(board_w + 3 * MARGIN + LEGEND_W + 0.5)
    height = int(max(board_h, 60 + 64 * len(state.players)) + 2 * MARGIN + 0.5)
    dx, dy = MARGIN - left, MARGIN - top
    legend_x = int(board_w + 2 * MARGIN)
    proposed = band = ""
    if placed is not None:
        proposed, right = _proposed(state, proposal, placed, (dx, dy), legend_x, language)
        width = max(width, int(right + MARGIN + 0.5))
        band_top = height - MARGIN / 2
        band, band_h = verdict_band(proposal, language, MARGIN, band_top, width - 2 * MARGIN)
        height = int(band_top + band_h + MARGIN / 2 + 0.5)
    label = summary(state, score, language)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label={quoteattr(label)} font-family={quoteattr(FONT)}>',
        f"<title>{escape(label)}</title>",
        f'<rect width="{width}" height="{height}" rx="14" fill="#f6f0e4"/>',
        f'<g class="board" transform="translate({_num(dx)} {_num(dy)})">',
    ]
    for h in range(len(state.board)):
        out.append(_hexagon(state, h, centres[h], language))
    out.append("</g>")
    out.append(_legend(state, score, legend_x, language))
    if placed is not None:
        out.extend((proposed, band))
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


def _keep(x: float, y: float) -> list[tuple[float, float]]:
    """A small keep with two merlons, its foot's middle 8 below (x, y)."""
    return [(x - 6, y + 8), (x - 6, y - 6), (x - 3, y - 6), (x - 3, y - 9), (x - 1, y - 9), (x - 1, y - 6),
            (x + 1, y - 6), (x + 1, y - 9), (x + 3, y - 9), (x + 3, y - 6), (x + 6, y - 6), (x + 6, y + 8)]


def _tower(x: float, y: float, player: int) -> str:
    """A small keep with two merlons."""
    return (f'<polygon class="tower" data-player="{player}" points="{_points(_keep(x, y))}" '
            f'fill="{PLAYER_FILL[player]}" stroke="#2f261d" stroke-width="1.2"/>')


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


# ---------------------------------------------------------------- a proposed step (Game.picture with `moves`)
#
# A step is drawn where it was tried, in the colour of the player whose step it is: a token on its guild space (beside
# a token already there), a tower on its space, a hexagon laid on its place turned as the step says (over a hexagon
# already there, if one is). A token or tower on a hexagon without that guild goes in the hexagon's middle; on a place
# without a hexagon, in a ghost hexagon drawn there (dashed). A place too far from the board to draw, and an `end`
# step (no tower this turn; from an unknown hand, no hexagon fits), are said in words in a badge below the players,
# the row of the player whose step it is highlighted (all the rows when it is nobody's, the game being over).

FADED = "0.55"
NEAR = 3  # a place at most this many steps from a hexagon of the board is drawn where it is (the board grows)
NOBODY_FILL = "#a39a8c"  # the pieces of a step of nobody's (the game over)
BADGE_FILL, BADGE_INK = "#e8dcc4", "#3b2f22"
# the mark of a verdict: its class, colour, glyph (not colour alone) and outline (refused: dashed)
TOKEN_BESIDE = 11  # a proposed token's shift right of a token already on its space



class Placement(NamedTuple):
    """Where a proposed step goes. `where`: space (a token or tower on a guild space of a hexagon), hexagon (a token
    or tower on a hexagon without that guild: its middle), ghost (a token or tower on an empty place: a ghost
    hexagon there), laid (a hexagon laid on its place) or player (in words below the players, the player's row
    highlighted)."""

    where: str
    player: int | None  # whose step it is (None: nobody's, the game being over)
    cell: Coord | None = None  # the place drawn (an empty one grows the board)
    hexagon: int | None = None  # the board's hexagon there (space, hexagon)
    space: int | None = None  # space: the guild space's index on that hexagon (0 to 2)
    words: Message | str | None = None  # player: the step in words


def _actor(state: State, proposal: Any) -> int | None:
    """The seat whose step it is (the player to act where it was tried); None when nobody is (the game over)."""
    player = proposal.player
    ok = isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(state.players)
    return player if ok else None


def _distance(one: Coord, other: Coord) -> int:
    """Steps between two places of the hexagonal grid (axial coordinates, S-GEO-1)."""
    dq, dr = one[0] - other[0], one[1] - other[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _near(state: State, at: Coord) -> bool:
    """Whether the place `at` is drawn where it is: on the board or a few steps from it (from [0, 0] on an empty
    board)."""
    cells = [placed.at for placed in state.board] or [(0, 0)]
    return min(_distance(at, cell) for cell in cells) <= NEAR


def _place(at: Coord) -> str:
    return f"[{at[0]}, {at[1]}]"


def _words(state: State, step: Step) -> Message | str:
    """A step in words, for the badge of a step not drawn on the board."""
    if step.type == "token" and step.at is not None:
        # Translators: a proposed step in the picture: a token put on the space of guild {guild_letter} of the
        # hexagon at {place} ("Token on B at [1, 0]").
        return tr("Token on {guild_letter} at {place}", guild_letter=step.guild, place=_place(step.at))
    if step.type == "build" and step.at is not None:
        # Translators: a proposed step in the picture: a tower built on the space of guild {guild_letter} of the
        # hexagon at {place} ("Tower on B at [1, 0]").
        return tr("Tower on {guild_letter} at {place}", guild_letter=step.guild, place=_place(step.at))
    if step.type == "hex" and step.at is not None:
        # Translators: a proposed step in the picture: a hexagon (its guild letters counter-clockwise, "ACD") laid at
        # {place}, turned by {rotation} sixths of a turn (0 to 5), as the events say it ("rotation 4").
        return tr("Hexagon {hexagon} at {place}, rotation {rotation}", hexagon="".join(step.hex or ()),
                  place=_place(step.at), rotation=step.rotation)
    if step.type == "end":
        if not state.over and state.step == HEX:
            # Translators: a proposed "end" step in the hexagon phase, from a hand the caller does not know: the
            # player declares that none of their hexagons fits anywhere (S-SVC-UNKNOWN).
            return tr("None of their hexagons fits")
        # Translators: a proposed "end" step in the picture: the player builds no tower this turn (S-TURN-3).
        return tr("End the turn without a tower")
    return str(step.type)


def _placed(state: State, proposal: Any) -> Placement:
    """Where the picture shows the proposed step."""
    step, player = proposal.step, _actor(state, proposal)
    at = step.at if step.type in ("token", "build", "hex") else None
    if at is None or not _near(state, at):
        return Placement("player", player, words=_words(state, step))
    if step.type == "hex":
        return Placement("laid", player, at)
    h = next((i for i, placed in enumerate(state.board) if placed.at == at), None)
    if h is None:
        return Placement("ghost", player, at)
    guilds = state.board[h].guilds
    if step.guild in guilds:
        return Placement("space", player, at, h, guilds.index(step.guild))
    return Placement("hexagon", player, at, h)


def _glyph(mark: Mark, x: float, y: float) -> str:
    """The ✓ or ✗ in a white disc ringed in the verdict's colour."""
    return (f'<g class="glyph"><circle cx="{_num(x)}" cy="{_num(y)}" r="8" fill="#ffffff" stroke="{mark.colour}" '
            f'stroke-width="1.5"/><text x="{_num(x)}" y="{_num(y + 4.5)}" font-size="12" font-weight="700" '
            f'fill="{mark.colour}" text-anchor="middle" aria-hidden="true">{mark.glyph}</text></g>')


def _outline(mark: Mark, points: list[tuple[float, float]]) -> str:
    return (f'<polygon class="mark" points="{_points(points)}" fill="none" stroke="{mark.colour}" '
            f'stroke-width="3" stroke-linejoin="round"{mark.dash}/>')


def _box(mark: Mark, x: float, y: float, width: float, height: float) -> tuple[str, str]:
    """A highlighted area: (its tint, faded; its outline)."""
    frame = f'x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" rx="10"'
    return (f'<rect {frame} fill="{mark.colour}" fill-opacity="0.18"/>',
            f'<rect class="mark" {frame} fill="none" stroke="{mark.colour}" stroke-width="2.5"{mark.dash}/>')


def _piece(kind: str, x: float, y: float, player: int | None) -> str:
    """A proposed token (a disc) or tower (a keep) at (x, y), in the colour of the player whose step it is."""
    fill = PLAYER_FILL[player] if player is not None else NOBODY_FILL
    who = f' data-player="{player}"' if player is not None else ""
    if kind == "build":
        return (f'<polygon class="tower"{who} points="{_points(_keep(x, y))}" fill="{fill}" stroke="#2f261d" '
                f'stroke-width="1.2"/>')
    return (f'<circle class="token"{who} cx="{_num(x)}" cy="{_num(y)}" r="6" fill="{fill}" stroke="#2f261d" '
            f'stroke-width="1.2"/>')


def _outline_of(cx: float, cy: float) -> list[tuple[float, float]]:
    return [_corner(cx, cy, 60 * d - 30) for d in range(6)]


def _text_width(text: str, size: int) -> float:
    return len(text) * size * 0.6


def _proposed(state: State, proposal: Any, placed: Placement, offset: tuple[float, float], legend_x: int,
              language: str) -> tuple[str, float]:
    """The proposed step, faded where it was tried and marked, in one group `proposed legal|refused` titled with
    the verdict's first line; and how far right it reaches."""
    mark = mark_of(proposal, "5 3")
    kind = mark.kind
    faded, marks, right = _drawn(state, proposal.step, placed, offset, legend_x, mark, language)
    lines = verdict_lines(proposal, language)
    where = f' data-at="{placed.cell[0]},{placed.cell[1]}"' if placed.cell is not None else ""
    group = (f'<g class="proposed {kind}" data-step={quoteattr(str(proposal.step.type))} data-where="{placed.where}"'
             f'{where}><title>{escape(lines[0] if lines else "")}</title>'
             f'<g opacity="{FADED}">{"".join(faded)}</g>{"".join(marks)}</g>')
    return group, right


def _drawn(state: State, step: Step, placed: Placement, offset: tuple[float, float], legend_x: int, mark: Mark,
           language: str) -> tuple[list[str], list[str], float]:
    """(what is faded, its marks, how far right they reach)."""
    dx, dy = offset
    if placed.where == "player":
        return _in_words(state, placed, legend_x, mark, language)
    assert placed.cell is not None
    cx, cy = _center(placed.cell)
    cx, cy = cx + dx, cy + dy
    outline = _outline_of(cx, cy)
    right = max(x for x, _ in outline)
    if placed.where == "laid":  # S-TURN-2: the hexagon on its place, turned as the step says
        rotation, guilds = canonical_turn(step.rotation or 0, tuple(step.hex or ()))
        faded = ['<g class="hexagon">']
        for i, guild in enumerate(guilds):
            first = rotation + 2 * i  # S-GEO-2: space i covers sides first and first + 1
            rhombus = [(cx, cy), _corner(cx, cy, 60 * first - 30), _corner(cx, cy, 60 * first + 30),
                       _corner(cx, cy, 60 * first + 90)]
            mx, my = _corner(cx, cy, 60 * first + 30, SIZE * 0.5)
            faded.append(f'<polygon class="space" data-guild="{guild}" points="{_points(rhombus)}" '
                         f'fill="{GUILD_FILL.get(guild, "#cccccc")}" stroke="#5c4b37" stroke-width="1.2"/>')
            faded.append(_text(mx, my + 4, guild, size=10, fill="#3b2f22", weight=700, anchor="middle"))
        faded.append(f'<polygon points="{_points(outline)}" fill="none" stroke="#3b2f22" stroke-width="2"/></g>')
        return faded, [_outline(mark, outline), _glyph(mark, cx, cy)], right
    if placed.where == "space":  # S-TURN-1, S-TURN-3: the token or tower on its guild space
        assert placed.hexagon is not None and placed.space is not None
        hexagon = state.board[placed.hexagon]
        first = hexagon.rotation + 2 * placed.space
        rhombus = [(cx, cy), _corner(cx, cy, 60 * first - 30), _corner(cx, cy, 60 * first + 30),
                   _corner(cx, cy, 60 * first + 90)]
        x, y = _corner(cx, cy, 60 * first + 30, SIZE * 0.5)  # the rhombus's middle
        space = 3 * placed.hexagon + placed.space
        if step.type == "token" and len(state.tokens[space]) == 1 and state.towers[space] is None:
            x += TOKEN_BESIDE  # beside the token already there
        return [_piece(step.type, x, y, placed.player)], [_outline(mark, rhombus), _glyph(mark, x + 10, y - 11)], right
    # a hexagon without that guild, or no hexagon at all: the piece in the hexagon's middle
    faded = []
    if placed.where == "ghost":  # an empty place: a ghost hexagon there
        faded.append(f'<polygon class="ghost" points="{_points(outline)}" fill="#ffffff" fill-opacity="0.5" '
                     f'stroke="#5c4b37" stroke-width="1.5" stroke-dasharray="4 3"/>')
    faded.append(_piece(step.type, cx, cy, placed.player))
    return faded, [_outline(mark, outline), _glyph(mark, cx + 10, cy - 11)], right


def _in_words(state: State, placed: Placement, legend_x: int, mark: Mark,
              language: str) -> tuple[list[str], list[str], float]:
    """A step not drawn on the board: its words in a badge below the players, the row of the player whose step it
    is highlighted (every row when it is nobody's)."""
    rows = len(state.players)
    if placed.player is None:
        tint, frame = _box(mark, legend_x - 8, MARGIN + 24, LEGEND_W + 12, 64 * rows - 4)
    else:
        tint, frame = _box(mark, legend_x - 8, MARGIN + 24 + 64 * placed.player, LEGEND_W + 12, 60)
    text = said(placed.words or "", language)
    top = MARGIN + 24 + 64 * rows
    width = 30 + _text_width(text, 11)
    fill = PLAYER_FILL[placed.player] if placed.player is not None else NOBODY_FILL
    badge = (f'<g class="badge"><rect x="{_num(legend_x)}" y="{_num(top)}" width="{_num(width)}" height="22" '
             f'rx="11" fill="{BADGE_FILL}" stroke="#5c4b37" stroke-width="1"/>'
             f'<circle cx="{_num(legend_x + 12)}" cy="{_num(top + 11)}" r="5" fill="{fill}" stroke="#2f261d"/>'
             + _text(legend_x + 22, top + 15, text, size=11, fill=BADGE_INK, weight=600) + "</g>")
    return [tint, badge], [frame, _glyph(mark, legend_x + width + 12, top + 11)], legend_x + width + 22
