"""Per-rule tests, base game: the Highest marker (T-HIGH-*, T-SVC-MARKER) and Donazione (T-DON-*, T-SVC-EMPTY)."""
from __future__ import annotations

from itertools import combinations


from service.games import torri
from tests.torri.helpers import (DECK, DECLINE, GUARD, PASS, build, complete, error_rules, event_types, events_of,
                                 extend, give, hand, js, make, market, moves, play, refused, rule_of, state_dict,
                                 take, target, towers_of)


# ---------------------------------------------------------------- T-HIGH

def test_T_HIGH_1_height_counts_stories_not_ranks():
    state = make(hands=[[7, 6, "5x4"], []], towers=[[], ["10x3*"]], highest=1)
    outcome = play(state, build(5, 5, 5, 5))  # four 5s are taller than three 10s
    assert outcome.state.highest == 0
    assert events_of(outcome, "marker") == [{"type": "marker", "player": 0, "height": 4, "step": 0}]
    tie = play(state, build(7, 6, 5))
    assert tie.state.highest == 1


def test_T_HIGH_2_the_first_tower_takes_the_marker():
    state = make(hands=[["5x3"], [6]])
    assert state.highest is None
    outcome = play(state, build(5, 5, 5))
    assert outcome.state.highest == 0
    assert event_types(outcome) == ["built", "marker", "turn"]


def test_T_HIGH_2_strictly_taller_than_every_tower_complete_or_not():
    state = make(hands=[["5x5", 9], []], towers=[[], ["8x4*"]], highest=1)
    level = play(state, build("5x4")).state
    assert level.highest == 1  # as tall as a complete tower is not taller
    taller = play(level, PASS, extend(0, 5)).state
    assert taller.highest == 0


def test_T_HIGH_2_when_towers_stand_somebody_holds_the_marker():
    doc = state_dict(hands=[[5], []], towers=[["5x3"], []], highest=None)
    assert "T-HIGH-2" in error_rules(doc)


def test_T_HIGH_3_the_marker_moves_for_no_other_reason():
    # player 1's 4-story tower holds the marker; player 0 destroys it with a plain 10 of 4: the marker stays
    state = make(hands=[["10x4"], [6]], towers=[[], ["9-6"]], highest=1)
    outcome = play(state, build("10x4"))
    assert events_of(outcome, "destroyed")[0]["player"] == 1
    assert towers_of(outcome.state, 1) == []
    assert outcome.state.highest == 1
    assert "marker" not in event_types(outcome)
    # completing, passing and purchasing never move it either
    other = make(hands=[[5], [6]], towers=[["8x3"], ["9-6"]], highest=1)
    for steps in ([complete(0)], [PASS], [{"type": "purchase"}, DECK, DECK]):
        assert play(other, *steps).state.highest == 1


def test_T_HIGH_3_a_holder_without_the_tallest_tower_is_only_a_warning():
    doc = state_dict(hands=[[5], [6]], towers=[["8x5"], ["9-7"]], highest=1)
    errors, warnings = torri.validate_state(doc)
    assert errors == []
    assert [w.rule for w in warnings] == ["T-HIGH-3"]


def test_T_HIGH_4_a_tie_never_moves_the_marker():
    state = make(hands=[["7x4"], []], towers=[[], ["10-7"]], highest=1)
    outcome = play(state, build("7x4"))
    assert outcome.state.highest == 1
    assert "marker" not in event_types(outcome)


def test_T_SVC_MARKER_the_acting_players_tallest_tower_counts():
    # Player 0 already stands tallest (player 1 kept the marker after a destruction). Any build or extension
    # by player 0, even of a short tower, hands the marker over.
    state = make(hands=[["5x3"], [6]], towers=[["8x5"], ["9-6"]], highest=1)
    outcome = play(state, build(5, 5, 5))
    assert outcome.state.highest == 0
    assert events_of(outcome, "marker") == [{"type": "marker", "player": 0, "height": 5, "step": 0}]


def test_T_SVC_MARKER_two_own_towers_of_the_top_height_are_not_strictly_taller():
    state = make(hands=[["5x3"], [6]], towers=[["8x5", "7x5"], ["9-6"]], highest=1)
    assert play(state, build(5, 5, 5)).state.highest == 1


# ---------------------------------------------------------------- T-DON-5 Guard

