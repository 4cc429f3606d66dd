"""K-SVC: the service's rulings where the rule book leaves the referee to decide."""
from __future__ import annotations

from service.games import carcassonne

from .helpers import doc, listed, play, refused, scored, state
from .test_rules_tower import ROW, ROW_MEEPLES


def test_K_SVC_STEP_place_then_one_action_then_capture_or_skip():
    st = state(draw=["BA/L"])
    assert refused(st, {"type": "meeple", "feature": "N"}) == ["K-SVC-STEP"]
    assert refused(st, {"type": "skip"}) == ["K-SVC-STEP"]
    placed, _ = play(st, {"type": "place", "at": [0, 1], "rotation": 0})
    assert placed.last == (0, 1) and listed(placed, "skip") == [{"type": "skip"}]
    assert refused(placed, {"type": "place", "at": [0, 2], "rotation": 0}) == ["K-SVC-STEP"]
    # after a floor the capture step comes even with nobody in reach, and only skip is then legal
    empty = state(ROW, tower=True, step="action", last=(3, 1))
    raised, _ = play(empty, {"type": "floor", "at": [0, 1]})
    assert raised.raised == (0, 1) and carcassonne.legal_moves(raised) == [{"type": "skip"}]
    ended, events = play(raised, {"type": "skip"})
    assert ended.raised is None and ended.last is None and events[0]["during"] == "capture"
    # scoring waits for the capture: a knight taken from the city the tile completed scores nothing
    city = state(tower=True, draw=["TO/C"], meeples=[(1, (0, 0), "N")])
    raised, _ = play(city, {"type": "place", "at": [0, -1], "rotation": 180}, {"type": "floor", "at": [0, -1]})
    after, events = play(raised, {"type": "capture", "at": [0, 0], "feature": "N", "player": 1})
    (event,) = scored(events)
    assert (event["points"], event["scorers"]) == (0, []) and after.players[1].score == 0
    document = carcassonne.state_json(placed)
    document["last"] = None
    assert [p.rule for p in carcassonne.validate_state(document)[0]] == ["K-SVC-STEP"]
    document["last"] = [0, 0]  # the start tile is never the tile placed this turn
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(document)[0]] == [("K-SVC-STEP", "/last")]


def test_K_SVC_BAG_a_listed_bag_or_a_counted_one_naming_the_tile():
    st = state(draw=["BA/L"])
    assert play(st, {"type": "place", "at": [0, 1], "rotation": 0})[0] == \
        play(st, {"type": "place", "tile": "BA/L", "at": [0, 1], "rotation": 0})[0]
    counted = state(bag_count=True, draw=["BA/L"])
    tiles = {m["tile"] for m in listed(counted, "place")}
    assert tiles == set(carcassonne.tile_counts(False))  # every tile of the set is still unplaced
    assert refused(counted, {"type": "place", "at": [0, 1], "rotation": 0}) == ["K-SVC-BAG"]
    after, _ = play(counted, {"type": "place", "tile": "BA/L", "at": [0, 1], "rotation": 0})
    assert after.bag == carcassonne.Bag(None, counted.bag.count - 1)
    # every BA/Cccc+ (there is one) is already on the board
    full = state([("BA/Cccc+", (0, -1), 0)], bag_count=True)
    assert refused(full, {"type": "place", "tile": "BA/Cccc+", "at": [1, 0], "rotation": 0}) == ["K-COMP-3"]
    view = carcassonne.player_view(st, 1)
    assert view.bag == carcassonne.Bag(None, st.bag.count) and carcassonne.legal_steps(view)


def test_K_SVC_DISCARD_the_last_tile_discarded_ends_the_game():
    st = state([("BA/C", (0, -1), 180)], draw=["BA/Cccc+"], keep=1)
    after, events = play(st, {"type": "discard", "tile": "BA/Cccc+"})
    assert after.over and [e["type"] for e in events] == ["discarded", "game_over"]


def test_K_SVC_SCORE_the_track_plus_the_end_scoring_never_folded_into_the_state():
    st = state(draw=["BA/L"], keep=1, meeples=[(0, (0, 0), "E")], scores=[5, 2])
    after, events = play(st, {"type": "place", "at": [0, 1], "rotation": 0}, {"type": "meeple",
                                                                              "feature": "cloister"})
    assert after.over and [p.score for p in after.players] == [5, 2]  # the track, without the end scoring
    score = carcassonne.score(after).to_json()
    assert [(p["so_far"], p["roads"], p["cloisters"], p["total"]) for p in score["players"]] == [
        (5, 1, 2, 8), (2, 0, 0, 2)]
    assert events[-1]["totals"] == [8, 2] and events[-1]["winners"] == [0]
    # mid-turn, a feature complete but not yet scored counts in full
    placed, _ = play(state(draw=["BA/C"], meeples=[(1, (0, 0), "N")]),
                     {"type": "place", "at": [0, -1], "rotation": 180})
    (feature,) = carcassonne.score(placed).to_json()["features"]
    assert (feature["complete"], feature["points"]) == (True, 4)


def test_K_SVC_FIELD_a_field_counts_a_city_once_however_often_it_touches_it():
    board = [("BA/RCr", (1, 0), 0), ("BA/Cc.1", (0, -1), 180), ("BA/Cc.1", (1, -1), 270)]
    st = state(board, meeples=[(0, (0, 0), "EL")])
    (field,) = carcassonne.score(st).to_json()["features"]
    assert field["type"] == "field" and field["cities"] == 1 and field["points"] == 3
    assert sorted(map(tuple, field["tiles"])) == [(0, 0), (1, 0)]


def test_K_SVC_TOWER_a_captured_top_reopens_the_tower():
    st = state(ROW, tower=True, step="action", last=(3, 1), meeples=ROW_MEEPLES[:6],
               towers=[((0, 1), 1, None), ((0, 2), 2, 1)])
    raised, _ = play(st, {"type": "floor", "at": [0, 1]})
    after, _ = play(raised, {"type": "capture", "at": [0, 2], "feature": "tower", "player": 1})
    assert carcassonne.Tower((0, 2), 2, None) in after.towers
    no_foundation = doc(ROW, tower=True, towers=[((1, 1), 1, None)])
    assert [p.rule for p in carcassonne.validate_state(no_foundation)[0]] == ["K-TOW-ACT-1"]
    twice = doc(ROW, tower=True, towers=[((0, 1), 1, None), ((0, 2), 2, None), ((0, 1), 1, None)])
    assert [(p.rule, p.pointer) for p in carcassonne.validate_state(twice)[0]] == [("K-TOW-ACT-1", "/towers/2/at")]
    on_foundation = doc(ROW, tower=True, meeples=[(0, (0, 1), "tower")])
    assert [p.rule for p in carcassonne.validate_state(on_foundation)[0]] == ["K-TILE-4"]


def test_K_SVC_SUPPLY_a_supply_left_out_is_what_conservation_leaves():
    document = doc(meeples=[(0, (0, 0), "E"), (1, (0, 0), "N")])
    assert "supply" not in document["players"][0]
    st = carcassonne.read_state(document)
    assert [p.supply for p in st.players] == [6, 6]
    assert carcassonne.state_json(st)["players"][0]["supply"] == 6
