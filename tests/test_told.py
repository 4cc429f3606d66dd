"""Events told to one player (`player` in /apply and /replay; Game.told): what the others do face down is not
named, and nothing else changes.

Every registered game: a seeded random game replayed for each seat tells the same events in the same order, each
a part of the event the referee sees (only keys left out), and tells each player everything about their own steps.
Torri (T-TURN-4): a card the opponent draws from a deck is not named, in the event or its sentence, in any
language; a card drawn from the market is. A `player` that is not a player of the game is refused, naming it."""
from __future__ import annotations

import pytest

from service.games.registry import GAMES
from tests.replay.records import whole_game


def _record(game_id: str) -> dict:
    game = GAMES[game_id]
    start, moves = whole_game(game_id, {}, min(game.info.min_players + 1, game.info.max_players), 5)
    return {"state": start, "moves": moves}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_player_is_told_the_same_events_with_only_what_is_hidden_left_out(game_id: str) -> None:
    game = GAMES[game_id]
    record = _record(game_id)
    whole = game.apply(record, replay=True)
    assert whole["legal"]
    for seat in range(len(record["state"]["players"])):
        told = game.apply({**record, "player": seat}, replay=True)
        assert told["states"] == whole["states"] and told["score"] == whole["score"]  # the states stay whole
        assert [e["type"] for e in told["events"]] == [e["type"] for e in whole["events"]]
        for said, seen in zip(told["events"], whole["events"]):
            facts = {key: value for key, value in said.items() if key != "text"}
            assert facts.items() <= seen.items(), (said, seen)  # only keys left out
            if seen.get("player") == seat:
                assert said == seen  # a player is told all they do


def test_torri_does_not_name_the_card_the_opponent_draws_from_the_deck() -> None:
    game = GAMES["torri"]
    record = _record("torri")
    whole = game.apply(record, replay=True)
    draws = [e for e in whole["events"] if e["type"] == "drew"]
    assert {e["from"] for e in draws} >= {"deck", "market"}
    for seat in (0, 1):
        for language in ("en", "fr", "de", "it"):
            told = game.apply({**record, "player": seat}, replay=True, language=language)
            said = {e["step"]: e for e in told["events"] if e["type"] == "drew"}
            for draw in draws:
                event = said[draw["step"]]
                hidden = draw["from"] == "deck" and draw["player"] != seat
                assert ("card" in event) is not hidden
                if hidden and language == "en":
                    assert event["text"].endswith("drew a card from the deck."), event
            seen = game.apply(record, replay=True, language=language)
            assert [e["text"] for e in told["events"] if e.get("player") == seat] == \
                [e["text"] for e in seen["events"] if e.get("player") == seat]


@pytest.mark.parametrize("player", [2, -1, True, "0"])
def test_a_player_told_must_be_a_player_of_the_game(client, player) -> None:
    record = _record("torri")
    answer = client.post("/v1/games/torri/apply", json={**record, "moves": record["moves"][:2], "player": player})
    assert answer.status_code == 400
    pointers = [error["pointer"] for error in answer.get_json()["errors"]]
    assert pointers == ["/player"], answer.get_json()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_foreseen_event_leaves_out_only_what_chance_brings(game_id: str) -> None:
    """Game.foreseen (a legal step said in words before it is made) only leaves keys out of an event."""
    game = GAMES[game_id]
    record = _record(game_id)
    state = game.load_state(record["state"]).checked()
    for move in record["moves"][:60]:
        outcome = game.apply_steps(state, [game.as_step(move)])
        for event in outcome.events:
            assert game.foreseen(event).items() <= event.items()
        state = outcome.state


def _texts(game_id: str, state: dict) -> list[str]:
    return GAMES[game_id].legal_moves({"state": state, "texts": True})["texts"]


def test_torri_s_legal_steps_in_words_do_not_tell_the_deck_s_order() -> None:
    """The texts of a draw from the deck (and of the refill it may bring) are the same whatever the deck's order:
    a step's words foresee it (T-TURN-4, T-MKT-1)."""
    game = GAMES["torri"]
    state = game.apply({"state": game.new({"seed": 3, "names": ["Ada", "Bea"]})["state"],
                        "moves": [{"type": "purchase"}]})["state"]
    reordered = {**state, "deck": list(reversed(state["deck"]))}
    assert state["deck"][0] != reordered["deck"][0]
    texts = _texts("torri", state)
    assert texts == _texts("torri", reordered)
    assert "Ada drew a card from the deck." in texts


def test_campanile_s_legal_steps_in_words_do_not_tell_the_card_a_draw_turns_up() -> None:
    game = GAMES["campanile"]
    state = game.new({"seed": 3, "names": ["Ada", "Bea"]})["state"]
    for _ in range(2):  # a play and a bet: a draw is next
        state = game.apply({"state": state, "moves": game.legal_moves({"state": state})["moves"][:1]})["state"]
    turned = {**state, "piles": [[pile[0], *reversed(pile[1:])] for pile in state["piles"]]}
    assert [pile[1] for pile in state["piles"]] != [pile[1] for pile in turned["piles"]]
    texts = _texts("campanile", state)
    assert texts == _texts("campanile", turned)
    assert all("the next card is turned up" in text for text in texts), texts
