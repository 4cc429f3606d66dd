"""A referee's cases for the base game: textbook positions built by hand, scored and placed as the rule book says.

The start tile BA/RCr lies at [0, 0]: city north, road west-east, field south (K-SETUP-1). Positions are built
through the public library (helpers.doc) and, for the wire contract, through the HTTP API.
"""
from __future__ import annotations

import pytest

from service.games import carcassonne
from service.games.carcassonne import Kind, face
from service.games.carcassonne.tiles import TILES

from .helpers import CLOISTER_BLOCK, doc, listed, play, refused, scored, state
from .playouts import playout

BASE = "/v1/games/carcassonne"


def _totals(st: carcassonne.State) -> list[int]:
    return carcassonne.score(st).totals


def _features(st: carcassonne.State) -> list[tuple[str, int, list[int]]]:
    return [(f["type"], f["points"], f["winners"]) for f in carcassonne.score(st).to_json()["features"]]


# ---------------------------------------------------------------------------------------------- cities

def test_K_SCORE_CITY_a_two_tile_city_is_4_complete_and_returns_its_knight():
    st = state(meeples=[(1, (0, 0), "N")], draw=["BA/C"])
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["feature"]["type"], event["points"], event["scorers"]) == ("city", 4, [1])
    assert sorted(map(tuple, event["feature"]["tiles"])) == [(0, -1), (0, 0)]
    assert [p.score for p in after.players] == [0, 4]
    assert after.meeples == () and after.players[1].supply == 7


def test_K_SCORE_CITY_a_city_nobody_holds_is_scored_for_nothing_and_says_its_worth():
    st = state(draw=["BA/C"])
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["feature"]["type"], event["points"], event["worth"], event["scorers"]) == ("city", 0, 4, [])
    assert [p.score for p in after.players] == [0, 0]


def test_K_END_2_a_two_tile_city_left_open_is_2_at_the_end():
    # BA/Cc.1 turned 180: city south and east; the east edge stays open
    st = state([("BA/Cc.1", (0, -1), 180)], meeples=[(0, (0, -1), "E")])
    assert _features(st) == [("city", 2, [0])]
    assert _totals(st) == [2, 0]


def test_K_SCORE_CITY_pennants_are_2_each_complete_and_1_each_at_the_end():
    open_city = state([("BA/Cc+", (0, -1), 180)], meeples=[(0, (0, 0), "N")])
    assert _features(open_city) == [("city", 3, [0])]  # 2 tiles + 1 pennant
    st = state([("BA/Cc+", (0, -1), 180)], meeples=[(0, (0, 0), "N")], draw=["BA/C"])
    # [1, -1] has only its west neighbour: BA/C turned 270 puts its city west
    after, events = play(st, {"type": "place", "at": [1, -1], "rotation": 270}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["points"], event["feature"]["pennants"]) == (2 * 3 + 2 * 1, 1)
    assert after.players[0].score == 8


# Two cities north of the start tile, at [-1, -1] (BA/C east) and [1, -1] (BA/C west), joined to the start
# tile's city by a BA/Ccc turned 180 (city west, south and east) at [0, -1]: one city of 4 tiles.
THREE_CITIES = [("BA/RFr", (-1, 0), 0), ("BA/RFr", (1, 0), 0), ("BA/C", (-1, -1), 90), ("BA/C", (1, -1), 270)]


def test_K_SCORE_MAJORITY_a_city_joined_from_two_with_a_tie_scores_both_in_full():
    st = state(THREE_CITIES, meeples=[(0, (0, 0), "N"), (1, (1, -1), "W")], draw=["BA/Ccc"])
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["points"], event["scorers"]) == (8, [0, 1])
    assert [p.score for p in after.players] == [8, 8]
    assert after.meeples == () and [p.supply for p in after.players] == [7, 7]


def test_K_SCORE_MAJORITY_two_knights_against_one_only_the_majority_scores():
    meeples = [(0, (0, 0), "N"), (0, (-1, -1), "E"), (1, (1, -1), "W")]
    st = state(THREE_CITIES, meeples=meeples, draw=["BA/Ccc"], turn=1)
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["points"], event["scorers"]) == (8, [0])
    assert [p.score for p in after.players] == [8, 0]
    # every knight goes home, the losing one too
    assert after.meeples == () and [p.supply for p in after.players] == [7, 7]
    assert sorted(r["player"] for r in event["returned"]) == [0, 0, 1]


