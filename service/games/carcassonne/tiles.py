"""Tiles: the tile table turned faces, one per tile and rotation, with everything the engine asks of a tile.

Geometry (K-TILE-1, K-TILE-2): edges are numbered clockwise N=0, E=1, S=2, W=3; field half-edges clockwise
NL=0, NR=1, EL=2, ER=3, SL=4, SR=5, WL=6, WR=7 (L and R looking outward through the edge). A rotation by 90
degrees clockwise moves edge e to e+1 and half h to h+2. Across a shared edge, half 2e (L) of one tile meets
half 2e'+1 (R) of the other, where e' is the opposite edge.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from .tiles_data import SETS, TILES

EDGE_NAMES = ("N", "E", "S", "W")
HALF_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
ROTATIONS = (0, 90, 180, 270)
DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W as (dx, dy); y grows to the south
INNER = "inner"
CLOISTER = "cloister"
TOWER = "tower"
BASE_SET = "basic:1"
TOWER_SET = "tower:1"
START_TILE = "BA/RCr"  # K-COMP-1, K-SETUP-1


class Kind(str, Enum):
    ROAD = "road"
    CITY = "city"
    FIELD = "field"
    CLOISTER = "cloister"
    TOWER = "tower"


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature of a placed tile, in board orientation (K-TILE-3, K-TILE-4)."""

    index: int
    kind: Kind
    edges: tuple[int, ...]  # roads and cities
    halves: tuple[int, ...]  # fields
    pennant: bool
    cities: tuple[int, ...]  # fields: indices of the city segments of this tile the field touches
    name: str  # the canonical name: its first edge or half clockwise from N, or inner / cloister / tower
    names: tuple[str, ...]  # every name it answers to


@dataclass(frozen=True, slots=True)
class Face:
    """A tile in one rotation."""

    tile: str
    rotation: int
    edges: tuple[Kind, ...]  # by edge N, E, S, W
    segments: tuple[Segment, ...]
    edge_segment: tuple[int, ...]  # by edge: the road or city segment there, or -1 for a field edge
    half_segment: tuple[int, ...]  # by half: the field segment there, or -1 (road or city edges)
    by_name: dict[str, Segment]
    cloister: bool
    tower: bool
    # What the board index needs when the tile is added, worked out once per face:
    seeds: tuple[tuple[int, Kind, int, int, tuple[int, ...]], ...]  # (segment, kind, edges, pennant, cities)
    links: tuple[tuple[int, int, int, int, int, tuple[tuple[int, int], ...]], ...]
    # by edge: (edge, dx, dy, opposite edge, road or city segment there or -1, (field segment, the other tile's
    # half it meets) for the two halves)

    def segment(self, name: str) -> Segment | None:
        return self.by_name.get(name)


def _face(tile: str, rotation: int) -> Face:
    raw_edges, raw_features = TILES[tile]
    turn = rotation // 90
    edges = tuple(Kind(raw_edges[(e - turn) % 4]) for e in range(4))
    # the data's city edge names resolve to the index of the city segment touching that (unrotated) edge
    city_at_edge = {edge: i for i, f in enumerate(raw_features) if f[0] == "city" for edge in f[1]}
    segments = []
    for index, (kind, raw_e, raw_h, pennant, raw_cities) in enumerate(raw_features):
        e = tuple(sorted((EDGE_NAMES.index(x) + turn) % 4 for x in raw_e))
        h = tuple(sorted((HALF_NAMES.index(x) + 2 * turn) % 8 for x in raw_h))
        cities = tuple(sorted({city_at_edge[x] for x in raw_cities}))
        if kind in ("road", "city"):
            names = tuple(EDGE_NAMES[x] for x in e)
        elif kind == "field":
            names = tuple(HALF_NAMES[x] for x in h) or (INNER,)
        else:
            names = (kind,)
        segments.append(Segment(index, Kind(kind), e, h, bool(pennant), cities, names[0], names))
    edge_segment = [-1] * 4
    half_segment = [-1] * 8
    for s in segments:
        for x in s.edges:
            edge_segment[x] = s.index
        for x in s.halves:
            half_segment[x] = s.index
    by_name = {name: s for s in segments for name in s.names}
    assert len(by_name) == sum(len(s.names) for s in segments), tile  # K-TILE-4: every name unique on a tile
    seeds = tuple((s.index, s.kind, len(s.edges), int(s.pennant), s.cities) for s in segments
                  if s.kind is not Kind.TOWER)
    links = []
    for d, (dx, dy) in enumerate(DIRECTIONS):
        opposite = (d + 2) % 4
        halves = tuple((half_segment[half], other) for half, other in ((2 * d, 2 * opposite + 1),
                                                                        (2 * d + 1, 2 * opposite))
                       if half_segment[half] >= 0)
        links.append((d, dx, dy, opposite, edge_segment[d], halves))
    return Face(tile, rotation, edges, tuple(segments), tuple(edge_segment), tuple(half_segment), by_name,
                any(s.kind is Kind.CLOISTER for s in segments), any(s.kind is Kind.TOWER for s in segments), seeds,
                tuple(links))


FACES: dict[tuple[str, int], Face] = {(tile, r): _face(tile, r) for tile in TILES for r in ROTATIONS}


def face(tile: str, rotation: int) -> Face:
    return FACES[(tile, rotation)]


@cache
def tile_counts(tower: bool) -> dict[str, int]:
    """Every tile of the game and how many of it (K-COMP-1; K-TOW-TILE-1 with The Tower), start tile included."""
    counts = dict(SETS[BASE_SET])
    if tower:
        for tile, n in SETS[TOWER_SET].items():
            counts[tile] = counts.get(tile, 0) + n
    return counts


def full_set(tower: bool) -> list[str]:
    """The tiles in a fixed order (the table's), each as often as the set has it."""
    return [tile for tile, n in tile_counts(tower).items() for _ in range(n)]
