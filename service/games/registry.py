"""The games the service referees. Adding a game: its folder (its `Game` in game.py, rules, wire schemas) and one
line here."""
from __future__ import annotations

from .campanile.game import CampanileGame
from .carcassonne.game import CarcassonneGame
from .core.game import Game
from .sangimignano.game import SanGimignanoGame
from .torri.game import TorriGame

GAMES: dict[str, Game] = {
    "torri": TorriGame(),
    "campanile": CampanileGame(),
    "sangimignano": SanGimignanoGame(),
    "carcassonne": CarcassonneGame(),
}
