"""Per-rule tests, advanced game: the noble cards (T-NOB-DRAW, T-NOB-PLAY, T-NOB-LIMIT, T-NOB-BP, T-NOB-VF,
T-NOB-MON, T-NOB-SF, T-NOB-PC, T-NOB-MURA, T-NOB-GIOSTRA).

Each test would fail if its rule were broken. Where the engine disagrees with the rule book, the test still asserts
the rule book and is marked xfail(strict=True) with the reason (so a fix turns it into a failure to remove the mark).
The Ending phase (T-END-3), components (T-COMP-2), setup (T-SETUP-3) and scoring (T-SCORE-6) of the advanced game
are in test_rules_nobles_game.py.
"""
from __future__ import annotations

import pytest

from service.games import torri
from tests.torri.helpers import (BP, DECK, DECLINE, GIOSTRA, GUARD, NOBLE_DECK, PASS, PURCHASE, STOP, VF, build,
                                 error_rules, event_types, events_of, exchange, extend, hand, js, make, market,
                                 move_types, moves, noble, play, refused, rule_of, state_dict, towers_of)


def nob(**kwargs) -> torri.State:
    """A checked advanced-game state (nobles not placed lie in the noble deck, Giostra among them)."""
    return make(nobles=True, **kwargs)


def played(state: torri.State, player: int) -> list[str]:
    return js(state)["players"][player]["played"]


def noble_moves(state: torri.State) -> list[dict]:
    return [m for m in moves(state) if m["type"] == "noble"]


# ---------------------------------------------------------------- T-NOB-DRAW

def test_T_NOB_DRAW_a_purchase_may_draw_the_noble_decks_top_or_a_market_noble():
    state = nob(hands=[[5], [6]], market=[9, 10, "mura", "monumento"], noble_deck=["cappella", "palazzo"])
    started = play(state, PURCHASE).state
    assert js(started)["pending"]["from"] == ["deck", "noble_deck", "market"]
    listed = moves(started)
    assert NOBLE_DECK in listed and market("mura") in listed and market("monumento") in listed
    done = play(started, NOBLE_DECK, market("mura")).state
    assert hand(done, 0) == ["5", "cappella", "mura"]
    assert js(done)["noble_deck"][0] == "palazzo"  # the top was drawn, the next one is on top
    assert js(done)["market"] == ["9", "10", "monumento"]


def test_T_NOB_DRAW_an_exchange_may_put_nobles_down_and_draw_nobles_but_not_the_same_noble_back():
    state = nob(hands=[[5, 6, VF, "mura"], [7]], market=[9, 10, "monumento", VF], noble_deck=["cappella"])
    assert exchange(VF, "mura") in moves(state)  # nobles may be put down, even only nobles
    started = play(state, exchange(5, VF)).state
    assert js(started)["market"] == ["5", "9", "10", VF, VF, "monumento"]
    assert js(started)["pending"]["excluded"] == ["5", VF]
    listed = moves(started)
    assert market(VF) not in listed and market(5) not in listed  # T-ACT-EXCHANGE-2: a noble's "rank" is its name
    assert market("monumento") in listed and NOBLE_DECK in listed and market(9) in listed
    assert rule_of(refused(started, market(VF))) == "T-ACT-EXCHANGE-2"
    done = play(started, market("monumento"), NOBLE_DECK).state
    assert hand(done, 0) == ["6", "monumento", "cappella", "mura"]


def test_T_NOB_DRAW_an_extension_draws_tower_cards_only():
    state = nob(hands=[[7, 5], [6]], towers=[["7x3"], []], market=[9, 10, "mura", "monumento"],
                noble_deck=["cappella"])
    started = play(state, extend(0, 7)).state
    assert js(started)["pending"]["from"] == ["deck", "market"]
    assert moves(started) == [DECK, market(9), market(10)]
    assert rule_of(refused(started, NOBLE_DECK)) == "T-NOB-DRAW"
    assert rule_of(refused(started, market("mura"))) == "T-NOB-DRAW"


def test_T_NOB_DRAW_income_draws_tower_cards_only():
    state = nob(hands=[[8, 8, 8], [6]], market=[9, 10, "mura", "monumento"], noble_deck=["cappella"])
    started = play(state, build("8x3")).state
    assert js(started)["pending"] == {"type": "draw", "action": "income", "player": 0, "left": 3,
                                      "from": ["deck", "market"], "excluded": []}
    assert moves(started) == [DECK, market(9), market(10)]
    assert rule_of(refused(started, NOBLE_DECK)) == "T-NOB-DRAW"
    assert rule_of(refused(started, market("monumento"))) == "T-NOB-DRAW"
    done = play(started, market(9), market(10), DECK).state
    assert js(done)["market"] == ["monumento", "mura"]  # the nobles stay; the market is not empty: no refill


