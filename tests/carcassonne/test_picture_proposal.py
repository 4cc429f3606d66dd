"""A proposed step drawn on Carcassonne's picture (`/picture` with `moves`): every kind of step, legal and refused,
faded where it was tried in one group `proposed legal|refused` with its mark (✓, or a dashed outline and ✗) and the
verdict's first line as its title; the verdict said below the players, in the language asked; without a proposal,
the picture is the very one it was before proposals were drawn.

The geometry asserted is the picture's own (picture.py): tiles 64 square inside a margin of 16 and the ruler that
holds the squares' coordinates (picture.RULER), the board's leftmost column and topmost row at (AT, AT), the players'
lines 26 high from the board's foot (FRAME + 64 a row of tiles) and, like a step's strip below them, at the margin
(x 16, or 2 for a line's box), a tower at (0.78, 0.22) of its tile, a meeple where `anchor` puts it; coordinates
written to a tenth."""
from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET

import pytest

from service.api import create_app
from service.games import carcassonne
from service.games.carcassonne import picture
from service.games.carcassonne.steps import Step
from service.games.core.game import Proposal
from service.games.core.svg import verdict
from tests.settings import AS_DEPLOYED

from .helpers import doc

GAME = carcassonne.GAME
BASE = "/v1/games/carcassonne"
SVG = "{http://www.w3.org/2000/svg}"
RED, BLUE = picture.COLOURS[0], picture.COLOURS[1]
TICK, CROSS = "\u2713", "\u2717"
AT = picture.MARGIN + picture.RULER  # the board's leftmost column and topmost row start here, down and right
FRAME = 2 * AT  # around the board's tiles: the margin and the ruler on each side
LEAST_WIDTH = 420  # the picture's least width (the players' lines): a board of up to 4 columns is drawn as wide

# seed 42, Ada and Bea, with The Tower: the start tile alone at [0, 0]; Ada has drawn TO/CcR!, which fits at [0, -1]
# turned 180 (the first legal move)
DEAL = GAME.new({"seed": 42, "names": ["Ada", "Bea"], "variant": {"tower": True}})["state"]
FIRST = "TO/CcR!"
# The Tower: a row of tiles through a foundation at [0, 1] (TO/F) and one at [0, 2] (TO/L), P0 having just placed
# BA/RFr at [1, 0] (its road E-W goes on from the start tile's, where P0 has a meeple); board x -2..3, y 0..3:
# 6 columns (FRAME + 384 wide: wider than the picture's least width), 4 rows (the board's foot at FRAME + 256)
ROW = [("BA/L", (-2, 1), 0), ("BA/L", (-1, 1), 0), ("TO/F", (0, 1), 0), ("BA/L", (1, 1), 0), ("BA/L", (2, 1), 0),
       ("TO/L", (0, 2), 0), ("BA/C", (0, 3), 180), ("BA/C", (1, 2), 180), ("BA/C", (3, 1), 90),
       ("BA/RFr", (1, 0), 0)]
ROW_MEEPLES = [(1, (-2, 1), "cloister"), (1, (-1, 1), "cloister"), (1, (1, 1), "NL"), (0, (2, 1), "cloister"),
               (1, (0, 3), "S"), (1, (1, 2), "S"), (0, (3, 1), "E"), (0, (0, 0), "E"), (1, (0, 2), "cloister")]
ACTION = doc(ROW, tower=True, step="action", last=(1, 0), meeples=ROW_MEEPLES, towers=[((0, 1), 1, None)])
ROW_FOOT, ROW_WIDTH = FRAME + 4 * 64, max(FRAME + 6 * 64, LEAST_WIDTH)
# the same board at P0's place step, P1 holding two of P0's meeples; P0 has 7 points (a ransom costs 3)
RICH = doc(ROW, tower=True, meeples=ROW_MEEPLES, prisoners=[[], [0, 0]], scores=[7, 1], draw=["BA/C"])
POOR = doc(ROW, tower=True, meeples=ROW_MEEPLES, prisoners=[[], [0, 0]], scores=[2, 1], draw=["BA/C"])
# no open city edge is left: BA/Cccc+ (drawn) fits nowhere; board [0, -1] and [0, 0], its foot at FRAME + 128
NO_FIT = doc([("BA/C", (0, -1), 180)], draw=["BA/Cccc+", "BA/L"])
FLOOR = {"type": "floor", "at": [0, 1]}  # raises the tower at [0, 1] to 2: P0 may then capture


