"""Campanile behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/card`).
"""
from __future__ import annotations

from typing import Any

from ..base import GameInfo, Json, Variant
from ..errors import GameError, MalformedError, Problem
from . import picture as table_picture
from .codec import read_state, read_table, state_json, table_of, validate_state
from .game import apply_steps, as_step, legal_moves, new_game, player_view, score, score_table_json, to_act
from .model import State
from .rules import RULES, RULES_VERSION


def _under(prefix: str, error: GameError) -> GameError:
    return type(error)([p.under(prefix) for p in error.problems])


def _state(request: Json) -> State:
    try:
        return read_state(request["state"])
    except GameError as error:
        raise _under("/state", error) from None


class CampanileRules:
    info = GameInfo(
        id="campanile",
        title="Campanile",
        min_players=2,
        max_players=5,
        rules_version=RULES_VERSION,
        variants=(Variant("bet_on_played", "A player may also bet on the tower they played on this turn (C-VAR-1)."),),
    )

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    def rules(self) -> list[Json]:
        return [rule.to_json() for rule in RULES]

    def new(self, request: Json) -> Json:
        variant = request.get("variant") or {}
        state = new_game(request["seed"], names=request.get("names"),
                         bet_on_played=bool(variant.get("bet_on_played", False)))
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
        if "table" in request:
            try:
                result, warnings = score_table_json(request["table"])
            except GameError as error:
                raise _under("/table", error) from None
            prefix = "/table"
        else:
            try:
                _, warnings = validate_state(request["state"])
            except GameError as error:
                raise _under("/state", error) from None
            result, prefix = score(_state(request)), "/state"
        return {**result.to_json(), "warnings": [p.under(prefix).to_json() for p in warnings]}

    def picture(self, request: Json) -> str:
        """Draw a state's table or a table as SVG: the five towers in their row as stacks of cards, the flag each
        earns, the tokens under each in betting order in the players' colours, who takes the large and small
        numbers, and every player's total (the aria-label says who leads). Not cached: drawing is cheap."""
        if "table" in request:
            try:
                table = read_table(request["table"])[0]
            except GameError as error:
                raise _under("/table", error) from None
        else:
            table = table_of(_state(request))
        return table_picture.svg(table)

    def view(self, request: Json) -> Json:
        state = _state(request)
        player = request["player"]
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(state.players):
            raise MalformedError(Problem(None, "/player", f"\"player\" is a player of this game: 0 to "
                                                          f"{len(state.players) - 1}."))
        return {"state": state_json(player_view(state, player))}

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (service.games.base.GameRules.examples)."""
        names = ["Ada", "Bea", "Cy"]
        state = state_json(new_game(42, names=names))
        card = state["players"][0]["hand"][0]
        broken = {**state, "players": [{**state["players"][0], "hand": [*state["players"][0]["hand"], "A"]},
                                       *state["players"][1:]]}  # one card A too many (C-COMP-5)
        finished_table = {
            "players": [{"name": "Ada"}, {"name": "Bea"}, {"name": "Cy"}],
            "towers": [
                {"style": "A", "plays": [2, 3, 1], "tokens": [{"player": 0, "value": 2}, {"player": 1, "value": 3}]},
                {"style": "B", "plays": [3, 3], "tokens": [{"player": 2, "value": 3}, {"player": 0, "value": 2}]},
                {"style": "C", "plays": [1], "tokens": [{"player": 1, "value": 1}]},
                {"style": "D", "plays": [2, 2, 2], "tokens": [{"player": 1, "value": 2}, {"player": 2, "value": 2}]},
                {"style": "E", "plays": [], "tokens": []},
            ],
        }
        return {
            "new": {"seed": 42, "names": names},
            "apply": {"moves": [{"type": "play", "card": card, "stories": 1}, {"type": "no_bet"}, {"type": "draw"}]},
            "score": {"table": finished_table},
            "picture": {"table": finished_table},
            "validate": {"state": broken},
        }
