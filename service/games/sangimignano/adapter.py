"""San Gimignano behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/at`).
"""
from __future__ import annotations

import random
from functools import cached_property

from ..core.adapter import GameLibrary, StateGame
from ..core.base import GameInfo, Json, Variant
from . import picture as board_picture
from . import schemas as wire_schemas
from .catalogue import RULES, RULES_VERSION
from .engine import apply_step, legal_steps
from .game import STEPS, legal_moves, new_game, player_view, sample_unseen, score, standing, to_act
from .model import MAX_PLAYERS, MIN_PLAYERS, State
from .narration import narrate
from .position import state_json
from .schemas import load_state

EXAMPLE_NAMES = ["Ada", "Bea", "Cy"]


def example_game(seed: int = 42, names: list[str] | None = None, large_groups: bool = False) -> tuple[State, list]:
    """A whole seeded game played by a fixed random policy that builds whenever it can: (final state, steps)."""
    state = new_game(seed, names=names or EXAMPLE_NAMES, large_groups=large_groups)
    rng = random.Random(f"sangimignano-example:{seed}")
    steps = []
    while not state.over:
        legal = legal_steps(state)
        builds = [s for s in legal if s.type == "build"]
        step = rng.choice(builds or legal)
        steps.append(step.to_json())
        state = apply_step(state, step)[0]
    return state, steps


# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("large_groups", "A player may build on a connected group of four or more spaces among which all "
                                    "four guilds appear (S-VAR-1)."),)


PLAYOUT_TURNS = 2  # the search's playouts: two turns, then the leader on points wins (measured: bench/players.py)


class SanGimignanoGame(StateGame[State]):
    info = GameInfo(id="sangimignano", title="San Gimignano", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    rules_version=RULES_VERSION, variants=VARIANTS)

    library = GameLibrary(new_game, load_state, state_json, STEPS, legal_moves, to_act, player_view, score,
                          narrate=narrate, sample_unseen=sample_unseen, standing=standing,
                          playout_turns=PLAYOUT_TURNS)
    rule_book = RULES
    schemas = wire_schemas  # the requests and answers on the wire (openapi.yaml is made from them)

    referee_assets = "referee"  # the folder of this game's editor on the referee page
    deal_options = ("hexes",)  # the caller's set of hexagons (S-SVC-TILES)

    @cached_property
    def examples(self) -> dict[str, Json]:
        """Request bodies for the contract's examples: a deal, its first turn, a finished game to score and draw,
        and an impossible state (three tokens and a tower on one space)."""
        new_request = {"seed": 42, "names": EXAMPLE_NAMES}
        state = new_game(42, names=EXAMPLE_NAMES)
        moves = []
        while True:  # the first player's whole turn: token, hexagon, and a tower or the end
            step = legal_steps(state)[0]
            moves.append(step.to_json())
            state = apply_step(state, step)[0]
            if state.turn != 0 or state.over:
                break
        finished, _ = example_game()
        broken = state_json(new_game(42, names=EXAMPLE_NAMES))
        broken["board"][0]["tokens"][0] = [0, 1, 2]
        broken["board"][0]["towers"][0] = 1
        return {"new": new_request, "apply": {"moves": moves}, "score": {"state": state_json(finished)},
                "picture": {"state": state_json(finished)}, "validate": {"state": broken}}

    def picture(self, request: Json) -> str:
        """An SVG picture of the board of a {"state"} request: hexagons cut into their guild spaces, tokens and
        towers in the players' colours, coordinates as labels, and who leads."""
        return board_picture.svg(self.read(request))


__all__ = ["SanGimignanoGame", "example_game"]