@pytest.fixture(scope="module")
def client():
    return create_app(AS_DEPLOYED).test_client()


def _origin(x: int, y: int, min_x: int = -2, min_y: int = 0) -> tuple[int, int]:
    """A square's top left corner on the picture (by default on the ROW board)."""
    return AT + (x - min_x) * 64, AT + (y - min_y) * 64


def _tenth(value: float) -> float:
    return round(value, 1)


def _proposed(svg: str) -> tuple[ET.Element, ET.Element]:
    """The picture (parsed: it is XML) and its one proposed group."""
    root = ET.fromstring(svg)
    groups = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("proposed")]
    assert len(groups) == 1
    return root, groups[0]


def _faded(group: ET.Element) -> ET.Element:
    faded = group.find(f"{SVG}g")
    assert faded is not None and faded.get("opacity") == picture.FADED
    return faded


def _band(root: ET.Element) -> ET.Element:
    band = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("verdict")]
    assert len(band) == 1
    return band[0]


def _verdict(root: ET.Element) -> str:
    """The verdict below the players, its wrapped lines joined again."""
    return " ".join(t.text or "" for t in _band(root).iter(f"{SVG}text"))


def _attrs(element: ET.Element, *names: str) -> tuple[float, ...]:
    return tuple(float(element.get(name)) for name in names)


def _marks(group: ET.Element, tag: str) -> list[ET.Element]:
    """The group's marks of one tag (outside its faded part), the coloured ones (not their white underlays)."""
    return [e for e in group.findall(f"{SVG}{tag}") if e.get("stroke") not in (None, "#fff")]


def _glyph(group: ET.Element) -> ET.Element:
    glyphs = [t for t in group.iter(f"{SVG}text") if t.get("aria-hidden")]
    assert len(glyphs) == 1
    return glyphs[0]


