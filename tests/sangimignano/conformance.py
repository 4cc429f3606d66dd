"""San Gimignano's knowledge for the shared conformance harness (tests/conformance.py), and the random games the
registry-wide test (tests/test_games_conform.py) plays with it, 2, 3 and 4 players and both variants:
conservation of hexagons, tokens and towers (S-COMP-4), legal list = accepted steps with near misses on real
places, JSON round trips, the view of the player to act, termination; each game ends with a tenth tower or stuck
(S-END-1, S-END-2). Everything else the harness takes from the registered game
(service.games.registry.GAMES["sangimignano"]).

Hexagons, tokens and towers are the harness's pieces: `hexagon` (in a hand, on the board or in the box; an unknown
hand's are unknown slots), `token:<player>` and `tower:<player>` (in supply or on a space).
`SANGIMIGNANO_CONFORMANCE_GAMES` sets how many random games per player count and variant the registry-wide test
plays (default 2).
"""
from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any, Mapping

from service.games import sangimignano as sg
from service.games.registry import GAMES
from tests.conformance import Conservation, Knowledge, Plan, Stats, Subject, by_type, in_turn, preferring, uniform

GAMES_PLAYED = int(os.environ.get("SANGIMIGNANO_CONFORMANCE_GAMES", "2"))
PLAYER_COUNTS = (2, 3, 4)


def _pieces(state: sg.State) -> tuple[Counter, int]:
    known: Counter = Counter()
    known["hexagon"] = len(state.board) + state.box + sum(len(p.hexes) for p in state.players)
    for index, player in enumerate(state.players):
        known[f"token:{index}"] += player.tokens
        known[f"tower:{index}"] += player.towers
    for owners in state.tokens:
        for owner in owners:
            known[f"token:{owner}"] += 1
    for owner in state.towers:
        if owner is not None:
            known[f"tower:{owner}"] += 1
    return known, sum(p.hidden for p in state.players)


def _full_set(players: int, variant: Mapping[str, Any]) -> Counter:
    full = Counter({"hexagon": sg.HEXAGONS})
    for index in range(players):
        full[f"token:{index}"] = sg.TOKENS
        full[f"tower:{index}"] = sg.TOWERS
    return full


def _extra_candidates(state: sg.State, rng: random.Random) -> list[dict]:
    """Near misses on real places: a token or a tower on any space (full, towered or not), any hexagon kind at any
    place next to the board turned any way, a space of a guild the hexagon does not show, and end."""
    lay = sg.layout(state.board)
    out: list[dict] = [{"type": "end"}]
    for s in range(lay.spaces):
        at, guild = lay.name(s)
        out.append({"type": "token", "at": list(at), "guild": guild})
        out.append({"type": "build", "at": list(at), "guild": guild})
        missing = next(g for g in sg.GUILDS if g not in state.board[s // 3].guilds)
        out.append({"type": rng.choice(("token", "build")), "at": list(at), "guild": missing})
    cells = set(lay.frontier)
    for placed in state.board:
        cells.update(sg.geometry.neighbour(placed.at, d) for d in range(6))
    cells.add(state.board[0].at)
    for at in sorted(cells):
        kind = rng.choice(sg.KINDS)
        out.append({"type": "hex", "hex": list(kind[1:] + kind[:1]), "at": list(at), "rotation": rng.randrange(6)})
    return rng.sample(out, min(12, len(out)))


STEP_SCHEMA = {
    "token": {"at": "indices", "guild": tuple(sg.GUILDS)},
    "hex": {"hex": "cards", "at": "indices", "rotation": "index"},
    "build": {"at": "indices", "guild": tuple(sg.GUILDS)},
    "end": {},
}

KNOWLEDGE = Knowledge(
    conservation=Conservation(_pieces, _full_set),
    step_schema=STEP_SCHEMA,
    card_names=sg.GUILDS,
    max_index=lambda state: 5,
    pass_type="end",
    max_steps=800,
    extra_candidates=_extra_candidates,
)

GAME = GAMES["sangimignano"]


def subject(players: int, large: bool) -> Subject:
    # (the name seeds the random games: those the variant has always played)
    return Subject(GAME, players, {"large_groups": large}, KNOWLEDGE,
                   name=f"sangimignano-{players}p{'-large' if large else ''}")


# Builds whenever it can, otherwise uniform: long games with many towers.
builder = preferring("builder", lambda step: step.type == "build")

POLICIES = {"uniform": uniform, "by_type": by_type(0.1), "builder": builder}


def _ended(state: sg.State, history: list[dict], stats: Stats) -> None:
    assert state.over  # termination
    assert any(p.towers == 0 for p in state.players) or sg.stuck(state)  # S-END-1 or S-END-2
    assert {"token", "hex"} <= set(stats.step_types)


def conformance_plans() -> list[Plan]:
    """Per player count and variant, GAMES_PLAYED games (builder, uniform and by type in turn)."""
    kinds = ("builder", "uniform", "by_type")
    return [Plan(subject(n, large), in_turn(kinds, range(100 * n + 10 * large, 100 * n + 10 * large + GAMES_PLAYED),
                                            start=n + large), POLICIES,
                 knobs={"random_candidates": 3, "near_miss_candidates": 3, "view_candidates": 2}, finished=_ended)
            for n in PLAYER_COUNTS for large in (False, True)]
