"""What San Gimignano's recorded games (tests/sangimignano/data/golden) must cover, for tests/test_golden.py; and
how tools/make_golden.py plays and chooses them (RECORDING): games for 2, 3 and 4 players and for the variant
(S-VAR-1), played by a directed random policy (it builds nine times in ten when it can), each the seed among 60 that
adds most of the features still missing; perft from a deal for each player count and two mid-game positions."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from service.games import sangimignano

FEATURES = {
    "golden": {"token", "second_token_same_player", "hex", "build", "declined", "returned_other_token",
               "skipped_no_token", "skipped_no_hexagon", "skipped_no_group", "end_stuck", "end_tenth_tower",
               "decided_by_towers", "decided_by_tokens_or_shared", "variant_large_group"},
}

NAMES = ("Ada", "Bea", "Cy", "Dov")


def directed(rng: random.Random, legal: list[sangimignano.Step], state: sangimignano.State) -> sangimignano.Step:
    """Random, but builds nine times in ten when it can."""
    builds = [s for s in legal if s.type == "build"]
    if builds and rng.random() < 0.9:
        return rng.choice(builds)
    return rng.choice(legal)


def features(played: Any) -> set[str]:
    found: set[str] = set()
    for event in played.events:
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
    score = sangimignano.score(played.state)
    found.add("decided_by_towers" if score.decided_by == "towers" else "decided_by_tokens_or_shared")
    large = played.variant["large_groups"]
    replayed = played.start
    for step in played.steps:
        parsed = sangimignano.parse_step(step)
        if parsed.type == "token":
            lay = sangimignano.layout(replayed.board)
            if replayed.turn in replayed.tokens[lay.space(parsed.at, parsed.guild)]:
                found.add("second_token_same_player")
        if parsed.type == "build" and large:
            base = replace(replayed, large_groups=False)
            lay = sangimignano.layout(replayed.board)
            if lay.space(parsed.at, parsed.guild) not in sangimignano.buildable(base, replayed.turn):
                found.add("variant_large_group")
        replayed = sangimignano.apply_step(replayed, parsed)[0]
    return found


def at_a_turns_beginning(game: Any, played: Any) -> list[dict]:
    """From the middle of a directed game, at the start of its middle turn."""
    turn_starts = [e["step"] + 1 for e in played.events if e["type"] == "turn"]
    return played.steps[:turn_starts[len(turn_starts) // 2]]


def deal(players: int, large_groups: bool = False) -> dict:
    return {"players": players, "variant": {"large_groups": large_groups}}


RECORDING = {
    "golden": {
        "deals": [deal(2), deal(3), deal(4), deal(2, True), deal(3, True)],
        "names": NAMES,
        "seeds": range(60),
        "choose": "each",
        "rng": "golden:{players}:{large_groups}:{seed}",
        "max_steps": 2000,
        "directed": directed,
        "features": features,
        "file": lambda played: (f"{played.players}p-seed-{played.seed}"
                                f"{'-large' if played.variant['large_groups'] else ''}.json"),
        "perft": {
            "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                          "perft(apply(s, step), d - 1). Steps are single decisions: token, hex, build / end.",
            # depth per position, fixed so that the file does not depend on the machine (well under a second each)
            "positions": [
                *({"name": f"deal-{n}p", "seed": 1, "players": n, "large_groups": False, "depth": depth}
                  for n, depth in ((2, 4), (3, 3), (4, 3))),
                {"name": "midgame-2p", "seed": 1, "players": 2, "large_groups": False, "depth": 4,
                 "midgame": at_a_turns_beginning},
                {"name": "midgame-4p-large", "seed": 1, "players": 4, "large_groups": True, "depth": 3,
                 "midgame": at_a_turns_beginning},
            ],
        },
    },
}
