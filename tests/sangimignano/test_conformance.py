"""San Gimignano against the shared conformance harness (tests/conformance.py), for 2, 3 and 4 players and both
variants: seeded random games checked after every step (conservation of hexagons, tokens and towers, S-COMP-4;
legal list = accepted steps, near misses included; JSON round trips; the view of the player to act; termination),
and hypothesis properties of the JSON forms.

Hexagons, tokens and towers are the harness's "cards": `hexagon` (in a hand, on the board or in the box; an unknown
hand's are unknown slots), `token:<player>` and `tower:<player>` (in supply or on a space).
`SANGIMIGNANO_CONFORMANCE_GAMES` sets how many random games per player count and variant the main test plays.
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import sangimignano as sg
from tests.conformance import Checker, GameAdapter, by_type, json_paths, uniform

from .helpers import playout

GAMES = int(os.environ.get("SANGIMIGNANO_CONFORMANCE_GAMES", "2"))
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


def _full_set(players: int) -> Counter:
    full = Counter({"hexagon": sg.HEXAGONS})
    for index in range(players):
        full[f"token:{index}"] = sg.TOKENS
        full[f"tower:{index}"] = sg.TOWERS
    return full


def _apply(state: sg.State, step: sg.Step) -> sg.State:
    return sg.apply_step(state, step)[0]


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


def adapter(players: int, large: bool) -> GameAdapter:
    return GameAdapter(
        name=f"sangimignano-{players}p{'-large' if large else ''}",
        new_game=lambda seed: sg.new_game(seed, players=players, large_groups=large),
        legal_steps=sg.legal_steps,
        apply=_apply,
        illegal=(sg.IllegalStepError,),
        state_to_json=sg.state_json,
        state_from_json=sg.read_state,
        step_to_json=lambda step: step.to_json(),
        parse_step=sg.parse_step,
        malformed=(sg.MalformedError,),
        cards=_pieces,
        full_set=_full_set(players),
        is_over=lambda state: state.over,
        to_act=sg.to_act,
        step_type=lambda step: step.type,
        step_schema=STEP_SCHEMA,
        card_names=sg.GUILDS,
        max_index=lambda state: 5,
        pass_type="end",
        max_steps=800,
        view=sg.player_view,
        extra_candidates=_extra_candidates,
    )


def builder(rng: random.Random, legal, adapter: GameAdapter):
    """Builds whenever it can, otherwise uniform: long games with many towers."""
    builds = [s for s in legal if s.type == "build"]
    return rng.choice(builds or legal)


POLICIES = {"uniform": uniform, "by_type": by_type(0.1), "builder": builder}


def _games(count: int) -> list[tuple[int, bool, str, int]]:
    kinds = ("builder", "uniform", "by_type")
    return [(n, large, kinds[(i + n + large) % len(kinds)], 100 * n + 10 * large + i)
            for n in PLAYER_COUNTS for large in (False, True) for i in range(count)]


@pytest.mark.parametrize(("players", "large", "policy", "seed"), _games(GAMES), ids=str)
def test_random_game_conforms(players: int, large: bool, policy: str, seed: int) -> None:
    checker = Checker(adapter(players, large), random_candidates=3, near_miss_candidates=3, view_candidates=2)
    state, history = checker.play(seed, POLICIES[policy])
    assert state.over  # termination
    assert any(p.towers == 0 for p in state.players) or sg.stuck(state)  # S-END-1 or S-END-2
    assert checker.stats.listed_applied > 0 and checker.stats.candidates_accepted > 0
    assert {"token", "hex"} <= set(checker.stats.step_types)


def test_long_games_cover_every_step_type_and_both_endings() -> None:
    seen: Counter = Counter()
    endings = set()
    for players in PLAYER_COUNTS:
        for large in (False, True):
            checker = Checker(adapter(players, large), random_candidates=0, near_miss_candidates=0,
                              check_views=False)
            for i in range(3):
                state, history = checker.play(7000 + i, (builder, uniform, by_type(0.1))[i], check=False)
                endings.add("tenth_tower" if any(p.towers == 0 for p in state.players) else "stuck")
            seen.update(checker.stats.step_types)
    assert {"token", "hex", "build", "end"} <= set(seen)
    assert "stuck" in endings
    tenth = playout(2, 25, 3000, large=True, builder=True)  # a seed whose game reaches S-END-1 (rare at random)
    assert tenth.over and [p.towers for p in tenth.players].count(0) == 1


# ---------------------------------------------------------------- hypothesis properties

seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(max_size=12))
counts = st.sampled_from(PLAYER_COUNTS)


@settings(max_examples=30, deadline=None)
@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=140),
       choices=st.integers(min_value=0, max_value=2**32), large=st.booleans())
def test_json_round_trip(players, seed, steps, choices, large) -> None:
    state = playout(players, seed, steps, large=large, choices=choices)
    for candidate in (state, *(sg.player_view(state, p) for p in range(players))):
        text = json.dumps(sg.state_json(candidate))
        back = sg.read_state(json.loads(text))
        assert back == candidate
        assert json.dumps(sg.state_json(back)) == text


@settings(max_examples=30, deadline=None)
@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=140),
       choices=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_json_parses(players, seed, steps, choices) -> None:
    state = playout(players, seed, steps, choices=choices)
    for candidate in (state, sg.player_view(state, state.turn)):
        moves = json.loads(json.dumps(sg.legal_moves(candidate)))
        parsed = [sg.parse_step(move) for move in moves]
        assert parsed == sg.legal_steps(candidate)
        assert [step.to_json() for step in parsed] == moves


json_values = st.recursive(st.none() | st.booleans() | st.integers(-3, 70) | st.sampled_from(["A", "D", "x", ""]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
                               ["count", "at", "guilds", "tokens", "towers", "rotation", "hexes"]), inner,
                               max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(players=counts, steps=st.integers(min_value=0, max_value=80), data=st.data())
def test_mutated_states_are_answered_never_crash(players, steps, data) -> None:
    """Any document near a real state is either read (valid or with rule problems) or refused as malformed; legal
    steps of a readable state apply."""
    doc = sg.state_json(playout(players, 5, steps, choices=steps))
    paths = [p for p in json_paths(doc) if p]
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        path = data.draw(st.sampled_from(paths))
        node = doc
        try:
            for key in path[:-1]:
                node = node[key]
            if data.draw(st.booleans()) and isinstance(node, dict):
                node.pop(path[-1], None)
            else:
                node[path[-1]] = data.draw(json_values)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        errors, _ = sg.validate_state(doc)
    except sg.MalformedError:
        return
    if errors:
        with pytest.raises(sg.InvalidStateError):
            sg.read_state(doc)
        return
    state = sg.read_state(doc)
    for step in sg.legal_steps(state):
        sg.apply_step(state, step)
    sg.score(state)
