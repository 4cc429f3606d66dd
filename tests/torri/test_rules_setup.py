"""Per-rule tests, base game: components (T-COMP), setup (T-SETUP), turn structure (T-TURN), the market (T-MKT),
and the service rulings about unknown cards and the order of hands (T-SVC-HAND, T-SVC-UNKNOWN, T-SVC-REFILL)."""
from __future__ import annotations

import random
from dataclasses import FrozenInstanceError, replace
from collections import Counter

import pytest

from service.games import torri
from tests.torri.helpers import (DECK, DECLINE, GUARD, PASS, PURCHASE, TOWER_SET, build, conserved, deck,
                                 error_rules, errors, event_types, events_of, exchange, hand, js, make, market,
                                 move_types, moves, play, refill, refused, rule_of, state_dict, take, take_cards)


# ---------------------------------------------------------------- T-COMP

def test_T_COMP_1_a_deal_holds_r_cards_of_each_rank_r():
    state = torri.new_game(seed=3)
    assert conserved(state)
    assert sum(TOWER_SET.values()) == 45
    assert TOWER_SET == Counter({"5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10})


def test_T_COMP_1_an_eleventh_ten_is_not_a_real_position():
    doc = state_dict(hands=[[10], []])
    doc["deck"].remove("5")
    doc["deck"].append("10")  # one 5 fewer, one 10 more: 45 cards, but not the game's 45
    problems = errors(doc)
    assert [p.rule for p in problems] == ["T-COMP-4"]
    assert "10" in problems[0].message  # the eleventh 10 is the one reported
    with pytest.raises(torri.InvalidStateError):
        torri.read_state(doc)


def test_T_COMP_2_a_noble_card_in_a_base_game_state_is_rejected():
    doc = state_dict(hands=[["monumento", 5], []])
    problems = errors(doc)
    assert "T-COMP-2" in {p.rule for p in problems}
    assert any(p.rule == "T-COMP-2" and p.pointer == "/players/0/hand/1" for p in problems)
    with pytest.raises(torri.InvalidStateError) as raised:
        torri.read_state(doc)
    assert "T-COMP-2" in {p.rule for p in raised.value.problems}


def test_T_COMP_2_base_game_has_no_noble_deck_and_no_noble_step():
    doc = state_dict(hands=[[5, 5], []])
    doc["noble_deck"] = ["mura"]
    assert "T-COMP-2" in error_rules(doc)
    state = make(hands=[[5, 5], []])
    assert rule_of(refused(state, {"type": "noble", "card": "monumento"})) == "T-COMP-2"


def test_T_COMP_3_two_players_exactly():
    three = state_dict()
    three["players"].append({"name": "Jorge", "hand": [], "towers": [], "played": []})
    assert "T-COMP-3" in error_rules(three)
    one = state_dict()
    one["players"] = one["players"][:1]
    assert "T-COMP-3" in error_rules(one)
    assert "T-COMP-3" not in error_rules(state_dict())


def test_T_COMP_3_a_deal_seats_two_named_players():
    assert [p.name for p in torri.new_game(1, names=["Adso", "William"]).players] == ["Adso", "William"]
    for names in (["Adso"], ["Adso", "William", "Jorge"]):
        with pytest.raises(torri.MalformedError, match="T-COMP-3"):
            torri.new_game(1, names=names)
    with pytest.raises(torri.MalformedError, match="1 to 100 characters"):
        torri.new_game(1, names=["Adso", ""])


def test_T_COMP_3_one_highest_marker_held_by_player_0_or_1_or_nobody():
    doc = state_dict(towers=[["5x3"], []])
    doc["highest"] = 2
    with pytest.raises(torri.MalformedError) as raised:
        torri.read_state(doc)
    assert raised.value.problems[0].pointer == "/highest"


def test_T_COMP_4_a_missing_card_breaks_conservation():
    doc = state_dict(hands=[[5, 6], []])
    doc["deck"].pop()
    problems = errors(doc)
    assert [(p.rule, p.pointer) for p in problems] == [("T-COMP-4", "")]


def test_T_COMP_4_a_duplicated_card_breaks_conservation():
    doc = state_dict(hands=[[5, 6], []])
    doc["market"].append("6")  # 46 cards
    assert "T-COMP-4" in error_rules(doc)


def test_T_COMP_4_every_step_of_random_games_conserves_the_45_cards():
    for seed in range(6):
        rng = random.Random(seed)
        state = torri.new_game(seed)
        for _ in range(150):
            options = torri.legal_steps(state)
            if not options:
                break
            state, _ = torri.apply_step(state, rng.choice(options))
            assert conserved(state), (seed, js(state))
            assert torri.validate_state(js(state))[0] == []


def test_T_COMP_4_a_draw_cannot_name_another_card_than_the_known_top():
    state = make(hands=[[5], []], deck_top=[9])
    outcome = refused(state, PURCHASE, deck(6))
    assert rule_of(outcome) == "T-COMP-4"
    play(state, PURCHASE, deck(9))


# ---------------------------------------------------------------- T-SETUP

def test_T_SETUP_1_deal_5_each_4_in_the_market_31_in_the_deck():
    state = torri.new_game(seed=11)
    doc = js(state)
    assert [len(p["hand"]) for p in doc["players"]] == [5, 5]
    assert len(doc["market"]) == 4
    assert len(doc["deck"]) == 31
    assert all(p["towers"] == [] for p in doc["players"])


def test_T_SETUP_1_the_deal_is_a_shuffle_fixed_by_the_seed():
    assert js(torri.new_game(seed=5)) == js(torri.new_game(seed=5))
    deals = {tuple(js(torri.new_game(seed=s))["deck"]) for s in range(8)}
    assert len(deals) == 8


def test_T_SETUP_2_marker_with_nobody_and_player_0_acts_first():
    doc = js(torri.new_game(seed=2))
    assert doc["highest"] is None
    assert (doc["phase"], doc["turn"], doc["to_act"], doc["passes"], doc["pending"]) == ("main", 0, 0, 0, None)


def test_T_SETUP_4_a_hand_of_8_is_not_a_real_position():
    assert "T-SETUP-4" in error_rules(state_dict(hands=[["5x4", "6x4"], []]))
    assert error_rules(state_dict(hands=[["5"] * 4 + ["6"] * 3, []])) == set()  # 7 is allowed


def test_T_SETUP_4_no_action_leaves_a_hand_above_7():
    state = make(hands=[[5, 5, 6, 6, 7, 7], []])  # 6 cards: a Purchase would make 8
    assert "purchase" not in move_types(state)
    assert rule_of(refused(state, PURCHASE)) == "T-ACT-PURCHASE-2"
    # an Exchange draws back exactly what it put down: a full hand stays at 7
    full = make(hands=[[5, 5, 6, 6, 7, 7, 8], []], market=[9, 9, 10, 10])
    after = play(full, exchange(5, 5), market(9), market(10)).state
    assert len(hand(after, 0)) == 7


# ---------------------------------------------------------------- T-TURN

def test_T_TURN_1_one_action_then_the_other_player_acts():
    state = make(hands=[[5, 5, 5, 9], [6]])
    outcome = play(state, build(5, 5, 5))
    assert (outcome.state.turn, outcome.state.to_act) == (1, 1)
    assert outcome.events[-1] == {"type": "turn", "player": 1, "step": 0}
    # the second "build" is now player 1's action, and player 1 has no 5s
    assert rule_of(refused(outcome.state, build(5, 5, 5))) == "T-ACT-BUILD-1"


def test_T_TURN_1_a_turn_starts_with_an_action_not_a_decision():
    state = make(hands=[[5, 5], []])
    assert rule_of(refused(state, DECK)) == "T-TURN-1"
    assert rule_of(refused(state, GUARD)) == "T-TURN-1"
    assert rule_of(refused(state, take(0))) == "T-TURN-1"
    assert move_types(state) <= {"purchase", "exchange", "build", "extend", "complete", "close", "pass"}


def test_T_TURN_2_the_turn_ends_only_when_every_decision_is_resolved():
    state = make(hands=[[5, 5], []])
    started = play(state, PURCHASE, DECK).state
    assert started.turn == 0 and started.to_act == 0 and started.pending.left == 1
    assert {m["type"] for m in moves(started)} == {"draw"}
    assert rule_of(refused(started, PASS)) == "T-TURN-2"
    done = play(started, DECK).state
    assert (done.turn, done.to_act, done.pending) == (1, 1, None)


def test_T_TURN_2_a_reaction_is_decided_by_the_opponent():
    state = make(hands=[[9, 9, 9, 6], [5, 7]])
    after = play(state, build(9, 9, 9)).state  # Trade aimed at player 1, who holds a 5
    assert (after.turn, after.to_act, after.pending.type) == (0, 1, "guard")


def test_T_TURN_2_a_pending_decision_belongs_to_the_player_whose_turn_it_is():
    doc = state_dict(hands=[[5], []], pending={"type": "draw", "action": "purchase", "player": 1, "left": 1,
                                                "from": ["deck", "market"]})
    assert "T-TURN-2" in error_rules(doc)
    doc = state_dict(hands=[[5], []], to_act=1)  # nothing pending, yet player 1 to act on player 0's turn
    assert "T-TURN-2" in error_rules(doc)


def test_T_TURN_3_two_passes_in_a_row_end_the_game():
    state = make(hands=[[5], [6]])
    outcome = play(state, PASS, PASS)
    assert (outcome.state.phase, outcome.state.to_act, outcome.state.passes) == ("over", None, 2)
    assert event_types(outcome)[-2:] == ["passed", "game_over"]
    assert moves(outcome.state) == []
    assert rule_of(refused(outcome.state, PASS)) == "T-TURN-3"


def test_T_TURN_3_a_finished_game_takes_no_step_even_with_a_decision_left_pending():
    finished = replace(make(hands=[[5], [6]]), phase="over", to_act=None,
                       pending=torri.Pending("draw", "purchase", 0, left=1, sources=("deck",)))
    assert rule_of(refused(finished, {"type": "draw", "from": "deck"})) == "T-TURN-3"


def test_T_TURN_3_passes_must_be_in_a_row():
    state = make(hands=[[5, 5, 5], [6, 6]])
    outcome = play(state, PASS, PURCHASE, DECK, DECK, PASS)
    assert outcome.state.phase == "main" and outcome.state.passes == 1


def test_T_TURN_3_two_passes_end_the_ending_phase_too():
    state = make(hands=[[5], [6]], deck=[], fill="market", phase="ending")
    assert play(state, PASS, PASS).state.phase == "over"


def test_T_TURN_4_draws_one_at_a_time_and_no_refill_inside_the_action():
    state = make(hands=[[5], []], market=[9], deck_top=[6, 7, 8, 10, 5])
    first = play(state, PURCHASE, market(9)).state
    assert js(first)["market"] == []  # emptied, but the Purchase is not over: no refill yet
    assert first.pending.left == 1
    assert moves(first) == [{"type": "draw", "from": "deck"}]
    assert rule_of(refused(first, market(6))) == "T-TURN-4"
    done = play(first, DECK)
    assert hand(done.state, 0) == ["5", "6", "9"]
    assert js(done.state)["market"] == ["5", "7", "8", "10"]  # the next four: 7, 8, 10, 5
    assert event_types(done) == ["drew", "refilled", "turn"]


def test_T_TURN_4_a_market_draw_names_a_card_that_is_there():
    state = make(hands=[[5], []], market=[9, 9, 8, 8])
    assert rule_of(refused(state, PURCHASE, {"type": "draw", "from": "market"})) == "T-TURN-4"
    assert rule_of(refused(state, PURCHASE, market(10))) == "T-TURN-4"
    both = play(state, PURCHASE, market(9), market(9)).state
    assert hand(both, 0) == ["5", "9", "9"] and js(both)["market"] == ["8", "8"]


# ---------------------------------------------------------------- T-MKT

def test_T_MKT_1_an_emptied_market_takes_4_from_the_top_of_the_deck():
    state = make(hands=[[5], []], market=[9, 10], deck_top=[6, 7, 8, 8, 5])
    outcome = play(state, PURCHASE, market(9), market(10))
    doc = js(outcome.state)
    assert doc["market"] == ["6", "7", "8", "8"]
    assert doc["deck"][0] == "5"
    assert events_of(outcome, "refilled") == [{"type": "refilled", "cards": ["6", "7", "8", "8"], "step": 2}]


def test_T_MKT_1_fewer_than_4_in_the_deck_all_go_to_the_market():
    state = make(hands=[[5, 6, 6], [5, 5, 6, 6, 6]], towers=[["10x10*", "8x7"], ["7x7*", "9x8"]],
                 market=[9], deck=[6, 8, 5, 5])
    outcome = play(state, PURCHASE, market(9), DECK)  # the deck keeps 8, 5, 5
    doc = js(outcome.state)
    assert doc["market"] == ["5", "5", "8"] and doc["deck"] == []
    assert outcome.state.phase == "ending"  # T-END-1: the deck ran out


def test_T_MKT_1_no_refill_while_the_market_still_holds_a_card():
    state = make(hands=[[5], []], market=[9, 10, 8], deck_top=[6, 7])
    doc = js(play(state, PURCHASE, market(9), market(10)).state)
    assert doc["market"] == ["8"] and doc["deck"][:2] == ["6", "7"]


def test_T_MKT_1_an_extension_that_empties_the_market_refills_it():
    state = make(hands=[[7], []], towers=[["7x3"], []], market=[9], deck_top=[6, 6, 8, 8, 10])
    doc = js(play(state, {"type": "extend", "tower": 0, "cards": ["7"]}, market(9)).state)
    assert doc["market"] == ["6", "6", "8", "8"]


def test_T_MKT_2_an_exchange_leaves_more_than_4_in_the_market():
    state = make(hands=[[5, 5, 6], []], market=[9, 9, 10, 10], deck_top=[7, 7, 8])
    after = play(state, exchange(5, 5, 6), DECK, DECK, DECK).state
    assert js(after)["market"] == ["5", "5", "6", "9", "9", "10", "10"]
    assert hand(after, 0) == ["7", "7", "8"]
    assert error_rules(js(after)) == set()


# ---------------------------------------------------------------- T-SVC-HAND

def test_T_SVC_HAND_hands_and_market_are_sets_listed_sorted():
    doc = state_dict(hands=[[10, 5, 9, 5], [8, 6]], market=[10, 6, 9, 7])
    doc["players"][0]["hand"] = ["10", "5", "9", "5"]
    doc["market"] = ["10", "6", "9", "7"]
    shuffled = dict(doc, market=["7", "9", "6", "10"])
    one, other = js(torri.read_state(doc)), js(torri.read_state(shuffled))
    assert one == other
    assert one["players"][0]["hand"] == ["5", "5", "9", "10"]
    assert one["market"] == ["6", "7", "9", "10"]


def test_T_SVC_HAND_take_positions_count_in_the_sorted_hand():
    doc = state_dict(hands=[[9, 9, 9, 6], [10, 8, 7, 6]])
    doc["players"][1]["hand"] = ["10", "8", "7", "6"]  # listed unsorted by the caller
    state = torri.read_state(doc)
    after = play(state, build(9, 9, 9), take(0, 1, 2)).state  # positions in the sorted hand 6, 7, 8, 10
    assert hand(after, 1) == ["10"]
    assert hand(after, 0) == ["6", "6", "7", "8"]


def test_T_SVC_HAND_a_take_position_outside_the_hand_is_refused():
    state = make(hands=[[9, 9, 9, 6], [10, 7]])
    # only two cards: the Trade takes both, and position 2 does not exist
    assert rule_of(refused(state, build(9, 9, 9), take(0, 2))) == "T-SVC-HAND"


# ---------------------------------------------------------------- T-SVC-UNKNOWN

def _unknown_deck(doc: dict) -> dict:
    doc["deck"] = {"count": len(doc["deck"])}
    return doc


def test_T_SVC_UNKNOWN_a_draw_off_an_unknown_deck_names_the_card():
    state = torri.read_state(_unknown_deck(state_dict(hands=[[5], []], market=[9, 9, 9, 9])))
    assert rule_of(refused(state, PURCHASE, DECK)) == "T-SVC-UNKNOWN"
    after = play(state, PURCHASE, deck(10)).state
    assert hand(after, 0) == ["5", "10"]
    assert js(after)["deck"]["count"] == js(state)["deck"]["count"] - 1
    listed = moves(after)
    assert {"type": "draw", "from": "deck", "card": "7"} in listed


def test_T_SVC_UNKNOWN_the_named_card_must_still_be_unaccounted_for():
    doc = state_dict(hands=[["5x4"], ["5"]], market=[9, 9, 9, 9])  # all five 5s are seen
    state = torri.read_state(_unknown_deck(doc))
    assert rule_of(refused(state, PURCHASE, deck(5))) == "T-SVC-UNKNOWN"
    assert {"type": "draw", "from": "deck", "card": "5"} not in moves(play(state, PURCHASE).state)


def test_T_SVC_UNKNOWN_a_count_of_unknown_cards_is_still_checked_for_conservation():
    doc = _unknown_deck(state_dict(hands=[[5], []]))
    doc["deck"]["count"] += 1
    assert "T-COMP-4" in error_rules(doc)


def test_T_SVC_UNKNOWN_a_take_from_an_unknown_hand_names_possible_cards():
    doc = state_dict(hands=[[9, 9, 9, 6], ["5x5"]], market=["9x6"])  # every 9 is in sight
    doc["players"][1]["hand"] = {"count": 5}
    doc["deck"] = {"count": len(doc["deck"])}  # the 5s could be anywhere unseen
    state = torri.read_state(doc)
    started = play(state, build(9, 9, 9)).state
    assert started.pending.type == "guard"  # an unknown hand may hold a 5: the window opens
    trade = play(started, DECLINE).state
    assert rule_of(refused(trade, take(0, 1, 2))) == "T-DON-9"  # positions mean nothing in an unknown hand
    assert rule_of(refused(trade, take_cards(9, 9, 9))) == "T-SVC-UNKNOWN"  # every 9 is in sight
    after = play(trade, take_cards(5, 7, 10)).state
    assert hand(after, 0) == ["5", "6", "7", "10"]


# ---------------------------------------------------------------- T-SVC-REFILL

def test_T_SVC_REFILL_the_player_names_a_refill_from_an_unknown_deck():
    state = torri.read_state(_unknown_deck(state_dict(hands=[[6], []], market=[9, 10])))
    drew = play(state, PURCHASE, market(9), market(10)).state
    assert drew.pending.type == "refill" and drew.pending.left == 4
    assert (drew.turn, drew.to_act) == (0, 0)
    assert rule_of(refused(drew, refill(5, 6, 7))) == "T-SVC-REFILL"  # 4 cards turn up
    done = play(drew, refill(5, 7, 8, 8))
    assert js(done.state)["market"] == ["5", "7", "8", "8"]
    assert js(done.state)["deck"] == {"count": js(state)["deck"]["count"] - 4, "top": [], "bottom": []}
    assert (done.state.turn, done.state.pending) == (1, None)


def test_T_SVC_REFILL_only_cards_that_can_be_in_the_deck():
    doc = state_dict(hands=[["10x5"], ["10x4"]], market=[9, 10])  # all ten 10s are seen
    state = torri.read_state(_unknown_deck(doc))
    drew = play(state, PURCHASE, market(9), market(10)).state
    assert rule_of(refused(drew, refill(10, 5, 6, 7))) == "T-SVC-REFILL"
    assert {"type": "refill", "cards": ["5", "6", "7", "10"]} not in moves(drew)
    assert {"type": "refill", "cards": ["5", "6", "7", "7"]} in moves(drew)
    play(drew, refill(5, 6, 7, 7))


# ---------------------------------------------------------------- T-SVC-LIST

def test_T_SVC_LIST_a_list_longer_than_the_limit_is_refused_with_the_ruling():
    state = make(hands=[["5x3", 6, 7], [8]])
    listed = torri.legal_moves(state)
    assert len(listed) == 16
    assert torri.legal_moves(state, limit=16) == listed
    with pytest.raises(torri.InvalidStateError) as raised:
        torri.legal_moves(state, limit=15)
    assert [p.rule for p in raised.value.problems] == ["T-SVC-LIST"]


def test_T_SVC_LIST_unknown_hands_can_exceed_10000_steps_and_naming_the_cards_lists_them():
    doc = state_dict(nobles=True, hands=[["5x3", 6, 7, 8, 9], [8]])
    known = torri.read_state(doc)
    assert 0 < len(torri.legal_moves(known)) <= 10_000
    doc["players"][0]["hand"] = {"count": 7}
    doc["deck"] = {"count": len(doc["deck"])}
    doc["noble_deck"] = {"count": len(doc["noble_deck"])}
    with pytest.raises(torri.InvalidStateError) as raised:
        torri.legal_moves(torri.read_state(doc))
    assert [p.rule for p in raised.value.problems] == ["T-SVC-LIST"]


def test_T_TURN_2_a_pending_decision_carries_only_its_own_fields():
    # A draw pending with a Guard's target, or a Trade's take with a tower, is a tampered state: refused by field.
    draw = state_dict(hands=[[5], []], pending={"type": "draw", "action": "purchase", "player": 0, "left": 1,
                                                 "from": ["deck", "market"], "target": {"player": 1}})
    with pytest.raises(torri.MalformedError) as refused_draw:
        torri.validate_state(draw)
    assert [p.pointer for p in refused_draw.value.problems] == ["/pending/target"]
    take = state_dict(hands=[[5], [6, 7, 8]], pending={"type": "take", "action": "trade", "player": 0, "left": 3,
                                                        "give": 2, "tower": 0})
    with pytest.raises(torri.MalformedError) as refused_take:
        torri.validate_state(take)
    assert [p.pointer for p in refused_take.value.problems] == ["/pending/tower"]


def _counted(doc: dict, where: str, pile: dict) -> dict:
    if where == "hand":
        doc["players"][0]["hand"] = pile
    else:
        doc[where] = pile
    return doc


WHOLE = "Must be a whole number from {} to {}."


@pytest.mark.parametrize("doc, pointer, message", [
    (_counted(state_dict(hands=[[5], [6]]), "deck", {"count": 1, "top": ["5"], "bottom": ["6"]}), "/deck/count",
     "\"count\" is the pile's size: at least the 2 known cards."),
    (_counted(state_dict(hands=[[5], [6]]), "hand", {"count": 0, "known": ["5"]}), "/players/0/hand/count",
     "\"count\" is the pile's size: at least the 1 known card."),
    (_counted(state_dict(nobles=True), "noble_deck", {"count": 0, "top": ["mura"]}), "/noble_deck/count",
     "\"count\" is the pile's size: at least the 1 known card."),
    ({**state_dict(), "pending": {"type": "target", "action": "conspiracy", "player": 0, "height": 3}},
     "/pending/built", WHOLE.format(0, 128)),
    ({**state_dict(), "pending": {"type": "target", "action": "conspiracy", "player": 0, "built": 0, "height": 2}},
     "/pending/height", WHOLE.format(3, 128)),
    ({**state_dict(), "pending": {"type": "guard", "action": "trade", "player": 0, "size": 3}},
     "/pending/target", "Must be an object."),
    ({**state_dict(), "pending": {"type": "guard", "action": "trade", "player": 0, "target": {"player": 2},
                                  "size": 3}}, "/pending/target/player", WHOLE.format(0, 1)),
    ({**state_dict(), "pending": {"type": "rebuild", "action": "mura", "player": 0}},
     "/pending/action", "Must be one of build, extend."),
], ids=["deck", "hand", "noble deck", "target built", "target height", "guard target", "guard player", "action"])
def test_a_state_whose_parts_disagree_is_malformed_alike_in_the_library_and_the_api(client, doc, pointer, message):
    # What one field cannot check alone (a count against the cards named beside it, a pending decision against
    # its type) is checked by the state's schema: the library and the API say it alike.
    with pytest.raises(torri.MalformedError) as refused:
        torri.validate_state(doc)
    assert [(p.rule, p.pointer, p.message) for p in refused.value.problems] == [(None, pointer, message)]
    answer = client.post("/v1/games/torri/validate", json={"state": doc})
    assert answer.status_code == 400
    assert [(e["rule"], e["pointer"], e["message"]) for e in answer.get_json()["errors"]] == [
        (None, "/state" + pointer, message)]


def test_a_base_game_noble_deck_is_not_read_so_its_count_is_not_checked():
    doc = _counted(state_dict(hands=[[5], [6]]), "noble_deck", {"count": 0, "top": ["mura"]})
    assert "T-COMP-2" in error_rules(doc)


def test_a_state_is_a_value_whatever_it_is_built_from():
    """T-SVC-HAND: equal positions are equal values; a State holds no player that can still change."""
    state = make(hands=[[5, 6], [7]])
    rebuilt = replace(state, players=(state.players[0].draft(), state.players[1]))
    assert rebuilt == state and hash(rebuilt) == hash(state)
    assert type(rebuilt.players[0]) is torri.Player
    with pytest.raises(FrozenInstanceError):
        rebuilt.players[0].hand = ()
    with pytest.raises(FrozenInstanceError):
        state.turn = 1
    after = torri.apply_step(state, torri.parse_step(PASS))[0]
    assert after != state and state.passes == 0  # the step wrote a copy
