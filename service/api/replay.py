"""The replay page: GET /referee/replay, where a referee settling a disputed game pastes or uploads its record
({"state", "moves"}, the body /replay takes) and steps through it with the table drawn after every step, each event
in words, whose turn it is and the score; the first illegal step is marked with the rule it breaks, the rule's text,
the service's sentence and the steps that were open instead. The link holds the record and the step.

A sibling of the scoring page (referee.py): plain HTML (the template `templates/pages/replay.html`), CSS and
JavaScript served from `static/replay/` under the same strict policy, in the language chosen as the scoring page's
(its words are the web service's `pages` catalogue); it calls the public API (/replay once per record, /rules,
/picture and /score once per step shown, /legal-moves at the illegal step) in the page's language, with relative
URLs, so it works wherever the service is mounted. The games it replays are every registered game (GET
/referee/games.json, editor or not).

At the illegal step the picture is the position the step was tried from with that step drawn on it, faded where it
was tried and refused with the rule (/picture with the record's moves up to that step, so that the picture numbers
the step as the page does), for the games whose picture draws a proposed step; the page is told which (`proposing`):
asking the others would only earn an error, so it shows them the position alone.
"""
from __future__ import annotations

import inspect
from pathlib import Path

from flask import Blueprint, Response

from ..games.core.game import Capability, Game
from ..games.registry import GAMES
from .referee import page

STATIC = Path(__file__).resolve().parent / "static" / "replay"

replay_blp = Blueprint("replay_page", __name__, static_folder=str(STATIC), static_url_path="/referee/replay/assets")


@replay_blp.route("/referee/replay", methods=["GET"])
def replay_page() -> Response:
    """The page itself, in the language chosen."""
    return page("pages/replay.html", proposing=[game_id for game_id, game in GAMES.items() if proposes(game)])


def proposes(game: Game) -> bool:
    """Whether a game's picture draws a proposed step (/picture with `moves`): its `draw` takes the `proposal`."""
    if not game.offers(Capability.PICTURE):
        return False
    try:
        return "proposal" in inspect.signature(type(game).draw).parameters
    except (TypeError, ValueError):
        return False
