"""Torri behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/cards`).
"""
from __future__ import annotations

from operator import attrgetter

from ..core.adapter import GameLibrary, StateGame
from ..core.base import GameInfo, Json, Variant
from . import notation as table_notation
from . import picture as table_picture
from . import schemas as wire_schemas
from .catalogue import RULES, RULES_VERSION
from .game import STEPS, legal_moves, new_game, player_view, sample_unseen, score, standing
from .model import State, Table
from .narration import narrate
from .position import state_json, table_of
from .schemas import load_state, load_table
from .scoring import score_table

# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("nobles", "The advanced game with the ten noble cards (T-NOB)."),)


PLAYOUT_TURNS = 2  # the search's playouts: two turns, then the leader on points wins (measured: bench/players.py)


class TorriGame(StateGame[State]):
    info = GameInfo(id="torri", title="Le Torri di San Gimignano", min_players=2, max_players=2,
                    rules_version=RULES_VERSION, variants=VARIANTS)

    library = GameLibrary(new_game, load_state, state_json, STEPS, legal_moves, attrgetter("to_act"), player_view,
                          score, load_table=load_table, narrate=narrate, sample_unseen=sample_unseen, standing=standing,
                          playout_turns=PLAYOUT_TURNS)
    rule_book = RULES
    schemas = wire_schemas  # the requests and answers on the wire (openapi.yaml is made from them)

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    def score(self, request: Json) -> Json:
        several_deals = request.get("several_deals", False) is True  # T-SCORE-DEALS, T-SVC-DEALS
        if "notation" in request:  # problems already point at /notation, with line and column in the message
            table, warnings = table_notation.read(request["notation"])
            result = score_table(table, several_deals=several_deals)
            return {**result.to_json(), "warnings": [p.to_json() for p in warnings]}
        if "table" not in request:
            return self.score_state(request, several_deals=several_deals)
        return self.score_document(request, "table", lambda table: score_table(table, several_deals=several_deals))

    def table_of_request(self, request: Json) -> Table:
        """The table of a {"state"}, {"table"} or {"notation"} request, checked (errors point into the request)."""
        if "notation" in request:
            return table_notation.read(request["notation"])[0]
        if "table" in request:
            return self.read(request, "table")
        return table_of(self.read(request))

    def picture(self, request: Json) -> str:
        """Draw a state's table, a table or a notation text as SVG: each player's towers as stacked cards
        (Buona Pietra marked), complete towers roofed, the Highest marker beside its holder, names and totals.
        Not cached: drawing is cheap."""
        return table_picture.svg(self.table_of_request(request))

    def notation(self, request: Json) -> Json:
        """{"notation"}: the table of a {"state"} or {"table"} request in canonical notation."""
        return {"notation": table_notation.write(self.table_of_request(request))}

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (service.games.core.base.Game.examples)."""
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
