"""Torri engine benchmark and every game's random playouts, with python-chess measured in the same run as a yardstick.

    python bench/engine.py             # the full run (about a minute)
    python bench/engine.py --quick     # smaller samples, for a smoke test
    python bench/engine.py --profile   # also cProfile Torri's perft and listing: the top functions by own time

Measures:
- Torri perft nodes/second on fixed seeded deals (perft counts len(legal_steps) at the last level);
- legal-step listing and apply latency, p50/p99, over a few thousand states sampled from random games;
- the JSON round trip of a state (state_json -> read_state), p50/p99, since the service does it per request;
- full random games per second (deal to game over, choices biased away from pass);
- python-chess kiwipete perft(3) nodes/second, same perft style (len(list(legal_moves)) at the last level);
- random playouts of every registered game, steps per second, beside python-chess's (legal moves listed, a random
  one played, to the game's end), the pace a computer player's search stands on.
Throughputs are CPU time, the best of a few repeats (the machine is shared); latencies are wall time per call
(p50 shrugs off the neighbours, p99 less so). Not a test: nothing here asserts speed.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.games import torri  # noqa: E402
from service.games.core.perft import perft  # noqa: E402

# The standard Kiwipete position (note the black pawn on h3, "2N2Q1p": without it perft(3) is 104208).
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
KIWIPETE_PERFT3 = 97862
TORRI_DEALS = (1, 2, 3)
TORRI_DEPTH = 6  # ~60-90k leaves per deal (tests/torri/data/perft.json)


# ---------------------------------------------------------------- Torri

def choose(rng: random.Random, legal: list[torri.Step]) -> torri.Step:
    others = [s for s in legal if s.type != "pass"]
    return rng.choice(others) if others and rng.random() > 0.03 else rng.choice(legal)


def random_game(seed: int) -> tuple[list[torri.State], int]:
    rng = random.Random(seed)
    state = torri.new_game(seed)
    states = [state]
    while state.phase != torri.OVER:
        state = torri.apply_step(state, choose(rng, torri.legal_steps(state)))[0]
        states.append(state)
    return states, len(states) - 1


def sample_states(count: int) -> list[torri.State]:
    rng = random.Random(2024)
    out: list[torri.State] = []
    seed = 0
    while len(out) < count:
        states, _ = random_game(10_000 + seed)
        seed += 1
        out.extend(s for s in states if s.phase != torri.OVER and rng.random() < 0.5)
    rng.shuffle(out)
    return out[:count]


def percentiles(samples_ns: list[int]) -> tuple[float, float]:
    ordered = sorted(samples_ns)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return p50 / 1000, p99 / 1000  # microseconds


def best_of(repeats: int, run) -> tuple[float, int]:
    """The best CPU time of `repeats` runs (CPU time: the machine is shared, wall time is not ours)."""
    best, result = float("inf"), 0
    for _ in range(repeats):
        started = time.process_time()
        result = run()
        best = min(best, time.process_time() - started)
    return best, result


# ---------------------------------------------------------------- chess

def chess_perft(board, depth: int) -> int:
    if depth == 1:
        return len(list(board.legal_moves))
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += chess_perft(board, depth - 1)
        board.pop()
    return nodes


# ---------------------------------------------------------------- playouts of every game

def game_playouts(game, games: int, players: int) -> tuple[float, int]:
    """(CPU seconds, steps) of `games` seeded random playouts of one registered game, deal to game over: at each
    step every legal step listed, one picked at random and applied (what a playout of a computer player does)."""
    names = [f"P{i}" for i in range(players)]
    started, total = time.process_time(), 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(seed, names=names)
        while True:
            legal = game.legal_steps(state)
            if not legal:
                break
            state = game.apply_step(state, rng.choice(legal))[0]
            total += 1
    return time.process_time() - started, total


def chess_playouts(chess, games: int) -> tuple[float, int]:
    """The same for python-chess: legal moves listed, a random one pushed, game over checked, to the end."""
    started, total = time.process_time(), 0
    for seed in range(games):
        rng = random.Random(seed)
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            total += 1
    return time.process_time() - started, total


def playout_rows(games: int, chess) -> list[tuple[str, str]]:
    """Random-playout steps per second of every registered game (2 players), beside python-chess's."""
    from service.games.registry import GAMES

    rows: list[tuple[str, str]] = []
    chess_rate = None
    if chess is not None:
        seconds, total = chess_playouts(chess, games)
        chess_rate = total / seconds
        rows.append((f"playouts: python-chess ({games} games)", f"{chess_rate:,.0f} steps/s"))
    for game_id, game in GAMES.items():
        seconds, total = game_playouts(game, games, 2)
        rate = total / seconds
        ratio = f" = {rate / chess_rate:.2f}× python-chess" if chess_rate else ""
        rows.append((f"playouts: {game_id} ({games} games, 2 players)", f"{rate:,.0f} steps/s{ratio}"))
    return rows


