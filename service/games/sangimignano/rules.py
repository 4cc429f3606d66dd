"""The rule catalogue served to referees: the rule book's ids and texts, plus the service's own rulings.

The book's rulings (S-SVC-TILES, S-SVC-START, S-SVC-SKIP, S-SVC-NOFIT, S-SVC-STUCK) come with it; the rulings below
settle what a whole game played through an API needs besides: the canonical form, unknown hands, the phase the
state records, which boards are valid, and scoring an unfinished game.
"""
from __future__ import annotations

from ..core.catalogue import Rule, rule_book
from .catalogue_data import BOOK

# Bump when any rule's effect changes: cached answers are keyed by it, so none outlives a rules change.
RULES_VERSION = "sangimignano-2"

SECTION = "Service rulings"

SERVICE_RULINGS: list[tuple[str, str, str, str, bool]] = [
    ("S-SVC-FORM", SECTION, "One way to write a position",
     "The service writes a hexagon on the board with rotation 0 or 1 and its guilds (and their tokens and towers) "
     "turned to match (S-GEO-2); the board sorted by coordinates [q, r]; a hexagon in hand, which has no rotation, "
     "from its first guild in A-D order ([\"C\", \"A\", \"B\"] is [\"A\", \"B\", \"C\"]), hands sorted; the players on "
     "a space sorted. A hex step is read the same way: the hexagon as its kind, the rotation adjusted to lay it "
     "alike, so every spelling of one placement is one step. A player's tokens and towers in supply may be left "
     "out: they are then what conservation (S-COMP-4) leaves.", True),
    ("S-SVC-UNKNOWN", SECTION, "Unknown hands",
     "A hand may be given as {\"count\": n} when its hexagons are unknown; a player's view shows their own hand and "
     "the other hands as counts (the board, tokens, towers and supplies are public). A hex step from an unknown hand "
     "names the hexagon laid, any three different guilds. Because the service cannot know whether such a hand "
     "fits (S-SVC-NOFIT), its player may answer the hexagon phase with an end step, \"none of my hexagons fits\"; "
     "the phase passes by itself only when no hexagon of any kind fits. For S-SVC-STUCK an unknown hand counts as "
     "holding a hexagon that fits whenever some kind fits; a state that says the game is over is not contradicted "
     "by an unknown hand (it may hold none that fits).", True),
    ("S-SVC-STEP", SECTION, "The phase due",
     "The state records the player to act (turn) and the phase due (step: token, hex or build), and phase \"over\" "
     "with step null once the game has ended. Phases without a choice pass by themselves with a skipped event "
     "(S-SVC-SKIP, S-SVC-NOFIT, no hexagon left, no tower possible), whole turns too, so a state whose phase offers "
     "its player no choice is invalid. A state is also invalid while a player has built ten towers (S-END-1) and "
     "the game is not over, at a turn's start once S-SVC-STUCK holds, or \"over\" when neither holds.", True),
    ("S-SVC-LAYOUT", SECTION, "Which boards are valid",
     "A state does not record which hexagons started the game. A board is valid when its hexagons lie one to a "
     "place, no two spaces of one guild share a side, and some connected set of as many hexagons as the player "
     "count starts with (S-SETUP-1) could have been the starting layout, every other hexagon then laid touching at "
     "least two already there (S-HEX-2). The hexagons back in the box are a count: 6, 4 or 0 (S-SETUP-1).", True),
    ("S-SVC-EDGE", SECTION, "The table's edge",
     "A place is [q, r] with both coordinates from -64 to 64, far more room than 16 hexagons need anywhere near "
     "[0, 0]. A hexagon lies and is laid only on a place: a free cell beyond the edge is not offered and not "
     "accepted (S-HEX-2), and a hexagon that could go only there fits nowhere (S-SVC-NOFIT).", True),
    ("S-SVC-SCORE", SECTION, "Scoring",
     "Any state can be scored: an unfinished one as if the game ended now. The score lists each player's towers on "
     "the board and tokens on guild spaces, the winners, and what decided it: towers, tokens (S-END-3's tie-break) "
     "or shared.", True),
]


RULES, RULES_BY_ID = rule_book(BOOK + SERVICE_RULINGS)


__all__ = ["RULES", "RULES_BY_ID", "RULES_VERSION", "SERVICE_RULINGS", "Rule"]
