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
from functools import lru_cache, wraps
from itertools import chain, permutations, repeat
from operator import is_, itemgetter
from typing import Any, Callable, Iterable, Iterator, NamedTuple, TypeVar

from ..core.memo import memo, remember

Coord = tuple[int, int]
Guilds = tuple[str, str, str]

T = TypeVar("T")

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
    on; space j of the result is space j - rotation // 2 of the given form (`CANONICAL_SPACES`)."""
    first, second, third = CANONICAL_SPACES[rotation % SIDES]
    return rotation % 2, (guilds[first], guilds[second], guilds[third])


# per rotation: the spaces of the given form that become spaces 0, 1, 2 of the canonical form
CANONICAL_SPACES = tuple(tuple((j - rotation // 2) % 3 for j in range(3)) for rotation in range(SIDES))


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
# every way to write a hexagon (three different guilds, counter-clockwise from any of them): its kind
KIND_OF = {written: hexagon_kind(written) for written in permutations(GUILDS, 3)}


def rotate_coord(at: Coord, turns: int = 1) -> Coord:
    """`at` turned about [0, 0] by 60 degrees counter-clockwise `turns` times: direction d becomes d + 1."""
    q, r = at
    for _ in range(turns % SIDES):
        q, r = q + r, -q
    return q, r


class Placed(NamedTuple):
    """A hexagon on the board, in canonical form (rotation 0 or 1). A named tuple: every request reads a whole
    board, and a tuple is made and hashed several times faster than a frozen dataclass."""

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
    # The group searches (S-BUILD-1) see a set of spaces as one number, space s as bit s:
    reach: tuple[int, ...]  # per space: the set of its neighbours (S-GEO-3)
    showing: tuple[int, ...]  # per set of guilds (as GUILD_BIT bits): the spaces of those guilds
    hexagon_reach: tuple[int, ...]  # per hexagon: the set of hexagons it shares a side with, hexagon h as bit h
    guild_meets_itself: bool  # whether two spaces of one guild share a side (S-HEX-3), asked of every board read
    keys: list[int]  # per hexagon: its place as one number (`place_key`)
    # Only the hexagon phase and the S-END-2 check with hexagons in hand ask where one could go (`facing`): made on
    # first use, once every hexagon is laid it never is.
    _shown: dict[int, int] | None = None
    _facing: dict[Coord, int] | None = None

    @property
    def shown(self) -> dict[int, int]:
        """`facing` by place key, unsorted: what asks only whether some hexagon fits needs no more."""
        shown = self._shown
        if shown is None:
            shown = _frontier(self.board, self.keys)
            object.__setattr__(self, "_shown", shown)  # a cache of what the board determines, not a change
        return shown

    @property
    def facing(self) -> dict[Coord, int]:
        """Per place of the frontier, in its order: the guilds its neighbours show it (S-HEX-3)."""
        facing = self._facing
        if facing is None:
            shown = self.shown
            facing = {_coord(cell): shown[cell] for cell in sorted(shown)}  # keys sort as the places do
            object.__setattr__(self, "_facing", facing)
        return facing

    @property
    def frontier(self) -> tuple[Coord, ...]:
        """The empty places touching two hexagons or more (S-HEX-2, S-SVC-EDGE), sorted."""
        return tuple(self.facing)

    @property
    def spaces(self) -> int:
        return len(self.guild)

    @property
    def neighbours(self) -> tuple[list[int], ...]:
        """Per space, its neighbours in increasing order (S-GEO-3)."""
        return tuple(spaces_of(near) for near in self.reach)

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

    def guilds_of(self, spaces: int) -> int:
        """The guilds (as GUILD_BIT bits) that the spaces of the set `spaces` show."""
        showing = self.showing  # the four GUILD_BIT bits spelled out: the group searches ask this often
        return ((spaces & showing[1] and 1) | (spaces & showing[2] and 2) | (spaces & showing[4] and 4)
                | (spaces & showing[8] and 8))


def last_by_identity(cached: Callable[..., T]) -> Callable[..., T]:
    """A cached function of immutable values, with the arguments of its last call recognised by identity before
    they are hashed: successive states share their board and the pieces on it until a step changes them, and
    hashing a whole board for every question about it costs more than the answer. `cache_clear` forgets both;
    `remember` gives the answer for new arguments that the caller has worked out more cheaply."""
    last: tuple[tuple, T] | None = None

    @wraps(cached)
    def call(*args: Any) -> T:
        nonlocal last
        seen = last
        if seen is not None and all(map(is_, seen[0], args)):
            return seen[1]
        value = cached(*args)
        last = (args, value)
        return value

    def cache_clear() -> None:
        nonlocal last
        last = None
        cached.cache_clear()  # type: ignore[attr-defined]

    def remember(args: tuple, value: T) -> None:
        """Take `value` as the answer for `args` (recognised by identity, as the last call's are)."""
        nonlocal last
        last = (args, value)

    call.cache_clear = cache_clear  # type: ignore[attr-defined]
    call.remember = remember  # type: ignore[attr-defined]
    return call


# A Layout costs about 6 kB and about 50 µs to make. Within a request the last board is found by identity; this
# bound is for equal boards in other requests (and the searches keyed by their Layout), as many as engine.py's
# SEARCH_CACHE keeps.
LAYOUT_CACHE = 256


@remember
@last_by_identity
@lru_cache(maxsize=LAYOUT_CACHE)
def layout(board: tuple[Placed, ...]) -> Layout:
    """The board's Layout, made once per board."""
    return _make_layout(board, [place_key(hexagon.at) for hexagon in board])


def _make_layout(board: tuple[Placed, ...], keys: list[int]) -> Layout:
    """The Layout of `board`, its places given as their `place_key`s."""
    count = len(board)
    by_key = dict(zip(keys, range(count)))
    guild = tuple(chain.from_iterable(map(itemgetter(2), board)))
    reach = _within_hexagons(count)
    hexagon_reach = [0] * count
    guild_meets_itself = False
    # S-GEO-2, per hexagon: the space on each side, numbered on the board
    sides = list(map(_SPACES_ON_SIDES.__getitem__, zip(map(itemgetter(1), board), range(count))))
    for h, key, space_on in zip(range(count), keys, sides):
        for side, back, step in _SIDES_AHEAD:  # each shared side once: the other three are seen from the other hexagon
            other = by_key.get(key + step)
            if other is not None:  # S-GEO-1, S-GEO-3: the spaces on either side of the shared side are adjacent
                mine, theirs = space_on[side], sides[other][back]
                reach[mine] |= 1 << theirs
                reach[theirs] |= 1 << mine
                hexagon_reach[h] |= 1 << other
                hexagon_reach[other] |= 1 << h
                if guild[mine] == guild[theirs]:
                    guild_meets_itself = True
    return Layout(board, dict(zip(map(itemgetter(0), board), range(count))), guild,
                  tuple(map(GUILD_BIT.__getitem__, guild)), tuple(reach), _showing(guild), tuple(hexagon_reach),
                  guild_meets_itself, keys)


# Per guild, the table (for bytes.translate) writing a space of that guild as the digit 1 and any other as 0
_LETTERS = "".join(GUILDS).encode()
_GUILD_DIGITS = tuple(bytes.maketrans(_LETTERS, bytes(b"01"[other == guild] for other in _LETTERS))
                      for guild in _LETTERS)


def _showing(guild: tuple[str, ...]) -> tuple[int, ...]:
    """Per set of guilds (as GUILD_BIT bits), the set of spaces of those guilds: each guild's read as a binary
    number, space s its digit s from the right."""
    if not guild:
        return (0,) * (ALL_GUILDS + 1)
    written = "".join(reversed(guild)).encode()
    a, b, c, d = map(int, map(written.translate, _GUILD_DIGITS), repeat(2))
    return (0, a, b, a | b, c, a | c, b | c, a | b | c, d, a | d, b | d, a | b | d, c | d, a | c | d, b | c | d,
            a | b | c | d)


def _within_hexagons(hexagons: int) -> list[int]:
    """Per space of a board of `hexagons`, its neighbours on its own hexagon: the three are pairwise adjacent
    (S-GEO-3)."""
    if hexagons <= len(_WITHIN_HEXAGONS) // 3:
        return list(_WITHIN_HEXAGONS[:3 * hexagons])
    return [pair << 3 * h for h in range(hexagons) for pair in (0b110, 0b101, 0b011)]


# the same, worked out once for boards of up to 64 hexagons (the most a state document holds)
_WITHIN_HEXAGONS = tuple(pair << 3 * h for h in range(64) for pair in (0b110, 0b101, 0b011))


def _frontier(board: tuple[Placed, ...], keys: list[int]) -> dict[int, int]:
    """The free places touching two hexagons or more (S-HEX-2) on the table (S-SVC-EDGE), each as its key
    (`place_key`; the board's places are `keys`): the guilds their neighbours show them (S-HEX-3), in the form of
    `side_guilds`."""
    taken = set(keys)
    facing: dict[int, int] = {}  # free places touching a hexagon, by key: the guilds shown them
    for key, (at, rotation, guilds) in zip(keys, board):
        on_edge = not (-MAX_COORD < at[0] < MAX_COORD and -MAX_COORD < at[1] < MAX_COORD)
        for step, shown in _SIDES_LAID[rotation, guilds]:
            cell = key + step
            if cell not in taken and (not on_edge or on_table(_coord(cell))):
                facing[cell] = facing.get(cell, 0) | shown
    # each hexagon a free place touches shows it one guild on one side: one bit each
    return {cell: shown for cell, shown in facing.items() if shown & (shown - 1)}  # two bits or more


# A place as one number, for a read and a Layout, cheaper to step and look up than a pair: q * 256 + r (both run
# from -MAX_COORD - 1 to MAX_COORD + 1, and keys sort as the pairs do).
def place_key(at: Coord) -> int:
    return at[0] * 256 + at[1]


def _coord(key: int) -> Coord:
    q = (key + 128) >> 8
    return q, key - q * 256


KEY_STEP = tuple(place_key(step) for step in DIRECTIONS)


# the sides whose neighbours `layout` looks up, each shared side once: with the side that meets it, and the step to
# the cell beyond
_SIDES_AHEAD = tuple((side, opposite(side), KEY_STEP[side]) for side in range(SIDES // 2))


class _SpacesOnSides(dict):
    """Per (rotation, hexagon h of a board): the space on each side, numbered on the board (3 * h + its guild
    space); those of the boards a state document holds worked out once."""

    def __missing__(self, placed: tuple[int, int]) -> tuple[int, ...]:
        rotation, h = placed
        spaces = self[placed] = tuple(3 * h + space for space in SPACE_ON_SIDE[rotation])
        return spaces


_SPACES_ON_SIDES = _SpacesOnSides()  # at most 6 rotations x the longest board read (64 hexagons) entries


def _sides_laid(rotation: int, guilds: Guilds) -> tuple[tuple[int, int], ...]:
    """What `_frontier` asks of each side of a hexagon laid so, worked out once per way to lay one: (the step to the
    cell beyond, as a place key; the guild the side shows that cell, as `side_guilds` writes it at the cell's side
    that meets it, (side + 3) mod 6, S-GEO-1)."""
    shown = side_guilds(rotation, guilds)
    return tuple((KEY_STEP[side], (shown >> 4 * side & 0xF) << 4 * ((side + 3) % SIDES)) for side in range(SIDES))


_SIDES_LAID = {(rotation, guilds): _sides_laid(rotation, guilds) for rotation, guilds in SIDE_GUILDS}


# ---------------------------------------------------------------- groups

def space_set(spaces: Iterable[int]) -> int:
    """A set of spaces as one number: space s is bit s."""
    return sum(1 << s for s in set(spaces))


def spaces_of(spaces: int) -> list[int]:
    """The spaces of a set, in increasing order."""
    out = []
    while spaces:
        lowest = spaces & -spaces
        out.append(lowest.bit_length() - 1)
        spaces ^= lowest
    return out


def spread(reach: tuple[int, ...], members: int, start: int) -> int:
    """The set of members connected to the set `start` through members, each member i touching the set
    `reach[i]`."""
    group = todo = start
    while todo:
        lowest = todo & -todo
        todo ^= lowest
        reached = reach[lowest.bit_length() - 1] & members & ~group
        group |= reached
        todo |= reached
    return group


def group_sets(lay: Layout, members: int) -> list[int]:
    """The connected groups (S-BUILD-1) of the set of spaces `members`, through adjacent spaces among them, each as
    a set; in the order of their lowest spaces."""
    out = []
    while members:
        group = spread(lay.reach, members, members & -members)
        members ^= group
        out.append(group)
    return out


def components(lay: Layout, members: Iterable[int]) -> list[list[int]]:
    """The connected groups (S-BUILD-1) of the given spaces, through adjacent spaces among them."""
    return [spaces_of(group) for group in group_sets(lay, space_set(members))]


def distinct_quartets(lay: Layout, members: int) -> Iterator[int]:
    """Every connected group of four spaces of four different guilds (S-BUILD-1) among the set `members`, each once,
    as a set. Each group is grown from its lowest space through higher ones only, each space added being either
    left over from an earlier choice or a neighbour of the last one added that no earlier space touches; so each
    connected group is reached by one path alone (Wernicke's ESU enumeration). A space whose guild the group
    already shows is never a choice."""
    reach, bit, showing = lay.reach, lay.bit, lay.showing
    higher = members
    while higher:
        first = higher & -higher
        higher ^= first
        guilds1 = bit[first.bit_length() - 1]
        near1 = reach[first.bit_length() - 1] | first  # the group and every space it touches
        choices1 = reach[first.bit_length() - 1] & higher & ~showing[guilds1]
        while choices1:
            second = choices1 & -choices1
            choices1 ^= second
            at2 = second.bit_length() - 1
            guilds2 = guilds1 | bit[at2]
            near2 = near1 | reach[at2]
            choices2 = (choices1 | reach[at2] & higher & ~near1) & ~showing[guilds2]
            while choices2:
                third = choices2 & -choices2
                choices2 ^= third
                at3 = third.bit_length() - 1
                choices3 = (choices2 | reach[at3] & higher & ~near2) & ~showing[guilds2 | bit[at3]]
                three = first | second | third
                while choices3:
                    fourth = choices3 & -choices3
                    choices3 ^= fourth
                    yield three | fourth


def group_within(lay: Layout, spaces: int, owned: int, large: bool, budget: int) -> bool:
    """Whether a qualifying group among the set `spaces` needs at most `budget` more tokens: one for each of its
    spaces outside the set `owned` (those already holding one). Base game: four connected spaces of four different
    guilds; S-VAR-1: any connected group in which all four guilds appear. Every base group qualifies for S-VAR-1
    too, and is the quickest found, so with two tokens or more to spare those are tried first; then the variant's
    groups cheapest first: owned spaces alone (no token more), one more space joining owned ones (one token more),
    and beyond that a group Steiner tree over the guilds, by dynamic programming over guild subsets."""
    owned &= spaces
    if (ALL_GUILDS & ~lay.guilds_of(owned)).bit_count() > budget:
        return False  # each guild no owned space shows needs a token more, on a space of its own
    if budget == 0:
        spaces = owned  # a group needing no token more lies among the owned spaces
    if not large:
        return quartet_within(lay, spaces, owned, budget)
    if budget >= 2 and quartet_within(lay, spaces, owned, budget):
        return True
    owned_groups = [(group, lay.guilds_of(group)) for group in group_sets(lay, owned)]
    if any(guilds == ALL_GUILDS for _, guilds in owned_groups):
        return True  # no token more
    if budget == 0:
        return False
    if _one_space_joins(lay, spaces & ~owned, owned_groups):
        return True
    if budget == 1:
        return False
    for group in group_sets(lay, spaces):
        if lay.guilds_of(group) != ALL_GUILDS:
            continue
        if (ALL_GUILDS & ~lay.guilds_of(group & owned)).bit_count() > budget:
            continue  # each guild without a token yet needs one more
        members = spaces_of(group)
        if _steiner(lay, members, {s: 0 if owned >> s & 1 else 1 for s in members}) <= budget:
            return True
    return False


def quartet_within(lay: Layout, spaces: int, owned: int, budget: int) -> bool:
    """Whether some quartet among `spaces` (four connected spaces of four different guilds, S-BUILD-1) has at most
    `budget` spaces outside `owned`. `distinct_quartets`' search, cut short: once a partial group has spent the
    budget, only owned spaces are left as choices (each group is still reached by its one path, every space on it
    within the budget), and the first quartet found answers."""
    if budget >= 4:
        return next(distinct_quartets(lay, spaces), None) is not None
    reach, bit, showing = lay.reach, lay.bit, lay.showing
    higher = spaces
    while higher:
        first = higher & -higher
        higher ^= first
        spent1 = 0 if first & owned else 1
        if spent1 > budget:
            continue
        at1 = first.bit_length() - 1
        guilds1 = bit[at1]
        near1 = reach[at1] | first
        choices1 = reach[at1] & higher & ~showing[guilds1]
        if spent1 == budget:
            choices1 &= owned
        while choices1:
            second = choices1 & -choices1
            choices1 ^= second
            spent2 = spent1 if second & owned else spent1 + 1
            at2 = second.bit_length() - 1
            guilds2 = guilds1 | bit[at2]
            near2 = near1 | reach[at2]
            choices2 = (choices1 | reach[at2] & higher & ~near1) & ~showing[guilds2]
            if spent2 == budget:
                choices2 &= owned
            while choices2:
                third = choices2 & -choices2
                choices2 ^= third
                at3 = third.bit_length() - 1
                choices3 = (choices2 | reach[at3] & higher & ~near2) & ~showing[guilds2 | bit[at3]]
                if (spent2 if third & owned else spent2 + 1) == budget:
                    choices3 &= owned
                if choices3:
                    return True
    return False


def _one_space_joins(lay: Layout, others: int, owned_groups: list[tuple[int, int]]) -> bool:
    """Whether one space of `others` and the groups of owned spaces it touches (each with the guilds it shows)
    show all four guilds together."""
    reach, bit = lay.reach, lay.bit
    while others:
        lowest = others & -others
        others ^= lowest
        at = lowest.bit_length() - 1
        near, guilds = reach[at], bit[at]
        for group, shown in owned_groups:
            if group & near:
                guilds |= shown
        if guilds == ALL_GUILDS:
            return True
    return False


def _steiner(lay: Layout, group: list[int], weight: dict[int, int]) -> int:
    """The least total weight of a connected set of spaces of `group` showing all four guilds. cost[mask][s]: the
    least weight of a connected set holding s and showing at least the guilds of `mask`."""
    infinity = 1 << 20
    inside = set(group)
    neighbours = lay.neighbours
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
            for other in neighbours[s]:
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


@memo(LAYOUT_CACHE)  # asked once per state read: the boards `layout` keeps, no more
def buildable_from_start(lay: Layout, starting: int, hint: frozenset[Coord] = frozenset()) -> bool:
    """S-SETUP-2, S-HEX-2: whether some connected set of `starting` of the board's hexagons could have been the
    starting layout, every other hexagon then laid touching at least two already there. Adding hexagons only
    helps, so for a given start the greedy closure decides; `hint` (the service's own start, S-SVC-START) is tried
    first. A set of hexagons is a number here, hexagon h its bit h."""
    near = lay.hexagon_reach
    every = (1 << len(near)) - 1
    if len(near) <= starting:
        return spread(near, every, every & -every) == every

    def closes(start: int) -> bool:
        have, grew = start, True
        while grew:
            grew, rest = False, every & ~have
            while rest:
                lowest = rest & -rest
                rest ^= lowest
                touching = near[lowest.bit_length() - 1] & have
                if touching & (touching - 1):  # two hexagons or more: a bit is left once the lowest is cleared
                    have |= lowest
                    grew = True
        return have == every

    if hint and len(hint) == starting and all(at in lay.index for at in hint):
        start = sum(1 << lay.index[at] for at in hint)
        if spread(near, start, start & -start) == start and closes(start):
            return True
    return any(closes(start) for start in _connected_subsets(near, starting))


def _connected_subsets(near: tuple[int, ...], size: int) -> Iterator[int]:
    """Every connected set of `size` hexagons, each once."""
    seen: set[int] = set()

    def grow(group: int) -> Iterator[int]:
        if group.bit_count() == size:
            if group not in seen:
                seen.add(group)
                yield group
            return
        around = 0
        for h in spaces_of(group):
            around |= near[h]
        for h in spaces_of(around & ~group):
            yield from grow(group | 1 << h)

    for h in range(len(near)):
        yield from grow(1 << h)
