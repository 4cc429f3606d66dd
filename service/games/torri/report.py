"""A Torri score for people: the breakdown as a table, a row per category and a column per player, the totals,
and who won and why (what the command line prints)."""
from __future__ import annotations

from typing import Sequence

from ..core.errors import Problem
from .scoring import CATEGORIES, Score


def score_lines(score: Score, warnings: Sequence[Problem] = ()) -> list[str]:
    """The breakdown as a readable table: a row per category, a column per player; totals; winner and why."""
    players = score.players
    names = [p.name if len(p.name) <= 24 else p.name[:23] + "…" for p in players]
    widths = [max(len(name), 8) for name in names]
    label_width = max(len(c) for c in (*CATEGORIES, "plain ranks won"))

    def row(label: str, cells: list[str]) -> str:
        return f"{label:<{label_width}}  " + "  ".join(f"{cell:>{w}}" for cell, w in zip(cells, widths))

    return [row("", names),
            *(row(category, [str(p.categories[category]) for p in players]) for category in CATEGORIES),
            row("-" * label_width, ["-" * w for w in widths]),
            row("total", [str(p.total) for p in players]),
            row("plain ranks won", [" ".join(map(str, p.plain_ranks_won)) or "-" for p in players]),
            "",
            verdict(score),
            *(f"warning: {warning.message}" for warning in warnings)]


def verdict(score: Any) -> str:
    """Who won and why (T-SCORE-WIN), in one sentence."""
    first, second = score.players
    if score.winner is None:
        return f"A draw: {first.total} to {second.total}, and nobody holds the Highest marker to break the tie."
    won, lost = score.players[score.winner], score.players[1 - score.winner]
    if score.decided_by == "points":
        return f"{won.name} wins on points, {won.total} to {lost.total}."
    return (f"{won.name} wins: {won.total} to {lost.total} is a tie, and a tie goes to the holder of the Highest "
            "marker (T-SCORE-WIN).")


__all__ = ["score_lines", "verdict"]
