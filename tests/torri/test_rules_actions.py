"""Per-rule tests, base game: the actions (T-ACT-*), short draws (T-DRAW-SHORT) and the Ending phase (T-END-*)."""
from __future__ import annotations


from service.games import torri
from tests.torri.helpers import (CLOSE, DECK, PASS, PURCHASE, build, complete, error_rules, event_types, events_of,
                                 exchange, extend, hand, js, make, market, move_types, moves, play, refused, rule_of,
                                 state_dict, towers_of)


def ending(**kwargs) -> torri.State:
    """An Ending-phase position (the deck ran out: every card not placed lies in the market)."""
    return make(deck=[], fill="market", phase="ending", **kwargs)


# A main-phase position whose deck holds one card, and whose market the caller sets (everything else is built).
#   9s: 3 seen here, 6 in a tower; 8s: 3 here, 5 in a tower; 7: 1 in the deck, 6 in a tower; 5: 1 in hand, 4 built.
THIN_DECK = dict(hands=[[9, 8, 5], []], market=[9, 9, 8, 8], deck=[7],
                 towers=[["10x10*", "9x6*", "6x6*"], ["8x5*", "7x6*", "5x4*"]])


# ---------------------------------------------------------------- Purchase

def test_T_ACT_PURCHASE_1_draw_two_cards_one_at_a_time():
    state = make(hands=[[5], []], market=[9, 9, 10, 10], deck_top=[6, 7])
    started = play(state, PURCHASE)
    assert started.events[0] == {"type": "purchase", "player": 0, "draws": 2, "step": 0}
    assert js(started.state)["pending"] == {"type": "draw", "action": "purchase", "player": 0, "left": 2,
                                            "from": ["deck", "market"], "excluded": []}
    done = play(started.state, DECK, market(10)).state
    assert hand(done, 0) == ["5", "6", "10"]
    assert js(done)["market"] == ["9", "9", "10"] and js(done)["deck"][0] == "7"
    assert done.turn == 1
    assert rule_of(refused(done, PASS, PURCHASE, DECK, DECK, DECK)) == "T-TURN-1"  # two draws, not three


def test_T_ACT_PURCHASE_1_a_purchase_never_owes_more_than_two_draws():
    doc = state_dict(hands=[[7], [5]], pending={"type": "draw", "action": "purchase", "player": 0, "left": 3,
                                                "from": ["deck", "market"]})
    assert error_rules(doc) & {"T-ACT-PURCHASE-1", "T-TURN-4", "T-TURN-2"}


def test_T_ACT_PURCHASE_2_illegal_if_the_hand_would_exceed_7():
    six = make(hands=[["5x3", "6x3"], []])
    outcome = refused(six, PURCHASE)
    assert rule_of(outcome) == "T-ACT-PURCHASE-2"
    assert outcome.state is six
    assert "purchase" not in move_types(six)
    five = make(hands=[["5x3", "6x2"], []])
    assert "purchase" in move_types(five)
    assert len(hand(play(five, PURCHASE, DECK, DECK).state, 0)) == 7


def test_T_ACT_PURCHASE_3_one_card_deck_draws_only_it():
    state = make(**THIN_DECK)
    started = play(state, PURCHASE)
    assert started.state.pending.left == 1
    assert js(started.state)["pending"]["from"] == ["deck"]
    assert moves(started.state) == [{"type": "draw", "from": "deck"}]
    assert rule_of(refused(started.state, market(9))) == "T-ACT-PURCHASE-3"
    done = play(started.state, DECK).state
    assert hand(done, 0) == ["5", "7", "8", "9"]
    assert js(done)["deck"] == [] and done.phase == "ending"


def test_T_ACT_PURCHASE_3_a_one_card_deck_lets_a_hand_of_6_purchase():
    doc = state_dict(**{**THIN_DECK, "hands": [[9, 8, 5, 6, 6, 6], []],
                        "towers": [["10x10*", "9x6*", "6x3*"], ["8x5*", "7x6*", "5x4*"]]})
    state = torri.read_state(doc)
    assert "purchase" in move_types(state)
    assert len(hand(play(state, PURCHASE, DECK).state, 0)) == 7


