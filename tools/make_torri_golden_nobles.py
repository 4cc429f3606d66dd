"""Write Torri's golden playthroughs and perft counts for the advanced game (the ten nobles).

    python tools/make_torri_golden_nobles.py          # rewrite tests/torri/data/golden_nobles/*.json, perft_nobles.json
    python tools/make_torri_golden_nobles.py --check  # compare with the files instead (exit 1 on a difference)

Golden playthroughs: seeded noble games played by a directed random policy (it likes playing nobles, answering with
Giostra, rebuilding after a cancelled Buona Pietra, stopping a Via Francigena early now and then), searched over seeds
so that together the chosen games exercise every feature in FEATURES: every noble played, Giostra on an action noble,
Giostra on a Buona Pietra build or extension then a rebuild, a Palazzo that fizzles, a build or extension that the
opponent's Palazzo refuses (shown by the legal list), a Via Francigena stopped before the hand limit, a plain 8 with a
Buona Pietra drawing for its Income. Each file holds the seed, the steps as JSON, the events, checkpoints (the exact
legal list at the first position of each feature; at a Palazzo cap the steps it removes, with the rule that refuses
them), the final state and the score; tests/test_golden.py and tests/torri/test_golden_nobles.py replay them
and compare exactly.

Perft: perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of perft(apply(s, step), d - 1), from
two seeded noble deals, each to a fixed depth (PERFT_DEPTHS).

Run this only when a rules change is meant to change the outcome; review the diff of the data files.
"""
from __future__ import annotations

import random
from dataclasses import replace
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games import torri  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from tools import golden_files  # noqa: E402
from service.games.torri.cards import BUONA_PIETRA, CARD_NAMES  # noqa: E402

DATA = ROOT / "tests" / "torri" / "data"
GOLDEN = DATA / "golden_nobles"
PERFT = DATA / "perft_nobles.json"

ACTION_NOBLES = ("via_francigena", "monumento", "cappella", "palazzo", "mura")
FEATURES = tuple(f"noble_{name}" for name in ACTION_NOBLES) + (
    "buona_pietra", "giostra", "giostra_on_noble", "giostra_on_buona_pietra_rebuild", "palazzo_fizzled",
    "palazzo_cap_refusal", "via_francigena_stop", "buona_pietra_income", "noble_drawn_from_market", "game_over")
GAMES_WANTED = 5
SEARCH_SEEDS = 300
MAX_REFUSED = 3  # cap refusals recorded per checkpoint
PERFT_DEALS = (1, 2)
# Depth per deal, fixed so that the file does not depend on the machine (a few seconds each).
PERFT_DEPTHS = {"deal-1": 6, "deal-2": 6}


def directed(rng: random.Random, legal: list[torri.Step], state: torri.State) -> torri.Step:
    """A random choice weighted towards the nobles' paths."""
    pending = state.pending

    def weight(step: torri.Step) -> float:
        if step.type == "pass":
            return 0.02 if len(legal) > 1 else 1.0
        if step.type == "giostra":
            return 8.0
        if step.type == "decline":
            return 1.0
        if step.type == "stop":  # a Via Francigena stopped early, now and then; a rebuild preferred to a stop
            return 0.6 if pending.type == "draw" else 0.3
        if step.type == "noble":
            return 10.0 / max(1, sum(s.type == "noble" and s.card == step.card for s in legal))
        if step.type == "build":
            stones = BUONA_PIETRA in step.cards
            plain_8 = step.cards.count(8) + step.cards.count(BUONA_PIETRA) == len(step.cards) and 8 in step.cards
            return (12.0 if plain_8 else 6.0) if stones else 3.0
        if step.type == "extend":
            return 4.0 if BUONA_PIETRA in step.cards else 2.0
        if step.type == "draw":
            noble = step.source == "noble_deck" or (step.card is not None and step.card > 10)
            return 3.0 if noble else 1.0
        if step.type == "complete":
            return 1.0 if len(step.towers) == 1 else 0.3
        if step.type == "close":
            return 10.0
        if step.type == "exchange":
            return 5.0 / max(1, sum(s.type == "exchange" for s in legal))
        if step.type == "purchase":
            return 3.0
        return 1.0

    return rng.choices(legal, [weight(s) for s in legal])[0]


def cap_refusals(state: torri.State) -> list[torri.Step]:
    """Builds and extensions that the opponent's Palazzo removes from the legal list (T-NOB-PC): those listed when
    the Palazzo is taken away."""
    if state.pending is not None or state.palazzo is None or state.palazzo == state.turn:
        return []
    free = replace(state, palazzo=None)
    capped = set(torri.legal_steps(state))
    return [s for s in torri.legal_steps(free) if s.type in ("build", "extend") and s not in capped]


