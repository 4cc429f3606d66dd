"""A Torri score for people: the breakdown as a table, a row per category and a column per player, the totals,
and who won and why (what the command line prints), in the language asked for."""
from __future__ import annotations

from typing import Any, Sequence

from ..core.errors import Problem
from ..core.language import DEFAULT, said
from .messages import tr, tr_p
from .scoring import CATEGORIES, Score

# Translators: the score table's rows (the command line's): a category of points (T-SCORE), short, lower case
LABELS = {
    "completion": tr_p("category", "completion"),
    "blessing": tr_p("category", "blessing"),
    "plain": tr_p("category", "plain"),
    "colorful": tr_p("category", "colorful"),
    "highest": tr_p("category", "highest"),
    "monumento": tr_p("category", "monumento"),
    "cappella": tr_p("category", "cappella"),
}
# Translators: the score table's row of each player's total points
TOTAL = tr_p("category", "total")
# Translators: the score table's row of the ranks whose plain-tower points each player won (T-SCORE-3)
PLAIN_RANKS_WON = tr_p("category", "plain ranks won")


def score_lines(score: Score, warnings: Sequence[Problem] = (), language: str = DEFAULT) -> list[str]:
    """The breakdown as a readable table: a row per category, a column per player; totals; winner and why."""
    players = score.players
    names = [p.name if len(p.name) <= 24 else p.name[:23] + "…" for p in players]
    widths = [max(len(name), 8) for name in names]
    labels = {category: said(LABELS.get(category, category), language) for category in CATEGORIES}
    total, ranks_won = said(TOTAL, language), said(PLAIN_RANKS_WON, language)
    label_width = max(len(label) for label in (*labels.values(), total, ranks_won))

    def row(label: str, cells: list[str]) -> str:
        return f"{label:<{label_width}}  " + "  ".join(f"{cell:>{w}}" for cell, w in zip(cells, widths))

    return [row("", names),
            *(row(labels[category], [str(p.categories[category]) for p in players]) for category in CATEGORIES),
            row("-" * label_width, ["-" * w for w in widths]),
            row(total, [str(p.total) for p in players]),
            row(ranks_won, [" ".join(map(str, p.plain_ranks_won)) or "-" for p in players]),
            "",
            said(verdict(score), language),
            *(said(tr("warning: {message}", message=warning.message), language) for warning in warnings)]


def verdict(score: Any) -> str:
    """Who won and why (T-SCORE-WIN), in one sentence."""
    first, second = score.players
    if score.winner is None:
        return tr("A draw: {first} to {second}, and nobody holds the Highest marker to break the tie.",
                  first=first.total, second=second.total)
    won, lost = score.players[score.winner], score.players[1 - score.winner]
    if score.decided_by == "points":
        return tr("{player} wins on points, {won} to {lost}.", player=won.name, won=won.total, lost=lost.total)
    return tr("{player} wins: {won} to {lost} is a tie, and a tie goes to the holder of the Highest marker "
              "(T-SCORE-WIN).", player=won.name, won=won.total, lost=lost.total)


__all__ = ["score_lines", "verdict"]
