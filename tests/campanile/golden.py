"""What Campanile's recorded games (tests/campanile/data/golden) must cover, for tests/test_golden.py; and how
tools/make_golden.py plays and chooses them (RECORDING): one game for each player count 2 to 5 and one with the
variant (C-VAR-1), played by a directed random policy (it likes to bet), each the seed among 150 that adds most of
the features still missing; perft from a deal for each player count and two mid-game positions."""
from __future__ import annotations

import random
from typing import Any

from service.games import campanile

FEATURES = {
    "golden": {"draw_1", "draw_2", "draw_3", "bet", "no_bet", "bet_above_stories", "end_pile_1", "end_pile_2",
               "end_pile_3", "height_tie", "total_tie", "variant_bet"},
}

NAMES = ("Ada", "Bea", "Cy", "Dov", "Eli")


def directed(rng: random.Random, legal: list[campanile.Step], state: campanile.State) -> campanile.Step:
    """Random, weighted towards betting (the cheapest token that is allowed, most often)."""
    def weight(step: campanile.Step) -> float:
        if step.type == "bet":
            return 3.0 / step.value
        if step.type == "no_bet":
            return 1.5
        return 1.0
    return rng.choices(legal, [weight(s) for s in legal])[0]


def features(played: Any) -> set[str]:
    found: set[str] = set()
    last_stories = 0
    for event in played.events:
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
    score = campanile.score(played.state)
    if any(t.tied_with and t.flag is not None for t in score.towers):
        found.add("height_tie")
    if any(a is not None and a.reason != "total" for t in score.towers for a in (t.large, t.small)):
        found.add("total_tie")
    if played.variant["bet_on_played"] and variant_bets(played):
        found.add("variant_bet")
    return found


def variant_bets(played: Any) -> bool:
    """Whether the game bets on the tower just played while its style shows on no pile (C-VAR-1)."""
    state = played.start
    for step in played.steps:
        if (step["type"] == "bet" and state.last_play is not None and step["tower"] == state.last_play.tower
                and campanile.STYLES[step["tower"]] not in {p.top for p in state.piles}):
            return True
        state = campanile.apply_steps(state, [step]).state
    return False


def at_a_turns_beginning(game: Any, played: Any) -> list[dict]:
    """Halfway through a directed game, at a turn's start (a turn is three steps): towers and tokens on the table."""
    return played.steps[: (len(played.steps) // 2) // 3 * 3]


def deal(players: int, bet_on_played: bool = False) -> dict:
    return {"players": players, "variant": {"bet_on_played": bet_on_played}}


RECORDING = {
    "golden": {
        "deals": [deal(2), deal(3), deal(4), deal(5), deal(3, True)],
        "names": NAMES,
        "seeds": range(150),
        "choose": "each",
        "rng": "golden:{players}:{bet_on_played}:{seed}",
        "max_steps": 1000,
        "directed": directed,
        "features": features,
        "file": lambda played: (f"{played.players}p-seed-{played.seed}"
                                f"{'-variant' if played.variant['bet_on_played'] else ''}.json"),
        "perft": {
            "definition": "perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of "
                          "perft(apply(s, step), d - 1). Steps are single decisions: play, bet / no_bet, draw.",
            # depth per position, fixed so that the file does not depend on the machine (about half a second each)
            "positions": [
                *({"name": f"deal-{n}p", "seed": 1, "players": n, "depth": depth}
                  for n, depth in ((2, 6), (3, 6), (4, 6), (5, 8))),
                {"name": "midgame-2p", "seed": 1, "players": 2, "depth": 9, "midgame": at_a_turns_beginning},
                {"name": "midgame-4p", "seed": 1, "players": 4, "depth": 8, "midgame": at_a_turns_beginning},
            ],
        },
    },
}
