"""Per-rule tests of the service's rulings (C-SVC-*), and of what the library promises besides: canonical JSON,
every problem at once, malformed documents, apply's list semantics."""
from __future__ import annotations

import json

import pytest

from service.games import campanile
from service.games.campanile import STYLES
from tests.campanile.helpers import (BET, DRAW, DRAW_REVEALS, NO_BET, PASS, PLAY, error_rules, errors, js, make,
                                     moves, play, refused, state_dict, table_doc, warnings)

# ---------------------------------------------------------------- C-SVC-HAND


def test_C_SVC_HAND_hands_and_removed_cards_are_sets_listed_sorted():
    doc = state_dict(4, hands=[["E", "A", "C"], ["D", "B", "B"]])
    doc["removed"] = list(reversed(sorted(doc["removed"])))
    state = campanile.read_state(doc)
    assert state.players[0].hand == ("A", "C", "E") and state.players[1].hand == ("B", "B", "D")
    assert list(state.removed) == sorted(doc["removed"])
    same = state_dict(4, hands=[["A", "C", "E"], ["B", "B", "D"]])
    assert json.dumps(js(campanile.read_state(same))) == json.dumps(js(state))  # equal states, equal bytes


def test_C_SVC_HAND_piles_and_tokens_keep_their_order():
    doc = state_dict(plays={0: [1, 1]}, tokens={0: [(1, 1), (0, 2)]})
    state = campanile.read_state(doc)
    assert js(state)["piles"] == doc["piles"]
    assert state.towers[0].tokens == ((1, 1), (0, 2))


# ---------------------------------------------------------------- C-SVC-REMOVED


@pytest.mark.parametrize("players, count", [(2, 0), (3, 1), (4, 2), (5, 1)])
def test_C_SVC_REMOVED_removed_lists_only_the_cards_that_do_not_divide(players, count):
    state = campanile.new_game(21, players=players)
    assert len(state.removed) == count
    assert sum(campanile.known_cards(state).values()) == campanile.cards_in_play(players)


def test_C_SVC_REMOVED_the_setup_removals_are_out_of_the_game_not_listed():
    doc = state_dict(2)
    doc["removed"] = [style for style in STYLES for _ in range(5)]  # the 25 cards of C-SETUP-1 with 2 players
    rules = error_rules(doc)
    assert rules == {"C-COMP-5", "C-SETUP-2"}
    assert any("C-SVC-REMOVED" in p.message for p in errors(doc))


# ---------------------------------------------------------------- C-SVC-UNKNOWN


def _drawing_view(stories: int = 1) -> campanile.State:
    """Player 0 must draw from pile `stories`; every E is on tower 4 (known), so no E can come up. As player 0's view:
    the piles below their tops, the other hand and the removed cards unknown."""
    plays = {4: [1] * 12 + [stories]}  # all 13 E of a 4-player game
    state = make(4, hands=[["A", "B"], ["C", "D", "A"], ["B", "C", "D"], ["A", "B", "C"]], plays=plays,
                 tops=("A", "B", "C"), step="draw", last_play={"tower": 4, "stories": stories})
    return campanile.player_view(state, 0)


def test_C_SVC_UNKNOWN_a_draw_from_an_unknown_pile_names_the_card_turned_up():
    view = _drawing_view()
    size = view.piles[0].size
    assert js(view)["piles"][0] == {"count": size, "top": "A"} and size > 2
    assert moves(view) == [DRAW_REVEALS(s) for s in "ABCD"]  # every E is on tower 4
    problem = refused(view, DRAW)
    assert (problem.rule, problem.pointer) == ("C-SVC-UNKNOWN", "/0/reveals")
    problem = refused(view, DRAW_REVEALS("E"))
    assert (problem.rule, problem.pointer) == ("C-SVC-UNKNOWN", "/0/reveals")
    after, events = campanile.apply_step(view, campanile.parse_step(DRAW_REVEALS("D")))
    assert after.piles[0] == campanile.Pile(("D",), size - 2) and after.players[0].hand == ("A", "A", "B")
    assert events[0]["revealed"] == "D"