def _through_the_api(client, state: dict, moves: list[dict], language: str = "en") -> str:
    answer = client.post(f"{BASE}/picture?lang={language}", json={"state": state, "moves": moves},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["svg"]


def _checked(svg: str, legal: bool, rule: str | None = None) -> tuple[ET.Element, ET.Element]:
    """The marks every proposal has: the group's class, its title (the verdict's first line), the glyph, a dashed
    outline for a refused step, the verdict below naming the rule; the picture grown to hold it."""
    root, group = _proposed(svg)
    kind = "legal" if legal else "refused"
    assert group.get("class") == f"proposed {kind}"
    title = group.find(f"{SVG}title").text
    assert _verdict(root).startswith(title)
    glyph = _glyph(group)
    assert glyph.text == (TICK if legal else CROSS) and glyph.get("fill") == ("#1b5e20" if legal else "#b71c1c")
    dashed = [e for e in group if e.get("stroke-dasharray")]  # the marks (a tower foundation's ring is dashed too)
    assert bool(dashed) is not legal and all(e.get("stroke-dasharray") == "6 3" for e in dashed)
    if legal:
        assert re.fullmatch(r"Step \d+ is legal:", title)
    else:
        assert re.match(rf"Step \d+ is refused \({rule}\): ", title)
    assert _band(root).get("class") == f"verdict {kind}"
    height = float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    band_texts = _band(root).findall(f"{SVG}text")
    assert float(band_texts[-1].get("y")) + 8 < height  # the verdict fits in the picture
    assert height == float(band_texts[0].get("y")) - 18 + 18 * len(band_texts) + 9 + 8
    return root, group


def _players_foot(root: ET.Element, board_foot: int, players: int = 2) -> None:
    """The verdict starts below the players' lines (nothing drawn below them)."""
    assert float(_band(root).find(f"{SVG}text").get("y")) == board_foot + 26 * players + 18


# ---------------------------------------------------------------- place (K-PLACE): the tile on its square

def test_a_place_is_the_tile_on_its_square_in_its_rotation_and_the_board_grows_to_hold_it(client):
    move = GAME.legal_moves({"state": DEAL})["moves"][0]
    assert move == {"type": "place", "tile": FIRST, "at": [0, -1], "rotation": 180}
    svg = _through_the_api(client, DEAL, [move])
    root, group = _checked(svg, legal=True)
    # the board grows a row north: [0, -1] is its top left square, the start tile below it
    assert (root.get("width"), root.get("height")) == (str(LEAST_WIDTH), str(FRAME + 2 * 64 + 52 + 18 * 2 + 9 + 8))
    tile = _faded(group).find(f"{SVG}rect")
    assert _attrs(tile, "x", "y", "width", "height") == (AT, AT, 64, 64)
    # the very tile the board shows once it is placed, in its rotation, at its square
    drawn = "".join(picture._a_tile(FIRST, 180, AT, AT))
    assert f'<g opacity="0.55">{drawn}</g>' in svg
    assert drawn in GAME.picture({"state": GAME.apply({"state": DEAL, "moves": [move]})["state"]})
    outline = _marks(group, "rect")
    assert [_attrs(r, "x", "y", "width", "height") for r in outline] == [(AT + 1.5, AT + 1.5, 61, 61)]
    assert _attrs(_glyph(group), "x", "y") == (AT + 10, AT + 18)  # its top left corner
    assert _verdict(root) == f"Step 1 is legal: Ada placed tile {FIRST} at [0, -1], rotated 180°."
    _players_foot(root, FRAME + 2 * 64)


def test_a_place_that_leaves_the_tile_out_is_the_bags_first_in_the_rotation_asked(client):
    svg = _through_the_api(client, DEAL, [{"type": "place", "at": [0, -1], "rotation": 90}])
    _checked(svg, legal=False, rule="K-PLACE-2")
    assert f'<g opacity="0.55">{"".join(picture._a_tile(FIRST, 90, AT, AT))}</g>' in svg
    assert "".join(picture._a_tile(FIRST, 90, AT, AT)) != "".join(picture._a_tile(FIRST, 180, AT, AT))


@pytest.mark.parametrize(("at", "rotation", "rule", "origin"), [
    ([0, 0], 90, "K-PLACE-1", (AT, AT)),  # on the start tile: drawn over it
    ([0, -1], 90, "K-PLACE-2", (AT, AT)),  # its edges do not match: where it was tried, the board grown north
    ([2, 0], 0, "K-PLACE-1", (AT + 2 * 64, AT)),  # touching no tile, two squares east: the board grows east
])
def test_a_refused_place_is_drawn_where_it_was_tried(client, at, rotation, rule, origin):
    svg = _through_the_api(client, DEAL, [{"type": "place", "at": at, "rotation": rotation}])
    _, group = _checked(svg, legal=False, rule=rule)
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y") == origin
    assert [_attrs(r, "x", "y") for r in _marks(group, "rect")] == [(origin[0] + 1.5, origin[1] + 1.5)]
    assert _marks(group, "rect")[0].get("stroke-dasharray") == "6 3"
    assert "".join(picture._a_tile(FIRST, rotation, *origin)) in svg


def test_a_place_far_off_the_board_is_drawn_below_the_players_and_named(client):
    svg = _through_the_api(client, DEAL, [{"type": "place", "at": [9, 9], "rotation": 90}])
    root, group = _checked(svg, legal=False, rule="K-PLACE-1")
    assert root.get("height") == str(FRAME + 64 + 52 + 80 + 18 * 2 + 9 + 8)  # the board as it was, then the strip
    slot = (16, FRAME + 64 + 52 + 8)
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y") == slot
    caption = [t for t in group.findall(f"{SVG}text") if not t.get("aria-hidden")]
    assert [(t.text, _attrs(t, "x", "y")) for t in caption] == [("At [9, 9], far from the board",
                                                                (16 + 64 + 14, slot[1] + 32 + 5))]
    assert _verdict(root) == "Step 1 is refused (K-PLACE-1): [9, 9] touches no tile by an edge."
    assert float(_band(root).find(f"{SVG}text").get("y")) == FRAME + 64 + 52 + 80 + 18


# ---------------------------------------------------------------- discard (K-PLACE-3): the tile set aside

@pytest.mark.parametrize(("state", "tile", "legal", "foot"), [
    (NO_FIT, "BA/Cccc+", True, FRAME + 2 * 64),
    (DEAL, FIRST, False, FRAME + 64),  # it fits beside the start tile: it must be placed
])
def test_a_discard_is_the_tile_set_aside_below_the_players(client, state, tile, legal, foot):
    svg = _through_the_api(client, state, [{"type": "discard", "tile": tile}])
    root, group = _checked(svg, legal, rule="K-PLACE-3")
    slot = (16, foot + 52 + 8)
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y", "width", "height") == (*slot, 64, 64)
    assert "".join(picture._a_tile(tile, 0, *slot)) in svg
    caption = [t for t in group.findall(f"{SVG}text") if not t.get("aria-hidden")]
    assert [(t.text, _attrs(t, "x", "y")) for t in caption] == [(f"Discard {tile}", (16 + 64 + 14, slot[1] + 37))]
    rings = _marks(group, "circle")
    assert [_attrs(c, "cx", "cy", "r") for c in rings] == [(24, foot + 14, 11)]  # the first player, whose step
    assert float(_band(root).find(f"{SVG}text").get("y")) == foot + 52 + 80 + 18
    if legal:
        assert _verdict(root) == f"Step 1 is legal: P0 discarded tile {tile}: it fits nowhere."
    else:
        assert _verdict(root) == f"Step 1 is refused (K-PLACE-3): {tile} fits somewhere on the board: it must be " \
                                 "placed."


# ---------------------------------------------------------------- meeple (K-MEEPLE): on its feature of the tile

@pytest.mark.parametrize(("feature", "legal", "rule", "at", "shape"), [
    # the field north of the road: its first half-edge NL, at (0.28, 0.14) of the tile; a farmer lies down
    ("NL", True, None, (0.28, 0.14), "ellipse"),
    # the road E-W, joined to the start tile's where P0 has a meeple: its east end, halfway to the middle
    ("E", False, "K-MEEPLE-2", (0.75, 0.5), "circle"),
    ("N", False, "K-TILE-4", (0.5, 0.5), "circle"),  # no feature of that name: the tile's middle
])
def test_a_meeple_stands_on_its_feature_of_the_tile_just_placed(client, feature, legal, rule, at, shape):
    svg = _through_the_api(client, ACTION, [{"type": "meeple", "feature": feature}])
    root, group = _checked(svg, legal, rule)
    x0, y0 = _origin(1, 0)
    cx, cy = _tenth(x0 + at[0] * 64), _tenth(y0 + at[1] * 64)
    meeple = _faded(group).find(f"{SVG}{shape}")
    assert _attrs(meeple, "cx", "cy") == (cx, cy) and meeple.get("fill") == RED  # P0's
    assert [_attrs(c, "cx", "cy", "r") for c in _marks(group, "circle")] == [(cx, cy, 12)]
    assert _attrs(_glyph(group), "x", "y") == (_tenth(cx + 16), _tenth(cy - 8))
    if legal:
        assert _verdict(root).startswith("Step 1 is legal: P0 put a meeple on the tile at [1, 0], on the field")


def test_a_meeple_when_no_tile_was_placed_is_the_line_of_the_player_whose_step_it_is(client):
    svg = _through_the_api(client, DEAL, [{"type": "meeple", "feature": "N"}])
    root, group = _checked(svg, legal=False, rule="K-SVC-STEP")
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y", "width", "height") == (2, FRAME + 64 + 1,
                                                                                  LEAST_WIDTH - 4, 24)
    assert _verdict(root) == "Step 1 is refused (K-SVC-STEP): A meeple step is not due: the place step is."