def test_T_NOB_DRAW_the_hand_limit_counts_nobles():
    six = nob(hands=[[5, 6, 7, "mura", "monumento", "cappella"], [6]])
    assert rule_of(refused(six, PURCHASE)) == "T-ACT-PURCHASE-2"
    assert "purchase" not in move_types(six)
    five = nob(hands=[[5, 6, "mura", "monumento", "cappella"], [6]])
    after = play(five, PURCHASE, NOBLE_DECK, NOBLE_DECK).state
    assert len(hand(after, 0)) == 7


def test_T_NOB_DRAW_the_noble_deck_running_out_ends_nothing():
    gone = [BP, BP, BP, VF, VF, "monumento", "giostra", "palazzo", "mura"]
    state = nob(hands=[[5], [6]], noble_deck=["cappella"], removed=gone)
    after = play(state, PURCHASE, NOBLE_DECK, DECK).state
    assert js(after)["noble_deck"] == [] and after.phase == "main" and after.turn == 1
    assert error_rules(js(after)) == set()
    again = play(after, PURCHASE).state  # a Purchase is still legal: it draws tower cards
    assert NOBLE_DECK not in moves(again)
    assert rule_of(refused(again, NOBLE_DECK)) == "T-NOB-DRAW"


# ---------------------------------------------------------------- T-NOB-PLAY

@pytest.mark.parametrize("card", ["monumento", "cappella", "mura"])
def test_T_NOB_PLAY_an_action_noble_is_the_turns_action_and_lies_in_the_played_row(card):
    state = nob(hands=[[5, card], [6]])
    assert noble(card) in moves(state)
    outcome = play(state, noble(card))
    assert played(outcome.state, 0) == [card]
    assert hand(outcome.state, 0) == ["5"]
    assert outcome.state.turn == 1 and outcome.state.pending is None
    assert events_of(outcome, "noble") == [{"type": "noble", "player": 0, "card": card, "cost": [], "step": 0}]


def test_T_NOB_PLAY_via_francigena_and_palazzo_also_lie_in_the_played_row():
    state = nob(hands=[[5, 6, VF], [7]])
    assert played(play(state, noble(VF), STOP).state, 0) == [VF]
    palazzo = nob(hands=[[5, 6, "palazzo"], [7]], towers=[["8x3"], []])
    assert played(play(palazzo, noble("palazzo", ["5", "6"])).state, 0) == ["palazzo"]


def test_T_NOB_PLAY_one_noble_per_turn():
    state = nob(hands=[["monumento", "cappella", 5], [6]], played=[[], ["mura", VF]])
    outcome = refused(state, noble("monumento"), noble("cappella"))
    assert outcome.state.turn == 1  # the first noble was the whole turn: the second is asked of player 1
    assert rule_of(outcome) == "T-NOB-PLAY"
    later = play(state, noble("monumento"), PASS, noble("cappella")).state
    assert played(later, 0) == ["monumento", "cappella"]


def test_T_NOB_PLAY_buona_pietra_and_giostra_are_not_played_as_actions():
    state = nob(hands=[[5, BP, "giostra"], [6]])
    assert rule_of(refused(state, noble(BP))) == "T-NOB-BP"
    assert rule_of(refused(state, noble("giostra"))) == "T-NOB-GIOSTRA"
    assert rule_of(refused(state, GIOSTRA)) == "T-TURN-1"
    assert noble_moves(state) == [] and "giostra" not in move_types(state)


def test_T_NOB_PLAY_only_a_held_noble_and_only_palazzo_has_a_cost():
    state = nob(hands=[[5, 6, "monumento"], [7]])
    assert rule_of(refused(state, noble("cappella"))) == "T-NOB-PLAY"
    assert rule_of(refused(state, {"type": "noble", "card": "5"})) == "T-NOB-PLAY"
    assert rule_of(refused(state, noble("monumento", ["5", "6"]))) == "T-NOB-PLAY"
    assert noble_moves(state) == [noble("monumento")]


# ---------------------------------------------------------------- T-NOB-LIMIT

def test_T_NOB_LIMIT_at_most_one_noble_ahead_of_the_opponent():
    ahead = nob(hands=[["cappella", 5], [6]], played=[["monumento"], []])
    assert rule_of(refused(ahead, noble("cappella"))) == "T-NOB-LIMIT"
    assert noble_moves(ahead) == []
    level = nob(hands=[["cappella", 5], [6]], played=[["monumento"], ["mura"]])
    assert played(play(level, noble("cappella")).state, 0) == ["monumento", "cappella"]


def test_T_NOB_LIMIT_each_buona_pietra_in_a_tower_counts_as_one_noble_used():
    state = nob(hands=[["cappella", 5], [6]], towers=[[[8, BP, BP, 8]], []], played=[[], ["monumento"]])
    assert torri.nobles_used(state.players[0]) == 2
    assert rule_of(refused(state, noble("cappella"))) == "T-NOB-LIMIT"  # 3 against 1
    level = nob(hands=[["cappella", 5], [6]], towers=[[[8, BP, BP, 8]], []], played=[[], ["monumento", "mura"]])
    assert played(play(level, noble("cappella")).state, 0) == ["cappella"]