# ---------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description="Torri engine benchmark (python-chess alongside)")
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--profile", action="store_true", help="cProfile Torri's perft and listing")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    depth = TORRI_DEPTH - 1 if args.quick else TORRI_DEPTH
    state_count = 500 if args.quick else 3000
    game_count = 20 if args.quick else 100
    rows: list[tuple[str, str]] = []

    # Torri perft on the fixed deals
    deals = [torri.new_game(seed) for seed in TORRI_DEALS]
    torri_seconds, torri_nodes = best_of(repeats, lambda: sum(perft(torri, s, depth) for s in deals))
    torri_nps = torri_nodes / torri_seconds
    rows.append((f"torri perft({depth}) deals {TORRI_DEALS}", f"{torri_nodes} nodes in {torri_seconds:.2f} s = "
                                                           f"{torri_nps:,.0f} nodes/s"))

    # python-chess kiwipete perft(3), the same perft style
    try:
        import chess
    except ImportError:
        chess = None
    chess_nps = None
    if chess is not None:
        board = chess.Board(KIWIPETE)
        chess_seconds, chess_nodes = best_of(repeats, lambda: chess_perft(board, 3))
        if chess_nodes != KIWIPETE_PERFT3:
            print(f"warning: kiwipete perft(3) = {chess_nodes}, expected {KIWIPETE_PERFT3}", file=sys.stderr)
        chess_nps = chess_nodes / chess_seconds
        rows.append((f"python-chess {chess.__version__} kiwipete perft(3)",
                     f"{chess_nodes} nodes in {chess_seconds:.2f} s = {chess_nps:,.0f} nodes/s"))
        rows.append(("ratio torri / chess (nodes/s)", f"{torri_nps / chess_nps:.2f}"))
    else:
        rows.append(("python-chess", "not installed (pip install chess)"))

    # Latencies over sampled states
    states = sample_states(state_count)
    rng = random.Random(7)
    steps = [rng.choice(torri.legal_steps(s)) for s in states]
    legal_ns, apply_ns, json_ns = [], [], []
    clock = time.perf_counter_ns
    for state, step in zip(states, steps):
        started = clock()
        torri.legal_steps(state)
        legal_ns.append(clock() - started)
        started = clock()
        torri.apply_step(state, step)
        apply_ns.append(clock() - started)
        started = clock()
        torri.read_state(torri.state_json(state))
        json_ns.append(clock() - started)
    listed = statistics.mean(len(torri.legal_steps(s)) for s in states)
    for name, samples in (("legal_steps", legal_ns), ("apply_step", apply_ns),
                          ("state_json + read_state", json_ns)):
        p50, p99 = percentiles(samples)
        rows.append((f"{name} latency over {len(states)} states", f"p50 {p50:.1f} µs, p99 {p99:.1f} µs"))
    rows.append(("mean legal steps per sampled state", f"{listed:.1f}"))

    # Full random games
    started = time.process_time()
    total_steps = sum(random_game(seed)[1] for seed in range(game_count))
    seconds = time.process_time() - started
    rows.append((f"random games ({game_count}, deal to game over)",
                 f"{game_count / seconds:.1f} games/s, {total_steps / seconds:,.0f} steps/s "
                 f"({total_steps / game_count:.0f} steps a game)"))

    rows.extend(playout_rows(5 if args.quick else 20, chess))

    width = max(len(name) for name, _ in rows)
    print(f"{'measure'.ljust(width)} | result")
    print(f"{'-' * width}-+-{'-' * 50}")
    for name, value in rows:
        print(f"{name.ljust(width)} | {value}")

    if args.profile:
        profile_torri(deals, states, depth)
    return 0


def profile_torri(deals: list[torri.State], states: list[torri.State], depth: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for state in deals:
        perft(torri, state, depth)
    for state in states:
        torri.legal_steps(state)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    total = sum(row[2] for row in stats.stats.values())  # own time, all functions
    print(f"\ncProfile of Torri perft({depth}) on the deals + legal_steps on the sampled states "
          f"(own time; total {total:.2f} s under the profiler):")
    def show(rows) -> None:
        for (filename, line, function), (_, calls, own, cumulative, _) in rows:
            where = f"{Path(filename).parent.name}/{Path(filename).name}:{line}" if line else filename
            print(f"  own {100 * own / total:5.1f}%  cum {100 * cumulative / total:5.1f}%  {calls:>9} calls  "
                  f"{function} ({where})")

    show(sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:15])
    print("The engine's functions by cumulative time (share of the total, callees included):")
    engine = [item for item in stats.stats.items() if "games/torri" in Path(item[0][0]).as_posix()]
    show(sorted(engine, key=lambda item: item[1][3], reverse=True)[:15])


if __name__ == "__main__":
    raise SystemExit(main())