# ---------------------------------------------------------------- The Tower: floor, tower meeple, capture, ransom

@pytest.mark.parametrize(("at", "legal", "rule", "height"), [
    ([0, 1], True, None, 2),  # on the tower at [0, 1], height 1
    ([0, 2], True, None, 1),  # on the empty foundation at [0, 2]
    ([1, 1], False, "K-TOW-ACT-1", 1),  # a cloister: no foundation
])
def test_a_floor_is_the_tower_it_raises(client, at, legal, rule, height):
    svg = _through_the_api(client, ACTION, [{"type": "floor", "at": at}])
    root, group = _checked(svg, legal, rule)
    x0, y0 = _origin(*at)
    tx, ty = x0 + 0.78 * 64, y0 + 0.22 * 64
    tower = _faded(group).find(f"{SVG}rect")
    assert _attrs(tower, "x", "y", "width", "height") == (_tenth(tx - 9), _tenth(ty - 10), 18, 20)
    assert _faded(group).find(f"{SVG}text").text == str(height)
    assert [_attrs(r, "x", "y", "width", "height") for r in _marks(group, "rect")] == [
        (_tenth(tx - 12), _tenth(ty - 13), 24, 26)]
    assert _attrs(_glyph(group), "x", "y") == (_tenth(tx - 22), _tenth(ty + 6))
    if legal:
        floors = f"{height} floor" + ("s" if height > 1 else "")
        assert _verdict(root) == f"Step 1 is legal: P0 added a floor to the tower at [{at[0]}, {at[1]}]: it now has " \
                                 f"{floors}."


