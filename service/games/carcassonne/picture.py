"""The board drawn as SVG from the tile table: fields green, cities brown with their pennants, roads white,
cloisters, tower foundations, meeples in the players' colours on their features (farmers lying down), towers
with their height and any meeple on top, and each player's score, supply and prisoners; along the board's edges
the squares' coordinates as the wire numbers them (`_coordinates`). The `aria-label` says the score (K-SVC-SCORE).
With a proposed step (`/picture` with `moves`), that step drawn faded where it was tried, marked legal (a green
outline and ✓) or refused (a red dashed outline and ✗), and the verdict in words below the players
(`_proposed`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..core.language import DEFAULT, Listed, said
from ..core.svg import Mark, escape, mark_of, verdict, verdict_band
from .messages import tr, tr_n, tr_p
from .model import Square, State
from .scoring import index_of, score_state
from .tiles import TOWER, Face, Kind, face

T = 64  # a tile's side in the picture
MARGIN = 16
RULER = 20  # the strip along each of the board's edges, between the margin and the board: the squares' coordinates
BACKGROUND = "#f5f1e6"
RULER_GREY = "#616161"  # the coordinates' grey: 5.5:1 on the BACKGROUND (WCAG AA asks 4.5:1 of small text)
RULER_FONT = 10  # their font size: "-1000", the farthest a square can be (steps.COORDINATE), fits the ruler
RULER_GAP = 5  # between a coordinate and the board's edge
LEGEND_ROW = 26
COLOURS = ("#d32f2f", "#1e63c7", "#f9a825", "#212121", "#8e24aa")
# Translators: the players' colours in the picture, in "Ada (red): 12 points".
COLOUR_NAMES = (tr_p("colour", "red"), tr_p("colour", "blue"), tr_p("colour", "yellow"), tr_p("colour", "black"),
                tr_p("colour", "purple"))
FIELD, CITY, ROAD, WALL = "#8bc34a", "#a1887f", "#fafafa", "#5d4037"
CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))  # NW, NE, SE, SW: edge d runs from corner d to corner d+1
MIDDLES = ((0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5))
HALVES = ((0.28, 0.14), (0.72, 0.14), (0.86, 0.28), (0.86, 0.72), (0.72, 0.86), (0.28, 0.86), (0.14, 0.72),
          (0.14, 0.28))


def _pt(x0: float, y0: float, fx: float, fy: float) -> str:
    return f"{x0 + fx * T:.1f},{y0 + fy * T:.1f}"


def _city_shape(edges: tuple[int, ...]) -> list[tuple[float, float]]:
    if len(edges) == 1:  # a cap along the edge
        d = edges[0]
        (ax, ay), (bx, by) = CORNERS[d], CORNERS[(d + 1) % 4]
        mx, my = MIDDLES[d]
        ix, iy = 0.5 + (mx - 0.5) * 0.45, 0.5 + (my - 0.5) * 0.45
        return [(ax, ay), (bx, by), (bx + (ix - mx) * 0.9, by + (iy - my) * 0.9), (ax + (ix - mx) * 0.9,
                                                                                 ay + (iy - my) * 0.9)]
    points: list[tuple[float, float]] = []
    for d in range(4):
        if d in edges:
            points += [CORNERS[d], CORNERS[(d + 1) % 4]]
        else:
            mx, my = MIDDLES[d]
            points.append((0.5 + (mx - 0.5) * 0.3, 0.5 + (my - 0.5) * 0.3))
    return points


def anchor(tile_face: Face, name: str) -> tuple[float, float]:
    """Where a meeple on feature `name` stands, as fractions of the tile."""
    seg = tile_face.by_name[name]
    if seg.kind is Kind.ROAD:
        mx, my = MIDDLES[seg.edges[0]]
        return 0.5 + (mx - 0.5) * 0.5, 0.5 + (my - 0.5) * 0.5
    if seg.kind is Kind.CITY:
        mx, my = MIDDLES[seg.edges[0]]
        return 0.5 + (mx - 0.5) * 0.7, 0.5 + (my - 0.5) * 0.7
    if seg.kind is Kind.FIELD and seg.halves:
        return HALVES[seg.halves[0]]
    return 0.5, 0.5


def _tile(out: list[str], tile_face: Face, x0: float, y0: float) -> None:
    out.append(f'<rect x="{x0}" y="{y0}" width="{T}" height="{T}" fill="{FIELD}" stroke="#558b2f"/>')
    for seg in tile_face.segments:
        if seg.kind is Kind.CITY:
            points = " ".join(_pt(x0, y0, fx, fy) for fx, fy in _city_shape(seg.edges))
            out.append(f'<polygon points="{points}" fill="{CITY}" stroke="{WALL}" stroke-width="1.5"/>')
            if seg.pennant:
                fx, fy = anchor(tile_face, seg.name)
                out.append(f'<path d="M{_pt(x0, y0, fx + 0.1, fy - 0.08)} h8 v6 l-4 4 l-4 -4 z" fill="#1565c0" '
                           'stroke="#fff" stroke-width="1"/>')
    for seg in tile_face.segments:
        if seg.kind is Kind.ROAD:
            ends = [_pt(x0, y0, *MIDDLES[d]) for d in seg.edges]
            path = f"M{ends[0]} L{_pt(x0, y0, 0.5, 0.5)}" + "".join(f" L{e}" for e in ends[1:])
            out.append(f'<path d="{path}" fill="none" stroke="#6d6d6d" stroke-width="8"/>')
            out.append(f'<path d="{path}" fill="none" stroke="{ROAD}" stroke-width="5"/>')
            if len(seg.edges) == 1:
                out.append(f'<circle cx="{x0 + T / 2}" cy="{y0 + T / 2}" r="4" fill="#6d6d6d"/>')
        elif seg.kind is Kind.CLOISTER:
            out.append(f'<rect x="{x0 + T * 0.36}" y="{y0 + T * 0.36}" width="{T * 0.28}" height="{T * 0.28}" '
                       'fill="#efebe9" stroke="#4e342e"/>')
            out.append(f'<path d="M{_pt(x0, y0, 0.33, 0.37)} L{_pt(x0, y0, 0.5, 0.24)} L{_pt(x0, y0, 0.67, 0.37)} '
                       'z" fill="#c62828"/>')
        elif seg.kind is Kind.TOWER:
            out.append(f'<circle cx="{x0 + T * 0.78}" cy="{y0 + T * 0.22}" r="7" fill="#bdbdbd" stroke="#616161" '
                       'stroke-dasharray="2 1"/>')


def tile_svg(tile: str, rotation: int = 0) -> str:
    """One tile alone, drawn as on the board (the referee page's palette and board use these)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{T}" height="{T}" viewBox="0 0 {T} {T}" role="img" '
           f'aria-label="{escape(tile)}">']
    _tile(out, face(tile, rotation), 0, 0)
    out.append("</svg>")
    return "".join(out)


