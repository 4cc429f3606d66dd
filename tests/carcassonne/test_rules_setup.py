"""K-COMP, K-TILE and K-SETUP: the components, the tiles' geometry and the deal."""
from __future__ import annotations

import pytest

from service.games import carcassonne
from service.games.carcassonne import Kind, face, tile_counts
from service.games.carcassonne.tiles import EDGE_NAMES, HALF_NAMES

from .helpers import doc, listed, play, refused, state


def _errors(document: dict) -> set[tuple[str, str]]:
    errors, _ = carcassonne.validate_state(document)
    return {(p.rule, p.pointer) for p in errors}


def test_K_COMP_1_seventy_two_tiles_with_the_start_tile():
    assert sum(tile_counts(False).values()) == 72
    assert tile_counts(False)["BA/RCr"] == 4
    start = face(carcassonne.START_TILE, 0)
    assert [e.value for e in start.edges] == ["city", "road", "field", "road"]  # city north, road west-east
    game = carcassonne.new_game(1, players=2)
    assert len(game.board) + game.bag.count == 72
    tower_tile = doc([("TO/F", (0, 1), 0)])
    assert ("K-TOW-TILE-1", "/board/1/tile") in _errors(tower_tile)


def test_K_COMP_2_seven_meeples_in_play_and_none_without_supply():
    game = carcassonne.new_game(1, players=3)
    assert [p.supply for p in game.players] == [7, 7, 7]
    document = carcassonne.state_json(state([("BA/L", (0, 1), 0)], step="action", last=(0, 1)))
    document["players"][0]["supply"] = 0
    document["meeples"] = [{"player": 0, "at": [0, 0], "feature": "N"}]
    with pytest.raises(carcassonne.InvalidStateError) as error:
        carcassonne.read_state(document)
    assert {p.rule for p in error.value.problems} == {"K-COMP-3"}
    # a player with no meeple left may not place one
    board = [("BA/RFr", (x, 0), 0) for x in range(1, 8)]
    st = state(board + [("BA/L", (0, 1), 0)], step="action", last=(0, 1),
               meeples=[(0, (x, 0), "NL") for x in range(1, 8)])
    assert st.players[0].supply == 0
    assert listed(st, "meeple") == []
    assert refused(st, {"type": "meeple", "feature": "cloister"}) == ["K-COMP-2"]


def test_K_COMP_3_conservation_of_tiles_and_meeples():
    good = doc([("BA/L", (0, 1), 0)], meeples=[(1, (0, 1), "cloister")])
    assert _errors(good) == set()
    assert carcassonne.read_state(good).players[1].supply == 6
    extra = doc()
    extra["bag"].append("BA/Cccc+")
    assert _errors(extra) == {("K-COMP-3", "/bag")}  # a copy too many, and a tile too many in all
    twice_on_board = doc([("BA/Cccc+", (0, 1), 0)], draw=[])
    twice_on_board["board"].append({"tile": "BA/Cccc+", "at": [0, 2], "rotation": 0})
    twice_on_board["bag"].pop()
    assert ("K-COMP-3", "/board") in _errors(twice_on_board)
    discarded_too = doc([("BA/Cccc+", (0, 1), 0)])
    discarded_too["discarded"].append("BA/Cccc+")
    discarded_too["bag"].pop()
    assert ("K-COMP-3", "/discarded") in _errors(discarded_too)
    towered = doc()
    towered["discarded"].append("TO/F")  # a tile of The Tower, in a base game's discards
    assert ("K-TOW-TILE-1", "/discarded") in _errors(towered)
    missing = doc()
    missing["bag"].pop()
    assert _errors(missing) == {("K-COMP-3", "/bag")}
    wrong_supply = doc(meeples=[(0, (0, 0), "N")])
    wrong_supply["players"][0]["supply"] = 7
    assert _errors(wrong_supply) == {("K-COMP-3", "/players/0")}
    counted = doc(bag_count=True)
    assert _errors(counted) == set()
    counted["bag"]["count"] += 1
    assert _errors(counted) == {("K-COMP-3", "/bag")}


def test_K_TILE_1_squares_and_rotation():
    city = face("BA/C", 0)
    assert city.edges[0] is Kind.CITY
    assert face("BA/C", 90).edges[1] is Kind.CITY  # what the data lists at N lies at E for 90
    assert face("BA/C", 180).edges[2] is Kind.CITY
    assert face("BA/C", 270).edges[3] is Kind.CITY
    st = state(draw=["BA/C"])
    # north of [0, 0] is [0, -1]: the city of BA/C turned 180 meets the start tile's city
    after, _ = play(st, {"type": "place", "at": [0, -1], "rotation": 180})
    assert after.last == (0, -1)
    assert refused(st, {"type": "place", "at": [0, -1], "rotation": 0}) == ["K-PLACE-2"]


def test_K_TILE_2_half_edges_meet_left_to_right():
    start = face("BA/RCr", 0)
    assert [HALF_NAMES[h] for h in start.by_name["EL"].halves] == ["EL", "WR"]
    # BA/RCr east of the start: its WR (north half of W) meets the start's EL (north half of E)
    st = state([("BA/RCr", (1, 0), 0)])
    index = st.index
    north_start = index.find(index.node((0, 0), start.by_name["EL"].index))
    north_east = index.find(index.node((1, 0), start.by_name["WR"].index))
    south_east = index.find(index.node((1, 0), start.by_name["WL"].index))
    assert north_start == north_east != south_east


