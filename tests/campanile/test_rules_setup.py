"""Per-rule tests: components (C-COMP) and setup (C-SETUP)."""
from __future__ import annotations

from collections import Counter

import pytest

from service.games import campanile
from service.games.campanile import STYLES
from tests.campanile.helpers import (BET, DRAW, NO_BET, PLAY, error_rules, errors, make, moves, play, refused,
                                     state_dict, table_doc)

COUNTS = (2, 3, 4, 5)


def _all_cards(state: campanile.State) -> Counter:
    return campanile.known_cards(state)


# ---------------------------------------------------------------- C-COMP


def test_C_COMP_1_five_styles_in_a_row_fourteen_cards_each():
    state = campanile.new_game(1, players=5)  # five players: nothing removed (C-SETUP-1)
    assert [t.style for t in state.towers] == ["A", "B", "C", "D", "E"]
    assert _all_cards(state) == Counter({style: 14 for style in STYLES})
    assert sum(_all_cards(state).values()) == 70


def test_C_COMP_1_a_state_needs_the_five_towers_at_their_positions():
    doc = state_dict()
    doc["towers"] = doc["towers"][:4]
    assert error_rules(doc) == {"C-COMP-1"}
    doc = state_dict()
    doc["towers"][0]["style"], doc["towers"][1]["style"] = "B", "A"
    problems = errors(doc)
    assert {(p.rule, p.pointer) for p in problems} == {("C-COMP-1", "/towers/0/style"),
                                                       ("C-COMP-1", "/towers/1/style")}
    doc = state_dict()
    for tower in doc["towers"]:
        del tower["style"]  # may be left out: position i has style i
    assert errors(doc) == []
    assert [t["style"] for t in campanile.state_json(campanile.read_state(doc))["towers"]] == list(STYLES)


def test_C_COMP_2_three_finito_piles():
    state = campanile.new_game(2, players=3)
    assert len(state.piles) == 3
    doc = state_dict()
    doc["piles"].append([])
    assert error_rules(doc) == {"C-COMP-2"}
    doc = state_dict()
    doc["piles"] = doc["piles"][:2]
    assert "C-COMP-2" in error_rules(doc)


def test_C_COMP_3_four_flags_8_4_6_3_4_2_2_1():
    # five towers of distinct heights, two bettors under each: the tallest pays 8/4, then 6/3, 4/2, 2/1, then nothing
    bets = [[(0, 3), (1, 1)], [(0, 2), (1, 1)], [(0, 2), (1, 1)], [(0, 2), (1, 1)], [(0, 1), (1, 1)]]
    towers = {t: ([3] * (4 - t), bets[t]) for t in range(5)}
    result = campanile.score_table(campanile.read_table(table_doc(2, towers))[0])
    assert [t.flag for t in result.towers] == [(8, 4), (6, 3), (4, 2), (2, 1), None]
    assert [p.towers for p in result.players] == [(8, 6, 4, 2, 0), (4, 3, 2, 1, 0)]
    assert campanile.FLAGS == ((8, 4), (6, 3), (4, 2), (2, 1))


def test_C_COMP_4_each_player_has_five_ones_three_twos_one_three():
    state = campanile.new_game(3, players=4)
    assert all(p.supply == (5, 3, 1) for p in state.players)
    assert campanile.state_json(state)["players"][0]["supply"] == {"1": 5, "2": 3, "3": 1}
    doc = state_dict(supplies=[{"1": 5, "2": 3, "3": 2}, {"1": 5, "2": 3, "3": 1}])
    problems = errors(doc)
    assert [(p.rule, p.pointer) for p in problems] == [("C-COMP-5", "/players/0/supply/3")]
    assert "3 tokens of value" not in problems[0].message and "has 1 token of value 3" in problems[0].message


def test_C_COMP_4_a_token_belongs_to_a_player_of_the_game():
    doc = state_dict(plays={0: [1]}, tokens={0: [(3, 1)]})
    problems = errors(doc)
    assert ("C-COMP-4", "/towers/0/tokens/0/player") in {(p.rule, p.pointer) for p in problems}


def test_C_COMP_4_a_used_up_token_value_cannot_be_bet():
    state = make(plays={0: [3]}, tokens={0: [(0, 3)]}, hands=[["A", "B"], ["C", "D", "E"]], tops=("A", "B", "C"),
                 step="bet", last_play={"tower": 0, "stories": 3})
    assert state.players[0].supply == (5, 3, 0)
    problem = refused(state, BET(1, 3))
    assert problem.rule == "C-TURN-BET" and "C-COMP-4" in problem.message and problem.pointer == "/0/value"
    assert moves(state) == [NO_BET]


def test_C_COMP_5_an_extra_card_is_reported_where_it_lies():
    doc = state_dict()
    k = doc["piles"][2].index("B")
    doc["piles"][2][k] = "A"  # 2 players: 9 A in play (C-SETUP-1); this is a tenth, and a B is missing
    problems = errors(doc)
    assert [p.rule for p in problems] == ["C-COMP-5"]
    pointer = problems[0].pointer  # the tenth A met, in a fixed order: hands, piles, towers, removed
    assert pointer.startswith("/piles/2/") and doc["piles"][2][int(pointer.rsplit("/", 1)[1])] == "A"
    assert "One A too many" in problems[0].message and "9 cards of each style" in problems[0].message
    doc["piles"][2].append("B")  # 46 cards, and pile 3 larger than dealt
    assert [p.pointer for p in errors(doc)] == [pointer, "", "/piles/2"]  # every problem at once


