"""Scoring: a feature's worth (K-SCORE-*, K-END-2, K-END-3), who takes it (K-SCORE-MAJORITY), and the
breakdown of a whole state (K-END-4, K-SVC-SCORE)."""
from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from .board import BOARD_ORDER, BoardIndex, Group
from .model import Meeple, Square, State
from .tiles import Kind

CATEGORIES = {Kind.ROAD: "roads", Kind.CITY: "cities", Kind.CLOISTER: "cloisters", Kind.FIELD: "fields"}
# The kinds as module globals: `Kind.CITY` goes through the enum class at every use (several times a global's
# cost), and end scoring asks them for every feature.
_ROAD, _CITY, _FIELD, _CLOISTER = Kind.ROAD, Kind.CITY, Kind.FIELD, Kind.CLOISTER
_EDGED = (_ROAD, _CITY)  # the kinds complete when no edge is left open
# per kind, its category in the breakdown, the category's place there (roads first) and its type in a row (the
# kind's value, which the enum gives through a Python property)
_BREAKDOWN = {kind: (category, order, kind.value) for order, (kind, category) in enumerate(CATEGORIES.items())}
CITY_IN_FIELD = 3  # K-END-3


def index_of(state: State) -> BoardIndex:
    if state.index is None:
        state.with_index(BoardIndex.of(state.board))
    return state.index


def meeple_node(index: BoardIndex, meeple: Meeple) -> int:
    number = index.grid[meeple.at]
    return index.first[number] + index.faces[number].by_name[meeple.feature].index


def occupancy(index: BoardIndex, meeples: tuple[Meeple, ...]) -> dict[int, list[Meeple]]:
    """Feature root -> the meeples on it (farmers included)."""
    out: dict[int, list[Meeple]] = {}
    grid, first, faces, parent = index.grid, index.first, index.faces, index.parent
    for meeple in meeples:  # as meeple_node, the look-ups kept out of the loop
        number = grid[meeple.at]
        root = first[number] + faces[number].by_name[meeple.feature].index
        while parent[root] != root:  # as index.find, without a call a meeple
            parent[root] = root = parent[parent[root]]
        out.setdefault(root, []).append(meeple)
    return out


def majority(meeples: list[Meeple], players: int) -> tuple[list[int], list[int]]:
    """(meeples per player, the players with the most: K-SCORE-MAJORITY)."""
    counts = [0] * players
    if len(meeples) == 1:  # the commonest: a lone meeple's player takes it, no counting needed
        winner = meeples[0].player
        counts[winner] = 1
        return counts, [winner]
    for meeple in meeples:
        counts[meeple.player] += 1
    most = max(counts)
    return counts, ([p for p, n in enumerate(counts) if n == most] if most else [])


def where(feature: Group) -> tuple[list[int], str]:
    """A handle on a feature: the first of its segments in board order (y, then x), by its canonical name."""
    square, segment = feature.handle
    return [square[0], square[1]], segment.name


def complete_cities(index: BoardIndex, feature: Group) -> int:
    """K-END-3: the complete cities a field touches, each once (K-SVC-FIELD). A city is complete with no open end
    (as BoardIndex.complete, which need not look up the kind: these are cities)."""
    return list(map(index.open.__getitem__, index.roots(feature.cities))).count(0)


def value(index: BoardIndex, feature: Group, complete: bool, cities: int | None = None,
          tiles: list[Square] | None = None) -> int:
    """What a feature is worth: complete (K-SCORE-ROAD/CITY/CLOISTER) or at the end (K-END-2, K-END-3); a field's
    complete cities are counted here unless given (`cities`), a cloister's tiles unless given (`tiles`)."""
    kind = feature.kind
    if kind is _ROAD:
        return len(feature.squares)
    if kind is _CITY:
        return (2 if complete else 1) * (len(feature.squares) + feature.pennants)
    if kind is _CLOISTER:
        return 9 if complete else len(index.tiles_of(feature) if tiles is None else tiles)
    return CITY_IN_FIELD * (complete_cities(index, feature) if cities is None else cities)


def describe(index: BoardIndex, feature: Group, tiles: list[Square] | None = None) -> dict[str, Any]:
    """A feature as events and the breakdown tell it; `tiles`: index.tiles_of(feature), when already known."""
    at, name = where(feature)
    return {"type": feature.kind.value, "at": at, "feature": name,
            "tiles": [[x, y] for x, y in (index.tiles_of(feature) if tiles is None else tiles)],
            "pennants": feature.pennants}