def test_T_NOB_LIMIT_a_build_counts_every_buona_pietra_it_plays():
    state = nob(hands=[[8, 8, BP, BP], [6]])
    assert rule_of(refused(state, build(8, BP, 8, BP))) == "T-NOB-LIMIT"  # 2 against 0
    assert all(m["cards"].count(BP) < 2 for m in moves(state) if m["type"] in ("build", "extend"))
    assert build(8, BP, 8) in moves(state)
    ahead = nob(hands=[[8, 8, BP, BP], [6]], played=[[], ["mura"]])
    assert build(8, BP, 8, BP) in moves(ahead)
    assert towers_of(play(ahead, build(8, BP, 8, BP)).state, 0)[0]["cards"] == ["8", BP, "8", BP]


def test_T_NOB_LIMIT_an_extension_counts_its_buona_pietra():
    state = nob(hands=[[BP, 5], [6]], towers=[["8x3"], []], played=[["monumento"], []])
    assert rule_of(refused(state, extend(0, BP))) == "T-NOB-LIMIT"
    assert extend(0, BP) not in moves(state)


def test_T_NOB_LIMIT_a_noble_removed_from_the_game_does_not_count():
    state = nob(hands=[["monumento", "mura", "cappella", 5], ["giostra", 6]])
    outcome = play(state, noble("monumento"), GIOSTRA, PASS, noble("mura"), PASS, noble("cappella"))
    assert js(outcome.state)["removed"] == ["monumento"]
    assert played(outcome.state, 0) == ["mura", "cappella"]  # 2 against Giostra's 1: the Monumento is not counted
    assert [torri.nobles_used(p) for p in outcome.state.players] == [2, 1]


def test_T_NOB_LIMIT_giostra_counts_the_opponents_card_as_used():
    # player 1 has used 1, player 0 none: Giostra makes 2, allowed only because player 0's Monumento counts
    state = nob(hands=[["monumento", 5], ["giostra", 6]], played=[[], ["mura"]])
    window = play(state, noble("monumento")).state
    assert window.pending.type == "giostra" and window.to_act == 1
    assert moves(window) == [GIOSTRA, DECLINE]
    after = play(window, GIOSTRA).state
    assert [torri.nobles_used(p) for p in after.players] == [0, 2]


def test_T_NOB_LIMIT_no_giostra_window_when_giostra_would_be_two_ahead():
    # player 1 has used 2, player 0 none (T-SVC-LIMIT: such a gap can stand). After the Monumento player 0 has 1;
    # a Giostra would make 3 against 1: not allowed, so no window opens and the turn passes.
    state = nob(hands=[["monumento", 5], ["giostra", 6]], played=[[], ["mura", "cappella"]])
    outcome = play(state, noble("monumento"))
    assert outcome.state.pending is None and outcome.state.turn == 1
    assert error_rules(js(outcome.state)) == set()


def test_T_NOB_LIMIT_no_giostra_window_on_buona_pietra_when_giostra_would_be_two_ahead():
    state = nob(hands=[[8, 8, BP], ["giostra", 6]], played=[[], ["mura", "cappella"]])
    outcome = play(state, build(8, BP, 8))
    assert "built" in event_types(outcome) and outcome.state.pending.action == "income"


# ---------------------------------------------------------------- T-NOB-BP

def test_T_NOB_BP_in_a_plain_tower_takes_its_rank_and_draws_for_income():
    state = nob(hands=[[8, 8, BP, 5], [6]])
    outcome = play(state, build(8, BP, 8))
    tower = towers_of(outcome.state, 0)[0]
    assert (tower["kind"], tower["rank"]) == ("plain", 8)
    assert [e["effect"] for e in events_of(outcome, "donazione")] == ["income"]
    assert outcome.state.pending.action == "income" and outcome.state.pending.left == 3


def test_T_NOB_BP_in_a_plain_9_counts_for_the_trade():
    state = nob(hands=[[9, 9, BP], [6, 7, 8, 10]])
    outcome = play(state, build(9, BP, 9))
    assert js(outcome.state)["pending"] == {"type": "take", "action": "trade", "player": 0, "left": 3, "give": 2}


def test_T_NOB_BP_in_a_plain_10_counts_for_the_conspiracys_height():
    state = nob(hands=[[10, 10, 10, BP], [6]], towers=[[], ["9x4", "8x3"]])
    outcome = play(state, build(10, 10, BP, 10))  # height 4: the 9x4 is the tallest tower no taller
    assert events_of(outcome, "destroyed")[0]["cards"] == ["9"] * 4
    assert [t["cards"] for t in towers_of(outcome.state, 1)] == [["8"] * 3]


def test_T_NOB_BP_in_a_plain_6_keeps_the_contract():
    state = nob(hands=[["10x3"], [5]], towers=[[], [[6, BP, 6]]], played=[["mura"], []])
    outcome = play(state, build("10x3"))
    assert event_types(outcome)[-3:] == ["donazione", "no_target", "turn"]