def test_C_SVC_UNKNOWN_a_known_next_card_or_a_last_card_is_named_by_nobody():
    state = make(hands=[["B", "C"], ["C", "D", "E"]], plays={0: [1]}, step="draw",
                 last_play={"tower": 0, "stories": 1})
    problem = refused(state, DRAW_REVEALS(state.piles[0].cards[1]))
    assert (problem.rule, problem.pointer) == ("C-SVC-UNKNOWN", "/0/reveals")
    assert moves(state) == [DRAW]


def test_C_SVC_UNKNOWN_playing_from_an_unknown_hand_names_a_card_it_can_hold():
    state = make(4, plays={4: [1] * 13}, hands=[["A", "B", "C"], ["C", "D", "A"], ["B", "C", "D"], ["A", "B", "C"]])
    view = campanile.player_view(state, 1)  # player 0's hand unknown to player 1
    assert js(view)["players"][0]["hand"] == {"count": 3, "known": []}
    assert moves(view) == [PLAY(c, s) for c in "ABCD" for s in (1, 2, 3)]  # not E: all 13 are known
    problem = refused(view, PLAY("E", 1))
    assert (problem.rule, problem.pointer) == ("C-SVC-UNKNOWN", "/0/card")
    after = play(view, PLAY("D", 2))
    assert after.players[0].hidden == 2 and after.towers[3].plays == (2,)


def test_C_SVC_UNKNOWN_a_view_hides_other_hands_removed_cards_and_pile_bodies():
    state = campanile.new_game(8, players=4)
    view = js(campanile.player_view(state, 2))
    assert view["players"][2]["hand"] == list(state.players[2].hand)
    assert all(view["players"][p]["hand"] == {"count": 3, "known": []} for p in (0, 1, 3))
    assert view["removed"] == {"count": 2, "known": []}
    assert view["piles"] == [{"count": 17, "top": pile.top} for pile in state.piles]
    assert errors(view) == [] and campanile.read_state(view) == campanile.player_view(state, 2)


def test_C_SVC_UNKNOWN_counts_are_checked_against_the_cards_in_play():
    view = js(campanile.player_view(campanile.new_game(8, players=2), 0))
    view["players"][1]["hand"] = {"count": 4, "known": []}
    assert ("C-COMP-5", "") in {(p.rule, p.pointer) for p in errors(view)}
    view["players"][1]["hand"] = {"count": 1, "known": ["A", "B"]}
    with pytest.raises(campanile.MalformedError):
        campanile.read_state(view)


# ---------------------------------------------------------------- C-SVC-STEP


def test_C_SVC_STEP_a_turn_is_play_then_bet_or_no_bet_then_draw():
    state = campanile.new_game(3, players=2)
    card = state.players[0].hand[0]
    assert {m["type"] for m in moves(state)} == {"play"}
    state = play(state, PLAY(card, 1))
    assert state.step == "bet" and moves(state)[0] == NO_BET and {m["type"] for m in moves(state)} <= {"no_bet", "bet"}
    state = play(state, NO_BET)
    assert state.step == "draw" and moves(state) == [DRAW]  # even the only choice is an explicit step
    state = play(state, DRAW)
    assert state.step == "play" and state.turn == 1 and state.last_play is None


def test_C_SVC_STEP_last_play_tells_the_same_story_as_the_towers():
    missing = state_dict(hands=[["B", "C"], ["C", "D", "E"]], plays={0: [2]}, step="bet")
    assert [(p.rule, p.pointer) for p in errors(missing)] == [("C-SVC-STEP", "/last_play")]
    wrong = state_dict(hands=[["B", "C"], ["C", "D", "E"]], plays={0: [2]}, step="bet",
                       last_play={"tower": 0, "stories": 3})
    assert [(p.rule, p.pointer) for p in errors(wrong)] == [("C-SVC-STEP", "/last_play")]
    stale = state_dict(plays={0: [2]}, last_play={"tower": 0, "stories": 2})
    assert [(p.rule, p.pointer) for p in errors(stale)] == [("C-SVC-STEP", "/last_play")]


# ---------------------------------------------------------------- C-SVC-HANDS


def test_C_SVC_HANDS_more_than_three_is_impossible_fewer_is_a_warning():
    assert error_rules(state_dict(hands=[["A", "B", "C", "D"], ["A", "B", "C"]])) == {"C-TURN-DRAW"}
    short = state_dict(hands=[["A"], ["A", "B", "C"]], plays={1: [1, 1]})
    assert errors(short) == []
    assert [(p.rule, p.pointer) for p in warnings(short)] == [("C-SVC-HANDS", "/players/0/hand")]
    mid_turn = state_dict(hands=[["B", "C"], ["A", "B", "C"]], plays={0: [1]}, step="draw",
                          last_play={"tower": 0, "stories": 1})
    assert errors(mid_turn) == [] and warnings(mid_turn) == []


