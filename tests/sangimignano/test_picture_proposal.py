"""San Gimignano's picture of a proposed step (`/picture` with `moves`): every kind of step, legal and refused, drawn
faded where it was tried (a token or tower on its guild space, in the middle of a hexagon without that guild or of a
ghost hexagon on an empty place; a hexagon on its place, turned as the step says; an `end`, or a place too far from
the board, in words in a badge below the players, the row of the player whose step it is highlighted, every row when
it is nobody's), marked ✓ or ✗ (dashed), the verdict below the board. Through the library and through the API; and
without `moves`, the same bytes as before proposals were drawn."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from service.api import create_app
from service.games.sangimignano import picture
from service.games.sangimignano.engine import apply_step, legal_steps
from service.games.sangimignano.game import EXAMPLE_NAMES, GAME, new_game
from service.games.sangimignano.position import state_json

from .helpers import position

SVG = "{http://www.w3.org/2000/svg}"
PICTURES = Path(__file__).parent / "data" / "pictures"  # answers recorded before proposals were drawn
SIZE = 40.0  # a hexagon's corner radius (picture.SIZE)
MARGIN = 24  # picture.MARGIN: the legend's top, the band's side

# Ada to act in the token phase; the board: ABC at [0, 0] turned 0, BDC at [0, 1] turned 1, ABD at [1, 0] turned 0.
START = new_game(42, names=EXAMPLE_NAMES)
TOKEN = {"type": "token", "at": [0, 0], "guild": "A"}
HEX = {"type": "hex", "hex": ["A", "B", "D"], "at": [-1, 1], "rotation": 0}
# The same with Bea's token on B of [0, 0] and two tokens on C of [0, 0].
CROWDED = position([((0, 0), 0, "ABC"), ((0, 1), 1, "BDC"), ((1, 0), 0, "ABD")], players=3,
                   tokens={((0, 0), "B"): (1,), ((0, 0), "C"): (1, 2)},
                   hands=[["ABD", "ADC", "BDC"], ["ABC", "ADB", "ADB"], ["ACB", "ACD", "ADC"]])
# P0 (to act, in the tower phase) has built nine towers and holds four connected spaces of four guilds: a tower on A
# of [0, 0] is their tenth (S-END-1).
LAST_TOWER = position(
    [((-1, 0), 0, "DBA"), ((0, -1), 0, "BDA"), ((0, 0), 1, "CAD"), ((0, 1), 0, "DAC"), ((1, -1), 1, "BDC"),
     ((1, 0), 0, "BAC"), ((2, -2), 0, "ABC"), ((2, -1), 1, "DAC"), ((2, 0), 0, "CAD")],
    tokens={((0, 0), "C"): (0,), ((0, 0), "A"): (0, 1), ((0, 0), "D"): (1,), ((1, -1), "B"): (0,),
            ((1, -1), "D"): (0,), ((2, -1), "D"): (1,)},
    towers={(at, guild): 0 for at, guilds in (((-1, 0), "DBA"), ((0, -1), "BDA"), ((0, 1), "DAC"))
            for guild in guilds},
    hands=[[], ["ADB"]], step="build")
BUILD = {"type": "build", "at": [0, 0], "guild": "A"}


def _unknown_hand() -> dict:
    """START after Ada's token, her hexagons unknown: in the hexagon phase she may say none fits (`end`)."""
    after = apply_step(START, legal_steps(START)[0])[0]
    doc = state_json(after)
    doc["players"][0]["hexes"] = {"count": 3}
    return doc


# kind: (legal: state, moves, where), (refused: state, moves, where, rule)
CASES: dict[str, tuple[tuple[Any, list, str], tuple[Any, list, str, str]]] = {
    "token": ((START, [TOKEN], "space"), (CROWDED, [{"type": "token", "at": [0, 0], "guild": "C"}], "space", "S-TOKEN-1")),
    "hex": ((START, [TOKEN, HEX], "laid"), (START, [TOKEN, {**HEX, "at": [0, 0]}], "laid", "S-HEX-2")),
    "build": ((LAST_TOWER, [BUILD], "space"),
              (LAST_TOWER, [{"type": "build", "at": [2, -2], "guild": "A"}], "space", "S-BUILD-1")),
    "end": ((LAST_TOWER, [{"type": "end"}], "player"), (START, [{"type": "end"}], "player", "S-TURN-1")),
}
KINDS = sorted(CASES)
TRIED = [(kind, legal) for kind in KINDS for legal in (True, False)]