def test_T_ACT_PURCHASE_4_no_purchase_in_the_ending_phase():
    state = ending(hands=[[5], []])
    assert rule_of(refused(state, PURCHASE)) == "T-ACT-PURCHASE-4"
    assert "purchase" not in move_types(state)


# ---------------------------------------------------------------- Exchange

def test_T_ACT_EXCHANGE_1_put_two_or_more_down_then_draw_as_many():
    state = make(hands=[[5, 6, 7], []], market=[9, 9, 10, 10], deck_top=[8, 8])
    outcome = play(state, exchange(5, 6))
    after = outcome.state
    assert hand(after, 0) == ["7"]
    assert js(after)["market"] == ["5", "6", "9", "9", "10", "10"]
    assert (after.pending.action, after.pending.left, after.turn) == ("exchange", 2, 0)
    done = play(after, DECK, market(10)).state
    assert hand(done, 0) == ["7", "8", "10"] and done.turn == 1


def test_T_ACT_EXCHANGE_1_at_least_two_cards_from_hand():
    state = make(hands=[[5, 6, 7], []], market=[9, 9, 10, 10])
    assert rule_of(refused(state, exchange(5))) == "T-ACT-EXCHANGE-1"
    assert rule_of(refused(state, exchange(5, 8))) == "T-ACT-EXCHANGE-1"  # no 8 in hand
    assert rule_of(refused(state, exchange(5, 5))) == "T-ACT-EXCHANGE-1"  # only one 5
    assert all(len(m["cards"]) >= 2 for m in moves(state) if m["type"] == "exchange")


def test_T_ACT_EXCHANGE_2_no_market_card_of_a_rank_put_down():
    state = make(hands=[[9, 8, 5], []], market=[9, 10, 7, 8])
    started = play(state, exchange(9, 8)).state
    assert rule_of(refused(started, market(9))) == "T-ACT-EXCHANGE-2"
    assert rule_of(refused(started, market(8))) == "T-ACT-EXCHANGE-2"
    assert {"type": "draw", "from": "market", "card": "9"} not in moves(started)
    assert {"type": "draw", "from": "market", "card": "8"} not in moves(started)
    done = play(started, market(10), market(7)).state
    assert hand(done, 0) == ["5", "7", "10"]


def test_T_ACT_EXCHANGE_3_enough_cards_must_be_drawable():
    state = make(**THIN_DECK)  # deck 1 card; market 9, 9, 8, 8
    # putting down a 9 and an 8 bars every market card: only the deck's one card could come back
    assert rule_of(refused(state, exchange(9, 8))) == "T-ACT-EXCHANGE-3"
    assert {"type": "exchange", "cards": ["8", "9"]} not in moves(state)
    # putting down a 9 and a 5 leaves the two 8s drawable
    assert {"type": "exchange", "cards": ["5", "9"]} in moves(state)
    play(state, exchange(9, 5), market(8), market(8))


def test_T_ACT_EXCHANGE_4_no_exchange_in_the_ending_phase():
    state = ending(hands=[[5, 6], []])
    assert rule_of(refused(state, exchange(5, 6))) == "T-ACT-EXCHANGE-4"
    assert "exchange" not in move_types(state)


# ---------------------------------------------------------------- Build

def test_T_ACT_BUILD_1_three_or_more_cards_from_hand_as_a_new_incomplete_tower():
    state = make(hands=[[5, 5, 5, 5, 6], []])
    assert rule_of(refused(state, build(5, 5))) == "T-ACT-BUILD-1"
    assert rule_of(refused(state, build(6, 6, 6))) == "T-ACT-BUILD-1"  # not in hand
    outcome = play(state, build(5, 5, 5, 5))
    assert towers_of(outcome.state, 0) == [{"cards": ["5", "5", "5", "5"], "complete": False, "kind": "plain",
                                            "rank": 5}]
    assert hand(outcome.state, 0) == ["6"]
    assert outcome.events[0]["type"] == "built"


def test_T_ACT_BUILD_2_a_plain_tower_is_one_rank():
    state = make(hands=[[6, 6, 6, 7], []])
    assert rule_of(refused(state, build(6, 6, 7))) == "T-ACT-BUILD-2"
    assert rule_of(refused(state, build(6, 7, 6))) == "T-ACT-BUILD-2"
    assert towers_of(play(state, build(6, 6, 6)).state, 0)[0]["kind"] == "plain"


