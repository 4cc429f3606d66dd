"""Generate service/games/carcassonne/referee/example.json: the referee page's example of a finished Carcassonne
table, a whole seeded base game (service.games.carcassonne.adapter.example_game) as the page's editor holds a table:
the players with their names and score track, every tile where it lies, and the meeples still on the board. The
editor loads it when the example is asked for; the browser tests score it against the service's own score.

Usage: python tools/gen_carcassonne_referee_example.py [--check]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games.carcassonne import state_json  # noqa: E402
from service.games.carcassonne.game import EXAMPLE_SEED, example_game  # noqa: E402
from tools.generated_file import write_or_check  # noqa: E402

OUT = ROOT / "service" / "games" / "carcassonne" / "referee" / "example.json"


def document() -> dict:
    state = state_json(example_game(EXAMPLE_SEED))
    assert state["phase"] == "over" and not state["discarded"], "the editor's finished table has every tile placed"
    table = {"tower": False, "players": [{"name": p["name"], "score": p["score"], "prisoners": []}
                                         for p in state["players"]],
             "board": state["board"], "meeples": state["meeples"], "towers": []}
    return {"seed": EXAMPLE_SEED, "table": table}


def text() -> str:
    return json.dumps(document(), separators=(",", ":"), ensure_ascii=False) + "\n"


def main() -> int:
    return write_or_check(__doc__ or "", OUT, text, __file__)


if __name__ == "__main__":
    sys.exit(main())
