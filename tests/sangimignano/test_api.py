"""The HTTP endpoints serve San Gimignano: end-to-end calls through the Flask test client."""
from __future__ import annotations

from functools import partial

import pytest

from service.games import sangimignano as sg
from service.games.registry import GAMES
from tests.golden import load, recorded_games
from tests.test_game_endpoints import SPEC, dealt

from .helpers import position
from .test_rules_setup import HANDS_3P, THREE
from .test_rules_turn import GROUP

BASE = "/v1/games/sangimignano"
GOLDEN = recorded_games("sangimignano")


_new = partial(dealt, "sangimignano")


def test_sangimignano_is_listed_for_2_to_4_players_with_its_variant():
    info = GAMES["sangimignano"].info
    assert (info.title, info.min_players, info.max_players, [v.name for v in info.variants]) == (
        "San Gimignano", 2, 4, ["large_groups"])


def test_rules_serve_the_s_ids(client):
    body = client.get(f"{BASE}/rules").get_json()
    assert {r["id"] for r in body["rules"] if r["ruling"]} >= {"S-SVC-STUCK", "S-SVC-NOFIT", "S-END-3"}


def test_new_deals_by_seed_names_variant_and_hexagons(client):
    state = _new(client)
    assert [p["name"] for p in state["players"]] == ["Ada", "Bea", "Cy"]
    assert len(state["board"]) == 3 and state["box"] == 4 and state["step"] == "token"
    assert state == _new(client)
    assert state == sg.state_json(sg.new_game(7, names=["Ada", "Bea", "Cy"]))
    assert _new(client, variant={"large_groups": True})["variant"] == {"large_groups": True}
    own = _new(client, names=("A", "B"), hexes=[["A", "B", "C"]] * 16)
    assert all(h == ["A", "B", "C"] for p in own["players"] for h in p["hexes"])
    random_seed = client.post(f"{BASE}/new", json={"names": ["A", "B"]}).get_json()
    assert isinstance(random_seed["seed"], int) and len(random_seed["state"]["players"]) == 2


@pytest.mark.parametrize("body, status, pointer", [
    ({"seed": 1, "names": ["a", "b"], "hexes": [["A", "B", "E"]] * 16}, 400, "/hexes/0/2"),
    ({"seed": 1, "names": ["a", "b"], "hexes": [["A", "B", "C"]] * 15}, 422, "/hexes"),
    ({"seed": 1, "names": ["a", "b"], "hexes": [["A", "B", "B"]] * 16}, 422, "/hexes/0"),
])
def test_new_rejects_bad_hexagons(client, body, status, pointer):
    response = client.post(f"{BASE}/new", json=body)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert pointer in {e["pointer"] for e in response.get_json()["errors"]}


def test_validate_reports_every_problem_with_rule_and_pointer(client):
    state = _new(client)
    assert client.post(f"{BASE}/validate", json={"state": state}).get_json() == {"valid": True, "errors": [],
                                                                                "warnings": []}
    state["board"][0]["tokens"][0] = [0, 1, 2]
    state["board"][1]["guilds"] = ["A", "A", "B"]
    body = client.post(f"{BASE}/validate", json={"state": state}).get_json()
    assert body["valid"] is False
    rules = {(e["rule"], e["pointer"]) for e in body["errors"]}
    assert {("S-TOKEN-1", "/state/board/0/tokens/0"), ("S-COMP-1", "/state/board/1/guilds")} <= rules


def test_the_library_reads_a_state_as_the_api_does(client):
    """read_state and validate_state are the state schema's reading: a wrong shape is every problem at once, at
    the pointers of the 400; a hexagon that repeats a guild is well formed and breaks S-COMP-1, for both."""
    state = _new(client)
    state["board"][0]["guilds"] = ["A", "E", "B"]
    state["board"][1]["rotation"] = 6
    state["players"][1]["hexes"] = "three"
    state["step"] = "dance"
    state["surprise"] = 1
    response = client.post(f"{BASE}/validate", json={"state": state})
    assert response.status_code == 400
    with pytest.raises(sg.MalformedError) as raised:
        sg.validate_state(state)
    problems = {(p.rule, "/state" + p.pointer, p.message) for p in raised.value.problems}
    assert problems == {(e["rule"], e["pointer"], e["message"]) for e in response.get_json()["errors"]}
    assert {pointer for _, pointer, _ in problems} == {"/state/board/0/guilds/1", "/state/board/1/rotation",
                                                      "/state/players/1/hexes", "/state/step", "/state/surprise"}
    assert all(rule is None for rule, _, _ in problems)
    state = _new(client)
    state["players"][0]["hexes"][0] = ["B", "D", "B"]
    body = client.post(f"{BASE}/validate", json={"state": state}).get_json()
    assert [(e["rule"], e["pointer"]) for e in body["errors"]][:1] == [("S-COMP-1", "/state/players/0/hexes/0")]
    assert body["errors"] == [p.under("/state").to_json() for p in sg.validate_state(state)[0]]


