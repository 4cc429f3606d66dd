"""The referee page: GET /referee, a form to score a table written in notation (for people transcribing a photo).

Plain HTML, CSS and JavaScript served from `static/referee/`: no CDN, no build step, works offline. The page calls
the public API (`/v1/games/torri/score` and `/picture`) with relative URLs, so it works wherever the service is
mounted.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC = Path(__file__).resolve().parent / "static" / "referee"
# Everything comes from this origin; the picture is inline SVG built from the API's answer.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'")

referee_blp = Blueprint("referee", __name__, static_folder=str(STATIC), static_url_path="/referee/assets")


@referee_blp.route("/referee", methods=["GET"])
def referee_page() -> Response:
    """The page itself."""
    response = send_from_directory(STATIC, "index.html", max_age=0)
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response
