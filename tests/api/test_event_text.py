"""Every event that leaves a game through /apply and /replay carries `text`, its game's sentence for it, for every
game and variant; the front (a well-formed question answered before Flask) and a cached answer say the same."""
from __future__ import annotations

import pytest

from service.games.registry import GAMES
from tests.replay.records import whole_game

CASES = [(game_id, variant) for game_id, game in GAMES.items()
         for variant in [{}] + [{v.name: True} for v in game.info.variants]]


@pytest.mark.parametrize(("game_id", "variant"), CASES)
@pytest.mark.parametrize("endpoint", ["apply", "replay"])
def test_every_event_carries_its_sentence(client, game_id, variant, endpoint):
    start, moves = whole_game(game_id, variant, GAMES[game_id].info.min_players + 1
                              if GAMES[game_id].info.max_players > 2 else 2, seed=3)
    body = {"state": start, "moves": moves[:60]}
    first = client.post(f"/v1/games/{game_id}/{endpoint}", json=body)
    again = client.post(f"/v1/games/{game_id}/{endpoint}", json=body)
    assert first.status_code == 200 and again.headers["X-Cache"] == "hit"
    events = first.get_json()["events"]
    assert events and again.get_json()["events"] == events
    narrate, names = GAMES[game_id].library.narrate, [player["name"] for player in start["players"]]
    for event in events:
        facts = {key: value for key, value in event.items() if key != "text"}
        assert event["text"] == narrate(facts, names)
        assert names[event["player"]] in event["text"] if isinstance(event.get("player"), int) else event["text"]