def test_T_ACT_BUILD_3_a_colorful_tower_descends_one_rank_a_story():
    state = make(hands=[[10, 9, 8, 7, 6, 5], []])
    assert rule_of(refused(state, build(7, 8, 9))) == "T-ACT-BUILD-3"  # ascending
    assert rule_of(refused(state, build(9, 7, 6))) == "T-ACT-BUILD-3"  # a rank skipped
    assert rule_of(refused(make(hands=[[9, 9, 8], []]), build(9, 8, 9))) == "T-ACT-BUILD-2"  # neither kind
    tower = towers_of(play(state, build(10, 9, 8, 7, 6, 5)).state, 0)[0]
    assert (tower["kind"], tower["rank"], len(tower["cards"])) == ("colorful", 10, 6)
    tower = towers_of(play(state, build(7, 6, 5)).state, 0)[0]
    assert (tower["kind"], tower["rank"]) == ("colorful", 7)
    assert {"type": "build", "cards": ["9", "8", "7"]} in moves(state)


def test_T_ACT_BUILD_4_plain_5_6_7_and_colorful_towers_have_no_effect_when_built():
    for cards_, stack in (("5x3", build(5, 5, 5)), ("6x3", build(6, 6, 6)), ("7x3", build(7, 7, 7)),
                          ([10, 9, 8], build(10, 9, 8))):
        state = make(hands=[[cards_, 9], [5, 6]], towers=[[], ["9-7"]], highest=1)
        outcome = play(state, stack)
        assert "donazione" not in event_types(outcome)
        assert outcome.state.pending is None and outcome.state.turn == 1
        assert hand(outcome.state, 1) == ["5", "6"] and len(towers_of(outcome.state, 1)) == 1


def test_T_ACT_BUILD_4_a_plain_8_9_or_10_triggers_its_donazione_once():
    state = make(hands=[["8x4", "9x3"], [6]], towers=[[], ["7x3"]], highest=1)
    income = play(state, build("8x4"))
    assert [e["effect"] for e in events_of(income, "donazione")] == ["income"]
    assert income.state.pending.left == 4  # once, drawing as many as the tower has stories
    trade = play(state, build("9x3"))
    assert [e["effect"] for e in events_of(trade, "donazione")] == ["trade"]
    ten = make(hands=[["10x3"], []], towers=[[], ["7x3"]], highest=1)
    conspiracy = play(ten, build("10x3"))
    assert [e["effect"] for e in events_of(conspiracy, "donazione")] == ["conspiracy"]
    assert events_of(conspiracy, "destroyed")[0]["player"] == 1


def test_T_ACT_BUILD_4_no_donazione_in_the_ending_phase():
    state = ending(hands=[["10x3", "8x3"], [6]], towers=[[], ["7x3"]], highest=1)
    for stack in (build("10x3"), build("8x3")):
        outcome = play(state, stack)
        assert "donazione" not in event_types(outcome)
        assert outcome.state.pending is None and outcome.state.turn == 1
        assert towers_of(outcome.state, 1) == towers_of(state, 1)


def test_T_ACT_BUILD_5_the_marker_first_then_donazione():
    # Player 1 holds the marker with a 3-story tower. Player 0 builds a plain 10 of 3: a tie, so the marker
    # stays (T-HIGH-4); then the Conspiracy destroys player 1's tower. Had Donazione come first, player 0's
    # tower would then be the tallest and take the marker.
    state = make(hands=[["10x3"], [6]], towers=[[], ["9-7"]], highest=1)
    outcome = play(state, build("10x3"))
    assert event_types(outcome)[:3] == ["built", "donazione", "targeted"]
    assert events_of(outcome, "destroyed")
    assert outcome.state.highest == 1
    # and when the build does take the marker, it is taken before the Donazione acts
    taller = make(hands=[["8x4"], [6]], towers=[[], ["9-7"]], highest=1)
    income = play(taller, build("8x4"))
    assert event_types(income) == ["built", "marker", "donazione"]
    assert income.state.highest == 0 and income.state.pending.action == "income"


