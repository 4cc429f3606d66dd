"""The engines' memos (service/games/core/memo.py): every bounded memo of a game is registered, a worker empties
them every ENGINE_MEMO_REQUESTS requests, and an answer does not depend on what the memos held."""
from __future__ import annotations

import functools
import importlib
import pkgutil
import random

import pytest

import service.games
from service.games.core import memo
from service.games.registry import GAMES


def _game_modules() -> list:
    return [importlib.import_module(info.name)
            for info in pkgutil.walk_packages(service.games.__path__, "service.games.")]


def _lru_caches() -> dict[str, functools._lru_cache_wrapper]:
    """Every functools.lru_cache of the games' modules, by name."""
    found = {}
    for module in _game_modules():
        for name, value in vars(module).items():
            wrapped = getattr(value, "__wrapped__", None)  # (a memo behind another decorator: last_by_identity)
            for candidate in (value, wrapped):
                if isinstance(candidate, functools._lru_cache_wrapper) and candidate.__module__ == module.__name__:
                    found[f"{module.__name__}.{name}"] = candidate
    return found


def _play(rng: random.Random, steps: int) -> None:
    """A few random steps of every game and variant (its engine's memos fill)."""
    for game in GAMES.values():
        for variant in [{}] + [{v.name: v.example} for v in game.info.variants]:
            names = [f"P{seat}" for seat in range(game.info.min_players)]
            dealt = game.new({"seed": rng.randrange(1000), "names": names, "variant": variant})["state"]
            state = game.load_state(dealt).checked()  # through the JSON forms, as a request goes: their memos too
            for _ in range(steps):
                moves = game.legal_moves_of(state)
                if not moves:
                    break
                state = game.apply_steps(state, [rng.choice(moves)]).state


def test_every_bounded_memo_of_a_game_is_registered():
    """A memo with a bound is the engine's (registered: emptied with the others); one without a bound is a table of
    the game's own facts, which can only hold so much (Carcassonne's rotations a tile meets a square's needs in)."""
    _play(random.Random(1), 40)
    memo.forget()
    left = {name: cached.cache_info().currsize for name, cached in _lru_caches().items()
            if cached.cache_info().maxsize is not None and cached.cache_info().currsize}
    assert not left, f"memos not registered in service.games.core.memo: {left}"


def test_forget_empties_every_memo_and_answers_stay_the_same(client):
    body = {"state": GAMES["torri"].new({"seed": 4, "names": ["A", "B"]})["state"]}
    first = client.post("/v1/games/torri/legal-moves", json=body).get_json()
    _play(random.Random(2), 30)
    assert memo.entries() > 0
    memo.forget()
    assert memo.entries() == 0
    again = GAMES["torri"].legal_moves(body)
    assert again["moves"] == first["moves"]


@pytest.mark.app_config(ENGINE_MEMO_REQUESTS=3)
def test_a_worker_empties_the_memos_every_so_many_requests(client):
    cached = memo.remember(functools.lru_cache(maxsize=8)(lambda n: n * 2))
    for asked in range(1, 7):
        cached(asked)  # one entry more before each request
        client.get("/v1/games")
        assert cached.cache_info().currsize == (0 if asked % 3 == 0 else asked % 3)


@pytest.mark.app_config(ENGINE_MEMO_REQUESTS=0)
def test_zero_never_empties_them(client):
    cached = memo.remember(functools.lru_cache(maxsize=8)(lambda n: n * 3))
    for asked in range(5):
        cached(asked)
        client.get("/v1/games")
    assert cached.cache_info().currsize == 5
