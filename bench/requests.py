"""What a computed answer costs in process, for every game and variant, beside the framework floor.

    python bench/requests.py                          # this checkout
    python bench/requests.py --json /tmp/now.json     # ... and keep the figures, to set beside another build's

Through Flask's test client with the cache off (so every answer is computed: the reading, the game, the JSON),
with bodies sampled over whole seeded random games of each game and variant (early, middle and late positions
alike): /apply of one legal move and /legal-moves. Beside it, in the same run, bench/floor_app.py (Flask parsing
the same bodies and answering as many bytes) through its own test client: the ratio floor ÷ service is what
bench/service.py measures over HTTP, without the server's and the load generator's share (which both pay alike, so
over HTTP the ratio is closer to 1). And the same service with EARLY_CACHE_HITS off, every answer written by the
Flask view (service/api/early.py says what the early layer skips). Each figure is CPU time (time.process_time)
per request, the best of `--rounds` passes over the bodies: the machine's other load moves wall time far more.
Nothing is asserted.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import logging
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


def _floor_app():
    spec = importlib.util.spec_from_file_location("floor_app", ROOT / "bench" / "floor_app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.app


def sampled_positions(game, variant: dict, games: int, per_game: int) -> list:
    """`per_game` positions drawn from each of `games` seeded random games played to the end (2 players, 3 where
    the game needs more), as the library's states."""
    lib = game.library
    players = min(max(2, game.info.min_players), game.info.max_players)
    positions = []
    for seed in range(games):
        state = lib.read_state(game.new({"seed": seed, "names": NAMES[:players], "variant": variant})["state"])
        rng, states = random.Random(seed), [state]
        while moves := lib.legal_moves(state):
            state = lib.steps.apply_steps(state, [rng.choice(moves)]).state
            states.append(state)
        positions += rng.sample(states[:-1], min(per_game, len(states) - 1))
    return positions


def cpu_per_request(client, requests: list[tuple[str, str]], rounds: int) -> float:
    """µs of CPU per request, the best of `rounds` passes over the requests."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for url, body in requests:
            response = client.post(url, data=body, content_type="application/json")
            assert response.status_code == 200, response.get_data()[:300]
        best = min(best, (time.process_time() - started) / len(requests) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=3, help="random games sampled per game and variant")
    parser.add_argument("--positions", type=int, default=8, help="positions drawn from each game")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    settings = {"RATE_LIMIT": "", "CACHE_MAX_ENTRIES": 0, "LOG_LEVEL": "ERROR"}
    service = create_app(settings).test_client()
    through_flask = create_app({**settings, "EARLY_CACHE_HITS": False}).test_client()
    floor = _floor_app().test_client()
    figures: dict[str, dict] = {}
    print(f"{'game':28} {'endpoint':12} {'body median':>11} {'service µs':>10} {'floor µs':>9} {'floor ÷ service':>15}"
          f" {'Flask path µs':>13} {'Flask path ÷ service':>20}")
    for game_id, game in GAMES.items():
        for variant in [{}] + [{v.name: True} for v in game.info.variants]:
            lib = game.library
            positions = sampled_positions(game, variant, args.games, args.positions)
            documents = [(lib.state_json(s), lib.legal_moves(s)[:1]) for s in positions]
            bodies = {"apply": [json.dumps({"state": doc, "moves": moves}) for doc, moves in documents],
                      "legal-moves": [json.dumps({"state": doc}) for doc, _ in documents]}
            name = game_id + ("+" + ",".join(variant) if variant else "")
            for endpoint, texts in bodies.items():
                url = f"/v1/games/{game_id}/{endpoint}"
                requests = [(url, text) for text in texts]
                sizes = [len(service.post(url, data=t, content_type="application/json").get_data()) for t in texts]
                echoes = [(f"/echo?bytes={size}", text) for size, text in zip(sizes, texts)]
                mine, theirs, flask_path = [], [], []
                for _ in range(2):  # the apps in turn, so all see the same machine
                    mine.append(cpu_per_request(service, requests, args.rounds))
                    theirs.append(cpu_per_request(floor, echoes, args.rounds))
                    flask_path.append(cpu_per_request(through_flask, requests, args.rounds))
                row = {"body_median": statistics.median(len(t) for t in texts), "service_us": min(mine),
                       "floor_us": min(theirs), "flask_path_us": min(flask_path)}
                row["ratio"] = row["floor_us"] / row["service_us"]
                figures[f"{name} {endpoint}"] = row
                print(f"{name:28} {endpoint:12} {row['body_median']:>9.0f} B {row['service_us']:>10.0f} "
                      f"{row['floor_us']:>9.0f} {row['ratio']:>14.2f}x {row['flask_path_us']:>13.0f} "
                      f"{row['flask_path_us'] / row['service_us']:>19.2f}x", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
