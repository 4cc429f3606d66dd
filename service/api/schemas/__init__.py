"""Request/response schemas: shared ones, and one module per game (registered by game id)."""
from types import ModuleType

from . import campanile, carcassonne, sangimignano, torri

GAME_SCHEMAS: dict[str, ModuleType] = {
    "torri": torri,
    "campanile": campanile,
    "sangimignano": sangimignano,
    "carcassonne": carcassonne,
}
