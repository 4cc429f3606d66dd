"""The board's geometry: axial hex coordinates, sides, guild spaces, adjacency and connected groups.

S-GEO-1: side `d` of a hexagon (0 to 5, counter-clockwise) faces the neighbour at DIRECTIONS[d] and meets its side
(d + 3) mod 6. S-GEO-2: a hexagon turned by `k` has guild space `i` on sides (k + 2i) mod 6 and (k + 2i + 1) mod 6.
S-GEO-3: two spaces are adjacent when they share a side.

A board is a tuple of `Placed` hexagons in canonical order; its `Layout` (spaces, guilds, adjacency) depends only on
the hexagons, not on tokens or towers, so it is computed once per board and cached.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Iterable, Iterator

Coord = tuple[int, int]
Guilds = tuple[str, str, str]

GUILDS = ("A", "B", "C", "D")
GUILD_BIT = {g: 1 << i for i, g in enumerate(GUILDS)}
ALL_GUILDS = (1 << len(GUILDS)) - 1
SIDES = 6
DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # S-GEO-1, side 0..5
# S-SVC-EDGE: the table's edge. Both coordinates of a place run from -MAX_COORD to MAX_COORD, far more than 16
# hexagons can reach from anywhere near [0, 0]; a free cell beyond it is no place for a hexagon.
MAX_COORD = 64


def neighbour(at: Coord, side: int) -> Coord:
    dq, dr = DIRECTIONS[side]
    return at[0] + dq, at[1] + dr


def on_table(at: Coord) -> bool:
    """S-SVC-EDGE: whether `at` is a place on the table."""
    return -MAX_COORD <= at[0] <= MAX_COORD and -MAX_COORD <= at[1] <= MAX_COORD


def opposite(side: int) -> int:
    return (side + 3) % SIDES


def space_on_side(rotation: int, side: int) -> int:
    """S-GEO-2: the guild space (0, 1, 2) of a hexagon turned by `rotation` that covers `side`."""
    return ((side - rotation) % SIDES) // 2


# S-GEO-2 as tables, for the searches that ask it of every side: per rotation, the space covering each side
SPACE_ON_SIDE = tuple(tuple(space_on_side(rotation, side) for side in range(SIDES)) for rotation in range(SIDES))


def side_guilds(rotation: int, guilds: Guilds) -> int:
    """The guild each side of a hexagon laid so shows, as one number: side d's guild bit at bits 4d to 4d + 3. Two
    such numbers (this one and what a cell's neighbours show it, `Layout.facing_of`) meet their own guild on some
    side exactly when they share a bit (S-HEX-3)."""
    return SIDE_GUILDS[rotation % SIDES, guilds]


def _side_guilds(rotation: int, guilds: Guilds) -> int:
    shown = 0
    for side, space in enumerate(SPACE_ON_SIDE[rotation]):
        shown |= GUILD_BIT[guilds[space]] << 4 * side
    return shown


SIDE_GUILDS = {(rotation, guilds): _side_guilds(rotation, guilds)
               for rotation in range(SIDES) for guilds in permutations(GUILDS, 3)}


def sides_of_space(rotation: int, space: int) -> tuple[int, int]:
    first = (rotation + 2 * space) % SIDES
    return first, (first + 1) % SIDES


def canonical_turn(rotation: int, guilds: Guilds) -> tuple[int, Guilds]:
    """The equivalent form with rotation 0 or 1 (S-GEO-2): turning by 2 is the same as moving each guild one space
    on; space j of the result is space j - rotation // 2 of the given form."""
    shift = (rotation % SIDES) // 2
    return rotation % 2, tuple(guilds[(j - shift) % 3] for j in range(3))  # type: ignore[return-value]


def hexagon_kind(guilds: Iterable[str]) -> Guilds:
    """A loose hexagon's identity: its guilds in counter-clockwise order, written from the first guild in A-D order
    (a hexagon in hand has no rotation, so [B, C, A] and [A, B, C] are the same hexagon)."""
    g = tuple(guilds)
    start = g.index(min(g))
    return g[start:] + g[:start]  # type: ignore[return-value]


def all_kinds() -> tuple[Guilds, ...]:
    """The 8 hexagons three different guilds allow: one guild left out (4) in either cyclic order (2)."""
    kinds = set()
    for left_out in GUILDS:
        rest = [g for g in GUILDS if g != left_out]
        kinds.add(hexagon_kind(rest))
        kinds.add(hexagon_kind(rest[::-1]))
    return tuple(sorted(kinds))


KINDS = all_kinds()


def rotate_coord(at: Coord, turns: int = 1) -> Coord:
    """`at` turned about [0, 0] by 60 degrees counter-clockwise `turns` times: direction d becomes d + 1."""
    q, r = at
    for _ in range(turns % SIDES):
        q, r = q + r, -q
    return q, r


@dataclass(frozen=True, slots=True)
class Placed:
    """A hexagon on the board, in canonical form (rotation 0 or 1)."""

    at: Coord
    rotation: int
    guilds: Guilds

    def guild_on_side(self, side: int) -> str:
        return self.guilds[space_on_side(self.rotation, side)]


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """What a board's hexagons determine. Space `3 * h + i` is guild space i of board[h]. One board has one Layout
    (`layout` keeps them), so a Layout is compared and hashed by identity: the searches keyed by it are keyed by
    the board without hashing the board again."""

    board: tuple[Placed, ...]
    index: dict[Coord, int]  # hexagon at a coordinate
    guild: tuple[str, ...]  # per space
    bit: tuple[int, ...]  # per space: its guild as a bit
    neighbours: tuple[tuple[int, ...], ...]  # per space, in increasing order
    frontier: tuple[Coord, ...]  # empty places touching two hexagons or more (S-HEX-2, S-SVC-EDGE), sorted
    facing: dict[Coord, int]  # per place of the frontier, in its order: the guilds its neighbours show it (S-HEX-3)

    @property
    def spaces(self) -> int:
        return len(self.guild)

    def space(self, at: Coord, guild: str) -> int | None:
        h = self.index.get(at)
        if h is None:
            return None
        guilds = self.board[h].guilds
        return 3 * h + guilds.index(guild) if guild in guilds else None

    def name(self, space: int) -> tuple[Coord, str]:
        return self.board[space // 3].at, self.guild[space]

    def facing_of(self, at: Coord) -> int:
        """The guild each neighbour of the free place `at` shows it, in the form of `side_guilds`."""
        facing = self.facing.get(at)
        if facing is None:
            facing = 0
            for side in range(SIDES):
                other = self.index.get(neighbour(at, side))
                if other is not None:
                    facing |= GUILD_BIT[self.board[other].guild_on_side(opposite(side))] << 4 * side
        return facing

    def fits(self, at: Coord, rotation: int, guilds: Guilds) -> bool:
        """S-HEX-3: no space of the hexagon laid at `at` shares a side with a space of its guild."""
        return not self.facing_of(at) & side_guilds(rotation, guilds)

    def clashes(self, at: Coord, rotation: int, guilds: Guilds) -> list[tuple[int, Coord, str]]:
        """(side, neighbour, guild) for every side where the laid hexagon would meet its own guild."""
        out = []
        for side in range(SIDES):
            other = self.index.get(neighbour(at, side))
            if other is None:
                continue
            mine = guilds[space_on_side(rotation, side)]
            if self.board[other].guild_on_side(opposite(side)) == mine:
                out.append((side, self.board[other].at, mine))
        return out

    def touching(self, at: Coord) -> int:
        return sum(neighbour(at, side) in self.index for side in range(SIDES))


@lru_cache(maxsize=4096)
def _layout(board: tuple[Placed, ...]) -> Layout:
    index = {hexagon.at: h for h, hexagon in enumerate(board)}
    guild: list[str] = []
    neighbours: list[tuple[int, ...]] = []
    touching: dict[Coord, int] = {}  # free places on the table: how many hexagons they touch
    facing: dict[Coord, int] = {}
    for h, hexagon in enumerate(board):
        q, r = hexagon.at
        first = 3 * h
        guild.extend(hexagon.guilds)
        adjacent = [[first + 1, first + 2], [first, first + 2], [first, first + 1]]  # S-GEO-3: pairwise, within
        covering = SPACE_ON_SIDE[hexagon.rotation]
        for side, (dq, dr) in enumerate(DIRECTIONS):
            cell = (q + dq, r + dr)
            other = index.get(cell)
            mine = covering[side]
            if other is not None:  # S-GEO-1: side `side` meets the other's side (side + 3) mod 6
                adjacent[mine].append(3 * other + SPACE_ON_SIDE[board[other].rotation][(side + 3) % SIDES])
            elif on_table(cell):
                touching[cell] = touching.get(cell, 0) + 1
                facing[cell] = facing.get(cell, 0) | GUILD_BIT[hexagon.guilds[mine]] << 4 * ((side + 3) % SIDES)
        neighbours.extend(tuple(sorted(spaces)) for spaces in adjacent)
    frontier = tuple(sorted(cell for cell, count in touching.items() if count >= 2))
    return Layout(board, index, tuple(guild), tuple(GUILD_BIT[g] for g in guild), tuple(neighbours), frontier,
                  {cell: facing[cell] for cell in frontier})


_last_layout: tuple[tuple[Placed, ...], Layout] | None = None


def layout(board: tuple[Placed, ...]) -> Layout:
    """The board's Layout, made once per board. The last one asked for is recognised by identity first: successive
    states share their board tuple until a hexagon is laid, and hashing a whole board on every question costs more
    than the question."""
    global _last_layout
    last = _last_layout
    if last is not None and last[0] is board:
        return last[1]
    lay = _layout(board)
    _last_layout = (board, lay)
    return lay


# ---------------------------------------------------------------- groups

def components(lay: Layout, members: Iterable[int]) -> list[list[int]]:
    """The connected groups (S-BUILD-1) of the given spaces, through adjacent spaces among them."""
    inside = set(members)
    seen: set[int] = set()
    out = []
    for start in sorted(inside):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [start], [start]
        while todo:
            for other in lay.neighbours[todo.pop()]:
                if other in inside and other not in seen:
                    seen.add(other)
                    group.append(other)
                    todo.append(other)
        out.append(sorted(group))
    return out


def distinct_quartets(lay: Layout, members: Iterable[int]) -> Iterator[frozenset[int]]:
    """Every connected group of four spaces of four different guilds among `members` (S-BUILD-1), each once."""
    inside = set(members)
    seen: set[frozenset[int]] = set()

    def grow(group: frozenset[int], mask: int) -> Iterator[frozenset[int]]:
        if len(group) == 4:
            if group not in seen:
                seen.add(group)
                yield group
            return
        for space in group:
            for other in lay.neighbours[space]:
                if other in inside and other not in group and not mask & lay.bit[other]:
                    yield from grow(group | {other}, mask | lay.bit[other])

    for start in sorted(inside):
        yield from grow(frozenset((start,)), lay.bit[start])
        inside.discard(start)  # every group through `start` has been found


def group_within(lay: Layout, weight: dict[int, int], large: bool, budget: int) -> bool:
    """Whether a qualifying group among the spaces of `weight` needs at most `budget` tokens (the sum of `weight`
    over it). Base game: four connected spaces of four different guilds; S-VAR-1: any connected group in which all
    four guilds appear. Every base group qualifies for S-VAR-1 too, so those are tried first; the variant's larger
    groups are then searched as a group Steiner tree over the guilds, by dynamic programming over guild subsets."""
    for group in components(lay, weight):
        if _mask(lay, group) != ALL_GUILDS:
            continue
        owned = _mask(lay, (s for s in group if weight[s] == 0))
        if bin(ALL_GUILDS & ~owned).count("1") > budget:
            continue  # each guild without a token yet needs one more
        if any(sum(weight[s] for s in quartet) <= budget for quartet in distinct_quartets(lay, group)):
            return True
        if large and _steiner(lay, group, weight) <= budget:
            return True
    return False


def _mask(lay: Layout, spaces: Iterable[int]) -> int:
    mask = 0
    for s in spaces:
        mask |= lay.bit[s]
    return mask


def _steiner(lay: Layout, group: list[int], weight: dict[int, int]) -> int:
    """The least total weight of a connected set of spaces of `group` showing all four guilds. cost[mask][s]: the
    least weight of a connected set holding s and showing at least the guilds of `mask`."""
    infinity = 1 << 20
    inside = set(group)
    cost = [dict.fromkeys(group, infinity) for _ in range(ALL_GUILDS + 1)]
    for s in group:
        cost[0][s] = weight[s]
        cost[lay.bit[s]][s] = weight[s]
    for mask in range(1, ALL_GUILDS + 1):
        row = cost[mask]
        for s in group:  # two sets through s, joined there
            sub = (mask - 1) & mask
            while sub:
                value = cost[sub][s] + cost[mask ^ sub][s] - weight[s]
                if value < row[s]:
                    row[s] = value
                sub = (sub - 1) & mask
        # grow along edges: weights are 0 or 1, so a deque keeps the cheapest first
        todo = deque(sorted((s for s in group if row[s] < infinity), key=row.__getitem__))
        while todo:
            s = todo.popleft()
            base = row[s]
            for other in lay.neighbours[s]:
                if other not in inside:
                    continue
                value = base + weight[other]
                wider = mask | lay.bit[other]
                if wider != mask and value < cost[wider][other]:
                    cost[wider][other] = value
                if value < row[other]:
                    row[other] = value
                    if weight[other]:
                        todo.append(other)
                    else:
                        todo.appendleft(other)
    return min(cost[ALL_GUILDS].values())


def is_connected(cells: Iterable[Coord]) -> bool:
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        at = todo.pop()
        for side in range(SIDES):
            other = neighbour(at, side)
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


@lru_cache(maxsize=1024)
def buildable_from_start(cells: frozenset[Coord], starting: int, hint: frozenset[Coord] = frozenset()) -> bool:
    """S-SETUP-2, S-HEX-2: whether some connected set of `starting` cells could have been the starting layout, every
    other hexagon then laid touching at least two already there. Adding hexagons only helps, so for a given start
    the greedy closure decides; `hint` (the service's own start, S-SVC-START) is tried first."""
    if len(cells) <= starting:
        return is_connected(cells)

    def closes(start: frozenset[Coord]) -> bool:
        have = set(start)
        grew = True
        while grew:
            grew = False
            for cell in cells - have:
                if sum(neighbour(cell, side) in have for side in range(SIDES)) >= 2:
                    have.add(cell)
                    grew = True
        return len(have) == len(cells)

    if hint and hint <= cells and is_connected(hint) and len(hint) == starting and closes(hint):
        return True
    for start in _connected_subsets(cells, starting):
        if closes(start):
            return True
    return False


def _connected_subsets(cells: frozenset[Coord], size: int) -> Iterator[frozenset[Coord]]:
    seen: set[frozenset[Coord]] = set()

    def grow(group: frozenset[Coord]) -> Iterator[frozenset[Coord]]:
        if len(group) == size:
            if group not in seen:
                seen.add(group)
                yield group
            return
        for at in group:
            for side in range(SIDES):
                other = neighbour(at, side)
                if other in cells and other not in group:
                    yield from grow(group | {other})

    for start in sorted(cells):
        yield from grow(frozenset((start,)))
