"""San Gimignano's errors are the shared game errors (one base for every game, mapped once at the HTTP boundary)."""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem

SanGimignanoError = GameError

__all__ = ["GameError", "IllegalStepError", "InvalidStateError", "MalformedError", "Problem", "SanGimignanoError"]
