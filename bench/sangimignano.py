"""San Gimignano engine benchmark: the rules library alone (no HTTP; the computed /apply against the floor is
bench/service.py's).

    python bench/sangimignano.py           # the full run (about a minute)
    python bench/sangimignano.py --quick   # smaller samples, for a smoke test

Measures, for the base game and the variant (S-VAR-1):
- legal listing on a full 16-hexagon board (four players, every hexagon laid), p50/p99, at the token and the build
  phase, alone and with the JSON read (`read_state` + `legal_steps`, what a request pays); and at the hexagon
  phase on boards of 12 to 15 hexagons (the placements of every hexagon in hand, every turn, every free cell);
- one step applied on such a board, p50/p99: a token, or a build or end (the turn's end, with the S-SVC-STUCK
  check of possible groups once no hexagon is left);
- the JSON round trip of a state (`state_json` -> `read_state`, every rule checked), p50/p99;
- the read of a state's JSON, on an early board (a four-player deal) and on a full one: `orjson.loads` of the bytes,
  the read (the state schema's load and `build_state`, what a request pays) and `build_state` alone, p50, each
  call with the engine's caches emptied first (a request's board is seldom the one asked about last), and the
  ratios of full to early and of read to `orjson.loads`;
- perft nodes/s from a four-player deal;
- random full games per second (deal to game over), 2 to 4 players.
Latencies are the best of 3 calls each (the machine is shared; p50 shrugs off the neighbours, p99 less so);
throughputs are CPU time, the best of a few repeats. Not a test: nothing here asserts speed.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.games import sangimignano as sg  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from service.games.sangimignano import engine, geometry, position  # noqa: E402
from service.games.sangimignano.schemas import SanGimignanoStateSchema  # noqa: E402

PERFT_DEPTH = 4  # 3 with --quick


def random_game(seed: int, players: int, large: bool) -> list[sg.State]:
    rng = random.Random(f"bench:{seed}")
    state = sg.new_game(seed, players=players, large_groups=large)
    states = [state]
    while not state.over:
        state = sg.apply_step(state, rng.choice(sg.legal_steps(state)))[0]
        states.append(state)
    return states


def board_states(count: int, large: bool, sizes: range = range(16, 17), step: str | None = None) -> list[sg.State]:
    """States of four-player games with as many hexagons on the board as `sizes` allows (all 16 by default), the
    game not over, at the phase `step` (any by default)."""
    out: list[sg.State] = []
    seed = 0
    while len(out) < count:
        out.extend(s for s in random_game(50_000 + seed, 4, large)
                   if len(s.board) in sizes and not s.over and step in (None, s.step))
        seed += 1
    rng = random.Random(7)
    rng.shuffle(out)
    return out[:count]


def percentiles(samples_ns: list[int]) -> tuple[float, float]:
    ordered = sorted(samples_ns)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return p50 / 1000, p99 / 1000  # microseconds


def timed(call, items) -> tuple[float, float]:
    """p50 and p99 of `call(item)` in µs, each the best of three calls."""
    clock = time.perf_counter_ns
    samples = []
    for item in items:
        best = None
        for _ in range(3):
            started = clock()
            call(item)
            elapsed = clock() - started
            best = elapsed if best is None else min(best, elapsed)
        samples.append(best)
    return percentiles(samples)


def best_of(repeats: int, run) -> tuple[float, int]:
    """The best CPU time of `repeats` runs (CPU time: the machine is shared, wall time is not ours)."""
    best, result = float("inf"), 0
    for _ in range(repeats):
        started = time.process_time()
        result = run()
        best = min(best, time.process_time() - started)
    return best, result


def fmt(pair: tuple[float, float]) -> str:
    return f"{pair[0]:.0f} / {pair[1]:.0f} µs"


class LoadedOnly(SanGimignanoStateSchema):
    """The state schema without its build: the fields as loaded, what `position.build_state` takes."""

    build = staticmethod(lambda loaded: loaded)


def empty_caches() -> None:
    """Forget every position the engine remembers (its searches and board layouts)."""
    for module in (engine, geometry):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def cold_p50(call, items) -> float:
    """The p50 of `call(item)` in µs, one call each, the engine's caches emptied before each (not timed)."""
    clock = time.perf_counter_ns
    samples = []
    for item in items:
        empty_caches()
        started = clock()
        call(item)
        samples.append(clock() - started)
    return percentiles(samples)[0]


