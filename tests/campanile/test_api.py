"""The HTTP endpoints serve Campanile: a few end-to-end calls through the Flask test client."""
from __future__ import annotations

from functools import partial

from service.games import campanile
from service.games.registry import GAMES
from tests.test_game_endpoints import SPEC, dealt

BASE = "/v1/games/campanile"


_new = partial(dealt, "campanile")


def test_campanile_is_listed_for_2_to_5_players_with_its_variant():
    info = GAMES["campanile"].info
    assert (info.title, info.min_players, info.max_players, [v.name for v in info.variants]) == (
        "Campanile", 2, 5, ["bet_on_played"])


def test_rules_serve_the_c_ids(client):
    body = client.get(f"{BASE}/rules").get_json()
    assert {"C-COMP-5", "C-END-2", "C-END-3", "C-VAR-1", "C-SVC-UNKNOWN"} <= {r["id"] for r in body["rules"]}
    assert {r["id"] for r in body["rules"] if r["ruling"]} >= {"C-TURN-END", "C-END-4", "C-SVC-PASS"}


def test_new_deals_by_seed_and_names(client):
    state = _new(client)
    assert [p["name"] for p in state["players"]] == ["Ada", "Bea", "Cy"]
    assert [len(p) for p in state["piles"]] == [15, 15, 15] and len(state["removed"]) == 1
    assert state == _new(client)
    assert state == campanile.state_json(campanile.new_game(7, names=["Ada", "Bea", "Cy"]))
    assert _new(client, variant={"bet_on_played": True})["variant"] == {"bet_on_played": True}
    random_seed = client.post(f"{BASE}/new", json={"names": ["A", "B"]}).get_json()
    assert isinstance(random_seed["seed"], int) and len(random_seed["state"]["players"]) == 2


def test_validate_reports_rule_ids_with_pointers(client):
    state = _new(client)
    assert client.post(f"{BASE}/validate", json={"state": state}).get_json() == {"valid": True, "errors": [],
                                                                                "warnings": []}
    state["piles"][0].pop()
    body = client.post(f"{BASE}/validate", json={"state": state}).get_json()
    assert body["valid"] is False
    assert {(e["rule"], e["pointer"]) for e in body["errors"]} == {("C-COMP-5", "/state")}


def test_legal_moves_and_an_impossible_state(client):
    state = _new(client)
    body = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()
    assert body == {"to_act": 0, "moves": campanile.legal_moves(campanile.read_state(state))}
    state["towers"][0]["plays"] = [1] * 12  # 11 A in play with 3 players
    response = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert response.status_code == 422
    assert {e["rule"] for e in response.get_json()["errors"]} == {"C-COMP-5"}


def test_apply_legal_illegal_and_malformed(client):
    state = _new(client)
    card = state["players"][0]["hand"][0]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [
        {"type": "play", "card": card, "stories": 2}, {"type": "no_bet"}, {"type": "draw"}]}).get_json()
    assert body["legal"] is True and body["failed_at"] is None and body["state"]["turn"] == 1
    assert [e["type"] for e in body["events"]] == ["played", "no_bet", "drew", "turn"]
    absent = next(s for s in campanile.STYLES if s not in state["players"][0]["hand"])
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [
        {"type": "play", "card": absent, "stories": 1}]}).get_json()
    assert (body["legal"], body["failed_at"]) == (False, 0)
    assert body["violations"] == [{"rule": "C-TURN-PLAY", "pointer": "/moves/0/card",
                                   "message": body["violations"][0]["message"]}]
    response = client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "play", "card": card,
                                                                             "stories": 4}]})
    assert response.status_code == 400
    assert "/moves/0/stories" in {e["pointer"] for e in response.get_json()["errors"]}


def test_score_a_state_or_a_table(client):
    table = {"players": [{"name": "Ada"}, {"name": "Bea"}],
             "towers": [{"plays": [1, 1, 1], "tokens": [{"player": 1, "value": 1}, {"player": 0, "value": 1}]},
                        {"plays": [1], "tokens": []}, {}, {}, {}]}
    body = client.post(f"{BASE}/score", json={"table": table}).get_json()
    assert [p["total"] for p in body["players"]] == [4, 8] and body["winners"] == [1]
    assert body["towers"][0]["large"] == {"player": 1, "points": 8, "total": 1, "reason": "placed_first"}
    state = _new(client)
    body = client.post(f"{BASE}/score", json={"state": state}).get_json()
    assert body["winners"] == [0, 1, 2] and body["decided_by"] == "shared" and body["warnings"] == []
    assert client.post(f"{BASE}/score", json={"state": state, "table": table}).status_code == 400
    table["towers"][0]["tokens"] = [{"player": 0, "value": 3}] * 2
    response = client.post(f"{BASE}/score", json={"table": table})
    assert response.status_code == 422 and response.get_json()["errors"][0]["rule"] == "C-COMP-4"


def test_view_hides_what_the_player_cannot_see(client):
    state = _new(client)
    body = client.post(f"{BASE}/view", json={"state": state, "player": 1}).get_json()
    assert body["state"]["players"][1]["hand"] == state["players"][1]["hand"]
    assert body["state"]["players"][0]["hand"] == {"count": 3, "known": []}
    assert body["state"]["piles"][0] == {"count": 15, "top": state["piles"][0][0]}
    response = client.post(f"{BASE}/view", json={"state": state, "player": 3})
    assert response.status_code == 400 and response.get_json()["errors"][0]["pointer"] == "/player"


def test_the_committed_spec_documents_campanile_s_moves():
    assert "CampanilePlayMove" in SPEC["components"]["schemas"]
    assert "TorriPurchaseMove" in SPEC["components"]["schemas"]
