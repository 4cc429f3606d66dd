"""San Gimignano behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/at`).
"""
from __future__ import annotations

import random
from functools import cached_property
from typing import Any

from ..base import GameInfo, Json, Variant
from ..errors import GameError, MalformedError, Problem
from . import picture as board_picture
from .codec import read_state, state_json, validate_state
from .engine import apply_step, legal_steps
from .game import apply_steps, as_step, legal_moves, new_game, player_view, score, to_act
from .model import State
from .rules import RULES, RULES_VERSION

EXAMPLE_NAMES = ["Ada", "Bea", "Cy"]


def _under(prefix: str, error: GameError) -> GameError:
    return type(error)([p.under(prefix) for p in error.problems])


def _state(request: Json) -> State:
    try:
        return read_state(request["state"])
    except GameError as error:
        raise _under("/state", error) from None


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


class SanGimignanoRules:
    info = GameInfo(
        id="sangimignano",
        title="San Gimignano",
        min_players=2,
        max_players=4,
        rules_version=RULES_VERSION,
        variants=(Variant("large_groups", "A player may build on a connected group of four or more spaces among "
                                          "which all four guilds appear (S-VAR-1)."),),
    )

    @cached_property
    def examples(self) -> dict[str, Json]:
        """Request bodies for the contract's examples: a deal, its first turn, a finished game to score and draw,
        and an impossible state (a fifth token on a space pair, a tower over a token)."""
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

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    def rules(self) -> list[Json]:
        return [rule.to_json() for rule in RULES]

    def new(self, request: Json) -> Json:
        variant = request.get("variant") or {}
        state = new_game(request["seed"], names=request.get("names"),
                         large_groups=bool(variant.get("large_groups", False)), hexes=request.get("hexes"))
        return {"state": state_json(state), "seed": request["seed"]}

    def validate(self, request: Json) -> Json:
        try:
            errors, warnings = validate_state(request["state"])
        except GameError as error:
            raise _under("/state", error) from None
        return {"valid": not errors, "errors": [p.under("/state").to_json() for p in errors],
                "warnings": [p.under("/state").to_json() for p in warnings]}

    def legal_moves(self, request: Json) -> Json:
        state = _state(request)
        return {"to_act": to_act(state), "moves": legal_moves(state)}

    def apply(self, request: Json, *, replay: bool = False) -> Json:
        state = _state(request)
        try:
            steps = [as_step(move, i) for i, move in enumerate(request["moves"])]
        except GameError as error:
            raise _under("/moves", error) from None
        outcome = apply_steps(state, steps, keep_states=replay)
        answer: dict[str, Any] = {
            "legal": outcome.legal,
            "state": state_json(outcome.state),
            "events": outcome.events,
            "violations": [p.under("/moves").to_json() for p in outcome.violations],
            "failed_at": outcome.failed_at,
        }
        if replay:
            answer["states"] = [state_json(s) for s in outcome.states]
            answer["score"] = {**score(outcome.state).to_json(), "warnings": []}
        return answer

    def score(self, request: Json) -> Json:
        return {**score(_state(request)).to_json(), "warnings": []}

    def picture(self, request: Json) -> str:
        """An SVG picture of the board of a {"state"} request: hexagons cut into their guild spaces, tokens and
        towers in the players' colours, coordinates as labels, and who leads."""
        return board_picture.svg(_state(request))

    def view(self, request: Json) -> Json:
        state = _state(request)
        player = request["player"]
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(state.players):
            raise MalformedError(Problem(None, "/player", f"\"player\" is a player of this game: 0 to "
                                                          f"{len(state.players) - 1}."))
        return {"state": state_json(player_view(state, player))}


__all__ = ["SanGimignanoRules", "example_game"]
