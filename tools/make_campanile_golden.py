"""Write Campanile's golden playthroughs and perft counts.

    python tools/make_campanile_golden.py            # rewrite tests/campanile/data/golden/*.json and perft.json
    python tools/make_campanile_golden.py --check    # compare with the files instead (exit 1 on a difference)

Golden playthroughs: seeded games, one for each player count 2 to 5 and one with the variant (C-VAR-1), played by a
directed random policy (it likes to bet), each chosen among SEARCH_SEEDS seeds so that together the games exercise
every feature in FEATURES. Each file holds the seed, the names, the variant, the steps as JSON, the events, the final
state and the score; tests/test_golden.py replays them and compares exactly.

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

from service.games import campanile  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from tools import golden_files  # noqa: E402

DATA = ROOT / "tests" / "campanile" / "data"
GOLDEN = DATA / "golden"
PERFT = DATA / "perft.json"

NAMES = ("Ada", "Bea", "Cy", "Dov", "Eli")
FEATURES = ("draw_1", "draw_2", "draw_3", "bet", "no_bet", "bet_above_stories", "end_pile_1", "end_pile_2",
            "end_pile_3", "height_tie", "total_tie", "variant_bet")
GAMES = ((2, False), (3, False), (4, False), (5, False), (3, True))
SEARCH_SEEDS = 150
# Depth per position, fixed so that the file does not depend on the machine (about half a second each).
PERFT_DEPTHS = {"deal-2p": 6, "deal-3p": 6, "deal-4p": 6, "deal-5p": 8, "midgame-2p": 9, "midgame-4p": 8}


def directed(rng: random.Random, legal: list[campanile.Step]) -> campanile.Step:
    """Random, weighted towards betting (the cheapest token that is allowed, most often)."""
    def weight(step: campanile.Step) -> float:
        if step.type == "bet":
            return 3.0 / step.value
        if step.type == "no_bet":
            return 1.5
        return 1.0
    return rng.choices(legal, [weight(s) for s in legal])[0]


def play(players: int, variant: bool, seed: int) -> tuple[list[dict], campanile.State, list[dict]]:
    rng = random.Random(f"golden:{players}:{variant}:{seed}")
    state = campanile.new_game(seed, names=NAMES[:players], bet_on_played=variant)
    steps: list[dict] = []
    events: list[dict] = []
    while not state.over and len(steps) < 1000:
        step = directed(rng, campanile.legal_steps(state))
        state, happened = campanile.apply_step(state, step)
        happened = [event.at(len(steps)) for event in happened]
        events.extend(happened)
        steps.append(step.to_json())
    return steps, state, events


def features(state: campanile.State, events: list[dict]) -> set[str]:
    found: set[str] = set()
    last_stories = 0
    for event in events:
        if event["type"] == "played":
            last_stories = event["stories"]
        elif event["type"] == "bet":
            found.add("bet")
            if event["value"] > last_stories:
                found.add("bet_above_stories")
        elif event["type"] == "no_bet":
            found.add("no_bet")
        elif event["type"] == "drew":
            found.add(f"draw_{event['pile']}")
        elif event["type"] == "game_over":
            found.add(f"end_pile_{event['pile']}")
    score = campanile.score(state)
    if any(t.tied_with and t.flag is not None for t in score.towers):
        found.add("height_tie")
    if any(a is not None and a.reason != "total" for t in score.towers for a in (t.large, t.small)):
        found.add("total_tie")
    return found


def variant_bets(players: int, seed: int, steps: list[dict]) -> bool:
    """Whether the game bets on the tower just played while its style shows on no pile (C-VAR-1)."""
    state = campanile.new_game(seed, names=NAMES[:players], bet_on_played=True)
    for step in steps:
        if step["type"] == "bet" and state.last_play is not None and step["tower"] == state.last_play.tower:
            if campanile.STYLES[step["tower"]] not in {p.top for p in state.piles}:
                return True
        state = campanile.apply_steps(state, [step]).state
    return False


def choose_games() -> list[tuple[int, bool, int, set[str]]]:
    """For each game kind in GAMES, the seed whose game adds most of the features still missing (shorter games
    preferred)."""
    chosen: list[tuple[int, bool, int, set[str]]] = []
    missing = set(FEATURES)
    for players, variant in GAMES:
        best = None
        for seed in range(SEARCH_SEEDS):
            steps, state, events = play(players, variant, seed)
            got = features(state, events)
            if variant and variant_bets(players, seed, steps):
                got.add("variant_bet")
            key = (len(got & missing), len(got), -len(steps))
            if best is None or key > best[0]:
                best = (key, seed, got)
        assert best is not None
        _, seed, got = best
        chosen.append((players, variant, seed, got))
        missing -= got
    if missing:
        raise SystemExit(f"the chosen games do not cover {sorted(missing)}")
    return chosen


def golden_documents() -> dict[str, dict]:
    out = {}
    for players, variant, seed, got in choose_games():
        steps, state, events = play(players, variant, seed)
        name = f"{players}p-seed-{seed}{'-variant' if variant else ''}.json"
        out[name] = {
            "seed": seed,
            "names": list(NAMES[:players]),
            "variant": {"bet_on_played": variant},
            "features": sorted(got),
            "steps": steps,
            "events": events,
            "final_state": campanile.state_json(state),
            "score": campanile.score(state).to_json(),
        }
    return out


def perft_positions() -> list[dict]:
    positions = [{"name": f"deal-{n}p", "seed": 1, "players": n, "steps": []} for n in (2, 3, 4, 5)]
    for players in (2, 4):  # from the middle of a directed game: towers and tokens on the table, a turn's start
        steps, _, _ = play(players, False, 1)
        prefix = steps[: (len(steps) // 2) // 3 * 3]
        positions.append({"name": f"midgame-{players}p", "seed": 1, "players": players, "steps": prefix})
    for position in positions:
        state = campanile.apply_steps(campanile.new_game(position["seed"], players=position["players"]),
                                      position["steps"]).state
        position["counts"] = {str(depth): perft(campanile, state, depth)
                              for depth in range(1, PERFT_DEPTHS[position["name"]] + 1)}
    return positions


def perft_document() -> dict:
    return {
        "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                      "perft(apply(s, step), d - 1). Steps are single decisions: play, bet / no_bet, draw.",
        "positions": perft_positions(),
    }


def main() -> int:
    return golden_files.main(__doc__.split("\n\n")[0], GOLDEN, PERFT, golden_documents, perft_document)


if __name__ == "__main__":
    raise SystemExit(main())