def test_K_SCORE_MAJORITY_a_tile_counts_once_though_the_city_crosses_it_twice():
    # a ring of three BA/Cc.1 and a BA/CC.2 whose two separate cities the ring joins: 4 tiles, not 5
    block = [("BA/Cc.1", (0, 1), 270), ("BA/Cc.1", (-1, 1), 180), ("BA/Cc.1", (-1, 2), 90)]
    st = state(block, meeples=[(1, (0, 1), "W")], draw=["BA/CC.2"])
    after, events = play(st, {"type": "place", "at": [0, 2], "rotation": 0}, {"type": "skip"})
    (event,) = scored(events)
    assert len(event["feature"]["tiles"]) == 4 and event["points"] == 8
    assert after.players[1].score == 8


def test_K_MEEPLE_2_a_knight_on_a_city_the_same_tile_completes_scores_and_returns_at_once():
    st = state(draw=["BA/C"])
    placed, _ = play(st, {"type": "place", "at": [0, -1], "rotation": 180})
    assert {"type": "meeple", "feature": "S"} in listed(placed, "meeple")
    after, events = play(placed, {"type": "meeple", "feature": "S"})
    assert [e["type"] for e in events] == ["meeple", "scored", "turn"]
    assert scored(events)[0]["returned"] == [{"player": 0, "at": [0, -1], "feature": "S"}]
    assert after.players[0].score == 4 and after.players[0].supply == 7 and after.meeples == ()


# ---------------------------------------------------------------------------------------------- roads

LOOP = [("BA/Rr", (0, 1), 270), ("BA/Rr", (1, 1), 0), ("BA/Rr", (0, 2), 180)]


def test_K_SCORE_ROAD_a_loop_is_complete_with_no_end():
    st = state(LOOP, meeples=[(0, (0, 1), "E")], draw=["BA/Rr"])
    assert _features(st) == [("road", 3, [0])]  # open until the fourth curve
    after, events = play(st, {"type": "place", "at": [1, 2], "rotation": 90}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["feature"]["type"], event["points"], len(event["feature"]["tiles"])) == ("road", 4, 4)
    assert after.players[0].score == 4 and after.meeples == ()


def test_K_SCORE_ROAD_ends_at_a_crossing_and_at_a_city():
    # the start tile's road runs west into a city (BA/CccR turned 270) and east to a crossing (BA/RRR)
    st = state([("BA/CccR", (-1, 0), 270)], meeples=[(1, (0, 0), "W")], draw=["BA/RRR"], turn=0)
    after, events = play(st, {"type": "place", "at": [1, 0], "rotation": 0}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["feature"]["type"], event["points"], event["scorers"]) == ("road", 3, [1])
    assert after.players[1].score == 3


def test_K_SCORE_ROAD_ends_at_a_cloister():
    # BA/LR turned 270: a cloister whose road leaves east, into the start tile's road
    st = state([("BA/RRRR", (1, 0), 0)], meeples=[(0, (1, 0), "W")], draw=["BA/LR"])
    _, events = play(st, {"type": "place", "at": [-1, 0], "rotation": 270}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["feature"]["type"], event["points"], event["scorers"]) == ("road", 3, [0])


def test_K_END_2_an_open_road_is_one_a_tile():
    st = state([("BA/RFr", (1, 0), 0), ("BA/RFr", (2, 0), 0)], meeples=[(0, (2, 0), "E")])
    assert _features(st) == [("road", 3, [0])]


# ---------------------------------------------------------------------------------------------- cloisters

def test_K_SCORE_CLOISTER_a_surrounded_cloister_is_9_and_its_monk_returns():
    block = [t for t in CLOISTER_BLOCK if t[1] != (1, 3)]
    st = state(block, meeples=[(1, (0, 2), "cloister")], draw=["BA/Cc+"])
    assert _features(st) == [("cloister", 8, [1])]  # 1 + 7 around, still open
    after, events = play(st, {"type": "place", "at": [1, 3], "rotation": 180}, {"type": "skip"})
    cloister = [e for e in scored(events) if e["feature"]["type"] == "cloister"]
    assert [(e["points"], e["scorers"]) for e in cloister] == [(9, [1])]
    assert after.players[1].score == 9 and after.players[1].supply == 7


