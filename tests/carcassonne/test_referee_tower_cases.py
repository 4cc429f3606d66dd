"""A referee's cases for The Tower (variant {"tower": true}): reach, captures, prisoners, exchanges, ransom, floors
and conservation, on positions built by hand."""
from __future__ import annotations

import pytest

from service.api import create_app
from service.games import carcassonne
from service.games.carcassonne import FLOORS, Tower

from .helpers import doc, listed, play, refused, scored, state
from tests.settings import AS_DEPLOYED

BASE = "/v1/games/carcassonne"

# The start tile's road runs east over four BA/RFr. Below it, row y = 1: the foundation TO/F at [0, 1] (the tower
# under test), a second foundation TO/L at [1, 1], [2, 1] left empty, cloisters at [3, 1], [-1, 1], [-2, 1], a
# BA/C (city south) at [4, 1]. Column x = 0 below the tower: one open city, a BA/C (city south) at [0, 2] and a
# BA/Cc.1 (city north and east) at [0, 3].
BOARD = [("BA/RFr", (x, 0), 0) for x in (1, 2, 3, 4)] + [
    ("TO/F", (0, 1), 0), ("TO/L", (1, 1), 0), ("BA/L", (3, 1), 0), ("BA/C", (4, 1), 180), ("BA/L", (-1, 1), 0),
    ("BA/L", (-2, 1), 0), ("BA/C", (0, 2), 180), ("BA/Cc.1", (0, 3), 90)]
# by distance from the tower at [0, 1]
MEEPLES = [
    (0, (0, 0), "E"),  # 1 north, a thief of the player to move
    (1, (1, 1), "cloister"),  # 1 east, on the tile of another tower
    (0, (-1, 1), "cloister"),  # 1 west
    (1, (0, 2), "S"),  # 1 south, a knight
    (1, (-2, 1), "NL"),  # 2 west, a farmer
    (1, (3, 1), "cloister"),  # 3 east, over the other tower and the gap at [2, 1]
    (1, (4, 1), "S"),  # 4 east
    (1, (1, 0), "NL"),  # diagonal: never in reach
]
OTHER_TOWER = ((1, 1), 4, 1)  # 4 floors, a meeple of player 1 on top, 1 east of the tower under test


def _state(height: int = 0, **kwargs) -> carcassonne.State:
    """Player 0 has just placed the road at [4, 0]; the tower under test has `height` floors."""
    towers = [OTHER_TOWER] + ([((0, 1), height, None)] if height else [])
    options = {"tower": True, "step": "action", "last": (4, 0), "meeples": MEEPLES, "towers": towers}
    return state(BOARD, **{**options, **kwargs})


def _in_reach(st: carcassonne.State) -> set[tuple[tuple[int, int], str, int]]:
    return {(tuple(m["at"]), m["feature"], m["player"]) for m in listed(st, "capture")}


def _capture(at, feature, player) -> dict:
    return {"type": "capture", "at": list(at), "feature": feature, "player": player}


@pytest.mark.parametrize("height, expected", [
    (1, {((0, 0), "E", 0), ((1, 1), "cloister", 1), ((1, 1), "tower", 1), ((-1, 1), "cloister", 0),
         ((0, 2), "S", 1)}),
    (2, {((0, 0), "E", 0), ((1, 1), "cloister", 1), ((1, 1), "tower", 1), ((-1, 1), "cloister", 0),
         ((0, 2), "S", 1), ((-2, 1), "NL", 1)}),
    (3, {((0, 0), "E", 0), ((1, 1), "cloister", 1), ((1, 1), "tower", 1), ((-1, 1), "cloister", 0),
         ((0, 2), "S", 1), ((-2, 1), "NL", 1), ((3, 1), "cloister", 1)}),
    (4, {((0, 0), "E", 0), ((1, 1), "cloister", 1), ((1, 1), "tower", 1), ((-1, 1), "cloister", 0),
         ((0, 2), "S", 1), ((-2, 1), "NL", 1), ((3, 1), "cloister", 1), ((4, 1), "S", 1)}),
])
def test_K_TOW_CAP_1_reach_is_the_tile_and_h_squares_each_way_over_gaps_and_towers(height, expected):
    raised, events = play(_state(height - 1), {"type": "floor", "at": [0, 1]})
    assert events[0]["height"] == height
    assert _in_reach(raised) == expected
    assert carcassonne.reach(Tower((0, 1), height, None)) == {(0, 1)} | {
        (0 + dx * k, 1 + dy * k) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)) for k in range(1, height + 1)}


