"""What the request schemas cost: marshmallow alone, with only the board lists compiled, and compiled whole
(service/wire/strict.py).

    python bench/schemas.py              # 300 rounds per case (a few minutes)
    python bench/schemas.py --rounds 50  # quicker

For Carcassonne boards of 24 and 70 tiles (The Tower, 3 players), a San Gimignano board (4 players) and a Torri and
a Campanile state after 60 seeded random steps: the schema load of a {"state"} request alone (the game's `build`
included: the schema's post_load), and a computed /legal-moves through Flask's test client (CACHE_MAX_ENTRIES=0, so
nothing is served from the cache; EARLY_CACHE_HITS off, so the view's schema reads the body), in each of the
three modes, interleaved round by round so all see the same machine. CPU-time medians; not a test: nothing here
asserts speed.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT
from service.games import carcassonne, sangimignano  # noqa: E402
from service.wire import schemas as wire  # noqa: E402
from service.wire.schemas import List  # noqa: E402
from service.games.registry import GAMES  # noqa: E402


def carcassonne_state(tiles: int) -> dict:
    state, rng = carcassonne.new_game(5, players=3, tower=True), random.Random(1)
    while len(state.board) < tiles:
        state, _ = carcassonne.apply_step(state, carcassonne.parse_step(rng.choice(carcassonne.legal_moves(state))))
    return carcassonne.state_json(state)


def sangimignano_state() -> dict:
    state, rng = sangimignano.new_game(3, players=4), random.Random(2)
    for _ in range(60):
        if state.over:
            break
        state, _ = sangimignano.apply_step(state, sangimignano.parse_step(rng.choice(sangimignano.legal_moves(state))))
    return sangimignano.state_json(state)


MODES = ("marshmallow", "board lists", "compiled")


@contextmanager
def mode(name: str) -> Iterator[None]:
    """marshmallow alone; only the items of board lists compiled (List._fast_items); the whole load compiled."""
    fast_items, loader_of = List._fast_items, wire.loader_of
    if name != "compiled":
        wire.loader_of = lambda schema: None
    if name == "marshmallow":
        List._fast_items = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        List._fast_items, wire.loader_of = fast_items, loader_of  # type: ignore[method-assign]


def side_by_side(rounds: int, measure: Callable[[], Any]) -> dict[str, float]:
    """Median CPU seconds of `measure` in each mode, the order rotated every round."""
    times: dict[str, list[float]] = {name: [] for name in MODES}
    for i in range(rounds):
        for name in MODES[i % 3:] + MODES[:i % 3]:
            with mode(name):
                start = time.process_time()
                measure()
                times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def random_state(game_id: str, steps: int) -> dict:
    game = GAMES[game_id]
    state, rng = game.load_state(game.new({"seed": 5, "names": ["Ada", "Bea"]})["state"]).checked(), random.Random(1)
    for _ in range(steps):
        moves = game.legal_moves_of(state)
        if not moves:
            break
        state = game.apply_steps(state, [rng.choice(moves)]).state
    return game.state_json(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    client = create_app({"TESTING": True, "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "LOG_LEVEL": "CRITICAL", "REDIS_URL": "",
                         "CACHE_MAX_ENTRIES": 0}).test_client()
    cases = [("Carcassonne, 24 tiles", "carcassonne", carcassonne_state(24)),
             ("Carcassonne, 70 tiles", "carcassonne", carcassonne_state(70)),
             ("San Gimignano, 4 players", "sangimignano", sangimignano_state()),
             ("Torri, 60 steps", "torri", random_state("torri", 60)),
             ("Campanile, 60 steps", "campanile", random_state("campanile", 60))]
    print(f"µs, CPU-time medians of {args.rounds} rounds: " + " / ".join(MODES))
    print(f"{'case':26} {'schema load':>24} {'x':>6} {'computed /legal-moves':>24} {'x':>6}")
    for name, game, state in cases:
        schema = GAMES[game].wire.schema("StateRequest")()
        body = {"state": state}
        load = side_by_side(args.rounds, lambda: schema.load(body))

        def ask() -> None:
            response = client.post(f"/v1/games/{game}/legal-moves", json=body)
            assert response.status_code == 200, response.get_json()
        request = side_by_side(args.rounds, ask)
        shown = lambda t: " / ".join(f"{t[m] * 1e6:6.0f}" for m in MODES)  # noqa: E731
        print(f"{name:26} {shown(load):>24} {load['board lists'] / load['compiled']:5.2f}x "
              f"{shown(request):>24} {request['board lists'] / request['compiled']:5.2f}x", flush=True)
    print("x: board lists / compiled (the compiled load against what came before it)")

if __name__ == "__main__":
    main()