def test_K_SCORE_CLOISTER_a_cloister_dropped_into_a_full_ring_scores_9_with_its_new_monk():
    ring = [t for t in CLOISTER_BLOCK if t[1] != (0, 2)]
    st = state(ring, draw=["BA/L"])
    after, events = play(st, {"type": "place", "at": [0, 2], "rotation": 0}, {"type": "meeple", "feature": "cloister"})
    (event,) = [e for e in scored(events) if e["feature"]["type"] == "cloister"]
    assert (event["points"], event["scorers"], len(event["feature"]["tiles"])) == (9, [0], 9)
    assert after.players[0].score == 9 and after.meeples == () and after.players[0].supply == 7


def test_K_END_2_an_open_cloister_is_1_and_1_per_tile_around():
    st = state([("BA/L", (0, 1), 0)], meeples=[(0, (0, 1), "cloister")])
    assert _features(st) == [("cloister", 2, [0])]  # its tile and the start tile
    st = state([("BA/L", (0, 1), 0), ("BA/RFr", (1, 0), 0), ("BA/RFr", (-1, 0), 0), ("BA/L", (1, 1), 0)],
               meeples=[(0, (0, 1), "cloister")])
    assert _features(st)[0] == ("cloister", 5, [0])  # diagonals count


# ---------------------------------------------------------------------------------------------- fields

# South of the start tile: a BA/CFC.2 turned 90 (cities east and west, the field between them running north-south)
# at [0, 1], each city closed by a BA/C ([1, 1] west, [-1, 1] east); below, a BA/C turned 180 whose city (south)
# stays open. The start tile's south field, the CFC.2's field and the BA/C's field are one farm.
FARM = [("BA/CFC.2", (0, 1), 90), ("BA/C", (1, 1), 270), ("BA/C", (-1, 1), 90), ("BA/C", (0, 2), 180)]


def test_K_END_3_a_farm_touching_two_complete_cities_and_an_open_one_is_6():
    st = state(FARM, meeples=[(0, (0, 0), "SL")])
    field = [f for f in carcassonne.score(st).to_json()["features"] if f["type"] == "field"]
    assert [(f["cities"], f["points"], f["winners"]) for f in field] == [(2, 6, [0])]
    assert _totals(st) == [6, 0]


def test_K_END_3_a_field_tie_scores_both_and_a_majority_only_one():
    tie = state(FARM, meeples=[(0, (0, 0), "SL"), (1, (0, 2), "NL")])
    assert _features(tie) == [("field", 6, [0, 1])]
    assert _totals(tie) == [6, 6]
    most = state(FARM, meeples=[(0, (0, 0), "SL"), (1, (0, 2), "NL"), (1, (0, 1), "NL")])
    assert _features(most) == [("field", 6, [1])]
    assert _totals(most) == [0, 6]


def test_K_END_3_two_farms_touching_the_same_city_each_score_it():
    # the start tile's city closed by a BA/C: the strip north of the road and the field around the cap
    st = state([("BA/C", (0, -1), 180)], meeples=[(0, (0, 0), "EL"), (1, (0, -1), "NL")])
    assert sorted(_features(st)) == [("field", 3, [0]), ("field", 3, [1])]
    assert _totals(st) == [3, 3]


def test_K_END_3_a_farm_touching_only_open_cities_is_worth_nothing():
    st = state([("BA/Cc.1", (0, -1), 180)], meeples=[(0, (0, 0), "EL")])
    assert _features(st) == [("field", 0, [0])]


def test_K_SCORE_RETURN_knights_return_after_scoring_and_farmers_stay():
    st = state(meeples=[(1, (0, 0), "N"), (0, (0, 0), "EL")], draw=["BA/C"])
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180},
                         {"type": "meeple", "feature": "NL"})
    assert [e["points"] for e in scored(events)] == [4]
    assert after.meeples == (carcassonne.Meeple((0, -1), "NL", 0), carcassonne.Meeple((0, 0), "EL", 0))
    assert [p.supply for p in after.players] == [5, 7]
    assert _totals(after) == [0 + 3 + 3, 4]  # both farms touch the city just completed