def test_T_NOB_BP_counts_for_blessing_and_the_plain_scores():
    state = nob(towers=[[[7, BP, 7], [8, BP, 8, 8]], ["8x3", "7x3"]])
    score = torri.score(state).to_json()
    first, second = score["players"]
    assert first["categories"]["blessing"] == 6 and second["categories"]["blessing"] == 6
    assert first["plain_ranks_won"] == [7, 8]  # 8: 4 stories (one a Buona Pietra) beat 3; 7: a tie scores both
    assert second["plain_ranks_won"] == [7]


def test_T_NOB_BP_stands_in_a_colorful_tower_for_the_rank_its_place_needs():
    state = nob(hands=[[9, 7, BP, 5], [6]])
    tower = towers_of(play(state, build(9, BP, 7)).state, 0)[0]
    assert (tower["kind"], tower["rank"], tower["cards"]) == ("colorful", 9, ["9", BP, "7"])
    extended = nob(hands=[[BP, 5], [6]], towers=[["9-7"], []])
    assert towers_of(play(extended, extend(0, BP, 5)).state, 0)[0]["cards"] == ["9", "8", "7", BP, "5"]


def test_T_NOB_BP_stands_for_11_below_a_10_and_for_4_above_a_5():
    state = nob(hands=[[10, 9, BP, 5], [6]])
    eleven = towers_of(play(state, build(BP, 10, 9)).state, 0)[0]
    assert (eleven["kind"], eleven["rank"]) == ("colorful", 11)
    low = nob(hands=[[6, 5, BP], [7]])
    four = towers_of(play(low, build(6, 5, BP)).state, 0)[0]
    assert (four["kind"], four["rank"], four["cards"]) == ("colorful", 6, ["6", "5", BP])


def test_T_NOB_BP_a_colorful_tower_can_reach_8_stories():
    state = nob(hands=[[BP, 10, 9, 8, 7, 6, 5, BP], [5]], played=[["mura"], ["monumento", "cappella"]])
    assert build(BP, 10, 9, 8, 7, 6, 5, BP) in moves(state)
    after = play(state, build(BP, 10, 9, 8, 7, 6, 5, BP)).state
    tower = towers_of(after, 0)[0]
    assert (tower["kind"], tower["rank"], len(tower["cards"])) == ("colorful", 11, 8)
    assert torri.score(after).players[0].categories["colorful"] == 8


def test_T_NOB_BP_an_ambiguous_stack_needs_kind_and_rank():
    state = nob(hands=[[8, 8, BP, BP], [6]], played=[[], ["mura"]])
    assert rule_of(refused(state, build(8, BP, BP))) == "T-NOB-BP"
    listed = [m for m in moves(state) if m["type"] == "build" and m["cards"] == ["8", BP, BP]]
    assert sorted(listed, key=str) == sorted([build(8, BP, BP, kind="plain", rank=8),
                                              build(8, BP, BP, kind="colorful", rank=8)], key=str)
    plain = play(state, build(8, BP, BP, kind="plain", rank=8))
    assert (towers_of(plain.state, 0)[0]["kind"], plain.state.pending.action) == ("plain", "income")
    colorful = play(state, build(8, BP, BP, kind="colorful", rank=8))
    assert towers_of(colorful.state, 0)[0]["kind"] == "colorful" and "donazione" not in event_types(colorful)
    assert rule_of(refused(state, build(8, BP, BP, kind="colorful", rank=9))) == "T-ACT-BUILD-2"
    assert rule_of(refused(state, build(8, BP, BP, kind="plain"))) == "T-NOB-BP"  # both are needed
    # Buona Pietra at the bottom: a plain 8, or colorful 10-9-8
    assert {m.get("rank") for m in moves(state) if m["type"] == "build" and m["cards"] == [BP, BP, "8"]} == {8, 10}


def test_T_NOB_BP_an_unambiguous_stack_takes_kind_and_rank_only_if_they_agree():
    state = nob(hands=[[8, 8, BP, BP], [6]], played=[[], ["mura"]])
    assert build(8, BP, 8) in moves(state)
    assert build(8, BP, 8, kind="plain", rank=8) not in moves(state)  # listed one way: without them
    bare = play(state, build(8, BP, 8))
    for given in ({"kind": "plain", "rank": 8}, {"kind": "plain"}, {"rank": 8}):
        same = play(state, build(8, BP, 8, **given))
        assert (same.state, same.events) == (bare.state, bare.events), given
    assert rule_of(refused(state, build(8, BP, 8, kind="colorful"))) == "T-ACT-BUILD-2"
    assert rule_of(refused(state, build(8, BP, 8, kind="plain", rank=9))) == "T-ACT-BUILD-2"


