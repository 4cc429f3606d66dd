"""Scoring (C-END-2, C-END-3, C-END-4): flags by tower height, points by token totals, the winner(s).

Any state can be scored: an unfinished one is scored as if the game ended now (C-SVC-SCORE).
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import FLAGS, TOKEN_VALUES
from .model import State, Table, Tower


@dataclass(frozen=True, slots=True)
class Standing:
    """One bettor under one tower: the total of their tokens, and the index (in the tower's tokens) of the first
    one they placed (C-END-3's tie-break)."""

    player: int
    total: int
    first: int
    points: int

    def to_json(self) -> dict:
        return {"player": self.player, "total": self.total, "first_token": self.first, "points": self.points}


@dataclass(frozen=True, slots=True)
class Award:
    """Who took a flag's large or small number, and why: `total` (no other bettor had the same total),
    `placed_first` (an equal total below, beaten by placing a token first, C-END-3) or `placed_later` (an equal total
    above, which placed a token first)."""

    player: int
    points: int
    total: int
    reason: str

    def to_json(self) -> dict:
        return {"player": self.player, "points": self.points, "total": self.total, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class TowerScore:
    position: int
    style: str
    height: int
    cards: int
    rank: int  # 1 = tallest (C-END-2)
    tied_with: tuple[int, ...]  # positions of the other towers of the same height
    flag: tuple[int, int] | None
    standings: tuple[Standing, ...]
    large: Award | None
    small: Award | None

    def to_json(self) -> dict:
        return {
            "position": self.position,
            "style": self.style,
            "height": self.height,
            "cards": self.cards,
            "rank": self.rank,
            "ranked_by": "position" if self.tied_with else "height",
            "tied_with": list(self.tied_with),
            "flag": None if self.flag is None else {"large": self.flag[0], "small": self.flag[1]},
            "standings": [s.to_json() for s in self.standings],
            "large": None if self.large is None else self.large.to_json(),
            "small": None if self.small is None else self.small.to_json(),
        }


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    towers: tuple[int, ...]  # points from each tower, by position
    supply: tuple[int, int, int]  # tokens left unplaced: they score nothing (C-END-4)

    @property
    def total(self) -> int:
        return sum(self.towers)

    def to_json(self) -> dict:
        return {"name": self.name, "towers": list(self.towers), "total": self.total,
                "supply": {str(v): self.supply[v - 1] for v in TOKEN_VALUES}}


@dataclass(frozen=True, slots=True)
class Score:
    towers: tuple[TowerScore, ...]
    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def decided_by(self) -> str:
        return "points" if len(self.winners) == 1 else "shared"

    def to_json(self) -> dict:
        return {"towers": [t.to_json() for t in self.towers], "players": [p.to_json() for p in self.players],
                "winners": list(self.winners), "winner": self.winner, "decided_by": self.decided_by}


def tower_order(towers: tuple[Tower, ...]) -> list[int]:
    """C-END-2: positions from the tallest tower down; equal heights: the tower nearer the piles first."""
    return sorted(range(len(towers)), key=lambda i: (-towers[i].height, i))


def standings(tower: Tower) -> list[tuple[int, int, int]]:
    """C-END-3: (player, total, first token index) of every bettor, best first; equal totals: who placed a token
    under the tower first ranks higher. A player with no token under it is not listed (scores nothing)."""
    totals: dict[int, int] = {}
    first: dict[int, int] = {}
    for index, token in enumerate(tower.tokens):
        totals[token.player] = totals.get(token.player, 0) + token.value
        first.setdefault(token.player, index)
    return sorted(((p, totals[p], first[p]) for p in totals), key=lambda row: (-row[1], row[2]))


def _reason(rows: list[tuple[int, int, int]], place: int) -> str:
    total = rows[place][1]
    if place + 1 < len(rows) and rows[place + 1][1] == total:
        return "placed_first"  # beat an equal total below by the earlier first token
    if place > 0 and rows[place - 1][1] == total:
        return "placed_later"  # an equal total above placed first
    return "total"


def score_towers(names: tuple[str, ...], towers: tuple[Tower, ...],
                 supplies: tuple[tuple[int, int, int], ...]) -> Score:
    points = [[0] * len(towers) for _ in names]
    order = tower_order(towers)
    results: dict[int, TowerScore] = {}
    for rank, position in enumerate(order, start=1):
        tower = towers[position]
        flag = FLAGS[rank - 1] if rank <= len(FLAGS) else None  # the lowest tower gets nothing
        rows = standings(tower)
        awarded: list[Award | None] = [None, None]
        table: list[Standing] = []
        for place, (player, total, first) in enumerate(rows):
            got = flag[place] if flag is not None and place < 2 else 0
            table.append(Standing(player, total, first, got))
            if flag is not None and place < 2:
                awarded[place] = Award(player, got, total, _reason(rows, place))
                points[player][position] += got
        same = tuple(i for i in range(len(towers)) if i != position and towers[i].height == tower.height)
        results[position] = TowerScore(position, tower.style, tower.height, tower.cards, rank, same, flag,
                                       tuple(table), awarded[0], awarded[1])
    players = tuple(PlayerScore(name, tuple(points[i]), supplies[i]) for i, name in enumerate(names))
    best = max(p.total for p in players)
    winners = tuple(i for i, p in enumerate(players) if p.total == best)  # C-END-4: equal points share the win
    return Score(tuple(results[i] for i in range(len(towers))), players, winners)


def score_state(state: State) -> Score:
    return score_towers(tuple(p.name for p in state.players), state.towers, tuple(p.supply for p in state.players))


def score_table(table: Table) -> Score:
    from .cards import TOKENS
    supplies = []
    for index in range(len(table.names)):
        placed = [0, 0, 0]
        for tower in table.towers:
            for token in tower.tokens:
                if token.player == index:
                    placed[token.value - 1] += 1
        supplies.append(tuple(TOKENS[v] - placed[v - 1] for v in TOKEN_VALUES))
    return score_towers(table.names, table.towers, tuple(supplies))  # type: ignore[arg-type]
