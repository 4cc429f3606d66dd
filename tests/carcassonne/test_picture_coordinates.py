"""The squares' coordinates along the edges of Carcassonne's picture: each column's x above and below the board,
each row's y left and right of it, numbered as the wire numbers squares ([x, y]: x to the east, y to the south,
K-TILE-1), so that a square a violation or a step names ("K-PLACE-1 … at [3, -2]") is found on the picture; small,
grey at WCAG AA contrast, hidden from screen readers, readable on a board of one tile and of eighty; a step drawn
off the board labelled with the board it grew.

A tile's pixel box is the picture's geometry (picture.py): tiles 64 square, the board's leftmost column and topmost
row at (AT, AT), the margin and the ruler before them; that the tile is drawn in that box is checked too."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise
from typing import NamedTuple

import pytest

from service.games import carcassonne
from service.games.carcassonne import picture
from service.games.carcassonne.steps import COORDINATE

from .helpers import doc
from .playouts import playout

GAME = carcassonne.GAME
SVG = "{http://www.w3.org/2000/svg}"
T = 64
AT = picture.MARGIN + picture.RULER  # the board's leftmost column and topmost row start here
EM = 0.6  # a character's width at most, in em, in a sans-serif font (digits and the minus are narrower)
DIGIT = 0.7  # a digit's height, in em

# seed 1, two players, after 35 steps: 19 tiles, x -2..3 and y -3..2, [3, -2] the east end of the top rows
KNOWN = [("BA/RCr", (0, 0), 0), ("BA/C", (0, 1), 180), ("BA/RCr", (-1, 0), 180), ("BA/RRR", (1, 0), 0),
         ("BA/L", (1, -1), 180), ("BA/CRRR", (-2, 0), 0), ("BA/L", (1, -2), 270), ("BA/Ccc", (0, -2), 270),
         ("BA/Rr", (1, 1), 180), ("BA/Cc+", (1, -3), 90), ("BA/Rr", (-1, -1), 180), ("BA/L", (2, -2), 180),
         ("BA/RRR", (2, 0), 0), ("BA/LR", (1, 2), 90), ("BA/CccR+", (0, 2), 270), ("BA/Rr", (2, 2), 270),
         ("BA/RrC", (2, 1), 90), ("BA/RCr", (-1, 2), 90), ("BA/Rr", (3, -2), 270)]
KNOWN_STATE = doc(KNOWN)
KNOWN_MIN = (-2, -3)
KNOWN_COLUMNS, KNOWN_ROWS = range(-2, 4), range(-3, 3)
# seed 42, Ada and Bea: the start tile alone at [0, 0]
DEAL = GAME.new({"seed": 42, "names": ["Ada", "Bea"], "variant": {"tower": False}})["state"]


class Label(NamedTuple):
    text: str
    x: float  # its anchor
    y: float  # its baseline
    anchor: str

    def box(self) -> tuple[float, float, float, float]:
        """Where its characters are drawn at most: (left, top, right, bottom)."""
        width = len(self.text) * EM * picture.RULER_FONT
        left = {"start": self.x, "middle": self.x - width / 2, "end": self.x - width}[self.anchor]
        return left, self.y - DIGIT * picture.RULER_FONT, left + width, self.y


class Board(NamedTuple):
    """The board's box on the picture (left, top, right, bottom) and its labels by side, in reading order."""

    box: tuple[float, float, float, float]
    above: list[Label]
    below: list[Label]
    left: list[Label]
    right: list[Label]


def _coordinates(root: ET.Element) -> ET.Element:
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "coordinates"]
    assert len(groups) == 1
    return groups[0]