def test_K_SCORE_RETURN_a_state_with_a_meeple_on_a_finished_feature_is_invalid():
    closed = [("BA/C", (0, -1), 180)]
    errors, _ = carcassonne.validate_state(doc(closed, meeples=[(0, (0, 0), "EL"), (1, (0, 0), "N")]))
    assert [(p.rule, p.pointer) for p in errors] == [("K-SCORE-RETURN", "/meeples/1")]  # the farmer may stay
    # during the turn that completes it, the knight waits for the scoring
    mid_turn = doc(closed, meeples=[(1, (0, 0), "N")], step="action", last=(0, -1))
    assert carcassonne.validate_state(mid_turn)[0] == []
    elsewhere = doc(closed + [("BA/RFr", (1, 0), 0)], meeples=[(1, (0, 0), "N")], step="action", last=(1, 0))
    assert [p.rule for p in carcassonne.validate_state(elsewhere)[0]] == ["K-SCORE-RETURN"]
    monk = doc(CLOISTER_BLOCK, meeples=[(0, (0, 2), "cloister")])
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(monk)[0]] == [("K-SCORE-RETURN", "/meeples/0")]
    # the cloister's last neighbour placed this turn: not yet scored
    monk_now = doc(CLOISTER_BLOCK, meeples=[(0, (0, 2), "cloister")], step="action", last=(1, 3))
    assert carcassonne.validate_state(monk_now)[0] == []
    # and what the engine leaves mid-turn reads back as it is
    placed, _ = play(state(draw=["BA/C"]), {"type": "place", "at": [0, -1], "rotation": 180})
    assert carcassonne.validate_state(carcassonne.state_json(placed))[0] == []


# ---------------------------------------------------------------------------------------------- placement

def test_K_PLACE_2_every_shared_edge_must_match_not_only_one():
    # [1, -1] touches two tiles: west the city of a BA/Cc.1 (turned 180: city south and east), south the field
    # of a BA/RFr. BA/C turned 270 (city west) matches both
    st = state([("BA/RFr", (1, 0), 0), ("BA/Cc.1", (0, -1), 180)], draw=["BA/C"])
    assert {"type": "place", "tile": "BA/C", "at": [1, -1], "rotation": 270} in listed(st, "place")
    # turned 180 (city south): both edges wrong
    assert refused(st, {"type": "place", "at": [1, -1], "rotation": 180}) == ["K-PLACE-2"]
    # turned 0 (city north): the south edge matches (field to field), the west one does not (field to city)
    assert refused(st, {"type": "place", "at": [1, -1], "rotation": 0}) == ["K-PLACE-2"]


def test_K_PLACE_1_a_tile_touching_only_by_a_corner_is_refused():
    st = state(draw=["BA/L"])
    for corner in ([1, 1], [-1, -1], [1, -1], [-1, 1]):
        assert refused(st, {"type": "place", "at": corner, "rotation": 0}) == ["K-PLACE-1"]
    assert refused(st, {"type": "place", "at": [0, 0], "rotation": 0}) == ["K-PLACE-1"]
    assert {tuple(m["at"]) for m in listed(st, "place")} == {(0, 1)}  # a cloister fits only below the field


def test_K_PLACE_1_a_corner_tile_refused_by_validate_too():
    errors, _ = carcassonne.validate_state(doc([("BA/L", (1, 1), 0)]))
    assert [(p.rule, p.pointer) for p in errors] == [("K-PLACE-1", "/board/1/at")]


def test_K_MEEPLE_2_a_feature_joined_to_an_occupied_one_through_the_new_tile_is_refused():
    # the city at [1, -1] holds a knight; the new BA/Ccc joins it to the start tile's free city
    st = state(THREE_CITIES, meeples=[(1, (1, -1), "W")], draw=["BA/Ccc"])
    placed, _ = play(st, {"type": "place", "at": [0, -1], "rotation": 180})
    assert refused(placed, {"type": "meeple", "feature": "W"}) == ["K-MEEPLE-2"]
    assert refused(placed, {"type": "meeple", "feature": "S"}) == ["K-MEEPLE-2"]  # the same city by another name
    assert [m["feature"] for m in listed(placed, "meeple")] == ["NL"]  # only its field is free


def test_K_MEEPLE_2_a_farmer_on_a_field_joined_to_an_occupied_farm_is_refused():
    st = state(FARM[:3], meeples=[(1, (0, 0), "SL")], draw=["BA/C"])
    placed, _ = play(st, {"type": "place", "at": [0, 2], "rotation": 180})
    assert refused(placed, {"type": "meeple", "feature": "NL"}) == ["K-MEEPLE-2"]
    assert {m["feature"] for m in listed(placed, "meeple")} == {"S"}  # the open city is free