def test_T_NOB_BP_a_tower_needs_a_tower_card():
    state = nob(hands=[[BP, BP, BP, 5], [6]], played=[[], ["mura", "monumento"]])
    assert rule_of(refused(state, build(BP, BP, BP))) == "T-NOB-BP"
    assert not any(m["type"] == "build" and m["cards"] == [BP] * 3 for m in moves(state))
    doc = state_dict(nobles=True, towers=[[[BP, BP, BP]], []], played=[[], ["mura", "monumento"]])
    assert "T-NOB-BP" in error_rules(doc)


def test_T_NOB_BP_other_nobles_are_no_stories_a_build_of_nobles_only_is_refused():
    state = nob(hands=[[VF, VF, BP, 5], [6]])
    outcome = torri.apply_steps(state, [build(VF, VF, BP)])
    assert not outcome.legal
    assert outcome.violations[0].rule in {"T-NOB-BP", "T-ACT-BUILD-2", "T-ACT-BUILD-3"}


def test_T_NOB_BP_other_nobles_are_no_stories_a_state_with_one_in_a_tower_is_invalid():
    doc = state_dict(nobles=True, towers=[[[BP, BP, "monumento"]], []], played=[[], ["mura"]])
    assert error_rules(doc)


def test_T_NOB_BP_is_never_a_guard():
    trade = nob(hands=[[9, 9, 9], [BP, 6, 7]])
    outcome = play(trade, build("9x3"))
    assert outcome.state.pending.type == "take"  # no Guard window: the hand holds no 5
    assert rule_of(refused(outcome.state, GUARD)) == "T-TURN-2"
    conspiracy = nob(hands=[["10x3"], [BP]], towers=[[], ["8x3"]])
    assert events_of(play(conspiracy, build("10x3")), "destroyed")


def test_T_NOB_BP_extends_plain_and_colorful_towers():
    state = nob(hands=[[BP, 8, 5], [6]], towers=[["8x3", "9-7"], []])
    plain = play(state, extend(0, BP, 8)).state
    assert towers_of(plain, 0)[0] == {"cards": ["8", "8", "8", BP, "8"], "complete": False, "kind": "plain",
                                      "rank": 8}
    assert plain.pending.action == "extend" and plain.pending.left == 2
    assert rule_of(refused(state, extend(0, BP, 5))) == "T-ACT-EXTEND-1"
    colorful = play(state, extend(1, BP, 5)).state
    assert towers_of(colorful, 0)[1]["cards"] == ["9", "8", "7", BP, "5"]


def test_T_NOB_BP_of_a_destroyed_tower_goes_to_the_top_of_the_noble_deck():
    state = nob(hands=[["10x4"], [6]], towers=[[], [[8, BP, 8, BP]]], played=[["mura"], []],
                noble_deck=["monumento"])
    outcome = play(state, build("10x4"))
    doc = js(outcome.state)
    assert events_of(outcome, "destroyed")[0]["cards"] == ["8", BP, "8", BP]
    assert doc["noble_deck"][:3] == [BP, BP, "monumento"]
    assert doc["deck"][:2] == ["8", "8"]
    assert error_rules(doc) == set()


# ---------------------------------------------------------------- T-NOB-VF

def test_T_NOB_VF_draws_from_either_deck_one_at_a_time_until_the_hand_limit():
    state = nob(hands=[[VF, 5, 6], [7]], deck_top=[9, 8], noble_deck=["mura", "monumento"])
    started = play(state, noble(VF)).state
    assert js(started)["pending"] == {"type": "draw", "action": "via_francigena", "player": 0, "left": 5,
                                      "from": ["deck", "noble_deck"], "excluded": []}
    assert moves(started) == [DECK, NOBLE_DECK, STOP]
    assert rule_of(refused(started, market(10))) == "T-NOB-VF"
    done = play(started, DECK, NOBLE_DECK, DECK, NOBLE_DECK, DECK)
    assert hand(done.state, 0) == ["5", "5", "6", "8", "9", "monumento", "mura"]
    assert done.state.turn == 1 and done.state.pending is None
    assert played(done.state, 0) == [VF]


def test_T_NOB_VF_the_player_may_stop_at_any_draw():
    state = nob(hands=[[VF, 5, 6], [7]], noble_deck=["mura"])
    outcome = play(state, noble(VF), NOBLE_DECK, STOP)
    assert hand(outcome.state, 0) == ["5", "6", "mura"]
    assert event_types(outcome)[-2:] == ["stopped", "turn"]
    at_once = play(state, noble(VF), STOP).state
    assert hand(at_once, 0) == ["5", "6"] and played(at_once, 0) == [VF] and at_once.turn == 1


def test_T_NOB_VF_draws_to_9_with_mura():
    state = nob(hands=[[VF, 5], [7]], played=[["mura"], ["monumento"]])
    started = play(state, noble(VF)).state
    assert started.pending.left == 8