def _clauses(items: list[str]) -> str:
    """Clauses one after the other, separated as the language separates clauses ("a; b; c")."""
    joined = items[0]
    for later in items[1:]:
        # Translators: clauses one after the other (the players' scores in the picture's description).
        joined = tr("{earlier}; {later}", earlier=joined, later=later)
    return joined


def _coordinates(columns: range, rows: range, origin: Callable[[Square], tuple[float, float]]) -> str:
    """The squares' coordinates along the board's edges, numbered as the wire and the verdicts number squares
    ([x, y]: x to the east, y to the south, K-TILE-1): each column's x above and below it, each row's y left and
    right of it, in the ruler between the margin and the board; small and grey, and hidden from screen readers (one
    group, aria-hidden: the picture's aria-label says the score, a verdict says its square's coordinates)."""
    left, top = origin((columns[0], rows[0]))
    right, foot = origin((columns[-1] + 1, rows[-1] + 1))  # the far edges: the corner of the square beyond
    group = (f'<g class="coordinates" aria-hidden="true" font-size="{RULER_FONT}" font-family="sans-serif" '
             f'fill="{RULER_GREY}">')
    out = [group]
    for x in columns:
        middle = origin((x, rows[0]))[0] + T / 2
        for baseline in (top - RULER_GAP, foot + RULER_GAP + 0.7 * RULER_FONT):  # a digit's height: 0.7 em
            out.append(f'<text x="{_n(middle)}" y="{_n(baseline)}" text-anchor="middle">{x}</text>')
    for y in rows:
        baseline = origin((columns[0], y))[1] + T / 2 + 0.35 * RULER_FONT  # the digits centred on the row
        out.append(f'<text x="{_n(left - RULER_GAP)}" y="{_n(baseline)}" text-anchor="end">{y}</text>')
        out.append(f'<text x="{_n(right + RULER_GAP)}" y="{_n(baseline)}" text-anchor="start">{y}</text>')
    out.append("</g>")
    return "".join(out)


