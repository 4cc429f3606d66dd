"""The picture of a Campanile table: every tower, flag and token drawn, the totals said to screen readers."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from service.games import campanile
from service.games.campanile import picture

BASE = "/v1/games/campanile"
SVG = "{http://www.w3.org/2000/svg}"
TABLE = campanile.GAME.examples["picture"]["table"]  # the contract's example: three players, a tower of each kind


def _titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}title")]


def test_every_card_token_and_flag_is_drawn_and_the_totals_are_said():
    table, _ = campanile.read_table(TABLE)
    score = campanile.score_table(table)
    root = ET.fromstring(picture.svg(table))
    titles = _titles(root)
    assert sum(t.startswith("Card ") for t in titles) == sum(len(t["plays"]) for t in TABLE["towers"])
    assert sum(" (bet " in t for t in titles) == sum(len(t["tokens"]) for t in TABLE["towers"])
    flags = [el.text for el in root.iter(f"{SVG}text") if el.text and re.fullmatch(r"\d/\d", el.text)]
    assert sorted(flags) == ["2/1", "4/2", "6/3", "8/4"]  # C-END-2: four flags, the lowest tower none
    label = root.get("aria-label")
    for player in score.players:
        assert f"{player.name}: {player.total} points" in label
    assert label.endswith(f"{TABLE['players'][score.winners[0]]['name']} leads.")


def test_the_picture_endpoint_draws_a_table_and_a_state(client):
    response = client.post(f"{BASE}/picture", json={"table": TABLE})
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg")
    state = client.post(f"{BASE}/new", json={"seed": 3, "names": ["Ada", "Bea"]}).get_json()["state"]
    as_json = client.post(f"{BASE}/picture", json={"state": state}, headers={"Accept": "application/json"})
    assert as_json.status_code == 200
    assert as_json.get_json()["svg"].startswith("<svg")


def test_a_picture_request_needs_exactly_one_of_state_or_table(client):
    response = client.post(f"{BASE}/picture", json={})
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    broken = {**TABLE, "towers": TABLE["towers"][:4]}
    response = client.post(f"{BASE}/picture", json={"table": broken})
    assert response.status_code in (400, 422)
    assert all(error["pointer"].startswith("/table") for error in response.get_json()["errors"])
