"""The games the service referees. Adding a game: its folder (rules, wire schemas, adapter) and one line here."""
from __future__ import annotations

from .campanile.adapter import CampanileRules
from .carcassonne.adapter import CarcassonneRules
from .core.base import GameRules
from .sangimignano.adapter import SanGimignanoRules
from .torri.adapter import TorriRules

GAMES: dict[str, GameRules] = {
    "torri": TorriRules(),
    "campanile": CampanileRules(),
    "sangimignano": SanGimignanoRules(),
    "carcassonne": CarcassonneRules(),
}
