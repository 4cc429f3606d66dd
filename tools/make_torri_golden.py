"""Write Torri's golden playthroughs and perft counts (base game).

    python tools/make_torri_golden.py            # rewrite tests/torri/data/golden/*.json and perft.json
    python tools/make_torri_golden.py --check    # compare with the files instead (exit 1 on a difference)

Golden playthroughs: seeded games played by a directed random policy (it likes plain 8/9/10 towers, closing,
completing, guarding half the time), searched over seeds so that together the chosen games exercise every
feature in FEATURES. Each file holds the seed, the steps as JSON, the events, the final state and the score;
tests/test_golden.py replays them and compares exactly.

Perft: perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of perft(apply(s, step), d - 1),
from three seeded deals and two mid-game positions, each to a fixed depth (PERFT_DEPTHS).

Run this only when a rules change is meant to change the outcome; review the diff of the data files.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games import torri  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from tools import golden_files  # noqa: E402

DATA = ROOT / "tests" / "torri" / "data"
GOLDEN = DATA / "golden"
PERFT = DATA / "perft.json"

FEATURES = ("purchase", "exchange", "income", "trade_guarded", "trade_unguarded", "conspiracy_target",
            "conspiracy_guarded", "conspiracy_destroyed", "extend", "complete", "close", "ending_by_close",
            "ending_by_deck", "marker", "game_over")
GAMES_WANTED = 5
SEARCH_SEEDS = 400
PERFT_DEALS = (1, 2, 3)
# Depth per position, fixed so that the file does not depend on the machine (about half a second each).
PERFT_DEPTHS = {"deal-1": 6, "deal-2": 6, "deal-3": 6, "midgame-1": 7, "midgame-2": 6}


def features(events: list[dict], steps: list[dict]) -> set[str]:
    found: set[str] = set()
    types = [e["type"] for e in events]
    if "purchase" in types:
        found.add("purchase")
    if "exchange" in types:
        found.add("exchange")
    if "extended" in types:
        found.add("extend")
    if "completed" in types:
        found.add("complete")
    if "closed" in types:
        found.add("close")
    if "marker" in types:
        found.add("marker")
    if "game_over" in types:
        found.add("game_over")
    for e in events:
        if e["type"] == "donazione" and e["effect"] == "income":
            found.add("income")
        if e["type"] == "phase" and e["phase"] == "ending":
            found.add("ending_by_close" if e.get("reason") == "close" else "ending_by_deck")
        if e["type"] == "guarded":
            found.add(f"{e['effect']}_guarded")
        if e["type"] == "took":
            found.add("trade_unguarded")
        if e["type"] == "destroyed":
            found.add("conspiracy_destroyed")
    if any(s["type"] == "target" for s in steps):
        found.add("conspiracy_target")
    return found


def directed(rng: random.Random, legal: list[torri.Step], state: torri.State) -> torri.Step:
    """A random choice weighted towards the interesting: Donazione towers, closing, completing some."""
    def weight(step: torri.Step) -> float:
        if step.type == "pass":
            return 0.02 if len(legal) > 1 else 1.0
        if step.type == "close":
            return 30.0
        if step.type == "build":
            plain = len(set(step.cards)) == 1
            return 12.0 if plain and step.cards[0] >= 8 else 3.0
        if step.type == "complete":
            return 1.0 if len(step.towers) == 1 else 0.3
        if step.type == "extend":
            return 3.0
        if step.type == "exchange":
            return 6.0 / max(1, sum(s.type == "exchange" for s in legal))  # all exchanges together
        if step.type == "purchase":
            return 3.0
        return 1.0

    weights = [weight(s) for s in legal]
    return rng.choices(legal, weights)[0]


def play(seed: int) -> tuple[list[dict], torri.State, list[dict]]:
    rng = random.Random(f"golden:{seed}")
    state = torri.new_game(seed)
    steps: list[dict] = []
    events: list[dict] = []
    while state.phase != torri.OVER and len(steps) < 2000:
        step = directed(rng, torri.legal_steps(state), state)
        state, happened = torri.apply_step(state, step)
        happened = [event.at(len(steps)) for event in happened]
        events.extend(happened)
        steps.append(step.to_json())
    return steps, state, events


def choose_games() -> list[tuple[int, set[str]]]:
    """Greedy cover of FEATURES by the searched games, rarest features first; short games preferred."""
    found: list[tuple[int, set[str], int]] = []
    for seed in range(SEARCH_SEEDS):
        steps, state, events = play(seed)
        if state.phase == torri.OVER:
            found.append((seed, features(events, steps), len(steps)))
    chosen: list[tuple[int, set[str]]] = []
    missing = set(FEATURES)
    while missing and len(chosen) < GAMES_WANTED:
        seed, got, _ = max(found, key=lambda g: (len(g[1] & missing), -g[2]))
        if not got & missing:
            break
        chosen.append((seed, got))
        missing -= got
    if missing:
        raise SystemExit(f"no {GAMES_WANTED} games among {SEARCH_SEEDS} seeds cover {sorted(missing)}")
    # Fill up to GAMES_WANTED with the games richest in rare features (more coverage of the same paths).
    rare = {"conspiracy_target", "conspiracy_guarded", "trade_guarded", "close"}
    for seed, got, _ in sorted(found, key=lambda g: (-len(g[1] & rare), g[2])):
        if len(chosen) >= GAMES_WANTED:
            break
        if seed not in [c[0] for c in chosen]:
            chosen.append((seed, got))
    return chosen


def golden_documents() -> dict[str, dict]:
    out = {}
    for seed, got in choose_games():
        steps, state, events = play(seed)
        out[f"seed-{seed}.json"] = {
            "seed": seed,
            "variant": {"nobles": False},
            "features": sorted(got),
            "steps": steps,
            "events": events,
            "final_state": torri.state_json(state),
            "score": torri.score(state).to_json(),
        }
    return out


def perft_positions() -> list[dict]:
    positions = [{"name": f"deal-{seed}", "seed": seed, "steps": []} for seed in PERFT_DEALS]
    # Two positions from the middle of a directed game: towers on the table, a fuller hand, a smaller deck.
    for seed in PERFT_DEALS[:2]:
        steps, _, _ = play(seed)
        prefix = steps[: len(steps) // 2]
        state = torri.apply_steps(torri.new_game(seed), prefix).state
        while state.pending is not None:  # start at a turn's beginning
            prefix.append(torri.legal_steps(state)[0].to_json())
            state = torri.apply_steps(torri.new_game(seed), prefix).state
        positions.append({"name": f"midgame-{seed}", "seed": seed, "steps": prefix})
    for position in positions:
        state = torri.apply_steps(torri.new_game(position["seed"]), position["steps"]).state
        position["counts"] = {str(depth): perft(torri, state, depth)
                              for depth in range(1, PERFT_DEPTHS[position["name"]] + 1)}
    return positions


def perft_document() -> dict:
    return {
        "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                      "perft(apply(s, step), d - 1). Steps are single decisions (api.md, Moves).",
        "variant": {"nobles": False},
        "positions": perft_positions(),
    }


def main() -> int:
    return golden_files.main(__doc__.split("\n\n")[0], GOLDEN, PERFT, golden_documents, perft_document)


if __name__ == "__main__":
    raise SystemExit(main())
