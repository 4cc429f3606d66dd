"""Random states posted to every endpoint that takes one: always a 2xx, or a 4xx problem+json whose pointers are
into the request (`/state`, `/moves` for the moves, `/player` for the view), never a 5xx.

Two kinds of states, both well-formed JSON of the state's shape and most of them impossible positions:
- Torri states built from nothing: random card lists, hands as lists or counts, random towers, random pending
  decisions (any type with any action, any indices), random phase/turn/markers;
- real positions of both games (random playouts) with up to four random mutations (none: a real position with
  random moves): a number or a card changed, a list item dropped or duplicated, a list emptied, a key removed,
  another node's value put in its place, a random pending decision swapped in.

Bounded: HOSTILE_STATE_EXAMPLES examples per kind (default 100; `python bench/fuzz.py --states 2000` runs more with
a random seed). Each answer must come within ANSWER_SECONDS.
"""
from __future__ import annotations

import copy
import os
import random
import time

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.games.torri.schemas import TorriStateSchema
from service.games import torri
from tests.conformance import json_paths

from .helpers import BASE, CAMPANILE, TIMINGS, assert_no_internals, assert_problem, fresh_state

EXAMPLES = int(os.environ.get("HOSTILE_STATE_EXAMPLES", "100"))
RANDOM = os.environ.get("HOSTILE_STATE_RANDOM") == "1"  # bench/fuzz.py --states: a new seed every run
ANSWER_SECONDS = 30.0  # a hang guard (unbounded work), not a speed check: speed is measured in bench/
FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not RANDOM,
                         suppress_health_check=list(HealthCheck))

CARDS = list(torri.CARD_NAMES.values())
TOWER_CARDS = ["5", "6", "7", "8", "9", "10"]
NOBLES = [c for c in CARDS if c not in TOWER_CARDS]
PENDING_TYPES = ["draw", "guard", "target", "take", "give", "refill"]
ACTIONS = ["purchase", "exchange", "extend", "income", "via_francigena", "trade", "conspiracy", "build", "zz", ""]
SOURCES = ["deck", "noble_deck", "market"]
STEP_TYPES = ["purchase", "exchange", "draw", "stop", "build", "extend", "complete", "close", "pass", "guard",
              "giostra", "decline", "target", "take", "give", "refill", "noble"]
DECLARES_CLOSED_BY = "closed_by" in TorriStateSchema._declared_fields

# ---------------------------------------------------------------- Torri states from nothing

small = st.integers(min_value=0, max_value=8)
cards = st.lists(st.sampled_from(CARDS), max_size=12)
tower_cards = st.lists(st.sampled_from(TOWER_CARDS + ["buona_pietra"]), max_size=8)


def pile(counted_keys: tuple[str, ...]) -> st.SearchStrategy:
    counted = st.fixed_dictionaries({"count": st.integers(min_value=0, max_value=128)},
                                    optional={key: cards for key in counted_keys})
    return st.one_of(cards, st.lists(st.sampled_from(TOWER_CARDS), min_size=20, max_size=45), counted)


towers = st.lists(st.fixed_dictionaries({"cards": tower_cards}, optional={
    "complete": st.booleans(), "kind": st.sampled_from(["plain", "colorful"]),
    "rank": st.integers(min_value=4, max_value=11)}), max_size=6)

players = st.fixed_dictionaries({"hand": pile(("known",))}, optional={
    "name": st.text(min_size=1, max_size=12), "towers": towers,
    "played": st.lists(st.sampled_from(NOBLES), max_size=3)})

pendings = st.one_of(st.none(), st.fixed_dictionaries(
    {"type": st.sampled_from(PENDING_TYPES), "action": st.sampled_from(ACTIONS),
     "player": st.integers(min_value=0, max_value=1)},
    optional={"left": small, "from": st.lists(st.sampled_from(SOURCES), max_size=3, unique=True), "excluded": cards,
              "built": small, "height": small, "size": small, "give": small,
              "target": st.fixed_dictionaries({"player": st.integers(min_value=0, max_value=2)},
                                              optional={"tower": small})}))

maybe_player = st.one_of(st.none(), st.integers(min_value=0, max_value=1))
optional_state = {"game": st.just("torri"), "variant": st.fixed_dictionaries({"nobles": st.booleans()}),
                  "phase": st.sampled_from(["main", "ending", "over"]), "turn": st.integers(0, 1),
                  "to_act": maybe_player, "passes": st.integers(0, 2), "highest": maybe_player,
                  "noble_deck": pile(("top", "bottom")), "removed": st.lists(st.sampled_from(NOBLES), max_size=4),
                  "palazzo": maybe_player, "pending": pendings}
