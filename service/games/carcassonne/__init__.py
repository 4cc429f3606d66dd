"""Carcassonne (Klaus-Jürgen Wrede, 2000; 2 to 5 players) with The Tower as a variant: the complete rules as a
pure library (no web, no cache, no I/O).

    >>> from service.games import carcassonne
    >>> state = carcassonne.new_game(seed=7, names=["Ada", "Bea"])
    >>> step = carcassonne.legal_steps(state)[0]
    >>> outcome = carcassonne.apply_steps(state, [step, {"type": "skip"}])
    >>> outcome.legal, outcome.state.turn, outcome.state.step.value
    (True, 1, 'place')
"""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem
from .board import BoardIndex, Group
from .catalogue import RULES, RULES_BY_ID, RULES_VERSION, Rule
from .engine import apply_step, captures, drawable, legal_steps, reach, unplaced
from .game import GAME, GAME_ID, Outcome, apply_steps, legal_moves, new_game, player_view, score, to_act
from .model import (
                    FLOORS,
                    MAX_PLAYERS,
                    MEEPLES,
                    MIN_PLAYERS,
                    RANSOM,
                    Bag,
                    Meeple,
                    Phase,
                    Placement,
                    Player,
                    State,
                    StepDue,
                    Tower,
)
from .position import state_json
from .schemas import parse_step, read_state, validate_state
from .scoring import Score, score_state
from .steps import Step
from .tiles import FACES, START_TILE, Face, Kind, Segment, face, full_set, tile_counts

CarcassonneError = GameError  # every game's errors are the shared ones (one base, mapped once at the HTTP boundary)

__all__ = [
    "GAME", "FACES", "FLOORS", "GAME_ID", "MAX_PLAYERS", "MEEPLES", "MIN_PLAYERS", "RANSOM", "RULES", "RULES_BY_ID",
    "RULES_VERSION", "START_TILE", "Bag", "BoardIndex", "CarcassonneError", "Face", "GameError", "Group",
    "IllegalStepError", "InvalidStateError", "Kind", "MalformedError", "Meeple", "Outcome", "Phase", "Placement",
    "Player", "Problem", "Rule", "Score", "Segment", "State", "Step", "StepDue", "Tower", "apply_step",
    "apply_steps", "captures", "drawable", "face", "full_set", "legal_moves", "legal_steps", "new_game",
    "parse_step", "player_view", "reach", "read_state", "score", "score_state", "state_json", "tile_counts",
    "to_act", "unplaced", "validate_state",
]