def test_T_NOB_VF_stop_ends_only_a_via_francigena():
    state = nob(hands=[[5], [7]])
    assert rule_of(refused(state, PURCHASE, STOP)) == "T-TURN-2"
    assert rule_of(refused(state, STOP)) == "T-TURN-1"


# ---------------------------------------------------------------- T-NOB-MON

def test_T_NOB_MON_scores_7_points_at_the_game_end():
    state = nob(hands=[["monumento", 5], [6]])
    over = play(state, noble("monumento"), PASS, PASS).state
    assert over.phase == "over"
    first, second = torri.score(over).to_json()["players"]
    assert (first["categories"]["monumento"], first["total"]) == (7, 7)
    assert second["categories"]["monumento"] == 0
    assert torri.score(state).players[0].categories["monumento"] == 0  # in hand it scores nothing


# ---------------------------------------------------------------- T-NOB-SF

def test_T_NOB_SF_scores_5_per_tower_of_at_least_5_stories_complete_or_not():
    state = nob(hands=[["cappella"], [6]], towers=[["8x5", "9x6*", "6x4", [10, BP, 10, 10, 10]], ["7x5"]],
                played=[[], ["mura"]])
    after = play(state, noble("cappella")).state
    first, second = torri.score(after).players
    assert first.categories["cappella"] == 15  # 8x5, 9x6 (complete) and the 10 tower with a Buona Pietra; not 6x4
    assert second.categories["cappella"] == 0  # the opponent's 7x5 scores nothing without a Cappella
    assert torri.score(state).players[0].categories["cappella"] == 0


# ---------------------------------------------------------------- T-NOB-PC

def test_T_NOB_PC_costs_two_cards_to_the_bottoms_of_their_own_decks():
    state = nob(hands=[["palazzo", 5, "mura", 9], [6]], towers=[["8x3"], []], noble_deck=["cappella"])
    outcome = play(state, noble("palazzo", ["5", "mura"]))
    doc = js(outcome.state)
    assert doc["deck"][-1] == "5"
    assert doc["noble_deck"][0] == "cappella" and doc["noble_deck"][-1] == "mura"
    assert hand(outcome.state, 0) == ["9"]
    assert doc["players"][0]["played"] == ["palazzo"] and doc["palazzo"] == 0
    assert events_of(outcome, "noble")[0]["cost"] == ["5", "mura"]


def test_T_NOB_PC_costs_exactly_two_other_cards_from_hand():
    state = nob(hands=[["palazzo", 5, 6, "mura"], [7]], towers=[["8x3"], []])
    for cost in ([], ["5"], ["5", "6", "mura"], ["5", "10"], ["palazzo", "5"]):
        assert rule_of(refused(state, noble("palazzo", cost))) == "T-NOB-PC", cost
    assert rule_of(refused(state, noble("palazzo"))) == "T-NOB-PC"
    costs = sorted(m.get("cost", []) for m in noble_moves(state) if m["card"] == "palazzo")
    assert costs == [["5", "6"], ["5", "mura"], ["6", "mura"]]


def test_T_NOB_PC_caps_the_opponents_builds_and_extensions_at_the_owners_tallest():
    state = nob(hands=[["palazzo", 5, 6, 8], ["6x5", 7, 7]], towers=[["5x3", "8x4"], ["7x3"]])
    capped = play(state, noble("palazzo", ["5", "6"])).state
    assert rule_of(refused(capped, build("6x5"))) == "T-NOB-PC"
    assert rule_of(refused(capped, extend(0, 7, 7))) == "T-NOB-PC"
    listed = moves(capped)
    assert build("6x5") not in listed and build("6x4") in listed and build("6x3") in listed
    assert extend(0, 7, 7) not in listed and extend(0, 7) in listed
    # the cap is the owner's tallest at the time of the build: it rises with the owner's towers
    raised = play(capped, PASS, extend(1, 8), DECK).state
    assert build("6x5") in moves(raised)
    assert towers_of(play(raised, build("6x5")).state, 1)[1]["cards"] == ["6"] * 5


def test_T_NOB_PC_does_not_cap_its_owner():
    state = nob(hands=[["palazzo", 5, 6, "7x4"], [6]], towers=[["8x3"], []], played=[[], ["mura"]])
    after = play(state, noble("palazzo", ["5", "6"]), PASS).state
    assert build("7x4") in moves(after)


def test_T_NOB_PC_fizzles_when_the_opponent_already_has_a_taller_tower():
    state = nob(hands=[["palazzo", 5, 6], ["6x5"]], towers=[["8x3"], ["7x4"]])
    palazzo = noble_moves(state)
    assert noble("palazzo") in palazzo and noble("palazzo", ["5", "6"]) in palazzo
    assert rule_of(refused(state, noble("palazzo", ["5"]))) == "T-NOB-PC"  # 0 or 2, never 1
    free = play(state, noble("palazzo"))
    doc = js(free.state)
    assert events_of(free, "noble")[0]["fizzled"] is True
    assert doc["removed"] == ["palazzo"] and doc["palazzo"] is None and doc["players"][0]["played"] == []
    assert hand(free.state, 0) == ["5", "6"] and torri.nobles_used(free.state.players[0]) == 0
    assert build("6x5") in moves(free.state)  # no lasting effect: no cap
    paid = js(play(state, noble("palazzo", ["5", "6"])).state)
    assert paid["deck"][-2:] == ["5", "6"] and paid["removed"] == ["palazzo"] and paid["palazzo"] is None


