"""What Torri's recorded games must cover, for tests/test_golden.py: the base game's (tests/torri/data/golden) and
the advanced game's, with the ten nobles (tests/torri/data/golden_nobles, the features its directed games aim at);
and how tools/make_golden.py plays and chooses them (RECORDING).

The base game: five games found by a directed random policy (it likes plain 8/9/10 towers, closing, completing,
guarding half the time) over 400 seeds, a greedy cover of the features; perft from three seeded deals and two
mid-game positions (a turn's beginning halfway through a directed game).

The advanced game: five games whose directed policy likes playing nobles, answering with Giostra, rebuilding after
a cancelled Buona Pietra, stopping a Via Francigena early now and then, found over 300 seeds so that together they
play every noble, Giostra on an action noble, Giostra on a Buona Pietra build or extension then a rebuild, a Palazzo
that fizzles, a build or extension that the opponent's Palazzo refuses (shown by the legal list), a Via Francigena
stopped before the hand limit, a plain 8 with a Buona Pietra drawing for its Income. Their checkpoints hold the
exact legal list at the first position of each rare decision, and at a Palazzo cap the steps it removes with the
rule that refuses them (tests/torri/test_golden_nobles.py); perft from two seeded noble deals.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from service.games import torri
from service.games.torri.cards import BUONA_PIETRA, CARD_NAMES

FEATURES = {
    "golden": {"purchase", "exchange", "income", "trade_guarded", "trade_unguarded", "conspiracy_target",
               "conspiracy_guarded", "conspiracy_destroyed", "extend", "complete", "close", "ending_by_close",
               "ending_by_deck", "marker", "game_over"},
    "golden_nobles": {"noble_via_francigena", "noble_monumento", "noble_cappella", "noble_palazzo", "noble_mura",
                      "buona_pietra", "giostra", "giostra_on_noble", "giostra_on_buona_pietra_rebuild",
                      "palazzo_fizzled", "palazzo_cap_refusal", "via_francigena_stop", "buona_pietra_income",
                      "noble_drawn_from_market", "game_over"},
}

PERFT_DEFINITION = ("perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                    "perft(apply(s, step), d - 1). Steps are single decisions (api.md, Moves).")


# ---------------------------------------------------------------- the base game


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


def features(played: Any) -> set[str]:
    found: set[str] = set()
    events, steps = played.events, played.steps
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


def at_a_turns_beginning(game: Any, played: Any) -> list[dict]:
    """The steps to halfway through a directed game, then on to a turn's beginning (the first legal step each
    time): towers on the table, a fuller hand, a smaller deck."""
    prefix = played.steps[: len(played.steps) // 2]
    state = game.apply_steps(played.start, prefix).state
    while state.pending is not None:
        step = game.legal_steps(state)[0]
        prefix.append(step.to_json())
        state = game.apply_step(state, step)[0]
    return prefix


# ---------------------------------------------------------------- the advanced game (the ten nobles)

ACTION_NOBLES = ("via_francigena", "monumento", "cappella", "palazzo", "mura")
CHECKED = {"giostra_on_noble", "giostra_on_buona_pietra_rebuild", "via_francigena_stop", "palazzo_fizzled"}
MAX_REFUSED = 3  # cap refusals recorded per checkpoint


def directed_nobles(rng: random.Random, legal: list[torri.Step], state: torri.State) -> torri.Step:
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


def _checkpoint(index: int, feature: str, legal: list[torri.Step], refused: list[torri.Step]) -> dict:
    out: dict = {"step": index, "feature": feature, "legal": [s.to_json() for s in legal]}
    if refused:
        out["refused"] = [{"step": s.to_json(), "rule": "T-NOB-PC"} for s in refused]
    return out


def watch_nobles(state: torri.State, legal: list[torri.Step], step: torri.Step, after: torri.State,
                 happened: list[dict], played: Any) -> None:
    """The features as they happen, with a checkpoint at the first of each rare one: the first Palazzo cap (the
    steps it refuses), the first Giostra on a noble or on a Buona Pietra then a rebuild, a Via Francigena stopped,
    a Palazzo fizzled."""
    index = len(played.steps)
    refused = cap_refusals(state)
    if refused and "palazzo_cap_refusal" not in played.features:
        played.features.add("palazzo_cap_refusal")
        played.checkpoints.append(_checkpoint(index, "palazzo_cap_refusal", legal, refused[:MAX_REFUSED]))
    new = _features_of_step(state, step, after, happened) - played.features
    for feature in sorted(new & CHECKED):
        played.checkpoints.append(_checkpoint(index, feature, legal, []))
    played.features |= new


# ---------------------------------------------------------------- how tools/make_golden.py records them

RECORDING = {
    "golden": {
        "deals": [{"variant": {"nobles": False}}],
        "seeds": range(400),
        "choose": "cover",
        "games": 5,
        "rare": {"conspiracy_target", "conspiracy_guarded", "trade_guarded", "close"},
        "rng": "golden:{seed}",
        "max_steps": 2000,
        "directed": directed,
        "features": features,
        "file": lambda played: f"seed-{played.seed}.json",
        "perft": {
            "definition": PERFT_DEFINITION,
            "variant": {"nobles": False},
            # depth per position, fixed so that the file does not depend on the machine (about half a second each)
            "positions": [
                *({"name": f"deal-{seed}", "seed": seed, "depth": 6} for seed in (1, 2, 3)),
                {"name": "midgame-1", "seed": 1, "depth": 7, "midgame": at_a_turns_beginning},
                {"name": "midgame-2", "seed": 2, "depth": 6, "midgame": at_a_turns_beginning},
            ],
        },
    },
    "golden_nobles": {
        "deals": [{"variant": {"nobles": True}}],
        "seeds": range(300),
        "choose": "cover",
        "games": 5,
        "rare": {"giostra_on_buona_pietra_rebuild", "palazzo_fizzled", "palazzo_cap_refusal", "buona_pietra_income"},
        "rng": "golden-nobles:{seed}",
        "max_steps": 2000,
        "directed": directed_nobles,
        "watch": watch_nobles,
        "file": lambda played: f"seed-{played.seed}.json",
        "perft": {
            "definition": PERFT_DEFINITION,
            "variant": {"nobles": True},
            "positions": [{"name": f"deal-{seed}", "seed": seed, "depth": 6} for seed in (1, 2)],  # a few seconds each
            "describe": lambda state: {"noble_deck": [CARD_NAMES[c] for c in state.noble_deck]},
        },
    },
}
