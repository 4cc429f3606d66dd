"""Per-rule tests: a turn (C-TURN-PLAY, C-TURN-BET, C-TURN-DRAW, C-TURN-END) and the variant (C-VAR-1)."""
from __future__ import annotations

import pytest

from service.games import campanile
from tests.campanile.helpers import (BET, DRAW, NO_BET, PASS, PLAY, error_rules, errors, events_of, make, moves,
                                     play, refused, state_dict, warnings)


def _after_play(stories: int = 2, tower: int = 0, tops=("B", "C", "D"), variant: bool = False,
                **kwargs) -> campanile.State:
    """Player 0 holding A, B, C has just played an A (tower 0) for `stories`."""
    card = "ABCDE"[tower]
    hand = [c for c in ["A", "B", "C"] if c != card][:2]
    return make(hands=[hand, ["C", "D", "E"]], plays={tower: [stories]}, tops=tops, step="bet",
                last_play={"tower": tower, "stories": stories}, variant=variant, **kwargs)


# ---------------------------------------------------------------- C-TURN-PLAY


def test_C_TURN_PLAY_a_card_from_hand_raises_the_tower_of_its_style_by_1_2_or_3():
    state = make(hands=[["A", "B", "C"], ["C", "D", "E"]])
    for stories in (1, 2, 3):
        after, events = campanile.apply_step(state, campanile.parse_step(PLAY("C", stories)))
        assert after.towers[2].plays == (stories,) and after.towers[2].height == stories
        assert after.players[0].hand == ("A", "B")
        assert after.step == "bet" and after.last_play == (2, stories)
        assert events == [{"type": "played", "player": 0, "card": "C", "tower": 2, "stories": stories,
                           "height": stories}]
    assert moves(state) == [PLAY(c, s) for c in "ABC" for s in (1, 2, 3)]


def test_C_TURN_PLAY_heights_add_up_and_cards_count_plays():
    state = make(hands=[["A", "B", "C"], ["C", "D", "E"]], plays={2: [3, 1]})
    after = play(state, PLAY("C", 2))
    assert after.towers[2].plays == (3, 1, 2) and after.towers[2].height == 6 and after.towers[2].cards == 3


def test_C_TURN_PLAY_only_a_card_in_hand():
    state = make(hands=[["A", "B", "C"], ["C", "D", "E"]])
    problem = refused(state, PLAY("E", 1))
    assert (problem.rule, problem.pointer) == ("C-TURN-PLAY", "/0/card")


def test_C_TURN_PLAY_stories_are_1_2_or_3():
    for stories in (0, 4):
        with pytest.raises(campanile.MalformedError) as raised:
            campanile.parse_step(PLAY("A", stories))
        assert raised.value.problems[0].pointer == "/stories" and "C-TURN-PLAY" in raised.value.problems[0].message
    doc = state_dict(plays={0: [2, 4]})
    with pytest.raises(campanile.MalformedError):
        campanile.read_state(doc)


def test_C_TURN_PLAY_the_turn_starts_with_the_play():
    state = make()
    for move in (NO_BET, BET(0, 3), DRAW):
        problem = refused(state, move)
        assert (problem.rule, problem.pointer) == ("C-TURN-PLAY", "/0/type")


def test_C_TURN_PLAY_after_playing_a_hand_holds_two_until_the_draw():
    doc = state_dict(hands=[["A", "B", "C"], ["C", "D", "E"]], plays={0: [1]}, step="bet",
                     last_play={"tower": 0, "stories": 1})
    doc["piles"][0].pop()  # keep 45 cards: the A on tower 0 was also in hand
    problems = errors(doc)
    assert ("C-TURN-PLAY", "/players/0/hand") in {(p.rule, p.pointer) for p in problems}


# ---------------------------------------------------------------- C-TURN-BET


def test_C_TURN_BET_only_towers_showing_on_a_pile_top():
    state = _after_play(stories=1, tops=("B", "D", "D"))
    listed = moves(state)
    assert listed[0] == NO_BET
    assert {(m["tower"], m["value"]) for m in listed[1:]} == {(t, v) for t in (1, 3) for v in (1, 2, 3)}
    problem = refused(state, BET(2, 3))
    assert (problem.rule, problem.pointer) == ("C-TURN-BET", "/0/tower")
    assert "B, D, D" in problem.message
    after, events = campanile.apply_step(state, campanile.parse_step(BET(3, 1)))
    assert after.towers[3].tokens == ((0, 1),) and after.players[0].supply == (4, 3, 1) and after.step == "draw"
    assert events == [{"type": "bet", "player": 0, "tower": 3, "value": 1}]


def test_C_TURN_BET_the_token_is_worth_at_least_the_stories_just_built():
    state = _after_play(stories=2, tops=("B", "B", "B"))
    assert [(m["tower"], m["value"]) for m in moves(state)[1:]] == [(1, 2), (1, 3)]
    problem = refused(state, BET(1, 1))
    assert (problem.rule, problem.pointer) == ("C-TURN-BET", "/0/value")
    state = _after_play(stories=3, tops=("B", "B", "B"))
    assert [(m["tower"], m["value"]) for m in moves(state)[1:]] == [(1, 3)]
    assert refused(state, BET(1, 2)).rule == "C-TURN-BET"


def test_C_TURN_BET_is_optional_and_one_token_at_most():
    state = _after_play(stories=1, tops=("B", "C", "D"))
    after = play(state, NO_BET)
    assert after.step == "draw" and after.towers == state.towers and after.players == state.players
    once = play(state, BET(1, 1))
    problem = refused(once, BET(2, 1))
    assert (problem.rule, problem.pointer) == ("C-TURN-DRAW", "/0/type")