def _request(state: Any, moves: list) -> dict:
    return {"state": state if isinstance(state, dict) else state_json(state), "moves": moves}


def _case(kind: str, legal: bool) -> tuple[dict, str, str | None]:
    tried = CASES[kind][0 if legal else 1]
    return _request(tried[0], tried[1]), tried[2], None if legal else tried[3]


def _parse(svg: str) -> tuple[ElementTree.Element, ElementTree.Element]:
    """The picture (well-formed XML) and its one proposed step's group."""
    root = ElementTree.fromstring(svg)
    groups = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("proposed")]
    assert len(groups) == 1
    return root, groups[0]


def _translation(root: ElementTree.Element, name: str) -> tuple[float, float]:
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == name)
    x, y = group.get("transform").removeprefix("translate(").removesuffix(")").split()
    return float(x), float(y)


def _centre(root: ElementTree.Element, at: tuple[int, int]) -> tuple[float, float]:
    """The middle of the place `at` in the picture: pointy-topped hexagons (S-GEO-1), the board's translation."""
    dx, dy = _translation(root, "board")
    q, r = at
    return dx + SIZE * math.sqrt(3) * (q + r / 2), dy + SIZE * 1.5 * r


def _corner(centre: tuple[float, float], degrees: float, radius: float = SIZE) -> tuple[float, float]:
    angle = math.radians(degrees)
    return centre[0] + radius * math.cos(angle), centre[1] - radius * math.sin(angle)


def _middle(root: ElementTree.Element, at: tuple[int, int], rotation: int, index: int) -> tuple[float, float]:
    """The middle of guild space `index` of a hexagon turned `rotation` (S-GEO-2: it covers sides rotation + 2i and
    rotation + 2i + 1)."""
    return _corner(_centre(root, at), 60 * (rotation + 2 * index) + 30, SIZE / 2)


def _points(element: ElementTree.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in element.get("points").split())]


def _near(point: tuple[float, float], expected: tuple[float, float]) -> bool:
    return math.dist(point, expected) < 0.1  # the picture writes a tenth of a pixel


def _texts(element: ElementTree.Element) -> list[str]:
    return ["".join(text.itertext()) for text in element.iter(f"{SVG}text")]


def _verdict(root: ElementTree.Element) -> ElementTree.Element:
    return next(g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("verdict"))


def _faded(group: ElementTree.Element) -> ElementTree.Element:
    faded = group.find(f"{SVG}g")
    assert faded is not None and faded.get("opacity") == "0.55"
    return faded


# ---------------------------------------------------------------- every kind, legal and refused

@pytest.mark.parametrize("kind, legal", TRIED)
def test_each_kind_is_drawn_marked_and_said(kind: str, legal: bool) -> None:
    request, where, rule = _case(kind, legal)
    svg = GAME.picture(request)
    root, group = _parse(svg)
    assert group.get("class") == f"proposed {'legal' if legal else 'refused'}"
    assert group.get("data-step") == kind and group.get("data-where") == where
    title = group.find(f"{SVG}title").text
    step = len(request["moves"])
    marks = [element for element in group if element.get("class") == "mark"]
    assert marks and all(m.get("stroke") == ("#1b5e20" if legal else "#b71c1c") for m in marks)
    glyphs = [text for g in group.iter(f"{SVG}g") if g.get("class") == "glyph" for text in _texts(g)]
    verdict = " ".join(_texts(_verdict(root)))
    if legal:
        assert title == f"Step {step} is legal:"
        assert glyphs == ["\u2713"] and all(m.get("stroke-dasharray") is None for m in marks)
        applied = GAME.apply(request)
        assert applied["legal"]
        said = [event["text"] for event in applied["events"] if event["step"] == step - 1]
        assert said[0][:30] in verdict
    else:
        assert title.startswith(f"Step {step} is refused ({rule}): ")
        assert glyphs == ["\u2717"] and all(m.get("stroke-dasharray") for m in marks)  # not colour alone
        assert f"Step {step} is refused ({rule}):" in verdict
        assert GAME.apply(request)["violations"][0]["rule"] == rule