def test_K_MEEPLE_2_features_joined_later_may_hold_several():
    st = state(THREE_CITIES, meeples=[(0, (0, 0), "N"), (1, (1, -1), "W"), (0, (-1, -1), "E")])
    assert carcassonne.validate_state(carcassonne.state_json(st))[0] == []


def test_K_PLACE_3_discard_only_when_the_tile_fits_nowhere():
    open_city = state(draw=["BA/Cccc+"])
    assert listed(open_city, "discard") == []
    assert refused(open_city, {"type": "discard", "tile": "BA/Cccc+"}) == ["K-PLACE-3"]
    assert listed(open_city, "place") == [{"type": "place", "tile": "BA/Cccc+", "at": [0, -1], "rotation": r}
                                          for r in (0, 90, 180, 270)]
    closed = state([("BA/C", (0, -1), 180)], draw=["BA/Cccc+", "BA/L"])
    assert carcassonne.legal_moves(closed) == [{"type": "discard", "tile": "BA/Cccc+"}]
    after, events = play(closed, {"type": "discard", "tile": "BA/Cccc+"})
    assert after.discarded == ("BA/Cccc+",) and after.turn == 0 and after.bag.tiles[0] == "BA/L"
    assert events[0] == {"type": "discarded", "player": 0, "tile": "BA/Cccc+", "step": 0}


def test_K_PLACE_3_a_tile_fitting_in_a_single_rotation_is_not_discarded():
    # the start tile's city closed: a BA/CccR (three city edges, one road) fits only with its road against one
    # of the start tile's road ends, in one rotation each
    st = state([("BA/C", (0, -1), 180)], draw=["BA/CccR"])
    assert listed(st, "place") == [{"type": "place", "tile": "BA/CccR", "at": [-1, 0], "rotation": 270},
                                   {"type": "place", "tile": "BA/CccR", "at": [1, 0], "rotation": 90}]
    assert refused(st, {"type": "discard", "tile": "BA/CccR"}) == ["K-PLACE-3"]
    for rotation in (0, 180, 270):
        assert refused(st, {"type": "place", "at": [1, 0], "rotation": rotation}) == ["K-PLACE-2"]


# ---------------------------------------------------------------------------------------------- geometry

def test_K_TILE_1_what_the_data_lists_at_N_lies_at_E_for_90_S_for_180_W_for_270():
    # BA/CRr: city N, road E and S, field W
    assert [e.value for e in face("BA/CRr", 0).edges] == ["city", "road", "road", "field"]
    assert [e.value for e in face("BA/CRr", 90).edges] == ["field", "city", "road", "road"]
    assert [e.value for e in face("BA/CRr", 180).edges] == ["road", "field", "city", "road"]
    assert [e.value for e in face("BA/CRr", 270).edges] == ["road", "road", "field", "city"]
    for rotation, city_edge in ((0, "N"), (90, "E"), (180, "S"), (270, "W")):
        tile = face("BA/C", rotation)
        assert tile.by_name[city_edge].kind is Kind.CITY and tile.by_name[city_edge].name == city_edge


def test_K_TILE_1_north_is_y_minus_one():
    # the start tile's city is north: a BA/C with its city south closes it from [0, -1], not from [0, 1]
    st = state(draw=["BA/C"])
    assert {"type": "place", "tile": "BA/C", "at": [0, -1], "rotation": 180} in listed(st, "place")
    assert refused(st, {"type": "place", "at": [0, 1], "rotation": 0}) == ["K-PLACE-2"]


def test_K_TILE_2_field_halves_meet_left_to_right_across_an_edge():
    # BA/Rr turned 90 (road west and north) at [1, 0], its road meeting the start tile's. On the shared edge,
    # the curve's WL (south of the road) meets the start tile's ER (south of the road), and the curve's WR
    # (north of the road) meets the start tile's EL (the strip by the city).
    st = state([("BA/Rr", (1, 0), 90)])
    index = st.index
    start, curve = face("BA/RCr", 0), face("BA/Rr", 90)
    assert curve.by_name["W"].kind is Kind.ROAD and curve.by_name["N"].kind is Kind.ROAD

    def root(square, name, tile_face):
        return index.find(index.node(square, tile_face.by_name[name].index))

    assert root((1, 0), "WL", curve) == root((0, 0), "ER", start) == root((0, 0), "SL", start)
    assert root((1, 0), "WR", curve) == root((0, 0), "EL", start)
    assert root((1, 0), "WR", curve) != root((1, 0), "WL", curve)