@pytest.mark.parametrize(("at", "legal", "rule"), [([0, 1], True, None), ([0, 2], False, "K-TOW-ACT-3")])
def test_a_tower_meeple_is_the_players_meeple_on_top_of_the_tower(client, at, legal, rule):
    svg = _through_the_api(client, ACTION, [{"type": "tower_meeple", "at": at}])
    root, group = _checked(svg, legal, rule)
    x0, y0 = _origin(*at)
    cx, cy = _tenth(x0 + 0.78 * 64), _tenth(y0 + 0.22 * 64 - 14)
    top = _faded(group).find(f"{SVG}circle")
    assert _attrs(top, "cx", "cy", "r") == (cx, cy, 6) and top.get("fill") == RED
    assert [_attrs(c, "cx", "cy", "r") for c in _marks(group, "circle")] == [(cx, cy, 10)]
    if legal:
        assert _verdict(root).startswith("Step 1 is legal: P0 put a meeple on top of the tower at [0, 1]")
    else:
        assert _verdict(root) == "Step 1 is refused (K-TOW-ACT-3): [0, 2] has no tower with a floor."


@pytest.mark.parametrize(("capture", "legal", "rule", "at", "fill"), [
    # P1's farmer on the cloister tile at [1, 1], in reach of the tower of height 2: the field's first half-edge
    ({"at": [1, 1], "feature": "NL", "player": 1}, True, None, (1, 1, 0.28, 0.14), BLUE),
    # P0's knight in the city east of [3, 1]: three squares from the tower, out of its reach
    ({"at": [3, 1], "feature": "E", "player": 0}, False, "K-TOW-CAP-1", (3, 1, 0.85, 0.5), RED),
    # P0's meeple (not P1's) on the start tile's road, in reach: drawn in the colour of the owner named
    ({"at": [0, 0], "feature": "E", "player": 1}, False, "K-TOW-CAP-2", (0, 0, 0.75, 0.5), BLUE),
])
def test_a_capture_is_the_meeple_taken_with_a_line_from_the_tower_just_raised(client, capture, legal, rule, at,
                                                                              fill):
    svg = _through_the_api(client, ACTION, [FLOOR, {"type": "capture", **capture}])
    root, group = _checked(svg, legal, rule)
    x0, y0 = _origin(at[0], at[1])
    cx, cy = _tenth(x0 + at[2] * 64), _tenth(y0 + at[3] * 64)
    taken = [e for e in _faded(group) if e.tag in (f"{SVG}circle", f"{SVG}ellipse")]
    assert [(_attrs(e, "cx", "cy"), e.get("fill")) for e in taken] == [((cx, cy), fill)]
    tower_x, tower_y = _origin(0, 1)
    line = _faded(group).find(f"{SVG}line")
    assert _attrs(line, "x1", "y1", "x2", "y2") == (_tenth(tower_x + 0.78 * 64), _tenth(tower_y + 0.22 * 64), cx, cy)
    assert [_attrs(c, "cx", "cy", "r") for c in _marks(group, "circle")] == [(cx, cy, 12)]
    if legal:
        assert _verdict(root).startswith("Step 2 is legal: P0 captured P1's meeple on the tile at [1, 1]")
    elif rule == "K-TOW-CAP-1":
        assert _verdict(root) == "Step 2 is refused (K-TOW-CAP-1): [3, 1] is out of reach of the tower at [0, 1] " \
                                 "(height 2)."


def test_a_capture_of_a_tower_top_is_the_meeple_on_top_of_that_tower(client):
    state = doc(ROW, tower=True, step="action", last=(1, 0), meeples=ROW_MEEPLES[:-1],
                towers=[((0, 1), 1, None), ((0, 2), 5, 1)])
    svg = _through_the_api(client, state, [FLOOR, {"type": "capture", "at": [0, 2], "feature": "tower", "player": 1}])
    _, group = _checked(svg, legal=True)
    x0, y0 = _origin(0, 2)
    top = _faded(group).find(f"{SVG}circle")
    assert _attrs(top, "cx", "cy", "r") == (_tenth(x0 + 0.78 * 64), _tenth(y0 + 0.22 * 64 - 14), 6)
    assert top.get("fill") == BLUE


