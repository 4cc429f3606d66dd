"""The board's feature index: which segments form one road, city, field or cloister (K-TILE-3), kept by
union-find over the segments of the placed tiles, joined across every shared edge and half-edge (K-TILE-2).

Every segment of a placed tile is a node, a plain integer: its tile's first node (`first`, by placement number)
plus its index on the tile's face. A feature is a tree of nodes whose root keeps the count of its open ends
(`open`, asked at every turn's end); its nodes also form a ring (`ring[node]` is the next one), so joining two
features costs the same however large they are, and what a feature covers (squares, segments, pennants, the
cities a field touches) is read off its ring when asked (`feature`).

An index is built once per board (`of`) and extended by one tile at a time (`with_tile` copies, `add` extends in
place), so finding a feature, whether it is complete and what it is worth costs the same on a full board as on
an empty one. The union-find itself is built when first asked (`first`, `parent`, `ring`, `open`): reading a
state checks the few features that hold a meeple by walking them (`complete_squares`), the features of a tile
just placed are found free of meeples by walking them too (`holds_any`), and placing a tile or listing where one
fits asks no feature. It also keeps the frontier, once asked for it: every empty square next to a tile, with what
its neighbours need of a tile placed there (K-PLACE-1, K-PLACE-2), so listing where a tile fits looks at those
squares only, one table look-up each.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate, chain, repeat
from operator import attrgetter, itemgetter, mul
from typing import NamedTuple

from ..core.records import from_fields
from .model import Placement, Square
from .tiles import DIRECTIONS, FACE_OF, SIDE_JOINS, Face, Kind, Segment, face, joins, rotations_meeting

NEIGHBOURS_8 = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)
EAST, SOUTH = 1, 2
BOARD_ORDER = itemgetter(1, 0)  # squares in (y, x) order
_AT = itemgetter(1)  # a Placement's square
_SEGMENTS, _OPEN_ENDS = attrgetter("segments"), attrgetter("open_ends")
# The kinds as module globals: `Kind.CLOISTER` goes through the enum class at each use (several times a global's
# cost), and a read asks it for every meeple on a road, city or cloister.
_FIELD, _CLOISTER = Kind.FIELD, Kind.CLOISTER


class Group(NamedTuple):
    """A feature as the board stands: made when asked (`BoardIndex.feature`), not kept. A named tuple, as the
    pieces of model.py: end scoring makes one for every feature holding a meeple."""

    kind: Kind
    squares: set[Square]
    open: int  # roads and cities: edge ends not yet joined to a neighbour (0: complete)
    pennants: int
    segments: list[int]  # node ids
    cities: list[int]  # fields: node ids of the city segments the field touches
    handle: tuple[Square, Segment]  # its first segment in board order (y, then x, then segment), and its square


_group = from_fields(Group)  # end scoring makes one for every feature holding a meeple

_UNION_FIND = frozenset(("first", "parent", "ring", "open", "node_square", "node_segment"))


class BoardIndex:
    __slots__ = ("grid", "faces", "squares", "first", "parent", "ring", "open", "node_square", "node_segment",
                 "_joined", "_unjoined", "_frontier")

    def __init__(self) -> None:
        self.grid: dict[Square, int] = {}  # square -> placement number
        self.faces: list[Face] = []  # by placement number
        self.squares: list[Square] = []  # by placement number
        self.first: list[int] = []  # by placement number: the node of its segment 0
        self.parent: list[int] = []  # by node: union-find
        self.ring: list[int] = []  # by node: the next node of its feature
        self.open: list[int] = []  # at a root: its feature's edge ends not yet joined (roads and cities)
        # by node: its tile's square and its Segment, so reading a feature off its ring looks nothing else up
        self.node_square: list[Square] = []
        self.node_segment: list[Segment] = []
        self._joined = True  # whether the union-find above is built (see `__getattr__`)
        self._unjoined: list[tuple[int, int, int]] = []  # until it is: the shared edges it will join (see `_join`)
        self._frontier: dict[Square, int] | None = {}  # see `frontier`; None until asked

    @staticmethod
    def of(board: tuple[Placement, ...], shared: list[tuple[int, int, int]] | None = None) -> "BoardIndex":
        """The index of a whole board, its union-find built when first asked (`_join_all`). `shared`, when given,
        receives every shared edge once as (tile, neighbour, the tile's edge: EAST or SOUTH), in board order: a
        reader checking them (K-PLACE-1, K-PLACE-2) need not look for them again, nor the union-find later."""
        squares = list(map(_AT, board))
        return BoardIndex.of_parts([FACE_OF[tile][rotation] for tile, _, rotation in board], squares,
                                   dict(zip(squares, range(len(squares)))), shared)

    @staticmethod
    def of_parts(faces: list[Face], squares: list[Square], grid: dict[Square, int],
                 shared: list[tuple[int, int, int]] | None = None) -> "BoardIndex":
        """As `of`, from a board's faces, squares and grid (square -> placement number) made by its reader, which
        goes over the board once: the index keeps the three (they are not copied)."""
        index = BoardIndex.__new__(BoardIndex)
        index.faces, index.squares, index.grid = faces, squares, grid
        index._joined = False
        index._unjoined = index._shared_edges()
        index._frontier = None
        if shared is not None:
            shared += index._unjoined
        return index

    def _shared_edges(self) -> list[tuple[int, int, int]]:
        """Every edge two tiles share, once, from its west or north tile: (tile, neighbour, EAST or SOUTH)."""
        grid = self.grid
        edges = []
        for number, (x, y) in enumerate(self.squares):
            east, south = grid.get((x + 1, y)), grid.get((x, y + 1))
            if east is not None:
                edges.append((number, east, EAST))
            if south is not None:
                edges.append((number, south, SOUTH))
        return edges

    def __getattr__(self, name: str) -> list[int]:
        """The union-find of an index made by `of`, built at the first look at one of its lists (Python asks here
        only for an attribute not yet set)."""
        if name not in _UNION_FIND or self._joined:
            raise AttributeError(name)
        self._join_all()
        return object.__getattribute__(self, name)

    def _join_all(self) -> None:
        """Every tile's nodes at once, then each shared edge joined once."""
        faces = self.faces
        sizes = list(map(len, map(_SEGMENTS, faces)))
        first = self.first = list(accumulate(sizes, initial=0))
        nodes = first.pop()
        self.parent = list(range(nodes))
        self.ring = list(range(nodes))
        self.open = list(chain.from_iterable(map(_OPEN_ENDS, faces)))
        self.node_square = list(chain.from_iterable(map(mul, zip(self.squares), sizes)))  # (square,) * size
        self.node_segment = list(chain.from_iterable(map(_SEGMENTS, faces)))
        self._joined = True
        self._join(self._unjoined)
        self._unjoined = []

    def copy(self) -> "BoardIndex":
        other = BoardIndex.__new__(BoardIndex)
        other.grid = self.grid.copy()
        other.faces = self.faces.copy()
        other.squares = self.squares.copy()
        other._joined = self._joined
        other._unjoined = self._unjoined.copy()
        if self._joined:
            other.first = self.first.copy()
            other.parent = self.parent.copy()
            other.ring = self.ring.copy()
            other.open = self.open.copy()
            other.node_square = self.node_square.copy()
            other.node_segment = self.node_segment.copy()
        other._frontier = None if self._frontier is None else self._frontier.copy()
        return other

    def with_tile(self, placement: Placement) -> "BoardIndex":
        index = self.copy()
        index.add(placement)
        return index

    @property
    def frontier(self) -> dict[Square, int]:
        """The empty squares next to a tile by an edge (K-PLACE-1), each with what its neighbours show there
        (K-PLACE-2, as tiles.EDGE_CODE packs it). Worked out when first asked (a board read for its score never
        needs it), then kept up as tiles are added."""
        if self._frontier is None:
            frontier: dict[Square, int] = {}
            grid, shown = self.grid, frontier.get
            for (x, y), tile_face in zip(self.squares, self.faces):
                north, east, south, west = tile_face.shows  # the four edges written out: no loop a tile
                square = (x, y - 1)
                if square not in grid:
                    frontier[square] = shown(square, 0) | north
                square = (x + 1, y)
                if square not in grid:
                    frontier[square] = shown(square, 0) | east
                square = (x, y + 1)
                if square not in grid:
                    frontier[square] = shown(square, 0) | south
                square = (x - 1, y)
                if square not in grid:
                    frontier[square] = shown(square, 0) | west
            self._frontier = frontier
        return self._frontier

    # ------------------------------------------------------------------ union-find

    def find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            parent[node] = node = parent[parent[node]]  # path halving
        return node

    def roots(self, nodes: Iterable[int]) -> set[int]:
        """The roots of `nodes`' features, each once (as `find`, without a call a node)."""
        parent = self.parent
        out = set()
        for node in nodes:
            while parent[node] != node:
                parent[node] = node = parent[parent[node]]
            out.add(node)
        return out

    def _join(self, edges: list[tuple[int, int, int]]) -> None:
        """For each (tile, other, d) in `edges`, join the features tile and other share across tile's edge `d`
        (tiles.joins), each join closing the open ends it closes (two across a road or city edge, none across a
        field's half-edge)."""
        parent, open_ends, ring, first, faces = self.parent, self.open, self.ring, self.first, self.faces
        for number, other, d in edges:
            base, other_base = first[number], first[other]
            for mine, theirs, closed in SIDE_JOINS[faces[number].sides[d]][faces[other].sides[d ^ 2]]:  # joins()
                a, b = base + mine, other_base + theirs
                while parent[a] != a:  # a's root, halving the path on the way (as `find`)
                    parent[a] = a = parent[parent[a]]
                while parent[b] != b:
                    parent[b] = b = parent[parent[b]]
                if a == b:
                    open_ends[a] -= closed
                    continue
                if b < a:  # the older root stays: a new tile's nodes hang right below the features they join
                    a, b = b, a
                parent[b] = a
                if closed:  # a road or city: a field (closing none across a half-edge) has no open end to add
                    open_ends[a] += open_ends[b] - closed
                ring[a], ring[b] = ring[b], ring[a]  # one ring of both

    # ------------------------------------------------------------------ building

    def add(self, placement: Placement) -> None:
        tile_face = face(placement.tile, placement.rotation)
        square = placement.at
        x, y = square
        grid, frontier = self.grid, self._frontier
        number = len(self.faces)
        base = len(self.parent) if self._joined else 0
        grid[square] = number
        self.faces.append(tile_face)
        self.squares.append(square)
        joined = self._joined  # an index whose union-find is not built yet builds it with this tile when asked
        if joined:
            self.first.append(base)
            nodes = range(base, base + len(tile_face.segments))
            self.parent.extend(nodes)
            self.ring.extend(nodes)
            self.open.extend(tile_face.open_ends)
            self.node_square.extend(repeat(square, len(tile_face.segments)))
            self.node_segment.extend(tile_face.segments)
        if frontier is not None:
            frontier.pop(square, None)
        shared = []
        for d, dx, dy, shows in tile_face.links:
            neighbour = (x + dx, y + dy)
            other = grid.get(neighbour)
            if other is not None:
                shared.append((number, other, d))
            elif frontier is not None:
                frontier[neighbour] = frontier.get(neighbour, 0) | shows
        if joined:
            self._join(shared)
        else:
            self._unjoined += shared

    # ------------------------------------------------------------------ questions

    def node(self, square: Square, segment: int) -> int:
        return self.first[self.grid[square]] + segment

    def segment_of(self, node: int) -> tuple[Square, Face, int]:
        number = self.grid[self.node_square[node]]
        return self.squares[number], self.faces[number], node - self.first[number]

    def members(self, node: int) -> list[int]:
        """Every node of the feature of `node`, read off its ring."""
        ring = self.ring
        out = [node]
        other = ring[node]
        while other != node:
            out.append(other)
            other = ring[other]
        return out

    def feature(self, root: int) -> Group:
        """The feature whose root is `root`, as the board stands, read off its ring in one walk, each node's square
        and segment from the node tables (`node_square`, `node_segment`)."""
        ring, node_segment, node_square = self.ring, self.node_segment, self.node_square
        segment, square = node_segment[root], node_square[root]
        # a field's: its tile's city nodes (most segments touch none: no comprehension made for them)
        cities = [root - segment.index + city for city in segment.cities] if segment.cities else []
        node = ring[root]
        if node == root:  # one segment: every cloister, and many a road or city
            return _group((segment.kind, {square}, self.open[root], 1 if segment.pennant else 0, [root], cities,
                           (square, segment)))
        nodes, covered, pennants = [root], {square}, 1 if segment.pennant else 0
        handle = (square, segment)
        first_x, first_y, first_index = square[0], square[1], segment.index  # the handle's, in board order
        while node != root:
            nodes.append(node)
            square, segment = node_square[node], node_segment[node]
            covered.add(square)
            if segment.pennant:
                pennants += 1
            if segment.cities:
                cities += [node - segment.index + city for city in segment.cities]
            y = square[1]  # board order (y, x, segment) compared term by term: no tuple a node
            if y <= first_y and (y < first_y or square[0] < first_x
                                 or square[0] == first_x and segment.index < first_index):
                first_x, first_y, first_index, handle = square[0], y, segment.index, (square, segment)
            node = ring[node]
        return _group((segment.kind, covered, self.open[root], pennants, nodes, cities, handle))

    def group(self, node: int) -> tuple[int, Group]:
        root = self.find(node)
        return root, self.feature(root)

    def needs(self, square: Square) -> int | None:
        """What the neighbours of `square` show it (as `frontier` keeps it), or None unless it is an empty square
        touching a tile (K-PLACE-1). Read off its four neighbours unless the frontier is known: placing one tile
        needs no more."""
        if self._frontier is not None:
            return self._frontier.get(square)
        grid = self.grid
        if square in grid:
            return None
        x, y = square
        needs = None
        for d, (dx, dy) in enumerate(DIRECTIONS):
            number = grid.get((x + dx, y + dy))
            if number is not None:  # its link back to this square (edge d ^ 2, the opposite) says what it shows
                needs = (needs or 0) | self.faces[number].links[d ^ 2][3]
        return needs

    def placements(self, tile: str) -> list[tuple[Square, int]]:
        """Every square and rotation where `tile` fits, squares in (y, x) order."""
        frontier, meeting = self.frontier, rotations_meeting(tile)
        fitting = [square for square, needs in frontier.items() if meeting[needs]]  # sorted, the fewer the cheaper
        fitting.sort(key=BOARD_ORDER)
        return [(square, rotation) for square in fitting for rotation in meeting[frontier[square]]]

    def neighbours_8(self, square: Square) -> list[Square]:
        x, y = square
        return [(x + dx, y + dy) for dx, dy in NEIGHBOURS_8 if (x + dx, y + dy) in self.grid]

    def complete(self, root: int) -> bool:
        square, tile_face, segment = self.segment_of(root)
        kind = tile_face.segments[segment].kind
        if kind is _CLOISTER:  # a cloister is one segment
            return len(self.neighbours_8(square)) == 8
        return kind is not _FIELD and self.open[root] == 0

    def complete_squares(self, square: Square, segment: Segment) -> set[Square] | None:
        """The squares a complete road, city or cloister covers, from one of its segments (as `tiles_of`), or None
        while it is not complete: found by walking it, without the union-find. A road or city goes on across each
        of its edges into the same kind of edge of the neighbour (K-TILE-2); an edge with no neighbour, or facing
        another kind, is an open end. A cloister is complete with its 8 neighbours (K-END-2)."""
        if segment.kind is _CLOISTER:
            around = self.neighbours_8(square)
            return {square, *around} if len(around) == 8 else None
        grid, faces = self.grid, self.faces
        x, y = square
        for d in segment.edges:  # most features are open at the segment itself: known without a walk
            dx, dy = DIRECTIONS[d]
            if (x + dx, y + dy) not in grid:
                return None
        covered = {square}
        seen = {(square, segment.index)}
        todo = [(square, segment)]
        while todo:
            (x, y), here = todo.pop()
            kind = here.kind
            for d in here.edges:
                dx, dy = DIRECTIONS[d]
                neighbour = (x + dx, y + dy)
                number = grid.get(neighbour)
                if number is None:
                    return None
                there = faces[number]
                opposite = d ^ 2
                if there.edges[opposite] is not kind:
                    return None
                other = there.edge_segment[opposite]
                if (neighbour, other) not in seen:
                    seen.add((neighbour, other))
                    covered.add(neighbour)
                    todo.append((neighbour, there.segments[other]))
        return covered

    def holds_any(self, square: Square, segment: Segment, taken: set[tuple[Square, int]]) -> bool:
        """Whether the feature of `segment` on the tile at `square` holds any of the segments `taken` (each as its
        square and index): found by walking the feature across the joins of every shared edge (tiles.joins, as the
        union-find joins them), without building the union-find; the walk stops at the first one found."""
        grid, faces = self.grid, self.faces
        start = (square, segment.index)
        if start in taken:
            return True
        seen = {start}
        todo = [start]
        while todo:
            here, mine = todo.pop()
            x, y = here
            tile_face = faces[grid[here]]
            for d in tile_face.segments[mine].sides:
                dx, dy = DIRECTIONS[d]
                neighbour = (x + dx, y + dy)
                number = grid.get(neighbour)
                if number is None:
                    continue
                for joined, theirs, _ in joins(tile_face, faces[number], d):
                    there = (neighbour, theirs)
                    if joined == mine and there not in seen:
                        if there in taken:
                            return True
                        seen.add(there)
                        todo.append(there)
        return False

    def tiles_of(self, feature: Group) -> list[Square]:
        """The squares a feature covers; a cloister's are its own and the tiles around it (K-END-2)."""
        if feature.kind is _CLOISTER:
            (square,) = feature.squares
            return sorted([square, *self.neighbours_8(square)], key=BOARD_ORDER)
        return sorted(feature.squares, key=BOARD_ORDER)
