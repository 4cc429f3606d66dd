"""The board drawn as SVG from the tile table: fields green, cities brown with their pennants, roads white,
cloisters, tower foundations, meeples in the players' colours on their features (farmers lying down), towers
with their height and any meeple on top, and each player's score, supply and prisoners. The `aria-label` says
the score (K-SVC-SCORE)."""
from __future__ import annotations

from ..core.language import DEFAULT, Listed, said
from ..core.svg import escape
from .messages import tr, tr_n, tr_p
from .model import State
from .scoring import index_of, score_state
from .tiles import Face, Kind, face

T = 64  # a tile's side in the picture
MARGIN = 16
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


def svg(state: State, language: str = DEFAULT) -> str:
    """The picture of a state, its words in `language`."""
    index = index_of(state)
    result = score_state(state)
    xs = [p.at[0] for p in state.board]
    ys = [p.at[1] for p in state.board]
    min_x, min_y = min(xs), min(ys)
    width = max(2 * MARGIN + (max(xs) - min_x + 1) * T, 420)
    board_height = 2 * MARGIN + (max(ys) - min_y + 1) * T
    height = board_height + LEGEND_ROW * len(state.players) + MARGIN

    def origin(square) -> tuple[float, float]:
        return MARGIN + (square[0] - min_x) * T, MARGIN + (square[1] - min_y) * T

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
           f'<rect width="{width}" height="{height}" fill="#f5f1e6"/>']
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
    out.append("</svg>")
    return "".join(out)