@pytest.mark.parametrize(("state", "legal"), [(RICH, True), (POOR, False)])
def test_a_ransom_is_the_payers_line_and_the_prisoner_it_frees_on_the_holders(client, state, legal):
    svg = _through_the_api(client, state, [{"type": "ransom", "from": 1}])
    root, group = _checked(svg, legal, rule="K-TOW-RANSOM")
    tints = _faded(group).findall(f"{SVG}rect")
    assert [_attrs(r, "x", "y", "width", "height") for r in tints] == [(2, ROW_FOOT + 1, ROW_WIDTH - 4, 24),
                                                                      (2, ROW_FOOT + 26 + 1, ROW_WIDTH - 4, 24)]
    assert [_attrs(r, "x", "y") for r in _marks(group, "rect")] == [(2, ROW_FOOT + 1)]  # the payer's, outlined
    # P1's first prisoner (P0's meeple), at the right end of P1's line
    assert [_attrs(c, "cx", "cy", "r") for c in _marks(group, "circle")] == [(ROW_WIDTH - 16 - 8, ROW_FOOT + 26 + 14,
                                                                             10)]
    assert _attrs(_glyph(group), "x", "y") == (10, ROW_FOOT + 19)
    if legal:
        assert _verdict(root) == "Step 1 is legal: P0 paid P1 a ransom of 3 points to free a meeple."
    else:
        assert _verdict(root) == "Step 1 is refused (K-TOW-RANSOM): A ransom costs 3 points; the player has 2."


def test_a_ransom_from_a_player_holding_none_outlines_that_players_line(client):
    state = doc(ROW, tower=True, players=3, meeples=ROW_MEEPLES, prisoners=[[], [0], []], scores=[7, 1, 0],
                draw=["BA/C"])
    svg = _through_the_api(client, state, [{"type": "ransom", "from": 2}])
    _, group = _checked(svg, legal=False, rule="K-TOW-RANSOM")
    assert [_attrs(r, "x", "y") for r in _marks(group, "rect")] == [(2, ROW_FOOT + 1), (2, ROW_FOOT + 52 + 1)]
    assert _marks(group, "circle") == []


# ---------------------------------------------------------------- skip: the line of the player whose step it is

@pytest.mark.parametrize(("state", "moves", "legal", "foot", "width", "line"), [
    (ACTION, [{"type": "skip"}], True, ROW_FOOT, ROW_WIDTH, 0),  # no action after the tile
    (ACTION, [FLOOR, {"type": "skip"}], True, ROW_FOOT, ROW_WIDTH, 0),  # no capture after the floor
    (DEAL, [{"type": "skip"}], False, FRAME + 64, LEAST_WIDTH, 0),  # a tile is to be placed first
    (ACTION, [{"type": "skip"}, {"type": "skip"}], False, ROW_FOOT, ROW_WIDTH, 1),  # P1's turn: a tile to place
])
def test_a_skip_is_the_line_of_the_player_whose_step_it_is(client, state, moves, legal, foot, width, line):
    svg = _through_the_api(client, state, moves)
    root, group = _checked(svg, legal, rule="K-SVC-STEP")
    box = (2, foot + 26 * line + 1, width - 4, 24)
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y", "width", "height") == box
    assert _attrs(_marks(group, "rect")[0], "x", "y", "width", "height") == box
    assert _attrs(_glyph(group), "x", "y") == (10, foot + 26 * line + 19)  # left of the player's colour
    _players_foot(root, foot)
    if legal:
        assert _verdict(root).startswith(f"Step {len(moves)} is legal: P0 ")


def test_a_step_once_the_game_is_over_is_every_players_line():
    over = doc(phase="over", keep=0)
    svg = GAME.picture({"state": over, "moves": [{"type": "skip"}]})
    root, group = _checked(svg, legal=False, rule="K-END-1")
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y", "width", "height") == (2, FRAME + 64 + 1,
                                                                                  LEAST_WIDTH - 4, 2 * 26 - 2)
    assert _verdict(root) == "Step 1 is refused (K-END-1): The game is over: no step is legal."


# ---------------------------------------------------------------- the verdict's words, the XML, the library

