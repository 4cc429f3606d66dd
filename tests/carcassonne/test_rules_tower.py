"""K-TOW: The Tower, as variant {"tower": true}: floors, captures, prisoners, exchanges and ransom."""
from __future__ import annotations

import pytest

from service.games import carcassonne
from service.games.carcassonne import Kind, Tower, face, reach

from .helpers import doc, listed, play, refused, scored, state

# A row of tiles through a tower foundation at [0, 1] (TO/F), a second foundation at [0, 2] (TO/L).
ROW = [("BA/L", (-2, 1), 0), ("BA/L", (-1, 1), 0), ("TO/F", (0, 1), 0), ("BA/L", (1, 1), 0), ("BA/L", (2, 1), 0),
       ("TO/L", (0, 2), 0), ("BA/C", (0, 3), 180), ("BA/C", (1, 2), 180), ("BA/C", (3, 1), 90)]
ROW_MEEPLES = [(1, (-2, 1), "cloister"), (1, (-1, 1), "cloister"), (1, (1, 1), "NL"), (0, (2, 1), "cloister"),
               (1, (0, 3), "S"), (1, (1, 2), "S"), (0, (3, 1), "E"), (0, (0, 0), "E"), (1, (0, 2), "cloister")]
# [1, 1] left empty between a tower at [0, 1] and a monk at [2, 1]
GAP = [("BA/RFr", (1, 0), 0), ("BA/RFr", (2, 0), 0), ("TO/F", (0, 1), 0), ("BA/L", (2, 1), 0)]


# the tile just placed: a road east of the start tile, no meeple on it, out of every tower's straight lines
JUST_PLACED = ("BA/RFr", (1, 0), 0)


def _row(**kwargs) -> carcassonne.State:
    options = {"tower": True, "step": "action", "last": JUST_PLACED[1], "meeples": ROW_MEEPLES}
    return state(ROW + [JUST_PLACED], **{**options, **kwargs})


def _captures(st: carcassonne.State) -> set[tuple[tuple[int, int], str, int]]:
    return {(tuple(m["at"]), m["feature"], m["player"]) for m in listed(st, "capture")}


def test_K_TOW_TILE_1_tower_tiles_in_the_bag_and_floors_by_player_count():
    for players, floors in ((2, 10), (3, 9), (4, 7), (5, 6)):
        game = carcassonne.new_game(1, players=players, tower=True)
        assert game.bag.count == 89 and [p.floors for p in game.players] == [floors] * players
    tiles = carcassonne.new_game(1, players=2, tower=True).bag.tiles
    assert sum(1 for t in tiles if face(t, 0).tower) == 18
    assert all(face(t, 0).tower for t in carcassonne.tile_counts(True) if t.startswith("TO/"))
    document = doc(tower=True)
    document["players"][0]["floors"] = 9
    errors, _ = carcassonne.validate_state(document)
    assert [(p.rule, p.pointer) for p in errors] == [("K-TOW-TILE-1", "/players")]
    assert carcassonne.validate_state(doc([("TO/F", (0, 1), 0)], tower=True, towers=[((0, 1), 3, None)]))[0] == []


def test_K_TOW_TILE_2_the_bridge_carries_the_road_over_one_city_between_four_fields():
    bridge = face("TO/CRcr", 0)
    city, road = bridge.by_name["W"], bridge.by_name["N"]
    assert city.kind is Kind.CITY and city.edges == (1, 3) and road.kind is Kind.ROAD and road.edges == (0, 2)
    fields = [s for s in bridge.segments if s.kind is Kind.FIELD]
    assert sorted(s.name for s in fields) == ["NL", "NR", "SL", "SR"]
    assert all(s.cities == (city.index,) for s in fields)
    # east of the start tile, turned 90: the road goes on west-east under the city that runs north-south
    st = state([("TO/CRcr", (1, 0), 90), ("BA/C", (1, -1), 180)], tower=True,
               meeples=[(0, (0, 0), "E"), (1, (1, 0), "EL")], draw=["BA/C"])
    index = st.index
    road_root = index.find(index.node((0, 0), face("BA/RCr", 0).by_name["E"].index))
    assert index.feature(road_root).squares == {(0, 0), (1, 0)}
    after, events = play(st, {"type": "place", "at": [1, 1], "rotation": 0}, {"type": "skip"})
    (event,) = scored(events)
    assert event["feature"]["type"] == "city" and len(event["feature"]["tiles"]) == 3
    # the farmer north-east of the bridge touches the now complete city
    assert carcassonne.score(after).to_json()["players"][1]["fields"] == 3


