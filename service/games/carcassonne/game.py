"""Whole-game operations on top of the engine: deal, apply a list of steps, view, score."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Iterable

from ..core.stepping import Outcome, Stepper, player_names, to_act
from .board import BoardIndex
from .engine import apply_step, legal_steps
from .model import FLOORS, MAX_PLAYERS, MIN_PLAYERS, Bag, Phase, Placement, Player, State, StepDue
from .schemas import parse_step
from .scoring import Score, score_state
from .steps import Step
from .tiles import START_TILE, full_set

GAME_ID = "carcassonne"


def new_game(seed: int | str, *, players: int | None = None, names: Iterable[str] | None = None,
             tower: bool = False) -> State:
    """K-SETUP-1/2 (K-TOW-TILE-1 with The Tower): the start tile at [0, 0], the other tiles shuffled into the bag,
    7 meeples (and the floors) for each of 2 to 5 players. The same seed, player count and variant always deal
    the same bag."""
    names = player_names(names, players, fewest=MIN_PLAYERS, most=MAX_PLAYERS, game="Carcassonne", rule="K-SETUP-2")
    n = len(names)
    tiles = full_set(tower)
    tiles.remove(START_TILE)
    # a str seed is hashed with SHA-512: the same bag on every machine
    random.Random(f"{GAME_ID}:{n}:{'tower' if tower else 'base'}:{seed}").shuffle(tiles)
    board = (Placement(START_TILE, (0, 0), 0),)
    floors = FLOORS[n] if tower else 0
    state = State(tower, Phase.PLAY, 0, StepDue.PLACE, Bag.known(tuple(tiles)), (), board, None, None, (), (),
                  tuple(Player(name, floors=floors) for name in names), False)
    return state.with_index(BoardIndex.of(board))


STEPS: Stepper[State, Step] = Stepper(Step, parse_step, apply_step, legal_steps)
as_step = STEPS.as_step  # (step, index=0) -> Step
apply_steps = STEPS.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step
legal_moves = STEPS.legal_moves  # (state) -> every legal step's JSON form


def player_view(state: State, player: int) -> State:
    """The state as a player may see it: the bag's order becomes a count (K-SVC-BAG); the rest is public."""
    del player  # every player sees the same
    if state.bag.tiles is None:
        return state
    view = replace(state, bag=Bag(None, state.bag.count))
    return view.with_index(state.index) if state.index is not None else view


def score(state: State) -> Score:
    return score_state(state)


__all__ = ["GAME_ID", "Outcome", "apply_steps", "as_step", "legal_moves", "new_game", "player_view", "score",
           "to_act"]
