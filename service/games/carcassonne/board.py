"""The board's feature index: which segments form one road, city, field or cloister (K-TILE-3), kept by
union-find over the segments of the placed tiles, joined across every shared edge and half-edge (K-TILE-2).

An index is built once per board and extended by one tile at a time (`with_tile` copies, `add` extends in
place), so finding a feature, whether it is complete and what it is worth costs the same on a full board as on
an empty one.
"""
from __future__ import annotations

from .model import Placement, Square
from .tiles import DIRECTIONS, Face, Kind, face

SLOTS = 16  # node ids: placement number * SLOTS + segment index (no tile has more than 9 segments)
NEIGHBOURS_8 = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


class Group:
    """A feature on the board: the union of segments. A group belongs to the index that made it; an index
    extended from another copies a group before changing it (copy on write), so the older index never changes."""

    __slots__ = ("kind", "squares", "open", "pennants", "segments", "cities", "owner")

    def __init__(self, kind: Kind, squares: set[Square], open_ends: int, pennants: int, segments: list[int],
                 cities: list[int], owner: object) -> None:
        self.kind = kind
        self.squares = squares
        self.open = open_ends  # roads and cities: edge ends not yet joined to a neighbour (0: complete)
        self.pennants = pennants
        self.segments = segments  # node ids
        self.cities = cities  # fields: node ids of the city segments the field touches
        self.owner = owner

    def owned_by(self, owner: object) -> "Group":
        if self.owner is owner:
            return self
        return Group(self.kind, set(self.squares), self.open, self.pennants, list(self.segments), list(self.cities),
                     owner)


class BoardIndex:
    __slots__ = ("grid", "faces", "squares", "parent", "groups", "frontier")

    def __init__(self) -> None:
        self.grid: dict[Square, int] = {}  # square -> placement number
        self.faces: list[Face] = []
        self.squares: list[Square] = []
        self.parent: list[int] = []
        self.groups: dict[int, Group] = {}  # root -> its feature (cloisters included; towers not)
        self.frontier: set[Square] = set()  # empty squares next to a tile by an edge (K-PLACE-1)

    @staticmethod
    def of(board: tuple[Placement, ...]) -> "BoardIndex":
        index = BoardIndex()
        for placement in board:
            index.add(placement)
        return index

    def copy(self) -> "BoardIndex":
        other = BoardIndex.__new__(BoardIndex)
        other.grid = dict(self.grid)
        other.faces = list(self.faces)
        other.squares = list(self.squares)
        other.parent = list(self.parent)
        other.groups = dict(self.groups)
        other.frontier = set(self.frontier)
        return other

    def with_tile(self, placement: Placement) -> "BoardIndex":
        index = self.copy()
        index.add(placement)
        return index

    # ------------------------------------------------------------------ union-find

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _union(self, a: int, b: int, closed: int) -> None:
        ra, rb = self.find(a), self.find(b)
        groups = self.groups
        if ra == rb:
            if closed:
                g = groups[ra] = groups[ra].owned_by(self)
                g.open -= closed
            return
        ga, gb = groups[ra], groups[rb]
        if len(ga.segments) < len(gb.segments):  # the smaller joins the larger: merging stays cheap
            ra, rb, ga, gb = rb, ra, gb, ga
        self.parent[rb] = ra
        del groups[rb]
        g = groups[ra] = ga.owned_by(self)
        g.squares |= gb.squares
        g.open += gb.open - closed
        g.pennants += gb.pennants
        g.segments += gb.segments
        g.cities += gb.cities

    # ------------------------------------------------------------------ building

    def add(self, placement: Placement) -> None:
        number = len(self.faces)
        tile_face = face(placement.tile, placement.rotation)
        square = placement.at
        x, y = square
        grid, faces, groups, frontier = self.grid, self.faces, self.groups, self.frontier
        grid[square] = number
        faces.append(tile_face)
        self.squares.append(square)
        base = number * SLOTS
        self.parent.extend(range(base, base + SLOTS))
        for segment, kind, ends, pennant, cities in tile_face.seeds:
            node = base + segment
            groups[node] = Group(kind, {square}, ends, pennant, [node], [base + c for c in cities], self)
        frontier.discard(square)
        for d, dx, dy, opposite, mine, halves in tile_face.links:
            neighbour = (x + dx, y + dy)
            other = grid.get(neighbour)
            if other is None:
                frontier.add(neighbour)
                continue
            other_face = faces[other]
            other_base = other * SLOTS
            if mine >= 0:
                theirs = other_face.edge_segment[opposite]
                if theirs >= 0 and tile_face.edges[d] is other_face.edges[opposite]:
                    self._union(base + mine, other_base + theirs, 2)
            for mine_half, other_half in halves:
                theirs = other_face.half_segment[other_half]
                if theirs >= 0:
                    self._union(base + mine_half, other_base + theirs, 0)

    # ------------------------------------------------------------------ questions

    def node(self, square: Square, segment: int) -> int:
        return self.grid[square] * SLOTS + segment

    def segment_of(self, node: int) -> tuple[Square, Face, int]:
        number, segment = divmod(node, SLOTS)
        return self.squares[number], self.faces[number], segment

    def group(self, node: int) -> tuple[int, Group]:
        root = self.find(node)
        return root, self.groups[root]

    def fits(self, tile_face: Face, square: Square) -> bool:
        """K-PLACE-1 and K-PLACE-2: an empty square touching a tile, every shared edge matching."""
        if square in self.grid:
            return False
        x, y = square
        touches = False
        for d, (dx, dy) in enumerate(DIRECTIONS):
            other = self.grid.get((x + dx, y + dy))
            if other is not None:
                if self.faces[other].edges[(d + 2) % 4] is not tile_face.edges[d]:
                    return False
                touches = True
        return touches

    def placements(self, tile: str) -> list[tuple[Square, int]]:
        """Every square and rotation where `tile` fits, squares in (y, x) order."""
        grid, faces = self.grid, self.faces
        out = []
        for square in sorted(self.frontier, key=lambda s: (s[1], s[0])):
            x, y = square
            need = []
            for d, (dx, dy) in enumerate(DIRECTIONS):
                other = grid.get((x + dx, y + dy))
                if other is not None:
                    need.append((d, faces[other].edges[(d + 2) % 4]))
            for rotation in (0, 90, 180, 270):
                edges = face(tile, rotation).edges
                if all(edges[d] is kind for d, kind in need):
                    out.append((square, rotation))
        return out

    def neighbours_8(self, square: Square) -> list[Square]:
        x, y = square
        return [(x + dx, y + dy) for dx, dy in NEIGHBOURS_8 if (x + dx, y + dy) in self.grid]

    def complete(self, root: int) -> bool:
        group = self.groups[root]
        if group.kind is Kind.CLOISTER:
            (square,) = group.squares
            return len(self.neighbours_8(square)) == 8
        return group.kind is not Kind.FIELD and group.open == 0

    def tiles_of(self, root: int) -> list[Square]:
        """The squares a feature covers; a cloister's are its own and the tiles around it (K-END-2)."""
        group = self.groups[root]
        if group.kind is Kind.CLOISTER:
            (square,) = group.squares
            return sorted([square, *self.neighbours_8(square)], key=lambda s: (s[1], s[0]))
        return sorted(group.squares, key=lambda s: (s[1], s[0]))