def test_T_NOB_PC_a_tie_does_not_fizzle():
    state = nob(hands=[["palazzo", 5, 6], [7]], towers=[["8x3"], ["7x3"]])
    assert rule_of(refused(state, noble("palazzo"))) == "T-NOB-PC"
    assert js(play(state, noble("palazzo", ["5", "6"])).state)["palazzo"] == 0


def test_T_NOB_PC_the_palazzo_is_not_part_of_its_own_cost_even_in_an_unknown_hand():
    full = nob(hands=[[5], ["palazzo", 6, 7]], turn=1)
    view = torri.player_view(full, 0)  # player 1's hand is unknown to this referee
    step = noble("palazzo", ["palazzo", "6"])
    assert torri.parse_step(step) not in torri.legal_steps(view)
    assert not torri.apply_steps(view, [step]).legal


# ---------------------------------------------------------------- T-NOB-MURA

def test_T_NOB_MURA_raises_the_hand_limit_to_9():
    seven = nob(hands=[[5, 6, 7, 8, 9, 10, "monumento"], [6]], played=[["mura"], []])
    assert "purchase" in move_types(seven)
    nine = play(seven, PURCHASE, DECK, NOBLE_DECK).state
    assert len(hand(nine, 0)) == 9 and error_rules(js(nine)) == set()
    eight = nob(hands=[[5, 5, 6, 7, 8, 9, 10, "monumento"], [6]], played=[["mura"], []])
    assert rule_of(refused(eight, PURCHASE)) == "T-ACT-PURCHASE-2"  # 10 would be over 9


def test_T_NOB_MURA_a_hand_of_8_may_purchase_the_last_card_of_the_deck():
    state = make(nobles=True, hands=[[5, 5, 6, 7, 8, 9, 10, "monumento"], [6]], played=[["mura"], []], deck=[7],
                 fill="market")
    assert "purchase" in move_types(state)
    after = play(state, PURCHASE, DECK).state
    assert len(hand(after, 0)) == 9 and after.phase == "ending"


def test_T_NOB_MURA_only_once_played():
    held = nob(hands=[[5, 6, 7, 8, 9, 10, "mura"], [6]])
    assert "purchase" not in move_types(held)
    assert rule_of(refused(held, PURCHASE)) == "T-ACT-PURCHASE-2"
    after = play(held, noble("mura")).state
    assert after.players[0].hand_limit == 9


def test_T_NOB_MURA_limit_in_a_state():
    assert error_rules(state_dict(nobles=True, hands=[["5x4", "6x5"], [7]], played=[["mura"], []])) == set()
    assert "T-SETUP-4" in error_rules(state_dict(nobles=True, hands=[["5x3", "6x5"], [7]]))
    assert "T-SETUP-4" in error_rules(state_dict(nobles=True, hands=[["5x5", "6x5"], [7]], played=[["mura"], []]))


# ---------------------------------------------------------------- T-NOB-GIOSTRA

ACTION_NOBLES = ["monumento", "cappella", "mura", VF, "palazzo"]


@pytest.mark.parametrize("card", ACTION_NOBLES)
def test_T_NOB_GIOSTRA_cancels_an_action_noble_which_is_removed_and_not_counted(card):
    state = nob(hands=[[card, 5, 6], ["giostra", 7]], towers=[["8x3"], []])
    step = noble(card, ["5", "6"] if card == "palazzo" else None)
    window = play(state, step).state
    assert js(window)["pending"] == {"type": "giostra", "action": card, "player": 0}
    assert window.to_act == 1 and moves(window) == [GIOSTRA, DECLINE]
    outcome = play(window, GIOSTRA)
    doc = js(outcome.state)
    assert doc["removed"] == [card] and doc["palazzo"] is None and doc["pending"] is None
    assert doc["players"][0]["played"] == [] and doc["players"][1]["played"] == ["giostra"]
    assert [torri.nobles_used(p) for p in outcome.state.players] == [0, 1]
    assert events_of(outcome, "cancelled")[0]["card"] == card
    # the cancelled noble did nothing: no draws, no hand limit of 9; a Palazzo's cost stays paid
    assert hand(outcome.state, 0) == ([] if card == "palazzo" else ["5", "6"])
    assert outcome.state.players[0].hand_limit == 7
    # Giostra is not an action: it is now player 1's turn, with every action open
    assert outcome.state.turn == 1 and outcome.state.to_act == 1 and "purchase" in move_types(outcome.state)
    assert error_rules(doc) == set()


