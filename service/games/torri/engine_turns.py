"""A Torri turn, declared with core.turns: an action when nothing is pending (T-TURN-1), else the pending decision
by its type (T-TURN-2), nothing once the game is over (T-TURN-3). `apply_step` hands a step to its stage's
handler, which writes a working copy of the state; `canonical_step` is the one spelling of a step that
legal_steps lists."""
from __future__ import annotations

from collections.abc import Callable

from ..core.turns import Events, Handler, Stage, Turns, finished
from .engine_building import _do_build, _do_complete, _do_extend
from .engine_donazione import _decline_guard, _do_give, _do_guard, _do_take, _do_target
from .engine_ending import _do_close, _do_pass
from .engine_market import _do_draw, _do_exchange, _do_purchase, _do_refill, _stop_drawing
from .engine_nobles import _decline_giostra, _do_giostra, _do_noble, _do_rebuild, _take_back
from .messages import either, tr, tr_n
from .model import OVER, Draft, Pending, State
from .steps import Step
from .towers import contradicted_field, interpretations


def canonical_step(state: State, step: Step) -> Step:
    """The one spelling of a step that legal_steps lists. A step may say what the state or its cards already say,
    and is then the same step without it (a wrong value still makes it illegal):
    - a draw may name the card it expects on top of a known deck (a referee confirming it);
    - a build may give `kind`/`rank` that its cards alone settle (they are listed only when Buona Pietra makes
      the cards ambiguous), and an extension those of the tower it extends (T-ACT-BUILD-2, T-ACT-EXTEND-1)."""
    if step.type == "draw" and step.card is not None:
        top = state.deck[:1] if step.source == "deck" else state.noble_deck[:1] if step.source == "noble_deck" else ()
        if top and top[0] == step.card:
            return step._replace(card=None)
    elif step.type == "build" and (step.kind is not None or step.rank is not None):
        readings = interpretations(step.cards)
        if len(readings) == 1 and contradicted_field(readings, step.kind, step.rank) is None:
            return step._replace(kind=None, rank=None)
    elif step.type == "extend" and (step.kind is not None or step.rank is not None):
        towers = state.players[state.turn].towers
        tower = towers[step.tower] if step.tower is not None and step.tower < len(towers) else None
        if tower is not None and contradicted_field(((tower.kind, tower.rank),), step.kind, step.rank) is None:
            return step._replace(kind=None, rank=None)
    return step


def _describe_pending(pending: Pending) -> str:
    """What a pending decision waits for, a phrase of "The trade is waiting for …"."""
    kind, left = pending.type, pending.left
    if kind == "draw":
        # Translators: what a pending decision waits for, in "The purchase is waiting for …; expected a … step"
        return tr_n("{count} more draw", "{count} more draws", left)
    if kind == "guard":
        return tr("player {player} to guard or decline",
                  player=pending.target[0] if pending.target else 1 - pending.player)
    if kind == "target":
        return tr("the Conspiracy's target")
    if kind == "take":
        return tr_n("the {count} card the Trade takes", "the {count} cards the Trade takes", left)
    if kind == "give":
        return tr_n("the {count} card the Trade gives back", "the {count} cards the Trade gives back", left)
    if kind == "refill":
        return tr_n("the {count} card turned up to refill the market", "the {count} cards turned up to refill the "
                    "market", left)
    if kind == "giostra":
        return tr("player {player} to play Giostra or decline", player=1 - pending.player)
    if kind == "rebuild":
        return tr("the builder to play the remaining cards or stop")
    raise KeyError(kind)


def _on_draft(handler: Callable[[Draft, Step, Events], None], *, action: bool = False) -> Handler:
    """A handler that writes a working copy of the state (a model.Draft: Torri's rules are written as changes),
    frozen once the step is done (`apply_step` does it). An action other than a pass ends a run of passes
    (T-TURN-3). The handler gets the step in its canonical spelling."""
    def run(state: State, step: Step, events: Events) -> State:
        after, happened = apply_step(state, step)
        events.extend(happened)
        return after
    run.writes = handler, action  # type: ignore[attr-defined]  # (what apply_step calls, without this wrapper)
    return run


