"""The rule catalogue served to referees: the rule book's ids and texts, plus the service's own rulings.

The service's rulings (K-SVC-*) settle what the rule book leaves to the referee when a whole game is played
through an API: the steps of a turn, the bag, the state's bookkeeping, and scoring a state at any time.
"""
from __future__ import annotations

from ..core.catalogue import Rule, rule_book
from .catalogue_data import BOOK

# Bump when any rule's effect changes: cached answers are keyed by it, so none outlives a rules change.
RULES_VERSION = "carcassonne-4"

SECTION = "Service rulings"

SERVICE_RULINGS: list[tuple[str, str, str, str, bool]] = [
    ("K-SVC-STEP", SECTION, "The steps of a turn",
     "A turn is explicit steps, in order: place (or discard, then place again), then one action: meeple, floor, "
     "tower_meeple or skip; after a floor, capture or skip, even when no meeple is in reach. The service makes no "
     "choice for a player. The state records the step due (\"step\"), the square of the tile placed this turn "
     "(\"last\", during the action and capture steps) and the tower a floor was just put on (\"raised\", during "
     "the capture step only). Scoring (K-SCORE) happens when the turn ends: after the action, or after the capture "
     "step, so a meeple captured from a feature the tile completed scores nothing.", True),
    ("K-SVC-BAG", SECTION, "The bag",
     "The bag is a list of tile ids, next first, or {\"count\": n} when the order is unknown (a referee at a real "
     "table). With a list, the tile drawn is its first and a place or discard step may leave out \"tile\" (the "
     "legal list names it); with a count, the step names the tile drawn, and it must be a tile neither on the "
     "board nor discarded (K-COMP-3); the legal list then gives the placements of every tile still unplaced. A "
     "player's view shows the bag as a count.", True),
    ("K-SVC-DISCARD", SECTION, "The last tile discarded",
     "If the last tile of the bag fits nowhere, it is discarded and the game ends at once (K-END-1).", True),
    ("K-SVC-SCORE", SECTION, "Scoring a state",
     "The players' scores in a state are the score track: the points scored during play (K-SCORE) and ransoms. "
     "When the game ends the end scoring (K-END-2, K-END-3) is reported in the game_over event but not added to "
     "the track, so a finished table photographed before the end scoring and the state the service reaches are "
     "the same. /score on any state, finished or not, gives the track plus the end scoring of every feature that "
     "holds a meeple, per player and per category (roads, cities, cloisters, fields), and each such feature with "
     "its tiles, pennants, meeples, points and winners. A feature already complete but not yet scored (during the "
     "action or capture step) counts at its full value (K-SCORE-ROAD, K-SCORE-CITY, K-SCORE-CLOISTER). Meeples on "
     "towers and prisoners score nothing (K-TOW-SCORE).", True),
    ("K-SVC-FIELD", SECTION, "A field touching a city more than once",
     "A field counts each complete city it touches once, however many of its segments touch that city (K-END-3). "
     "A city touched by several fields counts for each of them.", True),
    ("K-SVC-TOWER", SECTION, "Towers in the state",
     "\"towers\" lists the towers with at least one floor: a foundation without floors is no tower. A tower whose "
     "top meeple is captured has no meeple on top any more and may take floors again (the seed's note on a "
     "tower emptied by a capture). The bridge tile's tower foundation and every other foundation take floors "
     "only; a meeple never stands on a foundation.", True),
    ("K-SVC-SUPPLY", SECTION, "Supplies left out",
     "A player's \"supply\" may be left out: it is then what conservation leaves (K-COMP-3: 7 less the meeples on "
     "the board, on tower tops and held by others). Given, it must agree. The canonical form always has it.", True),
]


RULES, RULES_BY_ID = rule_book(BOOK + SERVICE_RULINGS)


__all__ = ["RULES", "RULES_BY_ID", "RULES_VERSION", "SERVICE_RULINGS", "Rule"]
