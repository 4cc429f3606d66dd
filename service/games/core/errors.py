"""One error base for every game library, with narrow families under it.

Every problem is a `Problem`: the rule it breaks (an id of the rule catalogue, or None for a malformed
document), a JSON pointer into the document that was given, and one plain sentence (a Message: English as a str,
said in another language where it leaves the library).
"""
from __future__ import annotations

from dataclasses import dataclass

from .language import DEFAULT, said


@dataclass(frozen=True, slots=True)
class Problem:
    rule: str | None
    pointer: str
    message: str

    def to_json(self, language: str = DEFAULT) -> dict:
        """The problem as answers give it, its sentence in `language`."""
        return {"rule": self.rule, "pointer": self.pointer, "message": said(self.message, language)}

    def under(self, prefix: str) -> "Problem":
        """The same problem with its pointer moved under `prefix` (a pointer into an enclosing document)."""
        return Problem(self.rule, prefix + self.pointer, self.message)


class GameError(ValueError):
    """Base of every error a game library raises on bad input."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems: list[Problem] = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(f"{p.pointer or '/'}: {p.message}" for p in self.problems))


class MalformedError(GameError):
    """The document does not have the expected shape (wrong type, unknown field, missing field)."""


class InvalidStateError(GameError):
    """A well-formed state or table that cannot be a real position (breaks a rule such as T-COMP-4)."""


class GameOverError(GameError):
    """A question that needs someone to act, asked of a finished game (a suggestion)."""


class IllegalStepError(GameError):
    """A step that the rules do not allow in the given state."""

    def __init__(self, problems, index: int = 0):
        super().__init__(problems)
        self.index = index


def illegal(rule: str, pointer: str, message: str) -> IllegalStepError:
    """The error of a step that breaks `rule`: what it says (`message`) about the step's field at `pointer` (from
    the step; "" for the step as a whole). Every game's engine raises it this way."""
    return IllegalStepError(Problem(rule, pointer, message))
