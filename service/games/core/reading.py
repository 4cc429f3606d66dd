"""A document read into a game's model: what the position checks of every game give (its `position.py`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import InvalidStateError, Problem

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Reading(Generic[T]):
    """A document of the right shape, built into the game's model: the value (None when the rules it breaks leave
    nothing to build on), every rule it breaks and its warnings, pointers from the document."""

    value: T | None
    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()

    def checked(self) -> T:
        """The value of a document that breaks no rule; InvalidStateError otherwise."""
        if self.errors or self.value is None:
            raise InvalidStateError(list(self.errors))
        return self.value


__all__ = ["Reading"]
