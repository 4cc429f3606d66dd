"""Campanile behind the service's game interface: request documents in, answer documents out.

Pointers in errors and violations point into the request (`/state/...`, `/moves/3/card`).
"""
from __future__ import annotations

from ..core.adapter import GameLibrary, StateGame
from ..core.base import GameInfo, Json, Variant
from . import picture as table_picture
from . import schemas as wire_schemas
from .cards import MAX_PLAYERS, MIN_PLAYERS
from .catalogue import RULES, RULES_VERSION
from .game import STEPS, legal_moves, new_game, player_view, sample_unseen, score, standing, to_act
from .model import State
from .narration import narrate
from .position import state_json, table_of
from .schemas import load_state, load_table
from .scoring import score_table

# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("bet_on_played", "A player may also bet on the tower they played on this turn (C-VAR-1)."),)


PLAYOUT_TURNS = 2  # the search's playouts: two turns, then the leader on points wins (measured: bench/players.py)


class CampanileGame(StateGame[State]):
    info = GameInfo(id="campanile", title="Campanile", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    rules_version=RULES_VERSION, variants=VARIANTS)

    library = GameLibrary(new_game, load_state, state_json, STEPS, legal_moves, to_act, player_view, score,
                          load_table=load_table, narrate=narrate, sample_unseen=sample_unseen, standing=standing,
                          playout_turns=PLAYOUT_TURNS)
    rule_book = RULES
    schemas = wire_schemas  # the requests and answers on the wire (openapi.yaml is made from them)

    referee_assets = "referee"  # the folder of this game's editor on the referee page

    def score(self, request: Json) -> Json:
        return self.score_document(request, "table", score_table) if "table" in request else self.score_state(request)

    def picture(self, request: Json) -> str:
        """Draw a state's table or a table as SVG: the five towers in their row as stacks of cards, the flag each
        earns, the tokens under each in betting order in the players' colours, who takes the large and small
        numbers, and every player's total (the aria-label says who leads). Not cached: drawing is cheap."""
        table = self.read(request, "table") if "table" in request else table_of(self.read(request))
        return table_picture.svg(table)

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (service.games.core.base.Game.examples)."""
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