def test_C_TURN_BET_tokens_keep_the_order_placed():
    state = make(hands=[["A", "B", "C"], ["B", "C", "D"]], tops=("B", "B", "B"))
    state = play(state, PLAY("A", 1), BET(1, 2), DRAW, PLAY("B", 1), BET(1, 1), DRAW, PLAY("C", 1), BET(1, 1), DRAW)
    assert state.towers[1].tokens == ((0, 2), (1, 1), (0, 1))
    doc = campanile.state_json(state)
    assert doc["towers"][1]["tokens"] == [{"player": 0, "value": 2}, {"player": 1, "value": 1},
                                          {"player": 0, "value": 1}]
    assert campanile.read_state(doc).towers[1].tokens == state.towers[1].tokens


def test_C_TURN_BET_no_more_tokens_than_cards_played():
    doc = state_dict(plays={0: [1]}, tokens={0: [(0, 1), (1, 1)]})
    assert [(p.rule, p.pointer) for p in errors(doc)] == [("C-TURN-BET", "/towers")]


# ---------------------------------------------------------------- C-TURN-DRAW


@pytest.mark.parametrize("stories", [1, 2, 3])
def test_C_TURN_DRAW_from_the_pile_numbered_as_the_stories_built(stories):
    doc = state_dict(hands=[["B", "C"], ["C", "D", "E"]], plays={0: [stories]}, tops=("A", "D", "B"), step="draw",
                     last_play={"tower": 0, "stories": stories})
    piles = dict(enumerate(doc["piles"]))
    state = campanile.read_state(doc)
    assert moves(state) == [DRAW]
    after, events = campanile.apply_step(state, campanile.parse_step(DRAW))
    taken, next_top = piles[stories - 1][0], piles[stories - 1][1]
    assert after.players[0].hand == tuple(sorted(["B", "C", taken]))
    assert after.piles[stories - 1].cards == tuple(piles[stories - 1][1:])  # the next card is the new top
    assert [p for k, p in enumerate(after.piles) if k != stories - 1] == \
        [p for k, p in enumerate(state.piles) if k != stories - 1]
    assert events[0] == {"type": "drew", "player": 0, "pile": stories, "card": taken, "revealed": next_top,
                         "left": len(piles[stories - 1]) - 1}
    assert after.turn == 1 and after.step == "play" and after.last_play is None


def test_C_TURN_DRAW_ends_the_turn_and_comes_last():
    state = _after_play(stories=1)
    problem = refused(state, DRAW)
    assert (problem.rule, problem.pointer) == ("C-TURN-BET", "/0/type")
    drawing = play(state, NO_BET)
    for move in (PLAY("B", 1), NO_BET, PASS):
        assert refused(drawing, move).rule == "C-TURN-DRAW"
    assert events_of(drawing, DRAW)[-1] == {"type": "turn", "player": 1, "step": 0}


def test_C_TURN_DRAW_back_to_three_cards_never_more():
    doc = state_dict(hands=[["A", "B", "C", "D"], ["C", "D", "E"]])
    assert [(p.rule, p.pointer) for p in errors(doc)] == [("C-TURN-DRAW", "/players/0/hand")]


# ---------------------------------------------------------------- C-TURN-END


def test_C_TURN_END_a_player_with_no_card_passes():
    doc = state_dict(hands=[[], ["C", "D", "E"]], plays={0: [1, 1], 1: [2]})
    assert errors(doc) == []
    assert [(p.rule, p.pointer) for p in warnings(doc)] == [("C-SVC-HANDS", "/players/0/hand")]
    state = campanile.read_state(doc)
    assert moves(state) == [PASS]
    problem = refused(state, PLAY("A", 1))
    assert (problem.rule, problem.pointer) == ("C-TURN-END", "/0/type")
    after, events = campanile.apply_step(state, campanile.parse_step(PASS))
    assert after.turn == 1 and after.step == "play" and after.towers == state.towers
    assert events == [{"type": "passed", "player": 0}, {"type": "turn", "player": 1}]


def test_C_TURN_END_a_player_holding_a_card_may_not_pass():
    state = make()
    problem = refused(state, PASS)
    assert (problem.rule, problem.pointer) == ("C-TURN-END", "/0/type")
    assert PASS not in moves(state)


# ---------------------------------------------------------------- C-VAR-1


def test_C_VAR_1_bet_on_the_tower_just_played():
    plain = _after_play(stories=2, tower=0, tops=("B", "C", "D"))
    assert all(m.get("tower") != 0 for m in moves(plain))
    problem = refused(plain, BET(0, 2))
    assert problem.rule == "C-TURN-BET" and "C-VAR-1" in problem.message
    variant = _after_play(stories=2, tower=0, tops=("B", "C", "D"), variant=True)
    assert {(m["tower"], m["value"]) for m in moves(variant)[1:]} == {(t, v) for t in (0, 1, 2, 3) for v in (2, 3)}
    after = play(variant, BET(0, 3))
    assert after.towers[0].tokens == ((0, 3),)
    assert refused(variant, BET(0, 1)).rule == "C-TURN-BET"  # the value rule still holds
    assert refused(variant, BET(4, 2)).rule == "C-TURN-BET"  # and no other tower joins


def test_C_VAR_1_is_part_of_the_state_and_the_deal():
    state = campanile.new_game(3, players=2, bet_on_played=True)
    doc = campanile.state_json(state)
    assert doc["variant"] == {"bet_on_played": True}
    assert campanile.read_state(doc).bet_on_played is True
    doc["variant"] = {"bet_on_played": "yes"}
    with pytest.raises(campanile.MalformedError):
        campanile.read_state(doc)
    assert error_rules(state_dict(variant=True)) == set()
