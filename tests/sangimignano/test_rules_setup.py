"""The components, the geometry and the setup: S-COMP-*, S-GEO-*, S-SETUP-*, S-SVC-TILES, S-SVC-START."""
from __future__ import annotations

from collections import Counter

import pytest

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import DIRECTIONS, KINDS, neighbour, opposite, space_on_side

from .helpers import position
from .helpers import space as helpers_space

THREE = [((0, 0), 0, "ABC"), ((1, 0), 0, "DBC"), ((0, 1), 0, "DAB")]  # a valid start for three players
HANDS_3P = [["ABD", "ACD", "BCD"], ["ABC", "ADB", "ACB"], ["ADC", "BDC", "ABD"]]


def fresh_3p(**extra) -> sg.State:
    return position(THREE, players=3, hands=HANDS_3P, box=4, **extra)


def errors(state_doc: dict) -> set[tuple[str | None, str]]:
    return {(p.rule, p.pointer) for p in sg.validate_state(state_doc)[0]}


def test_fresh_3p_position_is_valid():
    assert sg.validate_state(sg.state_json(fresh_3p()))[0] == []


# ---------------------------------------------------------------- components

def test_S_COMP_1_a_hexagon_shows_three_different_guilds():
    doc = sg.state_json(fresh_3p())
    doc["board"][1]["guilds"] = ["A", "A", "C"]
    assert ("S-COMP-1", "/board/1/guilds") in errors(doc)
    doc = sg.state_json(fresh_3p())
    doc["players"][0]["hexes"][0] = ["B", "D", "B"]
    assert ("S-COMP-1", "/players/0/hexes/0") in errors(doc)
    with pytest.raises(sg.InvalidStateError) as caught:
        sg.new_game(1, players=2, hexes=[["A", "B", "C"]] * 15 + [["C", "C", "D"]])
    assert caught.value.problems[0].rule == "S-COMP-1"
    assert all(len(set(kind)) == 3 for kind in sg.default_hexes())


def test_S_COMP_2_each_player_has_ten_towers_and_twenty_tokens():
    state = sg.new_game(3, players=4)
    assert [(p.tokens, p.towers) for p in state.players] == [(20, 10)] * 4


def test_S_COMP_3_the_default_set_is_every_kind_twice():
    assert Counter(sg.default_hexes()) == {kind: 2 for kind in KINDS}
    assert len(KINDS) == 8 and len(sg.default_hexes()) == sg.HEXAGONS


def test_S_SVC_TILES_new_deals_the_caller_s_hexagons():
    own = [["A", "B", "C"]] * 8 + [["B", "A", "D"]] * 8  # a set unlike the default one
    state = sg.new_game(5, players=2, hexes=own)
    dealt = Counter(h for p in state.players for h in p.hexes) + Counter(p.guilds for p in state.board)
    assert set(h for p in state.players for h in p.hexes) <= {("A", "B", "C"), ("A", "D", "B")}
    assert sum(dealt.values()) == 10 and state.box == 6
    assert sg.validate_state(sg.state_json(state))[0] == []
    with pytest.raises(sg.InvalidStateError):
        sg.new_game(5, players=2, hexes=own[:15])
    with pytest.raises(sg.MalformedError):
        sg.new_game(5, players=2, hexes=[["A", "B", "X"]] * 16)


def test_S_COMP_4_conservation_of_hexagons_tokens_and_towers():
    doc = sg.state_json(fresh_3p(tokens={((0, 0), "A"): (1,)}))
    assert errors(doc) == set()
    doc["players"][1]["tokens"] = 20  # one token both in supply and on the board
    assert errors(doc) == {("S-COMP-4", "/players/1/tokens")}
    doc = sg.state_json(fresh_3p(towers={((0, 0), "A"): 2}))
    doc["players"][2]["towers"] = 10
    assert ("S-COMP-4", "/players/2/towers") in errors(doc)
    doc = sg.state_json(fresh_3p())
    doc["box"] = 5  # seventeen hexagons
    assert ("S-COMP-4", "/board") in errors(doc)
    doc = sg.state_json(fresh_3p())
    doc["board"][0]["tokens"][0] = [3]  # a fourth player's token in a three-player game
    assert ("S-COMP-4", "/board/0/tokens/0") in errors(doc)


# ---------------------------------------------------------------- geometry

def test_S_GEO_1_sides_face_the_axial_neighbours_counter_clockwise():
    assert DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for side in range(6):
        assert neighbour(neighbour((2, -1), side), opposite(side)) == (2, -1)
    doc = sg.state_json(fresh_3p())
    doc["board"][2]["at"] = [0, 0]  # two hexagons on one place
    assert ("S-GEO-1", "/board/2/at") in errors(doc)


