"""Per-rule tests: the service's rulings that concern the advanced game's nobles (T-SVC-LIMIT, T-SVC-REBUILD).

The other T-SVC-* rulings are tested with the base-game rules they refine (test_rules_setup.py,
test_rules_donazione.py)."""
from __future__ import annotations

from tests.torri.helpers import (DECLINE, STOP, build, error_rules, event_types, events_of, extend, hand, js, make,
                                 moves, noble, play, refused, rule_of, state_dict, towers_of)

GIOSTRA = {"type": "giostra"}
BP = "buona_pietra"


# ---------------------------------------------------------------- T-SVC-LIMIT

def test_T_SVC_LIMIT_a_position_may_show_a_gap_of_two():
    doc = state_dict(nobles=True, hands=[[5], [6]], played=[["monumento", "giostra"], []])
    assert error_rules(doc) == set()


def test_T_SVC_LIMIT_checked_when_an_action_noble_is_played():
    state = make(nobles=True, hands=[["cappella", 5], [6]], played=[["monumento"], []])
    assert rule_of(refused(state, noble("cappella"))) == "T-NOB-LIMIT"
    assert {"type": "noble", "card": "cappella"} not in moves(state)
    even = make(nobles=True, hands=[["cappella", 5], [6]], played=[["monumento"], ["mura"]])
    assert js(play(even, noble("cappella")).state)["players"][0]["played"] == ["monumento", "cappella"]


def test_T_SVC_LIMIT_checked_when_buona_pietra_is_built():
    state = make(nobles=True, hands=[[8, 8, BP], [6]], played=[["monumento"], []])
    assert rule_of(refused(state, build(8, BP, 8))) == "T-NOB-LIMIT"
    fresh = make(nobles=True, hands=[[8, 8, BP], [6]])
    assert towers_of(play(fresh, build(8, BP, 8)).state, 0)[0]["cards"] == ["8", BP, "8"]


def test_T_SVC_LIMIT_checked_when_giostra_is_played():
    # player 1 has used two nobles, player 0 none: answering player 0's Buona Pietra would make 3 against 1
    state = make(nobles=True, hands=[[8, 8, BP], ["giostra"]], played=[[], ["monumento", "mura"]])
    outcome = play(state, build(8, BP, 8))
    assert outcome.state.pending is None or outcome.state.pending.type != "giostra"
    assert "built" in event_types(outcome)
    # one noble each: the window opens (2 against 1 + the Buona Pietra)
    level = make(nobles=True, hands=[[8, 8, BP], ["giostra"]], played=[["mura"], ["monumento"]])
    window = play(level, build(8, BP, 8)).state
    assert window.pending.type == "giostra" and window.to_act == 1
    assert moves(window) == [{"type": "giostra"}, {"type": "decline"}]


def test_T_SVC_LIMIT_a_destroyed_buona_pietra_stops_counting():
    state = make(nobles=True, hands=[["10x3", "cappella"], [6]], towers=[[], [[7, BP, 7]]], highest=1,
                 played=[["monumento"], []])
    outcome = play(state, build("10x3"))
    assert events_of(outcome, "destroyed")
    assert js(outcome.state)["noble_deck"][0] == BP  # T-DON-10 ruling: on top of the noble deck
    assert error_rules(js(outcome.state)) == set()
    # player 0 has used 1, player 1 now 0: another noble by player 0 would be two ahead
    back = make(nobles=True, hands=[["cappella"], [6]], towers=[["10x3"], []], played=[["monumento"], []],
                noble_deck=[BP])
    assert rule_of(refused(back, noble("cappella"))) == "T-NOB-LIMIT"


# ---------------------------------------------------------------- T-SVC-REBUILD

def test_T_SVC_REBUILD_rebuild_with_exactly_the_remaining_cards():
    state = make(nobles=True, hands=[[8, 8, 8, BP, 5], ["giostra"]])
    cancelled = play(state, build(8, 8, BP, 8), GIOSTRA).state
    assert js(cancelled)["pending"] == {"type": "rebuild", "action": "build", "player": 0,
                                        "cards": ["8", "8", "8"]}
    assert js(cancelled)["removed"] == [BP]
    assert moves(cancelled) == [build(8, 8, 8), STOP]
    assert rule_of(refused(cancelled, build(8, 8, 8, 5))) == "T-NOB-GIOSTRA"
    assert rule_of(refused(cancelled, extend(0, 8))) == "T-NOB-GIOSTRA"


def test_T_SVC_REBUILD_a_rebuilt_plain_8_still_brings_its_donazione():
    state = make(nobles=True, hands=[[8, 8, 8, BP, 5], ["giostra"]])
    rebuilt = play(state, build(8, 8, BP, 8), GIOSTRA, build(8, 8, 8))
    assert [e["effect"] for e in events_of(rebuilt, "donazione")] == ["income"]
    assert rebuilt.state.pending.action == "income" and rebuilt.state.pending.left == 3


