"""Write Carcassonne's golden playthroughs and perft counts.

    python tools/make_carcassonne_golden.py            # rewrite tests/carcassonne/data/golden/*.json and perft.json
    python tools/make_carcassonne_golden.py --check    # compare with the files instead (exit 1 on a difference)

Golden playthroughs: seeded games, one for each player count 2 to 5 and two with The Tower, played by a directed
random policy (it likes captures, ransoms, floors and meeples), each chosen among SEARCH_SEEDS seeds so that
together the games exercise every feature in FEATURES. Each file holds the seed, the names, the variant, the steps
as JSON, the events, the final state and the score; tests/test_golden.py replays them exactly.

Perft: perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of perft(apply(s, step), d - 1), from a
deal for each player count and from mid-game positions with and without The Tower, each to a fixed depth.

Run this only when a rules change is meant to change the outcome; review the diff of the data files.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games import carcassonne  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from tools import golden_files  # noqa: E402

DATA = ROOT / "tests" / "carcassonne" / "data"
GOLDEN = DATA / "golden"
PERFT = DATA / "perft.json"

NAMES = ("Ada", "Bea", "Cy", "Dov", "Eli")
FEATURES = ("road", "city", "cloister", "shared", "discard", "fields", "floor", "capture", "own_capture",
            "tower_meeple", "top_captured", "exchanged", "ransom")
GAMES = ((2, False), (3, False), (4, False), (5, False), (2, True), (4, True))
SEARCH_SEEDS = 60
LIKED = ("capture", "ransom", "floor", "tower_meeple", "meeple")
# Depth per position, fixed so that the file does not depend on the machine.
PERFT_DEPTHS = {"deal-2p": 4, "deal-3p": 4, "deal-4p": 3, "deal-5p": 3, "midgame-2p": 3, "midgame-3p-tower": 3}


def directed(rng: random.Random, legal: list[carcassonne.Step]) -> carcassonne.Step:
    for kind in LIKED:
        chosen = [s for s in legal if s.type == kind]
        if chosen and rng.random() < 0.5:
            return rng.choice(chosen)
    return rng.choice(legal)


def play(players: int, tower: bool, seed: int) -> tuple[list[dict], carcassonne.State, list[dict]]:
    rng = random.Random(f"golden:{players}:{tower}:{seed}")
    state = carcassonne.new_game(seed, names=NAMES[:players], tower=tower)
    steps: list[dict] = []
    events: list[dict] = []
    while not state.over and len(steps) < 1000:
        step = directed(rng, carcassonne.legal_steps(state))
        state, happened = carcassonne.apply_step(state, step)
        happened = [event.at(len(steps)) for event in happened]
        steps.append(step.to_json())
        events.extend(happened)
    return steps, state, events


def features(state: carcassonne.State, events: list[dict]) -> set[str]:
    got: set[str] = set()
    for event in events:
        kind = event["type"]
        if kind == "scored" and event["scorers"]:
            got.add(event["feature"]["type"])
            if len(event["scorers"]) > 1:
                got.add("shared")
        elif kind == "discarded":
            got.add("discard")
        elif kind in ("floor", "tower_meeple", "exchanged", "ransom"):
            got.add(kind)
        elif kind == "captured":
            got.add("own_capture" if event["to"] == "supply" else "capture")
            if event["feature"] == "tower":
                got.add("top_captured")
    if any(f["type"] == "field" and f["points"] for f in carcassonne.score(state).to_json()["features"]):
        got.add("fields")
    return got


def choose_games() -> list[tuple[int, bool, int, set[str]]]:
    """For each (players, tower), the seed whose game covers most of what is still missing."""
    missing = set(FEATURES)
    chosen = []
    for players, tower in GAMES:
        best, best_seed = features(*play(players, tower, 0)[1:]), 0
        for seed in range(1, SEARCH_SEEDS):
            _, state, events = play(players, tower, seed)
            got = features(state, events)
            if len(got & missing) > len(best & missing):
                best, best_seed = got, seed
        chosen.append((players, tower, best_seed, best))
        missing -= best
    if missing:
        raise SystemExit(f"the chosen games do not cover {sorted(missing)}")
    return chosen


def golden_documents() -> dict[str, dict]:
    out = {}
    for players, tower, seed, got in choose_games():
        steps, state, events = play(players, tower, seed)
        name = f"{players}p-seed-{seed}{'-tower' if tower else ''}.json"
        out[name] = {
            "seed": seed,
            "names": list(NAMES[:players]),
            "variant": {"tower": tower},
            "features": sorted(got),
            "steps": steps,
            "events": events,
            "final_state": carcassonne.state_json(state),
            "score": carcassonne.score(state).to_json(),
        }
    return out


def perft_positions() -> list[dict]:
    positions = [{"name": f"deal-{n}p", "seed": 1, "players": n, "tower": False, "steps": []} for n in (2, 3, 4, 5)]
    for players, tower, name in ((2, False, "midgame-2p"), (3, True, "midgame-3p-tower")):
        steps, _, _ = play(players, tower, 1)
        positions.append({"name": name, "seed": 1, "players": players, "tower": tower,
                          "steps": steps[:len(steps) // 2]})
    for position in positions:
        start = carcassonne.new_game(position["seed"], players=position["players"], tower=position["tower"])
        state = carcassonne.apply_steps(start, position["steps"]).state
        position["counts"] = {str(depth): perft(carcassonne, state, depth)
                              for depth in range(1, PERFT_DEPTHS[position["name"]] + 1)}
    return positions


def perft_document() -> dict:
    return {
        "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                      "perft(apply(s, step), d - 1). Steps are single decisions: place / discard, an action "
                      "(meeple, floor, tower_meeple, skip), capture / skip, ransom.",
        "positions": perft_positions(),
    }


def main() -> int:
    return golden_files.main(__doc__.split("\n\n")[0], GOLDEN, PERFT, golden_documents, perft_document)


if __name__ == "__main__":
    raise SystemExit(main())