def test_K_TOW_CAP_1_diagonals_and_squares_beyond_h_are_out_of_reach():
    raised, _ = play(_state(3), {"type": "floor", "at": [0, 1]})  # height 4, the farmer at [1, 0] diagonal
    assert refused(raised, _capture((1, 0), "NL", 1)) == ["K-TOW-CAP-1"]
    low, _ = play(_state(0), {"type": "floor", "at": [0, 1]})
    assert refused(low, _capture((3, 1), "cloister", 1)) == ["K-TOW-CAP-1"]
    assert refused(low, _capture((-2, 1), "NL", 1)) == ["K-TOW-CAP-1"]


def test_K_TOW_CAP_1_the_meeple_on_the_tower_s_own_tile_is_in_reach():
    # a farmer on the foundation tile itself
    meeples = MEEPLES[:-1] + [(1, (0, 1), "NL")]
    raised, _ = play(_state(0, meeples=meeples), {"type": "floor", "at": [0, 1]})
    assert ((0, 1), "NL", 1) in _in_reach(raised)
    after, _ = play(raised, _capture((0, 1), "WR", 1))  # any name of the field
    assert carcassonne.Meeple((0, 1), "NL", 1) not in after.meeples and after.players[0].prisoners == (1,)


def test_K_TOW_CAP_2_a_farmer_becomes_a_prisoner_and_leaves_its_owner_s_supply_alone():
    raised, _ = play(_state(1), {"type": "floor", "at": [0, 1]})
    after, events = play(raised, _capture((-2, 1), "NL", 1))
    assert events[0] == {"type": "captured", "player": 0, "at": [-2, 1], "feature": "NL", "owner": 1,
                         "to": "prisoner", "step": 0}
    assert after.players[0].prisoners == (1,) and after.players[1].supply == raised.players[1].supply
    assert not any(m.at == (-2, 1) for m in after.meeples) and after.turn == 1


def test_K_TOW_CAP_2_a_meeple_on_a_tower_top_becomes_a_prisoner_and_the_tower_reopens():
    raised, _ = play(_state(0), {"type": "floor", "at": [0, 1]})  # height 1 captures from a tower of 4
    after, _ = play(raised, _capture((1, 1), "tower", 1))
    assert Tower((1, 1), 4, None) in after.towers and after.players[0].prisoners == (1,)
    # the cloister meeple on the same tile stays
    assert carcassonne.Meeple((1, 1), "cloister", 1) in after.meeples


def test_K_TOW_CAP_2_one_s_own_meeple_returns_to_supply():
    raised, _ = play(_state(0), {"type": "floor", "at": [0, 1]})
    after, events = play(raised, _capture((-1, 1), "cloister", 0))
    assert after.players[0].supply == raised.players[0].supply + 1 and after.players[0].prisoners == ()
    assert events[0]["to"] == "supply"


def test_K_TOW_CAP_2_a_capture_names_a_meeple_that_is_there():
    raised, _ = play(_state(0), {"type": "floor", "at": [0, 1]})
    assert refused(raised, _capture((0, 2), "S", 0)) == ["K-TOW-CAP-2"]  # the knight is player 1's
    assert refused(raised, _capture((0, 2), "NL", 1)) == ["K-TOW-CAP-2"]  # nobody on that field


def test_K_TOW_SWAP_mutual_prisoners_are_exchanged_at_once():
    st = _state(0, prisoners=[[], [0]])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    after, events = play(raised, _capture((0, 2), "S", 1))
    assert [p.prisoners for p in after.players] == [(), ()]
    assert after.players[0].supply == st.players[0].supply + 1
    assert after.players[1].supply == st.players[1].supply + 1
    assert {"type": "exchanged", "players": [0, 1], "step": 0} in events


def test_K_TOW_SWAP_one_for_one_until_one_side_holds_none():
    st = _state(0, prisoners=[[], [0, 0]])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    after, events = play(raised, _capture((0, 2), "S", 1))
    assert [p.prisoners for p in after.players] == [(), (0,)]
    assert sum(e["type"] == "exchanged" for e in events) == 1


def test_K_TOW_SWAP_only_between_the_two_players_concerned():
    # three players: player 2 holds one of player 0's meeples; player 0 captures player 1's knight
    st = _state(0, players=3, prisoners=[[], [], [0]])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    after, events = play(raised, _capture((0, 2), "S", 1))
    assert [p.prisoners for p in after.players] == [(1,), (), (0,)]
    assert not any(e["type"] == "exchanged" for e in events)


