"""What happened, as the engines say it: an `Event` is a typed record, made once by the engine and never changed
after (each game declares its kinds and their facts with its wire schemas, as it does its steps).

An event is a mapping of its `type` and facts, so that it reads as its JSON form does (`event["player"]`); it is
a dict underneath, so that the engines make one as cheaply as a literal and it goes to JSON as it is, but every
way of changing it in place is refused. Where it is placed in a game (the index of the step that made it) and
what it means in words (`text`) are new records made from it (`at`, narration's `narrated`), not edits.
"""
from __future__ import annotations

from typing import Any, NoReturn


class Event(dict):
    """One event: `Event({"type": "played", "player": 0, …})`; `step` once placed in a list of steps."""

    __slots__ = ()

    @property
    def type(self) -> str:
        return self["type"]

    @property
    def step(self) -> int | None:
        return self.get("step")

    def at(self, step: int) -> Event:
        """The same event, placed at the index of the step that made it."""
        return Event({**self, "step": step})

    def to_json(self) -> dict[str, Any]:
        return dict(self)

    def _immutable(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("an event is never changed once made: make a new one")

    __setitem__ = __delitem__ = _immutable  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = __ior__ = _immutable  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[type[Event], tuple[dict[str, Any]]]:
        return Event, (dict(self),)


__all__ = ["Event"]
