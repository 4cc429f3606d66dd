"""Generate service/games/carcassonne/referee/tiles.json: what the referee page's Carcassonne editor knows of the
tiles, from the game's own table (service/games/carcassonne): how many of each tile the base game and The Tower
have, and for every tile at rotation 0 its edges (N, E, S, W), the features a meeple can stand on (K-TILE-4 names),
whether it has a tower foundation, and its drawing as the picture draws it. The editor loads this one file instead
of asking the service about every tile.

Usage: python tools/gen_carcassonne_referee_tiles.py [--check]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games.carcassonne import Kind, face, tile_counts  # noqa: E402
from service.games.carcassonne.picture import tile_svg  # noqa: E402

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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    args = parser.parse_args()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text():
            print(f"{OUT.relative_to(ROOT)} is out of date: run python {Path(__file__).relative_to(ROOT)}")
            return 1
        return 0
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
