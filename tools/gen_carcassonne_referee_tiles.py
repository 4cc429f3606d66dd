"""Generate service/games/carcassonne/referee/tiles.json: what the referee page's Carcassonne editor knows of the
tiles, from the game's own table (service/games/carcassonne): how many of each tile the base game and The Tower
have, and for every tile at rotation 0 its edges (N, E, S, W), the features a meeple can stand on (K-TILE-4 names),
whether it has a tower foundation, and its drawing as the picture draws it. The editor loads this one file instead
of asking the service about every tile.

Usage: python tools/gen_carcassonne_referee_tiles.py [--check]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games.carcassonne import Kind, face, tile_counts  # noqa: E402
from service.games.carcassonne.picture import tile_svg  # noqa: E402
from tools.generated_file import write_or_check  # noqa: E402

OUT = ROOT / "service" / "games" / "carcassonne" / "referee" / "tiles.json"


def document() -> dict:
    base, tower = tile_counts(False), tile_counts(True)
    tiles = {}
    for tile in sorted(tower):
        tile_face = face(tile, 0)
        tiles[tile] = {
            "edges": [edge.value for edge in tile_face.edges],
            "features": [segment.name for segment in tile_face.segments if segment.kind is not Kind.TOWER],
            "tower": bool(tile_face.tower),
            "image": tile_svg(tile),
        }
    return {"sets": {"base": dict(sorted(base.items())), "tower": dict(sorted(tower.items()))}, "tiles": tiles}


def text() -> str:
    return json.dumps(document(), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    return write_or_check(__doc__ or "", OUT, text, __file__)


if __name__ == "__main__":
    sys.exit(main())