def test_the_french_picture_says_the_verdict_in_french(client):
    svg = _through_the_api(client, DEAL, [{"type": "place", "at": [0, 0], "rotation": 90}], "fr")
    root, group = _proposed(svg)
    assert group.get("class") == "proposed refused"
    assert _verdict(root) == "Le coup 1 est refusé (K-PLACE-1) : Il y a déjà une tuile en [0, 0]."
    assert group.find(f"{SVG}title").text == _verdict(root)
    svg = _through_the_api(client, NO_FIT, [{"type": "discard", "tile": "BA/Cccc+"}], "fr")
    root, group = _proposed(svg)
    assert _verdict(root).startswith("Le coup 1 est légal : P0 a défaussé la tuile BA/Cccc+")
    assert "Défausser la tuile BA/Cccc+" in [t.text for t in group.findall(f"{SVG}text")]
    svg = _through_the_api(client, DEAL, [{"type": "place", "at": [-9, 4], "rotation": 0}], "fr")
    root, group = _proposed(svg)
    assert "En [-9, 4], loin de l'aire de jeu" in [t.text for t in group.findall(f"{SVG}text")]
    assert root.get("aria-label").startswith("Ada (rouge) : ")


def test_through_the_library_the_same_picture_as_through_the_api(client):
    request = {"state": ACTION, "moves": [FLOOR, {"type": "capture", "at": [1, 1], "feature": "NL", "player": 1}]}
    assert GAME.picture(request, "de") == _through_the_api(client, ACTION, request["moves"], "de")
    before, proposal = GAME.proposal(request)
    assert GAME.picture(request, "de") == GAME.draw(before, "de", proposal) == picture.svg(before, "de", proposal)
    # the board as it was, the verdict below the players: the picture grown by the verdict's lines
    plain = ET.fromstring(GAME.draw(before, "de"))
    root = ET.fromstring(GAME.picture(request, "de"))
    assert root.get("width") == plain.get("width")
    lines = len(_band(root).findall(f"{SVG}text"))
    assert lines >= 2 and int(root.get("height")) == int(plain.get("height")) - 16 + 18 * lines + 9 + 8


def test_the_library_draws_a_proposal_it_is_given():
    state = carcassonne.read_state(ACTION)
    violations = GAME.proposal({"state": ACTION, "moves": [{"type": "floor", "at": [1, 1]}]})[1].violations
    refused = Proposal(Step("tower_meeple", at=(0, 1)), 3, False, violations)  # no player named: the one to act
    root, group = _checked(GAME.draw(state, "en", refused), legal=False, rule="K-TOW-ACT-1")
    assert _faded(group).find(f"{SVG}circle").get("fill") == RED
    assert group.find(f"{SVG}title").text == verdict(refused)[0] == _verdict(root)
    assert _verdict(root).startswith("Step 4 is refused (K-TOW-ACT-1): [1, 1] holds no tower foundation.")
    # a capture of a meeple of a player the game has not (not a move the API reads): a grey meeple
    raised = GAME.proposal({"state": ACTION, "moves": [FLOOR, {"type": "skip"}]})[0]
    legal = Proposal(Step("capture", at=(1, 1), feature="NL", player=4), 1, True, (), ("Somebody did something.",))
    _, group = _checked(GAME.draw(raised, "en", legal), legal=True)
    assert _faded(group).find(f"{SVG}ellipse").get("fill") == picture.NOBODY
    # a place of no tile (a counted bag): a blank square with a question mark
    counted = carcassonne.read_state(doc(bag_count=True))
    blank = Proposal(Step("place", at=(1, 0), rotation=0), 0, False, violations)
    _, group = _checked(GAME.draw(counted, "en", blank), legal=False, rule="K-TOW-ACT-1")
    assert [t.text for t in _faded(group).findall(f"{SVG}text")] == ["?"]
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y") == (AT + 64, AT)


@pytest.mark.parametrize("language", ["en", "fr", "de", "it"])
@pytest.mark.parametrize(("state", "moves"), [
    (DEAL, [{"type": "place", "at": [0, -1], "rotation": 180}]), (DEAL, [{"type": "place", "at": [40, 0],
                                                                          "rotation": 0}]),
    (NO_FIT, [{"type": "discard", "tile": "BA/Cccc+"}]), (ACTION, [{"type": "meeple", "feature": "NL"}]),
    (ACTION, [FLOOR, {"type": "capture", "at": [1, 1], "feature": "NL", "player": 1}]),
    (ACTION, [{"type": "tower_meeple", "at": [0, 1]}]), (RICH, [{"type": "ransom", "from": 1}]),
    (ACTION, [{"type": "skip"}]), (DEAL, [{"type": "floor", "at": [-50, 7]}]),
])
def test_every_proposal_picture_is_xml(state, moves, language):
    svg = GAME.picture({"state": state, "moves": moves}, language)
    root, _ = _proposed(svg)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and len(_band(root).findall(f"{SVG}text")) >= 1