def test_T_SVC_REBUILD_in_any_legal_arrangement():
    # Buona Pietra as the 10 under 9-8-7; cancelled, the 9-8-7 stands on its own (one story lower)
    state = make(nobles=True, hands=[[9, 8, 7, BP], ["giostra"]])
    cancelled = play(state, build(BP, 9, 8, 7), GIOSTRA).state
    assert rule_of(refused(cancelled, build(7, 8, 9))) == "T-ACT-BUILD-3"
    after = play(cancelled, build(9, 8, 7)).state
    assert towers_of(after, 0)[0]["cards"] == ["9", "8", "7"] and after.turn == 1


def test_T_SVC_REBUILD_or_stop_to_take_the_cards_back():
    state = make(nobles=True, hands=[[8, 8, 8, BP, 5], ["giostra"]])
    outcome = play(state, build(8, 8, BP, 8), GIOSTRA, STOP)
    assert event_types(outcome)[-2:] == ["took_back", "turn"]
    assert hand(outcome.state, 0) == ["5", "8", "8", "8"]
    assert towers_of(outcome.state, 0) == [] and outcome.state.turn == 1


def test_T_SVC_REBUILD_an_extension_goes_on_the_same_tower():
    state = make(nobles=True, hands=[[7, 7, BP], ["giostra"]], towers=[["7x3", "6x3"], []])
    cancelled = play(state, extend(0, 7, BP, 7), GIOSTRA).state
    assert cancelled.pending.type == "rebuild" and cancelled.pending.action == "extend"
    assert rule_of(refused(cancelled, extend(1, 7, 7))) == "T-NOB-GIOSTRA"
    after = play(cancelled, extend(0, 7, 7)).state
    assert [len(t["cards"]) for t in towers_of(after, 0)] == [5, 3]


def test_T_SVC_REBUILD_declining_giostra_builds_as_asked():
    state = make(nobles=True, hands=[[8, 8, 8, BP, 5], ["giostra"]])
    outcome = play(state, build(8, 8, BP, 8), DECLINE)
    assert towers_of(outcome.state, 0)[0]["cards"] == ["8", "8", BP, "8"]
    assert outcome.state.pending.action == "income" and outcome.state.pending.left == 4


# ---------------------------------------------------------------- T-SVC-STANDIN

def test_T_SVC_STANDIN_buona_pietra_as_11_only_at_the_bottom_under_a_10():
    state = make(nobles=True, hands=[[BP, BP, 10, 9, 8], [5]], played=[[], ["mura"]])
    eleven = towers_of(play(state, build(BP, 10, 9)).state, 0)[0]
    assert (eleven["kind"], eleven["rank"]) == ("colorful", 11)
    assert rule_of(refused(state, build(BP, BP, 10, 9))) == "T-ACT-BUILD-3"  # a 12 under the 11
    two = towers_of(play(state, build(BP, BP, 9, kind="colorful", rank=11)).state, 0)[0]
    assert two["cards"] == [BP, BP, "9"] and two["rank"] == 11  # 11 over a Buona Pietra standing for 10


def test_T_SVC_STANDIN_buona_pietra_as_4_only_at_the_top_over_a_5():
    state = make(nobles=True, hands=[[BP, BP, 9], [6]], towers=[["7-5"], []], played=[[], ["mura"]])
    after = play(state, extend(0, BP)).state
    assert towers_of(after, 0)[0]["cards"] == ["7", "6", "5", BP]
    assert rule_of(refused(state, extend(0, BP, BP))) == "T-ACT-EXTEND-1"  # a 3 over the 4
    assert {"type": "extend", "tower": 0, "cards": [BP, BP]} not in moves(state)


def test_T_SVC_STANDIN_a_colorful_tower_reaches_8_stories_at_most():
    doc = state_dict(nobles=True, towers=[[[BP, 10, 9, 8, 7, 6, 5, BP]], []], played=[[], ["mura"]])
    assert error_rules(doc) == set()
    tower = js(make(nobles=True, towers=[[[BP, 10, 9, 8, 7, 6, 5, BP]], []], played=[[], ["mura"]]))
    assert tower["players"][0]["towers"][0]["rank"] == 11
    nine = state_dict(nobles=True, towers=[[[BP, BP, 10, 9, 8, 7, 6, 5, BP]], []], played=[[], ["mura"]])
    assert error_rules(nine) & {"T-ACT-BUILD-2", "T-ACT-BUILD-3"}  # 12 down to 4 is no tower
