"""The games the service referees. Adding a game: its folder, one line here, and its schemas in
`service.api.schemas` (one line in GAME_SCHEMAS)."""
from __future__ import annotations

from .base import GameRules
from .campanile.adapter import CampanileRules
from .carcassonne.adapter import CarcassonneRules
from .sangimignano.adapter import SanGimignanoRules
from .torri.adapter import TorriRules

GAMES: dict[str, GameRules] = {
    "torri": TorriRules(),
    "campanile": CampanileRules(),
    "sangimignano": SanGimignanoRules(),
    "carcassonne": CarcassonneRules(),
}
