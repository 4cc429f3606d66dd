"""The games the service referees. Adding a game: its folder (rules, wire schemas, adapter) and one line here."""
from __future__ import annotations

from .campanile.adapter import CampanileGame
from .carcassonne.adapter import CarcassonneGame
from .core.base import Game
from .sangimignano.adapter import SanGimignanoGame
from .torri.adapter import TorriGame

GAMES: dict[str, Game] = {
    "torri": TorriGame(),
    "campanile": CampanileGame(),
    "sangimignano": SanGimignanoGame(),
    "carcassonne": CarcassonneGame(),
}