def test_T_DON_5_guard_cancels_a_trade_and_no_card_moves():
    state = make(hands=[["9x3", 6, 7], [5, 8, 10]], deck_top=[5])
    window = play(state, build("9x3"))
    assert (window.state.pending.type, window.state.to_act) == ("guard", 1)
    assert moves(window.state) == [{"type": "guard"}, {"type": "decline"}]
    done = play(window.state, GUARD)
    assert hand(done.state, 0) == ["6", "7"]
    assert hand(done.state, 1) == ["8", "10"]
    assert js(done.state)["deck"][-1] == "5"  # the Guard goes to the bottom of the deck
    assert js(done.state)["deck"].count("5") == js(state)["deck"].count("5") + 1
    assert towers_of(done.state, 0)[0]["cards"] == ["9", "9", "9"]  # the build stands
    assert done.events[0] == {"type": "guarded", "player": 1, "effect": "trade", "step": 0}
    assert (done.state.turn, done.state.to_act, done.state.pending) == (1, 1, None)


def test_T_DON_5_guard_saves_a_tower_from_conspiracy():
    state = make(hands=[["10x3"], [5, 6]], towers=[[], ["9-7"]], highest=1)
    window = play(state, build("10x3")).state
    assert (window.pending.type, window.pending.action, window.to_act) == ("guard", "conspiracy", 1)
    done = play(window, GUARD).state
    assert towers_of(done, 1)[0]["cards"] == ["9", "8", "7"]
    assert hand(done, 1) == ["6"]


def test_T_DON_5_the_builder_may_guard_their_own_tower():
    state = make(hands=[["10x3", 5], [6]], towers=[["9-7"], []])
    window = play(state, build("10x3")).state
    assert window.pending.type == "guard" and window.to_act == 0
    assert js(window)["pending"]["target"] == {"player": 0, "tower": 0}
    done = play(window, GUARD).state
    assert len(towers_of(done, 0)) == 2 and hand(done, 0) == []
    declined = play(window, DECLINE).state
    assert [t["cards"] for t in towers_of(declined, 0)] == [["10", "10", "10"]]


def test_T_DON_5_declining_lets_the_effect_happen():
    state = make(hands=[["10x3"], [5, 6]], towers=[[], ["9-7"]], highest=1)
    done = play(state, build("10x3"), DECLINE)
    assert towers_of(done.state, 1) == []
    assert hand(done.state, 1) == ["5", "6"]


def test_T_DON_5_no_window_without_a_five():
    state = make(hands=[["9x3", 7], [6, 8]])
    after = play(state, build("9x3")).state
    assert after.pending.type == "take"


def test_T_DON_5_a_guard_window_needs_a_five_to_guard_with():
    doc = state_dict(hands=[[7], [6, 8]], towers=[["9x3"], []], pending={
        "type": "guard", "action": "trade", "player": 0, "target": {"player": 1}, "size": 3})
    assert "T-DON-5" in error_rules(doc)


# ---------------------------------------------------------------- T-DON-6 Contract

def test_T_DON_6_plain_6_towers_cannot_be_destroyed():
    state = make(hands=[["10x4"], [7]], towers=[[], ["6x4", "5x3"]], highest=1)
    outcome = play(state, build("10x4"))
    assert events_of(outcome, "targeted") == [{"type": "targeted", "player": 1, "tower": 1, "step": 0}]
    assert [t["cards"] for t in towers_of(outcome.state, 1)] == [["6"] * 4]
    alone = make(hands=[["10x4"], [7]], towers=[[], ["6x3"]], highest=1)
    outcome = play(alone, build("10x4"))
    assert "no_target" in event_types(outcome) and len(towers_of(outcome.state, 1)) == 1


def test_T_DON_6_a_colorful_tower_with_a_6_is_not_protected():
    state = make(hands=[["10x3"], [7]], towers=[[], ["8-6"]], highest=1)
    assert towers_of(play(state, build("10x3")).state, 1) == []


def test_T_DON_6_no_pending_conspiracy_can_aim_at_a_plain_6():
    doc = state_dict(hands=[[7], [5]], towers=[["10x3"], ["6x3"]], highest=0, pending={
        "type": "guard", "action": "conspiracy", "player": 0, "target": {"player": 1, "tower": 0}})
    assert error_rules(doc) & {"T-DON-6", "T-DON-10"}


# ---------------------------------------------------------------- T-DON-8 Income

