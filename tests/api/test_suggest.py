"""POST /v1/games/{game}/suggest: a computer player's steps, accepted by /apply; the budget capped by the
configuration; a playout budget with a seed cached; a suggestion counted as several requests by the rate limit; a
finished game a 422."""
from __future__ import annotations

import random
from typing import Any

import pytest

from service.games.core import players
from service.games.registry import GAMES

from .helpers import PROBLEM_JSON

# The service stops every search at SUGGEST_MAX_BUDGET_MS (1 s as deployed), a playout budget too. A test that
# counts playouts, or needs an answer complete (and so cached), moves that ceiling out of reach: a slow or busy
# machine then gives the same answer as a fast one, only later.
CEILING_OUT_OF_REACH = pytest.mark.app_config(SUGGEST_MAX_BUDGET_MS=60_000)


def deal(client: Any, game: str, seed: int, **request: Any) -> dict:
    """A fresh deal for three players, or as near three as the game seats: a search against more than one
    opponent where the game allows it."""
    info = GAMES[game].info
    seats = min(max(3, info.min_players), info.max_players)
    names = [f"Player {seat + 1}" for seat in range(seats)]
    answer = client.post(f"/v1/games/{game}/new", json={"seed": seed, "names": names, **request})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["state"]


def played(client: Any, game: str, state: dict, steps: int, rng: random.Random) -> dict:
    """`state` after up to `steps` random legal moves, through the API, someone still to act."""
    for _ in range(steps):
        moves = client.post(f"/v1/games/{game}/legal-moves", json={"state": state}).get_json()["moves"]
        after = client.post(f"/v1/games/{game}/apply", json={"state": state, "moves": [rng.choice(moves)]}
                            ).get_json()["state"]
        if client.post(f"/v1/games/{game}/legal-moves", json={"state": after}).get_json()["to_act"] is None:
            break  # that step would end the game (a short one): a suggestion needs someone to act
        state = after
    return state


@CEILING_OUT_OF_REACH
@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("level", players.LEVELS)
def test_a_suggestion_is_accepted_by_apply(client: Any, game: str, level: str) -> None:
    rng = random.Random(f"{game}:{level}")
    for seed in range(3):
        state = played(client, game, deal(client, game, seed), rng.randrange(40), rng)
        answer = client.post(f"/v1/games/{game}/suggest", json={"state": state, "level": level, "seed": seed,
                                                                 "playouts": 20})
        assert answer.status_code == 200, answer.get_json()
        suggestion = answer.get_json()
        assert suggestion["level"] == level and suggestion["seed"] == seed and suggestion["complete"]
        legal = client.post(f"/v1/games/{game}/legal-moves", json={"state": state}).get_json()
        assert suggestion["player"] == legal["to_act"] and suggestion["moves"][0] in legal["moves"]
        applied = client.post(f"/v1/games/{game}/apply", json={"state": state, "moves": suggestion["moves"]})
        assert applied.get_json()["legal"], applied.get_json()["violations"]
        if level == "mcts":
            assert suggestion["playouts"] == 20 and 0 <= suggestion["expected"]["win_chance"] <= 1


@CEILING_OUT_OF_REACH
def test_the_answer_says_what_the_search_thinks(client: Any) -> None:
    state = deal(client, "campanile", 4)
    answer = client.post("/v1/games/campanile/suggest", json={"state": state, "seed": 4, "playouts": 60}).get_json()
    assert set(answer) == {"player", "level", "seed", "moves", "expected", "alternatives", "playouts", "elapsed_ms",
                           "complete"}
    assert answer["level"] == "mcts" and answer["playouts"] == 60 and answer["elapsed_ms"] >= 0
    assert set(answer["expected"]) == {"win_chance", "margin", "playouts"}
    assert answer["alternatives"] and all(set(a) == {"move", "win_chance", "margin", "playouts"}
                                          for a in answer["alternatives"])
    assert all(a["playouts"] <= answer["expected"]["playouts"] for a in answer["alternatives"])


@CEILING_OUT_OF_REACH
def test_a_playout_budget_with_a_seed_is_cached(client: Any) -> None:
    body = {"state": deal(client, "sangimignano", 2), "seed": "cached", "playouts": 15}
    first = client.post("/v1/games/sangimignano/suggest", json=body)
    second = client.post("/v1/games/sangimignano/suggest", json=body)
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("miss", "hit")
    assert first.get_json() == second.get_json()