def test_K_TILE_3_features_are_unions_across_edges():
    st = state([("BA/RFr", (1, 0), 0), ("BA/RFr", (-1, 0), 0)])
    index = st.index
    road = index.feature(index.find(index.node((0, 0), face("BA/RCr", 0).by_name["E"].index)))
    assert road.kind is Kind.ROAD and road.squares == {(-1, 0), (0, 0), (1, 0)} and road.open == 2
    north = index.find(index.node((1, 0), face("BA/RFr", 0).by_name["NL"].index))
    south = index.find(index.node((1, 0), face("BA/RFr", 0).by_name["SL"].index))
    assert north != south  # the road separates the fields
    bridge = face("TO/CRcr", 0)
    kinds = sorted(s.kind.value for s in bridge.segments)
    assert kinds == ["city", "field", "field", "field", "field", "road", "tower"]


def test_K_TILE_4_feature_names_are_unique_and_any_touching_name_works():
    for f in carcassonne.FACES.values():
        names = [n for s in f.segments for n in s.names]
        assert len(names) == len(set(names))
        for s in f.segments:
            expected = ([EDGE_NAMES[e] for e in s.edges] if s.kind in (Kind.ROAD, Kind.CITY)
                        else [HALF_NAMES[h] for h in s.halves] or ["inner"] if s.kind is Kind.FIELD
                        else [s.kind.value])
            assert list(s.names) == expected and s.name == expected[0]
    assert face("TO/CccC+", 0).by_name["inner"].kind is Kind.FIELD
    # a meeple named by any edge of its road is written back by the first name clockwise from N
    st = state(draw=["BA/RFr"])
    after, _ = play(st, {"type": "place", "at": [1, 0], "rotation": 0}, {"type": "meeple", "feature": "W"})
    assert carcassonne.state_json(after)["meeples"] == [{"player": 0, "at": [1, 0], "feature": "E"}]
    placed, _ = play(st, {"type": "place", "at": [1, 0], "rotation": 0})
    assert refused(placed, {"type": "meeple", "feature": "N"}) == ["K-TILE-4"]
    bad = doc(meeples=[(0, (0, 0), "S")])
    assert _errors(bad) == {("K-TILE-4", "/meeples/0/feature")}



def test_K_TILE_4_a_name_the_tile_lacks_is_refused_with_the_names_it_has():
    # BA/RFr at [1, 0] unturned: a road W to E between two fields; the refusal lists every name of each feature
    placed, _ = play(state(draw=["BA/RFr"]), {"type": "place", "at": [1, 0], "rotation": 0})
    names = "road E or W; field NL, NR, EL or WR; field ER, SL, SR or WL."
    for asked in ("NW", "n"):
        outcome = carcassonne.apply_steps(placed, [{"type": "meeple", "feature": asked}])
        (violation,) = outcome.violations
        assert (violation.rule, violation.pointer) == ("K-TILE-4", "/0/feature")
        assert violation.message.startswith(f'The tile just placed has no feature "{asked}". ')
        assert "by every name each answers to: " + names in violation.message
    lower = carcassonne.apply_steps(placed, [{"type": "meeple", "feature": "e"}]).violations[0].message
    assert lower.endswith('Names are case-sensitive: "E".')
    # the same list when a state's meeple names a feature its tile lacks
    errors, _ = carcassonne.validate_state(doc(meeples=[(0, (0, 0), "SW")]))
    (error,) = errors
    assert (error.rule, error.pointer) == ("K-TILE-4", "/meeples/0/feature")
    assert error.message == ('BA/RCr at [0, 0], rotation 0, has no feature "SW" a meeple can stand on. Its '
                             "features, by every name each answers to: road E or W; city N; field EL or WR; field "
                             "ER, SL, SR or WL.")


def test_K_SETUP_1_start_tile_at_the_origin_and_the_rest_in_the_bag():
    game = carcassonne.new_game(5, players=4)
    assert [(p.tile, p.at, p.rotation) for p in game.board] == [("BA/RCr", (0, 0), 0)]
    assert game.bag.count == 71 and sorted(game.bag.tiles + ("BA/RCr",)) == sorted(carcassonne.full_set(False))
    assert carcassonne.new_game(5, players=4).bag == game.bag
    assert carcassonne.new_game(6, players=4).bag != game.bag
    moved = doc()
    moved["board"][0]["rotation"] = 90
    assert ("K-SETUP-1", "/board") in _errors(moved)


def test_K_SETUP_2_players_supplies_scores_and_turn_order():
    game = carcassonne.new_game(3, names=["A", "B", "C"])
    assert [(p.name, p.score, p.supply) for p in game.players] == [("A", 0, 7), ("B", 0, 7), ("C", 0, 7)]
    assert game.turn == 0
    order = []
    for _ in range(4):
        order.append(game.turn)
        step = carcassonne.legal_steps(game)[0]
        game, _ = play(game, step.to_json(), {"type": "skip"})
    assert order == [0, 1, 2, 0]
    for n in (1, 6):
        with pytest.raises(carcassonne.MalformedError):
            carcassonne.new_game(1, players=n)
    assert ("K-SETUP-2", "/players") in _errors(doc(players=2) | {"players": [{"name": "solo"}]})
