"""What every game's `apply_step` repeats, declared once: each point of a turn (a stage, as boardgame.io calls it)
takes only its own kinds of step, a step goes to the handler of its stage and type, and a finished game is a stage
that takes none. A game declares its stages (`Turns`); the refusals keep the game's own rule ids and words.

    TURNS = Turns(stage_of=attrgetter("step"), stages={
        PLAY: Stage({"play": _do_play, "pass": _do_pass}, "C-TURN-PLAY", _play_refusal),
        …,
        OVER: finished("C-END-1", tr("The game is over: a pile ran out, so no move is possible.")),
    })
    apply_step = TURNS.apply_step
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Mapping, TypeVar

from .errors import illegal
from .events import Event

S = TypeVar("S")  # a game's state
T = TypeVar("T")  # a game's step (anything with a `type`)

Events = list[Event]
Handler = Callable[[Any, Any, Events], Any]  # (state, step, events) -> the next state; events appended


@dataclass(frozen=True, slots=True)
class Stage:
    """One point of a turn: the handler of each kind of step it takes, and the refusal of any other kind (the
    rule it breaks and why, worded by `refusal(state, step)`, about the step's field at `pointer`)."""

    handlers: Mapping[str, Handler]
    rule: str
    refusal: Callable[[Any, Any], str]
    pointer: str = "/type"


def finished(rule: str, message: str, pointer: str = "/type") -> Stage:
    """The stage of a finished game: it takes no step; any step breaks `rule` (the game's end)."""
    return Stage({}, rule, lambda state, step: message, pointer)


@dataclass(frozen=True, slots=True)
class Turns(Generic[S, T]):
    """A game's turn structure: `stage_of(state)` names the stage due (a finished game's too), and `stages`
    declares each."""

    stage_of: Callable[[S], Hashable]
    stages: Mapping[Hashable, Stage]

    def apply_step(self, state: S, step: T) -> tuple[S, Events]:
        """The state after one step, and what happened; IllegalStepError (pointers from the step) naming the rule
        broken."""
        stage = self.stages[self.stage_of(state)]
        handler = stage.handlers.get(step.type)  # type: ignore[attr-defined]
        if handler is None:
            raise illegal(stage.rule, stage.pointer, stage.refusal(state, step))
        events: Events = []
        return handler(state, step, events), events


__all__ = ["Events", "Handler", "Stage", "Turns", "finished"]