def test_T_DON_8_income_draws_as_many_cards_as_stories_then_refills():
    state = make(hands=[["8x3", 5], [6]], market=[8, 9], deck_top=[7, 10, 10, 10, 10, 6])
    started = play(state, build("8x3"))
    assert events_of(started, "donazione")[0] == {"type": "donazione", "effect": "income", "player": 0,
                                                  "draws": 3, "step": 0}
    assert js(started.state)["pending"] == {"type": "draw", "action": "income", "player": 0, "left": 3,
                                            "from": ["deck", "market"], "excluded": []}
    done = play(started.state, market(8), market(9), DECK)
    assert hand(done.state, 0) == ["5", "7", "8", "9"]
    assert js(done.state)["market"] == ["10", "10", "10", "10"]  # T-MKT-1 after the effect
    assert done.state.turn == 1


def test_T_DON_8_an_income_follows_a_plain_8():
    doc = state_dict(hands=[[7], [5]], towers=[["9-7"], []], pending={
        "type": "draw", "action": "income", "player": 0, "left": 3, "from": ["deck", "market"]})
    assert error_rules(doc) & {"T-DON-8", "T-ACT-BUILD-4"}


# ---------------------------------------------------------------- T-DON-9 Trade

def test_T_DON_9_take_n_at_random_then_give_back_n_minus_1():
    state = make(hands=[["9x4", 6, 7], [8, 8, 10, 10, 6, 7]])
    started = play(state, build("9x4")).state
    assert (started.pending.type, started.pending.left, started.to_act) == ("take", 4, 0)
    assert moves(started) == [{"type": "take", "positions": list(c)} for c in combinations(range(6), 4)]
    assert rule_of(refused(started, take(0, 1, 2))) == "T-DON-9"  # four are taken
    took = play(started, take(0, 1, 2, 4))  # sorted hand 6, 7, 8, 8, 10, 10: takes 6, 7, 8, 10
    assert hand(took.state, 1) == ["8", "10"]
    assert hand(took.state, 0) == ["6", "6", "7", "7", "8", "10"]
    assert took.events[0] == {"type": "took", "player": 0, "from": 1, "cards": ["6", "7", "8", "10"], "step": 0}
    assert (took.state.pending.type, took.state.pending.left) == ("give", 3)
    assert rule_of(refused(took.state, give(6, 6))) == "T-DON-9"  # three are given
    assert rule_of(refused(took.state, give(9, 6, 6))) == "T-DON-9"  # not in hand
    done = play(took.state, give(6, 6, 7))  # any cards, including ones just taken
    assert hand(done.state, 0) == ["7", "8", "10"]
    assert hand(done.state, 1) == ["6", "6", "7", "8", "10"]
    assert done.state.turn == 1


def test_T_DON_9_takes_no_more_than_the_opponent_holds():
    state = make(hands=[["9x4", 6], [8, 10]])
    started = play(state, build("9x4")).state
    assert started.pending.left == 2
    took = play(started, take(0, 1)).state
    assert hand(took, 1) == [] and took.pending.left == 3


def test_T_DON_9_ruling_a_builder_short_of_n_minus_1_gives_all():
    state = make(hands=[["9x5"], [6, 7, 8, 10, 10, 10]])  # the builder's hand is empty after the build
    took = play(state, build("9x5"), take(0, 1, 2, 3, 4)).state
    assert hand(took, 0) == ["6", "7", "8", "10", "10"]
    state = make(hands=[["9x5"], [6]])
    took = play(state, build("9x5"), take(0)).state
    assert took.pending.type == "give" and took.pending.left == 1  # owes 4, holds 1: gives it
    done = play(took, give(6)).state
    assert hand(done, 0) == [] and hand(done, 1) == ["6"]


def test_T_DON_9_the_random_take_is_supplied_by_the_caller():
    state = make(hands=[["9x3"], [6, 7, 8]])
    started = play(state, build("9x3")).state
    assert started.pending.type == "take"  # nothing is drawn by the service
    assert hand(started, 1) == ["6", "7", "8"]


def test_T_DON_9_a_trade_follows_a_plain_9():
    doc = state_dict(hands=[[7], [5, 6, 8]], towers=[["10-8"], []], pending={
        "type": "take", "action": "trade", "player": 0, "left": 3, "give": 2})
    assert error_rules(doc) & {"T-DON-9", "T-ACT-BUILD-4"}


# ---------------------------------------------------------------- T-DON-10 Conspiracy

