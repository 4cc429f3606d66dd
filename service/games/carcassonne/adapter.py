"""Carcassonne behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/at`).
"""
from __future__ import annotations

import copy
import random
from functools import cached_property

from ..core.adapter import GameLibrary, StateGame
from ..core.base import GameInfo, Json, Variant
from . import picture as board_picture
from . import schemas as wire_schemas
from .catalogue import RULES, RULES_VERSION
from .engine import apply_step, legal_steps
from .game import STEPS, legal_moves, new_game, player_view, sample_unseen, score, seen_by, standing, to_act
from .model import MAX_PLAYERS, MIN_PLAYERS, State, StepDue
from .narration import narrate
from .position import state_json
from .schemas import load_state
from .steps import Step
from .tiles import HALF_NAMES, INNER


def played_game(seed: int, names: list[str], tower: bool) -> State:
    """A whole game played by a fixed policy (a meeple where one may go, else a floor, else nothing), for the
    contract's examples of a finished board."""
    rng = random.Random(seed)
    state = new_game(seed, names=names, tower=tower)
    while not state.over:
        steps = legal_steps(state)
        preferred = [s for s in steps if s.type in ("meeple", "capture")] or \
                    [s for s in steps if s.type == "floor"] or [s for s in steps if s.type != "ransom"]
        state = apply_step(state, rng.choice(preferred))[0]
    return state


EXAMPLE_SEED = 14
EXAMPLE_NAMES = ["Ada", "Bea", "Cy"]


def _gain(state: State, place: Step, me: int) -> int:
    """What placing a tile (and no meeple) scores for `me`, less what it scores for the others."""
    after = apply_step(apply_step(state, place)[0], Step("skip"))[0]
    return sum((1 if p == me else -1) * (a.score - b.score) for p, (a, b) in enumerate(zip(after.players,
                                                                                        state.players)))


def example_game(seed: int = EXAMPLE_SEED, names: list[str] | None = None) -> State:
    """A whole seeded base game played somewhat as people play it, for the referee page's example of a finished
    table: each tile where it scores most for its player, a knight, thief or monk on about half the tiles while
    three meeples are in supply, now and then a farmer; so that features complete, meeples come home and every
    category of the end scoring appears."""
    rng = random.Random(f"carcassonne-example:{seed}")
    state = new_game(seed, names=names or EXAMPLE_NAMES, tower=False)
    while not state.over:
        steps = legal_steps(state)
        me = state.turn
        if state.step is StepDue.ACTION:
            meeples = [s for s in steps if s.type == "meeple"]
            farmers = [s for s in meeples if s.feature in HALF_NAMES or s.feature == INNER]
            others = [s for s in meeples if s not in farmers]
            supply, chance = state.players[me].supply, rng.random()
            step = (rng.choice(others) if others and supply > 2 and chance < 0.6 else
                    rng.choice(farmers) if farmers and supply > 3 and chance > 0.9 else Step("skip"))
        else:
            places = [s for s in steps if s.type == "place"]
            step = max(places, key=lambda s: (_gain(state, s, me), rng.random())) if places else steps[0]
        state = apply_step(state, step)[0]
    return state


# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("tower", "The Tower: 18 tiles with tower foundations, floors, captures, prisoners and ransom "
                             "(K-TOW)."),)


# the search's playouts: the player's turn and the next, then judged by the points were the game to end there
# (K-SVC-SCORE), a lead of 8 points a 73 % chance; longer random playouts lost to greedy (bench/players.py)
PLAYOUT_TURNS, LEAD_SCALE = 1, 8.0


class CarcassonneGame(StateGame[State]):
    info = GameInfo(id="carcassonne", title="Carcassonne", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    rules_version=RULES_VERSION, variants=VARIANTS)

    library = GameLibrary(new_game, load_state, state_json, STEPS, legal_moves, to_act, player_view, score,
                          narrate=narrate, sample_unseen=sample_unseen, standing=standing, seen_by=seen_by,
                          playout_turns=PLAYOUT_TURNS, lead_scale=LEAD_SCALE)
    rule_book = RULES
    schemas = wire_schemas  # the requests and answers on the wire (openapi.yaml is made from them)

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    @cached_property
    def examples(self) -> dict[str, Json]:
        """Request bodies for the contract's examples: a deal with The Tower, its first turn, a finished game to
        score and draw, and an impossible state (a tile added to the board by hand, a meeple too few in a supply)."""
        new = {"seed": 42, "names": ["Ada", "Bea", "Cy"], "variant": {"tower": True}}
        start = new_game(42, names=new["names"], tower=True)
        first = legal_steps(start)[0]
        finished = state_json(played_game(7, ["Ada", "Bea"], tower=True))
        broken = copy.deepcopy(state_json(start))
        broken["board"].append({"tile": "BA/Cccc+", "at": [0, 1], "rotation": 0})
        broken["players"][0]["supply"] = 6
        return {"new": new, "apply": {"moves": [first.to_json(), {"type": "skip"}]}, "score": {"state": finished},
                "picture": {"state": finished}, "validate": {"state": broken}}

    def picture(self, request: Json) -> str:
        """An SVG picture of the board of a {"state"} request: tiles, meeples, towers, scores and prisoners."""
        return board_picture.svg(self.read(request))