@pytest.mark.parametrize("card", ACTION_NOBLES)
def test_T_NOB_GIOSTRA_declined_the_noble_acts(card):
    state = nob(hands=[[card, 5, 6], ["giostra", 7]], towers=[["8x3"], []])
    step = noble(card, ["5", "6"] if card == "palazzo" else None)
    after = play(state, step, DECLINE).state
    assert played(after, 0) == [card] and played(after, 1) == []
    assert hand(after, 1) == ["7", "giostra"]
    if card == VF:
        assert after.pending.action == "via_francigena" and after.to_act == 0
    else:
        assert after.pending is None and after.turn == 1
    if card == "palazzo":
        assert js(after)["palazzo"] == 0


def test_T_NOB_GIOSTRA_a_cancelled_palazzos_cost_stays_paid_and_nothing_is_capped():
    state = nob(hands=[["palazzo", 5, 6], ["giostra", "6x5"]], towers=[["8x3"], []])
    after = play(state, noble("palazzo", ["5", "6"]), GIOSTRA).state
    doc = js(after)
    assert doc["deck"][-2:] == ["5", "6"] and hand(after, 0) == []
    assert doc["palazzo"] is None and doc["removed"] == ["palazzo"]
    assert build("6x5") in moves(after)


def test_T_NOB_GIOSTRA_a_cancelled_buona_pietra_build_rebuilds_with_the_rest_if_legal():
    state = nob(hands=[[10, 9, 8, BP], ["giostra", 6]])
    cancelled = play(state, build(10, 9, 8, BP), GIOSTRA).state
    assert js(cancelled)["removed"] == [BP] and played(cancelled, 1) == ["giostra"]
    assert js(cancelled)["pending"] == {"type": "rebuild", "action": "build", "player": 0, "cards": ["8", "9", "10"]}
    assert cancelled.to_act == 0
    assert moves(cancelled) == [build(10, 9, 8), STOP]
    after = play(cancelled, build(10, 9, 8)).state
    assert towers_of(after, 0)[0]["cards"] == ["10", "9", "8"] and after.turn == 1 and after.pending is None


def test_T_NOB_GIOSTRA_a_cancelled_buona_pietra_build_otherwise_goes_back_to_hand():
    state = nob(hands=[[9, BP, 7, 5], ["giostra", 6]])
    cancelled = play(state, build(9, BP, 7), GIOSTRA).state
    assert moves(cancelled) == [STOP]  # 9 and 7 alone are no tower
    assert rule_of(refused(cancelled, build(9, 7, 5))) == "T-NOB-GIOSTRA"
    outcome = play(cancelled, STOP)
    assert hand(outcome.state, 0) == ["5", "7", "9"] and towers_of(outcome.state, 0) == []
    assert outcome.state.turn == 1


def test_T_NOB_GIOSTRA_several_buona_pietra_open_one_window_that_removes_one():
    state = nob(hands=[[8, 8, BP, BP], ["giostra", 6]], played=[[], ["mura"]])
    window = play(state, build(8, BP, 8, BP)).state
    assert window.pending.type == "giostra"
    cancelled = play(window, GIOSTRA).state
    doc = js(cancelled)
    assert doc["removed"] == [BP]
    assert doc["pending"] == {"type": "rebuild", "action": "build", "player": 0, "cards": ["8", "8", BP]}
    listed = moves(cancelled)
    assert all(step in listed for step in (build(8, 8, BP), build(8, BP, 8), build(BP, 8, 8), STOP))
    rebuilt = play(cancelled, build(8, BP, 8))
    assert "giostra" not in event_types(rebuilt)  # no second window
    assert towers_of(rebuilt.state, 0)[0]["cards"] == ["8", BP, "8"]
    assert rebuilt.state.pending.action == "income" and rebuilt.state.pending.left == 3


def test_T_NOB_GIOSTRA_answers_only_a_noble_and_only_from_hand():
    state = nob(hands=[[8, 8, 8], ["giostra", 6]])
    assert play(state, build("8x3")).state.pending.type == "draw"  # no noble, no window
    without = nob(hands=[["monumento", 5], [6]])
    assert play(without, noble("monumento")).state.pending is None  # nobody holds Giostra
    assert rule_of(refused(state, GIOSTRA)) == "T-TURN-1"
    assert rule_of(refused(state, noble("giostra"))) == "T-NOB-GIOSTRA"


def test_T_NOB_GIOSTRA_cancels_a_buona_pietra_extension_onto_the_same_tower():
    state = nob(hands=[[9, BP, 5], ["giostra", 6]], towers=[["10x3"], []])
    cancelled = play(state, extend(0, BP), GIOSTRA).state
    assert js(cancelled)["pending"] == {"type": "rebuild", "action": "extend", "player": 0, "cards": [],
                                        "tower": 0}
    assert moves(cancelled) == [STOP]
    assert towers_of(play(cancelled, STOP).state, 0)[0]["cards"] == ["10"] * 3