def _board(svg: str, columns: range, rows: range) -> Board:
    """The labels of a picture whose board spans `columns` and `rows`, sorted to the sides of the board's box."""
    root = ET.fromstring(svg)
    group = _coordinates(root)
    labels = [Label(t.text, float(t.get("x")), float(t.get("y")), t.get("text-anchor")) for t in group]
    assert all(t.tag == f"{SVG}text" for t in group)
    box = (AT, AT, AT + len(columns) * T, AT + len(rows) * T)
    above = sorted((lb for lb in labels if lb.y < box[1]), key=lambda lb: lb.x)
    below = sorted((lb for lb in labels if lb.box()[1] > box[3]), key=lambda lb: lb.x)
    left = sorted((lb for lb in labels if lb.box()[2] < box[0]), key=lambda lb: lb.y)
    right = sorted((lb for lb in labels if lb.box()[0] > box[2]), key=lambda lb: lb.y)
    assert len(above) + len(below) + len(left) + len(right) == len(labels)  # every label beside the board
    return Board(box, above, below, left, right)


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(one: str, other: str) -> float:
    lighter, darker = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# ---------------------------------------------------------------- a square's tile and its coordinates

@pytest.mark.parametrize(("tile", "square", "rotation"), KNOWN, ids=[f"{x},{y}" for _, (x, y), _ in KNOWN])
def test_the_label_left_of_a_tile_s_row_says_its_y_and_the_label_above_its_column_its_x(tile, square, rotation):
    svg = GAME.picture({"state": KNOWN_STATE})
    x, y = square
    # the tile's pixel box: x grows to the east (right), y to the south (down), from the board's top left square
    left, top = AT + (x - KNOWN_MIN[0]) * T, AT + (y - KNOWN_MIN[1]) * T
    right, bottom = left + T, top + T
    assert "".join(picture._a_tile(tile, rotation, left, top)) in svg  # that tile is drawn in that box
    board = _board(svg, KNOWN_COLUMNS, KNOWN_ROWS)
    in_row = [lb for lb in board.left if top < lb.box()[1] and lb.box()[3] < bottom]
    assert [lb.text for lb in in_row] == [str(y)]
    assert in_row[0].box()[2] < left  # left of the tile (the board's west edge at the latest)
    in_column = [lb for lb in board.above if left < lb.box()[0] and lb.box()[2] < right]
    assert [lb.text for lb in in_column] == [str(x)]
    assert in_column[0].y < top
    # and the same on the board's other edges
    assert [lb.text for lb in board.right if top < lb.box()[1] and lb.box()[3] < bottom] == [str(y)]
    assert [lb.text for lb in board.below if left < lb.box()[0] and lb.box()[2] < right] == [str(x)]


def test_every_column_and_row_of_the_board_is_labelled_once_on_each_side_in_order():
    board = _board(GAME.picture({"state": KNOWN_STATE}), KNOWN_COLUMNS, KNOWN_ROWS)
    columns, rows = [str(x) for x in KNOWN_COLUMNS], [str(y) for y in KNOWN_ROWS]
    assert [lb.text for lb in board.above] == [lb.text for lb in board.below] == columns
    assert [lb.text for lb in board.left] == [lb.text for lb in board.right] == rows
    # each centred on its column or row: the minus is written as on the wire, "-2" (not "−2")
    assert [lb.x for lb in board.above] == [AT + T * k + T / 2 for k in range(len(columns))]
    assert [lb.anchor for lb in board.above + board.below] == ["middle"] * 2 * len(columns)
    assert [lb.anchor for lb in board.left] == ["end"] * len(rows)
    assert [lb.anchor for lb in board.right] == ["start"] * len(rows)


# ---------------------------------------------------------------- a proposed step: the board it grew, labelled

@pytest.mark.parametrize(("at", "columns", "rows"), [
    ([2, -2], range(3), range(-2, 1)),  # two squares east and north: the board grows to hold it
    ([0, -1], range(1), range(-1, 1)),  # north of the start tile
])
def test_a_step_tried_off_the_board_is_on_a_labelled_square(at, columns, rows):
    svg = GAME.picture({"state": DEAL, "moves": [{"type": "place", "at": at, "rotation": 0}]})
    root = ET.fromstring(svg)
    proposed = next(g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("proposed"))
    tile = proposed.find(f"{SVG}g").find(f"{SVG}rect")  # the tile tried, faded, where the picture drew it
    left, top = float(tile.get("x")), float(tile.get("y"))
    board = _board(svg, columns, rows)
    assert [lb.text for lb in board.left if top < lb.box()[1] and lb.box()[3] < top + T] == [str(at[1])]
    assert [lb.text for lb in board.above if left < lb.box()[0] and lb.box()[2] < left + T] == [str(at[0])]
    assert [lb.text for lb in board.above] == [str(x) for x in columns]
    assert [lb.text for lb in board.left] == [str(y) for y in rows]


