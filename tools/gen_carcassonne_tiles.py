"""Generate service/games/carcassonne/tiles.json, the game's own tile table, from tools/data/carcassonne/.

Reads carcassonne_base_tower_tiles.json there (edges, features, pennants, the cities each field touches, counts
per set) and keeps the tiles of the sets the game uses (basic:1, tower:1), after checking that it says what the
JCloisterZone XML it was flattened from says (features, counts): jcz_basic.xml and jcz_tower.xml, beside it,
JCloisterZone's tile definitions (MIT licence). The library never reads that folder at run time:
service/games/carcassonne/tiles.py reads tiles.json once, at import.

tiles.json is one object: "about" (where it comes from), "tiles" (tile id -> [edges N, E, S, W; features], one
tile a line, each feature [type, edges, halves, pennant, the edges of the cities a field touches], edges and
halves in clockwise order from N and NL) and "sets" (set id -> tile id -> count). The order of the tiles and of
the sets' counts is the data's and is kept: the library deals the tiles in that order.

Usage: python tools/gen_carcassonne_tiles.py [--data DIR] [--check]
"""
from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT / "tools" / "data" / "carcassonne"
OUT = ROOT / "service" / "games" / "carcassonne" / "tiles.json"
SETS = {"basic": "basic:1", "tower": "tower:1"}
EDGES = ("N", "E", "S", "W")
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
KINDS = {"city", "road", "field"}
INNER = "INNER_FARM"  # the data's name of an enclosed field (K-TILE-4 calls it "inner")


def _feature(tile_id: str, raw: dict) -> tuple:
    """(type, edges, halves, pennant, adjacent cities) with edges and halves in clockwise order."""
    kind = raw["type"]
    if kind in ("cloister", "tower"):
        return (kind, (), (), False, ())
    if kind in ("road", "city"):
        edges = tuple(e for e in EDGES if e in raw["edges"])
        assert len(edges) == len(raw["edges"]) and edges, (tile_id, raw)
        return (kind, edges, (), bool(raw.get("pennant", False)), ())
    if kind == "field":
        halves = tuple(h for h in HALVES if h in raw["halves"])
        assert len(halves) == len(raw["halves"]) or raw["halves"] == [INNER], (tile_id, raw)
        cities = tuple(e for e in EDGES if e in raw.get("adjacent_cities", []))
        return (kind, (), halves, False, cities)
    raise ValueError(f"{tile_id}: unknown feature type {kind!r}")


def tile_table(data: dict) -> tuple[dict, dict]:
    tiles: dict[str, tuple] = {}
    counts: dict[str, dict[str, int]] = {}
    for group, set_id in SETS.items():
        chosen = data[group]["sets"][set_id]
        counts[set_id] = dict(chosen)
        for tile_id in chosen:
            raw = data[group]["tiles"][tile_id]
            edges = tuple(raw["edges"][e] for e in EDGES)
            assert set(edges) <= KINDS, tile_id
            features = tuple(_feature(tile_id, f) for f in raw["features"])
            tiles[tile_id] = (edges, features)
    return tiles, counts


def xml_disagreements(folder: Path, data: dict) -> list[str]:
    """Where the JSON and the XML definitions differ, for the tiles of the sets used (empty: they agree)."""
    def from_json(tile: dict) -> list[tuple]:
        out = []
        for f in tile["features"]:
            if f["type"] in ("road", "city"):
                out.append((f["type"], tuple(sorted(f["edges"])), bool(f.get("pennant"))))
            elif f["type"] == "field":
                out.append(("field", tuple(sorted(f["halves"])), tuple(sorted(f.get("adjacent_cities", [])))))
            else:
                out.append((f["type"], (), False))
        return sorted(out)

    def from_xml(tile: ElementTree.Element) -> list[tuple]:
        out = []
        for el in tile:
            words = tuple(sorted((el.text or "").split()))
            if el.tag in ("road", "city"):
                out.append((el.tag, words, el.get("pennant") == "yes"))
            elif el.tag == "farm":
                out.append(("field", words, tuple(sorted((el.get("city") or "").split()))))
            elif el.tag in ("cloister", "tower", "garden"):
                out.append((el.tag, (), False))
        return sorted(out)

    problems = []
    for group, set_id in SETS.items():
        root = ElementTree.parse(folder / f"jcz_{group}.xml").getroot()
        tiles = {t.get("id"): t for t in root.iter("tile")}
        counts = {r.get("tile"): int(r.get("count")) for s in root.iter("tile-set") if s.get("id") == set_id
                  for r in s.iter("ref")}
        if counts != data[group]["sets"][set_id]:
            problems.append(f"{set_id}: the counts differ")
        for tile_id in counts:
            if tile_id not in tiles or from_xml(tiles[tile_id]) != from_json(data[group]["tiles"][tile_id]):
                problems.append(f"{tile_id}: the features differ")
    return problems


ABOUT = ("The tile table of Carcassonne (set basic:1) and The Tower (set tower:1), generated by "
         "tools/gen_carcassonne_tiles.py from carcassonne_base_tower_tiles.json (JCloisterZone's tile definitions, "
         "MIT licence); do not edit by hand. The format is in the tool's docstring.")


def render(tiles: dict, counts: dict) -> str:
    """The JSON text: one tile a line, one count a line, in the table's order."""
    def dump(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    rows = ",\n".join(f"  {dump(tile)}: {dump(value)}" for tile, value in tiles.items())
    sets = json.dumps(counts, indent=1, ensure_ascii=False).replace("\n", "\n ")
    return f'{{\n "about": {dump(ABOUT)},\n "tiles": {{\n{rows}\n }},\n "sets": {sets}\n}}\n'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"the tile data folder (default: {DEFAULT_DATA.relative_to(ROOT)})")
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    args = parser.parse_args()
    data = json.loads((args.data / "carcassonne_base_tower_tiles.json").read_text(encoding="utf-8"))
    disagreements = xml_disagreements(args.data, data)
    if disagreements:
        print("the JSON and the XML tile data differ:", *disagreements, sep="\n  ")
        return 1
    text = render(*tile_table(data))
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"differs: {OUT.relative_to(ROOT)}")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
