"""K-PLACE, K-MEEPLE and K-SCORE: placing the tile, the meeple, and scoring what the tile completed."""
from __future__ import annotations

from service.api import create_app
from service.games import carcassonne

from .helpers import CLOISTER_BLOCK, doc, listed, play, refused, scored, state
from tests.settings import AS_DEPLOYED

LOOP = [("BA/Rr", (0, 1), 270), ("BA/Rr", (1, 1), 0), ("BA/Rr", (0, 2), 180)]  # the loop's last tile: [1, 2], 90


def test_K_PLACE_the_tile_drawn_is_the_bag_s_first():
    st = state(draw=["BA/RFr", "BA/L"])
    moves = listed(st, "place")
    assert moves and {m["tile"] for m in moves} == {"BA/RFr"}
    after, events = play(st, {"type": "place", "at": [1, 0], "rotation": 0})
    assert after.step.value == "action" and after.bag.tiles[0] == "BA/L" and after.bag.count == st.bag.count - 1
    assert events[0] == {"type": "placed", "player": 0, "tile": "BA/RFr", "at": [1, 0], "rotation": 0, "step": 0}
    assert refused(st, {"type": "place", "tile": "BA/L", "at": [0, 1], "rotation": 0}) == ["K-SVC-BAG"]


def test_K_PLACE_1_an_empty_square_touching_by_an_edge():
    st = state(draw=["BA/L"])
    squares = {tuple(m["at"]) for m in listed(st, "place")}
    assert squares == {(0, 1)}  # the only neighbour of the start tile with a field edge toward it
    assert refused(st, {"type": "place", "at": [0, 0], "rotation": 0}) == ["K-PLACE-1"]
    assert refused(st, {"type": "place", "at": [1, 1], "rotation": 0}) == ["K-PLACE-1"]  # a corner only
    assert refused(st, {"type": "place", "at": [0, 5], "rotation": 0}) == ["K-PLACE-1"]


def test_K_PLACE_2_shared_edges_match():
    st = state(draw=["BA/RFr"])
    assert refused(st, {"type": "place", "at": [1, 0], "rotation": 90}) == ["K-PLACE-2"]  # field against road
    assert {(tuple(m["at"]), m["rotation"]) for m in listed(st, "place")} == {
        ((1, 0), 0), ((1, 0), 180), ((-1, 0), 0), ((-1, 0), 180), ((0, 1), 0), ((0, 1), 180)}
    document = carcassonne.state_json(state([("BA/RFr", (1, 0), 0)]))
    document["board"][1]["rotation"] = 90
    errors, _ = carcassonne.validate_state(document)
    assert [(p.rule, p.pointer) for p in errors] == [("K-PLACE-2", "/board/1")]


def test_K_PLACE_3_a_tile_that_fits_nowhere_is_discarded_and_another_drawn():
    st = state([("BA/C", (0, -1), 180)], draw=["BA/Cccc+", "BA/L"])  # no open city edge is left
    assert carcassonne.legal_moves(st) == [{"type": "discard", "tile": "BA/Cccc+"}]
    after, events = play(st, {"type": "discard", "tile": "BA/Cccc+"})
    assert after.discarded == ("BA/Cccc+",) and after.turn == 0 and after.step.value == "place"
    assert after.bag.tiles[0] == "BA/L" and events[0]["type"] == "discarded"
    fits = state(draw=["BA/L"])
    assert refused(fits, {"type": "discard", "tile": "BA/L"}) == ["K-PLACE-3"]


def test_K_MEEPLE_on_a_road_city_cloister_or_field_of_the_new_tile():
    st = state(draw=["BA/LR"])
    placed, _ = play(st, {"type": "place", "at": [0, 1], "rotation": 0})  # the cloister's road to the south
    assert {m["feature"] for m in listed(placed, "meeple")} == {"cloister", "S", "NL"}
    after, events = play(placed, {"type": "meeple", "feature": "cloister"})
    assert events[0] == {"type": "meeple", "player": 0, "at": [0, 1], "feature": "cloister", "step": 0}
    assert after.players[0].supply == 6 and after.turn == 1
    skipped, _ = play(placed, {"type": "skip"})
    assert skipped.meeples == () and skipped.players[0].supply == 7