def svg(state: State, language: str = DEFAULT, proposal: Any = None) -> str:
    """The picture of a state, its words in `language`. With a `proposal` (service.games.core.game.Proposal: a
    step tried on this state), the step is drawn faded where it was tried, marked legal or refused, and its verdict
    is said below the players (`_proposed`); the board grows to hold a square the step was tried on just beside
    it."""
    index = index_of(state)
    result = score_state(state)
    xs = [p.at[0] for p in state.board]
    ys = [p.at[1] for p in state.board]
    near = None if proposal is None else _near(_square_of(state, proposal.step), xs, ys)
    if near is not None:  # room for the square the step was tried on
        xs.append(near[0])
        ys.append(near[1])
    min_x, min_y = min(xs), min(ys)
    inset = MARGIN + RULER  # the board's leftmost column and topmost row start here: the margin, then the ruler
    width = max(2 * inset + (max(xs) - min_x + 1) * T, 420)
    board_height = 2 * inset + (max(ys) - min_y + 1) * T
    height = board_height + LEGEND_ROW * len(state.players) + MARGIN

    def origin(square) -> tuple[float, float]:  # x to the east (right), y to the south (down), as on the wire
        return inset + (square[0] - min_x) * T, inset + (square[1] - min_y) * T

    proposed = band = ""
    if proposal is not None:
        layout = Layout(width, board_height, len(state.players), origin, near)
        proposed, band, height = _proposed(state, proposal, layout, language)

    parts = [tr_n("{name} ({colour}): {count} point", "{name} ({colour}): {count} points",
                  result.players[i]["total"], name=p.name, colour=COLOUR_NAMES[i]) for i, p in enumerate(state.players)]
    totals = result.totals
    best = totals[result.winners[0]]
    if len(result.winners) == 1:
        name = state.players[result.winners[0]].name
        runner_up = max(t for i, t in enumerate(totals) if i != result.winners[0])
        verdict = (tr("{player} wins, {best} to {runner_up}.", player=name, best=best, runner_up=runner_up)
                   if state.over else
                   tr("{player} leads, {best} to {runner_up}.", player=name, best=best, runner_up=runner_up))
    else:
        # the English names joined by "and" each ("Ada and Bea and Cy", as the picture has always said them); the
        # other languages' lists their way
        named = [state.players[w].name for w in result.winners]
        names = " and ".join(named) if language == DEFAULT else Listed(named)
        verdict = (tr_n("{players} share the win with {count} point.", "{players} share the win with {count} points.",
                        best, players=names) if state.over else
                   tr_n("{players} are level with {count} point.", "{players} are level with {count} points.", best,
                        players=names))
    label = said(tr("{scores}. Game over. {verdict}", scores=_clauses(parts), verdict=verdict) if state.over else
                 tr("{scores}. {verdict}", scores=_clauses(parts), verdict=verdict), language)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">',
           f"<title>{escape(label)}</title>",
           f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
           _coordinates(range(min_x, max(xs) + 1), range(min_y, max(ys) + 1), origin)]
    for placement in state.board:
        tile_face = index.faces[index.grid[placement.at]]
        _tile(out, tile_face, *origin(placement.at))
    for meeple in state.meeples:
        x0, y0 = origin(meeple.at)
        tile_face = index.faces[index.grid[meeple.at]]
        fx, fy = anchor(tile_face, meeple.feature)
        colour = COLOURS[meeple.player]
        kind = tile_face.by_name[meeple.feature].kind
        if kind is Kind.FIELD:  # a farmer lies down
            out.append(f'<ellipse cx="{x0 + fx * T:.1f}" cy="{y0 + fy * T:.1f}" rx="9" ry="5" fill="{colour}" '
                       'stroke="#fff" stroke-width="1.5"/>')
        else:
            out.append(f'<circle cx="{x0 + fx * T:.1f}" cy="{y0 + fy * T:.1f}" r="7" fill="{colour}" '
                       'stroke="#fff" stroke-width="1.5"/>')
    for tower in state.towers:
        x0, y0 = origin(tower.at)
        cx, cy = x0 + T * 0.78, y0 + T * 0.22
        out.append(f'<rect x="{cx - 9:.1f}" y="{cy - 10:.1f}" width="18" height="20" fill="#757575" '
                   'stroke="#212121"/>')
        out.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="12" text-anchor="middle" fill="#fff" '
                   f'font-family="sans-serif">{tower.height}</text>')
        if tower.top is not None:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy - 14:.1f}" r="6" fill="{COLOURS[tower.top]}" stroke="#fff" '
                       'stroke-width="1.5"/>')
    # Translators: a prisoner's mark beside the player holding it (its tooltip).
    prisoner = escape(said(tr("prisoner"), language))
    for i, player in enumerate(state.players):
        y = board_height + i * LEGEND_ROW + 14
        total = result.players[i]["total"]
        mark = " ▶" if not state.over and state.turn == i else ""
        out.append(f'<circle cx="{MARGIN + 8}" cy="{y}" r="8" fill="{COLOURS[i]}"/>')
        # Translators: a player's line under the board: {name} (with ▶ for the player to act), the total with the
        # end scoring, the points on the score track ({score}) and the meeples in supply ({supply}).
        line = tr_n("{name}: {count} point ({score} on the track), {supply} in supply",
                    "{name}: {count} points ({score} on the track), {supply} in supply", total, name=player.name + mark,
                    score=player.score, supply=player.supply)
        if state.tower:
            # Translators: {line} is a player's line under the board; then the floors they have left.
            line = tr_n("{line}, {count} floor", "{line}, {count} floors", player.floors, line=line)
        text = said(line, language)
        out.append(f'<text x="{MARGIN + 24}" y="{y + 5}" font-size="13" font-family="sans-serif">'
                   f"{escape(text)}</text>")
        for k, owner in enumerate(player.prisoners):
            out.append(f'<circle cx="{width - MARGIN - 8 - 16 * k}" cy="{y}" r="6" fill="{COLOURS[owner]}" '
                       f'stroke="#000"><title>{prisoner}</title></circle>')
    out.append(proposed)
    out.append(band)
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- a proposed step (Game.picture with `moves`)
#
# Each step is drawn where it was tried: a tile on its square in its rotation, a meeple on its feature of the tile
# just placed, a floor as the tower it raises, a meeple on top of its tower, a capture as the meeple taken (with a
# line from the tower just raised), a skip on the line of the player whose step it is, a ransom on the payer's line
# and the prisoner it frees on the holder's, a discard as the tile set aside in a strip below the players. A square
# the board does not reach is drawn there (the board grows by up to REACH squares to hold it); one farther off is
# drawn in the strip below the players, named by its coordinates.