def _features_of_step(state: torri.State, step: torri.Step, after: torri.State, happened: list[dict]) -> set[str]:
    found: set[str] = set()
    pending = state.pending
    for event in happened:
        if event["type"] == "noble":
            found.add(f"noble_{event['card']}")
            if event.get("fizzled"):
                found.add("palazzo_fizzled")
        if event["type"] in ("built", "extended") and "buona_pietra" in event["cards"]:
            found.add("buona_pietra")
        if event["type"] == "giostra":
            found.add("giostra")
            if event["against"] in ACTION_NOBLES:
                found.add("giostra_on_noble")
        if event["type"] == "donazione" and event["effect"] == "income":
            tower = after.players[event["player"]].towers[-1]
            if BUONA_PIETRA in tower.cards:
                found.add("buona_pietra_income")
        if event["type"] == "game_over":
            found.add("game_over")
    if pending is not None and pending.type == "rebuild" and step.type in ("build", "extend"):
        found.add("giostra_on_buona_pietra_rebuild")
    if pending is not None and pending.action == "via_francigena" and step.type == "stop":
        found.add("via_francigena_stop")
    if step.type == "draw" and step.source == "market" and step.card is not None and step.card > 10:
        found.add("noble_drawn_from_market")
    return found


def play(seed: int) -> dict:
    """One directed game: steps, events, features, checkpoints, the final state."""
    rng = random.Random(f"golden-nobles:{seed}")
    state = torri.new_game(seed, nobles=True)
    steps: list[dict] = []
    events: list[dict] = []
    features: set[str] = set()
    checkpoints: list[dict] = []
    while state.phase != torri.OVER and len(steps) < 2000:
        legal = torri.legal_steps(state)
        refused = cap_refusals(state)
        if refused and "palazzo_cap_refusal" not in features:
            features.add("palazzo_cap_refusal")
            checkpoints.append(_checkpoint(len(steps), "palazzo_cap_refusal", legal, refused[:MAX_REFUSED]))
        step = directed(rng, legal, state)
        after, happened = torri.apply_step(state, step)
        new = _features_of_step(state, step, after, happened) - features
        for feature in sorted(new & {"giostra_on_noble", "giostra_on_buona_pietra_rebuild", "via_francigena_stop",
                                     "palazzo_fizzled"}):
            checkpoints.append(_checkpoint(len(steps), feature, legal, []))
        features |= new
        happened = [event.at(len(steps)) for event in happened]
        events.extend(happened)
        steps.append(step.to_json())
        state = after
    return {"steps": steps, "events": events, "features": features, "checkpoints": checkpoints, "state": state}


def _checkpoint(index: int, feature: str, legal: list[torri.Step], refused: list[torri.Step]) -> dict:
    out: dict = {"step": index, "feature": feature, "legal": [s.to_json() for s in legal]}
    if refused:
        out["refused"] = [{"step": s.to_json(), "rule": "T-NOB-PC"} for s in refused]
    return out


def choose_games() -> list[tuple[int, dict]]:
    """Greedy cover of FEATURES by the searched games, rarest features first; short games preferred."""
    found: list[tuple[int, dict]] = []
    for seed in range(SEARCH_SEEDS):
        game = play(seed)
        if game["state"].phase == torri.OVER:
            found.append((seed, game))
    chosen: list[tuple[int, dict]] = []
    missing = set(FEATURES)
    while missing and len(chosen) < GAMES_WANTED:
        seed, game = max(found, key=lambda g: (len(g[1]["features"] & missing), -len(g[1]["steps"])))
        if not game["features"] & missing:
            break
        chosen.append((seed, game))
        missing -= game["features"]
    if missing:
        raise SystemExit(f"no {GAMES_WANTED} games among {SEARCH_SEEDS} seeds cover {sorted(missing)}")
    rare = {"giostra_on_buona_pietra_rebuild", "palazzo_fizzled", "palazzo_cap_refusal", "buona_pietra_income"}
    for seed, game in sorted(found, key=lambda g: (-len(g[1]["features"] & rare), len(g[1]["steps"]))):
        if len(chosen) >= GAMES_WANTED:
            break
        if seed not in [c[0] for c in chosen]:
            chosen.append((seed, game))
    return sorted(chosen, key=lambda c: c[0])


def golden_documents() -> dict[str, dict]:
    out = {}
    for seed, game in choose_games():
        state = game["state"]
        out[f"seed-{seed}.json"] = {
            "seed": seed,
            "variant": {"nobles": True},
            "features": sorted(game["features"]),
            "steps": game["steps"],
            "events": game["events"],
            "checkpoints": game["checkpoints"],
            "final_state": torri.state_json(state),
            "score": torri.score(state).to_json(),
        }
    return out


def perft_document() -> dict:
    positions = []
    for seed in PERFT_DEALS:
        name = f"deal-{seed}"
        state = torri.new_game(seed, nobles=True)
        positions.append({"name": name, "seed": seed, "steps": [],
                          "noble_deck": [CARD_NAMES[c] for c in state.noble_deck],
                          "counts": {str(d): perft(torri, state, d) for d in range(1, PERFT_DEPTHS[name] + 1)}})
    return {
        "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                      "perft(apply(s, step), d - 1). Steps are single decisions (api.md, Moves).",
        "variant": {"nobles": True},
        "positions": positions,
    }


def main() -> int:
    return golden_files.main(__doc__.split("\n\n")[0], GOLDEN, PERFT, golden_documents, perft_document)


if __name__ == "__main__":
    raise SystemExit(main())
