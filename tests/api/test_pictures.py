"""Every game's picture is well-formed SVG whatever the players are called: names may hold any character JSON can
carry, control characters included, which XML 1.0 does not allow."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest

from service.games.registry import GAMES

PICTURED = sorted(game for game, adapter in GAMES.items() if hasattr(adapter, "picture"))
NAMES = ["Ada\x01\x1b[1m", "Bea \"<&>\"\x7f", "Cy\u200b\ud7ff", "Dee\x00", "Eve\t\n"]


def test_every_game_draws_a_picture():
    assert PICTURED == sorted(GAMES)


@pytest.mark.parametrize("game", PICTURED)
def test_the_picture_is_well_formed_xml_with_any_names(client, game):
    new = GAMES[game].examples["new"]
    players = len(new["names"])
    dealt = client.post(f"/v1/games/{game}/new", json={**new, "seed": 5, "names": NAMES[:players]})
    assert dealt.status_code == 200, dealt.get_json()
    response = client.post(f"/v1/games/{game}/picture", json={"state": dealt.get_json()["state"]})
    assert response.status_code == 200
    svg = response.get_data(as_text=True)
    root = ElementTree.fromstring(svg)  # raises on a control character or a stray "<" or "&"
    assert root.tag.endswith("svg") and root.get("aria-label")
    assert "Bea \"<&>\"" in "".join(root.itertext()) + root.get("aria-label")