def test_T_DON_10_the_builder_chooses_among_the_tallest_eligible_towers():
    state = make(hands=[["10x3"], [6]],
                 towers=[["9-7", "8x4"], ["7-5", "5x4", "6x3", "9x3*"]], highest=0)
    started = play(state, build("10x3")).state
    assert js(started)["pending"] == {"type": "target", "action": "conspiracy", "player": 0, "built": 2,
                                      "height": 3}
    assert moves(started) == [target(0, 0), target(1, 0)]  # 3-story, incomplete, not plain 6, not the new one
    assert rule_of(refused(started, target(1, 1))) == "T-DON-10"  # taller than the new tower
    assert rule_of(refused(started, target(1, 2))) == "T-DON-10"  # plain 6
    assert rule_of(refused(started, target(1, 3))) == "T-DON-10"  # complete
    assert rule_of(refused(started, target(0, 2))) == "T-DON-10"  # the tower just built
    done = play(started, target(1, 0)).state
    assert [t["cards"] for t in towers_of(done, 1)] == [["5"] * 4, ["6"] * 3, ["9"] * 3]


def test_T_DON_10_a_destroyed_towers_cards_go_on_top_of_the_deck_lowest_on_top():
    state = make(hands=[["10x3"], [6]], towers=[[], ["9-7"]], highest=1, deck_top=[10])
    outcome = play(state, build("10x3"))
    assert js(outcome.state)["deck"][:4] == ["7", "8", "9", "10"]
    assert outcome.events[-2]["type"] == "destroyed"
    assert outcome.events[-2]["cards"] == ["9", "8", "7"]


def test_T_DON_10_one_candidate_needs_no_target_step():
    state = make(hands=[["10x5"], [6]], towers=[[], ["9-7", "8x4", "7x5*"]], highest=0)
    outcome = play(state, build("10x5"))
    assert events_of(outcome, "targeted") == [{"type": "targeted", "player": 1, "tower": 1, "step": 0}]
    assert [t["cards"] for t in towers_of(outcome.state, 1)] == [["9", "8", "7"], ["7"] * 5]


def test_T_DON_10_no_candidate_no_effect():
    state = make(hands=[["10x3"], [6]], towers=[[], ["9-6"]], highest=1)  # only a taller tower
    outcome = play(state, build("10x3"))
    assert event_types(outcome) == ["built", "donazione", "no_target", "turn"]
    assert towers_of(outcome.state, 1) == towers_of(state, 1)


def test_T_DON_10_a_conspiracy_follows_a_plain_10():
    doc = state_dict(hands=[[7], [6]], towers=[["9x3", "8-6"], ["7-5"]], highest=0, pending={
        "type": "target", "action": "conspiracy", "player": 0, "built": 0, "height": 3})
    assert error_rules(doc) & {"T-DON-10", "T-ACT-BUILD-4"}


# ---------------------------------------------------------------- T-DON-ONCE

def test_T_DON_ONCE_once_per_plain_tower_immediately_after_the_build():
    state = make(hands=[["10x5"], [7]], towers=[[], ["9-6", "8-6", "5x3"]], highest=1)
    outcome = play(state, build("10x5"))
    assert event_types(outcome) == ["built", "marker", "donazione", "targeted", "destroyed", "turn"]
    assert [t["cards"] for t in towers_of(outcome.state, 1)] == [["8", "7", "6"], ["5"] * 3]


def test_T_DON_ONCE_a_tower_built_earlier_never_acts_again():
    state = make(hands=[[8, 8, 5], [6]], towers=[["8x3"], ["9-7"]], highest=0)
    outcome = play(state, extend(0, 8, 8))
    assert "donazione" not in event_types(outcome)
    assert outcome.state.pending.action == "extend"


# ---------------------------------------------------------------- T-SVC-EMPTY

def test_T_SVC_EMPTY_a_trade_against_an_empty_hand_takes_nothing():
    state = make(hands=[["9x3", 6, 7], []])
    outcome = play(state, build("9x3"))
    assert "took" not in event_types(outcome)
    assert (outcome.state.pending.type, outcome.state.pending.left) == ("give", 2)
    assert "take" not in {m["type"] for m in moves(outcome.state)}
    done = play(outcome.state, give(6, 7)).state
    assert hand(done, 1) == ["6", "7"]


def test_T_SVC_EMPTY_nothing_to_take_nor_give_ends_the_turn():
    state = make(hands=[["9x3"], []])
    outcome = play(state, build("9x3"))
    assert outcome.state.pending is None and outcome.state.turn == 1
    assert event_types(outcome)[-1] == "turn"