def test_C_COMP_5_a_missing_card_breaks_conservation():
    doc = state_dict()
    doc["piles"][2].pop()
    assert [(p.rule, p.pointer) for p in errors(doc)] == [("C-COMP-5", "")]


def test_C_COMP_5_tokens_are_in_supply_or_under_one_tower():
    doc = state_dict(plays={1: [2]}, tokens={1: [(1, 2)]})
    assert errors(doc) == []
    doc["players"][1]["supply"]["2"] = 3  # the 2 under tower 1 is also still in supply
    assert [(p.rule, p.pointer) for p in errors(doc)] == [("C-COMP-5", "/players/1/supply/2")]


def test_C_COMP_5_playing_and_drawing_move_cards_never_make_or_lose_them():
    state = campanile.new_game(11, players=3)
    before = sum(campanile.known_cards(state).values())
    card = state.players[0].hand[0]
    after = play(state, PLAY(card, 2), NO_BET, DRAW)
    assert sum(campanile.known_cards(after).values()) == before == campanile.cards_in_play(3)
    assert campanile.known_cards(after) == campanile.known_cards(state)


# ---------------------------------------------------------------- C-SETUP


@pytest.mark.parametrize("players, per_style", [(2, 9), (3, 11), (4, 13), (5, 14)])
def test_C_SETUP_1_cards_removed_from_each_style_by_player_count(players, per_style):
    state = campanile.new_game(5, players=players)
    assert campanile.known_cards(state) == Counter({style: per_style for style in STYLES})
    assert campanile.SETUP_REMOVED == {2: 5, 3: 3, 4: 1, 5: 0}


@pytest.mark.parametrize("count", [1, 6])
def test_C_SETUP_1_two_to_five_players(count):
    doc = state_dict(2)
    doc["players"] = [doc["players"][0]] * count if count == 1 else doc["players"] * 3
    assert "C-SETUP-1" in error_rules(doc)
    with pytest.raises(campanile.MalformedError):
        campanile.new_game(1, players=count)


@pytest.mark.parametrize("players, size, removed", [(2, 13, 0), (3, 15, 1), (4, 17, 2), (5, 18, 1)])
def test_C_SETUP_2_three_cards_each_three_equal_piles_the_rest_removed(players, size, removed):
    state = campanile.new_game("setup", players=players)
    assert [p.hand_size for p in state.players] == [3] * players
    assert [p.size for p in state.piles] == [size] * 3
    assert len(state.removed) == removed
    assert (campanile.pile_size(players), campanile.leftover(players)) == (size, removed)


def test_C_SETUP_2_a_pile_larger_than_dealt_or_wrong_removed_count_is_impossible():
    doc = state_dict(3)
    doc["piles"][0].append(doc["removed"].pop())  # 16 cards on pile 1, none removed
    assert {(p.rule, p.pointer) for p in errors(doc)} == {("C-SETUP-2", "/piles/0"), ("C-SETUP-2", "/removed")}


def test_C_SETUP_2_the_same_seed_deals_the_same_and_another_seed_another():
    for players in COUNTS:
        first = campanile.state_json(campanile.new_game("same", players=players))
        assert campanile.state_json(campanile.new_game("same", players=players)) == first
        assert campanile.state_json(campanile.new_game("other", players=players)) != first
    named = campanile.new_game(9, names=["Ada", "Bea", "Cy"])
    assert [p.name for p in named.players] == ["Ada", "Bea", "Cy"]
    assert named.piles == campanile.new_game(9, players=3).piles  # names do not change the deal
    assert campanile.new_game(9, players=3, bet_on_played=True).piles == named.piles  # nor does the variant


def test_C_SETUP_3_every_pile_shows_its_top_card():
    doc = state_dict()
    view = campanile.state_json(campanile.player_view(campanile.read_state(doc), 0))
    assert all(isinstance(p, dict) and "top" in p for p in view["piles"])
    del view["piles"][1]["top"]
    assert [(p.rule, p.pointer) for p in errors(view)] == [("C-SETUP-3", "/piles/1/top")]


def test_C_SETUP_3_player_0_starts_and_play_passes_in_order():
    state = campanile.new_game(4, players=3)
    assert state.turn == 0 and state.step == "play"
    turns = [state.turn]
    for _ in range(4):
        card = state.players[state.turn].hand[0]
        state = play(state, PLAY(card, 1), NO_BET, DRAW)
        turns.append(state.turn)
    assert turns == [0, 1, 2, 0, 1]
    doc = state_dict(3, turn=3 - 1)
    assert errors(doc) == []
    doc["turn"] = 3
    assert [(p.rule, p.pointer) for p in errors(doc)] == [("C-SETUP-3", "/turn")]
