"""Every game that draws (Capability.PICTURE) has /picture, and its picture is well-formed SVG whatever the players
are called: names may hold any character JSON can carry, control characters included, which XML 1.0 does not
allow; a game that does not draw has no /picture."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest

from service.games.core.game import Capability
from service.games.registry import GAMES

PICTURED = [game_id for game_id, game in GAMES.items() if game.offers(Capability.PICTURE)]
# the first is seated at every table: its characters that XML gives a meaning to must come through as text
NAMES = ["Bea \"<&>\"\x7f", "Ada\x01\x1b[1m", "Cy\u200b\ud7ff", "Dee\x00", "Eve\t\n"]


@pytest.mark.parametrize("game", list(GAMES))
def test_picture_is_an_endpoint_exactly_of_the_games_that_draw(client, game):
    """The game's own "picture" example is drawn where the game says it draws; elsewhere /picture is not found."""
    drawn = client.post(f"/v1/games/{game}/picture", json=GAMES[game].examples.get("picture", {}))
    if GAMES[game].offers(Capability.PICTURE):
        assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml", drawn.get_data(as_text=True)
    else:
        assert drawn.status_code == 404 and "picture" not in GAMES[game].examples


@pytest.mark.parametrize("game", PICTURED)
def test_the_picture_is_well_formed_xml_with_any_names(client, game):
    new = GAMES[game].examples["new"]
    players = len(new.get("names") or ()) or GAMES[game].info.min_players  # as many as the example seats
    dealt = client.post(f"/v1/games/{game}/new", json={**new, "seed": 5, "names": NAMES[:players]})
    assert dealt.status_code == 200, dealt.get_json()
    response = client.post(f"/v1/games/{game}/picture", json={"state": dealt.get_json()["state"]})
    assert response.status_code == 200
    svg = response.get_data(as_text=True)
    root = ElementTree.fromstring(svg)  # raises on a control character or a stray "<" or "&"
    assert root.tag.endswith("svg") and root.get("aria-label")
    assert "Bea \"<&>\"" in "".join(root.itertext()) + root.get("aria-label")  # a player's name is drawn
