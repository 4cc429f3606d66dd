"""The play page: GET /play, where a person plays any registered game in the browser, against the computer or
around one phone, through the public API alone (/new, /legal-moves with texts, /view, /apply, /suggest, /replay,
/picture and /score).

A sibling of the scoring and replay pages (referee.py, replay.py): plain HTML (`templates/pages/play.html`), CSS
and small ES modules served from `static/play/` under the same strict policy, in the language chosen (its words are
the web service's `pages` catalogue). A game whose editor folder has a board module (`board.js`) is played by
pointing at its board, drawn as its editor draws it; any other game by its picture and the list of its legal steps
in words, which every game offers too. The link holds the game ({"state", "moves"}, as /replay takes it) and who
sits at each seat, so that a game can be resumed, sent, or opened on the replay page.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

from .referee import page

STATIC = Path(__file__).resolve().parent / "static" / "play"

play_blp = Blueprint("play_page", __name__, static_folder=str(STATIC), static_url_path="/play/assets")


@play_blp.route("/play", methods=["GET"])
def play_page() -> Response:
    """The page itself, in the language chosen."""
    return page("pages/play.html")
