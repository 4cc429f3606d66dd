"""The HTTP endpoints serve Carcassonne: end-to-end calls through the Flask test client."""
from __future__ import annotations

from functools import partial

import pytest

from service.games import carcassonne
from service.games.registry import GAMES
from tests.golden import load, recorded_games
from tests.test_game_endpoints import SPEC, dealt

from .helpers import doc

BASE = "/v1/games/carcassonne"
GOLDEN = recorded_games("carcassonne")


_new = partial(dealt, "carcassonne")


def test_carcassonne_is_listed_for_2_to_5_players_with_the_tower():
    info = GAMES["carcassonne"].info
    assert (info.title, info.min_players, info.max_players, [v.name for v in info.variants]) == (
        "Carcassonne", 2, 5, ["tower"])


def test_rules_serve_the_k_ids(client):
    body = client.get(f"{BASE}/rules").get_json()
    assert {r["id"] for r in body["rules"] if r["ruling"]} >= {"K-END-4", "K-TOW-RANSOM", "K-SVC-SCORE"}


def test_new_deals_by_seed_names_and_variant(client):
    state = _new(client)
    assert [p["name"] for p in state["players"]] == ["Ada", "Bea", "Cy"] and len(state["bag"]) == 71
    assert state == _new(client)
    tower = _new(client, variant={"tower": True})
    assert len(tower["bag"]) == 89 and [p["floors"] for p in tower["players"]] == [9, 9, 9]
    assert state == carcassonne.state_json(carcassonne.new_game(7, names=["Ada", "Bea", "Cy"]))


def test_validate_reports_every_problem_with_rule_and_pointer(client):
    state = _new(client)
    assert client.post(f"{BASE}/validate", json={"state": state}).get_json() == {"valid": True, "errors": [],
                                                                                "warnings": []}
    state["board"].append({"tile": "BA/Cccc+", "at": [0, 1], "rotation": 0})
    state["meeples"] = [{"player": 0, "at": [0, 0], "feature": "inner"}]
    body = client.post(f"{BASE}/validate", json={"state": state}).get_json()
    assert body["valid"] is False
    assert {(e["rule"], e["pointer"]) for e in body["errors"]} == {
        ("K-PLACE-2", "/state/board/1"), ("K-COMP-3", "/state/bag"), ("K-TILE-4", "/state/meeples/0/feature")}
    # the tile put on the board is still in the bag: a copy too many there, and one tile too many in all
    assert [e["pointer"] for e in body["errors"] if e["rule"] == "K-COMP-3"] == ["/state/bag", "/state/bag"]
    response = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert response.status_code == 422


def test_legal_moves_apply_and_events(client):
    state = _new(client)
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()
    assert moves["to_act"] == 0 and moves["moves"]
    first = moves["moves"][0]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [first, {"type": "skip"}]}).get_json()
    assert body["legal"] is True and body["state"]["turn"] == 1
    assert [e["type"] for e in body["events"]] == ["placed", "skipped", "turn"]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "place", "at": [5, 5],
                                                                         "rotation": 0}]}).get_json()
    assert (body["legal"], body["failed_at"]) == (False, 0)
    assert body["violations"][0]["rule"] == "K-PLACE-1" and body["violations"][0]["pointer"] == "/moves/0/at"


@pytest.mark.parametrize("move, pointer", [
    ({"type": "place", "at": [0, "x"], "rotation": 0}, "/moves/0/at/1"),
    ({"type": "place", "at": [0, 1], "rotation": 45}, "/moves/0/rotation"),
    ({"type": "meeple"}, "/moves/0/feature"),
    ({"type": "capture", "at": [0, 1], "feature": "N", "player": 9}, "/moves/0/player"),
    ({"type": "fly"}, "/moves/0/type"),
    ({"type": "place", "tile": "XX/none", "at": [0, 1], "rotation": 0}, "/moves/0/tile"),
])
def test_malformed_moves_are_400_naming_the_field(client, move, pointer):
    response = client.post(f"{BASE}/apply", json={"state": _new(client), "moves": [move]})
    assert response.status_code == 400
    assert pointer in {e["pointer"] for e in response.get_json()["errors"]}


def test_score_explains_every_point(client):
    state = doc([("BA/C", (0, -1), 180)], meeples=[(0, (0, 0), "EL"), (1, (0, 0), "E")], scores=[4, 0])
    body = client.post(f"{BASE}/score", json={"state": state}).get_json()
    assert [(p["so_far"], p["roads"], p["fields"], p["total"]) for p in body["players"]] == [(4, 0, 3, 7),
                                                                                             (0, 1, 0, 1)]
    assert [(f["type"], f["points"], f["winners"]) for f in body["features"]] == [("road", 1, [1]),
                                                                                  ("field", 3, [0])]
    assert body["winner"] == 0 and body["warnings"] == []
    state["players"][0]["score"] = -1
    assert client.post(f"{BASE}/score", json={"state": state}).status_code == 400


def test_picture_draws_the_board_and_says_the_score(client):
    golden = load(next(p for p in GOLDEN if "tower" in p.stem))
    response = client.post(f"{BASE}/picture", json={"state": golden["final_state"]})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    totals = [p["total"] for p in golden["score"]["players"]]
    assert svg.startswith("<svg") and f"{totals[0]} points" in svg.split("aria-label=")[1].split('"')[1]
    assert svg.count("<polygon") > 10  # cities
    as_json = client.post(f"{BASE}/picture", json={"state": golden["final_state"]},
                          headers={"Accept": "application/json"})
    assert as_json.get_json()["svg"] == svg


def test_view_shows_the_bag_as_a_count(client):
    state = _new(client)
    body = client.post(f"{BASE}/view", json={"state": state, "player": 1}).get_json()
    assert body["state"]["bag"] == {"count": 71}
    moves = client.post(f"{BASE}/legal-moves", json={"state": body["state"]}).get_json()["moves"]
    assert {m["tile"] for m in moves if m["type"] == "place"} > {state["bag"][0]}


def test_the_committed_spec_documents_carcassonne_s_moves():
    for name in ("CarcassonnePlaceMove", "CarcassonneCaptureMove", "CarcassonneRansomMove"):
        assert name in SPEC["components"]["schemas"]