FADED = "0.55"
REACH = 2  # squares beyond the board's edges the picture grows by to draw a step where it was tried
# a verdict's mark: its class, colour, glyph (not colour alone) and outline (refused: dashed)
ASIDE = T + 16  # the strip below the players for a tile discarded or a square far off the board
NOBODY = "#9e9e9e"  # a meeple of no player of the game
TOWER_AT = (0.78, 0.22)  # a tower (and its foundation) on its tile, as fractions of the tile


class Layout(NamedTuple):
    """Where the picture put things: what a proposed step is placed by."""

    width: int
    board_height: int  # the players' lines start here
    players: int
    origin: Callable[[Square], tuple[float, float]]  # a square's top left corner
    near: Square | None  # the square the step was tried on, when the board is drawn as far as it



class Drawn(NamedTuple):
    """A proposed step as drawn: what is faded, its marks, the height of the strip it takes below the players."""

    faded: list[str]
    marks: list[str]
    aside: int = 0


def _n(value: float) -> str:
    """A coordinate as the picture writes it: to a tenth, a whole number without its decimals."""
    value = round(value, 1)
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def _square_of(state: State, step: Any) -> Square | None:
    """The square a step is tried on: its own, or for a meeple the tile just placed; None for a step of no square."""
    kind = getattr(step, "type", None)
    if kind in ("place", "floor", "tower_meeple", "capture"):
        return step.at
    return state.last if kind == "meeple" else None