def _stage_of(state: State) -> str:
    """T-TURN-3: a finished game takes no step; T-TURN-1: with nothing pending the player chooses an action;
    T-TURN-2: else the pending decision, by type (a Via Francigena's draws may stop early: T-NOB-VF)."""
    if state.phase == OVER:
        return OVER
    pending = state.pending
    if pending is None:
        return ACTION
    return VIA_DRAW if pending.type == "draw" and pending.action == "via_francigena" else pending.type


def _choose_an_action(state: State, step: Step) -> str:
    # Translators: {step} is the type of the step sent ("draw", "guard", …)
    return tr("No decision is pending, so a \"{step}\" step cannot be played: the player must choose an action.",
              step=step.type)


def _decide(kinds: tuple[str, ...]) -> Callable[[State, Step], str]:
    def refusal(state: State, step: Step) -> str:
        pending = state.pending
        assert pending is not None
        # Translators: {action} is the pending action's code (purchase, trade, giostra, …); {kinds} the types of
        # step it takes ("draw or stop"); {step} the type of the step sent
        return tr("The {action} is waiting for {what}; expected a {kinds} step, not \"{step}\".",
                  action=pending.action, what=_describe_pending(pending), kinds=either(kinds), step=step.type)
    return refusal


def _pending(**handlers: Callable[[State, Step, Events], None]) -> Stage:
    on_copy = {kind: _on_draft(handler) for kind, handler in handlers.items()}
    return Stage(on_copy, "T-TURN-2", _decide(tuple(handlers)))


ACTION, VIA_DRAW = "action", "draw, with Via Francigena"
TURNS = Turns(stage_of=_stage_of, stages={
    ACTION: Stage({kind: _on_draft(handler, action=True) for kind, handler in {
        "purchase": _do_purchase, "exchange": _do_exchange, "build": _do_build, "extend": _do_extend,
        "complete": _do_complete, "close": _do_close, "pass": _do_pass, "noble": _do_noble}.items()},
        "T-TURN-1", _choose_an_action),
    "draw": _pending(draw=_do_draw),
    VIA_DRAW: _pending(draw=_do_draw, stop=_stop_drawing),
    "guard": _pending(guard=_do_guard, decline=_decline_guard),
    "target": _pending(target=_do_target),
    "take": _pending(take=_do_take),
    "give": _pending(give=_do_give),
    "refill": _pending(refill=_do_refill),
    "giostra": _pending(giostra=_do_giostra, decline=_decline_giostra),
    "rebuild": _pending(build=_do_rebuild, extend=_do_rebuild, stop=_take_back),
    OVER: finished("T-TURN-3", tr("The game is over: both players passed in a row, so no move is possible."),
                   pointer=""),
})

# Each stage's handlers by step type, as (the handler writing a working copy, whether it is an action): TURNS declares
# them; apply_step calls them itself, a perft applying a step at every node.
_WRITERS = {name: {kind: run.writes for kind, run in stage.handlers.items()} for name, stage in TURNS.stages.items()}


def apply_step(state: State, step: Step) -> tuple[State, Events]:
    """The state after one step, and what happened; IllegalStepError naming the rule broken (TURNS.apply_step,
    written out)."""
    stage = ACTION if state.pending is None and state.phase != OVER else _stage_of(state)  # (the commonest, at once)
    kind = step.type  # (read once: a step's fields are looked up by name at every read)
    writer = _WRITERS[stage].get(kind)
    if writer is None:
        return TURNS.apply_step(state, step)  # the stage refuses the step, in its own words
    handler, action = writer
    if step.kind is not None or step.rank is not None or (
            step.card is not None and kind == "draw" and step.source != "market"):  # (a market draw names it)
        step = canonical_step(state, step)
    s = state.draft()
    if action and kind != "pass":
        s.passes = 0  # T-TURN-3
    events: Events = []
    handler(s, step, events)
    return s.freeze(), events