def test_K_TOW_ACT_one_action_and_only_with_the_variant():
    base = state(ROW[:2] + [("BA/L", (0, 1), 0)], step="action", last=(0, 1))
    assert refused(base, {"type": "floor", "at": [0, 1]}) == ["K-TOW-ACT"]
    st = _row(towers=[((0, 1), 1, None)])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    assert raised.step.value == "capture"
    assert refused(raised, {"type": "meeple", "feature": "E"}) == ["K-SVC-STEP"]
    assert refused(raised, {"type": "floor", "at": [0, 1]}) == ["K-SVC-STEP"]


def test_K_TOW_ACT_1_a_floor_on_an_empty_foundation_of_any_tile():
    st = _row()
    assert {tuple(m["at"]) for m in listed(st, "floor")} == {(0, 1), (0, 2)}
    after, events = play(st, {"type": "floor", "at": [0, 2]})
    assert after.towers == (Tower((0, 2), 1, None),) and after.players[0].floors == 9
    assert events[0] == {"type": "floor", "player": 0, "at": [0, 2], "height": 1, "step": 0}
    assert refused(st, {"type": "floor", "at": [1, 1]}) == ["K-TOW-ACT-1"]
    out_of_floors = _row(towers=[((0, 1), 10, None), ((0, 2), 10, None)])
    assert out_of_floors.players[0].floors == 0 and listed(out_of_floors, "floor") == []


def test_K_TOW_ACT_2_a_floor_on_a_tower_without_a_meeple_on_top():
    st = _row(towers=[((0, 1), 2, None), ((0, 2), 1, 1)])
    assert {tuple(m["at"]) for m in listed(st, "floor")} == {(0, 1)}
    after, _ = play(st, {"type": "floor", "at": [0, 1]})
    assert Tower((0, 1), 3, None) in after.towers
    assert refused(st, {"type": "floor", "at": [0, 2]}) == ["K-TOW-ACT-2"]


def test_K_TOW_ACT_2_the_tower_just_raised_has_no_meeple_on_top():
    """A capture step follows a floor, and no floor goes on a tower with a meeple on top: such a state is
    impossible, on every endpoint (a 422 naming the rule and the top)."""
    raised = doc(ROW + [JUST_PLACED], tower=True, step="capture", last=JUST_PLACED[1], raised=(0, 1),
                 meeples=ROW_MEEPLES, towers=[((0, 1), 2, 1)])
    with pytest.raises(carcassonne.InvalidStateError) as caught:
        carcassonne.read_state(raised)
    assert [(p.rule, p.pointer) for p in caught.value.problems] == [("K-TOW-ACT-2", "/towers/0/top")]
    raised["towers"][0]["top"] = None  # the same state with the tower's top free is a real position
    assert {tuple(m["at"]) for m in listed(carcassonne.read_state(raised), "capture")}


def test_K_TOW_ACT_3_a_meeple_on_top_completes_the_tower():
    st = _row(towers=[((0, 1), 2, None)])
    assert {tuple(m["at"]) for m in listed(st, "tower_meeple")} == {(0, 1)}
    after, events = play(st, {"type": "tower_meeple", "at": [0, 1]})
    assert Tower((0, 1), 2, 0) in after.towers and after.players[0].supply == st.players[0].supply - 1
    assert events[0]["type"] == "tower_meeple" and after.turn == 1
    assert refused(st, {"type": "tower_meeple", "at": [0, 2]}) == ["K-TOW-ACT-3"]  # a foundation, no floor
    topped = _row(towers=[((0, 1), 2, 1)])
    assert refused(topped, {"type": "tower_meeple", "at": [0, 1]}) == ["K-TOW-ACT-3"]