def _near(square: Square | None, xs: list[int], ys: list[int]) -> Square | None:
    """The square, if the board's picture may grow to hold it (at most REACH squares beyond its edges)."""
    if square is None:
        return None
    x, y = square
    return square if min(xs) - REACH <= x <= max(xs) + REACH and min(ys) - REACH <= y <= max(ys) + REACH else None


def _actor(state: State, proposal: Any) -> int | None:
    """The seat whose step it is: the proposal's, else the player to act (None once the game is over)."""
    player = getattr(proposal, "player", None)
    if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(state.players):
        return player
    return None if state.over else state.turn


def _colour(player: int | None, players: int) -> str:
    return COLOURS[player] if player is not None and 0 <= player < min(players, len(COLOURS)) else NOBODY


def _glyph(mark: Mark, x: float, y: float) -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="18" font-weight="700" font-family="sans-serif" '
            f'fill="{mark.colour}" stroke="#fff" stroke-width="3" paint-order="stroke" text-anchor="middle" '
            f'aria-hidden="true">{mark.glyph}</text>')


def _outline(mark: Mark, x: float, y: float, width: float, height: float) -> str:
    """A rectangle's outline in the mark's colour (dashed when refused), on a white one that keeps it seen on
    any tile."""
    box = f'x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(height)}" fill="none"'
    return (f'<rect {box} stroke="#fff" stroke-width="5"/>'
            f'<rect {box} stroke="{mark.colour}" stroke-width="3"{mark.dash}/>')


def _ring(mark: Mark, cx: float, cy: float, r: float) -> str:
    circle = f'cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="none"'
    return (f'<circle {circle} stroke="#fff" stroke-width="5"/>'
            f'<circle {circle} stroke="{mark.colour}" stroke-width="2.5"{mark.dash}/>')


def _tint(mark: Mark, x: float, y: float, width: float, height: float) -> str:
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(height)}" fill="{mark.colour}" '
            'fill-opacity="0.2"/>')


def _meeple(kind: Kind | None, cx: float, cy: float, colour: str) -> str:
    """A meeple as the board draws them: a farmer lies down."""
    if kind is Kind.FIELD:
        return (f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="9" ry="5" fill="{colour}" stroke="#fff" '
                'stroke-width="1.5"/>')
    return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="7" fill="{colour}" stroke="#fff" stroke-width="1.5"/>'


def _a_tile(tile: str | None, rotation: int, x0: float, y0: float) -> list[str]:
    """A tile as the board draws it, or a blank square with a question mark when the step names none the picture
    knows (a counted bag, the tile left out)."""
    try:
        tile_face = face(tile, rotation) if tile is not None else None
    except KeyError:
        tile_face = None
    if tile_face is None:
        blank = f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{T}" height="{T}" fill="#e0e0e0" stroke="#757575"/>'
        asked = (f'<text x="{_n(x0 + T / 2)}" y="{_n(y0 + T / 2 + 10)}" font-size="28" text-anchor="middle" '
                 'fill="#616161" font-family="sans-serif">?</text>')
        return [blank, asked]
    out: list[str] = []
    _tile(out, tile_face, x0, y0)
    return out


def _drawn_tile(state: State, step: Any) -> str | None:
    """The tile a place or discard step is about: the one it names, else the bag's first (K-SVC-BAG)."""
    if step.tile is not None:
        return step.tile
    return state.bag.tiles[0] if state.bag.tiles else None


def _row_box(layout: Layout, first: int, count: int = 1) -> tuple[float, float, float, float]:
    """The players' lines `first` to `first + count - 1` under the board, as a box (x, y, width, height)."""
    return 2, layout.board_height + LEGEND_ROW * first + 1, layout.width - 4, LEGEND_ROW * count - 2


def _rows(mark: Mark, layout: Layout, player: int | None) -> Drawn:
    """The line of the player whose step it is (every player's when nobody is to act), tinted and outlined; its
    ✓/✗ left of the player's colour."""
    first, count = (0, layout.players) if player is None else (player, 1)
    box = _row_box(layout, first, count)
    return Drawn([_tint(mark, *box)], [_outline(mark, *box), _glyph(mark, 10, box[1] + 18)])


