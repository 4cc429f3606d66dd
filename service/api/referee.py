"""The referee page: GET /referee, where a person transcribes a finished table of any game from a photo and
scores it.

The page's shell (game chooser, result panel, shareable link, JSON copy, picture download, announcements) is plain
HTML, CSS and JavaScript served from `static/referee/`. Each game's editor ships inside the game's own package, in
the folder its `Game` names as `editor` (an `editor.js` ES module, optionally `editor.css`); it is served
here under `/referee/<game>/`. `GET /referee/games.json` lists the games the page offers, from the registry. No
CDN, no build step, works offline; every call is to the public API with relative URLs, so the page works wherever
the service is mounted.
"""
from __future__ import annotations

import sys
from pathlib import Path

from flask import Blueprint, Response, abort, jsonify, send_from_directory

from ..games.core.game import Capability
from ..games.registry import GAMES

STATIC = Path(__file__).resolve().parent / "static" / "referee"
# Everything comes from this origin; pictures are inline SVG built from the API's answers.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'")
EDITOR = "editor.js"
EDITOR_STYLE = "editor.css"

referee_blp = Blueprint("referee", __name__, static_folder=str(STATIC), static_url_path="/referee/assets")


def editor_folder(game_id: str) -> Path | None:
    """The folder of a registered game's editor files, or None when the game offers none."""
    game = GAMES.get(game_id)
    if game is None or not game.offers(Capability.EDITOR) or not game.editor:
        return None
    package = Path(sys.modules[type(game).__module__].__file__ or "").resolve().parent
    folder = package / game.editor
    return folder if (folder / EDITOR).is_file() else None


def strict(response: Response) -> Response:
    """The referee pages' policy (everything from this origin), and never a stale page."""
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


@referee_blp.route("/referee", methods=["GET"])
def referee_page() -> Response:
    """The page itself."""
    return strict(send_from_directory(STATIC, "index.html", max_age=0))


@referee_blp.route("/referee/games.json", methods=["GET"])
def referee_games() -> Response:
    """The games the page offers, in the registry's order: id, title, rules version, where the editor is, whether
    /picture exists."""
    offered = []
    for game_id, game in GAMES.items():
        folder = editor_folder(game_id)
        if folder is None:
            continue
        offered.append({
            "id": game_id,
            "title": game.info.title,
            "rules_version": game.info.rules_version,
            "editor": f"referee/{game_id}/{EDITOR}",
            "style": f"referee/{game_id}/{EDITOR_STYLE}" if (folder / EDITOR_STYLE).is_file() else None,
            "picture": game.offers(Capability.PICTURE),
            "variants": [variant.name for variant in game.info.variants],
        })
    return strict(jsonify({"games": offered}))


@referee_blp.route("/referee/<game_id>/<path:filename>", methods=["GET"])
def referee_game_asset(game_id: str, filename: str) -> Response:
    """A file of a game's editor (send_from_directory refuses paths that leave the folder)."""
    folder = editor_folder(game_id)
    if folder is None:
        abort(404)
    return strict(send_from_directory(folder, filename, max_age=0))