def test_K_TILE_4_feature_names_are_in_board_orientation_after_rotation():
    # the start tile's shape turned 90: city east, road north-south, the strip by the city at NR + SL
    turned = face("BA/RCr", 90)
    assert turned.by_name["E"].kind is Kind.CITY
    road = turned.by_name["N"]
    assert road.kind is Kind.ROAD and road.edges == (0, 2) and turned.by_name["S"] is road
    strip = turned.by_name["NR"]
    assert strip.kind is Kind.FIELD and set(strip.names) == {"NR", "SL"} and strip.cities
    rest = turned.by_name["NL"]
    assert set(rest.names) == {"NL", "SR", "WL", "WR"} and not rest.cities
    # a meeple named by any touching name is stored by its canonical one: the strip by the city is EL + WR
    st = state(draw=["BA/RCr"])
    placed, _ = play(st, {"type": "place", "at": [1, 0], "rotation": 0})
    after, _ = play(placed, {"type": "meeple", "feature": "WR"})
    assert carcassonne.Meeple((1, 0), "EL", 0) in after.meeples


def test_K_TILE_4_an_enclosed_field_is_named_inner():
    tile = face("TO/CccC+", 90)
    assert tile.by_name["inner"].kind is Kind.FIELD and tile.by_name["inner"].halves == ()


# ---------------------------------------------------------------------------------------------- over HTTP

def test_K_SCORE_CITY_over_http_apply_scores_and_returns(client):
    state_doc = doc(meeples=[(1, (0, 0), "N")], draw=["BA/C"])
    body = client.post(f"{BASE}/apply", json={"state": state_doc, "moves": [
        {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "skip"}]}).get_json()
    assert body["legal"] is True
    (event,) = [e for e in body["events"] if e["type"] == "scored"]
    assert (event["points"], event["scorers"]) == (4, [1])
    assert body["state"]["meeples"] == [] and body["state"]["players"][1]["score"] == 4


def test_K_END_3_over_http_score_explains_the_farm(client):
    body = client.post(f"{BASE}/score", json={"state": doc(FARM, meeples=[(0, (0, 0), "SL")])}).get_json()
    assert [(p["fields"], p["total"]) for p in body["players"]] == [(6, 6), (0, 0)]
    (field,) = body["features"]
    assert (field["type"], field["cities"], field["points"], field["complete"]) == ("field", 2, 6, False)


def test_K_PLACE_2_over_http_an_illegal_place_is_200_with_the_rule(client):
    state_doc = doc([("BA/RFr", (1, 0), 0), ("BA/Cc.1", (0, -1), 180)], draw=["BA/C"])
    response = client.post(f"{BASE}/apply", json={"state": state_doc, "moves": [
        {"type": "place", "at": [1, -1], "rotation": 0}]})
    body = response.get_json()
    assert response.status_code == 200 and body["legal"] is False
    assert [(v["rule"], v["pointer"]) for v in body["violations"]] == [("K-PLACE-2", "/moves/0/rotation")]


def test_validate_gives_every_problem_at_once_with_rules_and_pointers(client):
    bad = doc([("BA/C", (0, -1), 180), ("BA/L", (2, 2), 0), ("BA/Cccc+", (0, 1), 0)],
              meeples=[(0, (0, 0), "N"), (1, (5, 5), "N"), (0, (0, -1), "E")])
    bad["players"][0]["supply"] = 7
    bad["turn"] = 1
    bad["step"] = "action"
    body = client.post(f"{BASE}/validate", json={"state": bad}).get_json()
    assert body["valid"] is False
    found = {(e["rule"], e["pointer"]) for e in body["errors"]}
    assert {("K-PLACE-1", "/state/board/2/at"),  # [2, 2] joined to nothing
            ("K-PLACE-2", "/state/board/3"),  # a city edge on the start tile's field
            ("K-TILE-4", "/state/meeples/1/at"),  # no tile at [5, 5]
            ("K-TILE-4", "/state/meeples/2/feature"),  # the cap's east edge is a field
            ("K-COMP-3", "/state/players/0"),  # 7 in supply and one on the board
            ("K-SCORE-RETURN", "/state/meeples/0"),  # a knight left on the finished city
            ("K-SVC-STEP", "/state/last")} <= found
    response = client.post(f"{BASE}/apply", json={"state": bad, "moves": [{"type": "skip"}]})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"


