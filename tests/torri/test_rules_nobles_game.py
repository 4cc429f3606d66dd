"""Per-rule tests, advanced game: its components (T-COMP-2 with the conservation of T-COMP-4), setup (T-SETUP-3), the
Ending phase's nobles (T-END-3) and the nobles' scores (T-SCORE-6); and the validation of the noble fields of a state.

The nobles' own rules (T-NOB-*) are in test_rules_nobles.py."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from service.games import torri
from tests.torri.helpers import (ALL_CARDS, BP, DECLINE, GIOSTRA, NOBLE_DECK, NOBLE_PLACES, NOBLE_SET, PASS, STOP,
                                 VF, all_cards, build, conserved_with_nobles, error_rules, errors, event_types,
                                 extend, js, make, market, moves, noble, noble_places, play, refused, rule_of,
                                 state_dict, tower, towers_of)


def nob(**kwargs) -> torri.State:
    return make(nobles=True, **kwargs)


def ending(**kwargs) -> torri.State:
    """An advanced-game Ending-phase position: the tower deck ran out, the tower cards not placed lie in the market,
    the nobles not placed in the noble deck."""
    return make(nobles=True, deck=[], fill="market", phase="ending", **kwargs)


# ---------------------------------------------------------------- T-COMP-2 (and T-COMP-4 for nobles)

def test_T_COMP_2_the_advanced_game_has_ten_nobles():
    state = torri.new_game(11, nobles=True)
    assert Counter(js(state)["noble_deck"]) == NOBLE_SET
    assert sum(NOBLE_SET.values()) == 10
    assert NOBLE_SET == Counter({BP: 3, VF: 2, "monumento": 1, "giostra": 1, "cappella": 1, "palazzo": 1, "mura": 1})
    assert all_cards(state) == ALL_CARDS and sum(ALL_CARDS.values()) == 55


def test_T_COMP_2_nobles_lie_in_the_noble_deck_market_hands_towers_played_rows_or_removed():
    doc = state_dict(nobles=True, hands=[[VF, 8, 8, BP, 5], ["giostra", "cappella", 6]], market=[9, 10, 10, "mura"],
                     towers=[[[7, BP, 7]], []], played=[[], ["monumento"]], removed=["palazzo"])
    assert error_rules(doc) == set()
    state = torri.read_state(doc)
    assert noble_places(state) == {"noble_deck": 2, "market": 1, "hands": 4, "towers": 1, "played": 1, "removed": 1}
    # A Buona Pietra build answered by Giostra; the rest back to hand; a Purchase of both nobles; a Via Francigena.
    steps = [build(8, BP, 8), GIOSTRA, STOP, PASS, noble(VF), NOBLE_DECK, STOP, {"type": "purchase"}, NOBLE_DECK,
             market("mura")]
    outcome = torri.apply_steps(state, steps, keep_states=True)
    assert outcome.legal, outcome.violations
    for after in outcome.states:
        assert conserved_with_nobles(after)
        assert sum(noble_places(after).values()) == 10
    assert noble_places(outcome.state) == {"noble_deck": 0, "market": 0, "hands": 4, "towers": 1, "played": 3,
                                           "removed": 2}
    assert error_rules(js(outcome.state)) == set()


def test_T_COMP_2_nobles_are_conserved_through_a_whole_game():
    rng = random.Random(5)
    state = torri.new_game(5, nobles=True)
    visited: set[str] = set()
    while state.phase != torri.OVER:
        legal = torri.legal_steps(state)
        liked = [s for s in legal if s.type in ("noble", "giostra") or (s.type == "draw" and s.source == "noble_deck")
                 or (s.type in ("build", "extend") and 20 in s.cards)]
        others = [s for s in legal if s.type != "pass"] or legal
        step = rng.choice(liked if liked and rng.random() < 0.7 else others)
        state = torri.apply_step(state, step)[0]
        assert conserved_with_nobles(state)
        visited |= {place for place, n in noble_places(state).items() if n}
    assert visited == set(NOBLE_PLACES)


def test_T_COMP_2_eleven_nobles_or_nine_are_invalid():
    eleven = state_dict(nobles=True, hands=[[5], [6]])
    eleven["players"][0]["hand"].append(BP)
    assert "T-COMP-4" in error_rules(eleven)
    nine = state_dict(nobles=True, hands=[[5], [6]])
    nine["noble_deck"].remove("mura")
    assert "T-COMP-4" in error_rules(nine)
    assert error_rules(state_dict(nobles=True, hands=[[5], [6]])) == set()


def test_T_COMP_2_each_deck_holds_its_own_kind_of_card():
    noble_in_deck = state_dict(nobles=True, hands=[[5], [6]])
    noble_in_deck["noble_deck"].remove("mura")
    noble_in_deck["deck"].append("mura")
    assert "T-COMP-4" in error_rules(noble_in_deck)
    tower_in_noble_deck = state_dict(nobles=True, hands=[[5], [6]])
    tower_in_noble_deck["deck"].remove("5")
    tower_in_noble_deck["noble_deck"].append("5")
    assert "T-COMP-4" in error_rules(tower_in_noble_deck)


def test_T_COMP_2_a_played_row_holds_action_nobles_and_giostra_only():
    assert error_rules(state_dict(nobles=True, played=[["giostra", "monumento"], [VF, "mura"]])) == set()
    with_stone = state_dict(nobles=True, played=[[BP], []])
    assert "T-NOB-PLAY" in error_rules(with_stone)
    with_tower_card = state_dict(nobles=True, played=[["5"], []])
    assert "T-NOB-PLAY" in error_rules(with_tower_card)


def test_T_COMP_2_an_active_palazzo_lies_in_its_owners_played_row():
    assert error_rules(state_dict(nobles=True, played=[["palazzo"], []], palazzo=0)) == set()
    not_played = state_dict(nobles=True, palazzo=0)
    assert "T-NOB-PC" in error_rules(not_played)
    other_player = state_dict(nobles=True, played=[[], ["palazzo"]], palazzo=0)
    assert "T-NOB-PC" in error_rules(other_player)
    inactive = state_dict(nobles=True, played=[["palazzo"], []], palazzo=None)
    assert "T-NOB-PC" in error_rules(inactive)


def test_T_COMP_2_only_nobles_are_removed_from_the_game():
    assert error_rules(state_dict(nobles=True, removed=["monumento", BP])) == set()
    doc = state_dict(nobles=True, hands=[[5], [6]])
    doc["deck"].remove("5")
    doc["removed"] = ["5"]
    problems = errors(doc)
    assert problems and any(p.pointer == "/removed/0" for p in problems)


def test_T_COMP_2_base_states_have_none_of_the_noble_fields():
    doc = state_dict(hands=[[5], [6]])
    doc["removed"] = ["mura"]
    assert "T-COMP-2" in error_rules(doc)
    assert "noble_deck" not in js(torri.new_game(3)) and "removed" not in js(torri.new_game(3))


# ---------------------------------------------------------------- T-SETUP-3

def test_T_SETUP_3_the_nobles_form_a_separate_deck_and_none_is_dealt():
    for seed in range(20):
        state = torri.new_game(seed, nobles=True)
        doc = js(state)
        assert Counter(doc["noble_deck"]) == NOBLE_SET
        assert all(len(p["hand"]) == 5 and all(card.isdigit() for card in p["hand"]) for p in doc["players"])
        assert len(doc["market"]) == 4 and all(card.isdigit() for card in doc["market"])
        assert len(doc["deck"]) == 31 and all(card.isdigit() for card in doc["deck"])
        assert doc["removed"] == [] and doc["palazzo"] is None
        assert [p["played"] for p in doc["players"]] == [[], []]
        assert errors(doc) == []


def test_T_SETUP_3_the_noble_deck_is_shuffled():
    orders = [tuple(js(torri.new_game(seed, nobles=True))["noble_deck"]) for seed in range(30)]
    assert len(set(orders)) >= 25
    assert {order[0] for order in orders} == set(NOBLE_SET)  # every kind of noble comes on top for some deal
    assert js(torri.new_game(7, nobles=True)) == js(torri.new_game(7, nobles=True))  # the same seed, the same deal


def test_T_SETUP_3_the_noble_deck_is_face_down():
    state = torri.new_game(4, nobles=True)
    for viewer in (0, 1):
        assert js(torri.player_view(state, viewer))["noble_deck"] == {"count": 10, "top": [], "bottom": []}


# ---------------------------------------------------------------- T-END-3

@pytest.mark.parametrize("card", [VF, "palazzo"])
def test_T_END_3_nobles_that_touch_a_deck_cannot_be_played_in_the_ending_phase(card):
    state = ending(hands=[[card, 8, 5], [6]], towers=[["8x3"], []])
    cost = ["5", "8"] if card == "palazzo" else None
    assert rule_of(refused(state, noble(card, cost))) == "T-END-3"
    assert not any(m["type"] == "noble" for m in moves(state))
    main = nob(hands=[[card, 8, 5], [6]], towers=[["8x3"], []])
    assert play(main, noble(card, cost)).legal  # (legal in the main phase)


@pytest.mark.parametrize("card", ["monumento", "cappella", "mura"])
def test_T_END_3_monumento_cappella_and_mura_can_be_played_in_the_ending_phase(card):
    state = ending(hands=[[card, 5], [6]])
    assert noble(card) in moves(state)
    after = play(state, noble(card)).state
    assert js(after)["players"][0]["played"] == [card] and after.turn == 1


def test_T_END_3_buona_pietra_can_be_built_and_extended_in_the_ending_phase():
    state = ending(hands=[[8, 8, BP, BP], [6]], towers=[["9x3"], []], played=[[], ["mura"]])
    assert build(8, BP, 8) in moves(state) and extend(0, BP) in moves(state)
    built = play(state, build(8, BP, 8))
    assert "donazione" not in event_types(built) and built.state.pending is None and built.state.turn == 1
    extended = play(state, extend(0, BP)).state
    assert towers_of(extended, 0)[0]["cards"] == ["9", "9", "9", BP]
    assert extended.pending is None and extended.turn == 1  # no draw in the Ending phase


def test_T_END_3_giostra_can_be_played_in_the_ending_phase():
    state = ending(hands=[["monumento", 8, 8, BP], ["giostra", 6]])
    window = play(state, noble("monumento")).state
    assert moves(window) == [GIOSTRA, DECLINE]
    after = play(window, GIOSTRA).state
    assert js(after)["removed"] == ["monumento"] and js(after)["players"][1]["played"] == ["giostra"]
    stone = play(state, build(8, BP, 8)).state
    assert stone.pending.type == "giostra"
    rebuilt = play(stone, GIOSTRA).state
    assert moves(rebuilt) == [STOP]


# ---------------------------------------------------------------- T-SCORE-6

def test_T_SCORE_6_monumento_and_cappella_score_once_played():
    table = {"variant": {"nobles": True}, "highest": 0,
             "players": [{"name": "A", "towers": [tower("8x5"), tower("9x3")], "played": ["monumento", "cappella"]},
                         {"name": "B", "towers": [tower("7x5")], "played": ["mura", "giostra"]}]}
    score, warnings = torri.score_table_json(table)
    first, second = score.to_json()["players"]
    assert (first["categories"]["monumento"], first["categories"]["cappella"]) == (7, 5)
    assert (second["categories"]["monumento"], second["categories"]["cappella"]) == (0, 0)
    assert first["total"] == 17 + 10 + 7 + 5  # plain 8 and 9, the marker, Monumento, Cappella
    assert second["total"] == 7 + 10  # plain 7 and its Blessing: Mura and Giostra score nothing
    assert set(torri.CATEGORIES) >= {"monumento", "cappella"}


def test_T_SCORE_6_nobles_in_hand_or_removed_score_nothing():
    state = nob(hands=[["monumento", "cappella"], [6]], towers=[["8x5"], []], removed=[])
    assert [torri.score(state).players[0].categories[c] for c in ("monumento", "cappella")] == [0, 0]
    cancelled = nob(hands=[["monumento", "cappella"], ["giostra", 6]], towers=[["8x5"], []])
    after = play(cancelled, noble("monumento"), GIOSTRA).state
    assert torri.score(after).players[0].categories["monumento"] == 0
    kept = play(cancelled, noble("monumento"), DECLINE).state
    assert torri.score(kept).players[0].categories["monumento"] == 7
