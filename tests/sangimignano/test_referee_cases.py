"""Positions set up by hand and judged against the rule book, independently of the per-rule battery.

The board used throughout (two players), worked out on paper from S-GEO-1 and S-GEO-2:

    [0,0]  turned 0, B D A:  B on sides 0-1, D on 2-3, A on 4-5
    [1,0]  turned 1, C A B:  C on sides 1-2, A on 3-4, B on 5-0
    [1,-1] turned 1, A C D:  A on sides 1-2, C on 3-4, D on 5-0
    [0,-1] turned 0, D A B:  D on sides 0-1, A on 2-3, B on 4-5

Shared sides (side d of a hexagon meets side d + 3 of its neighbour in direction d):

    [0,0] side 0 (B)  - [1,0] side 3 (A)        [1,0] side 2 (C)  - [1,-1] side 5 (D)
    [0,0] side 1 (B)  - [1,-1] side 4 (C)       [1,-1] side 3 (C) - [0,-1] side 0 (D)
    [0,0] side 2 (D)  - [0,-1] side 5 (B)

so A[1,0] - B[0,0] - C[1,-1] - D[0,-1] is a chain of four guilds, each link across a side between two hexagons.
[0,0], [1,0] and [1,-1] meet at one corner, where A[1,0] and C[1,-1] touch without sharing a side.
"""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from service.games import sangimignano as sg
from service.games.sangimignano import engine, picture
from service.games.sangimignano.geometry import Placed, canonical_turn, neighbour, opposite, space_on_side
from service.games.sangimignano.steps import hex_step

from .helpers import build, position, refused, space, token

BOARD = [((0, 0), 0, "BDA"), ((1, 0), 1, "CAB"), ((1, -1), 1, "ACD"), ((0, -1), 0, "DAB")]
HANDS = [["ABC", "ABD", "ACD"], ["BCD", "ABC", "ABD"]]  # 4 on the table + 6 in hand + 6 in the box
CHAIN = {((1, 0), "A"): (0,), ((0, 0), "B"): (0,), ((1, -1), "C"): (0,), ((0, -1), "D"): (0,)}


def board(**extra) -> sg.State:
    return position(BOARD, players=2, **{"hands": HANDS, **extra})


def named(state: sg.State, spaces) -> set[tuple[tuple[int, int], str]]:
    lay = sg.layout(state.board)
    return {lay.name(s) for s in spaces}


