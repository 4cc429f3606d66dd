"""The end of a turn and of the game: the other player's turn, the Ending phase once the deck is empty (T-END-1)
and the actions it forbids, Close (T-ACT-CLOSE-1) and Pass (T-ACT-PASS-1, T-END-4)."""
from __future__ import annotations

from ..core.errors import illegal
from ..core.events import Event
from ..core.turns import Events
from .messages import tr
from .model import ENDING, MAIN, OVER, State
from .steps import Step

CLOSE_MIN_COMPLETE = 4  # T-ACT-CLOSE-1


def _end_turn(s: State, events: Events) -> None:
    """The action is over: T-END-1 check, then the other player's turn."""
    s.pending = None
    if s.phase == MAIN and s.deck_size == 0:
        s.phase = ENDING
        events.append(Event({"type": "phase", "phase": ENDING, "reason": "deck_empty"}))
    s.turn = 1 - s.turn
    s.to_act = s.turn
    events.append(Event({"type": "turn", "player": s.turn}))


def _check_main_phase(s: State, rule: str, what: str) -> None:
    """An action the Ending phase forbids (T-END-2): `what` is the action, "purchase", "exchange", "complete" or
    "close"."""
    if s.phase != MAIN:
        raise illegal(rule, "/type", _NOT_IN_ENDING[what])


_NOT_IN_ENDING = {
    "purchase": tr("Purchase is not allowed in the Ending phase."),
    "exchange": tr("Exchange is not allowed in the Ending phase."),
    "complete": tr("Completing towers is not allowed in the Ending phase."),
    "close": tr("Close is not allowed in the Ending phase."),
}


def _do_close(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-CLOSE-1", "close")
    complete = sum(1 for t in s.players[s.turn].towers if t.complete)
    if complete < CLOSE_MIN_COMPLETE:
        raise illegal("T-ACT-CLOSE-1", "", tr("Close needs at least {needed} complete towers; player {player} has "
                                              "{complete}.", needed=CLOSE_MIN_COMPLETE, player=s.turn,
                                              complete=complete))
    s.phase = ENDING
    s.closed_by = s.turn
    events.append(Event({"type": "closed", "player": s.turn}))
    events.append(Event({"type": "phase", "phase": ENDING, "reason": "close"}))
    _end_turn(s, events)


def _do_pass(s: State, step: Step, events: Events) -> None:
    s.passes += 1
    events.append(Event({"type": "passed", "player": s.turn}))
    if s.passes >= 2:  # T-TURN-3, T-END-4
        s.phase = OVER
        s.to_act = None
        events.append(Event({"type": "game_over"}))
        return
    _end_turn(s, events)