def test_K_TOW_CAP_1_a_tower_of_height_2_reaches_exactly_9_squares():
    squares = reach(Tower((0, 1), 2, None))
    assert len(squares) == 9
    assert squares == {(0, 1), (0, 0), (0, -1), (0, 2), (0, 3), (1, 1), (2, 1), (-1, 1), (-2, 1)}
    raised, _ = play(_row(towers=[((0, 1), 1, None)]), {"type": "floor", "at": [0, 1]})
    assert _captures(raised) == {((-2, 1), "cloister", 1), ((-1, 1), "cloister", 1), ((1, 1), "NL", 1),
                                 ((2, 1), "cloister", 0), ((0, 3), "S", 1), ((0, 0), "E", 0),
                                 ((0, 2), "cloister", 1)}
    assert refused(raised, {"type": "capture", "at": [1, 2], "feature": "S", "player": 1}) == ["K-TOW-CAP-1"]
    assert refused(raised, {"type": "capture", "at": [3, 1], "feature": "E", "player": 0}) == ["K-TOW-CAP-1"]
    low, _ = play(_row(), {"type": "floor", "at": [0, 1]})  # height 1: its own tile and one square each way
    assert {c[0] for c in _captures(low)} == {(-1, 1), (1, 1), (0, 0), (0, 2)}


def test_K_TOW_CAP_1_capture_over_an_empty_square():
    st = state(GAP, tower=True, step="action", last=(2, 0), towers=[((0, 1), 1, None)],
               meeples=[(1, (2, 1), "cloister")])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    after, events = play(raised, {"type": "capture", "at": [2, 1], "feature": "cloister", "player": 1})
    assert after.meeples == () and after.players[0].prisoners == (1,)
    assert events[0] == {"type": "captured", "player": 0, "at": [2, 1], "feature": "cloister", "owner": 1,
                         "to": "prisoner", "step": 0}


def test_K_TOW_CAP_1_capture_over_a_taller_tower():
    board = GAP + [("TO/L", (1, 1), 0)]
    st = state(board, tower=True, step="action", last=(2, 0), towers=[((0, 1), 1, None), ((1, 1), 4, None)],
               meeples=[(1, (2, 1), "cloister")])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    assert ((2, 1), "cloister", 1) in _captures(raised)
    after, _ = play(raised, {"type": "capture", "at": [2, 1], "feature": "cloister", "player": 1})
    assert after.players[0].prisoners == (1,)


def test_K_TOW_CAP_2_capturing_a_farmer():
    raised, _ = play(_row(), {"type": "floor", "at": [0, 1]})
    after, _ = play(raised, {"type": "capture", "at": [1, 1], "feature": "NL", "player": 1})
    assert not any(m.at == (1, 1) for m in after.meeples) and after.players[0].prisoners == (1,)
    # the meeple named by the wrong owner: the player is what is wrong; a feature with no meeple: the feature
    wrong_owner = carcassonne.apply_steps(raised, [{"type": "capture", "at": [1, 1], "feature": "NL", "player": 0}])
    assert [(v.rule, v.pointer) for v in wrong_owner.violations] == [("K-TOW-CAP-2", "/0/player")]
    nobody = carcassonne.apply_steps(raised, [{"type": "capture", "at": [0, 0], "feature": "S", "player": 0}])
    assert [(v.rule, v.pointer) for v in nobody.violations] == [("K-TOW-CAP-2", "/0/feature")]


def test_K_TOW_CAP_2_capturing_one_s_own_meeple_returns_it_to_supply():
    raised, _ = play(_row(), {"type": "floor", "at": [0, 1]})
    supply = raised.players[0].supply
    after, events = play(raised, {"type": "capture", "at": [0, 0], "feature": "E", "player": 0})
    assert after.players[0].supply == supply + 1 and after.players[0].prisoners == ()
    assert events[0]["to"] == "supply"