WRONG_TYPES = [
    ("/turn", "0"), ("/step", 3), ("/bag", "BA/L"), ("/bag", {"count": "3"}), ("/bag", [1]),
    ("/board", {}), ("/board/0", ["BA/RCr", [0, 0]]), ("/board/0/at", [0.0, 0]), ("/board/0/at", [True, 0]),
    ("/board/0/rotation", "0"), ("/board/0/rotation", 360), ("/board/0/tile", None), ("/meeples", [[0, 0]]),
    ("/meeples/0/player", -1), ("/meeples/0/feature", ["N"]), ("/meeples/0/at", {"x": 0}),
    ("/players", "two"), ("/players/0/score", 1.5), ("/players/0/supply", 8), ("/players/0/prisoners", {"1": 1}),
    ("/variant", []), ("/variant/tower", 1), ("/ransomed", "no"), ("/phase", None), ("/last", [0]),
    ("/discarded", "BA/L"), ("/towers/0", 7), ("/game", "torri"),
]


def _put(document: dict, pointer: str, value) -> None:
    keys = [int(k) if k.isdigit() else k for k in pointer.strip("/").split("/")]
    target = document
    for key in keys[:-1]:
        target = target[key]
    if isinstance(target, list) and keys[-1] >= len(target):
        target.append(value)
    else:
        target[keys[-1]] = value


@pytest.mark.parametrize("pointer, value", WRONG_TYPES, ids=[f"{p}={v!r}" for p, v in WRONG_TYPES])
def test_wrong_types_anywhere_are_problem_json_never_500(client, pointer, value):
    state_doc = doc(meeples=[(0, (0, 0), "N")], draw=["BA/C"])
    _put(state_doc, pointer, value)
    for question, extra in (("validate", {}), ("legal-moves", {}), ("score", {}),
                            ("apply", {"moves": [{"type": "skip"}]})):
        response = client.post(f"{BASE}/{question}", json={"state": state_doc, **extra})
        assert response.status_code in (400, 422), (question, response.get_json())
        assert response.mimetype == "application/problem+json"
        assert any(e["pointer"].startswith("/state") for e in response.get_json()["errors"]), question


@pytest.mark.parametrize("move", [
    {"type": "place", "at": "0,1", "rotation": 0}, {"type": "place", "at": [0, 1], "rotation": "90"},
    {"type": "place", "at": [0, 1], "rotation": True}, {"type": "meeple", "feature": 3},
    {"type": "floor", "at": None}, {"type": "ransom", "from": "1"}, {"type": "skip", "extra": 1},
    {"type": ["skip"]}, "skip", None,
])
def test_wrong_move_types_are_400_never_500(client, move):
    response = client.post(f"{BASE}/apply", json={"state": doc(draw=["BA/C"]), "moves": [move]})
    assert response.status_code == 400 and response.mimetype == "application/problem+json"
    assert all(e["pointer"].startswith("/moves/0") for e in response.get_json()["errors"])


# ---------------------------------------------------------------------------------------------- a second count

EDGES, HALVES = ("N", "E", "S", "W"), ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