def test_K_TOW_RANSOM_three_points_to_the_holder_at_exactly_3_but_not_at_2():
    at_three = _state(0, prisoners=[[], [0]], scores=[3, 5])
    assert listed(at_three, "ransom") == [{"type": "ransom", "from": 1}]
    freed, events = play(at_three, {"type": "ransom", "from": 1})
    assert [p.score for p in freed.players] == [0, 8] and freed.players[1].prisoners == ()
    assert freed.players[0].supply == at_three.players[0].supply + 1
    assert events[0] == {"type": "ransom", "player": 0, "from": 1, "points": 3, "step": 0}
    at_two = _state(0, prisoners=[[], [0]], scores=[2, 5])
    assert listed(at_two, "ransom") == [] and refused(at_two, {"type": "ransom", "from": 1}) == ["K-TOW-RANSOM"]


def test_K_TOW_RANSOM_once_a_turn_and_never_during_the_capture_step():
    st = _state(0, prisoners=[[], [0, 0]], scores=[9, 0])
    freed, _ = play(st, {"type": "ransom", "from": 1})
    assert refused(freed, {"type": "ransom", "from": 1}) == ["K-TOW-RANSOM"]
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    assert refused(raised, {"type": "ransom", "from": 1}) == ["K-SVC-STEP"]
    # only one's own meeples, from the player who holds them
    three = _state(0, players=3, prisoners=[[], [2], [0]], scores=[9, 0, 0])
    assert listed(three, "ransom") == [{"type": "ransom", "from": 2}]
    assert refused(three, {"type": "ransom", "from": 1}) == ["K-TOW-RANSOM"]


def test_K_TOW_RANSOM_the_freed_meeple_may_be_used_that_turn():
    # player 0 with every meeple away: six on the board or held, none in supply
    # the cloister at [-2, 1] just placed: player 1's farmer moves from its field to the same field next door
    meeples = [m for m in MEEPLES if m[1] != (-2, 1)] + [(1, (-1, 1), "NL"), (0, (3, 0), "NL")]
    st = _state(0, meeples=meeples, prisoners=[[], [0, 0, 0, 0]], scores=[3, 0], last=(-2, 1))
    assert st.players[0].supply == 0 and listed(st, "meeple") == [] and listed(st, "tower_meeple") == []
    freed, _ = play(st, {"type": "ransom", "from": 1})
    assert freed.players[0].supply == 1 and freed.players[0].score == 0
    # the field of the cloister just placed holds player 1's farmer; the cloister is free
    assert [m["feature"] for m in listed(freed, "meeple")] == ["cloister"]
    after, _ = play(freed, {"type": "meeple", "feature": "cloister"})
    assert carcassonne.Meeple((-2, 1), "cloister", 0) in after.meeples and after.players[0].supply == 0


def test_K_TOW_TILE_1_floors_per_player_by_player_count_over_http():
    client = create_app(AS_DEPLOYED).test_client()
    for players, floors in ((2, 10), (3, 9), (4, 7), (5, 6)):
        body = client.post(f"{BASE}/new", json={"seed": 3, "names": [f"N{i}" for i in range(players)],
                                                "variant": {"tower": True}}).get_json()
        assert [p["floors"] for p in body["state"]["players"]] == [floors] * players == [FLOORS[players]] * players
        assert len(body["state"]["bag"]) == 89
        base = client.post(f"{BASE}/new", json={"seed": 3, "names": [f"N{i}" for i in range(players)]}).get_json()
        assert [p["floors"] for p in base["state"]["players"]] == [0] * players


def test_K_TOW_TILE_1_floors_are_conserved_in_towers_and_supplies():
    document = doc(BOARD, tower=True, players=4, towers=[((0, 1), 5, None), ((1, 1), 3, None)])
    assert sum(p["floors"] for p in document["players"]) == 4 * 7 - 8
    assert carcassonne.validate_state(document)[0] == []
    document["players"][0]["floors"] += 1
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(document)[0]] == [("K-TOW-TILE-1", "/players")]
    no_floor = state(BOARD, tower=True, step="action", last=(-2, 1), towers=[((0, 1), 10, None), ((1, 1), 10, None)])
    assert no_floor.players[0].floors == 0 and listed(no_floor, "floor") == []
    assert refused(no_floor, {"type": "floor", "at": [0, 1]}) == ["K-TOW-ACT-1"]


def test_K_COMP_3_conservation_counts_prisoners_and_tower_tops():
    document = doc(BOARD, tower=True, meeples=MEEPLES, towers=[OTHER_TOWER], prisoners=[[1], []])
    # player 1: six on features, one on the tower top and one held by player 0 is 8: one too many
    errors, _ = carcassonne.validate_state(document)
    assert ("K-COMP-3", "/players/1") in {(p.rule, p.pointer) for p in errors}
    fine = doc(BOARD, tower=True, meeples=MEEPLES[:-1], towers=[OTHER_TOWER], prisoners=[[1], []])
    st = carcassonne.read_state(fine)
    assert [p.supply for p in st.players] == [7 - 2, 7 - 5 - 1 - 1]
    fine["players"][1]["supply"] = 1
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(fine)[0]] == [("K-COMP-3", "/players/1")]