@pytest.mark.parametrize("legal", [True, False])
def test_a_token_goes_on_its_guild_space(legal: bool) -> None:
    request, _, _ = _case("token", legal)
    root, group = _parse(GAME.picture(request))
    (token,) = _faded(group).iter(f"{SVG}circle")
    assert token.get("class") == "token" and token.get("data-player") == "0" and token.get("fill") == "#c0392b"
    if legal:  # A is space 0 of ABC at [0, 0], turned 0: its middle, the space empty
        expected = _middle(root, (0, 0), 0, 0)
    else:  # C is space 2 there; it holds two tokens already: drawn over them
        expected = _middle(root, (0, 0), 0, 2)
    assert _near((float(token.get("cx")), float(token.get("cy"))), expected)
    outline = next(element for element in group if element.get("class") == "mark")
    space = 0 if legal else 2
    centre = _centre(root, (0, 0))
    rhombus = [centre] + [_corner(centre, 60 * 2 * space + d) for d in (-30, 30, 90)]
    assert all(_near(p, e) for p, e in zip(_points(outline), rhombus))


def test_a_token_beside_one_already_there() -> None:
    """B of [0, 0] holds Bea's token: Ada's goes just right of it."""
    root, group = _parse(GAME.picture(_request(CROWDED, [{"type": "token", "at": [0, 0], "guild": "B"}])))
    assert group.get("class") == "proposed legal"
    (token,) = _faded(group).iter(f"{SVG}circle")
    x, y = _middle(root, (0, 0), 0, 1)
    assert _near((float(token.get("cx")), float(token.get("cy"))), (x + 11, y))


@pytest.mark.parametrize("legal", [True, False])
def test_a_hexagon_is_laid_on_its_place_turned_as_the_step_says(legal: bool) -> None:
    request, _, _ = _case("hex", legal)
    at = tuple(request["moves"][-1]["at"])
    root, group = _parse(GAME.picture(request))
    assert group.get("data-at") == f"{at[0]},{at[1]}"
    spaces = [p for p in _faded(group).iter(f"{SVG}polygon") if p.get("class") == "space"]
    # ABD turned 0: A covers sides 0 and 1, B sides 2 and 3, D sides 4 and 5
    assert [p.get("data-guild") for p in spaces] == ["A", "B", "D"]
    centre = _centre(root, at)
    for i, polygon in enumerate(spaces):
        expected = [centre] + [_corner(centre, 60 * 2 * i + d) for d in (-30, 30, 90)]
        assert all(_near(p, e) for p, e in zip(_points(polygon), expected))
    letters = [t for t in _texts(_faded(group))]
    assert letters == ["A", "B", "D"]  # each space says its guild: not colour alone
    circle = next(c for c in group.iter(f"{SVG}circle"))  # the ✓/✗ in the hexagon's middle
    assert _near((float(circle.get("cx")), float(circle.get("cy"))), centre)


def test_a_hexagon_turned_otherwise_turns_its_spaces() -> None:
    """ABD written as BDA turned 3 is ABD turned 1 (S-GEO-2): A covers sides 1 and 2."""
    request = _request(START, [TOKEN, {**HEX, "hex": ["B", "D", "A"], "rotation": 3}])
    root, group = _parse(GAME.picture(request))
    spaces = {p.get("data-guild"): p for p in _faded(group).iter(f"{SVG}polygon") if p.get("class") == "space"}
    centre = _centre(root, (-1, 1))
    assert all(_near(p, e) for p, e in zip(_points(spaces["A"]), [centre, _corner(centre, 30), _corner(centre, 90)]))


@pytest.mark.parametrize("legal", [True, False])
def test_a_tower_goes_on_its_guild_space(legal: bool) -> None:
    request, _, _ = _case("build", legal)
    root, group = _parse(GAME.picture(request))
    (tower,) = [p for p in _faded(group).iter(f"{SVG}polygon") if p.get("class") == "tower"]
    assert tower.get("data-player") == "0"
    points = _points(tower)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    # legal: A is space 1 of CAD at [0, 0] turned 1; refused: A is space 0 of ABC at [2, -2] turned 0
    x, y = _middle(root, (0, 0), 1, 1) if legal else _middle(root, (2, -2), 0, 0)
    assert abs((min(xs) + max(xs)) / 2 - x) < 0.1 and abs(min(ys) - (y - 9)) < 0.1 and abs(max(ys) - (y + 8)) < 0.1


def _row(root: ElementTree.Element, player: int) -> float:
    """The absolute y of the middle of a player's disc in the legend."""
    _, top = _translation(root, "players")
    row = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "player" and g.get("data-player") == str(player))
    return top + float(row.find(f"{SVG}circle").get("cy"))


