"""Le Torri di San Gimignano: the complete rules as a pure library (no web, no cache, no I/O).

    >>> from service.games import torri
    >>> state = torri.new_game(seed=7)
    >>> [m["type"] for m in torri.legal_moves(state)][:2]
    ['purchase', 'exchange']
    >>> outcome = torri.apply_steps(state, [{"type": "purchase"}, {"type": "draw", "from": "deck"}])
    >>> outcome.legal, outcome.state.pending.left
    (True, 1)
"""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem
from .cards import CARD_NAMES, CARDS_BY_NAME, NOBLE_NAMES, NOBLES, RANKS
from .catalogue import RULES, RULES_BY_ID, RULES_VERSION, Rule
from .engine import TooManyStepsError, apply_step, canonical_step, legal_steps, missing_cards, nobles_used
from .game import GAME, Outcome, apply_steps, legal_moves, new_game, player_view, score, score_table_json
from .model import COLORFUL, ENDING, MAIN, OVER, PLAIN, Pending, Player, State, Table, Tower
from .position import state_json, table_json
from .schemas import PENDING_TYPES, parse_step, read_state, read_table, validate_state
from .scoring import CATEGORIES, PlayerScore, Score, score_table
from .steps import MAX_CARDS_IN_STEP, Step

TorriError = GameError  # every game's errors are the shared ones (one base, mapped once at the HTTP boundary)

GAME_ID = "torri"

__all__ = [
    "GAME", "CARD_NAMES", "CARDS_BY_NAME", "CATEGORIES", "COLORFUL", "ENDING", "GAME_ID", "MAIN", "MAX_CARDS_IN_STEP",
    "NOBLE_NAMES", "NOBLES", "OVER", "PENDING_TYPES", "PLAIN", "RANKS", "RULES", "RULES_BY_ID", "RULES_VERSION",
    "GameError", "IllegalStepError", "InvalidStateError", "MalformedError", "Outcome", "Pending", "Player",
    "PlayerScore", "Problem", "Rule", "Score", "State", "Step", "TooManyStepsError", "Table", "TorriError", "Tower",
    "apply_step", "apply_steps", "canonical_step", "legal_moves", "legal_steps", "nobles_used", "missing_cards",
    "new_game", "parse_step", "player_view", "read_state", "read_table",
    "score", "score_table", "score_table_json", "state_json", "table_json", "validate_state",
]
