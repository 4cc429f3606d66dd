"""Carcassonne's errors are the shared game errors (one base for every game, mapped once at the HTTP boundary)."""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem

CarcassonneError = GameError

__all__ = ["CarcassonneError", "GameError", "IllegalStepError", "InvalidStateError", "MalformedError", "Problem"]