def completed_by(index: BoardIndex, square) -> list[int]:
    """The roads, cities and cloisters complete with the tile at `square`, which it completed (K-SCORE)."""
    tile_face = index.faces[index.grid[square]]
    if not _completes_any(index, square, tile_face):
        return []  # most tiles complete nothing: found without the union-find, which then need not be built
    roots: list[int] = []
    for seg in tile_face.segments:
        if seg.kind in _EDGED:
            root = index.find(index.node(square, seg.index))
            if root not in roots and index.complete(root):
                roots.append(root)
    for around in [square, *index.neighbours_8(square)]:
        around_face = index.faces[index.grid[around]]
        if around_face.cloister:
            seg = around_face.by_name["cloister"]
            root = index.find(index.node(around, seg.index))
            if index.complete(root):
                roots.append(root)
    return roots


def _completes_any(index: BoardIndex, square, tile_face) -> bool:
    """Whether `completed_by` finds anything: a road or city of the tile complete (walked, as
    BoardIndex.complete_squares does), or a cloister on or around it with its 8 neighbours."""
    for seg in tile_face.segments:
        if seg.kind in _EDGED and index.complete_squares(square, seg) is not None:
            return True
    grid, faces = index.grid, index.faces
    return any(faces[grid[around]].cloister and len(index.neighbours_8(around)) == 8
               for around in [square, *index.neighbours_8(square)])


@dataclass(frozen=True, slots=True)
class Score:
    players: tuple[dict[str, Any], ...]
    features: tuple[dict[str, Any], ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        shared = len(self.winners) > 1
        return {"players": [dict(p) for p in self.players], "features": [dict(f) for f in self.features],
                "winners": list(self.winners), "winner": None if shared else self.winners[0],
                "decided_by": "shared" if shared else "points"}

    @property
    def totals(self) -> list[int]:
        return [p["total"] for p in self.players]


def score_state(state: State) -> Score:
    """K-SVC-SCORE: the points on the score track plus the end scoring (K-END-2, K-END-3) of every feature that
    holds a meeple; a feature complete but not yet scored (mid-turn) at its full value. Meeples on towers and
    prisoners are in no feature and score nothing (K-TOW-SCORE)."""
    index = index_of(state)
    n = len(state.players)
    by_category = [dict.fromkeys(CATEGORIES.values(), 0) for _ in range(n)]
    rows = []
    for root, meeples in occupancy(index, state.meeples).items():
        feature = index.feature(root)
        kind, covered, open_count, pennants, _, _, (square, segment) = feature
        if kind is _CLOISTER:
            tiles = sorted([square, *index.neighbours_8(square)], key=BOARD_ORDER)  # as index.tiles_of
            complete = len(tiles) == 9  # as index.complete(root): with its 8 neighbours
        else:
            tiles = sorted(covered, key=BOARD_ORDER) if len(covered) > 1 else [square]
            complete = kind is not _FIELD and open_count == 0
        cities = complete_cities(index, feature) if kind is _FIELD else None  # K-SVC-FIELD: said in the row
        points = value(index, feature, complete, cities, tiles)
        counts, winners = majority(meeples, n)
        category, order, type_name = _BREAKDOWN[kind]
        for player in winners:
            by_category[player][category] += points
        # describe()'s row, with what the breakdown adds (written out: a dict merged a feature costs more)
        entry = {"type": type_name, "at": [square[0], square[1]], "feature": segment.name,
                 "tiles": [[x, y] for x, y in tiles], "pennants": pennants, "complete": complete,
                 "cities": cities, "meeples": counts, "points": points, "winners": winners}
        # in the breakdown's order: by category, then by the handle (where: its square [x, y], then its name)
        rows.append(((order, square, segment.name), entry))
    rows.sort(key=_SORT_KEY)
    players = []
    for p, player in enumerate(state.players):
        total = player.score + sum(by_category[p].values())
        players.append({"name": player.name, "so_far": player.score, **by_category[p], "total": total})
    best = max(p["total"] for p in players)
    return Score(tuple(players), tuple(entry for _, entry in rows),
                 tuple(p for p, row in enumerate(players) if row["total"] == best))


_SORT_KEY = itemgetter(0)