# ---------------------------------------------------------------- C-SVC-PASS


def test_C_SVC_PASS_passing_is_an_explicit_step_and_the_turn_moves_on():
    state = make(3, hands=[["A", "B", "C"], [], ["C", "D", "E"]], plays={0: [1, 1], 1: [1]}, turn=1)
    assert moves(state) == [PASS]
    after = play(state, PASS)
    assert after.turn == 2 and after.step == "play"


def test_C_SVC_PASS_when_nobody_holds_a_card_the_game_ends():
    state = make(2, hands=[[], []], plays={0: [1, 1], 1: [1, 1], 2: [1, 1]}, tokens={0: [(1, 2)]})
    assert [(p.rule, p.pointer) for p in warnings(js(state))] == [("C-SVC-HANDS", "/players/0/hand"),
                                                                  ("C-SVC-HANDS", "/players/1/hand")]
    after, events = campanile.apply_step(state, campanile.parse_step(PASS))
    assert after.step == "over" and moves(after) == []
    assert events == [{"type": "passed", "player": 0},
                      {"type": "game_over", "reason": "no_cards", "winners": [1]}]
    assert errors(js(after)) == []  # over with cards in every pile: nobody can play


# ---------------------------------------------------------------- C-SVC-SCORE


def test_C_SVC_SCORE_an_unfinished_state_scores_as_if_it_ended_now():
    state = make(3, plays={0: [3, 3], 2: [1]}, tokens={0: [(2, 3), (1, 2)], 2: [(0, 1)]})
    doc = campanile.score(state).to_json()
    assert [t["rank"] for t in doc["towers"]] == [1, 3, 2, 4, 5]
    assert doc["towers"][0]["large"] == {"player": 2, "points": 8, "total": 3, "reason": "total"}
    assert doc["towers"][0]["small"] == {"player": 1, "points": 4, "total": 2, "reason": "total"}
    assert doc["towers"][0]["standings"] == [{"player": 2, "total": 3, "first_token": 0, "points": 8},
                                             {"player": 1, "total": 2, "first_token": 1, "points": 4}]
    assert doc["towers"][2]["flag"] == {"large": 6, "small": 3}
    assert [p["towers"] for p in doc["players"]] == [[0, 0, 6, 0, 0], [4, 0, 0, 0, 0], [8, 0, 0, 0, 0]]
    assert [p["total"] for p in doc["players"]] == [6, 4, 8]
    assert (doc["winners"], doc["winner"], doc["decided_by"]) == ([2], 2, "points")


def test_C_SVC_SCORE_a_table_scores_like_the_state_it_shows():
    state = make(3, plays={0: [3, 3], 2: [1]}, tokens={0: [(2, 3), (1, 2)], 2: [(0, 1)]})
    table = {"players": [{"name": p.name} for p in state.players], "towers": js(state)["towers"]}
    result, found = campanile.score_table_json(table)
    assert found == [] and result.to_json() == campanile.score(state).to_json()
    assert campanile.table_json(campanile.table_of(state))["towers"] == table["towers"]


def test_C_SVC_SCORE_a_table_is_checked_for_tokens_and_cards():
    too_many = table_doc(2, {0: ([1] * 4, [(0, 2), (0, 2), (0, 2), (0, 2)])})
    with pytest.raises(campanile.InvalidStateError) as raised:
        campanile.read_table(too_many)
    assert [p.rule for p in raised.value.problems] == ["C-COMP-4"]
    tall = table_doc(2, {0: ([1] * 10, [])})  # 2 players: 9 A in play
    with pytest.raises(campanile.InvalidStateError) as raised:
        campanile.read_table(tall)
    assert [(p.rule, p.pointer) for p in raised.value.problems] == [("C-COMP-5", "/towers/0/plays/9")]
    with pytest.raises(campanile.InvalidStateError) as raised:
        campanile.read_table(table_doc(6, {}))
    assert [p.rule for p in raised.value.problems] == ["C-SETUP-1"]


# ---------------------------------------------------------------- what the library promises besides


