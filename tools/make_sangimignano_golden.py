"""Write San Gimignano's golden playthroughs and perft counts.

    python tools/make_sangimignano_golden.py            # rewrite tests/sangimignano/data/golden/*.json, perft.json
    python tools/make_sangimignano_golden.py --check    # compare with the files instead (exit 1 on a difference)

Golden playthroughs: seeded games, for 2, 3 and 4 players and for the variant (S-VAR-1), played by a directed random
policy (it builds nine times in ten when it can), each chosen among SEARCH_SEEDS seeds so that together the games
exercise every feature in FEATURES. Each file holds the seed, the names, the variant, the steps as JSON, the events,
the final state and the score; tests/test_golden.py replays them and compares exactly.

Perft: perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of perft(apply(s, step), d - 1), from a
deal for each player count and two mid-game positions, each to a fixed depth (PERFT_DEPTHS).

Run this only when a rules change is meant to change the outcome; review the diff of the data files.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games import sangimignano  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from tools import golden_files  # noqa: E402

DATA = ROOT / "tests" / "sangimignano" / "data"
GOLDEN = DATA / "golden"
PERFT = DATA / "perft.json"

NAMES = ("Ada", "Bea", "Cy", "Dov")
FEATURES = ("token", "second_token_same_player", "hex", "build", "declined", "returned_other_token",
            "skipped_no_token", "skipped_no_hexagon", "skipped_no_group", "end_stuck", "end_tenth_tower",
            "decided_by_towers", "decided_by_tokens_or_shared", "variant_large_group")
GAMES = ((2, False), (3, False), (4, False), (2, True), (3, True))
SEARCH_SEEDS = 60
# Depth per position, fixed so that the file does not depend on the machine (well under a second each).
PERFT_DEPTHS = {"deal-2p": 4, "deal-3p": 3, "deal-4p": 3, "midgame-2p": 4, "midgame-4p-large": 3}


def directed(rng: random.Random, legal: list[sangimignano.Step]) -> sangimignano.Step:
    """Random, but builds nine times in ten when it can."""
    builds = [s for s in legal if s.type == "build"]
    if builds and rng.random() < 0.9:
        return rng.choice(builds)
    return rng.choice(legal)


def play(players: int, large: bool, seed: int) -> tuple[list[dict], sangimignano.State, list[dict]]:
    rng = random.Random(f"golden:{players}:{large}:{seed}")
    state = sangimignano.new_game(seed, names=NAMES[:players], large_groups=large)
    steps: list[dict] = []
    events: list[dict] = []
    while not state.over and len(steps) < 2000:
        step = directed(rng, sangimignano.legal_steps(state))
        state, happened = sangimignano.apply_step(state, step)
        happened = [event.at(len(steps)) for event in happened]
        events.extend(happened)
        steps.append(step.to_json())
    return steps, state, events


def features(players: int, large: bool, seed: int, steps: list[dict], state: sangimignano.State,
             events: list[dict]) -> set[str]:
    found: set[str] = set()
    for event in events:
        kind = event["type"]
        if kind in ("token", "hex", "declined"):
            found.add(kind)
        elif kind == "built":
            found.add("build")
            if any(owner != event["player"] for owner in event["returned"]):
                found.add("returned_other_token")
        elif kind == "skipped":
            found.add(f"skipped_{event['reason']}")
        elif kind == "game_over":
            found.add("end_tenth_tower" if event["reason"] == "tenth_tower" else "end_stuck")
    score = sangimignano.score(state)
    found.add("decided_by_towers" if score.decided_by == "towers" else "decided_by_tokens_or_shared")
    replayed = sangimignano.new_game(seed, names=NAMES[:players], large_groups=large)
    for step in steps:
        parsed = sangimignano.parse_step(step)
        if parsed.type == "token":
            lay = sangimignano.layout(replayed.board)
            if replayed.turn in replayed.tokens[lay.space(parsed.at, parsed.guild)]:
                found.add("second_token_same_player")
        if parsed.type == "build" and large:
            from dataclasses import replace
            base = replace(replayed, large_groups=False)
            lay = sangimignano.layout(replayed.board)
            if lay.space(parsed.at, parsed.guild) not in sangimignano.buildable(base, replayed.turn):
                found.add("variant_large_group")
        replayed = sangimignano.apply_step(replayed, parsed)[0]
    return found


def choose_games() -> list[tuple[int, bool, int, set[str]]]:
    """For each game kind in GAMES, the seed whose game adds most of the features still missing (shorter games
    preferred)."""
    chosen: list[tuple[int, bool, int, set[str]]] = []
    missing = set(FEATURES)
    for players, large in GAMES:
        best = None
        for seed in range(SEARCH_SEEDS):
            steps, state, events = play(players, large, seed)
            got = features(players, large, seed, steps, state, events)
            key = (len(got & missing), len(got), -len(steps))
            if best is None or key > best[0]:
                best = (key, seed, got)
        assert best is not None
        _, seed, got = best
        chosen.append((players, large, seed, got))
        missing -= got
    if missing:
        raise SystemExit(f"the chosen games do not cover {sorted(missing)}")
    return chosen


def golden_documents() -> dict[str, dict]:
    out = {}
    for players, large, seed, got in choose_games():
        steps, state, events = play(players, large, seed)
        name = f"{players}p-seed-{seed}{'-large' if large else ''}.json"
        out[name] = {
            "seed": seed,
            "names": list(NAMES[:players]),
            "variant": {"large_groups": large},
            "features": sorted(got),
            "steps": steps,
            "events": events,
            "final_state": sangimignano.state_json(state),
            "score": sangimignano.score(state).to_json(),
        }
    return out


def perft_positions() -> list[dict]:
    positions = [{"name": f"deal-{n}p", "seed": 1, "players": n, "large_groups": False, "steps": []}
                 for n in (2, 3, 4)]
    for players, large in ((2, False), (4, True)):  # from the middle of a directed game, at a turn's start
        steps, _, events = play(players, large, 1)
        turn_starts = [e["step"] + 1 for e in events if e["type"] == "turn"]
        prefix = steps[:turn_starts[len(turn_starts) // 2]]
        positions.append({"name": f"midgame-{players}p{'-large' if large else ''}", "seed": 1, "players": players,
                          "large_groups": large, "steps": prefix})
    for position in positions:
        state = sangimignano.apply_steps(sangimignano.new_game(position["seed"], players=position["players"],
                                                               large_groups=position["large_groups"]),
                                         position["steps"]).state
        position["counts"] = {str(depth): perft(sangimignano, state, depth)
                              for depth in range(1, PERFT_DEPTHS[position["name"]] + 1)}
    return positions


def perft_document() -> dict:
    return {
        "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                      "perft(apply(s, step), d - 1). Steps are single decisions: token, hex, build / end.",
        "positions": perft_positions(),
    }


def main() -> int:
    return golden_files.main(__doc__.split("\n\n")[0], GOLDEN, PERFT, golden_documents, perft_document)


if __name__ == "__main__":
    raise SystemExit(main())