def test_legal_moves_and_an_impossible_state(client):
    state = _new(client)
    body = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()
    assert body == {"to_act": 0, "moves": sg.legal_moves(sg.read_state(state))}
    assert {m["type"] for m in body["moves"]} == {"token"}
    state["players"][0]["tokens"] = 12
    response = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert response.status_code == 422
    assert {e["rule"] for e in response.get_json()["errors"]} == {"S-COMP-4"}


def test_apply_legal_illegal_and_malformed(client):
    state = _new(client)
    first = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"][0]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [first]}).get_json()
    assert body["legal"] is True and body["state"]["step"] == "hex"
    hexes = client.post(f"{BASE}/legal-moves", json={"state": body["state"]}).get_json()["moves"]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [first, hexes[0]]}).get_json()
    assert body["legal"] is True and body["state"]["turn"] == 1
    assert [e["type"] for e in body["events"]][:2] == ["token", "hex"]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [
        first, {"type": "hex", "hex": ["A", "B", "C"], "at": [5, 5], "rotation": 0}]}).get_json()
    assert (body["legal"], body["failed_at"]) == (False, 1)
    assert body["violations"][0]["rule"] in ("S-HEX-1", "S-HEX-2")
    assert body["violations"][0]["pointer"].startswith("/moves/1/")
    response = client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "token", "at": [0]}]})
    assert response.status_code == 400
    pointers = {e["pointer"] for e in response.get_json()["errors"]}
    assert "/moves/0/at" in pointers or "/moves/0/guild" in pointers


def test_an_illegal_build_names_the_rule_and_says_why(client):
    state = sg.state_json(position(THREE, players=3, hands=HANDS_3P, box=4, tokens=GROUP, step="build",
                                   towers={((0, 0), "B"): 1}))
    assert client.post(f"{BASE}/validate", json={"state": state}).get_json()["valid"] is True
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"]
    assert len(moves) == 5 and moves[-1] == {"type": "end"}
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [
        {"type": "build", "at": [0, 1], "guild": "B"}]}).get_json()
    assert body["legal"] is False and body["violations"][0]["rule"] == "S-BUILD-1"
    assert "no token on B at [0, 1]" in body["violations"][0]["message"]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [
        {"type": "build", "at": [0, 0], "guild": "B"}]}).get_json()
    assert body["violations"][0]["rule"] == "S-BUILD-3" and "already stands" in body["violations"][0]["message"]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [
        {"type": "build", "at": [0, 1], "guild": "D"}]}).get_json()
    assert body["legal"] is True and body["events"][0]["type"] == "built" and body["state"]["turn"] == 1


def test_score_view_and_picture(client):
    golden = load(GOLDEN[0])
    body = client.post(f"{BASE}/score", json={"state": golden["final_state"]}).get_json()
    assert body == {**golden["score"], "warnings": []} and body["over"] is True
    state = _new(client)
    view = client.post(f"{BASE}/view", json={"state": state, "player": 1}).get_json()["state"]
    assert view["players"][1]["hexes"] == state["players"][1]["hexes"]
    assert view["players"][0]["hexes"] == {"count": 3}
    response = client.post(f"{BASE}/view", json={"state": state, "player": 3})
    assert response.status_code == 400 and response.get_json()["errors"][0]["pointer"] == "/player"
    response = client.post(f"{BASE}/picture", json={"state": golden["final_state"]})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    winner = golden["names"][golden["score"]["winners"][0]]
    assert svg.startswith("<svg") and f"{winner} wins" in svg
    assert svg.count('class="space"') == 3 * len(golden["final_state"]["board"])
    as_json = client.post(f"{BASE}/picture", json={"state": state}, headers={"Accept": "application/json"})
    assert as_json.get_json()["svg"].startswith("<svg")
    assert client.post(f"{BASE}/picture", json={"state": {"players": []}}).status_code == 400


def test_the_committed_spec_documents_sangimignano_s_moves_and_answers():
    for name in ("SanGimignanoTokenMove", "SanGimignanoHexMove", "SanGimignanoBuildMove", "SanGimignanoEndMove",
                 "SanGimignanoState", "SanGimignanoScoreResponse"):
        assert name in SPEC["components"]["schemas"], name
