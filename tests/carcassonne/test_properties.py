"""Properties: the tile table against the data, and scores that do not depend on where the board lies."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import carcassonne
from service.games.carcassonne import BoardIndex, Kind, Meeple, Placement, Tower, face
from service.games.carcassonne.tiles import EDGE_NAMES, HALF_NAMES, TILES

from .playouts import playout


def test_each_data_tile_s_four_rotations_have_their_edges_where_the_data_says():
    for tile, (edges, features) in TILES.items():
        for rotation in (0, 90, 180, 270):
            turn = rotation // 90
            tile_face = face(tile, rotation)
            for d, kind in enumerate(edges):
                assert tile_face.edges[(d + turn) % 4].value == kind, (tile, rotation, d)
            for (kind, raw_edges, raw_halves, pennant, _), seg in zip(features, tile_face.segments):
                assert seg.kind.value == kind and seg.pennant == pennant
                assert {EDGE_NAMES[e] for e in seg.edges} == {EDGE_NAMES[(EDGE_NAMES.index(e) + turn) % 4]
                                                               for e in raw_edges}
                assert {HALF_NAMES[h] for h in seg.halves} == {HALF_NAMES[(HALF_NAMES.index(h) + 2 * turn) % 8]
                                                                for h in raw_halves}
            # a road or city edge carries that feature; a field's halves lie on field or road edges only
            for seg in tile_face.segments:
                assert all(tile_face.edges[e] is seg.kind for e in seg.edges)
                assert all(tile_face.edges[h // 2] is not Kind.CITY for h in seg.halves)


def test_the_bridge_tile_is_held_as_K_TOW_TILE_2_says():
    edges, features = TILES["TO/CRcr"]
    assert edges == ("road", "city", "road", "city")
    assert sorted(f[:3] for f in features) == [
        ("city", ("E", "W"), ()), ("field", (), ("NL",)), ("field", (), ("NR",)), ("field", (), ("SL",)),
        ("field", (), ("SR",)), ("road", ("N", "S"), ()), ("tower", (), ())]
    assert all(f[4] == ("W",) for f in features if f[0] == "field")  # each field touches the one city


def _turned_name(tile_face_name: str, turn: int) -> str:
    if tile_face_name in EDGE_NAMES:
        return EDGE_NAMES[(EDGE_NAMES.index(tile_face_name) + turn) % 4]
    if tile_face_name in HALF_NAMES:
        return HALF_NAMES[(HALF_NAMES.index(tile_face_name) + 2 * turn) % 8]
    return tile_face_name


def moved(state: carcassonne.State, turn: int, dx: int, dy: int) -> carcassonne.State:
    """The whole board turned `turn` quarter turns clockwise about [0, 0], then shifted by (dx, dy)."""
    def square(at):
        x, y = at
        for _ in range(turn):
            x, y = -y, x  # a quarter turn clockwise, y to the south
        return x + dx, y + dy

    board = tuple(Placement(p.tile, square(p.at), (p.rotation + 90 * turn) % 360) for p in state.board)
    by_square = {p.at: p for p in board}
    meeples = []
    for m in state.meeples:
        at = square(m.at)
        name = _turned_name(m.feature, turn)
        placed = by_square[at]
        meeples.append(Meeple(at, face(placed.tile, placed.rotation).by_name[name].name, m.player))
    towers = tuple(sorted(Tower(square(t.at), t.height, t.top) for t in state.towers))
    return replace(state, board=board, meeples=tuple(sorted(meeples)), towers=towers, last=None, raised=None)


def _summary(score: carcassonne.Score) -> tuple:
    features = Counter((f["type"], f["points"], tuple(f["winners"]), len(f["tiles"]), f["pennants"])
                       for f in score.features)
    return score.players, features


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans(), length=st.integers(0, 160),
       turn=st.integers(0, 3), dx=st.integers(-20, 20), dy=st.integers(-20, 20))
def test_rotating_or_shifting_a_whole_board_changes_no_score(seed, players, tower, length, turn, dx, dy):
    *_, state = playout(seed, players, tower, steps=length)
    before = _summary(carcassonne.score_state(state))
    assert _summary(carcassonne.score_state(moved(state, turn, dx, dy))) == before


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans())
def test_at_the_end_the_points_of_all_features_add_up_to_the_scores(seed, players, tower):
    earned = [0] * players

    def count(_before, _step, _after, events):
        for event in events:
            if event["type"] == "scored":
                for p in event["scorers"]:
                    earned[p] += event["points"]
            elif event["type"] == "ransom":
                earned[event["player"]] -= event["points"]
                earned[event["from"]] += event["points"]

    *_, final = playout(seed, players, tower, each=count)
    assert final.over
    assert [p.score for p in final.players] == earned
    score = carcassonne.score_state(final)
    for p in range(players):
        end = sum(f["points"] for f in score.features if p in f["winners"])
        assert score.players[p]["total"] == earned[p] + end
        categories = ("roads", "cities", "cloisters", "fields")
        assert sum(score.players[p][c] for c in categories) == end


def _features(index: BoardIndex) -> dict:
    """Each segment of the board, (square, segment) -> its feature: its segments, open ends and pennants."""
    out = {}
    for number, square in enumerate(index.squares):
        for segment in range(len(index.faces[number].segments)):
            root = index.find(index.node(square, segment))
            members = frozenset(index.segment_of(node)[0::2] for node in index.members(root))
            out[square, segment] = (members, index.open[root], index.feature(root).pennants)
    return out


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans(), length=st.integers(0, 160),
       order=st.integers(0, 10 ** 6))
def test_a_board_indexed_whole_is_the_board_indexed_tile_by_tile_in_any_order(seed, players, tower, length, order):
    *_, state = playout(seed, players, tower, steps=length)
    tiles = list(state.board)
    random.Random(order).shuffle(tiles)
    one_by_one = BoardIndex()
    for placement in tiles:
        one_by_one.add(placement)
    whole = BoardIndex.of(state.board)
    assert _features(one_by_one) == _features(whole)
    assert one_by_one.frontier == whole.frontier


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans(), length=st.integers(0, 160))
def test_walking_a_road_city_or_cloister_finds_what_the_union_find_finds(seed, players, tower, length):
    *_, state = playout(seed, players, tower, steps=length)
    walked, joined = BoardIndex.of(state.board), BoardIndex.of(state.board)
    for number, square in enumerate(joined.squares):
        for segment in joined.faces[number].segments:
            if segment.kind not in (Kind.ROAD, Kind.CITY, Kind.CLOISTER):
                continue
            root = joined.find(joined.node(square, segment.index))
            expected = set(joined.tiles_of(joined.feature(root))) if joined.complete(root) else None
            assert walked.complete_squares(square, segment) == expected


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans(), length=st.integers(0, 160),
       pick=st.integers(0, 10 ** 6))
def test_walking_any_feature_finds_the_meeples_the_union_find_finds(seed, players, tower, length, pick):
    *_, state = playout(seed, players, tower, steps=length)
    walked, joined = BoardIndex.of(state.board), BoardIndex.of(state.board)
    every = [(square, segment) for number, square in enumerate(joined.squares)
             for segment in joined.faces[number].segments if segment.kind is not Kind.TOWER]
    # a few segments taken at random, as meeples would be
    taken = set(random.Random(pick).sample([(square, s.index) for square, s in every], min(len(every), 6)))
    roots = {joined.find(joined.node(square, index)) for square, index in taken}
    for square, segment in every:
        expected = joined.find(joined.node(square, segment.index)) in roots
        assert walked.holds_any(square, segment, taken) == expected, (square, segment.name)
        assert walked.holds_any(square, segment, set()) is False


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans(), length=st.integers(0, 160))
def test_what_a_square_s_neighbours_show_it_is_what_the_frontier_keeps(seed, players, tower, length):
    *_, state = playout(seed, players, tower, steps=length)
    frontier = BoardIndex.of(state.board).frontier
    near = {(x + dx, y + dy) for x, y in [p.at for p in state.board] for dx in (-2, -1, 0, 1, 2)
            for dy in (-2, -1, 0, 1, 2)}
    for square in near:
        assert BoardIndex.of(state.board).needs(square) == frontier.get(square), square


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 5), tower=st.booleans())
def test_the_legal_moves_are_the_legal_steps_written_out(seed, players, tower):
    # legal_moves writes the place step's placements itself; a counted bag (the view) lists every tile's
    for state in playout(seed, players, tower):
        for seen in (state, carcassonne.player_view(state, 0)):
            assert carcassonne.legal_moves(seen) == [step.to_json() for step in carcassonne.legal_steps(seen)]
