"""The HTTP endpoints serve every registered game alike: the games list says what the registry says, the rules
served are the game's catalogue, /new refuses a table the game cannot seat or a variant its schema refuses, every
recorded game (tests/<game>/data/golden*) replays whole over /replay, answers are cached, and the committed
openapi.yaml documents each of the game's endpoints with examples. What only one game serves is tested in
tests/<game>/test_api.py."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

from service.games.core.game import Capability
from service.games.registry import GAMES
from tests.golden import deal, library, load, recorded_games, recorded_sets

ROOT = Path(__file__).resolve().parents[1]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
ALL = list(GAMES)
NAMES = ("Ada", "Bea", "Cy", "Dee", "Eve", "Fay")
QUESTIONS = ("new", "validate", "legal-moves", "apply", "replay", "score", "view")
RECORDED = [pytest.param(game, path, id=f"{game}-{path.parent.name}-{path.stem}")
            for game in GAMES for folder in recorded_sets(game) for path in recorded_games(game, folder)]


def base(game: str) -> str:
    return f"/v1/games/{game}"


def dealt(game: str, client, names=("Ada", "Bea", "Cy"), **extra) -> dict:
    """The state /new deals for seed 7 and `names` (and `extra`: a variant, the game's deal options)."""
    response = client.post(f"{base(game)}/new", json={"seed": 7, "names": list(names), **extra})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


@pytest.mark.parametrize("game", ALL)
def test_games_lists_the_game_as_the_registry_has_it(client, game):
    listed = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}[game]
    info = GAMES[game].info
    assert (listed["title"], listed["min_players"], listed["max_players"]) == (info.title, info.min_players,
                                                                             info.max_players)
    package = importlib.import_module(f"service.games.{game}")
    assert listed["rules_version"] == info.rules_version == package.RULES_VERSION
    assert [v["name"] for v in listed["variants"]] == [v.name for v in info.variants]
    assert listed["links"]["apply"] == f"{base(game)}/apply"


@pytest.mark.parametrize("game", ALL)
def test_rules_serve_the_catalogue(client, game):
    body = client.get(f"{base(game)}/rules").get_json()
    assert body["game"] == game and body["rules_version"] == GAMES[game].info.rules_version
    assert [r["id"] for r in body["rules"]] == [r.id for r in GAMES[game].rule_book]


def _bad_new_requests() -> list:
    cases = []
    for game, adapter in GAMES.items():
        info = adapter.info
        cases += [pytest.param(game, {"seed": 1, "names": list(NAMES[:info.min_players - 1])}, "/names",
                               id=f"{game}-too-few"),
                  pytest.param(game, {"seed": 1, "names": list(NAMES[:info.max_players + 1])}, "/names",
                               id=f"{game}-too-many")]
        if info.min_players < info.max_players:  # a game for a fixed number of players seats them unnamed
            cases.append(pytest.param(game, {"seed": 1}, "/names", id=f"{game}-no-names"))
        cases += [pytest.param(game, {"seed": 1, "names": list(NAMES[:info.min_players]),
                                      "variant": {variant.name: _other_type(variant)}}, f"/variant/{variant.name}",
                               id=f"{game}-{variant.name}-of-another-type") for variant in info.variants]
    return cases


def _other_type(variant) -> object:
    """A value of a JSON type that neither the variant's default nor its example has: its schema refuses it."""
    kinds = {type(variant.default), type(variant.example)}
    return next(value for value in ("yes", 12345, [1], {"on": 1}) if type(value) not in kinds)


@pytest.mark.parametrize(("game", "body", "pointer"), _bad_new_requests())
def test_new_rejects_bad_requests(client, game, body, pointer):
    response = client.post(f"{base(game)}/new", json=body)
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    assert pointer in {e["pointer"] for e in response.get_json()["errors"]}


@pytest.mark.parametrize(("game", "path"), RECORDED)
def test_replay_a_whole_golden_game(client, game, path):
    golden = load(path)
    start = library(game).state_json(deal(game, golden))
    body = client.post(f"{base(game)}/replay", json={"state": start, "moves": golden["steps"]}).get_json()
    assert body["legal"] is True and len(body["states"]) == len(golden["steps"])
    assert body["state"] == golden["final_state"] == body["states"][-1]
    assert body["score"] == {**golden["score"], "warnings": []}


@pytest.mark.parametrize("game", ALL)
def test_answers_are_cached(client, game):
    body = {"state": dealt(game, client, names=("Q", "R"))}
    first = client.post(f"{base(game)}/legal-moves", json=body)
    second = client.post(f"{base(game)}/legal-moves", json=body)
    assert second.headers.get("X-Cache") == "hit" or first.headers.get("X-Cache") == "bypass"
    assert first.get_json() == second.get_json()


@pytest.mark.parametrize("game", ALL)
def test_the_committed_spec_documents_every_endpoint_of_the_game(game):
    # picture is offered by the games that declare it
    offered = QUESTIONS + (("picture",) if GAMES[game].offers(Capability.PICTURE) else ())
    for question in offered:
        operation = SPEC["paths"][f"{base(game)}/{question}"]["post"]
        assert "examples" in operation["requestBody"]["content"]["application/json"], question
        answer = operation["responses"]["200"]["content"]["application/json"]
        assert "example" in answer or "examples" in answer, question