def test_T_ACT_BUILD_6_any_number_of_identical_towers():
    state = make(hands=[["6x3", 7], [5]], towers=[["6x3"], []])
    after = play(state, build(6, 6, 6)).state
    assert [t["cards"] for t in towers_of(after, 0)] == [["6", "6", "6"], ["6", "6", "6"]]
    assert error_rules(js(after)) == set()


# ---------------------------------------------------------------- Extend

def test_T_ACT_EXTEND_1_same_rank_on_a_plain_tower():
    state = make(hands=[[7, 7, 8], []], towers=[["7x3"], []])
    assert rule_of(refused(state, extend(0, 8))) == "T-ACT-EXTEND-1"
    assert rule_of(refused(state, extend(0, 7, 8))) == "T-ACT-EXTEND-1"
    assert rule_of(refused(state, extend(0))) == "T-ACT-EXTEND-1"
    after = play(state, extend(0, 7, 7)).state
    assert towers_of(after, 0)[0]["cards"] == ["7"] * 5
    assert hand(after, 0) == ["8"]


def test_T_ACT_EXTEND_1_next_lower_ranks_in_order_on_a_colorful_tower():
    state = make(hands=[[7, 6, 5, 9], []], towers=[["10-8"], []])
    assert rule_of(refused(state, extend(0, 6))) == "T-ACT-EXTEND-1"  # 7 is next
    assert rule_of(refused(state, extend(0, 6, 7))) == "T-ACT-EXTEND-1"  # wrong order
    assert rule_of(refused(state, extend(0, 9))) == "T-ACT-EXTEND-1"  # upward
    after = play(state, extend(0, 7, 6, 5)).state
    assert towers_of(after, 0)[0]["cards"] == ["10", "9", "8", "7", "6", "5"]
    assert {"type": "extend", "tower": 0, "cards": ["7", "6"]} in moves(state)


def test_T_ACT_EXTEND_1_only_ones_own_towers():
    state = make(hands=[[7], [5]], towers=[[], ["7x3"]], highest=1)
    assert rule_of(refused(state, extend(0, 7))) == "T-ACT-EXTEND-1"  # player 0 has no tower 0
    assert "extend" not in move_types(state)


def test_T_ACT_EXTEND_2_draw_as_many_as_added_even_of_the_same_rank():
    state = make(hands=[[7, 7, 5], []], towers=[["7x3"], []], market=[7, 9, 10, 10], deck_top=[6])
    started = play(state, extend(0, 7, 7)).state
    assert (started.pending.action, started.pending.left) == ("extend", 2)
    assert {"type": "draw", "from": "market", "card": "7"} in moves(started)
    done = play(started, market(7), DECK).state
    assert hand(done, 0) == ["5", "6", "7"] and done.turn == 1


def test_T_ACT_EXTEND_2_no_draw_in_the_ending_phase():
    state = ending(hands=[[7, 7, 5], []], towers=[["7x3"], []])
    outcome = play(state, extend(0, 7))
    assert outcome.state.pending is None and outcome.state.turn == 1
    assert hand(outcome.state, 0) == ["5", "7"]
    assert "drew" not in event_types(outcome)


def test_T_ACT_EXTEND_3_extending_never_triggers_donazione_and_takes_the_marker():
    state = make(hands=[[10, 8], [6]], towers=[["10x3", "8x3"], ["9-7"]], highest=1)
    for step in (extend(0, 10), extend(1, 8)):
        outcome = play(state, step)
        assert "donazione" not in event_types(outcome)
        assert towers_of(outcome.state, 1) == towers_of(state, 1)
        assert outcome.state.pending.action == "extend" and outcome.state.pending.left == 1
        assert events_of(outcome, "marker") == [{"type": "marker", "player": 0, "height": 4, "step": 0}]
        assert outcome.state.highest == 0


# ---------------------------------------------------------------- T-DRAW-SHORT

# Everything built except a plain 7 of 3, with three more 7s in hand: the deck holds one 5, the market one 9.
SHORT = dict(hands=[[7, 7, 7], [7]], towers=[["7x3"], ["10x10*", "9x8*", "8x8*", "6x6*", "5x4*"]],
             deck=[5], market=[9], highest=1)


