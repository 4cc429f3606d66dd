"""/picture with `moves`, for every game that draws: the step proposed, drawn where it was tried and marked legal
or refused (with the rule), the verdict in the language chosen; the moves only with a state."""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from xml.sax.saxutils import escape
from typing import Any

import pytest

from service.games.core.game import Capability
from service.games.registry import GAMES
from tests.replay.records import whole_game

DRAWING = [game_id for game_id, game in GAMES.items() if game.offers(Capability.PICTURE)]


def _record(game_id: str) -> tuple[dict, list]:
    info = GAMES[game_id].info
    return whole_game(game_id, {}, min(info.min_players + 1, info.max_players), seed=5)


def _svg(client: Any, game_id: str, body: dict, language: str = "en") -> str:
    answer = client.post(f"/v1/games/{game_id}/picture?lang={language}", json=body,
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    assert answer.headers["Content-Language"] == language
    svg = answer.get_json()["svg"]
    ElementTree.fromstring(svg)  # well-formed
    return svg


@pytest.mark.parametrize("game_id", DRAWING)
def test_a_legal_step_is_drawn_where_it_is_tried_and_said(client: Any, game_id: str) -> None:
    start, moves = _record(game_id)
    body = {"state": start, "moves": moves[:5]}
    svg = _svg(client, game_id, body)
    assert 'class="proposed legal"' in svg and 'class="verdict legal"' in svg
    assert "Step 5 is legal" in svg
    applied = client.post(f"/v1/games/{game_id}/apply", json=body).get_json()
    events = [event["text"] for event in applied["events"] if event["step"] == 4]
    assert events and escape(events[0], {'"': "&quot;"})[:20] in svg  # the first line of what it does
    french = _svg(client, game_id, body, "fr")
    assert "Le coup 5 est légal" in french


@pytest.mark.parametrize("game_id", DRAWING)
def test_a_refused_step_is_drawn_with_the_rule_it_breaks(client: Any, game_id: str) -> None:
    game = GAMES[game_id]
    start, moves = _record(game_id)
    body = next(body for body in ({"state": start, "moves": [move]} for move in moves[1:20])
                if not game.apply(body)["legal"])
    violation = game.apply(body)["violations"][0]
    svg = _svg(client, game_id, body)
    assert 'class="proposed refused"' in svg and 'class="verdict refused"' in svg
    assert f"Step 1 is refused ({violation['rule']})" in svg
    german = _svg(client, game_id, body, "de")
    assert f"Zug 1 wird abgelehnt ({violation['rule']})" in german


@pytest.mark.parametrize("game_id", DRAWING)
def test_without_moves_the_picture_is_the_position_s(client: Any, game_id: str) -> None:
    start, moves = _record(game_id)
    state = client.post(f"/v1/games/{game_id}/apply", json={"state": start, "moves": moves[:4]}).get_json()["state"]
    svg = _svg(client, game_id, {"state": state})
    assert "proposed" not in svg and "verdict" not in svg


@pytest.mark.parametrize("game_id", DRAWING)
def test_moves_are_tried_on_a_state_only(client: Any, game_id: str) -> None:
    start, moves = _record(game_id)
    answer = client.post(f"/v1/games/{game_id}/picture", json={"state": start, "moves": []})
    assert answer.status_code == 400 and answer.get_json()["errors"][0]["pointer"] == "/moves"
    answer = client.post(f"/v1/games/{game_id}/picture", json={"state": start, "moves": [{"type": "nothing"}]})
    assert answer.status_code == 400 and answer.get_json()["errors"][0]["pointer"].startswith("/moves/0")