def test_K_MEEPLE_1_only_on_the_tile_just_placed_and_once_a_turn():
    st = state([("BA/RFr", (1, 0), 0)], draw=["BA/L"])
    placed, _ = play(st, {"type": "place", "at": [0, 1], "rotation": 0})
    assert {m["feature"] for m in listed(placed, "meeple")} == {"cloister", "NL"}
    assert refused(placed, {"type": "meeple", "feature": "E"}) == ["K-TILE-4"]  # the road of another tile
    after, _ = play(placed, {"type": "meeple", "feature": "cloister"})
    assert refused(after, {"type": "meeple", "feature": "NL"}) == ["K-SVC-STEP"]
    document = carcassonne.state_json(after)
    document["meeples"].append(dict(document["meeples"][0], player=1))
    errors, _ = carcassonne.validate_state(document)
    assert {p.rule for p in errors} == {"K-MEEPLE-1"}


def test_K_MEEPLE_1_no_meeple_on_the_tile_just_placed_before_the_action():
    # a state in the action step whose new tile already holds a meeple: no turn leads there
    document = doc([("BA/L", (0, 1), 0)], step="action", last=(0, 1), meeples=[(1, (0, 1), "cloister")])
    errors, _ = carcassonne.validate_state(document)
    assert [(p.rule, p.pointer) for p in errors] == [("K-MEEPLE-1", "/meeples/0")]
    # the same meeple on the tile placed the turn before is in order
    earlier = doc([("BA/L", (0, 1), 0), ("BA/RFr", (1, 0), 0)], step="action", last=(1, 0),
                  meeples=[(1, (0, 1), "cloister")])
    assert carcassonne.validate_state(earlier)[0] == []
    # the capture step follows a floor, which was the turn's action: no meeple on the new tile then either
    capture = doc([("TO/F", (0, 1), 0)], tower=True, step="capture", last=(0, 1), raised=(0, 1),
                  towers=[((0, 1), 1, None)], meeples=[(1, (0, 1), "NL")])
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(capture)[0]] == [("K-MEEPLE-1", "/meeples/0")]
    # a floor on the new tile's own foundation is that action: its tower stands there during the capture step
    capture["meeples"] = []
    assert carcassonne.validate_state(capture)[0] == []
    # but not before the action
    action = doc([("TO/F", (0, 1), 0)], tower=True, step="action", last=(0, 1), towers=[((0, 1), 1, None)])
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(action)[0]] == [("K-TOW-ACT-1", "/towers/0")]


def test_K_MEEPLE_1_a_meeple_on_the_new_tile_before_the_action_is_a_422_over_http():
    client = create_app(AS_DEPLOYED).test_client()
    document = doc([("BA/L", (0, 1), 0)], step="action", last=(0, 1), meeples=[(1, (0, 1), "cloister")])
    response = client.post("/v1/games/carcassonne/legal-moves", json={"state": document})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert [(e["rule"], e["pointer"]) for e in response.get_json()["errors"]] == [("K-MEEPLE-1", "/state/meeples/0")]


def test_K_MEEPLE_2_not_on_a_feature_already_held_but_joined_later_may_hold_several():
    st = state([("BA/RFr", (1, 0), 0)], draw=["BA/RFr"], meeples=[(1, (1, 0), "E")])
    placed, _ = play(st, {"type": "place", "at": [2, 0], "rotation": 0})
    assert "E" not in {m["feature"] for m in listed(placed, "meeple")}
    assert refused(placed, {"type": "meeple", "feature": "W"}) == ["K-MEEPLE-2"]
    # two cities of their own, each held, joined later by a tile: both meeples are on it and both score
    apart = state([("BA/RCr", (1, 0), 0), ("BA/Cc.1", (0, -1), 180)], draw=["BA/Cc.1"],
                  meeples=[(1, (0, 0), "N"), (0, (1, 0), "N")])
    _, events = play(apart, {"type": "place", "at": [1, -1], "rotation": 270}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["points"], event["scorers"], len(event["returned"])) == (8, [0, 1], 2)


def test_K_SCORE_a_completed_feature_scores_even_with_a_meeple_placed_this_turn():
    st = state(draw=["BA/C"])
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "meeple", "feature": "S"})
    (event,) = scored(events)
    assert event["feature"] == {"type": "city", "at": [0, -1], "feature": "S", "tiles": [[0, -1], [0, 0]],
                                "pennants": 0}
    assert (event["points"], event["scorers"]) == (4, [0])
    assert event["returned"] == [{"player": 0, "at": [0, -1], "feature": "S"}]
    assert after.players[0].score == 4 and after.players[0].supply == 7 and after.meeples == ()