if DECLARES_CLOSED_BY:
    optional_state["closed_by"] = maybe_player

torri_states = st.fixed_dictionaries(
    {"deck": pile(("top", "bottom")), "market": st.lists(st.sampled_from(CARDS), max_size=8),
     "players": st.one_of(st.lists(players, min_size=2, max_size=2), st.lists(players, max_size=3))},
    optional=optional_state)


def random_move(draw) -> dict:
    kind = draw(st.sampled_from(STEP_TYPES))
    move: dict = {"type": kind}
    fields = {"exchange": {"cards": cards}, "draw": {"from": st.sampled_from(SOURCES), "card": st.sampled_from(CARDS)},
              "build": {"cards": tower_cards, "kind": st.sampled_from(["plain", "colorful"]),
                        "rank": st.integers(4, 11)},
              "extend": {"tower": small, "cards": tower_cards}, "complete": {"towers": st.lists(small, max_size=4)},
              "target": {"player": st.integers(0, 2), "tower": small},
              "take": {"positions": st.lists(st.integers(0, 20), max_size=6), "cards": cards},
              "give": {"cards": cards}, "refill": {"cards": cards},
              "noble": {"card": st.sampled_from(CARDS), "cost": cards}}.get(kind, {})
    required = {"exchange": {"cards"}, "draw": {"from"}, "build": {"cards"}, "extend": {"tower", "cards"},
                "complete": {"towers"}, "target": {"player", "tower"}, "give": {"cards"}, "refill": {"cards"},
                "noble": {"card"}}.get(kind, set())
    for name, strategy in fields.items():
        if name in required or draw(st.booleans()):
            move[name] = draw(strategy)
    return move


# ---------------------------------------------------------------- real positions, mutated

def _api(doc: dict) -> dict:
    if "closed_by" in doc and not DECLARES_CLOSED_BY:
        doc = {k: v for k, v in doc.items() if k != "closed_by"}
    return doc


def _torri_positions() -> list[tuple[dict, list]]:
    rng = random.Random(2024)
    out = []
    for seed in range(10):
        state = torri.new_game(seed, nobles=seed % 2 == 1)
        for _ in range(rng.randrange(0, 40)):
            legal = torri.legal_steps(state)
            if not legal or state.phase == torri.OVER:
                break
            others = [s for s in legal if s.type != "pass"]
            state = torri.apply_step(state, rng.choice(others or legal))[0]
        legal = [s.to_json() for s in torri.legal_steps(state)][:20] if state.phase != torri.OVER else []
        out.append((_api(torri.state_json(state)), legal))
    return out


def _campanile_positions(client) -> list[tuple[dict, list]]:
    rng = random.Random(7)
    out = []
    for seed, names in ((1, ["Ada", "Bea"]), (2, ["Ada", "Bea", "Cy"]), (3, ["A", "B", "C", "D", "E"])):
        state = client.post(f"{CAMPANILE}/new", json={"seed": seed, "names": names}).get_json()["state"]
        for _ in range(rng.randrange(3, 25)):
            legal = client.post(f"{CAMPANILE}/legal-moves", json={"state": state}).get_json().get("moves") or []
            if not legal:
                break
            answer = client.post(f"{CAMPANILE}/apply", json={"state": state, "moves": [rng.choice(legal)]})
            state = answer.get_json()["state"]
            out.append((state, legal[:20]))
    return out[::2]


SCALARS = [-1, 0, 1, 2, 3, 5, 7, 10, 11, 127, 128, None, True, "", "zz", "5", "10", "A", "E", "main", "over",
           "play", "draw", "purchase", "buona_pietra", "mura"]