@pytest.mark.parametrize("budget", [{"budget_ms": 20}, {"playouts": 15}, {}])
def test_a_wall_clock_budget_or_no_seed_is_not_cached(client: Any, budget: dict) -> None:
    body = {"state": deal(client, "campanile", 3), **budget}
    if "playouts" not in budget:
        body["seed"] = 1
    first = client.post("/v1/games/campanile/suggest", json=body)
    assert first.status_code == 200 and first.headers["X-Cache"] == "bypass"
    if "seed" not in body:
        assert isinstance(first.get_json()["seed"], int)  # picked, and returned so the answer can be repeated


@pytest.mark.app_config(SUGGEST_MAX_BUDGET_MS=40, SUGGEST_DEFAULT_BUDGET_MS=25)
def test_the_budget_is_capped_by_the_configuration(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    budgets: list[players.Budget] = []
    search = players.suggest

    def recorded(rules: Any, state: Any, **kwargs: Any) -> players.Suggestion:
        budgets.append(kwargs["budget"])
        return search(rules, state, **kwargs)
    monkeypatch.setattr("service.games.core.players.suggest", recorded)
    state = deal(client, "torri", 1)
    for budget in ({"budget_ms": 60_000}, {}, {"budget_ms": 10}, {"playouts": 5}):
        assert client.post("/v1/games/torri/suggest", json={"state": state, "seed": 1, **budget}).status_code == 200
    assert budgets == [players.Budget(seconds=0.04, ceiling=0.04), players.Budget(seconds=0.025, ceiling=0.04),
                       players.Budget(seconds=0.01, ceiling=0.04), players.Budget(playouts=5, ceiling=0.04)]


@pytest.mark.app_config(SUGGEST_MAX_BUDGET_MS=0)
def test_a_playout_budget_cut_short_by_the_ceiling_says_so_and_is_not_cached(client: Any) -> None:
    body = {"state": deal(client, "carcassonne", 1), "seed": 1, "playouts": 100_000}
    answer = client.post("/v1/games/carcassonne/suggest", json=body)
    assert answer.status_code == 200 and answer.headers["X-Cache"] == "bypass"
    assert answer.get_json()["complete"] is False and answer.get_json()["playouts"] < 100_000
    assert client.post("/v1/games/carcassonne/apply", json={"state": body["state"],
                                                            "moves": answer.get_json()["moves"]}).get_json()["legal"]


@pytest.mark.app_config(RATE_LIMIT="25 per minute", SUGGEST_RATE_COST=10)
def test_the_rate_limit_counts_a_suggestion_as_several_requests(client: Any) -> None:
    state = deal(client, "torri", 1)  # 1
    body = {"state": state, "seed": 1, "playouts": 3}
    assert client.post("/v1/games/torri/suggest", json=body).status_code == 200  # 11
    assert client.post("/v1/games/torri/suggest", json=body).status_code == 200  # 21
    assert client.post("/v1/games/torri/suggest", json=body).status_code == 429  # 31: over 25
    for _ in range(4):  # 22 to 25: a question costs one
        assert client.post("/v1/games/torri/legal-moves", json={"state": state}).status_code == 200
    assert client.post("/v1/games/torri/legal-moves", json={"state": state}).status_code == 429


def test_a_finished_game_is_a_422(client: Any) -> None:
    finished = GAMES["carcassonne"].examples["score"]["state"]
    answer = client.post("/v1/games/carcassonne/suggest", json={"state": finished, "playouts": 5})
    assert answer.status_code == 422 and answer.mimetype == PROBLEM_JSON
    problem = answer.get_json()
    assert problem["type"] == "/problems/game-over" and problem["errors"][0]["pointer"] == "/state"


@pytest.mark.parametrize("body, pointer", [
    ({"playouts": 5, "budget_ms": 5}, "/playouts"),
    ({"level": "expert"}, "/level"),
    ({"playouts": 0}, "/playouts"),
    ({"budget_ms": 600_000}, "/budget_ms"),
    ({"seed": True}, "/seed"),
    ({"seed": "x" * 201}, "/seed"),
])
def test_a_malformed_request_is_a_400(client: Any, body: dict, pointer: str) -> None:
    answer = client.post("/v1/games/torri/suggest", json={"state": deal(client, "torri", 1), **body})
    assert answer.status_code == 400 and answer.mimetype == PROBLEM_JSON
    assert pointer in [e["pointer"] for e in answer.get_json()["errors"]]


def test_an_impossible_state_is_a_422(client: Any) -> None:
    state = GAMES["torri"].examples["validate"]["state"]
    answer = client.post("/v1/games/torri/suggest", json={"state": state, "playouts": 5})
    assert answer.status_code == 422 and answer.get_json()["type"] == "/problems/impossible-state"
