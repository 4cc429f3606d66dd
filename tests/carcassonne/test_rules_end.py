"""K-END: the end of the game and the end scoring."""
from __future__ import annotations

from service.games import carcassonne

from .helpers import CLOISTER_BLOCK, play, state


def _features(st: carcassonne.State) -> list[tuple[str, int, list[int]]]:
    return [(f["type"], f["points"], f["winners"]) for f in carcassonne.score(st).to_json()["features"]]


def test_K_END_1_the_game_ends_after_the_turn_of_the_last_tile():
    st = state(draw=["BA/L"], keep=1)
    assert st.bag.count == 1
    placed, _ = play(st, {"type": "place", "at": [0, 1], "rotation": 0})
    assert not placed.over  # the turn goes on: the action, then scoring
    after, events = play(placed, {"type": "meeple", "feature": "cloister"})
    assert after.over and carcassonne.legal_steps(after) == [] and carcassonne.to_act(after) is None
    assert events[-1]["type"] == "game_over" and events[-1]["totals"] == [2, 0]
    assert carcassonne.apply_steps(after, [{"type": "skip"}]).violations[0].rule == "K-END-1"
    document = carcassonne.state_json(after)
    document["phase"] = "play"
    errors, _ = carcassonne.validate_state(document)
    assert [p.rule for p in errors] == ["K-END-1"]


def test_K_END_2_incomplete_roads_cities_and_cloisters():
    st = state([("BA/RFr", (1, 0), 0), ("BA/CFc+", (0, -1), 90), ("BA/L", (0, 1), 0)],
               meeples=[(0, (1, 0), "E"), (1, (0, -1), "N"), (1, (0, 1), "cloister")])
    assert sorted(_features(st)) == [("city", 3, [1]), ("cloister", 3, [1]), ("road", 2, [0])]
    # city: 2 tiles and a pennant; cloister: its tile and the 2 around it (the start tile, [1, 0])
    players = carcassonne.score(st).to_json()["players"]
    assert [(p["roads"], p["cities"], p["cloisters"], p["total"]) for p in players] == [(2, 0, 0, 2), (0, 3, 3, 6)]
    block = state(CLOISTER_BLOCK[:4], meeples=[(0, (-1, 2), "W")])
    assert _features(block) == [("city", 1, [0])]


def test_K_END_3_fields_three_points_a_complete_city():
    closed = state([("BA/C", (0, -1), 180)], meeples=[(0, (0, 0), "EL"), (1, (0, 0), "SL")])
    score = carcassonne.score(closed).to_json()
    fields = [(f["feature"], f["cities"], f["points"], f["winners"]) for f in score["features"]]
    assert fields == [("EL", 1, 3, [0]), ("ER", 0, 0, [1])]
    assert [p["fields"] for p in score["players"]] == [3, 0]
    open_city = state(meeples=[(0, (0, 0), "EL")])
    assert carcassonne.score(open_city).to_json()["players"][0]["fields"] == 0
    # a city touched by two fields counts for each
    both = state([("BA/C", (0, -1), 180), ("BA/RFr", (1, 0), 0)], meeples=[(0, (0, 0), "EL")])
    assert carcassonne.score(both).to_json()["players"][0]["fields"] == 3


def test_K_END_4_most_points_win_and_equal_points_share():
    st = state(meeples=[(0, (0, 0), "E"), (1, (0, 0), "N")])
    score = carcassonne.score(st).to_json()
    assert [p["total"] for p in score["players"]] == [1, 1]
    assert (score["winners"], score["winner"], score["decided_by"]) == ([0, 1], None, "shared")
    ahead = state(meeples=[(0, (0, 0), "E")], scores=[0, 3])
    score = carcassonne.score(ahead).to_json()
    assert (score["winners"], score["winner"], score["decided_by"]) == ([1], 1, "points")
