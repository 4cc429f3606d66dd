"""What the referee page is served: the shell, the list of games from the registry, and each game's editor from
the game's own package, all under the strict Content-Security-Policy."""
from __future__ import annotations

import pytest

from service.api.referee import POLICY, editor_folder
from service.games.core.game import Capability
from service.games.registry import GAMES


def test_the_games_offered_come_from_the_registry(client):
    response = client.get("/referee/games.json")
    assert response.status_code == 200 and response.headers["Content-Security-Policy"] == POLICY
    games = response.get_json()["games"]
    assert [g["id"] for g in games] == [g for g in GAMES if editor_folder(g) is not None]
    assert {"torri", "campanile"} <= {g["id"] for g in games}
    by_id = {g["id"]: g for g in games}
    assert by_id["torri"] == {"id": "torri", "title": "Le Torri di San Gimignano", "editor": "referee/torri/editor.js",
                              "style": "referee/torri/editor.css", "picture": True, "variants": ["nobles"],
                              "rules_version": GAMES["torri"].info.rules_version, "board": "referee/torri/board.js"}
    assert by_id["campanile"]["picture"] is True
    for game in games:
        assert GAMES[game["id"]].offers(Capability.PICTURE) is game["picture"]
        if game["board"] is not None:  # a board for /play, beside the editor
            assert client.get("/" + game["board"]).status_code == 200


@pytest.mark.parametrize("game", sorted(g for g in GAMES if editor_folder(g) is not None))
def test_each_editor_is_served_from_its_package(client, game):
    kinds = {".js": "text/javascript", ".css": "text/css", ".json": "application/json"}
    files = sorted(path for path in editor_folder(game).iterdir() if path.is_file())
    assert "editor.js" in {path.name for path in files}
    for path in files:
        response = client.get(f"/referee/{game}/{path.name}")
        assert response.status_code == 200 and response.mimetype == kinds[path.suffix], path.name
        assert response.headers["Content-Security-Policy"] == POLICY
        text = response.get_data(as_text=True).replace("http://www.w3.org/2000/svg", "")  # a namespace, not a URL
        assert "http://" not in text and "https://" not in text  # nothing from another origin


def test_nothing_else_is_served(client):
    assert client.get("/referee/torri/nothing.js").status_code == 404
    assert client.get("/referee/torri/../game.py").status_code == 404
    assert client.get("/referee/torri/%2e%2e/game.py").status_code == 404
    assert client.get("/referee/nogame/editor.js").status_code == 404
    assert client.get("/referee/assets/nothing.js").status_code == 404


def test_the_shell_names_no_game(client):
    page = client.get("/referee")
    assert page.status_code == 200 and page.headers["Content-Security-Policy"] == POLICY
    html = page.get_data(as_text=True) + client.get("/referee/assets/referee.js").get_data(as_text=True)
    for game in GAMES:
        assert f"/{game}" not in html and f'"{game}"' not in html


def test_the_play_page_names_no_game(client):
    """/play is the same for every game: what it plays comes from /v1/games and /referee/games.json."""
    page = client.get("/play")
    assert page.status_code == 200 and page.headers["Content-Security-Policy"] == POLICY
    html = page.get_data(as_text=True) + "".join(
        client.get(f"/play/assets/{name}").get_data(as_text=True) for name in ("play.js", "api.js", "seats.js"))
    for game in GAMES:
        assert f"/{game}" not in html and f'"{game}"' not in html
    assert client.get("/play/assets/nothing.js").status_code == 404