def test_S_GEO_2_space_i_covers_sides_k_plus_2i_and_the_next():
    for k in range(6):
        for side in range(6):
            assert space_on_side(k, side) == ((side - k) % 6) // 2
    # [B, C, A] turned by 2 is [A, B, C] turned by 0: each side shows the same guild, and the tokens move along.
    doc = sg.state_json(fresh_3p())
    doc["board"][0] = {"at": [0, 0], "rotation": 2, "guilds": ["B", "C", "A"], "tokens": [[1], [], []]}
    doc["players"][1]["tokens"] = 19
    state = sg.read_state(doc)
    assert state.board[0].rotation == 0 and state.board[0].guilds == ("A", "B", "C")
    assert state.tokens[helpers_space(state, (0, 0), "B")] == (1,)
    assert sg.state_json(state)["board"][0]["tokens"] == [[], [1], []]
    assert state == fresh_3p(tokens={((0, 0), "B"): (1,)})


def test_S_GEO_3_adjacent_spaces_share_a_side_not_a_corner():
    lay = sg.layout(fresh_3p().board)
    a00, b00, c00 = (lay.space((0, 0), g) for g in "ABC")
    assert {b00, c00} <= set(lay.neighbours[a00])  # one hexagon's spaces are pairwise adjacent
    assert lay.space((1, 0), "B") in lay.neighbours[a00]  # side 0 of [0,0] (A) meets side 3 of [1,0] (B)
    corner = {lay.space((0, 1), g) for g in "DAB"}  # [0,1] meets [0,0]'s space A only at a corner
    assert not corner & set(lay.neighbours[a00])
    assert lay.space((0, 1), "A") in lay.neighbours[c00]


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players, table, hand, box", [(2, 2, 4, 6), (3, 3, 3, 4), (4, 4, 3, 0)])
def test_S_SETUP_1_hexagons_on_the_table_in_hand_and_in_the_box(players, table, hand, box):
    state = sg.new_game(11, players=players)
    assert len(state.board) == table and state.box == box
    assert [p.hand_size for p in state.players] == [hand] * players
    doc = sg.state_json(state)
    doc["box"] += 1
    doc["players"][0]["hexes"] = doc["players"][0]["hexes"][1:]
    assert ("S-SETUP-1", "/box") in errors(doc)


def test_S_SETUP_1_too_many_players_or_hexagons_in_hand():
    doc = sg.state_json(fresh_3p())
    doc["players"].append(dict(doc["players"][0], name="Fifth"))
    doc["players"].append(dict(doc["players"][0], name="Sixth"))
    assert errors(doc) == {("S-SETUP-1", "/players")}
    with pytest.raises(sg.MalformedError):
        sg.new_game(1, players=5)


def test_S_SETUP_2_the_starting_hexagons_never_show_a_guild_twice_across_a_side():
    for seed in range(40):
        for players in (2, 3, 4):
            lay = sg.layout(sg.new_game(seed, players=players).board)
            for s in range(lay.spaces):
                assert all(lay.guild[s] != lay.guild[t] for t in lay.neighbours[s])
    # side 0 of [0,0] shows A; [B, A, C] at [1,0] turned 0 shows A on side 3 as well
    doc = sg.state_json(position([((0, 0), 0, "ABC"), ((1, 0), 0, "BAC")], hands=[["ABC"] * 4] * 2, box=6))
    assert errors(doc) == {("S-SETUP-2", "/board/0")}


def test_S_SVC_START_the_deal_lays_the_start_at_fixed_places_turned_by_the_seed():
    for players in (2, 3, 4):
        state = sg.new_game(8, players=players)
        assert [p.at for p in state.board] == sorted(sg.model.START[players])
        assert state == sg.new_game(8, players=players)
    turnings = {tuple((p.rotation, p.guilds) for p in sg.new_game(seed, players=4).board) for seed in range(12)}
    assert len(turnings) > 1


def test_S_SETUP_3_player_0_starts_and_play_passes_in_order():
    state = sg.new_game(2, players=3)
    assert state.turn == 0 and state.step == sg.TOKEN
    seen = [state.turn]
    while len(seen) < 7:
        state = sg.apply_step(state, sg.legal_steps(state)[0])[0]
        if state.turn != seen[-1]:
            seen.append(state.turn)
    assert seen == [0, 1, 2, 0, 1, 2, 0]
    doc = sg.state_json(fresh_3p())
    doc["turn"] = 3
    assert ("S-SETUP-3", "/turn") in errors(doc)
