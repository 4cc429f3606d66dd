"""Request/response schemas: shared ones, and one module per game (registered by game id)."""
from types import ModuleType

from . import campanile, torri

GAME_SCHEMAS: dict[str, ModuleType] = {
    "torri": torri,
    "campanile": campanile,
}
