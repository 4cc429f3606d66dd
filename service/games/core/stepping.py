"""Listing and applying steps, the same for every game: a list of steps is parsed whole first, then applied in
order, stopping at the first illegal one (pointers count from the list). A game supplies its step class,
`parse_step`, `apply_step` and `legal_steps` (a `Stepper`). Beside it, what every game's whole-game operations
share: the players a deal seats (`player_names`) and whose turn it is (`to_act`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterable, TypeVar

from .errors import IllegalStepError, MalformedError, Problem

S = TypeVar("S")  # a game's state
T = TypeVar("T")  # a game's step


@dataclass(slots=True)
class Outcome(Generic[S]):
    """What applying a list of steps gave: the state after the last legal one, and what happened."""

    legal: bool
    state: S
    events: list[dict]
    violations: list[Problem] = field(default_factory=list)
    failed_at: int | None = None
    states: list[S] = field(default_factory=list)  # after each applied step, when asked for


@dataclass(frozen=True, slots=True)
class Stepper(Generic[S, T]):
    """One game's way of reading, listing and applying steps: `parse_step` reads a step's JSON form (MalformedError
    with pointers from the step), `legal_steps` lists every step `apply_step` accepts, `apply_step` gives the next
    state and its events (IllegalStepError if not allowed)."""

    step_type: type[T]
    parse_step: Callable[[Any], T]
    apply_step: Callable[[S, T], tuple[S, list[dict]]]
    legal_steps: Callable[[S], list[T]]

    def legal_moves(self, state: S) -> list[dict]:
        """The legal steps in their JSON form (what /legal-moves lists)."""
        return [step.to_json() for step in self.legal_steps(state)]  # type: ignore[attr-defined]

    def as_step(self, step: T | dict, index: int = 0) -> T:
        """A step from its JSON form (a parsed step passes through); problems point from the list (`/index/...`)."""
        if isinstance(step, self.step_type):
            return step
        try:
            return self.parse_step(step)
        except MalformedError as error:
            raise MalformedError([p.under(f"/{index}") for p in error.problems]) from None

    def apply_steps(self, state: S, steps: Iterable[T | dict], *, keep_states: bool = False) -> Outcome[S]:
        """Apply steps in order, stopping at the first illegal one. Malformed steps raise MalformedError (pointers
        from the list) before anything is applied. Every event is tagged with the index of the step that made it."""
        parsed = [self.as_step(step, i) for i, step in enumerate(steps)]
        events: list[dict] = []
        states: list[S] = []
        for index, step in enumerate(parsed):
            try:
                state, happened = self.apply_step(state, step)
            except IllegalStepError as error:
                return Outcome(False, state, events, [p.under(f"/{index}") for p in error.problems], index, states)
            for event in happened:
                event["step"] = index
            events.extend(happened)
            if keep_states:
                states.append(state)
        return Outcome(True, state, events, [], None, states)


def player_names(names: Iterable[str] | None, players: int | None, *, fewest: int, most: int, game: str,
                 rule: str) -> tuple[str, ...]:
    """The names a deal seats (`names`, or `players` unnamed ones, `fewest` by default), checked: as many as
    `players` says, `fewest` to `most` of them (the game's `rule`), each a text of 1 to 100 characters."""
    seated = tuple(names) if names is not None else tuple(f"Player {i + 1}" for i in range(players or fewest))
    if players is not None and players != len(seated):
        raise MalformedError(Problem(None, "/names", f"{len(seated)} names for {players} players."))
    if not fewest <= len(seated) <= most:
        count = f"{fewest}" if fewest == most else f"{fewest} to {most}"
        raise MalformedError(Problem(None, "/names", f"{game} is for {count} players ({rule}); {len(seated)} given."))
    for i, name in enumerate(seated):
        if not isinstance(name, str) or not 0 < len(name) <= 100:
            raise MalformedError(Problem(None, f"/names/{i}", "A name is a text of 1 to 100 characters."))
    return seated


def to_act(state: Any) -> int | None:
    """Whose turn it is in a game whose state has `turn` and `over`; None once the game is over."""
    return None if state.over else state.turn


__all__ = ["Outcome", "Stepper", "player_names", "to_act"]
