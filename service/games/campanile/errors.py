"""Campanile's errors are the shared game errors (one base for every game, mapped once at the HTTP boundary)."""
from ..core.errors import GameError, IllegalStepError, InvalidStateError, MalformedError, Problem

CampanileError = GameError

__all__ = ["CampanileError", "GameError", "IllegalStepError", "InvalidStateError", "MalformedError", "Problem"]
