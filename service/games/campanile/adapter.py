"""Campanile behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/card`).
"""
from __future__ import annotations

from typing import Any

from ..core.adapter import GameLibrary, StateGameAdapter
from ..core.base import GameInfo, Json, Variant
from ..core.schemas import Reading
from . import picture as table_picture
from . import schemas as wire_schemas
from .game import STEPS, legal_moves, new_game, player_view, score, to_act
from .model import State
from .position import state_json, table_of
from .rules import RULES, RULES_VERSION
from .schemas import load_state, load_table
from .scoring import score_table


class CampanileRules(StateGameAdapter[State]):
    info = GameInfo(
        id="campanile",
        title="Campanile",
        min_players=2,
        max_players=5,
        rules_version=RULES_VERSION,
        variants=(Variant("bet_on_played", "A player may also bet on the tower they played on this turn (C-VAR-1)."),),
    )

    library = GameLibrary(load_state, state_json, STEPS, legal_moves, to_act, player_view, score)
    rule_book = RULES
    schemas = wire_schemas  # the requests and answers on the wire (openapi.yaml is made from them)

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    def new(self, request: Json) -> Json:
        variant = request.get("variant") or {}
        state = new_game(request["seed"], names=request.get("names"),
                         bet_on_played=bool(variant.get("bet_on_played", False)))
        return {"state": state_json(state), "seed": request["seed"]}

    def load(self, field: str, document: Any) -> Reading:
        return load_table(document) if field == "table" else super().load(field, document)

    def score(self, request: Json) -> Json:
        if "table" not in request:
            return self.score_state(request)
        table, warnings = self.read(request, "table"), self.reading(request, "table").warnings
        return {**score_table(table).to_json(), "warnings": [p.under("/table").to_json() for p in warnings]}

    def picture(self, request: Json) -> str:
        """Draw a state's table or a table as SVG: the five towers in their row as stacks of cards, the flag each
        earns, the tokens under each in betting order in the players' colours, who takes the large and small
        numbers, and every player's total (the aria-label says who leads). Not cached: drawing is cheap."""
        table = self.read(request, "table") if "table" in request else table_of(self.read(request))
        return table_picture.svg(table)

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (service.games.core.base.GameRules.examples)."""
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
