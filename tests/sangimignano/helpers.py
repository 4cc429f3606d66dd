"""Building San Gimignano positions for tests: a board from a short description, random playouts, rotations."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import strategies as st

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import Placed, canonical_turn, rotate_coord

Space = tuple[tuple[int, int], str]


def position(hexes: list[tuple[tuple[int, int], int, str]], *, players: int = 2,
             tokens: dict[Space, tuple[int, ...]] | None = None, towers: dict[Space, int] | None = None,
             hands: list[list[str]] | None = None, turn: int = 0, step: str | None = "token", large: bool = False,
             supply: dict[int, int] | None = None, box: int | None = None) -> sg.State:
    """A state with the given hexagons ((at, rotation, "ABC")), pieces on named spaces and hands ("ABD" strings);
    supplies are what conservation leaves unless `supply` sets a player's tokens; the box holds the rest."""
    board = sorted((Placed(at, *canonical_turn(k, tuple(g))) for at, k, g in hexes), key=lambda p: p.at)
    lay = sg.layout(tuple(board))
    token_list: list[tuple[int, ...]] = [() for _ in range(lay.spaces)]
    tower_list: list[int | None] = [None] * lay.spaces
    for (at, guild), owners in (tokens or {}).items():
        token_list[lay.space(at, guild)] = tuple(sorted(owners))
    for (at, guild), owner in (towers or {}).items():
        tower_list[lay.space(at, guild)] = owner
    hands = hands if hands is not None else [[] for _ in range(players)]
    people = []
    for p in range(players):
        placed = sum(owners.count(p) for owners in token_list)
        built = sum(owner == p for owner in tower_list)
        kinds = tuple(sorted(sg.geometry.hexagon_kind(tuple(h)) for h in hands[p]))
        left = (supply or {}).get(p, sg.TOKENS - placed)
        people.append(sg.Player(f"P{p}", kinds, 0, left, sg.TOWERS - built))
    in_hands = sum(len(h) for h in hands)
    if box is None:
        box = sg.HEXAGONS - len(board) - in_hands
    return sg.State(large, tuple(people), tuple(board), tuple(token_list), tuple(tower_list), box, turn, step,
                    sg.OVER if step is None else sg.PLAY)


def space(state: sg.State, at: tuple[int, int], guild: str) -> int:
    return sg.layout(state.board).space(at, guild)


def playout(players: int, seed, steps: int, *, large: bool = False, choices: int = 0,
            builder: bool = False) -> sg.State:
    """A seeded deal played `steps` steps (or to its end) by a random policy (building whenever it can)."""
    rng = random.Random(f"{choices}")
    state = sg.new_game(seed, players=players, large_groups=large)
    for _ in range(steps):
        legal = sg.legal_steps(state)
        if not legal:
            break
        builds = [s for s in legal if s.type == "build"] if builder else []
        state = sg.apply_step(state, rng.choice(builds or legal))[0]
    return state


def rotate_state(state: sg.State, turns: int = 1) -> sg.State:
    """The whole board turned by 60 degrees `turns` times about [0, 0]: every coordinate and every hexagon."""
    pieces = {}
    for h, placed in enumerate(state.board):
        for i in range(3):
            pieces[(placed.at, placed.guilds[i])] = (state.tokens[3 * h + i], state.towers[3 * h + i])
    board = sorted((Placed(rotate_coord(p.at, turns), *canonical_turn(p.rotation + turns, p.guilds))
                    for p in state.board), key=lambda p: p.at)
    tokens, towers = [], []
    for placed in board:
        for guild in placed.guilds:
            old_at = rotate_coord(placed.at, -turns)
            t, w = pieces[(old_at, guild)]
            tokens.append(t)
            towers.append(w)
    return replace(state, board=tuple(board), tokens=tuple(tokens), towers=tuple(towers))


def rotate_step(step: sg.Step, turns: int = 1) -> sg.Step:
    if step.at is None:
        return step
    at = rotate_coord(step.at, turns)
    if step.type == "hex":
        return step._replace(at=at, rotation=(step.rotation + turns) % 6)
    return step._replace(at=at)


def token(at: tuple[int, int], guild: str) -> sg.Step:
    return sg.Step("token", at=at, guild=guild)


def build(at: tuple[int, int], guild: str) -> sg.Step:
    return sg.Step("build", at=at, guild=guild)


def refused(state: sg.State, step: sg.Step) -> sg.Problem:
    """The first problem of a step the library refuses."""
    with pytest.raises(sg.IllegalStepError) as caught:
        sg.apply_step(state, step)
    return caught.value.problems[0]


# The random games the property tests play: how many players, the deal's seed, and how many steps into the game.
players = st.sampled_from((2, 3, 4))
seeds = st.integers(min_value=0, max_value=10_000)
lengths = st.integers(min_value=0, max_value=160)