def _highlighted(root: ElementTree.Element, group: ElementTree.Element) -> list[int]:
    """The players whose rows the step's highlighted area covers."""
    area = next(element for element in group if element.get("class") == "mark" and element.tag == f"{SVG}rect")
    y, height = float(area.get("y")), float(area.get("height"))
    players = sum(1 for g in root.iter(f"{SVG}g") if g.get("class") == "player")
    return [p for p in range(players) if y <= _row(root, p) <= y + height]


@pytest.mark.parametrize("legal", [True, False])
def test_an_end_is_said_by_its_player(legal: bool) -> None:
    request, _, _ = _case("end", legal)
    root, group = _parse(GAME.picture(request))
    assert _highlighted(root, group) == [0]
    badge = next(g for g in group.iter(f"{SVG}g") if g.get("class") == "badge")
    words = "End the turn without a tower"
    assert _texts(badge) == [words]
    players = len(request["state"]["players"])
    assert float(badge.find(f"{SVG}rect").get("y")) > _row(root, players - 1)  # below the last row


def test_an_unknown_hand_saying_none_fits() -> None:
    root, group = _parse(GAME.picture({"state": _unknown_hand(), "moves": [{"type": "end"}]}))
    assert group.get("class") == "proposed legal" and _highlighted(root, group) == [0]
    assert "None of their hexagons fits" in _texts(group)


def test_a_step_on_an_empty_place_near_the_board_is_in_a_ghost_hexagon() -> None:
    request = _request(START, [{"type": "token", "at": [1, 1], "guild": "A"}])
    root, group = _parse(GAME.picture(request))
    assert group.get("class") == "proposed refused" and group.get("data-where") == "ghost"
    faded = _faded(group)
    ghost = next(p for p in faded.iter(f"{SVG}polygon") if p.get("class") == "ghost")
    token = next(faded.iter(f"{SVG}circle"))
    centre = _centre(root, (1, 1))
    assert _near((float(token.get("cx")), float(token.get("cy"))), centre)
    assert all(_near(p, _corner(centre, 60 * d - 30)) for d, p in enumerate(_points(ghost)))
    assert "S-GEO-2" in group.find(f"{SVG}title").text
    width = float(root.get("width"))  # the board grew to hold the place: the picture is wider than the position's
    assert width > float(ElementTree.fromstring(GAME.draw(START)).get("width"))


def test_a_token_on_a_hexagon_without_its_guild_goes_in_its_middle() -> None:
    root, group = _parse(GAME.picture(_request(START, [{"type": "token", "at": [0, 0], "guild": "D"}])))
    assert group.get("data-where") == "hexagon"
    token = next(_faded(group).iter(f"{SVG}circle"))
    assert _near((float(token.get("cx")), float(token.get("cy"))), _centre(root, (0, 0)))


def test_a_place_far_from_the_board_is_said_in_words() -> None:
    root, group = _parse(GAME.picture(_request(START, [{"type": "token", "at": [40, 0], "guild": "A"}])))
    assert group.get("data-where") == "player" and _highlighted(root, group) == [0]
    assert "Token on A at [40, 0]" in _texts(group)
    assert float(root.get("width")) == float(ElementTree.fromstring(GAME.draw(START)).get("width"))


def test_a_step_of_nobody_s_highlights_every_player() -> None:
    """After the tenth tower the game is over: a token is nobody's (grey), an end marks every row."""
    root, group = _parse(GAME.picture(_request(LAST_TOWER, [BUILD, {"type": "token", "at": [2, -2], "guild": "B"}])))
    assert group.get("class") == "proposed refused" and "(S-END-1)" in group.find(f"{SVG}title").text
    token = next(_faded(group).iter(f"{SVG}circle"))
    assert token.get("data-player") is None and token.get("fill") == picture.NOBODY_FILL
    assert _near((float(token.get("cx")), float(token.get("cy"))), _middle(root, (2, -2), 0, 1))
    root, group = _parse(GAME.picture(_request(LAST_TOWER, [BUILD, {"type": "end"}])))
    assert _highlighted(root, group) == [0, 1]


# ---------------------------------------------------------------- the verdict below, the picture grown

