"""What a computed answer costs in process, for every game and variant: /apply of one move and /legal-moves.

    python bench/requests.py                          # this checkout
    python bench/requests.py --json /tmp/now.json     # ... and keep the figures, to set beside another build's

Through Flask's test client with the cache off (so every answer is computed: the schema, the game, the JSON), on
the position after 30 seeded random steps of each game and variant. Each figure is the median of `--rounds`
rounds of `--requests` requests, in microseconds per request. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.games.registry import GAMES  # noqa: E402

NAMES = ["Ada", "Bea", "Cy"]


def position(game, variant: dict, steps: int = 30) -> dict:
    """The state after `steps` seeded random steps of a 3-player game (2 where the game takes no more)."""
    lib = game.library
    players = min(max(3, game.info.min_players), game.info.max_players)
    state = lib.read_state(game.new({"seed": 5, "names": NAMES[:players], "variant": variant})["state"])
    rng = random.Random(1)
    for _ in range(steps):
        moves = lib.legal_moves(state)
        if not moves:
            break
        state = lib.steps.apply_steps(state, [rng.choice(moves)]).state
    return lib.state_json(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    client = create_app({"RATE_LIMIT": "", "CACHE_MAX_ENTRIES": 0, "LOG_LEVEL": "ERROR"}).test_client()
    figures: dict[str, float] = {}
    for game_id, game in GAMES.items():
        for variant in [{}] + [{v.name: True} for v in game.info.variants]:
            doc = position(game, variant)
            move = game.library.legal_moves(game.library.read_state(doc))[0]
            bodies = {"apply": json.dumps({"state": doc, "moves": [move]}), "legal-moves": json.dumps({"state": doc})}
            name = game_id + ("+" + ",".join(variant) if variant else "")
            for endpoint, body in bodies.items():
                rounds = []
                for _ in range(args.rounds):
                    started = time.perf_counter()
                    for _ in range(args.requests):
                        response = client.post(f"/v1/games/{game_id}/{endpoint}", data=body,
                                               content_type="application/json")
                        assert response.status_code == 200, response.get_data()[:300]
                    rounds.append((time.perf_counter() - started) / args.requests * 1e6)
                figures[f"{name} {endpoint}"] = statistics.median(rounds)
                print(f"{name:32} {endpoint:12} {figures[f'{name} {endpoint}']:8.0f} µs", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