def test_a_step_far_off_the_board_leaves_the_board_s_labels_as_they_were():
    far = GAME.picture({"state": DEAL, "moves": [{"type": "place", "at": [9, 9], "rotation": 0}]})
    plain = GAME.picture({"state": DEAL})
    assert ET.tostring(_coordinates(ET.fromstring(far))) == ET.tostring(_coordinates(ET.fromstring(plain)))
    assert "At [9, 9], far from the board" in far  # named by its coordinates instead


# ---------------------------------------------------------------- small, grey, quiet, readable

def _eighty() -> carcassonne.State:
    return next(s for s in playout(3, 3, True) if len(s.board) == 80)


@pytest.mark.parametrize("tiles", [1, 80])
def test_the_coordinates_stay_readable_from_one_tile_to_eighty(tiles):
    state = carcassonne.read_state(DEAL) if tiles == 1 else _eighty()
    assert len(state.board) == tiles
    xs, ys = [p.at[0] for p in state.board], [p.at[1] for p in state.board]
    columns, rows = range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)
    svg = picture.svg(state)
    root = ET.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    board = _board(svg, columns, rows)
    assert [lb.text for lb in board.above] == [lb.text for lb in board.below] == [str(x) for x in columns]
    assert [lb.text for lb in board.left] == [lb.text for lb in board.right] == [str(y) for y in rows]
    players_top = board.box[3] + picture.RULER + picture.MARGIN  # the players' lines start there
    for label in board.above + board.below + board.left + board.right:
        left, top, right, bottom = label.box()
        assert 0 < left and right < width and 0 < top and bottom < players_top < height  # in the picture, clear
    for side in (board.above, board.below):  # one column apart: never touching
        assert all(b.box()[0] - a.box()[2] >= T / 2 for a, b in pairwise(side))
    for side in (board.left, board.right):
        assert all(b.box()[1] - a.box()[3] >= T / 2 for a, b in pairwise(side))
    # the farthest square a document may name still fits the margin and the ruler, left of the board
    assert len(str(-COORDINATE)) * EM * picture.RULER_FONT <= AT - picture.RULER_GAP


def test_the_coordinates_are_small_grey_at_aa_contrast_and_hidden_from_screen_readers():
    svg = GAME.picture({"state": KNOWN_STATE})
    root = ET.fromstring(svg)
    group = _coordinates(root)
    assert group.get("aria-hidden") == "true"  # the aria-label says the score; 36 numbers would drown it
    background = root.find(f"{SVG}rect").get("fill")
    assert background == picture.BACKGROUND and group.get("fill") == picture.RULER_GREY
    red, green, blue = (int(group.get("fill")[i:i + 2], 16) for i in (1, 3, 5))
    assert red == green == blue  # grey
    assert _contrast(group.get("fill"), background) >= 4.5  # WCAG AA for small text
    assert 9 <= float(group.get("font-size")) < 13  # smaller than the players' lines (13)
    assert all(t.get("fill") is None and t.get("font-size") is None for t in group)  # the group's, every one
    assert "-3" not in root.get("aria-label") and "-3" not in root.find(f"{SVG}title").text


def test_the_picture_grows_by_the_ruler_on_each_side():
    plain = ET.fromstring(GAME.picture({"state": KNOWN_STATE}))
    assert float(plain.get("width")) == 2 * AT + len(KNOWN_COLUMNS) * T  # wider than the least width, 420
    players = ET.fromstring(GAME.picture({"state": DEAL}))
    # a tile's height, the margin and the ruler above and below it, then two players' lines and the margin
    assert float(players.get("height")) == 2 * AT + T + 2 * picture.LEGEND_ROW + picture.MARGIN
