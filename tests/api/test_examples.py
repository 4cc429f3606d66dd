"""The API layer names no game: each game offers the requests the contract's examples are made from
(Game.examples), and one generic driver (service/api/openapi.py) calls every endpoint with them."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import yaml

from service.api.openapi import shortened_svg
from service.games.core.game import Capability
from service.games.registry import GAMES

API = Path(__file__).resolve().parents[2] / "service" / "api"


def test_the_api_layer_names_no_game():
    """Nothing under service/api/ speaks of a game: each game's wire schemas are in its own package."""
    words = {game_id for game_id in GAMES} | {game.info.title for game in GAMES.values()}
    pattern = re.compile("|".join(re.escape(word) for word in sorted(words)), re.IGNORECASE)
    for path in sorted(API.rglob("*")):
        if path.is_dir() or path.suffix not in (".py", ".html", ".js", ".css"):
            continue
        found = pattern.findall(path.read_text(encoding="utf-8"))
        assert found == [], f"{path.relative_to(API.parent.parent)} names {sorted(set(found))}"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_offers_the_examples_of_the_contract(client, game_id):
    game, base = GAMES[game_id], f"/v1/games/{game_id}"
    examples = game.examples
    assert {"new", "apply", "validate"} <= set(examples)
    for tool, capability in (("picture", Capability.PICTURE), ("notation", Capability.NOTATION)):
        assert (tool in examples) == game.offers(capability), f"{game_id}: a {tool} example iff it has /{tool}"
    dealt = client.post(f"{base}/new", json=examples["new"])
    assert dealt.status_code == 200, dealt.get_json()
    state = dealt.get_json()["state"]
    applied = client.post(f"{base}/apply", json={"state": state, **examples["apply"]}).get_json()
    assert applied["legal"] is True and len(examples["apply"]["moves"]) >= 1, applied["violations"]
    checked = client.post(f"{base}/validate", json=examples["validate"]).get_json()
    assert checked["valid"] is False and checked["errors"], "the validate example shows errors"
    for endpoint in ("score", "notation"):
        if endpoint in examples:
            response = client.post(f"{base}/{endpoint}", json=examples[endpoint])
            assert response.status_code == 200, response.get_json()
    if "picture" in examples:
        response = client.post(f"{base}/picture", json=examples["picture"])
        assert response.status_code == 200 and response.mimetype == "image/svg+xml"


def test_the_picture_endpoint_is_described_by_the_game():
    spec = yaml.safe_load((API.parent.parent / "openapi.yaml").read_text(encoding="utf-8"))
    pictured = [game_id for game_id, game in GAMES.items() if game.offers(Capability.PICTURE)]
    assert pictured
    for game_id in pictured:
        operation = spec["paths"][f"/v1/games/{game_id}/picture"]["post"]
        assert operation["description"] == inspect.cleandoc(GAMES[game_id].draw.__doc__)


def test_a_shortened_svg_keeps_its_opening_tag():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" aria-label="A leads"><g/></svg>'
    assert shortened_svg(svg) == '<svg xmlns="http://www.w3.org/2000/svg" aria-label="A leads">…</svg>'