def test_K_TOW_CAP_2_a_meeple_on_a_tower_top_captured_by_a_lower_tower():
    st = _row(towers=[((0, 1), 1, None), ((0, 2), 5, 1)])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    assert ((0, 2), "tower", 1) in _captures(raised)
    after, events = play(raised, {"type": "capture", "at": [0, 2], "feature": "tower", "player": 1})
    assert Tower((0, 2), 5, None) in after.towers and after.players[0].prisoners == (1,)
    assert events[0]["feature"] == "tower"
    assert refused(raised, {"type": "capture", "at": [0, 2], "feature": "tower", "player": 0}) == ["K-TOW-CAP-2"]


def test_K_TOW_SWAP_a_mutual_capture_is_exchanged_at_once():
    st = _row(prisoners=[[], [0]])
    assert st.players[0].supply == 7 - 3 - 1  # three on the board, one held by player 1
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    after, events = play(raised, {"type": "capture", "at": [1, 1], "feature": "NL", "player": 1})
    assert [p.prisoners for p in after.players] == [(), ()]
    assert after.players[0].supply == st.players[0].supply + 1
    assert after.players[1].supply == st.players[1].supply + 1
    assert [e["type"] for e in events][:2] == ["captured", "exchanged"] and events[1]["players"] == [0, 1]
    mutual = doc(ROW, tower=True, prisoners=[[1], [0]])
    errors, _ = carcassonne.validate_state(mutual)
    assert [p.rule for p in errors] == ["K-TOW-SWAP"]


def test_K_TOW_RANSOM_three_points_once_a_turn_refused_at_2_points():
    poor = _row(prisoners=[[], [0, 0]], scores=[2, 0])
    assert listed(poor, "ransom") == []
    assert refused(poor, {"type": "ransom", "from": 1}) == ["K-TOW-RANSOM"]
    rich = _row(prisoners=[[], [0, 0]], scores=[7, 1], step="place", last=None, draw=["BA/C"])
    assert listed(rich, "ransom") == [{"type": "ransom", "from": 1}]
    after, events = play(rich, {"type": "ransom", "from": 1})
    assert [p.score for p in after.players] == [4, 4] and after.players[1].prisoners == (0,)
    assert after.players[0].supply == rich.players[0].supply + 1 and after.ransomed
    assert events[0] == {"type": "ransom", "player": 0, "from": 1, "points": 3, "step": 0}
    assert refused(after, {"type": "ransom", "from": 1}) == ["K-TOW-RANSOM"]  # once a turn
    assert refused(rich, {"type": "ransom", "from": 0}) == ["K-TOW-RANSOM"]  # not from oneself
    placed, _ = play(after, {"type": "place", "at": [0, 4], "rotation": 0})
    assert placed.ransomed and listed(placed, "ransom") == []
    ended, _ = play(placed, {"type": "skip"})
    assert not ended.ransomed
    raised, _ = play(_row(prisoners=[[], [0]], scores=[7, 0]), {"type": "floor", "at": [0, 1]})
    assert refused(raised, {"type": "ransom", "from": 1}) == ["K-SVC-STEP"]


def test_K_TOW_RANSOM_a_freed_meeple_may_be_used_that_turn():
    meeples = ROW_MEEPLES[:2] + [(0, (x, 1), "cloister") for x in (2,)] + [(0, (0, 0), "E")]
    st = state(ROW, tower=True, step="action", last=(3, 1), meeples=meeples, prisoners=[[], [0] * 5],
               scores=[3, 0])
    assert st.players[0].supply == 0 and listed(st, "tower_meeple") == []
    freed, _ = play(st, {"type": "ransom", "from": 1})
    assert freed.players[0].supply == 1 and freed.players[0].score == 0
    assert listed(freed, "meeple")


def test_K_TOW_SCORE_tower_tops_and_prisoners_score_nothing():
    st = state(ROW, tower=True, towers=[((0, 1), 2, 0), ((0, 2), 1, 1)], prisoners=[[1, 1], []])
    score = carcassonne.score(st).to_json()
    assert score["features"] == [] and [p["total"] for p in score["players"]] == [0, 0]
    st = state(ROW, tower=True, towers=[((0, 1), 2, 0)], meeples=[(1, (0, 0), "E")])
    assert [p["total"] for p in carcassonne.score(st).to_json()["players"]] == [0, 1]
