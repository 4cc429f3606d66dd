"""Carcassonne engine benchmark (with and without The Tower).

    python bench/carcassonne.py            # the full run (about a minute)
    python bench/carcassonne.py --quick    # smaller samples, for a smoke test

Measures:
- reading a state of 10 and of 70 tiles, at the place step, µs per call beside orjson.loads of the same bytes: the
  whole read (orjson.loads, the state schema and build_state, what every request does before its work),
  build_state alone (from what the schema loaded: the game's share) and the board's feature index alone
  (BoardIndex.of with its union-find, which the read leaves to the first step that asks a feature);
- legal listing of a drawn tile (every square and rotation where it fits) on boards of 20, 40 and 70 tiles, p50/p99:
  on a parsed state (its feature index built while reading it, as for every request), and with the JSON read
  (read_state + legal_steps, what /legal-moves computes besides the HTTP layer);
- the listing after the tile is placed (every free feature, floors, tower tops), p50/p99;
- end scoring of a finished 72-tile board (score_state), p50/p99, on a parsed state (its feature index built) and
  with the JSON read (read_state + score_state, what /score computes besides the HTTP layer);
- random full games per second, deal to game over (random legal steps, liking meeples, floors and captures).
Latencies and games per second are CPU time (time.process_time), each call the best of 3 repeats: on a shared
machine the neighbours inflate wall time, most of all its p99. Not a test: nothing here asserts speed.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from service.games import carcassonne  # noqa: E402
from service.games.carcassonne.board import BoardIndex  # noqa: E402
from service.games.carcassonne.position import build_state  # noqa: E402
from service.games.carcassonne.schemas import CarcassonneStateSchema, load_state  # noqa: E402

LIKED = ("capture", "floor", "tower_meeple", "meeple")


def choose(rng: random.Random, legal: list) -> carcassonne.Step:
    for kind in LIKED:
        chosen = [s for s in legal if s.type == kind]
        if chosen and rng.random() < 0.5:
            return rng.choice(chosen)
    return rng.choice(legal)


def game(seed: int, players: int, tower: bool) -> list[carcassonne.State]:
    rng = random.Random(seed)
    state = carcassonne.new_game(seed, players=players, tower=tower)
    states = [state]
    while not state.over:
        state = carcassonne.apply_step(state, choose(rng, carcassonne.legal_steps(state)))[0]
        states.append(state)
    return states


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"p50 {p50 * 1e6:8.1f} µs   p99 {p99 * 1e6:8.1f} µs   (n={len(samples)})"


def timed(call, repeat: int = 1) -> float:
    """The CPU time of one call, the best of `repeat` (a shared machine's neighbours inflate wall time)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        call()
        best = min(best, time.process_time() - started)
    return best


class LoadedFields(CarcassonneStateSchema):
    """The state schema without the game's build: what build_state is given."""

    build = staticmethod(lambda data: data)


def per_call(call, loops: int, repeat: int = 3) -> float:
    """The CPU time of one call, averaged over `loops` calls, the best of `repeat` (for calls of a few µs)."""
    return timed(lambda: [call() for _ in range(loops)], repeat) / loops


def reading(games: list[list[carcassonne.State]], size: int, loops: int) -> dict[str, float]:
    """Per call at the place step on boards of `size` tiles, the median over the games: orjson.loads of the state's
    bytes, the whole read (bytes to a checked state's reading), build_state alone and the feature index alone
    (BoardIndex.of and its union-find)."""
    samples: dict[str, list[float]] = {"orjson": [], "read": [], "build": [], "index": []}
    fields = LoadedFields()
    for states in games:
        state = next((s for s in states if len(s.board) == size and s.step is carcassonne.StepDue.PLACE), None)
        if state is None:
            continue
        raw = orjson.dumps(carcassonne.state_json(state))
        loaded = fields.load(orjson.loads(raw))
        samples["orjson"].append(per_call(lambda: orjson.loads(raw), loops))
        samples["read"].append(per_call(lambda: load_state(orjson.loads(raw)), loops))
        samples["build"].append(per_call(lambda: build_state(loaded), loops))
        samples["index"].append(per_call(lambda: BoardIndex.of(state.board).parent, loops))
    return {name: statistics.median(values) for name, values in samples.items()}


def listing(games: list[list[carcassonne.State]], size: int, repeat: int) -> dict[str, list[float]]:
    """Samples at the place step on boards of `size` tiles, and at the action step after it."""
    out: dict[str, list[float]] = {"parsed": [], "from_json": [], "action": []}
    for states in games:
        for i, state in enumerate(states):
            if len(state.board) == size and state.step is carcassonne.StepDue.PLACE:
                document = carcassonne.state_json(state)
                parsed = carcassonne.read_state(document)
                out["parsed"].append(timed(lambda: carcassonne.legal_steps(parsed), repeat))
                out["from_json"].append(timed(lambda: carcassonne.legal_steps(carcassonne.read_state(document)),
                                              repeat))
                after = next((s for s in states[i + 1:] if s.step is carcassonne.StepDue.ACTION), None)
                if after is not None:
                    action = carcassonne.read_state(carcassonne.state_json(after))
                    out["action"].append(timed(lambda: carcassonne.legal_steps(action), repeat))
                break
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = 12 if args.quick else 120
    repeat = 3
    print(f"Python {sys.version.split()[0]}; {count} random games per variant\n")
    for tower in (False, True):
        label = "The Tower" if tower else "base game"
        games = [game(seed, 2 + seed % 4, tower) for seed in range(count)]
        print(f"== {label}")
        read = {size: reading(games, size, 20 if args.quick else 100) for size in (10, 70)}
        for size, r in read.items():
            print(f"reading a state, {size:2d} tiles: orjson.loads {r['orjson'] * 1e6:6.1f} µs; whole read "
                  f"{r['read'] * 1e6:7.1f} µs = {r['read'] / r['orjson']:5.1f}× orjson.loads; build_state "
                  f"{r['build'] * 1e6:6.1f} µs; board index {r['index'] * 1e6:6.1f} µs "
                  f"({r['index'] / size * 1e6:.2f} µs a tile)")
        print(f"reading a state, 70 tiles / 10 tiles: whole read {read[70]['read'] / read[10]['read']:.1f}×, "
              f"build_state {read[70]['build'] / read[10]['build']:.1f}×, board index "
              f"{read[70]['index'] / read[10]['index']:.1f}×")
        for size in (20, 40, 70):
            samples = listing(games, size, repeat)
            print(f"legal listing, drawn tile, {size:2d} tiles, parsed state : {percentiles(samples['parsed'])}")
            print(f"legal listing, drawn tile, {size:2d} tiles, JSON read    : {percentiles(samples['from_json'])}")
            print(f"legal listing, after the tile, {size:2d} tiles         : {percentiles(samples['action'])}")
        finals = [states[-1] for states in games if len(states[-1].board) >= 72]
        fresh, built = [], []
        for final in finals:
            board_only = carcassonne.read_state(carcassonne.state_json(final))
            built.append(timed(lambda: carcassonne.score_state(board_only), repeat))

            document = carcassonne.state_json(final)
            fresh.append(timed(lambda: carcassonne.score_state(carcassonne.read_state(document)), repeat))
        tiles = statistics.median(len(f.board) for f in finals)
        print(f"end scoring, {tiles:.0f}-tile boards, parsed state     : {percentiles(built)}")
        print(f"end scoring, {tiles:.0f}-tile boards, JSON read        : {percentiles(fresh)}")
        seeds = range(count // 4 or 1)
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            steps = sum(len(game(1000 + s, 2 + s % 4, tower)) for s in seeds)
            best = min(best, time.process_time() - started)
        print(f"random full games: {len(seeds) / best:.1f} games/s, {steps / best:,.0f} steps/s "
              f"({steps / len(seeds):.0f} steps a game)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