class FloodFill:
    """Features counted afresh from the data file's tile table by flood fill, sharing no code with the library:
    a second opinion on every road, city, cloister and field of a board (K-TILE-1 to K-TILE-3, K-SCORE, K-END)."""

    def __init__(self, board) -> None:
        self.tiles = {p.at: p for p in board}
        self.parts = {}  # (square, feature number) -> (kind, edges, halves, pennant, city edges touched)
        for p in board:
            turn = p.rotation // 90
            for number, (kind, edges, halves, pennant, cities) in enumerate(TILES[p.tile][1]):
                self.parts[(p.at, number)] = (
                    kind, {(EDGES.index(e) + turn) % 4 for e in edges},
                    {(HALVES.index(h) + 2 * turn) % 8 for h in halves}, pennant,
                    {(EDGES.index(e) + turn) % 4 for e in cities})
        self.component = {}
        for key in self.parts:
            if key not in self.component and self.parts[key][0] != "tower":
                self._fill(key)

    def _at(self, square, *, edge=None, half=None):
        for (at, number), (_, edges, halves, _, _) in self.parts.items():
            if at == square and (edge in edges or half in halves):
                return at, number
        return None

    def _fill(self, start) -> None:
        todo, seen = [start], {start}
        while todo:
            square, number = todo.pop()
            _, edges, halves, _, _ = self.parts[(square, number)]
            links = []
            for e in edges:
                nb = (square[0] + STEPS[e][0], square[1] + STEPS[e][1])
                links.append(self._at(nb, edge=(e + 2) % 4) if nb in self.tiles else None)
            for h in halves:
                e = h // 2
                nb = (square[0] + STEPS[e][0], square[1] + STEPS[e][1])
                other = 2 * ((e + 2) % 4) + (1 - h % 2)  # L meets R
                links.append(self._at(nb, half=other) if nb in self.tiles else None)
            for link in links:
                if link is not None and link not in seen:
                    seen.add(link)
                    todo.append(link)
        for key in seen:
            self.component[key] = start

    def members(self, root):
        return [key for key, r in self.component.items() if r == root]

    def around(self, square):
        return [(square[0] + dx, square[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (dx or dy) and (square[0] + dx, square[1] + dy) in self.tiles]

    def complete(self, root) -> bool:
        kind = self.parts[root][0]
        if kind == "cloister":
            return len(self.around(root[0])) == 8
        if kind == "field":
            return False
        return all((sq[0] + STEPS[e][0], sq[1] + STEPS[e][1]) in self.tiles
                   for sq, number in self.members(root) for e in self.parts[(sq, number)][1])

    def worth(self, root) -> tuple[int, int]:
        """(points, tiles) as the rule book counts them."""
        kind, members = self.parts[root][0], self.members(root)
        squares = {sq for sq, _ in members}
        if kind == "road":
            return len(squares), len(squares)
        if kind == "city":
            pennants = sum(self.parts[key][3] for key in members)
            return (2 if self.complete(root) else 1) * (len(squares) + pennants), len(squares)
        if kind == "cloister":
            tiles = 1 + len(self.around(root[0]))
            return (9 if tiles == 9 else tiles), tiles
        cities = {self.component[self._at(sq, edge=e)] for sq, number in members for e in self.parts[(sq, number)][4]}
        return 3 * sum(1 for city in cities if self.complete(city)), len(squares)

    def root_of(self, square, name: str):
        if name in EDGES:
            return self.component[self._at(square, edge=EDGES.index(name))]
        if name in HALVES:
            return self.component[self._at(square, half=HALVES.index(name))]
        kind = "field" if name == "inner" else name
        (key,) = [(sq, n) for (sq, n), part in self.parts.items() if sq == square and part[0] == kind]
        return self.component[key]

    def features(self, meeples, players: int):
        on = {}
        for m in meeples:
            on.setdefault(self.root_of(m.at, m.feature), []).append(m.player)
        out = []
        for root, owners in on.items():
            counts = [owners.count(p) for p in range(players)]
            winners = [p for p in range(players) if counts[p] == max(counts)]
            points, tiles = self.worth(root)
            out.append((self.parts[root][0], points, tuple(winners), tiles))
        return sorted(out)


def _library_features(st: carcassonne.State):
    return sorted((f["type"], f["points"], tuple(f["winners"]), len(f["tiles"]))
                  for f in carcassonne.score(st).to_json()["features"])


@pytest.mark.parametrize("seed, players, tower", [(11, 2, False), (12, 3, True), (13, 5, False), (14, 4, True)])
def test_K_SCORE_K_END_a_second_count_by_flood_fill_agrees_on_whole_games(seed, players, tower):
    seen = 0
    for st in playout(seed, players, tower):
        if st.step.value == "place" and (st.over or len(st.board) % 15 == 0):
            assert _library_features(st) == FloodFill(st.board).features(st.meeples, players), len(st.board)
            seen += 1
    assert seen >= 5


@pytest.mark.parametrize("seed, players, tower", [(21, 2, True), (22, 4, False)])
def test_K_SCORE_every_feature_scored_in_play_is_complete_and_worth_what_was_paid(seed, players, tower):
    checked = 0

    def check(_before, _step, after, events):
        nonlocal checked
        count = FloodFill(after.board)
        for event in scored(events):
            feature = event["feature"]
            root = count.root_of(tuple(feature["at"]), feature["feature"])
            assert count.complete(root), feature
            points, tiles = count.worth(root)
            paid = event["points"] if event["scorers"] else points  # a feature nobody holds pays nothing
            assert (points, tiles) == (paid, len(feature["tiles"])), feature
            checked += 1

    for _ in playout(seed, players, tower, each=check):
        pass
    assert checked >= 5