def read_rows(full: list[sg.State], count: int) -> dict[str, str]:
    """The read of an early board (a four-player deal) and of a full one: orjson.loads, schema + build_state, and
    build_state alone, with the ratios the reading is held to."""
    early = [sg.new_game(seed, players=4, large_groups=full[0].large_groups) for seed in range(count)]
    loaded_only = LoadedOnly()
    figures: dict[str, dict[str, float]] = {}
    for name, states in (("early", early), ("full", full[:count])):
        blobs = [orjson.dumps(sg.state_json(s)) for s in states]
        documents = [orjson.loads(b) for b in blobs]
        loaded = [loaded_only.load(d) for d in documents]
        figures[name] = {"orjson": cold_p50(orjson.loads, blobs), "read": cold_p50(sg.schemas.load_state, documents),
                         "build": cold_p50(position.build_state, loaded)}
    rows = {}
    for name, label in (("early", "early board (4-player deal)"), ("full", "full board")):
        f = figures[name]
        rows[f"read, {label}: orjson.loads / schema + build_state / build_state"] = \
            f"{f['orjson']:.1f} / {f['read']:.0f} / {f['build']:.0f} µs"
    early_f, full_f = figures["early"], figures["full"]
    rows["read ratios: full / early (schema + build_state; build_state)"] = \
        f"{full_f['read'] / early_f['read']:.2f}×; {full_f['build'] / early_f['build']:.2f}×"
    rows["read ratios: schema + build_state / orjson.loads (early; full)"] = \
        f"{early_f['read'] / early_f['orjson']:.0f}×; {full_f['read'] / full_f['orjson']:.0f}×"
    return rows


def measure(large: bool, args: argparse.Namespace) -> dict[str, str]:
    count = 150 if args.quick else 800
    states = board_states(count, large)
    by_phase = {phase: [s for s in states if s.step == phase] for phase in (sg.TOKEN, sg.BUILD)}
    docs = {phase: [sg.state_json(s) for s in group] for phase, group in by_phase.items()}
    rows: dict[str, str] = {}
    rows["full-board states sampled (token / build phase)"] = \
        f"{len(by_phase[sg.TOKEN])} / {len(by_phase[sg.BUILD])}"
    rows["legal listing, full board, token phase"] = fmt(timed(sg.legal_steps, by_phase[sg.TOKEN]))
    rows["legal listing, full board, build phase"] = fmt(timed(sg.legal_steps, by_phase[sg.BUILD]))
    rows["legal listing, full board, all phases"] = fmt(timed(sg.legal_steps, states))
    placing = board_states(count // 4, large, range(12, 16), sg.HEX)
    rows["legal listing, hexagon phase, 12 to 15 hexagons laid"] = fmt(timed(sg.legal_steps, placing))
    rows["read_state + legal listing, full board"] = fmt(timed(lambda d: sg.legal_steps(sg.read_state(d)),
                                                               docs[sg.TOKEN] + docs[sg.BUILD]))
    first = [(s, sg.legal_steps(s)[0]) for s in by_phase[sg.TOKEN]]
    rows["apply a token, full board"] = fmt(timed(lambda pair: sg.apply_step(*pair), first))
    ends = [(s, sg.legal_steps(s)[-1]) for s in by_phase[sg.BUILD]]
    rows["apply end (turn's end, S-SVC-STUCK check), full board"] = fmt(timed(lambda pair: sg.apply_step(*pair),
                                                                               ends))
    rows["JSON round trip (state_json -> read_state), full board"] = fmt(timed(
        lambda s: sg.read_state(json.loads(json.dumps(sg.state_json(s)))), states[:count // 2]))
    rows.update(read_rows(states, count // 2))
    deal = sg.new_game(1, players=4, large_groups=large)
    depth = PERFT_DEPTH - 1 if args.quick else PERFT_DEPTH
    seconds, nodes = best_of(1 if args.quick else 3, lambda: perft(sg, deal, depth))
    rows[f"perft({depth}) from a 4-player deal"] = f"{nodes:,} nodes in {seconds:.2f} s = " \
                                                         f"{nodes / seconds:,.0f} nodes/s"
    games = 12 if args.quick else 60
    plan = [(seed, 2 + seed % 3) for seed in range(games)]

    def play_all() -> int:
        return sum(len(random_game(seed, players, large)) - 1 for seed, players in plan)

    seconds, steps = best_of(1 if args.quick else 3, play_all)
    rows["random full games (2-4 players)"] = f"{games / seconds:,.1f} games/s, {steps / seconds:,.0f} steps/s, " \
                                              f"{steps / games:.0f} steps a game"
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description="San Gimignano engine benchmark")
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    results = {}
    for large in (False, True):
        name = "variant (large_groups)" if large else "base game"
        results[name] = measure(large, args)
    measures = list(results["base game"])
    width = max(len(m) for m in measures)
    print(f"{'measure':<{width}}  {'base game':>28}  {'variant (large_groups)':>28}")
    for measure_name in measures:
        print(f"{measure_name:<{width}}  {results['base game'][measure_name]:>28}  "
              f"{results['variant (large_groups)'][measure_name]:>28}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
