"""What the request schemas cost, with the board fast path (service/games/core/fastpath.py) and without it.

    python bench/schemas.py              # 300 rounds per case (about a minute)
    python bench/schemas.py --rounds 50  # quicker

For Carcassonne boards of 24 and 70 tiles (The Tower, 3 players) and a San Gimignano board (4 players), from seeded
random games: the schema load of a {"state"} request alone, and a computed /legal-moves through Flask's test client
(CACHE_MAX_ENTRIES=0, so nothing is served from the cache), each with the fast path on and off, interleaved round
by round so both see the same machine. Wall-time medians; not a test: nothing here asserts speed.
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
from service.games.core.schemas import List, wire_schema  # noqa: E402
from service.games.registry import GAMES  # noqa: E402
from service.games import carcassonne, sangimignano  # noqa: E402


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


@contextmanager
def fast_path(on: bool) -> Iterator[None]:
    original = List._fast_items
    if not on:
        List._fast_items = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        List._fast_items = original  # type: ignore[method-assign]


def side_by_side(rounds: int, measure: Callable[[], Any]) -> tuple[float, float]:
    """Median seconds of `measure` without and with the fast path, the order swapped every round."""
    times: dict[bool, list[float]] = {False: [], True: []}
    for i in range(rounds):
        for on in ((True, False) if i % 2 else (False, True)):
            with fast_path(on):
                start = time.perf_counter()
                measure()
                times[on].append(time.perf_counter() - start)
    return statistics.median(times[False]), statistics.median(times[True])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    client = create_app({"TESTING": True, "RATE_LIMIT": "", "LOG_LEVEL": "CRITICAL", "REDIS_URL": "",
                         "CACHE_MAX_ENTRIES": 0}).test_client()
    cases = [("Carcassonne, 24 tiles", "carcassonne", carcassonne_state(24)),
             ("Carcassonne, 70 tiles", "carcassonne", carcassonne_state(70)),
             ("San Gimignano, 4 players", "sangimignano", sangimignano_state())]
    print(f"{'case':28} {'schema load (without / with)':>30} {'computed /legal-moves':>30}")
    for name, game, state in cases:
        schema = wire_schema(GAMES[game].schemas, "StateRequest")()
        body = {"state": state}
        load = side_by_side(args.rounds, lambda: schema.load(body))

        def ask() -> None:
            response = client.post(f"/v1/games/{game}/legal-moves", json=body)
            assert response.status_code == 200, response.get_json()
        request = side_by_side(args.rounds, ask)
        print(f"{name:28} {load[0] * 1e3:8.2f} / {load[1] * 1e3:5.2f} ms ({load[0] / load[1]:4.1f}x) "
              f"{request[0] * 1e3:10.2f} / {request[1] * 1e3:5.2f} ms ({request[0] / request[1]:4.2f}x)")


if __name__ == "__main__":
    main()