# The pictures as they were before proposals were drawn (service/games/carcassonne/picture.py at the commit this
# feature starts from), before the squares' coordinates were drawn along the board's edges: their SHA-256.
BEFORE = {
    ("example", "en"): "9417565d378317c357a18595d18ce1b922490324bce8dadc2411a4728b52b299",
    ("example", "fr"): "e24020c065794bc1867cba3e0f04022155d6dc5e558e175ed6ce63c11af3ab29",
    ("deal", "en"): "d7d51917b2c17bbdc28889f3a99d3e603d8c29ba3ed618ebf530dc88d61d040c",
    ("deal", "fr"): "183708c0c65eeb05f5228a265705125f7ae00e850ac4f6330690d17540c2a5c9",
    ("towers", "en"): "18e93f8a6e0d05b3e29dec07be552d6ba3f2397dda1ea3edf2e5b97e11f24aa2",
    ("towers", "fr"): "2512159f02a45986fceb15409b1e2d740f4532287206e722033df2e9067cc719",
}
# The same pictures with the coordinates (a ruler of picture.RULER along each edge of the board): their SHA-256.
NOW = {
    ("example", "en"): "272f555770d4b3cbac5b16622224947b2fa0cf84c12d92493ae20d8fc1ddbbe0",
    ("example", "fr"): "e5e84c92d2280ae5d61ade5d0e7ed180cf71da467dc53893e86e76fdd440cdb5",
    ("deal", "en"): "5dc3b03303df07f8e78b2824c313db52a48901b015a8cbfd29de735b90c8577e",
    ("deal", "fr"): "acaa7008227b28849bdc3bbc35f7712fd0a52ed2ced7e8d73b884b0f3341da45",
    ("towers", "en"): "225767ed29211bf5b62b47837bcf9e0eb78f0215f7707a376b4bb63d7ad547b6",
    ("towers", "fr"): "e7b4ba26d2a4aa50a439b385448705754dd545b3520d2d61bf1b37d921adb226",
}
COORDINATES = re.compile(r'<g class="coordinates" [^>]*>(?:<text [^>]*>-?\d+</text>)*</g>')
# towers of height 2 and 1 (a meeple on top), a prisoner held, P0 to act after placing BA/RFr
TOWERS = doc(ROW, tower=True, step="action", last=(1, 0), meeples=ROW_MEEPLES, towers=[((0, 1), 2, None),
                                                                                        ((0, 2), 1, 0)],
             prisoners=[[1], []], scores=[7, 2])


@pytest.mark.parametrize(("picture_of", "language"), sorted(BEFORE))
def test_without_a_proposal_the_picture_is_the_same_bytes_as_before_but_for_the_coordinates(client, monkeypatch,
                                                                                             picture_of, language):
    state = {"example": GAME.examples["picture"]["state"], "deal": DEAL, "towers": TOWERS}[picture_of]
    answer = client.post(f"{BASE}/picture?lang={language}", json={"state": state},
                         headers={"Accept": "application/json"})
    svg = answer.get_json()["svg"]
    assert hashlib.sha256(svg.encode()).hexdigest() == NOW[picture_of, language]
    read = GAME.read({"state": state})
    assert GAME.draw(read, language) == GAME.draw(read, language, None) == picture.svg(read, language) == svg
    assert GAME.picture({"state": state, "moves": []}, language) == svg  # no moves: no proposal
    assert "proposed" not in svg and "verdict" not in svg
    assert len(COORDINATES.findall(svg)) == 1
    # the coordinates moved the board by the ruler and nothing else: without the ruler and the coordinates drawn in
    # it, every byte as before
    monkeypatch.setattr(picture, "RULER", 0)
    bare = COORDINATES.sub("", picture.svg(read, language), count=1)
    assert hashlib.sha256(bare.encode()).hexdigest() == BEFORE[picture_of, language]
