"""Hostile but legal requests: bodies whose answer is right but whose work could grow out of proportion, and
positions at the edges of what the schemas allow. Work is counted (how many searches a request runs), never timed."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from service.games import carcassonne, sangimignano
from service.games.sangimignano import engine as sg_engine
from service.games.sangimignano import geometry

from .helpers import assert_problem, timed

DATA = Path(__file__).parent / "data"
SG = "/v1/games/sangimignano"
MAX_MOVES = 1000


def one_builder(variant: str) -> dict:
    """A 4-player board with all 16 hexagons and all 80 tokens out, found by searching for the slowest body of
    `end` steps (bench/worst_case.py): player 3 could build but declines, the others pass through skipped phases,
    and every turn's end asks S-END-2 (no possible group left?) of every player."""
    name = "sangimignano_one_builder.json" if variant == "large_groups" else "sangimignano_one_builder_base.json"
    return json.loads((DATA / name).read_text())


@pytest.fixture
def searches(monkeypatch):
    """Counts the group searches (S-END-2, S-BUILD-1) the engine runs, with its caches emptied first."""
    count = {"group_within": 0, "quartets": 0}
    real_within, real_quartets = sg_engine.group_within, sg_engine.distinct_quartets

    def within(*args, **kwargs):
        count["group_within"] += 1
        return real_within(*args, **kwargs)

    def quartets(*args, **kwargs):
        count["quartets"] += 1
        return real_quartets(*args, **kwargs)

    monkeypatch.setattr(sg_engine, "group_within", within)
    monkeypatch.setattr(sg_engine, "distinct_quartets", quartets)
    for cached in (sg_engine._possible_group, sg_engine._buildable, sg_engine._any_fits):
        cached.cache_clear()
    return count


@pytest.mark.parametrize("variant", ["base", "large_groups"])
def test_a_thousand_declined_turns_search_each_position_once(client, searches, variant):
    """S-END-2 is asked after every turn, and a declined turn changes nothing on the board: the search's answer for
    a board is reused, so a thousand `end` steps cost a thousand small steps, not four thousand searches."""
    state = one_builder(variant)
    response = timed(client, f"sangimignano {variant} 1000 x end", "POST", f"{SG}/apply",
                     json={"state": state, "moves": [{"type": "end"}] * MAX_MOVES})
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["legal"] is True and answer["state"]["turn"] == 3 and answer["state"]["step"] == "build"
    events = answer["events"]
    assert sum(e["type"] == "declined" for e in events) == MAX_MOVES
    assert sum(e["type"] == "skipped" for e in events) >= MAX_MOVES * 2  # the others pass by themselves
    assert searches["group_within"] <= 4, searches  # one S-END-2 search per player for the one board
    assert searches["quartets"] <= 4 * 4, searches


def test_the_same_answers_with_the_searches_remembered_or_not(searches):
    """The remembered answers are the searches' own: a whole hoarding game gives the same states either way."""
    state = sangimignano.read_state(one_builder("large_groups"))
    steps = [sangimignano.Step("end")] * 20
    remembered = sangimignano.apply_steps(state, steps)
    for cached in (sg_engine._possible_group, sg_engine._buildable, sg_engine._any_fits):
        cached.cache_clear()
    fresh = sangimignano.apply_steps(state, steps)
    assert remembered.state == fresh.state and remembered.events == fresh.events


# ---------------------------------------------------------------- S-SVC-EDGE: the legal list posts back

def _edge_state(hexes: list[tuple[list[int], int]]) -> dict:
    """A two-player state with two hexagons at the given places, both hands full, the first player's hexagon due."""
    state = sangimignano.state_json(sangimignano.new_game(7, players=2))
    for hexagon, (at, rotation) in zip(state["board"], hexes):
        hexagon["at"], hexagon["rotation"] = at, rotation
    state["step"] = "hex"
    state["players"][0]["tokens"] -= 1  # the token phase was played on the first hexagon
    state["board"][0]["tokens"][0] = [0]
    return state


@pytest.mark.parametrize("corner", [([64, 0], [64, -1]), ([-64, 0], [-64, 1]), ([0, 64], [1, 63]),
                                    ([-64, 64], [-63, 63])])
def test_every_listed_hexagon_step_posts_back_at_the_table_s_edge(client, corner):
    state = _edge_state([(corner[0], 0), (corner[1], 0)])
    assert client.post(f"{SG}/validate", json={"state": state}).get_json()["valid"] is True
    listed = client.post(f"{SG}/legal-moves", json={"state": state}).get_json()["moves"]
    places = {tuple(m["at"]) for m in listed if m["type"] == "hex"}
    assert places and all(max(abs(q), abs(r)) <= geometry.MAX_COORD for q, r in places)
    for move in listed:
        answer = client.post(f"{SG}/apply", json={"state": state, "moves": [move]})
        assert answer.status_code == 200 and answer.get_json()["legal"] is True, (move, answer.get_json())


def test_beyond_the_edge_is_refused_by_the_library_and_malformed_on_the_wire(client):
    """The one free cell touching both hexagons at [64, 0] and [64, -1] on the far side is [65, -1]: off the
    table. The library refuses it with the ruling, the wire's schema as a place out of range."""
    state = _edge_state([([64, 0], 0), ([64, -1], 0)])
    read = sangimignano.read_state(state)
    hand = read.players[0].hexes[0]
    beyond = sangimignano.Step("hex", at=(65, -1), hex=hand, rotation=0)
    outcome = sangimignano.apply_steps(read, [beyond])
    assert [(v.rule, v.pointer) for v in outcome.violations] == [("S-SVC-EDGE", "/0/at")]
    assert beyond not in sangimignano.legal_steps(read)
    response = client.post(f"{SG}/apply", json={"state": state, "moves": [beyond.to_json()]})
    problem = assert_problem(response, 400)
    assert "/moves/0/at/0" in {e["pointer"] for e in problem["errors"]}


# ---------------------------------------------------------------- K-TOW-ACT-2: an impossible capture step

def _raised_with_top() -> dict:
    from tests.carcassonne.helpers import doc
    from tests.carcassonne.test_rules_tower import JUST_PLACED, ROW, ROW_MEEPLES

    return doc(ROW + [JUST_PLACED], tower=True, step="capture", last=JUST_PLACED[1], raised=(0, 1),
               meeples=ROW_MEEPLES, towers=[((0, 1), 2, 1)])


@pytest.mark.parametrize("endpoint", ["legal-moves", "apply", "replay", "score", "view", "picture"])
def test_a_tower_just_raised_with_a_meeple_on_top_is_impossible_everywhere(client, endpoint):
    state = _raised_with_top()
    body = {"state": state}
    if endpoint in ("apply", "replay"):
        body["moves"] = [{"type": "capture", "at": [0, 1], "feature": "tower", "player": 1}]
    if endpoint == "view":
        body["player"] = 0
    problem = assert_problem(client.post(f"/v1/games/carcassonne/{endpoint}", json=body), 422)
    assert ("K-TOW-ACT-2", "/state/towers/0/top") in {(e["rule"], e["pointer"]) for e in problem["errors"]}
    validated = client.post("/v1/games/carcassonne/validate", json={"state": state}).get_json()
    assert validated["valid"] is False and [e["rule"] for e in validated["errors"]] == ["K-TOW-ACT-2"]
    fixed = copy.deepcopy(state)
    fixed["towers"][0]["top"] = None
    assert client.post("/v1/games/carcassonne/validate", json={"state": fixed}).get_json()["valid"] is True
    assert carcassonne.read_state(fixed).raised == (0, 1)