def test_K_COMP_3_conservation_holds_through_a_capture_and_an_exchange():
    def placed(st: carcassonne.State, player: int) -> int:
        held = sum(p.prisoners.count(player) for p in st.players)
        tops = sum(t.top == player for t in st.towers)
        return st.players[player].supply + sum(m.player == player for m in st.meeples) + held + tops

    st = _state(0, meeples=MEEPLES[:-1], prisoners=[[], [0]])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    for step in (_capture((1, 1), "tower", 1), _capture((0, 0), "E", 0), _capture((0, 2), "S", 1)):
        after, _ = play(raised, step)
        assert [placed(after, p) for p in (0, 1)] == [7, 7], step
        assert carcassonne.validate_state(carcassonne.state_json(after))[0] == []


def test_K_TOW_SCORE_a_meeple_on_a_tower_top_scores_nothing():
    st = state(BOARD, tower=True, towers=[OTHER_TOWER])
    score = carcassonne.score(st).to_json()
    assert score["features"] == [] and [p["total"] for p in score["players"]] == [0, 0]
    held = state(BOARD, tower=True, towers=[OTHER_TOWER], prisoners=[[1, 1], []], scores=[2, 1])
    assert carcassonne.score(held).totals == [2, 1]


def test_K_TOW_ACT_3_a_meeple_never_stands_on_a_foundation():
    st = state(BOARD[:-1], tower=True, step="action", last=(0, 1), draw=["BA/CFC.2"])
    assert "tower" not in {m["feature"] for m in listed(st, "meeple")}
    assert refused(st, {"type": "meeple", "feature": "tower"}) == ["K-MEEPLE"]
    assert refused(st, {"type": "tower_meeple", "at": [0, 1]}) == ["K-TOW-ACT-3"]  # no floor yet


def test_K_SVC_STEP_a_knight_captured_from_a_city_completed_this_turn_scores_nothing():
    # player 0 places a BA/C (city north) at [0, 3], closing the city with player 1's knight at [0, 2], then puts a
    # floor on the tower at [0, 1] and takes the knight before the scoring
    st = state(BOARD[:-1], tower=True, meeples=[(1, (0, 2), "S")], draw=["BA/C"])
    placed, _ = play(st, {"type": "place", "at": [0, 3], "rotation": 0})
    raised, _ = play(placed, {"type": "floor", "at": [0, 1]})
    assert ((0, 2), "S", 1) in _in_reach(raised)
    after, events = play(raised, _capture((0, 2), "S", 1))
    (event,) = scored(events)
    assert (event["points"], event["scorers"], event["returned"]) == (0, [], [])
    assert event["worth"] == 4  # a city of two tiles, complete: worth 4 to a holder, and nobody holds it
    assert [p.score for p in after.players] == [0, 0] and after.players[0].prisoners == (1,)
    kept, events = play(raised, {"type": "skip"})
    assert [p.score for p in kept.players] == [0, 4]


def test_K_TOW_CAP_2_over_http_floor_capture_and_exchange():
    client = create_app(AS_DEPLOYED).test_client()
    document = doc(BOARD, tower=True, step="action", last=(4, 0), meeples=MEEPLES[:-1], towers=[OTHER_TOWER],
                   prisoners=[[], [0]])
    assert client.post(f"{BASE}/validate", json={"state": document}).get_json()["valid"] is True
    moves = client.post(f"{BASE}/legal-moves", json={"state": document}).get_json()["moves"]
    assert {"type": "floor", "at": [0, 1]} in moves and {"type": "tower_meeple", "at": [0, 1]} not in moves
    body = client.post(f"{BASE}/apply", json={"state": document, "moves": [
        {"type": "floor", "at": [0, 1]}, _capture((1, 1), "tower", 1)]}).get_json()
    assert body["legal"] is True
    assert [e["type"] for e in body["events"]] == ["floor", "captured", "exchanged", "turn"]
    players = body["state"]["players"]
    assert [p["prisoners"] for p in players] == [[], []]
    assert {"at": [1, 1], "height": 4, "top": None} in body["state"]["towers"]
    out_of_reach = client.post(f"{BASE}/apply", json={"state": document, "moves": [
        {"type": "floor", "at": [0, 1]}, _capture((3, 1), "cloister", 1)]}).get_json()
    assert (out_of_reach["legal"], out_of_reach["failed_at"]) == (False, 1)
    assert [(v["rule"], v["pointer"]) for v in out_of_reach["violations"]] == [("K-TOW-CAP-1", "/moves/1/at")]
