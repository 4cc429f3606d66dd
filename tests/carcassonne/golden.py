"""What Carcassonne's recorded games (tests/carcassonne/data/golden) must cover, for tests/test_golden.py; and how
tools/make_golden.py plays and chooses them (RECORDING): one game for each player count 2 to 5 and two with The
Tower, played by a directed random policy (it likes captures, ransoms, floors and meeples), each the first seed
among 60 that adds most of the features still missing; perft from a deal for each player count and from mid-game
positions with and without The Tower."""
from __future__ import annotations

import random
from typing import Any

from service.games import carcassonne

FEATURES = {
    "golden": {"road", "city", "cloister", "shared", "discard", "fields", "floor", "capture", "own_capture",
               "tower_meeple", "top_captured", "exchanged", "ransom"},
}

NAMES = ("Ada", "Bea", "Cy", "Dov", "Eli")
LIKED = ("capture", "ransom", "floor", "tower_meeple", "meeple")


def directed(rng: random.Random, legal: list[carcassonne.Step], state: carcassonne.State) -> carcassonne.Step:
    """Random, but each kind of step it likes (LIKED, in that order) half the time when it can."""
    for kind in LIKED:
        chosen = [s for s in legal if s.type == kind]
        if chosen and rng.random() < 0.5:
            return rng.choice(chosen)
    return rng.choice(legal)


def features(played: Any) -> set[str]:
    got: set[str] = set()
    for event in played.events:
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
    if any(f["type"] == "field" and f["points"] for f in carcassonne.score(played.state).to_json()["features"]):
        got.add("fields")
    return got


def halfway(game: Any, played: Any) -> list[dict]:
    return played.steps[:len(played.steps) // 2]


def deal(players: int, tower: bool = False) -> dict:
    return {"players": players, "variant": {"tower": tower}}


RECORDING = {
    "golden": {
        "deals": [deal(2), deal(3), deal(4), deal(5), deal(2, True), deal(4, True)],
        "names": NAMES,
        "seeds": range(60),
        "choose": "each",
        "rank": lambda got, missing, played: len(got & missing),  # the first seed adding most, however long
        "rng": "golden:{players}:{tower}:{seed}",
        "max_steps": 1000,
        "directed": directed,
        "features": features,
        "file": lambda played: (f"{played.players}p-seed-{played.seed}"
                                f"{'-tower' if played.variant['tower'] else ''}.json"),
        "perft": {
            "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                          "perft(apply(s, step), d - 1). Steps are single decisions: place / discard, an action "
                          "(meeple, floor, tower_meeple, skip), capture / skip, ransom.",
            # depth per position, fixed so that the file does not depend on the machine
            "positions": [
                *({"name": f"deal-{n}p", "seed": 1, "players": n, "tower": False, "depth": depth}
                  for n, depth in ((2, 4), (3, 4), (4, 3), (5, 3))),
                {"name": "midgame-2p", "seed": 1, "players": 2, "tower": False, "depth": 3, "midgame": halfway},
                {"name": "midgame-3p-tower", "seed": 1, "players": 3, "tower": True, "depth": 3, "midgame": halfway},
            ],
        },
    },
}