def test_canonical_json_has_fixed_keys_and_round_trips():
    state = campanile.new_game(12, players=3, bet_on_played=True)
    state = play(state, PLAY(state.players[0].hand[0], 2))
    doc = js(state)
    assert list(doc) == ["game", "variant", "players", "towers", "piles", "removed", "turn", "step", "last_play"]
    assert list(doc["players"][0]) == ["name", "hand", "supply"]
    assert list(doc["towers"][0]) == ["style", "plays", "tokens"]
    assert doc["last_play"]["stories"] == 2 and doc["step"] == "bet"
    back = campanile.read_state(json.loads(json.dumps(doc)))
    assert back == state and json.dumps(js(back)) == json.dumps(doc)


def test_defaults_fill_what_input_leaves_out():
    doc = state_dict()
    slim = {"players": [{"hand": p["hand"]} for p in doc["players"]], "towers": [{} for _ in range(5)],
            "piles": doc["piles"]}
    state = campanile.read_state(slim)
    assert (state.turn, state.step, state.last_play, state.bet_on_played) == (0, "play", None, False)
    assert [p.name for p in state.players] == ["Player 1", "Player 2"]
    assert all(p.supply == (5, 3, 1) for p in state.players)


def test_every_problem_at_once():
    doc = state_dict(3, plays={0: [1]}, tokens={0: [(0, 1), (1, 1)]})
    doc["piles"][0].append(doc["removed"].pop())
    doc["turn"] = 4
    doc["players"][2]["supply"]["3"] = 0
    rules = [p.rule for p in errors(doc)]
    assert set(rules) == {"C-SETUP-2", "C-COMP-5", "C-TURN-BET", "C-SETUP-3"} and len(rules) == 5


def test_malformed_documents_list_every_shape_problem_with_pointers():
    doc = state_dict()
    doc["players"][0]["hand"] = ["A", "Z"]
    doc["towers"][1]["plays"] = [1, "2"]
    doc["towers"][2]["tokens"] = [{"player": 0}]
    doc["surprise"] = 1
    doc["step"] = "dance"
    with pytest.raises(campanile.MalformedError) as raised:
        campanile.read_state(doc)
    assert {p.pointer for p in raised.value.problems} == {"/players/0/hand/1", "/towers/1/plays/1",
                                                          "/towers/2/tokens/0/value", "/surprise", "/step"}
    assert all(p.rule is None for p in raised.value.problems)
    with pytest.raises(campanile.MalformedError):
        campanile.read_state({**state_dict(), "game": "torri"})


def test_malformed_steps():
    for bad, pointers in [({"type": "play", "card": "F"}, {"/card", "/stories"}),
                          ({"type": "bet", "tower": 5, "value": 0}, {"/tower", "/value"}),
                          ({"type": "draw", "from": "deck"}, {"/from"}),
                          ({"type": "jump"}, {"/type"}), ("draw", {""}),
                          ({"type": "play", "card": "A", "stories": True}, {"/stories"})]:
        with pytest.raises(campanile.MalformedError) as raised:
            campanile.parse_step(bad)
        assert {p.pointer for p in raised.value.problems} == pointers, bad


def test_apply_steps_stops_at_the_first_illegal_step_and_numbers_events():
    state = make(hands=[["A", "B", "C"], ["C", "D", "E"]], tops=("B", "B", "B"))
    outcome = campanile.apply_steps(state, [PLAY("A", 1), BET(1, 1), DRAW, PLAY("A", 1), NO_BET])
    assert not outcome.legal and outcome.failed_at == 3
    assert [(v.rule, v.pointer) for v in outcome.violations] == [("C-TURN-PLAY", "/3/card")]
    assert outcome.state.turn == 1 and outcome.state.step == "play"
    assert [e["step"] for e in outcome.events] == [0, 1, 2, 2]
    with pytest.raises(campanile.MalformedError) as raised:
        campanile.apply_steps(state, [PLAY("A", 1), {"type": "bet"}])
    assert {p.pointer for p in raised.value.problems} == {"/1/tower", "/1/value"}
    one_by_one = state
    for move in [PLAY("A", 1), BET(1, 1), DRAW]:
        one_by_one = campanile.read_state(js(play(one_by_one, move)))
    assert one_by_one == play(state, PLAY("A", 1), BET(1, 1), DRAW)
