"""Campanile (Hanno & Wilfried Kuhn, 1996; 2 to 5 players): the complete rules as a pure library (no web, no
cache, no I/O).

    >>> from service.games import campanile
    >>> state = campanile.new_game(seed=7, names=["Ada", "Bea", "Cy"])
    >>> [m["type"] for m in campanile.legal_moves(state)][:1]
    ['play']
    >>> step = campanile.legal_steps(state)[0]
    >>> outcome = campanile.apply_steps(state, [step, {"type": "no_bet"}, {"type": "draw"}])
    >>> outcome.legal, outcome.state.turn, outcome.state.step
    (True, 1, 'play')
"""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem
from .cards import (
    CARDS_PER_STYLE,
    FLAGS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SETUP_REMOVED,
    STYLES,
    TOKENS,
    cards_in_play,
    full_deck,
    in_play_per_style,
    leftover,
    pile_size,
)
from .catalogue import RULES, RULES_BY_ID, RULES_VERSION, Rule
from .engine import apply_step, known_cards, legal_steps, missing_cards
from .game import GAME, Outcome, apply_steps, legal_moves, new_game, player_view, score, score_table_json, to_act
from .model import BET, DRAW, OVER, PLAY, LastPlay, Pile, Player, State, Table, Token, Tower
from .position import state_json, table_json, table_of
from .schemas import parse_step, read_state, read_table, validate_state
from .scoring import Score, score_state, score_table
from .steps import Step

CampanileError = GameError  # every game's errors are the shared ones (one base, mapped once at the HTTP boundary)

GAME_ID = "campanile"

__all__ = [
    "GAME", "BET", "CARDS_PER_STYLE", "DRAW", "FLAGS", "GAME_ID", "HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "OVER",
    "PLAY",
    "RULES", "RULES_BY_ID", "RULES_VERSION", "SETUP_REMOVED", "STYLES", "TOKENS", "CampanileError", "GameError",
    "IllegalStepError", "InvalidStateError", "LastPlay", "MalformedError", "Outcome", "Pile", "Player", "Problem",
    "Rule", "Score", "State", "Step", "Table", "Token", "Tower", "apply_step", "apply_steps", "cards_in_play",
    "full_deck", "in_play_per_style", "known_cards", "legal_moves", "legal_steps", "leftover", "missing_cards",
    "new_game", "parse_step", "pile_size", "player_view", "read_state", "read_table", "score", "score_state",
    "score_table", "score_table_json", "state_json", "table_json", "table_of", "to_act", "validate_state",
]
