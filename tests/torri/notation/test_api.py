"""The HTTP side: /score by notation, /picture, /notation, and the referee page's files."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from service.games import torri
from service.games.registry import GAMES
from service.games.torri import notation

from .helpers import RULESHEET

BASE = "/v1/games/torri"
ADSO_WILLIAM_TABLE = GAMES["torri"].examples["score"]["table"]
SVG = "{http://www.w3.org/2000/svg}"


def problem(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    for error in body["errors"]:
        assert set(error) == {"rule", "pointer", "message"}
    return body


# ---------------------------------------------------------------- /score


def test_score_by_notation_is_the_rulesheet_result(client):
    response = client.post(f"{BASE}/score", json={"notation": RULESHEET})
    assert response.status_code == 200
    body = response.get_json()
    adso, william = body["players"]
    assert (adso["name"], adso["total"], william["name"], william["total"]) == ("Adso", 63, "William", 66)
    assert adso["categories"] == {"completion": 15, "blessing": 0, "plain": 33, "colorful": 5, "highest": 10,
                                  "monumento": 0, "cappella": 0}
    assert william["categories"] == {"completion": 20, "blessing": 6, "plain": 7, "colorful": 33, "highest": 0,
                                     "monumento": 0, "cappella": 0}
    assert (body["winner"], body["decided_by"], body["warnings"]) == (1, "points", [])
    same = client.post(f"{BASE}/score", json={"table": ADSO_WILLIAM_TABLE}).get_json()
    assert same == body


def test_score_by_notation_is_cached(client):
    body = {"notation": "Adso @: 10x3* 9-7\nWilliam: 8x3"}
    first = client.post(f"{BASE}/score", json=body)
    second = client.post(f"{BASE}/score", json=body)
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("miss", "hit")
    assert first.get_data() == second.get_data()


def test_score_by_notation_with_nobles_and_warnings(client):
    body = client.post(f"{BASE}/score", json={"notation": "Adso @: 10x3! [9 BP 7]\nWilliam: 8-5 | +MON +SF"}
                       ).get_json()
    adso, william = body["players"]
    assert (adso["categories"]["colorful"], adso["categories"]["plain"], adso["total"]) == (3, 10, 23)
    assert (william["categories"]["monumento"], william["categories"]["cappella"], william["total"]) == (7, 0, 11)
    assert body["warnings"] == [
        {"rule": None, "pointer": "/notation",
         "message": "line 1, column 13: ignored a stray '!' after 10x3 (write 10x3* if that tower is complete)."},
        {"rule": "T-HIGH-3", "pointer": "/notation",
         "message": "line 1, column 6: Adso holds the marker, but the marker's holder has no tower as tall as the "
                    "other player's tallest (3 < 4): possible only if a taller tower was destroyed."},
    ]


def test_score_a_parse_error_is_400_at_notation_with_line_and_column(client):
    body = problem(client.post(f"{BASE}/score", json={"notation": "Adso @: 10x3*\nWilliam: 7x3* 9-5* 83"}), 400)
    assert body["errors"] == [{"rule": None, "pointer": "/notation",
                               "message": "line 2, column 20: expected a tower like 8x3, 10-6 or [9 9 BP]; did you "
                                          "mean 8x3?"}]


def test_score_an_impossible_table_in_notation_is_422_naming_player_and_tower(client):
    body = problem(client.post(f"{BASE}/score", json={"notation": "Adso @: 9x3 [9 8 6]\nWilliam: 9x3 9x3 9x3"}),
                   422)
    messages = {e["rule"]: e["message"] for e in body["errors"]}
    assert messages["T-ACT-BUILD-3"].startswith("line 1, column 13: Adso's tower 2 ([9 8 6]): ")
    assert messages["T-COMP-4"] == ("line 2, column 18: William's tower 3 (9x3): one 9 too many: the table shows "
                                    "13 and the game has 9.")
    assert all(e["pointer"] == "/notation" for e in body["errors"])


@pytest.mark.parametrize("body", [
    {}, {"notation": "A:\nB:", "table": ADSO_WILLIAM_TABLE},
    {"notation": "A:\nB:", "state": {"deck": [], "market": [], "players": []}},
])
def test_score_takes_exactly_one_of_state_table_notation(client, body):
    answer = problem(client.post(f"{BASE}/score", json=body), 400)
    assert answer["errors"][0]["message"] == 'Send exactly one of "state", "table" or "notation".'


@pytest.mark.parametrize("notation", [42, None, ["A: 5x3"], "x" * 20_001])
def test_notation_must_be_a_text_of_sensible_length(client, notation):
    answer = problem(client.post(f"{BASE}/score", json={"notation": notation}), 400)
    assert answer["errors"][0]["pointer"] == "/notation"


# ---------------------------------------------------------------- /picture


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def _texts(root: ET.Element) -> list[str]:
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("body", [
    {"notation": RULESHEET}, {"table": ADSO_WILLIAM_TABLE},
])
def test_picture_of_the_rulesheet(client, body):
    response = client.post(f"{BASE}/picture", json=body)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    root = _svg(response.get_data(as_text=True))
    texts = _texts(root)
    assert "Adso" in texts and "William" in texts
    assert "63points" in texts and "66points" in texts
    assert "Highest marker" in texts and "Winner" in texts
    assert "William wins, 66 to 63 (on points)." in texts
    towers = [g for g in root.iter(f"{SVG}g") if "tower" in (g.get("class") or "").split()]
    assert len(towers) == 9
    assert sum("complete" in g.get("class").split() for g in towers) == 7
    stories = [t for g in towers for t in g.iter(f"{SVG}text")][:3]
    assert [s.text for s in stories] == ["10", "10", "10"]


def test_picture_marks_buona_pietra_with_what_it_stands_for(client):
    response = client.post(f"{BASE}/picture", json={"notation": "Adso @: [10 BP 8]* 5x3\nWilliam: [BP 9 9]"})
    texts = _texts(_svg(response.get_data(as_text=True)))
    assert texts.count("BP·9") == 2  # in Adso's colorful 10-8 and under William's 9s


def test_picture_of_a_state(client):
    state = torri.new_game(3, names=("Adso", "William"))
    response = client.post(f"{BASE}/picture", json={"state": torri.state_json(state)})
    assert response.status_code == 200, response.get_data(as_text=True)
    texts = _texts(_svg(response.get_data(as_text=True)))
    # the game goes on: who leads, or that it is level, never a draw or a winner
    assert "Adso" in texts and "no towers" in texts and "Level at 0 points." in texts
    assert "A draw at 0 points." not in texts and "Winner" not in texts


def test_picture_as_json_on_request(client):
    response = client.post(f"{BASE}/picture", json={"notation": RULESHEET}, headers={"Accept": "application/json"})
    assert response.status_code == 200 and response.mimetype == "application/json"
    _svg(response.get_json()["svg"])


def test_picture_of_a_hostile_name_is_still_well_formed_svg(client):
    name = '<script>alert("x")</script> & \x01 "quotes"'
    table = {"players": [{"name": name, "towers": []}, {"name": "B", "towers": []}]}
    response = client.post(f"{BASE}/picture", json={"table": table})
    assert response.status_code == 200
    root = _svg(response.get_data(as_text=True))
    assert not list(root.iter(f"{SVG}script")) and not list(root.iter("script"))


def test_picture_errors_are_problems(client):
    assert problem(client.post(f"{BASE}/picture", json={"notation": "Adso: 8*3\nB:"}), 400)["errors"][0][
        "message"].startswith("line 1, column 7: ")
    problem(client.post(f"{BASE}/picture", json={"notation": "Adso @: 5x3 5x3\nB:"}), 422)
    problem(client.post(f"{BASE}/picture", json={}), 400)
    response = client.get(f"{BASE}/picture")
    assert response.status_code == 405 and response.headers["Allow"].startswith("POST")


# ---------------------------------------------------------------- /notation


def test_notation_of_a_table(client):
    response = client.post(f"{BASE}/notation", json={"table": ADSO_WILLIAM_TABLE})
    assert response.status_code == 200
    assert response.get_json() == {"notation": RULESHEET}


def _state_with_towers(seed: int = 7):
    """A state from real play in which both players have built (builds preferred, else the first legal step)."""
    state = torri.new_game(seed, names=("Adso", "William"))
    for _ in range(200):
        if all(len(p.towers) >= 2 for p in state.players) or state.phase == "over":
            break
        steps = torri.legal_steps(state)
        step = next((s for s in steps if s.to_json()["type"] == "build"), steps[0])
        state, _ = torri.apply_step(state, step)
    assert any(p.towers for p in state.players)
    return state


def test_notation_of_a_state_reads_back(client):
    state = _state_with_towers()
    response = client.post(f"{BASE}/notation", json={"state": torri.state_json(state)})
    assert response.status_code == 200, response.get_data(as_text=True)
    text = response.get_json()["notation"]
    assert text == notation.write(state)
    by_notation = client.post(f"{BASE}/score", json={"notation": text}).get_json()
    by_state = client.post(f"{BASE}/score", json={"state": torri.state_json(state)}).get_json()
    assert {**by_notation, "warnings": []} == {**by_state, "warnings": []}


def test_notation_errors_are_problems(client):
    problem(client.post(f"{BASE}/notation", json={"notation": "A:\nB:"}), 400)
    problem(client.post(f"{BASE}/notation", json={}), 400)
    bad = {"players": [{"name": "A", "towers": [{"cards": ["9", "8", "6"]}]}, {"name": "B"}]}
    body = problem(client.post(f"{BASE}/notation", json={"table": bad}), 422)
    assert body["errors"][0]["pointer"] == "/table/players/0/towers/0/cards"


# ---------------------------------------------------------------- the page


def test_the_referee_page_and_its_files(client):
    page = client.get("/referee")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert 'id="editor"' in html and 'id="score"' in html
    assert "http://" not in html and "https://" not in html  # nothing from another origin
    for asset, kind in (("referee.css", "text/css"), ("referee.js", "text/javascript")):
        response = client.get(f"/referee/assets/{asset}")
        assert response.status_code == 200 and response.mimetype == kind
        assert "http://" not in response.get_data(as_text=True) and "https://" not in response.get_data(as_text=True)
    assert client.get("/referee/assets/nothing.js").status_code == 404
