"""Scoring a finished (or any) position: T-SCORE-1..7 and T-SCORE-WIN."""
from __future__ import annotations

from dataclasses import dataclass

from .cards import BLESSING, CAPPELLA, MONUMENTO, RANKS
from .model import COLORFUL, PLAIN, Table

COMPLETION_POINTS = 5  # T-SCORE-1
BLESSING_POINTS = 2  # T-SCORE-2
HIGHEST_POINTS = 10  # T-SCORE-5
MONUMENTO_POINTS = 7  # T-NOB-MON
CAPPELLA_POINTS = 5  # T-NOB-SF
CAPPELLA_HEIGHT = 5
CATEGORIES = ("completion", "blessing", "plain", "colorful", "highest", "monumento", "cappella")


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    categories: dict[str, int]
    plain_ranks_won: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.categories.values())

    def to_json(self) -> dict:
        return {"name": self.name, "categories": dict(self.categories),
                "plain_ranks_won": list(self.plain_ranks_won), "total": self.total}


@dataclass(frozen=True, slots=True)
class Score:
    players: tuple[PlayerScore, PlayerScore]
    winner: int | None
    decided_by: str  # points | highest | draw

    def to_json(self) -> dict:
        return {"players": [p.to_json() for p in self.players], "winner": self.winner,
                "decided_by": self.decided_by}


CLOSE_PENALTY = -10  # T-SCORE-DEALS


def _tallest_plain(towers) -> dict[int, int]:
    """The height of the tallest plain tower of each rank (0: none), for T-SCORE-3."""
    tallest = dict.fromkeys(RANKS, 0)
    for t in towers:
        if t.kind == PLAIN and t.rank in tallest and t.height > tallest[t.rank]:
            tallest[t.rank] = t.height
    return tallest


def score_table(table: Table, *, several_deals: bool = False) -> Score:
    """The deal's score. With `several_deals` (T-SCORE-DEALS), a player who called Close and did not win the
    deal gets the close_penalty category (the deal's winner is decided before it; totals include it, so they
    add up across deals)."""
    tallest_plain = [_tallest_plain(towers) for towers in table.towers]
    scores = []
    for i, towers in enumerate(table.towers):
        mine, theirs = tallest_plain[i], tallest_plain[1 - i]
        won = tuple(rank for rank in RANKS  # T-SCORE-3: the tallest plain tower of the rank; ties score both
                    if mine[rank] and mine[rank] >= theirs[rank])
        completed = blessing_stories = colorful_towers = colorful_stories = five_high = 0
        for t in towers:  # (one walk over the towers tallies every category)
            height = t.height
            if t.complete:
                completed += 1  # T-SCORE-1
            if t.kind == PLAIN and t.rank == BLESSING:
                blessing_stories += height  # T-SCORE-2, T-DON-7
            elif t.kind == COLORFUL:
                colorful_towers += 1  # T-SCORE-4
                colorful_stories += height
            if height >= CAPPELLA_HEIGHT:
                five_high += 1  # T-NOB-SF
        played = table.played[i]
        categories = {
            "completion": COMPLETION_POINTS * completed,  # T-SCORE-1
            "blessing": BLESSING_POINTS * blessing_stories,  # T-SCORE-2, T-DON-7
            "plain": sum(won),
            "colorful": colorful_towers * colorful_stories,  # T-SCORE-4
            "highest": HIGHEST_POINTS if table.highest == i else 0,  # T-SCORE-5
            "monumento": MONUMENTO_POINTS if MONUMENTO in played else 0,  # T-SCORE-6, T-NOB-MON
            "cappella": CAPPELLA_POINTS * five_high if CAPPELLA in played else 0,  # T-NOB-SF
        }
        scores.append(PlayerScore(table.names[i], categories, won))
    first, second = scores
    if first.total != second.total:  # T-SCORE-WIN
        winner, decided_by = (0 if first.total > second.total else 1), "points"
    elif table.highest is not None:
        winner, decided_by = table.highest, "highest"
    else:
        winner, decided_by = None, "draw"
    if several_deals:
        for i, player_score in enumerate(scores):
            penalty = CLOSE_PENALTY if table.closed_by == i and winner != i else 0
            player_score.categories["close_penalty"] = penalty
    return Score((scores[0], scores[1]), winner, decided_by)
