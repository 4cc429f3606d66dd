"""Every sentence a game says about a state is a catalogue entry said in every language (tests/words.py): the
problems of impossible and malformed states, found by breaking real positions of every game and variant one
field at a time. (Events and violations: the conformance harness checks every one its games reach.)"""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from service.games.core.errors import GameError
from service.games.registry import GAMES
from tests.words import unsaid

MUTATIONS = 300  # broken states per game and variant


def _positions(game_id: str, variant: dict, seed: int) -> list[Any]:
    """The JSON states of a seeded random game, every fifth position."""
    game = GAMES[game_id]
    info = game.info
    names = [f"P{i}" for i in range(min(info.min_players + 1, info.max_players))]
    rng = random.Random(seed)
    state = game.new_game(seed, names=names, variant=variant)
    found = [game.state_json(state)]
    for step_number in range(200):
        if game.to_act(state) is None:
            break
        state, _ = game.apply_step(state, rng.choice(game.legal_steps(state)))
        if step_number % 5 == 4:
            found.append(game.state_json(state))
    return found


def _leaves(document: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON document: (path to it, value)."""
    found = [(path, document)]
    if isinstance(document, dict):
        for key, value in document.items():
            found += _leaves(value, path + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _leaves(value, path + (index,))
    return found


def _broken(document: Any, rng: random.Random) -> Any:
    """The document with one place changed: a number moved, a list one item short or long, a field gone or
    unknown, a value of another type."""
    document = copy.deepcopy(document)
    path, value = rng.choice(_leaves(document)[1:])
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if isinstance(value, bool) or value is None:
        changed: Any = rng.choice([not value, 1, "x"])
    elif isinstance(value, int):
        changed = rng.choice([value + 1, value - 1, value + 7, -1, 10 ** 6, "1"])
    elif isinstance(value, str):
        changed = rng.choice(["", "zz", value + "x", 3])
    elif isinstance(value, list):
        changed = rng.choice([value[1:], value + value[:1], value[::-1], {}, []]) if value else rng.choice([[1], {}])
    else:
        changed = dict(value)
        if changed and rng.random() < 0.5:
            changed.pop(rng.choice(list(changed)))
        else:
            changed["unknown_field"] = 1
    parent[last] = changed
    return document


CASES = [(game_id, variant) for game_id, game in GAMES.items()
         for variant in [{}] + [{v.name: v.example} for v in game.info.variants]]


@pytest.mark.parametrize(("game_id", "variant"), CASES)
def test_every_problem_of_a_state_is_said_in_every_language(game_id: str, variant: dict) -> None:
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}:{variant}")
    positions = _positions(game_id, variant, 11)
    checked, unsaid_found, rules = set(), [], set()
    for _ in range(MUTATIONS):
        document = _broken(rng.choice(positions), rng)
        try:
            reading = game.reading({"state": document})
            problems = [*reading.errors, *reading.warnings]
        except GameError as error:
            problems = error.problems
        for problem in problems:
            rules.add(problem.rule)
            if str(problem.message) in checked:
                continue
            checked.add(str(problem.message))
            unsaid_found += unsaid(problem.message, f"{problem.rule} {problem.pointer}: ")
    assert unsaid_found == []
    assert len(checked) > 10 and len(rules - {None}) >= 2, "the broken states reach shape errors and rules"
