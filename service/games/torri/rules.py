"""The rule catalogue served to referees: the rule book's ids and texts, plus the service's own rulings.

The service's rulings (T-SVC-*) settle what the rule book leaves to the referee when a whole game is played
through an API: unknown cards, the order of a hand, and who acts when.
"""
from __future__ import annotations

from ..core.catalogue import Rule, rule_book
from .catalogue_data import BOOK

# Bump when any rule's effect changes: cached answers are keyed by it, so none outlives a rules change.
RULES_VERSION = "torri-3"

SERVICE_RULINGS: list[tuple[str, str, str, str, bool]] = [
    ("T-SVC-HAND", "Service rulings", "Hands and market have no order",
     "A hand and the market are sets of cards: the service lists them sorted (5 to 10, then nobles), and a "
     "Trade's take positions count in that sorted hand.", True),
    ("T-SVC-UNKNOWN", "Service rulings", "Unknown cards",
     "A deck or hand may be given as a count of unknown cards (with any known ones). A step that reveals an "
     "unknown card names it (a draw, a market refill, a Guard, a take), and is legal only if such a card can "
     "still be unaccounted for (T-COMP-4).", True),
    ("T-SVC-REFILL", "Service rulings", "Naming a refill",
     "When the market refills from a deck whose top is unknown, the acting player names the cards turned up "
     "(a refill step) before the turn passes (T-MKT-1).", True),
    ("T-SVC-MARKER", "Service rulings", "Reading the marker rule",
     "T-HIGH-2 is applied as written: after a Build or Extend, if the acting player's tallest tower is taller "
     "than every other tower on the table, that player takes the marker. Once any tower is built, somebody "
     "holds the marker.", True),
    ("T-SVC-LIMIT", "Service rulings", "When the noble limit is checked",
     "T-NOB-LIMIT is checked whenever a noble is played (Buona Pietra in a build or extension, an action noble, "
     "Giostra). It is not a property of a position: Giostra can leave its player two ahead, and a destroyed "
     "tower's Buona Pietra stops counting, so a valid state may show a larger gap.", True),
    ("T-SVC-REBUILD", "Service rulings", "After Giostra cancels Buona Pietra",
     "The builder either builds (or extends the same tower) with exactly the remaining cards, in any legal "
     "arrangement, or sends a stop step to take them back into hand. Either way the turn then ends as the move "
     "would have (a rebuilt plain 8, 9 or 10 still brings its Donazione).", True),
    ("T-SVC-STANDIN", "Service rulings", "Buona Pietra as 11 and 4",
     "In a colorful tower a Buona Pietra may stand for 11 only as the bottom story, under a story standing for 10 "
     "(a 10, or another Buona Pietra), and for 4 only as the top story, over a story standing for 5. So a "
     "colorful tower runs at most from 11 down to 4: 8 stories.", True),
    ("T-SVC-LIST", "Service rulings", "Listing legal steps",
     "The service lists at most 10,000 legal steps in one answer. With unknown hands the choices multiply (every "
     "set of cards the hand might hold); such a position is answered with this rule instead of a list, and "
     "naming more of the cards, or asking with a player's view, gives a list.", True),
    ("T-SVC-DEALS", "Service rulings", "Scoring one deal of several",
     "The service scores one deal at a time (it keeps nothing between requests). Asked to score a deal of a "
     "several-deal game (several_deals), it adds a close_penalty category: -10 for the player who called Close "
     "(closed_by) if that player did not win the deal, the winner being decided before the penalty; 0 otherwise. "
     "Adding up the deals' totals is the caller's.", True),
    ("T-SVC-EMPTY", "Service rulings", "Nothing to take or give",
     "A Trade against an empty hand takes nothing, and a Trade whose builder then holds no card gives nothing: "
     "those steps are skipped rather than asked for.", True),
]


RULES, RULES_BY_ID = rule_book(BOOK + SERVICE_RULINGS)


__all__ = ["RULES", "RULES_BY_ID", "RULES_VERSION", "SERVICE_RULINGS", "Rule"]
