"""Carcassonne's knowledge for the shared conformance harness (tests/conformance.py), and the random games the
registry-wide test (tests/test_games_conform.py) plays with it, 2 to 5 players, with and without The Tower.
Everything else the harness takes from the registered game (service.games.registry.GAMES["carcassonne"]); a view
followed step by step must be the game's view, to the byte (the harness's default agreement).

Its pieces are the harness's: each tile by its id (on the board, discarded or in the bag; a counted bag's
tiles are unknown slots), `meeple:<player>` (in supply, on the board, on a tower's top, held as a prisoner) and
`floor` (on a tower or in a player's supply), so conservation is K-COMP-3 with prisoners and tower tops and, with
The Tower, K-TOW-TILE-1's floors. `invariants` adds K-TOW-SWAP, no player holding their own meeple, and a state
its own validator finds no fault in. `CARCASSONNE_CONFORMANCE_GAMES` sets how many random games per player count
and variant the registry-wide test plays (default 1).
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any, Mapping

from service.games import carcassonne
from service.games.carcassonne import FLOORS, MEEPLES, StepDue
from service.games.carcassonne.tiles import DIRECTIONS, FACES, TOWER, tile_counts
from service.games.registry import GAMES
from tests.conformance import Conservation, Knowledge, Plan, Stats, Subject, in_turn

from .playouts import choose

GAMES_PLAYED = int(os.environ.get("CARCASSONNE_CONFORMANCE_GAMES", "1"))
PLAYER_COUNTS = (2, 3, 4, 5)


def _pieces(state: carcassonne.State) -> tuple[Counter, int]:
    known = Counter(p.tile for p in state.board) + Counter(state.discarded)
    hidden = 0
    if state.bag.tiles is not None:
        known.update(state.bag.tiles)
    else:
        hidden = state.bag.count
    for player, holder in enumerate(state.players):
        known[f"meeple:{player}"] += holder.supply
        known.update(f"meeple:{owner}" for owner in holder.prisoners)
        if holder.floors:
            known["floor"] += holder.floors
    known.update(f"meeple:{m.player}" for m in state.meeples)
    for tower in state.towers:
        known["floor"] += tower.height
        if tower.top is not None:
            known[f"meeple:{tower.top}"] += 1
    return known, hidden


def _full_set(players: int, variant: Mapping[str, Any]) -> Counter:
    tower = variant["tower"]
    full = Counter(tile_counts(tower))
    for player in range(players):
        full[f"meeple:{player}"] = MEEPLES
    if tower:
        full["floor"] = FLOORS[players] * players  # K-TOW-TILE-1
    return full


def _invariants(state: carcassonne.State) -> str | None:
    for p, player in enumerate(state.players):
        if p in player.prisoners:
            return f"player {p} holds their own meeple as a prisoner"
    n = len(state.players)
    for a in range(n):
        for b in range(a + 1, n):
            if b in state.players[a].prisoners and a in state.players[b].prisoners:
                return f"players {a} and {b} hold each other's prisoners (K-TOW-SWAP)"
    problems = carcassonne.validate_state(json.loads(json.dumps(carcassonne.state_json(state))))
    if problems != ([], []):
        return f"the state's own validator finds {problems}"
    return None


def _extra_candidates(state: carcassonne.State, rng: random.Random) -> list[dict]:
    """Plausible steps: listed ones and their near misses, every feature name of the new tile, every meeple. At
    a place step (the dearest to try) only every other time."""
    if state.step is StepDue.PLACE and rng.random() < 0.5:
        return []
    return candidates(state, rng)


def candidates(state: carcassonne.State, rng: random.Random) -> list[dict]:
    """Plausible steps: listed ones and their near misses, every feature name of the new tile, every meeple."""
    index = state.index
    out: list[dict] = [{"type": "skip"}] + [{"type": "ransom", "from": p} for p in range(len(state.players))]
    squares = list(index.grid)
    if state.step is StepDue.PLACE:
        tiles = carcassonne.drawable(state)
        tiles = tiles + rng.sample(sorted(tile_counts(state.tower)), 2)
        for square in sorted(index.frontier)[:12] + rng.sample(squares, min(3, len(squares))):
            for tile in tiles[:3]:
                rotation = rng.choice((0, 90, 180, 270))
                out.append({"type": "place", "tile": tile, "at": list(square), "rotation": rotation})
                out.append({"type": "place", "at": list(square), "rotation": rotation})
        out += [{"type": "discard", "tile": t} for t in tiles]
    for square in rng.sample(squares, min(6, len(squares))) + [t.at for t in state.towers]:
        out.append({"type": "floor", "at": list(square)})
        out.append({"type": "tower_meeple", "at": list(square)})
    if state.last is not None:
        tile_face = index.faces[index.grid[state.last]]
        out += [{"type": "meeple", "feature": name} for s in tile_face.segments for name in s.names]
    for m in state.meeples:
        out.append({"type": "capture", "at": list(m.at), "feature": m.feature, "player": m.player})
        out.append({"type": "capture", "at": list(m.at), "feature": m.feature, "player": (m.player + 1) % 5})
    for t in state.towers:
        out.append({"type": "capture", "at": list(t.at), "feature": TOWER, "player": t.top or 0})
    for listed in carcassonne.legal_steps(state)[:20]:
        if listed.at is not None:
            dx, dy = rng.choice(DIRECTIONS)
            out.append({**listed.to_json(), "at": [listed.at[0] + dx, listed.at[1] + dy]})
        if listed.rotation is not None:
            out.append({**listed.to_json(), "rotation": (listed.rotation + 90) % 360})
    return out


def canonical(state: carcassonne.State, step: carcassonne.Step) -> carcassonne.Step:
    """The spelling the list uses: a named drawn tile, a feature's first name (K-SVC-BAG, K-TILE-4)."""
    if step.type in ("place", "discard") and step.tile is None and state.bag.tiles:
        return step._replace(tile=state.bag.tiles[0])
    if step.type == "meeple" and state.last is not None:
        segment = state.index.faces[state.index.grid[state.last]].segment(step.feature)
        if segment is not None:
            return step._replace(feature=segment.name)
    if step.type == "capture" and step.at in state.index.grid and step.feature != TOWER:
        segment = state.index.faces[state.index.grid[step.at]].segment(step.feature)
        if segment is not None:
            return step._replace(feature=segment.name)
    return step