def _caption(text: str, x: float, y: float) -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="13" font-family="sans-serif" fill="#212121">'
            f'{escape(text)}</text>')


def _proposed(state: State, proposal: Any, layout: Layout, language: str) -> tuple[str, str, int]:
    """The proposed step, faded where it was tried and marked, in one group `proposed legal|refused` titled with
    the verdict's first line; the verdict below the players (and the strip a step drawn there takes); the
    picture's new height."""
    mark = mark_of(proposal)
    kind = mark.kind
    drawn = _step(state, proposal.step, _actor(state, proposal), layout, mark, language)
    lines = verdict(proposal, language)
    group = (f'<g class="proposed {kind}"><title>{escape(lines[0] if lines else "")}</title>'
             f'<g opacity="{FADED}">{"".join(drawn.faded)}</g>{"".join(drawn.marks)}</g>')
    top = layout.board_height + LEGEND_ROW * layout.players + drawn.aside
    band, band_height = verdict_band(proposal, language, MARGIN, top, layout.width - 2 * MARGIN)
    return group, band, int(top + band_height + MARGIN / 2)


def _step(state: State, step: Any, actor: int | None, layout: Layout, mark: Mark, language: str) -> Drawn:
    """A step drawn where it was tried."""
    kind = getattr(step, "type", None)
    square = _square_of(state, step)
    aside_top = layout.board_height + LEGEND_ROW * layout.players
    if square is not None:
        far = square != layout.near
        # a square the board does not reach: the strip below the players, named
        x0, y0 = (MARGIN, aside_top + 8) if far else layout.origin(square)
        drawn = _on_square(state, step, kind, actor, layout, mark, x0, y0, far)
        if not far:
            return drawn
        coordinates = f"[{square[0]}, {square[1]}]"  # as the wire and the verdict write a square
        # Translators: beside a square drawn below the players for a step tried on it far from the tiles placed;
        # {square} is its coordinates, [x, y].
        caption = said(tr("At {square}, far from the board", square=coordinates), language)
        return Drawn(drawn.faded, [*drawn.marks, _caption(caption, MARGIN + T + 14, y0 + T / 2 + 5)], ASIDE)
    if kind == "discard":  # K-PLACE-3: the tile set aside below the players; who discards it ringed
        x0, y0 = MARGIN, aside_top + 8
        tile = _drawn_tile(state, step)
        # Translators: beside the tile drawn below the players for a proposed discard (K-PLACE-3); {tile_id} is the
        # tile's id ("BA/Cccc+").
        caption = said(tr("Discard {tile_id}", tile_id=tile or "?"), language)
        marks = [_outline(mark, x0 + 1.5, y0 + 1.5, T - 3, T - 3), _glyph(mark, x0 + 10, y0 + 18),
                 _caption(caption, x0 + T + 14, y0 + T / 2 + 5)]
        if actor is not None:
            marks.append(_ring(mark, MARGIN + 8, layout.board_height + LEGEND_ROW * actor + 14, 11))
        return Drawn(_a_tile(tile, 0, x0, y0), marks, ASIDE)
    if kind == "ransom":
        return _ransom(state, step, actor, layout, mark)
    # a skip, a meeple with no tile just placed, or any step of no square: the line of the player whose step it is
    return _rows(mark, layout, actor)


