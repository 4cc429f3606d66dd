"""Per-rule tests: the end of the game (C-END-1) and scoring (C-END-2, C-END-3, C-END-4)."""
from __future__ import annotations

from service.games import campanile
from tests.campanile.helpers import (BET, DRAW, NO_BET, PLAY, errors, make, moves, play, refused, state_dict,
                                     table_doc)

FOUR_CARDS_EACH = {0: [1, 1, 1, 1], 1: [1, 1, 1, 1], 2: [1, 1, 1, 1]}


def _score_table(players: int, towers: dict) -> campanile.Score:
    return campanile.score_table(campanile.read_table(table_doc(players, towers))[0])


# ---------------------------------------------------------------- C-END-1


def _last_card_of_pile_1() -> campanile.State:
    """Player 0 has just built 1 story on tower 0 (and bet), and pile 1 holds one card: the game's last draw."""
    plays = {k: list(v) for k, v in FOUR_CARDS_EACH.items()}
    plays[0].append(1)
    return make(hands=[["B", "C"], ["C", "D", "E"]], plays=plays, tokens={1: [(0, 1)]}, piles={0: ["E"]},
                step="draw", last_play={"tower": 0, "stories": 1})


def test_C_END_1_taking_the_last_card_of_a_pile_ends_the_game_at_once():
    state = _last_card_of_pile_1()
    assert moves(state) == [DRAW]
    after, events = campanile.apply_step(state, campanile.parse_step(DRAW))
    assert after.step == "over" and after.over and after.piles[0].size == 0
    assert after.players[0].hand == ("B", "C", "E") and after.turn == 0 and after.last_play is None
    assert [e["type"] for e in events] == ["drew", "game_over"]  # no next turn
    assert events[1] == {"type": "game_over", "reason": "pile_empty", "pile": 1, "winners": [0]}
    assert events[0]["revealed"] is None and events[0]["left"] == 0
    assert moves(after) == [] and campanile.to_act(after) is None
    for move in (PLAY("B", 1), NO_BET, DRAW, BET(0, 3)):
        problem = refused(after, move)
        assert problem.rule == "C-END-1"


def test_C_END_1_the_game_is_over_exactly_when_a_pile_is_empty():
    over = campanile.state_json(campanile.apply_steps(_last_card_of_pile_1(), [DRAW]).state)
    assert errors(over) == []
    going_on = dict(over, step="play")
    assert [(p.rule, p.pointer) for p in errors(going_on)] == [("C-END-1", "/piles/0")]
    too_soon = state_dict(step="over")
    assert [(p.rule, p.pointer) for p in errors(too_soon)] == [("C-END-1", "/step")]


def test_C_END_1_a_pile_running_low_does_not_end_the_game():
    plays = {k: list(v) for k, v in FOUR_CARDS_EACH.items()}
    plays[0].append(2)
    state = make(hands=[["B", "C"], ["C", "D", "E"]], plays=plays, piles={0: ["E"]}, step="draw",
                 last_play={"tower": 0, "stories": 2})
    after = play(state, DRAW)  # from pile 2: pile 1 keeps its last card
    assert after.step == "play" and after.turn == 1 and after.piles[0].size == 1


# ---------------------------------------------------------------- C-END-2


def test_C_END_2_the_tallest_towers_take_the_flags_equal_heights_nearer_the_piles_first():
    heights = {0: [3], 1: [3, 2], 2: [2, 3], 4: [2]}  # heights 3, 5, 5, 0, 2
    towers = {t: (plays, [(0, 1)]) for t, plays in heights.items()}
    towers[3] = ([], [(0, 1)])
    result = _score_table(2, towers)
    ranks = {t.position: t.rank for t in result.towers}
    assert ranks == {1: 1, 2: 2, 0: 3, 4: 4, 3: 5}
    assert [t.flag for t in result.towers] == [(4, 2), (8, 4), (6, 3), None, (2, 1)]
    tied = result.towers[2].to_json()
    assert (tied["ranked_by"], tied["tied_with"]) == ("position", [1])
    assert result.towers[0].to_json()["ranked_by"] == "height"
    assert result.players[0].towers == (4, 8, 6, 0, 2)


def test_C_END_2_five_towers_of_equal_height_rank_by_position():
    result = _score_table(2, {t: ([1], [(1, 1)]) for t in range(5)})
    assert [t.rank for t in result.towers] == [1, 2, 3, 4, 5]
    assert result.players[1].towers == (8, 6, 4, 2, 0)
    assert campanile.score_table(campanile.read_table(table_doc(2, {}))[0]).players[1].total == 0


