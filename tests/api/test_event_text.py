"""Every event that leaves a game through /apply and /replay carries `text`, its game's sentence for it, for every
game and variant; the front (a well-formed question answered before Flask) and a cached answer say the same."""
from __future__ import annotations

import pytest

from service.games.core.events import Event
from service.games.registry import GAMES
from tests.replay.records import whole_game

CASES = [(game_id, variant) for game_id, game in GAMES.items()
         for variant in [{}] + [{v.name: v.example} for v in game.info.variants]]


def seats(game_id: str) -> int:
    """One player more than the fewest where the game seats more (a table of three says more than one of two)."""
    info = GAMES[game_id].info
    return min(info.min_players + 1, info.max_players)


@pytest.mark.parametrize(("game_id", "variant"), CASES)
@pytest.mark.parametrize("endpoint", ["apply", "replay"])
def test_every_event_carries_its_sentence(client, game_id, variant, endpoint):
    start, moves = whole_game(game_id, variant, seats(game_id), seed=3)
    body = {"state": start, "moves": moves[:60]}
    first = client.post(f"/v1/games/{game_id}/{endpoint}", json=body)
    again = client.post(f"/v1/games/{game_id}/{endpoint}", json=body)
    assert first.status_code == 200 and again.headers["X-Cache"] == "hit"
    events = first.get_json()["events"]
    assert events and again.get_json()["events"] == events
    game = GAMES[game_id]
    names = game.player_names(game.load_state(start).checked())
    for event in events:
        facts = Event({key: value for key, value in event.items() if key != "text"})
        assert event["text"] == game.narrate(facts, names)
        assert names[event["player"]] in event["text"] if isinstance(event.get("player"), int) else event["text"]