def outside_neighbours(state: sg.State, at, guild) -> set[tuple[tuple[int, int], str]]:
    lay = sg.layout(state.board)
    s = lay.space(at, guild)
    return named(state, (t for t in lay.neighbours[s] if t // 3 != s // 3))


def test_the_hand_made_board_is_a_valid_position():
    assert sg.validate_state(sg.state_json(board()))[0] == []
    assert sg.validate_state(sg.state_json(board(tokens=CHAIN, step="build")))[0] == []


# ---------------------------------------------------------------- geometry

def test_S_GEO_1_the_six_sides_of_a_hexagon_face_its_axial_neighbours():
    assert [neighbour((2, -1), d) for d in range(6)] == [(3, -1), (3, -2), (2, -2), (1, -1), (1, 0), (2, 0)]
    assert [opposite(d) for d in range(6)] == [3, 4, 5, 0, 1, 2]
    # [1,0] lies in direction 0 of [0,0]: its side 3 faces back
    assert neighbour((1, 0), 3) == (0, 0) and neighbour((1, -1), 4) == (0, 0) and neighbour((0, -1), 5) == (0, 0)


@pytest.mark.parametrize("at, rotation, guilds, sides", [
    ((0, 0), 0, "BDA", "BBDDAA"),
    ((1, 0), 1, "CAB", "BCCAAB"),
    ((1, -1), 1, "ACD", "DAACCD"),
    ((5, 7), 4, "ABC", "BBCCAA"),  # A on sides 4-5, B on 0-1, C on 2-3
])
def test_S_GEO_2_guild_space_i_covers_sides_k_plus_2i_and_k_plus_2i_plus_1(at, rotation, guilds, sides):
    placed = Placed(at, *canonical_turn(rotation, tuple(guilds)))
    assert "".join(placed.guild_on_side(d) for d in range(6)) == sides
    assert "".join(guilds[space_on_side(rotation, d)] for d in range(6)) == sides


def test_S_GEO_2_turned_k_and_k_plus_2_with_the_list_turned_are_one_placement():
    # A B C turned 1 puts A on 1-2, B on 3-4, C on 5-0; B C A turned 3 and C A B turned 5 do the same.
    forms = [(1, ("A", "B", "C")), (3, ("B", "C", "A")), (5, ("C", "A", "B"))]
    placed = {Placed((0, 0), *canonical_turn(k, g)) for k, g in forms}
    assert placed == {Placed((0, 0), 1, ("A", "B", "C"))}
    assert len({hex_step(g, (-1, 0), k) for k, g in forms}) == 1
    # but A B C turned 3 is another placement: A on sides 3-4
    assert Placed((0, 0), *canonical_turn(3, ("A", "B", "C"))).guild_on_side(3) == "A"
    # the board's [1,-1] (A C D turned 1) written as C D A turned 3 and D A C turned 5: one state, tokens along
    doc = sg.state_json(board(tokens={((1, -1), "C"): (1,)}))
    entry = next(h for h in doc["board"] if h["at"] == [1, -1])
    assert entry == {"at": [1, -1], "rotation": 1, "guilds": ["A", "C", "D"], "tokens": [[], [1], []],
                     "towers": [None, None, None]}
    entry.update(rotation=3, guilds=["C", "D", "A"], tokens=[[1], [], []])
    assert sg.read_state(doc) == board(tokens={((1, -1), "C"): (1,)})
    entry.update(rotation=5, guilds=["D", "A", "C"], tokens=[[], [], [1]])
    assert sg.read_state(doc) == board(tokens={((1, -1), "C"): (1,)})


def test_S_GEO_3_spaces_are_adjacent_across_a_shared_side_only():
    state = board()
    assert outside_neighbours(state, (0, 0), "B") == {((1, 0), "A"), ((1, -1), "C")}
    assert outside_neighbours(state, (0, 0), "D") == {((0, -1), "B")}
    assert outside_neighbours(state, (0, 0), "A") == set()
    assert outside_neighbours(state, (1, 0), "C") == {((1, -1), "D")}
    assert outside_neighbours(state, (1, -1), "C") == {((0, 0), "B"), ((0, -1), "D")}
    assert outside_neighbours(state, (0, -1), "A") == set()
    # A[1,0] and C[1,-1] meet at the corner [0,0], [1,0] and [1,-1] share: not adjacent
    lay = sg.layout(state.board)
    assert lay.space((1, -1), "C") not in lay.neighbours[lay.space((1, 0), "A")]
    # the three spaces of one hexagon are pairwise adjacent
    b, d, a = (lay.space((0, 0), g) for g in "BDA")
    assert {d, a} <= set(lay.neighbours[b]) and a in lay.neighbours[d]


# ---------------------------------------------------------------- placing a hexagon

def hex_phase() -> sg.State:
    return board(step="hex", tokens={((0, 0), "A"): (0,)})


def test_S_HEX_2_a_hexagon_touching_only_one_is_refused_and_two_is_accepted():
    state = hex_phase()
    lonely = refused(state, hex_step(("A", "B", "C"), (2, 0), 0))  # touches [1,0] only
    assert lonely.rule == "S-HEX-2" and lonely.pointer == "/at" and "touch 1 hexagon" in lonely.message
    assert refused(state, hex_step(("A", "B", "C"), (-1, 1), 0)).rule == "S-HEX-2"  # touches [0,0] only
    assert refused(state, hex_step(("A", "B", "C"), (5, 5), 0)).rule == "S-HEX-2"  # touches none
    # [-1,0] touches [0,0] (its side 0 meets D) and [0,-1] (its side 1 meets B); A B C turned 0 shows A on both
    after, events = sg.apply_step(state, hex_step(("A", "B", "C"), (-1, 0), 0))
    assert events[0]["type"] == "hex" and Placed((-1, 0), 0, ("A", "B", "C")) in after.board
    assert after.players[0].hexes == (("A", "B", "D"), ("A", "C", "D"))
    assert {s.at for s in sg.legal_steps(state)} == {(-1, 0), (2, -1), (1, -2), (0, 1)}


def test_S_HEX_3_two_spaces_of_one_guild_side_by_side_anywhere_is_refused():
    state = hex_phase()
    # A B C turned 5 at [-1,0]: A on sides 5-0 (side 0 meets D: fine), B on sides 1-2: side 1 meets B of [0,-1]
    problem = refused(state, hex_step(("A", "B", "C"), (-1, 0), 5))
    assert problem.rule == "S-HEX-3" and problem.pointer == "/rotation"
    assert "B space" in problem.message and "[0, -1]" in problem.message
    assert hex_step(("A", "B", "C"), (-1, 0), 5) not in sg.legal_steps(state)
    # A B D turned 1 at [-1,0]: D on sides 5-0: side 0 meets D of [0,0]
    problem = refused(state, hex_step(("A", "B", "D"), (-1, 0), 1))
    assert problem.rule == "S-HEX-3" and "D space" in problem.message and "[0, 0]" in problem.message


def test_S_HEX_3_a_guild_meeting_itself_only_at_a_corner_is_allowed():
    state = hex_phase()
    # A B C turned 0 at [-1,0]: its A (sides 0-1) and A of [0,0] (sides 4-5) meet at one corner only
    after, _ = sg.apply_step(state, hex_step(("A", "B", "C"), (-1, 0), 0))
    lay = sg.layout(after.board)
    assert lay.space((0, 0), "A") not in lay.neighbours[lay.space((-1, 0), "A")]
    assert sg.validate_state(sg.state_json(after))[0] == []


def test_S_HEX_1_the_hexagon_comes_from_the_hand_turned_any_way():
    state = hex_phase()
    problem = refused(state, hex_step(("B", "C", "D"), (-1, 0), 0))  # P1 holds B C D, not P0
    assert problem.rule == "S-HEX-1" and problem.pointer == "/hex"
    rotations = {s.rotation for s in sg.legal_steps(state) if s.hex == ("A", "C", "D")}
    assert len(rotations) >= 3


# ---------------------------------------------------------------- tokens

def test_S_TOKEN_1_two_tokens_a_space_both_may_be_one_player_s():
    state = board()
    after, _ = sg.apply_step(state, token((0, 0), "B"))
    after = replace(after, turn=0, step=sg.TOKEN)  # P0 again, to stack a second token of theirs
    after, _ = sg.apply_step(after, token((0, 0), "B"))
    assert after.tokens[space(after, (0, 0), "B")] == (0, 0) and after.players[0].tokens == 18
    third = refused(replace(after, turn=1, step=sg.TOKEN), token((0, 0), "B"))
    assert third.rule == "S-TOKEN-1" and third.pointer == "/at"
    mixed = board(tokens={((0, 0), "B"): (0, 1)})
    assert token((0, 0), "B") not in sg.legal_steps(mixed)
    assert refused(mixed, token((0, 0), "B")).rule == "S-TOKEN-1"


def test_S_TURN_1_one_token_on_a_space_with_room_never_on_a_tower():
    state = board(towers={((0, 0), "B"): 1}, tokens={((1, 0), "A"): (1, 1)})
    legal = sg.legal_steps(state)
    assert {(s.at, s.guild) for s in legal} == {(p.at, g) for p in state.board for g in p.guilds} - {
        ((0, 0), "B"), ((1, 0), "A")}
    problem = refused(state, token((0, 0), "B"))
    assert problem.rule == "S-BUILD-3" and problem.pointer == "/at"
    problem = refused(state, token((0, 0), "C"))  # [0,0] shows B, D, A
    assert problem.rule == "S-GEO-2" and problem.pointer == "/guild"


# ---------------------------------------------------------------- building

def build_phase(tokens, **extra) -> sg.State:
    return board(tokens=tokens, step="build", **extra)


def test_S_BUILD_1_a_chain_of_four_guilds_across_hexagons_qualifies():
    state = build_phase(CHAIN)
    assert named(state, sg.buildable(state, 0)) == set(CHAIN)
    for at, guild in CHAIN:
        after, events = sg.apply_step(state, build(at, guild))
        assert after.towers[space(after, at, guild)] == 0 and events[0]["type"] == "built"
    assert sg.buildable(state, 1) == []


def test_S_BUILD_1_a_group_with_a_guild_repeated_does_not_qualify():
    # A[1,0] - B[0,0] - D[0,0] - B[0,-1]: connected, but B twice and no C
    tokens = {((1, 0), "A"): (0,), ((0, 0), "B"): (0,), ((0, 0), "D"): (0,), ((0, -1), "B"): (0,)}
    state = board(tokens=tokens)
    assert sg.buildable(state, 0) == []
    problem = refused(replace(state, step=sg.BUILD), build((0, 0), "B"))
    assert problem.rule == "S-BUILD-1" and problem.pointer == "/at"
    assert "reaches A, B, D" in problem.message and "none of their tokens on C" in problem.message


def test_S_BUILD_1_four_guilds_not_connected_do_not_qualify():
    # A[1,0] and C[1,-1] touch at a corner only; D[0,0] - B[0,-1] share a side: three groups, not one
    tokens = {((1, 0), "A"): (0,), ((1, -1), "C"): (0,), ((0, 0), "D"): (0,), ((0, -1), "B"): (0,)}
    state = board(tokens=tokens)
    assert sg.buildable(state, 0) == []
    problem = refused(replace(state, step=sg.BUILD), build((1, 0), "A"))
    assert problem.rule == "S-BUILD-1" and "none of their tokens on B or C or D" in problem.message
    problem = refused(replace(state, step=sg.BUILD), build((0, 0), "D"))
    assert "none of their tokens on A or C" in problem.message


def test_S_BUILD_1_tokens_of_another_player_do_not_count():
    tokens = {**CHAIN, ((0, 0), "B"): (1,)}
    state = board(tokens=tokens)
    assert sg.buildable(state, 0) == []
    problem = refused(replace(state, step=sg.BUILD), build((0, 0), "B"))
    assert problem.rule == "S-BUILD-1" and "P0 has no token on B at [0, 0]" in problem.message


def test_S_BUILD_3_a_group_through_a_tower_s_space_does_not_qualify():
    tokens = {k: v for k, v in CHAIN.items() if k != ((0, 0), "B")}
    tokens[((0, -1), "B")] = (0,)  # C[1,-1] - D[0,-1] - B[0,-1]; A[1,0] reaches them only through B[0,0]
    state = board(tokens=tokens, towers={((0, 0), "B"): 1})
    assert sg.buildable(state, 0) == []
    problem = refused(replace(state, step=sg.BUILD), build((1, -1), "C"))
    assert problem.rule == "S-BUILD-1" and "none of their tokens on A" in problem.message
    problem = refused(replace(state, step=sg.BUILD), build((0, 0), "B"))
    assert problem.rule == "S-BUILD-3"
    # the same tokens with B[0,0] free and held qualify
    assert sg.buildable(board(tokens={**tokens, ((0, 0), "B"): (0,)}), 0)


def test_S_BUILD_2_the_tower_s_space_returns_its_tokens_of_any_colour_the_others_stay():
    tokens = {**CHAIN, ((0, 0), "B"): (0, 1), ((1, -1), "C"): (0, 1)}
    state = build_phase(tokens)
    after, events = sg.apply_step(state, build((0, 0), "B"))
    assert after.tokens[space(after, (0, 0), "B")] == () and after.towers[space(after, (0, 0), "B")] == 0
    assert [p.tokens for p in after.players] == [state.players[0].tokens + 1, state.players[1].tokens + 1]
    assert [p.towers for p in after.players] == [9, 10]
    for at, guild in [((1, 0), "A"), ((1, -1), "C"), ((0, -1), "D")]:
        assert after.tokens[space(after, at, guild)] == state.tokens[space(state, at, guild)]
    assert events[0] == {"type": "built", "player": 0, "at": [0, 0], "guild": "B", "returned": [0, 1],
                         "towers_left": 9}
    # two tokens of the builder's own on the tower's space both go home
    own = build_phase({**CHAIN, ((1, 0), "A"): (0, 0)})
    after, events = sg.apply_step(own, build((1, 0), "A"))
    assert after.players[0].tokens == own.players[0].tokens + 2 and events[0]["returned"] == [0, 0]


def test_S_BUILD_4_one_tower_a_turn_even_with_a_second_group():
    everything = {(at, g): (0,) for at, _, gs in BOARD for g in gs}
    state = build_phase(everything)
    after, events = sg.apply_step(state, build((0, 0), "B"))
    assert after.turn == 1 and after.step == sg.TOKEN
    assert [e["type"] for e in events].count("built") == 1
    assert sg.buildable(replace(after, turn=0, step=sg.BUILD), 0)  # still a group, for P0's next turn
    assert refused(after, build((0, 0), "D")).rule == "S-TURN-1"


def test_S_TURN_3_building_is_optional_and_passes_when_impossible():
    state = build_phase(CHAIN)
    after, events = sg.apply_step(state, sg.Step("end"))
    assert events[0] == {"type": "declined", "player": 0} and after.turn == 1
    assert after.tokens == state.tokens and after.towers == state.towers
    # without a group the turn ends after the hexagon
    plain = hex_phase()
    after, events = sg.apply_step(plain, hex_step(("A", "B", "C"), (-1, 0), 0))
    assert {"type": "skipped", "player": 0, "phase": "build", "reason": "no_group"} in events and after.turn == 1


# ---------------------------------------------------------------- the variant

LARGE = {**CHAIN, ((0, -1), "B"): (0,)}  # B[0,-1] hangs on D[0,-1]: in the group, in no four-guild quartet


def test_S_VAR_1_a_larger_group_lets_the_tower_go_on_any_of_its_spaces():
    base = build_phase(LARGE)
    assert named(base, sg.buildable(base, 0)) == set(CHAIN)
    problem = refused(base, build((0, -1), "B"))
    assert problem.rule == "S-BUILD-1" and "touch all four guilds" in problem.message
    large = build_phase(LARGE, large=True)
    assert named(large, sg.buildable(large, 0)) == set(LARGE)
    after, _ = sg.apply_step(large, build((0, -1), "B"))
    assert after.towers[space(after, (0, -1), "B")] == 0


def test_S_VAR_1_all_four_guilds_must_appear_in_the_connected_group():
    # B[0,-1] - D[0,0] - B[0,0] - A[1,0] - C[1,0] (the last two one hexagon's spaces): all four guilds
    tokens = {((0, -1), "B"): (0,), ((0, 0), "D"): (0,), ((0, 0), "B"): (0,), ((1, 0), "A"): (0,),
              ((1, 0), "C"): (0,)}
    large = build_phase(tokens, large=True)
    assert named(large, sg.buildable(large, 0)) == set(tokens)
    without_c = {k: v for k, v in tokens.items() if k != ((1, 0), "C")}
    large = board(tokens=without_c, large=True)
    assert sg.buildable(large, 0) == []
    problem = refused(replace(large, step=sg.BUILD), build((0, 0), "D"))
    assert problem.rule == "S-VAR-1" and "none of their tokens on C" in problem.message


# ---------------------------------------------------------------- the end

def test_S_END_1_the_tenth_tower_ends_the_game_at_once():
    state = build_phase(CHAIN)
    state = replace(state, players=(replace(state.players[0], towers=1),) + state.players[1:])
    after, events = sg.apply_step(state, build((1, 0), "A"))
    assert after.over and after.step is None and after.turn == 0
    assert [e["type"] for e in events] == ["built", "game_over"]  # no next turn, no S-END-2 check
    assert events[-1] == {"type": "game_over", "reason": "tenth_tower", "winners": [0]}
    assert refused(after, token((0, 0), "D")).rule == "S-END-1"
    assert sg.legal_steps(after) == []


def no_hexes(**extra) -> sg.State:
    return position(BOARD, players=2, hands=[[], []], **extra)


def test_S_SVC_STUCK_a_possible_group_needs_room_and_enough_tokens():
    # P0 holds A[1,0] and B[0,0]; C[1,-1] and D[0,-1] are free: two more tokens make the chain
    tokens = {((1, 0), "A"): (0,), ((0, 0), "B"): (0,)}
    assert engine.possible_group(no_hexes(tokens=tokens, supply={0: 2, 1: 0}), 0)
    short = no_hexes(tokens=tokens, supply={0: 1, 1: 0})
    # every quartet through both of P0's tokens needs a C and a D as well: one token is not enough
    assert not engine.possible_group(short, 0) and engine.stuck(short)
    # the board's only C spaces, [1,0] and [1,-1], full of P1's tokens: no quartet is possible, whatever P0 holds
    full = {((1, -1), "C"): (1, 1), ((1, 0), "C"): (1, 1)}
    blocked = no_hexes(tokens={**tokens, **full}, supply={0: 18, 1: 16})
    assert not engine.possible_group(blocked, 0)
    # a space holding one of P0's tokens and one of P1's counts as held
    shared = {((1, -1), "C"): (0, 1), ((1, 0), "C"): (1, 1)}
    open_ = no_hexes(tokens={**tokens, **shared}, supply={0: 1, 1: 17})
    assert engine.possible_group(open_, 0)  # one more token on D[0,-1] (or D[0,0]) completes it


def test_S_END_2_the_game_ends_after_the_turn_that_leaves_no_possible_group():
    # P0 holds A[1,0] - B[0,0] - C[1,-1] and one token, which a D next to them would complete; they put it on
    # A[0,-1] instead: nobody can ever build, so the game is over after P0's turn
    tokens = {((1, 0), "A"): (0,), ((0, 0), "B"): (0,), ((1, -1), "C"): (0,)}
    state = no_hexes(tokens=tokens, supply={0: 1, 1: 0})
    assert not engine.stuck(state)
    after, events = sg.apply_step(state, token((0, -1), "A"))
    assert after.over and events[-1]["type"] == "game_over" and events[-1]["reason"] == "no_possible_group"
    # with a possible group left, play goes on
    roomy = no_hexes(tokens={((1, 0), "A"): (0,), ((0, 0), "B"): (0,)}, supply={0: 3, 1: 0})
    after, events = sg.apply_step(roomy, token((1, -1), "C"))
    assert not after.over and after.turn == 0 and after.step == sg.TOKEN  # P1 has nothing to do: skipped


@pytest.mark.parametrize("towers, tokens, winners, decided_by", [
    ({((0, 0), "B"): 0, ((1, 0), "A"): 0, ((0, -1), "D"): 1}, {((0, 0), "A"): (1, 1)}, (0,), "towers"),
    ({((0, 0), "B"): 0, ((0, -1), "D"): 1}, {((0, 0), "A"): (1,), ((1, 0), "C"): (0, 1)}, (1,), "tokens"),
    ({((0, 0), "B"): 0, ((0, -1), "D"): 1}, {((0, 0), "A"): (0, 1)}, (0, 1), "shared"),
    ({}, {}, (0, 1), "shared"),
])
def test_S_END_3_most_towers_then_most_tokens_then_a_shared_win(towers, tokens, winners, decided_by):
    score = sg.score(board(towers=towers, tokens=tokens))
    assert (score.winners, score.decided_by) == (winners, decided_by)
    assert score.winner == (winners[0] if len(winners) == 1 else None)


def test_S_GEO_3_the_picture_draws_adjacent_spaces_with_a_common_edge():
    """The SVG's rhombi: two spaces of different hexagons share an edge (two corners) exactly when S-GEO-3 makes
    them adjacent; A[1,0] and C[1,-1] share one corner only."""
    state = board()
    drawn: dict[tuple[tuple[int, int], str], set[tuple[int, ...]]] = {}
    for q, r, body in re.findall(r'<g class="hexagon" data-at="(-?\d+),(-?\d+)">(.*?)<polygon points="[^"]*" '
                                 r'fill="none"', picture.svg(state)):
        for guild, points in re.findall(r'<g class="space" data-guild="(\w)">.*?<polygon points="([^"]*)"', body):
            drawn[((int(q), int(r)), guild)] = {tuple(round(float(v)) for v in p.split(",")) for p in points.split()}
    assert len(drawn) == 12
    lay = sg.layout(state.board)
    for one, two in ((a, b) for a in drawn for b in drawn if a[0] < b[0]):
        adjacent = lay.space(*two) in lay.neighbours[lay.space(*one)]
        assert (len(drawn[one] & drawn[two]) == 2) == adjacent, (one, two)
    assert len(drawn[((1, 0), "A")] & drawn[((1, -1), "C")]) == 1