# ---------------------------------------------------------------- C-END-3


def test_C_END_3_greatest_total_takes_the_large_number_second_the_small():
    # tower 0 alone (the tallest): 8/4. Player 0 bet first but less; player 2 never bet there.
    result = _score_table(3, {0: ([1, 1, 1], [(0, 1), (1, 3), (0, 1)])})
    tower = result.towers[0]
    assert [(s.player, s.total, s.first) for s in tower.standings] == [(1, 3, 1), (0, 2, 0)]
    assert (tower.large.player, tower.large.points, tower.large.reason) == (1, 8, "total")
    assert (tower.small.player, tower.small.points, tower.small.reason) == (0, 4, "total")
    assert [p.towers[0] for p in result.players] == [4, 8, 0]  # no token under it: nothing


def test_C_END_3_equal_totals_the_earlier_bettor_ranks_higher():
    # player 1 placed a 1 first; player 0 then a 3; player 1 a 2: both total 3, player 1 placed first
    result = _score_table(3, {0: ([1, 1, 1, 1], [(1, 1), (0, 3), (1, 2), (2, 1)])})
    tower = result.towers[0]
    assert [(s.player, s.total) for s in tower.standings] == [(1, 3), (0, 3), (2, 1)]
    assert (tower.large.player, tower.large.reason) == (1, "placed_first")
    assert (tower.small.player, tower.small.reason) == (0, "placed_later")
    assert [p.towers[0] for p in result.players] == [4, 8, 0]  # the third bettor scores nothing
    swapped = _score_table(3, {0: ([1, 1, 1, 1], [(0, 3), (1, 1), (1, 2), (2, 1)])})
    assert (swapped.towers[0].large.player, swapped.towers[0].small.player) == (0, 1)


def test_C_END_3_tie_for_second_goes_to_the_earlier_bettor():
    result = _score_table(4, {0: ([1, 1, 1, 1], [(3, 2), (2, 1), (1, 1), (0, 3)])})
    tower = result.towers[0]
    assert (tower.large.player, tower.small.player, tower.small.reason) == (0, 3, "total")
    result = _score_table(4, {0: ([1, 1, 1, 1], [(0, 3), (2, 1), (1, 1), (3, 1)])})
    tower = result.towers[0]
    assert (tower.small.player, tower.small.reason) == (2, "placed_first")
    assert [p.towers[0] for p in result.players] == [8, 0, 4, 0]


def test_C_END_3_a_lone_bettor_takes_the_large_number_only():
    result = _score_table(2, {0: ([1], [(1, 1)])})
    assert (result.towers[0].large.player, result.towers[0].small) == (1, None)
    assert result.players[1].towers[0] == 8 and result.players[0].total == 0


# ---------------------------------------------------------------- C-END-4


def test_C_END_4_tokens_left_in_supply_score_nothing():
    state = make(plays={0: [2]}, tokens={0: [(1, 1)]})
    result = campanile.score(state)
    assert result.players[0].supply == (5, 3, 1) and result.players[0].total == 0
    assert result.players[1].supply == (4, 3, 1) and result.players[1].total == 8
    assert result.to_json()["players"][0]["supply"] == {"1": 5, "2": 3, "3": 1}


def test_C_END_4_most_points_wins():
    result = _score_table(3, {0: ([3], [(2, 2)]), 1: ([2], [(0, 3)])})
    assert (result.winners, result.winner, result.decided_by) == ((2,), 2, "points")
    assert [p.total for p in result.players] == [6, 0, 8]


def test_C_END_4_equal_points_share_the_win():
    result = _score_table(3, {0: ([1, 1, 1], [(0, 2), (1, 2)]), 1: ([1, 1], [(1, 3), (0, 1)])})
    # tower 0: 0 takes 8 (placed first), 1 takes 4; tower 1: 1 takes 6, 0 takes 3: 11 each
    assert [p.total for p in result.players] == [11, 10, 0]
    result = _score_table(3, {0: ([3], [(0, 2)]), 1: ([3], [(1, 2)]), 2: ([1], [(2, 1)])})
    assert [p.total for p in result.players] == [8, 6, 4]
    # player 0 alone under the tallest (8); player 1 alone under the second (6) and the fourth (2)
    shared = _score_table(2, {0: ([1, 1, 1], [(0, 1)]), 1: ([1, 1], [(1, 1)]), 2: ([1], []), 3: ([], [(1, 1)])})
    assert [p.total for p in shared.players] == [8, 8]
    assert (shared.winners, shared.winner, shared.decided_by) == ((0, 1), None, "shared")
    assert shared.to_json()["winners"] == [0, 1]
