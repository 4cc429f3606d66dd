"""The answers' types in openapi.yaml are exact, as a client generated from it relies on: over random games of every
game, variant and player count, every answer of /new, /legal-moves, /apply (one move at a time, so every kind of
event is met), /view and /replay validates against its operation's answer schema, in which
- every event is one kind of the game's event union, with every fact that kind always carries and no other;
- every state is the game's answer form (`<Game>StateOutput`): every field an answer always gives is required;
- every move is the game's named move union (`<Game>Move`), and Torri's pending decision is one kind of its union.
The spec is read as committed, so a schema that says less (or more) than the service answers fails here."""
from __future__ import annotations

import inspect
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from service.api import create_app
from service.games.registry import GAMES
from tests.settings import AS_DEPLOYED

ROOT = Path(__file__).resolve().parents[2]
STEPS = 400  # per game: enough to meet every common kind of event (tests/test_narration.py seeks the rarer ones)
SEEDS = (1, 2)


@lru_cache(maxsize=1)
def _spec() -> dict:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(path: str) -> Draft202012Validator:
    spec = _spec()
    schema = spec["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    root = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "components": spec["components"]}
    return Draft202012Validator(root)


def _check(path: str, answer: Any) -> None:
    errors = sorted(_validator(path).iter_errors(answer), key=lambda error: list(error.absolute_path))
    assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"


@pytest.fixture(scope="module")
def client():
    return create_app(AS_DEPLOYED).test_client()


def _cases() -> list[Any]:
    cases = []
    for game_id, game in GAMES.items():
        info = game.info
        for variant in [{}] + [{v.name: v.example} for v in info.variants]:
            for players in sorted({info.min_players, info.max_players}):
                cases.append(pytest.param(game_id, variant, players,
                                          id=f"{game_id}-{'-'.join(variant) or 'base'}-{players}"))
    return cases


@pytest.mark.parametrize("game_id, variant, players", _cases())
def test_every_answer_of_random_games_is_exactly_its_schema(client, game_id, variant, players):
    base = f"/v1/games/{game_id}"
    seen: set[str] = set()
    for seed in SEEDS:
        rng = random.Random(seed)
        body: dict[str, Any] = {"seed": seed, "names": [f"P{i}" for i in range(players)]}
        if variant:
            body["variant"] = variant
        dealt = client.post(f"{base}/new", json=body).get_json()
        _check(f"{base}/new", dealt)
        state, played = dealt["state"], []
        start = state
        for step in range(STEPS):
            listed = client.post(f"{base}/legal-moves", json={"state": state}).get_json()
            _check(f"{base}/legal-moves", listed)
            if not listed["moves"]:
                break
            move = rng.choice(listed["moves"])
            applied = client.post(f"{base}/apply", json={"state": state, "moves": [move]}).get_json()
            _check(f"{base}/apply", applied)
            assert applied["legal"], applied["violations"]
            seen.update(event["type"] for event in applied["events"])
            state = applied["state"]
            played.append(move)
            if step % 25 == 0:
                viewed = client.post(f"{base}/view", json={"state": state, "player": step % players}).get_json()
                _check(f"{base}/view", viewed)
        replayed = client.post(f"{base}/replay", json={"state": start, "moves": played[:60]}).get_json()
        _check(f"{base}/replay", replayed)
    # which kinds random games reach is tests/test_narration.py's question; here, only that events were checked
    assert seen, "no event was answered: the event union went unchecked"


def test_the_event_union_names_every_kind_the_engines_emit():
    """Each game's event union is the whole list: an event kind met in play that the union lacks would fail the
    test above; here, the union has no kind that the engine's source never emits."""
    for game_id, game in GAMES.items():
        kinds = set(game.wire.events)
        package = Path(inspect.getfile(type(game))).parent  # the folder of the game's `Game`
        source = "".join(path.read_text(encoding="utf-8") for path in package.glob("*.py"))
        never = {kind for kind in kinds if f'Event({{"type": "{kind}"' not in source}
        assert not never, (game_id, never)


def test_a_wrong_event_or_a_missing_state_field_is_refused():
    """The check is not vacuous: an event with a fact too many or too few, or a state without `turn`, fails."""
    dealt_path = "/v1/games/torri/apply"
    client = create_app(AS_DEPLOYED).test_client()
    state = client.post("/v1/games/torri/new", json={"seed": 3}).get_json()["state"]
    good = client.post(dealt_path, json={"state": state, "moves": [{"type": "purchase"}]}).get_json()
    _check(dealt_path, good)
    purchase = next(event for event in good["events"] if event["type"] == "purchase")
    for wrong in ({**purchase, "cards": []}, {k: v for k, v in purchase.items() if k != "draws"}):
        with pytest.raises(AssertionError):
            _check(dealt_path, {**good, "events": [wrong]})
    with pytest.raises(AssertionError):
        _check(dealt_path, {**good, "state": {k: v for k, v in good["state"].items() if k != "turn"}})
