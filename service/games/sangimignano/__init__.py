"""San Gimignano (Duilio Carpitella, Piatnik 2002; 2 to 4 players): hexagons, guilds and towers, the complete rules
as a pure library (no web, no cache, no I/O).

    >>> from service.games import sangimignano
    >>> state = sangimignano.new_game(seed=7, names=["Ada", "Bea"])
    >>> state.step, len(state.board), [p.hand_size for p in state.players]
    ('token', 2, [4, 4])
    >>> step = sangimignano.legal_steps(state)[0]
    >>> outcome = sangimignano.apply_steps(state, [step])
    >>> outcome.legal, outcome.state.step
    (True, 'hex')
"""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem
from .catalogue import RULES, RULES_BY_ID, RULES_VERSION, Rule
from .engine import apply_step, buildable, legal_steps, possible_group, stuck
from .game import GAME, Outcome, apply_steps, as_step, default_hexes, legal_moves, new_game, player_view, score, to_act
from .geometry import GUILDS, KINDS, Layout, Placed, layout
from .model import (
    BUILD,
    HEX,
    HEXAGONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PLAY,
    SETUP,
    TOKEN,
    TOKENS,
    TOWERS,
    Player,
    State,
)
from .position import state_json
from .schemas import parse_step, read_state, validate_state
from .scoring import PlayerScore, Score, score_state
from .steps import Step, hex_step

SanGimignanoError = GameError  # every game's errors are the shared ones (one base, mapped once at the HTTP boundary)

GAME_ID = "sangimignano"

__all__ = [
    "GAME", "BUILD", "GAME_ID", "GUILDS", "HEX", "HEXAGONS", "KINDS", "MAX_PLAYERS", "MIN_PLAYERS", "OVER", "PLAY",
    "RULES",
    "RULES_BY_ID", "RULES_VERSION", "SETUP", "TOKEN", "TOKENS", "TOWERS", "GameError", "IllegalStepError",
    "InvalidStateError", "Layout", "MalformedError", "Outcome", "Placed", "Player", "PlayerScore", "Problem", "Rule",
    "SanGimignanoError", "Score", "State", "Step", "apply_step", "apply_steps", "as_step", "buildable",
    "default_hexes", "hex_step", "layout", "legal_moves", "legal_steps", "new_game", "parse_step", "player_view",
    "possible_group", "read_state", "score", "score_state", "state_json", "stuck", "to_act", "validate_state",
]