def test_T_DRAW_SHORT_an_extension_draws_all_there_are():
    state = make(**SHORT)
    started = play(state, extend(0, 7, 7, 7)).state
    assert started.pending.left == 2  # three owed, two cards left in deck and market together
    done = play(started, DECK, market(9)).state
    assert hand(done, 0) == ["5", "9"] and done.phase == "ending"


def test_T_DRAW_SHORT_income_draws_all_there_are():
    state = make(hands=[["8x3"], [7, 7, 7]], towers=[["7x3*"], ["10x10*", "9x9*", "6x6*", "5x5*", "8x4*"]],
                 deck=[7], market=[8])
    started = play(state, build(8, 8, 8))
    assert events_of(started, "donazione")[0]["draws"] == 2
    assert started.state.pending.left == 2
    assert hand(play(started.state, DECK, market(8)).state, 0) == ["7", "8"]


def test_T_DRAW_SHORT_no_draw_from_an_empty_deck():
    state = make(**SHORT)
    started = play(state, extend(0, 7, 7, 7), DECK).state  # one draw left; the deck is empty now
    assert started.pending.left == 1 and js(started)["deck"] == []
    assert rule_of(refused(started, DECK)) == "T-DRAW-SHORT"
    assert moves(started) == [{"type": "draw", "from": "market", "card": "9"}]


def test_T_DRAW_SHORT_a_pending_draw_cannot_owe_more_than_there_is():
    doc = state_dict(**{**SHORT, "hands": [[7, 7], [7]], "towers": [["7x4"], SHORT["towers"][1]]}, pending={
        "type": "draw", "action": "extend", "player": 0, "left": 3, "from": ["deck", "market"]})
    assert "T-DRAW-SHORT" in error_rules(doc)
    doc["pending"]["left"] = 2
    assert error_rules(doc) == set()


# ---------------------------------------------------------------- Complete

def test_T_ACT_COMPLETE_1_flip_one_or_more_own_incomplete_towers():
    state = make(hands=[[5], []], towers=[["5x3", "9-7", "8x3"], []])
    outcome = play(state, complete(0, 2))
    assert [t["complete"] for t in towers_of(outcome.state, 0)] == [True, False, True]
    assert outcome.events[0] == {"type": "completed", "player": 0, "towers": [0, 2], "step": 0}
    assert outcome.state.turn == 1
    assert rule_of(refused(state, complete())) == "T-ACT-COMPLETE-1"
    assert rule_of(refused(state, complete(3))) == "T-ACT-COMPLETE-1"


def test_T_ACT_COMPLETE_1_a_complete_tower_cannot_be_completed_extended_or_destroyed():
    state = make(hands=[[8, "10x3"], [5, 6]], towers=[["8x3*"], ["9-7*"]])
    assert rule_of(refused(state, complete(0))) == "T-ACT-COMPLETE-1"
    assert rule_of(refused(state, extend(0, 8))) == "T-ACT-COMPLETE-1"
    assert not any(m["type"] in ("complete", "extend") for m in moves(state))
    outcome = play(state, build("10x3"))  # the Conspiracy finds no incomplete tower to destroy
    assert events_of(outcome, "no_target") and towers_of(outcome.state, 1)[0]["complete"]


def test_T_ACT_COMPLETE_2_no_completing_in_the_ending_phase():
    state = ending(hands=[[5], []], towers=[["5x3"], []])
    assert rule_of(refused(state, complete(0))) == "T-ACT-COMPLETE-2"
    assert "complete" not in move_types(state)


# ---------------------------------------------------------------- Close

def test_T_ACT_CLOSE_1_needs_four_complete_towers():
    three = make(hands=[[5], []], towers=[["5x3*", "6x3*", "7x3*", "8x3"], []])
    assert rule_of(refused(three, CLOSE)) == "T-ACT-CLOSE-1"
    assert "close" not in move_types(three)
    four = make(hands=[[5], []], towers=[["5x3*", "6x3*", "7x3*", "8x3*"], []])
    assert "close" in move_types(four)
    outcome = play(four, CLOSE)
    assert outcome.state.phase == "ending" and outcome.state.turn == 1
    assert event_types(outcome) == ["closed", "phase", "turn"]
    assert events_of(outcome, "phase")[0]["reason"] == "close"


