"""Computer players' strength and speed: the library alone (service/games/core/players.py), no HTTP.

    python bench/players.py --quick        # a smoke run: few games, small budgets (a few minutes)
    python bench/players.py                # the figures of RESULTS.md (CPU-heavy: run it in the background)
    python bench/players.py --only speed   # playouts per second and the wall-clock budget's p99, per game

Strength: for every game with 2 players and, for the games of more, 3 or 4 too, a stronger level against a weaker
one (`mcts` against `greedy`, `greedy` against `random`), the stronger in one seat and the weaker in the others,
the stronger seat rotating through every seat over the games (each deal played once per seat). A game scores the
stronger level's share of its pairings with the weaker seats: 1 for finishing ahead of one (a winner ahead of a
non-winner), 1/2 for a tie, 0 behind; so 50 % is even strength at any player count. The interval is the 95 %
normal interval of the mean of that per-game score. Searches use playout budgets (reproducible): `mcts` at the
playouts its default wall-clock budget buys on this machine for that game (measured first, or given with
`--playouts`).

Speed: playouts per second of the search (CPU time) from positions sampled over random games (early, middle,
late), and the wall-clock budget honoured: the time a search given `--budget-ms` takes (the whole suggestion,
from the state to the steps of the turn), p50/p99/max over 100 positions per case.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.games.core.game import Game  # noqa: E402
from service.games.core.players import Budget, suggest  # noqa: E402
from service.games.registry import GAMES  # noqa: E402

DEFAULT_BUDGET_MS = 300  # the service's default (SUGGEST_DEFAULT_BUDGET_MS)


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    variant: tuple[tuple[str, bool], ...] = ()

    @property
    def name(self) -> str:
        extra = "".join(f", {name}" for name, on in self.variant if on)
        return f"{self.game} ({self.players}p{extra})"

    def deal(self, seed: int) -> Any:
        names = [f"Player {i + 1}" for i in range(self.players)]
        return GAMES[self.game].new_game(seed, names=names, variant=dict(self.variant))


# speed: every game, a variant, the most players measured; strength: every game with 2 players, and with 3
SPEED = (Case("torri", 2), Case("torri", 2, (("nobles", True),)), Case("campanile", 2), Case("campanile", 5),
         Case("sangimignano", 2), Case("sangimignano", 4), Case("carcassonne", 2), Case("carcassonne", 3),
         Case("carcassonne", 3, (("tower", True),)))
STRENGTH = (Case("torri", 2), Case("campanile", 2), Case("campanile", 3), Case("sangimignano", 2),
            Case("sangimignano", 3), Case("carcassonne", 2), Case("carcassonne", 3))
DEALS = {2: 12, 3: 8}  # deals per match, each played once per seat: 24 games


def positions(case: Case, count: int, seed: int) -> list[Any]:
    """`count` states where someone is to act, sampled uniformly over random games of `case`."""
    game = GAMES[case.game]
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state, states = case.deal(rng.randrange(10 ** 9)), []
        while game.to_act(state) is not None:
            states.append(state)
            state = game.apply_step(state, rng.choice(game.legal_steps(state)))[0]
        found.extend(rng.sample(states, min(len(states), max(1, count // 8))))
    return found[:count]


def playouts_per_second(case: Case, samples: int, playouts: int) -> float:
    game = GAMES[case.game]
    run, spent = 0, 0.0
    for i, state in enumerate(positions(case, samples, 1)):
        started = time.process_time()
        found = suggest(game, state, level="mcts", seed=i, budget=Budget(playouts=playouts))
        spent += time.process_time() - started
        run += found.playouts
    return run / spent


def budget_times(case: Case, samples: int, budget_ms: int) -> list[float]:
    game = GAMES[case.game]
    times = []
    for i, state in enumerate(positions(case, samples, 2)):
        started = time.perf_counter()
        suggest(game, state, level="mcts", seed=i, budget=Budget(seconds=budget_ms / 1000))
        times.append((time.perf_counter() - started) * 1000)
    return times


def play(case: Case, seed: int, levels: list[str], playouts: int) -> list[float]:
    """One game, seat i played at `levels[i]`: each seat's standing at the end and the winners (as shares)."""
    game: Game = GAMES[case.game]
    state = case.deal(seed)
    decisions = 0
    while (seat := game.to_act(state)) is not None:
        found = suggest(game, state, level=levels[seat], seed=f"{seed}:{decisions}",
                        budget=Budget(playouts=playouts))
        outcome = game.apply_steps(state, found.steps)
        assert outcome.legal, (case, levels, [s.to_json() for s in found.steps], outcome.violations)
        state, decisions = outcome.state, decisions + 1
    winners = set(game.winners(state))
    return [1.0 if i in winners else 0.0 for i in range(game.players(state))]


