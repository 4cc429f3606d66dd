"""Whole-game operations on top of the engine: deal, apply a list of steps, view, score."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Iterable

from ..core.players import shuffled_rest
from ..core.stepping import Outcome, Stepper, player_names, to_act
from .board import BoardIndex
from .engine import apply_step, legal_moves, legal_steps, unplaced
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
# legal_moves (engine.py): (state) -> every legal step's JSON form, as STEPS.legal_moves writes them


def player_view(state: State, player: int) -> State:
    """The state as a player may see it: the bag's order becomes a count (K-SVC-BAG); the rest is public."""
    del player  # every player sees the same
    if state.bag.tiles is None:
        return state
    view = replace(state, bag=Bag(None, state.bag.count))
    return view.with_index(state.index) if state.index is not None else view


def seen_by(state: State, player: int) -> State:
    """What the player to act knows: its view, and the tile it has drawn (K-PLACE: draw a tile, then place it),
    the bag's first while a placement is due; the rest of a listed bag in a fixed order (its content is public,
    K-COMP-3; its order is not)."""
    if state.bag.tiles is None or state.step is not StepDue.PLACE or state.over:
        return player_view(state, player)
    drawn, rest = state.bag.tiles[:1], tuple(sorted(state.bag.tiles[1:]))
    view = replace(state, bag=Bag.known(drawn + rest))
    return view.with_index(state.index) if state.index is not None else view


def sample_unseen(seen: State, seat: int, rng: random.Random) -> State:
    """A whole state `seat` cannot tell from `seen` (what it knows, `seen_by`): the bag's order dealt afresh from
    the tiles neither placed nor discarded (K-COMP-3), the tile drawn kept first."""
    del seat  # every player sees the same
    if seen.bag.tiles is not None:
        drawn = seen.bag.tiles[:1] if seen.step is StepDue.PLACE else ()
        rest = list(seen.bag.tiles[len(drawn):])
        rng.shuffle(rest)
        tiles = drawn + tuple(rest)
    else:
        tiles = tuple(shuffled_rest(unplaced(seen), {}, rng)[:seen.bag.count])
    state = replace(seen, bag=Bag.known(tiles))
    return state.with_index(seen.index) if seen.index is not None else state


def standing(state: State) -> tuple[int, ...]:
    """Each player's points as if the game ended now (K-SVC-SCORE): the greedy player's evaluation."""
    return tuple(score_state(state).totals)


def score(state: State) -> Score:
    return score_state(state)


__all__ = ["GAME_ID", "Outcome", "apply_steps", "as_step", "legal_moves", "new_game", "player_view", "sample_unseen",
           "score", "seen_by", "standing", "to_act"]