def test_T_ACT_CLOSE_1_only_in_the_main_phase():
    state = ending(hands=[[5], []], towers=[["5x3*", "6x3*", "7x3*", "8x3*"], []])
    assert rule_of(refused(state, CLOSE)) == "T-ACT-CLOSE-1"
    assert "close" not in move_types(state)


def test_T_ACT_CLOSE_1_an_ending_phase_with_cards_in_the_deck_needs_a_closer():
    doc = state_dict(hands=[[5], []], towers=[["5x3*", "6x3*", "7x3*", "8x3"], []], phase="ending")
    assert "T-ACT-CLOSE-1" in error_rules(doc)
    doc = state_dict(hands=[[5], []], towers=[["5x3*", "6x3*", "7x3*", "8x3*"], []], phase="ending")
    assert error_rules(doc) == set()


# ---------------------------------------------------------------- Pass

def test_T_ACT_PASS_1_always_legal_on_ones_turn():
    for state in (make(hands=[[], []]), make(hands=[["5x4", "6x3"], []]), ending(hands=[[], []]),
                  make(hands=[[5], []], towers=[["5x3*", "6x3*", "7x3*", "8x3*"], []])):
        assert {"type": "pass"} in moves(state)
        outcome = play(state, PASS)
        assert (outcome.state.passes, outcome.state.turn) == (1, 1)
        assert outcome.events[0] == {"type": "passed", "player": 0, "step": 0}


# ---------------------------------------------------------------- T-END

def test_T_END_1_the_ending_phase_starts_when_the_deck_runs_out():
    state = make(**{**THIN_DECK, "hands": [[9, 8, 5], []]})
    outcome = play(state, exchange(9, 5), DECK, market(8))
    assert outcome.state.phase == "ending"
    assert events_of(outcome, "phase") == [{"type": "phase", "phase": "ending", "reason": "deck_empty", "step": 2}]


def test_T_END_1_checked_after_the_action_not_during_it():
    state = make(**THIN_DECK)
    mid = play(state, exchange(9, 5), DECK).state  # the deck is empty, a draw is still owed
    assert mid.phase == "main" and mid.pending.left == 1


def test_T_END_1_a_main_phase_with_an_empty_deck_is_not_a_real_position():
    doc = state_dict(hands=[[5], []], deck=[], fill="market")
    assert "T-END-1" in error_rules(doc)
    doc["phase"] = "ending"
    assert error_rules(doc) == set()


def test_T_END_2_only_build_extend_and_pass_remain():
    state = ending(hands=[["8x3", 5, 6], []], towers=[["5x3", "6x3*", "7x3*", "9x3*", "10x3*"], []])
    assert move_types(state) == {"build", "extend", "pass"}
    assert rule_of(refused(state, PURCHASE)) == "T-ACT-PURCHASE-4"
    assert rule_of(refused(state, exchange(5, 6))) == "T-ACT-EXCHANGE-4"
    assert rule_of(refused(state, complete(0))) == "T-ACT-COMPLETE-2"
    assert rule_of(refused(state, CLOSE)) == "T-ACT-CLOSE-1"


def test_T_END_2_no_drawing_and_no_donazione_but_the_marker_still_moves():
    state = ending(hands=[["8x4"], [6]], towers=[[], ["9-7"]], highest=1)
    outcome = play(state, build("8x4"))
    assert "donazione" not in event_types(outcome) and "drew" not in event_types(outcome)
    assert hand(outcome.state, 0) == []
    assert outcome.state.highest == 0
    assert events_of(outcome, "marker")[0]["height"] == 4


def test_T_END_2_nothing_that_draws_trades_or_destroys_can_be_pending():
    doc = state_dict(hands=[[5], []], deck=[], fill="market", phase="ending",
                     pending={"type": "draw", "action": "purchase", "player": 0, "left": 1, "from": ["market"]})
    assert "T-END-2" in error_rules(doc)


def test_T_END_4_the_game_ends_when_both_pass_in_a_row():
    state = ending(hands=[["5x3"], ["6x3"]])
    interrupted = play(state, PASS, build(6, 6, 6), PASS)
    assert interrupted.state.phase == "ending" and interrupted.state.passes == 1
    over = play(interrupted.state, PASS)
    assert over.state.phase == "over" and event_types(over) == ["passed", "game_over"]