@pytest.mark.parametrize("kind, legal", TRIED)
def test_the_verdict_is_below_the_board_and_the_picture_grows_to_hold_it(kind: str, legal: bool) -> None:
    request, _, _ = _case(kind, legal)
    root, _ = _parse(GAME.picture(request))
    before = GAME.read(request) if len(request["moves"]) == 1 else None
    width, height = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    background = root.find(f"{SVG}rect")
    assert background.get("height") == str(height)
    band = _verdict(root)
    assert band.get("class") == f"verdict {'legal' if legal else 'refused'}"
    ys = [float(text.get("y")) for text in band.iter(f"{SVG}text")]
    assert all(y < height for y in ys)
    if before is not None:  # the position's own picture ends where the verdict begins
        plain = ElementTree.fromstring(GAME.draw(before))
        assert int(plain.get("height")) < height and min(ys) > int(plain.get("height")) - MARGIN / 2


# ---------------------------------------------------------------- through the API, in French

@pytest.fixture(scope="module")
def client() -> Any:
    return create_app().test_client()


def _svg(client: Any, body: dict, language: str = "en") -> str:
    answer = client.post(f"/v1/games/sangimignano/picture?lang={language}", json=body,
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return answer.get_json()["svg"]


@pytest.mark.parametrize("kind, legal", TRIED)
def test_the_api_draws_what_the_library_does(client: Any, kind: str, legal: bool) -> None:
    request, where, _ = _case(kind, legal)
    svg = _svg(client, request)
    assert svg == GAME.picture(request)
    _, group = _parse(svg)
    assert group.get("class") == f"proposed {'legal' if legal else 'refused'}" and group.get("data-where") == where


@pytest.mark.parametrize("kind, legal", TRIED)
def test_the_french_picture_says_the_verdict_in_french(client: Any, kind: str, legal: bool) -> None:
    request, _, rule = _case(kind, legal)
    root, group = _parse(_svg(client, request, "fr"))
    step = len(request["moves"])
    verdict = " ".join(_texts(_verdict(root)))
    if legal:
        assert f"Le coup {step} est légal" in verdict
        assert group.find(f"{SVG}title").text == f"Le coup {step} est légal :"
    else:
        assert f"Le coup {step} est refusé ({rule})" in verdict
        assert f"Step {step}" not in verdict
    if kind == "end" and legal:
        assert "Finir le tour de jeu sans construire de tour" in _texts(group)


def test_the_badge_is_said_in_each_language(client: Any) -> None:
    body = _request(START, [{"type": "token", "at": [40, 0], "guild": "A"}])
    said = {language: _texts(_parse(_svg(client, body, language))[1]) for language in ("fr", "de", "it")}
    assert "Jeton sur A en [40, 0]" in said["fr"]
    assert "Spielstein auf dem Feld A von [40, 0]" in said["de"]
    assert "Segnalino su A in [40, 0]" in said["it"]
    body = _request(START, [TOKEN, {**HEX, "at": [40, 0]}])
    assert "Esagono ABD in [40, 0], rotazione 0" in _texts(_parse(_svg(client, body, "it"))[1])


def test_moves_are_tried_on_a_state_and_read_as_apply_reads_them(client: Any) -> None:
    answer = client.post("/v1/games/sangimignano/picture", json={"moves": [TOKEN]})
    assert answer.status_code == 400 and answer.get_json()["errors"][0]["pointer"] in ("/state", "/moves")
    body = _request(START, [{"type": "token", "at": [0, 0], "guild": "E"}])
    answer = client.post("/v1/games/sangimignano/picture", json=body)
    assert answer.status_code == 400 and answer.get_json()["errors"][0]["pointer"].startswith("/moves/0")


# ---------------------------------------------------------------- no proposal: the picture as it was

PICTURE_NAMES = sorted(path.stem for path in PICTURES.glob("*.json"))


@pytest.mark.parametrize("name", PICTURE_NAMES)
def test_without_moves_the_picture_is_byte_for_byte_as_before(client: Any, name: str) -> None:
    state = json.loads((PICTURES / f"{name}.json").read_text(encoding="utf-8"))
    language = name.rsplit("-", 1)[1]
    recorded = (PICTURES / f"{name}.svg").read_text(encoding="utf-8")
    svg = _svg(client, {"state": state}, language)
    assert svg == recorded and "proposed" not in svg and "verdict" not in svg
    assert GAME.draw(GAME.read({"state": state}), language) == recorded
    ElementTree.fromstring(svg)


def test_the_recorded_pictures_cover_each_language() -> None:
    assert {name.rsplit("-", 1)[1] for name in PICTURE_NAMES} == {"en", "fr", "de", "it"}