def _on_square(state: State, step: Any, kind: str, actor: int | None, layout: Layout, mark: Mark, x0: float,
               y0: float, far: bool) -> Drawn:
    """A step on the square whose top left corner is (x0, y0)."""
    players = len(state.players)
    index = index_of(state)
    tx, ty = x0 + TOWER_AT[0] * T, y0 + TOWER_AT[1] * T  # where a tower stands on the square
    if kind == "place":  # K-PLACE: the tile in its rotation, outlined; its ✓/✗ in its top left corner
        faded = _a_tile(_drawn_tile(state, step), step.rotation or 0, x0, y0)
        return Drawn(faded, [_outline(mark, x0 + 1.5, y0 + 1.5, T - 3, T - 3), _glyph(mark, x0 + 10, y0 + 18)])
    if kind == "floor":  # K-TOW-ACT-1/2: the tower one floor higher (a floor on a foundation: height 1)
        tower = next((t for t in state.towers if t.at == step.at), None)
        height = (tower.height if tower is not None else 0) + 1
        body = f'<rect x="{_n(tx - 9)}" y="{_n(ty - 10)}" width="18" height="20" fill="#757575" stroke="#212121"/>'
        label = (f'<text x="{_n(tx)}" y="{_n(ty + 5)}" font-size="12" text-anchor="middle" fill="#fff" '
                 f'font-family="sans-serif">{height}</text>')
        faded = [body, label]
        return Drawn(faded, [_outline(mark, tx - 12, ty - 13, 24, 26), _glyph(mark, tx - 22, ty + 6)])
    if kind == "tower_meeple":  # K-TOW-ACT-3: the player's meeple on top of the tower
        top = (f'<circle cx="{_n(tx)}" cy="{_n(ty - 14)}" r="6" fill="{_colour(actor, players)}" stroke="#fff" '
               'stroke-width="1.5"/>')
        return Drawn([top], [_ring(mark, tx, ty - 14, 10), _glyph(mark, tx - 20, ty - 9)])
    at = step.at if kind == "capture" else state.last
    tile_face = index.faces[index.grid[at]] if not far and at in index.grid else None
    if kind == "meeple":  # K-MEEPLE: the player's meeple on its feature of the tile just placed
        cx, cy, shape = _feature_at(tile_face, step.feature, x0, y0)
        return Drawn([_meeple(shape, cx, cy, _colour(actor, players))],
                     [_ring(mark, cx, cy, 12), _glyph(mark, cx + 16, cy - 8)])
    # K-TOW-CAP-1: the meeple taken, in its owner's colour, a line to it from the tower just raised
    if step.feature == TOWER:
        cx, cy, shape = tx, ty - 14, None
        taken = (f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="6" fill="{_colour(step.player, players)}" stroke="#fff" '
                 'stroke-width="1.5"/>')
    else:
        cx, cy, shape = _feature_at(tile_face, step.feature, x0, y0)
        taken = _meeple(shape, cx, cy, _colour(step.player, players))
    faded = [taken]
    if state.raised is not None and not far:
        rx, ry = layout.origin(state.raised)
        faded.insert(0, f'<line x1="{_n(rx + TOWER_AT[0] * T)}" y1="{_n(ry + TOWER_AT[1] * T)}" x2="{_n(cx)}" '
                        f'y2="{_n(cy)}" stroke="#212121" stroke-width="2" stroke-linecap="round"/>')
    return Drawn(faded, [_ring(mark, cx, cy, 12), _glyph(mark, cx + 16, cy - 8)])


def _feature_at(tile_face: Face | None, name: str | None, x0: float, y0: float) -> tuple[float, float, Kind | None]:
    """Where a meeple on feature `name` of a tile stands (a tower foundation: where its tower stands; a name the
    tile has not, or no tile: the square's middle), and the feature's kind."""
    segment = tile_face.segment(name) if tile_face is not None and name is not None else None
    if segment is None:
        return x0 + T / 2, y0 + T / 2, None
    if segment.kind is Kind.TOWER:
        return x0 + TOWER_AT[0] * T, y0 + TOWER_AT[1] * T, Kind.TOWER
    fx, fy = anchor(tile_face, segment.name)
    return x0 + fx * T, y0 + fy * T, segment.kind


def _ransom(state: State, step: Any, actor: int | None, layout: Layout, mark: Mark) -> Drawn:
    """K-TOW-RANSOM: the payer's line and the holder's, tinted; the prisoner freed ringed where the holder's line
    shows it (the holder's line outlined when it shows none)."""
    drawn = _rows(mark, layout, actor)
    holder = step.player
    if actor is None or not isinstance(holder, int) or not 0 <= holder < layout.players or holder == actor:
        return drawn
    box = _row_box(layout, holder)
    held = state.players[holder].prisoners
    if actor in held:
        k = held.index(actor)
        marks = [_ring(mark, layout.width - MARGIN - 8 - 16 * k, box[1] + 13, 10)]
    else:
        marks = [_outline(mark, *box)]
    return Drawn([*drawn.faded, _tint(mark, *box)], [*drawn.marks, *marks])
