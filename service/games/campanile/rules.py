"""The rule catalogue served to referees: the rule book's ids and texts, plus the service's own rulings.

The service's rulings (C-SVC-*) settle what the rule book leaves to the referee when a whole game is played
through an API: unknown cards, what the state records, hand sizes, passing, and scoring an unfinished game.
"""
from __future__ import annotations

from ..core.catalogue import Rule, rule_book
from .catalogue_data import BOOK

# Bump when any rule's effect changes: cached answers are keyed by it, so none outlives a rules change.
RULES_VERSION = "campanile-1"

SECTION = "Service rulings"

SERVICE_RULINGS: list[tuple[str, str, str, str, bool]] = [
    ("C-SVC-HAND", SECTION, "Hands have no order",
     "A hand and the removed cards are sets of cards: the service lists them sorted (A to E). Piles keep their "
     "order, top first, and the tokens under a tower the order in which they were placed (C-TURN-BET).", True),
    ("C-SVC-REMOVED", SECTION, "What \"removed\" holds",
     "\"removed\" lists the cards of C-SETUP-2 that do not divide evenly into the piles: none with 2 players, 1 with "
     "3, 2 with 4, 1 with 5. The cards set aside by C-SETUP-1 are out of the game and not listed: with 2, 3, 4 or 5 "
     "players each style has 9, 11, 13 or 14 cards in play, and C-COMP-5 counts those.", True),
    ("C-SVC-UNKNOWN", SECTION, "Unknown cards",
     "A hand, the removed cards and a pile below its face-up top may be given as a count of unknown cards (a hand "
     "or the removed cards with any known ones). Playing from an unknown hand names the card; a draw from a pile "
     "whose next card is unknown names the card turned face up (\"reveals\"). Either is legal only if such a card "
     "can still be unaccounted for (C-COMP-5). A draw whose next card is known, or that takes a pile's last card, "
     "names nothing. A player's view shows their own hand, the towers, tokens, supplies and the face-up tops; the "
     "rest becomes counts.", True),
    ("C-SVC-STEP", SECTION, "The step due",
     "A turn is three explicit steps, in order: play, then bet or no_bet, then draw; the service makes no choice "
     "for a player even when only one exists. The state records the step due (\"step\": play, bet, draw, or over "
     "once the game has ended) and, during the bet and draw steps, \"last_play\": the tower just played and the "
     "stories added, which is the last entry of that tower's plays. Otherwise last_play is null.", True),
    ("C-SVC-HANDS", SECTION, "Hand sizes",
     "A hand holds at most 3 cards, and at most 2 for the player who has played this turn but not yet drawn: more "
     "is an invalid state. Fewer cannot happen in normal play; a state that shows it is valid, with a warning "
     "(such a player passes, C-TURN-END).", True),
    ("C-SVC-PASS", SECTION, "Passing",
     "The pass of C-TURN-END is an explicit pass step, legal only at the play step of a player with no card in "
     "hand; the turn then goes to the next player. If after a pass no player holds a card, nobody can ever play "
     "again: the game ends at once and is scored as it stands.", True),
    ("C-SVC-SCORE", SECTION, "Scoring",
     "Any state can be scored: an unfinished one as if the game ended now. A finished table (the players' names "
     "and the five towers with their plays and tokens) is checked for C-COMP-4 and C-COMP-5 and scored the same "
     "way. The score lists each tower's height, rank (ties of C-END-2 marked) and flag, its bettors' totals in "
     "rank order, who took the large and small numbers and why (their total alone, or the tie-break of C-END-3), "
     "and each player's points by tower and total; \"winners\" lists every player with the most points "
     "(C-END-4).", True),
]


RULES, RULES_BY_ID = rule_book(BOOK + SERVICE_RULINGS)


__all__ = ["RULES", "RULES_BY_ID", "RULES_VERSION", "SERVICE_RULINGS", "Rule"]