def test_K_SCORE_ROAD_both_ends_closed_or_a_loop():
    st = state([("BA/RRR", (1, 0), 0)], draw=["BA/RRR"], meeples=[(1, (0, 0), "E")])
    after, events = play(st, {"type": "place", "at": [-1, 0], "rotation": 0}, {"type": "skip"})
    road = [e for e in scored(events) if e["feature"]["type"] == "road" and e["scorers"]]
    assert [(e["points"], e["scorers"], len(e["feature"]["tiles"])) for e in road] == [(3, [1], 3)]
    assert after.players[1].score == 3
    loop = state(LOOP, draw=["BA/Rr"], meeples=[(0, (0, 1), "E")])
    after, events = play(loop, {"type": "place", "at": [1, 2], "rotation": 90}, {"type": "skip"})
    (event,) = [e for e in scored(events) if e["feature"]["type"] == "road"]
    assert (event["points"], event["scorers"]) == (4, [0])


def test_K_SCORE_CITY_two_a_tile_and_two_a_pennant():
    st = state([("BA/CFc+", (0, -1), 90)], draw=["BA/C"], meeples=[(1, (0, -1), "N")])
    after, events = play(st, {"type": "place", "at": [0, -2], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert event["feature"]["pennants"] == 1 and len(event["feature"]["tiles"]) == 3
    assert (event["points"], event["scorers"]) == (8, [1])
    assert after.players[1].score == 8


def test_K_SCORE_CLOISTER_nine_when_surrounded():
    block = [t for t in CLOISTER_BLOCK if t[1] != (1, 3)]
    st = state(block, draw=["BA/Cc+"], meeples=[(0, (0, 2), "cloister")])
    after, events = play(st, {"type": "place", "at": [1, 3], "rotation": 180}, {"type": "skip"})
    cloisters = [e for e in scored(events) if e["feature"]["type"] == "cloister"]
    assert [(e["points"], e["scorers"], len(e["feature"]["tiles"])) for e in cloisters] == [(9, [0], 9)]
    assert after.players[0].score == 9
    # one square short: not complete, nothing scored
    short = state([t for t in block if t[1] != (1, 2)], draw=["BA/C"], meeples=[(0, (0, 2), "cloister")])
    _, events = play(short, {"type": "place", "at": [1, 2], "rotation": 90}, {"type": "skip"})
    assert [e for e in scored(events) if e["feature"]["type"] == "cloister"] == []


def test_K_SCORE_MAJORITY_most_meeples_score_and_ties_share():
    board = [("BA/CFc.1", (0, -1), 90)]
    tie = state(board, draw=["BA/C"], meeples=[(0, (0, 0), "N"), (1, (0, -1), "N")])
    after, events = play(tie, {"type": "place", "at": [0, -2], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["points"], event["scorers"]) == (6, [0, 1])
    assert [p.score for p in after.players] == [6, 6]
    joined = [("BA/RCr", (1, 0), 0), ("BA/Cc.1", (0, -1), 180)]
    two_to_one = state(joined, draw=["BA/Cc.1"], players=3, turn=2,
                       meeples=[(1, (0, 0), "N"), (1, (1, 0), "N"), (0, (0, -1), "E")])
    after, events = play(two_to_one, {"type": "place", "at": [1, -1], "rotation": 270}, {"type": "skip"})
    (event,) = scored(events)
    assert (event["points"], event["scorers"]) == (8, [1])  # two meeples of player 1 against one
    assert [p.score for p in after.players] == [0, 8, 0] and after.meeples == ()


def test_K_SCORE_RETURN_knights_go_home_and_farmers_stay():
    st = state(draw=["BA/C"], meeples=[(1, (0, 0), "N"), (0, (0, 0), "EL")])
    after, events = play(st, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "skip"})
    (event,) = scored(events)
    assert event["returned"] == [{"player": 1, "at": [0, 0], "feature": "N"}]
    assert [(m.player, m.feature) for m in after.meeples] == [(0, "EL")]
    assert [p.supply for p in after.players] == [6, 7]