def mutate(draw, doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        paths = [p for p in json_paths(doc) if p]
        path = draw(st.sampled_from(paths))
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        key, value = path[-1], parent[path[-1]]
        how = draw(st.sampled_from(["scalar", "drop", "duplicate", "empty", "swap"]))
        if how == "scalar":
            parent[key] = draw(st.sampled_from(SCALARS))
        elif how == "drop":
            del parent[key]
        elif how == "duplicate" and isinstance(value, list) and value:
            value.insert(draw(st.integers(0, len(value))), copy.deepcopy(draw(st.sampled_from(value))))
        elif how == "empty" and isinstance(value, (list, dict)):
            parent[key] = type(value)()
        else:  # another node's value in this place
            other = draw(st.sampled_from(paths))
            node = doc
            try:
                for part in other:
                    node = node[part]
            except (KeyError, IndexError, TypeError):
                continue
            parent[key] = copy.deepcopy(node)
    return doc


# ---------------------------------------------------------------- the check

def _check(client, path: str, body: dict, under: tuple[str, ...]) -> None:
    raw = orjson.dumps(body)
    started = time.perf_counter()
    response = client.post(path, data=raw, content_type="application/json")
    text = response.get_data(as_text=True)
    elapsed = time.perf_counter() - started
    TIMINGS.append((f"state fuzz {path}", elapsed))
    assert elapsed < ANSWER_SECONDS, f"{path}: {elapsed:.2f} s for {raw[:500]!r}"
    assert response.status_code < 500, f"{path} {response.status_code}: {text[:400]}\nrequest: {raw[:3000]!r}"
    if response.status_code >= 400:
        assert_problem(response, response.status_code, under=under)
        return
    assert response.status_code == 200, text[:300]
    if path.endswith("/picture"):
        assert response.mimetype == "image/svg+xml" and text.startswith("<svg")
        return
    answer = response.get_json()
    assert isinstance(answer, dict), text[:300]
    for problem in answer.get("errors", []) + answer.get("warnings", []):
        assert problem["pointer"].startswith("/state"), problem
    for violation in answer.get("violations", []):
        assert violation["pointer"].startswith("/moves"), violation
    assert_no_internals(text, path)


def post_everywhere(client, game: str, state: dict, moves: list, player: int) -> None:
    base = BASE if game == "torri" else CAMPANILE
    questions = ("validate", "legal-moves", "score", "view", "apply", "replay") + (
        ("picture", "notation") if game == "torri" else ())
    for question in questions:
        body: dict = {"state": state}
        under: tuple[str, ...] = ("/state",)
        if question in ("apply", "replay"):
            body["moves"], under = moves, ("/state", "/moves")
        elif question == "view":
            body["player"], under = player, ("/state", "/player")
        _check(client, f"{base}/{question}", body, under)


# ---------------------------------------------------------------- the tests

@FUZZ_SETTINGS
@given(data=st.data())
def test_random_torri_states(client, data):
    state = data.draw(torri_states, label="state")
    moves = [random_move(data.draw) for _ in range(data.draw(st.integers(0, 3), label="moves"))]
    post_everywhere(client, "torri", state, moves, data.draw(st.integers(0, 1), label="player"))


TORRI_POSITIONS = _torri_positions()


@FUZZ_SETTINGS
@given(data=st.data())
def test_mutated_torri_positions(client, data):
    state, legal = data.draw(st.sampled_from(TORRI_POSITIONS), label="position")
    state = mutate(data.draw, state)
    if data.draw(st.booleans(), label="random pending"):
        state["pending"] = data.draw(pendings, label="pending")
    steps = st.one_of(st.sampled_from(legal), st.builds(dict)) if legal else st.builds(dict)
    moves = [m if m else random_move(data.draw) for m in data.draw(st.lists(steps, max_size=3), label="moves")]
    post_everywhere(client, "torri", state, moves, data.draw(st.integers(0, 1), label="player"))


@pytest.fixture(scope="module")
def campanile_positions(client):
    return _campanile_positions(client)


@FUZZ_SETTINGS
@given(data=st.data())
def test_mutated_campanile_positions(client, campanile_positions, data):
    state, legal = data.draw(st.sampled_from(campanile_positions), label="position")
    state = mutate(data.draw, state)
    moves = data.draw(st.lists(st.one_of(st.sampled_from(legal), st.fixed_dictionaries(
        {"type": st.sampled_from(["play", "draw", "bet", "pass", "zz"])},
        optional={"card": st.sampled_from(["A", "B", "C", "D", "E", "F", 0]), "stories": st.integers(-1, 5),
                  "pile": st.integers(-1, 4), "tower": st.integers(-1, 6)})), max_size=3), label="moves")
    post_everywhere(client, "campanile", state, moves, data.draw(st.integers(0, 4), label="player"))


def test_the_fuzz_reaches_the_games(client):
    """Not vacuous: valid positions are answered 200 and mutated ones reach the game's own checks (422)."""
    state, legal = TORRI_POSITIONS[3]
    assert client.post(f"{BASE}/legal-moves", json={"state": state}).status_code == 200
    assert legal
    broken = copy.deepcopy(fresh_state(3))
    broken["market"].append("10")  # an extra 10: breaks conservation
    assert client.post(f"{BASE}/legal-moves", json={"state": broken}).status_code == 422
