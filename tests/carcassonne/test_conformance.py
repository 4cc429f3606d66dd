"""Conformance: seeded random games for 2 to 5 players, with and without The Tower, holding the library to its
invariants after every step: conservation (K-COMP-3, prisoners and tower tops included; floors, K-TOW-TILE-1),
the legal list equal to what apply accepts (near misses included), JSON round trips, valid states, and
termination. The number of games is bounded to keep the suite quick."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from service.games import carcassonne
from service.games.carcassonne import FLOORS, MEEPLES, Kind, Step, StepDue
from service.games.carcassonne.tiles import DIRECTIONS, TOWER

from .playouts import choose

GAMES = [(seed, players, tower) for seed, (players, tower) in enumerate(
    [(2, False), (3, False), (4, False), (5, False), (2, True), (3, True), (4, True), (5, True)])]


def conserved(state: carcassonne.State) -> None:
    tiles = Counter(p.tile for p in state.board) + Counter(state.discarded)
    if state.bag.tiles is not None:
        tiles += Counter(state.bag.tiles)
        assert tiles == Counter(carcassonne.tile_counts(state.tower))
    total = sum(carcassonne.tile_counts(state.tower).values())
    assert len(state.board) + len(state.discarded) + state.bag.count == total
    for p, player in enumerate(state.players):
        on_board = sum(1 for m in state.meeples if m.player == p)
        on_tops = sum(1 for t in state.towers if t.top == p)
        held = sum(other.prisoners.count(p) for other in state.players)
        assert player.supply + on_board + on_tops + held == MEEPLES, p
        assert p not in player.prisoners
    n = len(state.players)
    floors = sum(t.height for t in state.towers) + sum(p.floors for p in state.players)
    assert floors == (FLOORS[n] * n if state.tower else 0)
    for a in range(n):
        for b in range(a + 1, n):
            assert not (b in state.players[a].prisoners and a in state.players[b].prisoners)  # K-TOW-SWAP


def round_trip(state: carcassonne.State) -> None:
    document = carcassonne.state_json(state)
    text = json.dumps(document)
    again = carcassonne.read_state(json.loads(text))
    assert again == state and json.dumps(carcassonne.state_json(again)) == text
    assert carcassonne.validate_state(json.loads(text)) == ([], [])


def candidates(state: carcassonne.State, rng: random.Random) -> list[dict]:
    """Plausible steps: listed ones and their near misses, every feature name of the new tile, every meeple."""
    index = state.index
    out: list[dict] = [{"type": "skip"}] + [{"type": "ransom", "from": p} for p in range(len(state.players))]
    squares = list(index.grid)
    if state.step is StepDue.PLACE:
        tiles = carcassonne.drawable(state)
        tiles = tiles + rng.sample(sorted(carcassonne.tile_counts(state.tower)), 2)
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


def canonical(state: carcassonne.State, step: Step) -> Step:
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


def check_position(state: carcassonne.State, rng: random.Random, *, candidates_too: bool = True) -> None:
    conserved(state)
    round_trip(state)
    legal = carcassonne.legal_steps(state)
    assert len(legal) == len(set(legal))
    if not state.over:
        assert legal, "a live position has a legal step"
    for step in legal:
        assert carcassonne.parse_step(step.to_json()) == step
        carcassonne.apply_step(state, step)  # raises if illegal
    if not candidates_too:
        return
    before = carcassonne.state_json(state)
    for document in candidates(state, rng):
        step = carcassonne.parse_step(document)
        try:
            carcassonne.apply_step(state, step)
            accepted = True
        except carcassonne.IllegalStepError:
            accepted = False
        assert accepted == (canonical(state, step) in legal), (document, accepted)
    assert carcassonne.state_json(state) == before  # applying never touches the state it was given


@pytest.mark.parametrize("seed, players, tower", GAMES, ids=lambda v: str(v))
def test_random_games_keep_every_invariant(seed, players, tower):
    rng = random.Random(f"conformance:{seed}")
    state = carcassonne.new_game(seed, players=players, tower=tower)
    steps = 0
    kinds: Counter = Counter()
    while not state.over:
        # near misses at every action and capture step, and at every other place step (the dearest to try)
        check_position(state, rng, candidates_too=state.step is not StepDue.PLACE or steps % 4 < 2)
        step = choose(rng, carcassonne.legal_steps(state))
        kinds[step.type] += 1
        state, _ = carcassonne.apply_step(state, step)
        steps += 1
        assert steps < 1000, "the game does not end"
    check_position(state, rng)
    assert state.bag.count == 0 and carcassonne.legal_steps(state) == []
    assert kinds["place"] + kinds["discard"] == sum(carcassonne.tile_counts(tower).values()) - 1
    if tower:
        assert kinds["floor"] and kinds["capture"]


@pytest.mark.parametrize("seed", range(2))
def test_a_referee_s_view_with_a_counted_bag_follows_the_game(seed):
    """The same game followed with the bag as a count, naming each tile drawn, ends in the same position."""
    rng = random.Random(seed)
    full = carcassonne.new_game(seed, players=3, tower=seed % 2 == 1)
    view = carcassonne.player_view(full, 0)
    while not full.over:
        step = choose(rng, carcassonne.legal_steps(full))
        named = step if step.type not in ("place", "discard") else step._replace(tile=full.bag.tiles[0])
        assert named in carcassonne.legal_steps(view)
        full, _ = carcassonne.apply_step(full, step)
        view, _ = carcassonne.apply_step(view, named)
    assert carcassonne.state_json(carcassonne.player_view(full, 0)) == carcassonne.state_json(view)
    assert carcassonne.score(view).to_json() == carcassonne.score(full).to_json()


def test_a_feature_kind_for_every_meeple_is_reached():
    kinds: Counter = Counter()
    for seed in range(2):
        state = carcassonne.new_game(seed, players=2)
        rng = random.Random(seed)
        while not state.over:
            state, _ = carcassonne.apply_step(state, choose(rng, carcassonne.legal_steps(state)))
            for m in state.meeples:
                kinds[state.index.faces[state.index.grid[m.at]].by_name[m.feature].kind] += 1
    assert {Kind.ROAD, Kind.CITY, Kind.FIELD, Kind.CLOISTER} <= set(kinds)