def _card_pool(state: carcassonne.State) -> list[str]:
    return carcassonne.drawable(state)[:8]


TILE_IDS = tuple(tile_counts(True))
FEATURES = tuple(sorted({name for f in FACES.values() for s in f.segments for name in s.names}))
STEP_SCHEMA = {
    "place": {"tile": "card", "at": "indices", "rotation": (0, 90, 180, 270)},
    "discard": {"tile": "card"},
    "meeple": {"feature": FEATURES},
    "floor": {"at": "indices"},
    "tower_meeple": {"at": "indices"},
    "capture": {"at": "indices", "feature": FEATURES, "player": "index"},
    "skip": {},
    "ransom": {"from": "index"},
}


KNOWLEDGE = Knowledge(
    conservation=Conservation(_pieces, _full_set),
    invariants=_invariants,
    step_schema=STEP_SCHEMA,
    card_names=TILE_IDS,
    card_pool=_card_pool,
    max_index=lambda state: 4,
    pass_type="skip",
    max_steps=1000,
    extra_candidates=_extra_candidates,
    canonical=canonical,
)

GAME = GAMES["carcassonne"]
# "carcassonne-2p", …, "carcassonne-2p-tower", …
SUBJECTS = {(n, tower): Subject(GAME, n, {"tower": tower}, KNOWLEDGE) for tower in (False, True) for n in PLAYER_COUNTS}


def liked(rng: random.Random, legal, subject: Subject) -> carcassonne.Step:
    """tests/carcassonne/playouts.py's choice: captures, ransoms, floors, tower meeples and meeples often enough
    to reach them."""
    return choose(rng, list(legal))


POLICIES = {"liked": liked}


def _finished(state: carcassonne.State, history: list[dict], stats: Stats) -> None:
    assert state.bag.count == 0 and carcassonne.legal_steps(state) == []  # K-END-1
    kinds = Counter(step["type"] for step in history)
    assert kinds["place"] + kinds["discard"] == sum(tile_counts(state.tower).values()) - 1
    if state.tower:
        assert kinds["floor"] and kinds["capture"]


# A view differs from the game only by its bag, a count (K-SVC-BAG), and lists every placement of every tile the bag
# may hold: checking one at every position would make a game four times as dear. test_conformance.py's referee
# follows a whole game of The Tower in that view instead, every view position checked.
KNOBS = {"random_candidates": 4, "near_miss_candidates": 4, "check_views": False}


def conformance_plans() -> list[Plan]:
    """One plan per player count and variant; the seeds are those the old per-game loop dealt (0 to 7), then
    every eighth."""
    return [Plan(SUBJECTS[deal], in_turn(("liked",), range(first, first + 8 * GAMES_PLAYED, 8)), POLICIES, knobs=KNOBS,
                 finished=_finished)
            for first, deal in enumerate(SUBJECTS)]
