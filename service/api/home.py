"""The home page: GET / says what the service is, in the language chosen, with the games it referees and where
to go next (the pages for people, the API reference for programs). A client that asks for JSON gets the same
links as JSON: the service's index.

The page is plain HTML from a template (`templates/home.html`) filled with this module's sentences, each an
entry of the web service's catalogues (service.games.core.language), under the referee pages' strict policy.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, request

from .. import __version__
from ..games.core.game import Capability
from ..games.core.language import said
from ..games.registry import GAMES
from .jsonio import dumps
from .language import OVERRIDE, choices, language, spoken
from .messages import tr, tr_n
from .referee import strict

STATIC = Path(__file__).resolve().parent / "static" / "home"

home_blp = Blueprint("home", __name__, static_folder=str(STATIC), static_url_path="/home/assets",
                     template_folder="templates")

LINKS = {"games": "/v1/games", "play": "/play", "referee": "/referee", "replay": "/referee/replay",
         "docs": "/docs", "openapi": "/openapi.yaml", "health": "/healthz"}


def _words() -> dict[str, Any]:
    """The page's sentences (entries of the web service's catalogues)."""
    return {
        "title": tr("Tower referee"),
        "tagline": tr("The referee for tower-building board games."),
        "intro": tr("Send a whole game and a move: the referee answers whether it is legal and, if not, which "
                    "rule it breaks, what the legal moves are, what the game becomes, what happened and the "
                    "score."),
        "people": tr("At the table"),
        "play": tr("Play a game"),
        "play_about": tr("Against the computer, or around one phone: every step checked by the referee."),
        "referee": tr("Score a finished table"),
        "referee_about": tr("Transcribe a table from a photo and score it, rule by rule."),
        "replay": tr("Settle a disputed game"),
        "replay_about": tr("Replay a game step by step and find where it first goes wrong."),
        "programs": tr("For programs"),
        "docs": tr("The API reference"),
        "docs_about": tr("Every endpoint, its requests and answers, to try in the browser."),
        "openapi": tr("The OpenAPI description"),
        "games": tr("The games"),
        "rules": tr("Rules"),
        "language": tr("Language"),
        "version": tr("Version {version}", version=__version__),
    }


def _game(game: Any) -> dict[str, Any]:
    info = game.info
    players = (tr_n("{count} player", "{count} players", info.min_players) if info.min_players == info.max_players
               else tr("{fewest} to {most} players", fewest=info.min_players, most=info.max_players))
    return {"id": info.id, "title": info.title, "players": players,
            "variants": [variant.description for variant in info.variants],
            "rules": f"v1/games/{info.id}/rules", "table": game.offers(Capability.EDITOR)}


@home_blp.route("/", methods=["GET"])
def home() -> Response:
    """The service's home: a page for people, the index of links for a client that asks for JSON."""
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json":
        index = {"service": "tower-referee", "version": __version__,
                 "games": [{"id": game_id, "title": game.info.title, "links": {
                     "rules": f"/v1/games/{game_id}/rules"}} for game_id, game in GAMES.items()],
                 "links": LINKS}
        return Response(dumps(index), mimetype="application/json")
    chosen = language()

    def say(text: Any) -> str:
        return said(text, chosen)

    page = render_template(
        "home.html", lang=chosen, say=say, words=_words(), games=[_game(game) for game in GAMES.values()],
        languages=choices(),
        query=f"?{OVERRIDE}={chosen}" if request.args.get(OVERRIDE) else "")
    response = spoken(strict(Response(page, mimetype="text/html")), chosen)
    response.vary.add("Accept")
    return response
