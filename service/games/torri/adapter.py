"""Torri behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/cards`).
"""
from __future__ import annotations

from typing import Any

from ..base import GameInfo, Json, Variant
from ..errors import GameError
from . import notation as table_notation
from . import picture as table_picture
from .codec import read_state, read_table, state_json, table_of, validate_state
from .game import apply_steps, as_step, legal_moves, new_game, player_view, score, score_table_json
from .model import State, Table
from .scoring import score_table
from .rules import RULES, RULES_VERSION


def _under(prefix: str, error: GameError) -> GameError:
    return type(error)([p.under(prefix) for p in error.problems])


def _state(request: Json) -> State:
    try:
        return read_state(request["state"])
    except GameError as error:
        raise _under("/state", error) from None


class TorriRules:
    info = GameInfo(
        id="torri",
        title="Le Torri di San Gimignano",
        min_players=2,
        max_players=2,
        rules_version=RULES_VERSION,
        variants=(Variant("nobles", "The advanced game with the ten noble cards (T-NOB)."),),
    )

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    def rules(self) -> list[Json]:
        return [rule.to_json() for rule in RULES]

    def new(self, request: Json) -> Json:
        names = request.get("names")
        state = new_game(request["seed"], nobles=bool(request.get("variant", {}).get("nobles")),
                         names=tuple(names) if names else None)
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
        return {"to_act": state.to_act, "moves": legal_moves(state)}

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
        several_deals = request.get("several_deals", False) is True  # T-SCORE-DEALS, T-SVC-DEALS
        if "notation" in request:  # problems already point at /notation, with line and column in the message
            table, warnings = table_notation.read(request["notation"])
            result = score_table(table, several_deals=several_deals)
            return {**result.to_json(), "warnings": [p.to_json() for p in warnings]}
        if "table" in request:
            try:
                result, warnings = score_table_json(request["table"], several_deals=several_deals)
            except GameError as error:
                raise _under("/table", error) from None
            prefix = "/table"
        else:
            try:
                _, warnings = validate_state(request["state"])
            except GameError as error:
                raise _under("/state", error) from None
            result, prefix = score(_state(request), several_deals=several_deals), "/state"
        return {**result.to_json(), "warnings": [p.under(prefix).to_json() for p in warnings]}

    def table_of_request(self, request: Json) -> Table:
        """The table of a {"state"}, {"table"} or {"notation"} request, checked (errors point into the request)."""
        if "notation" in request:
            return table_notation.read(request["notation"])[0]
        if "table" in request:
            try:
                return read_table(request["table"])[0]
            except GameError as error:
                raise _under("/table", error) from None
        return table_of(_state(request))

    def picture(self, request: Json) -> str:
        """Draw a state's table, a table or a notation text as SVG: each player's towers as stacked cards
        (Buona Pietra marked), complete towers roofed, the Highest marker beside its holder, names and totals.
        Not cached: drawing is cheap."""
        return table_picture.svg(self.table_of_request(request))

    def notation(self, request: Json) -> Json:
        """{"notation"}: the table of a {"state"} or {"table"} request in canonical notation."""
        return {"notation": table_notation.write(self.table_of_request(request))}

    def view(self, request: Json) -> Json:
        return {"state": state_json(player_view(_state(request), request["player"]))}

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (service.games.base.GameRules.examples)."""
        state = state_json(new_game(42, names=("Adso", "William")))
        table = {
            "players": [
                {"name": "Adso", "towers": [
                    {"cards": ["10", "10", "10"], "complete": True}, {"cards": ["9", "9", "9"], "complete": True},
                    {"cards": ["8", "8", "8"]}, {"cards": ["6", "6", "6"], "complete": True},
                    {"cards": ["10", "9", "8", "7", "6"]}]},
                {"name": "William", "towers": [
                    {"cards": ["7", "7", "7"], "complete": True},
                    {"cards": ["9", "8", "7", "6", "5"], "complete": True},
                    {"cards": ["10", "9", "8"], "complete": True}, {"cards": ["7", "6", "5"], "complete": True}]},
            ],
            "highest": 0,
        }
        broken = {**state, "players": [{**state["players"][0], "hand": [*state["players"][0]["hand"], "5"]},
                                       *state["players"][1:]]}  # one 5 too many (T-COMP-4)
        return {
            "new": {"seed": 42, "names": ["Adso", "William"]},
            "apply": {"moves": [{"type": "purchase"}, {"type": "draw", "from": "deck"},
                                {"type": "draw", "from": "market", "card": state["market"][0]}]},
            "score": {"table": table},
            "picture": {"notation": "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*"},
            "notation": {"table": table},
            "validate": {"state": broken},
        }