def match(case: Case, strong: str, weak: str, deals: int, playouts: int) -> dict[str, Any]:
    """`deals` deals, each played once with the stronger level in each seat: the per-game pairing scores."""
    scores = []
    for deal in range(deals):
        for seat in range(case.players):
            levels = [weak] * case.players
            levels[seat] = strong
            won = play(case, 1000 + deal, levels, playouts)
            pairings = [0.5 if won[seat] == won[o] else float(won[seat] > won[o])
                        for o in range(case.players) if o != seat]
            scores.append(sum(pairings) / len(pairings))
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.inf
    return {"case": case.name, "strong": strong, "weak": weak, "games": len(scores), "playouts": playouts,
            "score": mean, "low": mean - half, "high": mean + half}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="few games and positions: a smoke run")
    parser.add_argument("--only", choices=("speed", "strength"), help="one half of the run")
    parser.add_argument("--game", help="the cases of one game")
    parser.add_argument("--players", type=int, help="the cases of one player count")
    parser.add_argument("--deals", type=int, help="deals per match (each played once per seat)")
    parser.add_argument("--playouts", type=int, help="mcts playouts per decision (default: what the default "
                                                     "wall-clock budget buys, measured)")
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    def chosen(cases: tuple[Case, ...]) -> list[Case]:
        return [c for c in cases if args.game in (None, c.game) and args.players in (None, c.players)]

    samples = 8 if args.quick else 40
    report: dict[str, Any] = {"speed": [], "strength": []}
    rates: dict[Case, float] = {}
    for case in chosen(SPEED if args.only != "strength" else STRENGTH):
        rates[case] = playouts_per_second(case, samples, 50 if args.quick else 200)
        row: dict[str, Any] = {"case": case.name, "playouts_per_s": round(rates[case], 1)}
        if args.only != "strength":
            times = sorted(budget_times(case, 8 if args.quick else 100, args.budget_ms))
            row.update(budget_ms=args.budget_ms, p50_ms=round(times[len(times) // 2], 1),
                       p99_ms=round(times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)], 1),
                       max_ms=round(times[-1], 1))
        report["speed"].append(row)
        print(json.dumps(row), flush=True)
    if args.only != "speed":
        for case in chosen(STRENGTH):
            if case not in rates:
                rates[case] = playouts_per_second(case, samples, 50 if args.quick else 200)
            playouts = args.playouts or max(10, int(rates[case] * DEFAULT_BUDGET_MS / 1000))
            if args.quick:
                playouts = min(playouts, 30)
            deals = args.deals or (1 if args.quick else DEALS[case.players])
            for strong, weak in (("mcts", "greedy"), ("greedy", "random")):
                result = match(case, strong, weak, deals, playouts)
                report["strength"].append(result)
                print(json.dumps(result), flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    print("\n| game | stronger | weaker | games | mcts playouts | score of the stronger | 95 % interval |")
    print("|---|---|---|---:|---:|---:|---|")
    for r in report["strength"]:
        playouts = r["playouts"] if r["strong"] == "mcts" else "–"
        low, high = max(0.0, r["low"]), min(1.0, r["high"])
        print(f"| {r['case']} | {r['strong']} | {r['weak']} | {r['games']} | {playouts} | "
              f"{100 * r['score']:.1f} % | {100 * low:.1f}–{100 * high:.1f} % |")
    print("\n| game | playouts/s | budget | p50 | p99 | max |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in report["speed"]:
        print(f"| {r['case']} | {r['playouts_per_s']:,.0f} | {r.get('budget_ms', '')} ms | {r.get('p50_ms', '')} | "
              f"{r.get('p99_ms', '')} | {r.get('max_ms', '')} |")


if __name__ == "__main__":
    main()
