"""A proposed step drawn on Campanile's picture (`/picture` with `moves`): every kind of step, legal and refused,
faded where it was tried in one group `proposed legal|refused` with its mark (✓ or a dashed outline and ✗) and the
verdict's first line as its title; the verdict said below the board, in the language asked; without a proposal, the
picture is the very one it was before proposals were drawn.

The geometry asserted is the picture's own (picture.py): towers 84 wide with 22 between them from x = 24, a story
16 high while the tallest tower is at most 13 stories, the towers' foot at 58 + 34 + 6 stories + 8 = 196 while no
tower is taller than 6 (the picture keeps room for a proposed card), tokens 26 apart from the foot + 26."""
from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from service.api import create_app
from service.games import campanile
from service.games.campanile import picture
from service.games.campanile.steps import Step
from service.games.core.game import Proposal
from service.games.core.svg import verdict
from tests.settings import AS_DEPLOYED

GAME = campanile.GAME
BASE = "/v1/games/campanile"
SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ada", "Bea", "Cy"]
# seed 42, three players: Ada holds A, B, B; the piles' tops show B, B, E (tests/campanile/test_words.py reads it too)
DEAL = GAME.new({"seed": 42, "names": NAMES})["state"]
# eight turns later: towers A 3, B 5, C 2, D 5, E 0 high; A, B and D with two tokens each, E with one; Cy to play,
# holding A, A, C; the piles' tops show E, A, B
MID_MOVES = [
    {"type": "play", "card": "A", "stories": 2}, {"type": "bet", "tower": 1, "value": 2}, {"type": "draw"},
    {"type": "play", "card": "B", "stories": 2}, {"type": "bet", "tower": 1, "value": 3}, {"type": "draw"},
    {"type": "play", "card": "D", "stories": 2}, {"type": "bet", "tower": 4, "value": 3}, {"type": "draw"},
    {"type": "play", "card": "B", "stories": 1}, {"type": "bet", "tower": 0, "value": 2}, {"type": "draw"},
    {"type": "play", "card": "A", "stories": 1}, {"type": "bet", "tower": 3, "value": 2}, {"type": "draw"},
    {"type": "play", "card": "C", "stories": 2}, {"type": "bet", "tower": 0, "value": 2}, {"type": "draw"},
    {"type": "play", "card": "B", "stories": 2}, {"type": "bet", "tower": 3, "value": 3}, {"type": "draw"},
    {"type": "play", "card": "D", "stories": 3}, {"type": "no_bet"}, {"type": "draw"},
]
MID = GAME.apply({"state": DEAL, "moves": MID_MOVES})["state"]
# Ada holds no card (her three are on towers A and B): she may only pass (C-TURN-END)
EMPTY_HAND = {**DEAL, "players": [{**DEAL["players"][0], "hand": []}, *DEAL["players"][1:]],
              "towers": [{**DEAL["towers"][0], "plays": [1]}, {**DEAL["towers"][1], "plays": [1, 1]},
                         *DEAL["towers"][2:]]}

PLAYED = [{"type": "play", "card": "A", "stories": 2}]  # Ada builds tower A 2 stories up: she bets a 2 or a 3
RED, WHITE = picture.PLAYER_FILL[0], "#ffffff"  # Ada's colour; a token of a proposal that names no seat


@pytest.fixture(scope="module")
def client():
    return create_app(AS_DEPLOYED).test_client()


def _x(tower: int) -> int:
    return 24 + tower * (84 + 22)


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


def _verdict(root: ET.Element) -> str:
    """The verdict below the board, its wrapped lines joined again."""
    band = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("verdict")]
    assert len(band) == 1
    return " ".join(t.text or "" for t in band[0].iter(f"{SVG}text"))


def _attrs(element: ET.Element, *names: str) -> tuple[float, ...]:
    return tuple(float(element.get(name)) for name in names)


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
    assert [t.text for t in group.iter(f"{SVG}text") if t.get("aria-hidden")] == ["\u2713" if legal else "\u2717"]
    dashed = [e for e in group.iter() if e.get("stroke-dasharray")]
    assert bool(dashed) is not legal
    if legal:
        assert re.fullmatch(r"Step \d+ is legal:", title)
    else:
        assert re.match(rf"Step \d+ is refused \({rule}\): ", title)
    height = float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert max(float(t.get("y")) for t in root.iter(f"{SVG}text")) < height  # the verdict fits in the picture
    return root, group


# ---------------------------------------------------------------- every kind of step, legal and refused (the API)

def test_a_play_is_the_card_on_top_of_the_tower_of_its_style(client):
    svg = _through_the_api(client, DEAL, [{"type": "play", "card": "A", "stories": 2}])
    root, group = _checked(svg, legal=True)
    card = _faded(group).find(f"{SVG}rect")
    assert _attrs(card, "x", "y", "width", "height") == (_x(0) + 10, 196 - 2 * 16, 64, 2 * 16)
    assert card.get("fill") == picture.STYLE_FILL["A"]
    assert _verdict(root) == "Step 1 is legal: Ada played an A card on tower A, 2 stories up: it stands 2 high."


def test_a_refused_play_is_drawn_on_the_tower_it_was_tried_on(client):
    svg = _through_the_api(client, DEAL, [{"type": "play", "card": "E", "stories": 3}])
    root, group = _checked(svg, legal=False, rule="C-TURN-PLAY")
    card = _faded(group).find(f"{SVG}rect")
    assert _attrs(card, "x", "y", "width", "height") == (_x(4) + 10, 196 - 3 * 16, 64, 3 * 16)
    assert card.get("fill") == picture.STYLE_FILL["E"]
    assert _verdict(root) == "Step 1 is refused (C-TURN-PLAY): Ada holds no E: the hand is A, B, B."


def test_a_play_goes_on_the_cards_already_there_and_the_picture_makes_room_for_it(client):
    svg = _through_the_api(client, MID, [{"type": "play", "card": "A", "stories": 3}])  # Cy: tower A, 3 to 6
    root, group = _checked(svg, legal=True)
    card = _faded(group).find(f"{SVG}rect")
    assert _attrs(card, "x", "y", "width", "height") == (_x(0) + 10, 196 - 6 * 16, 64, 3 * 16)
    tower_a = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == picture.STYLE_FILL["A"]
               and r.get("height") != "18" and r not in list(group.iter())]
    assert min(float(r.get("y")) for r in tower_a) == 196 - 3 * 16 == float(card.get("y")) + 3 * 16  # right on top


def test_a_card_taller_than_every_tower_shrinks_the_stories_so_that_it_fits():
    table = GAME.table_of(GAME.read({"state": MID}))
    table = replace(table, towers=(table.towers[0]._replace(plays=(3, 3, 3, 3)), *table.towers[1:]))  # 12 high
    svg = GAME.draw(table, "en", Proposal(Step("play", card="A", stories=3), 0, True))
    _, group = _checked(svg, legal=True)
    story = max(7, min(16, 220 // 15))  # 14: the tallest is the proposed tower, 15 stories
    ground = 58 + 34 + 15 * story + 8
    card = _faded(group).find(f"{SVG}rect")
    assert _attrs(card, "x", "y", "height") == (_x(0) + 10, ground - 15 * story, 3 * story)
    assert float(card.get("y")) >= 58 + 34  # below the title and the totals


@pytest.mark.parametrize(("state", "moves", "legal", "x", "cy", "fill"), [
    (DEAL, [*PLAYED, {"type": "bet", "tower": 1, "value": 2}], True, _x(1) + 42, 233, RED),  # B shows on piles 1, 2
    (DEAL, [*PLAYED, {"type": "bet", "tower": 0, "value": 3}], False, _x(0) + 42, 233, RED),  # A on no pile
    (DEAL, [*PLAYED, {"type": "bet", "tower": 4, "value": 1}], False, _x(4) + 42, 233, RED),  # built 2: 1 too small
    # Cy's 3 is under tower E already: refused, in Cy's colour (hers is the step), below the one under tower E
    (MID, [{"type": "play", "card": "C", "stories": 1}, {"type": "bet", "tower": 4, "value": 3}], False, _x(4) + 42,
     233 + 26, picture.PLAYER_FILL[2]),
])
def test_a_bet_is_the_token_under_its_tower(client, state, moves, legal, x, cy, fill):
    svg = _through_the_api(client, state, moves)
    root, group = _checked(svg, legal, rule="C-TURN-BET")
    token = _faded(group).find(f"{SVG}circle")
    assert _attrs(token, "cx", "cy", "r") == (x, cy, 11)  # 196 + 26 + 11: the first token under a tower
    assert token.get("fill") == fill  # in the colour of the player whose step it is
    assert _faded(group).find(f"{SVG}text").text == str(moves[-1]["value"])
    ring = [c for c in group.findall(f"{SVG}circle") if c.get("r") == "14"]
    assert len(ring) == 1 and _attrs(ring[0], "cx", "cy") == (x, cy)
    if legal:
        assert _verdict(root) == "Step 2 is legal: Ada bet a token worth 2 under tower B."


def test_a_bet_goes_below_the_tokens_already_there_and_their_awards_make_room(client):
    moves = [{"type": "play", "card": "A", "stories": 1}, {"type": "bet", "tower": 1, "value": 1}]  # Cy
    svg = _through_the_api(client, MID, moves)
    root, group = _checked(svg, legal=True)
    token = _faded(group).find(f"{SVG}circle")
    assert _attrs(token, "cx", "cy") == (_x(1) + 42, 196 + 26 + 11 + 2 * 26)  # the third under tower B
    assert token.get("fill") == picture.PLAYER_FILL[2]  # Cy's
    awards = [t for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("Bea +")]
    assert [float(t.get("y")) for t in awards] == [196 + 26 + 3 * 26 + 16]  # below the proposed token
    assert _verdict(root) == "Step 2 is legal: Cy bet a token worth 1 under tower B."


@pytest.mark.parametrize(("moves", "legal"), [([*PLAYED, {"type": "no_bet"}], True), ([{"type": "no_bet"}], False)])
def test_no_bet_is_the_row_of_tokens_where_none_goes(client, moves, legal):
    svg = _through_the_api(client, DEAL, moves)
    root, group = _checked(svg, legal, rule="C-TURN-PLAY")
    area = _faded(group).find(f"{SVG}rect")
    tokens_h = 30 + 26  # room for one token under each tower
    assert _attrs(area, "x", "y", "width", "height") == (18, 196 + 22, 520, tokens_h + 8)
    rings = [c for c in group.findall(f"{SVG}circle")]
    board_h = 196 + 26 + tokens_h + 34 + 20 * 3
    assert [_attrs(c, "cx", "cy") for c in rings] == [(31, board_h - 66 - 4)]  # Ada, whose step it is, ringed
    if legal:
        assert _verdict(root) == "Step 2 is legal: Ada placed no token."


@pytest.mark.parametrize(("state", "legal", "line"), [(EMPTY_HAND, True, 0), (DEAL, False, 0), (MID, False, 2)])
def test_a_pass_is_the_line_of_the_player_whose_step_it_is(client, state, legal, line):
    svg = _through_the_api(client, state, [{"type": "pass"}])
    root, group = _checked(svg, legal, rule="C-TURN-END")
    area = _faded(group).find(f"{SVG}rect")
    tallest = max(sum(t["plays"]) for t in state["towers"])
    story = max(7, min(16, 220 // max(tallest, 1)))
    most = max(max(len(t["tokens"]) for t in state["towers"]), 1)
    legend_y = 58 + 34 + max(tallest, 6) * story + 8 + 26 + 30 + most * 26 + 34 + 20 * 3 - 66
    assert _attrs(area, "x", "y", "width", "height") == (18, legend_y + 20 * line - 15, 520, 20)
    said = {0: "Ada", 2: "Cy"}[line]
    assert _verdict(root).startswith(f"Step 1 is legal: {said} holds no card and passed." if legal else
                                     f"Step 1 is refused (C-TURN-END): {said} holds 3 cards")


@pytest.mark.parametrize(("moves", "legal", "rule"), [
    ([*PLAYED, {"type": "no_bet"}, {"type": "draw"}], True, None),
    ([{"type": "draw"}], False, "C-TURN-PLAY"),  # a play is due
    ([*PLAYED, {"type": "no_bet"}, {"type": "draw", "reveals": "C"}], False, "C-SVC-UNKNOWN"),  # pile 2 is known
])
def test_a_draw_is_drawn_on_the_finito_piles_below_the_players(client, moves, legal, rule):
    svg = _through_the_api(client, DEAL, moves)
    root, group = _checked(svg, legal, rule)
    board_h = 196 + 26 + 56 + 34 + 20 * 3
    piles = _faded(group).findall(f"{SVG}rect")
    assert [_attrs(p, "x", "y", "width", "height") for p in piles] == [(24 + 32 * i, board_h, 24, 32)
                                                                        for i in range(3)]
    assert [t.text for t in _faded(group).findall(f"{SVG}text")] == ["1", "2", "3"]
    assert "Finito piles" in [t.text for t in group.findall(f"{SVG}text")]
    band = next(g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("verdict"))
    assert min(float(t.get("y")) for t in band.iter(f"{SVG}text")) > board_h + 32  # the verdict below the piles
    if legal:
        assert _verdict(root).startswith("Step 3 is legal: Ada took the B from Finito pile 2; an A is turned face up")


# ---------------------------------------------------------------- the verdict's words, the XML, the bytes

def test_the_french_picture_says_the_verdict_in_french(client):
    svg = _through_the_api(client, DEAL, [{"type": "play", "card": "E", "stories": 3}], "fr")
    root, group = _checked_fr(svg)
    assert group.get("class") == "proposed refused"
    assert _verdict(root) == "Le coup 1 est refusé (C-TURN-PLAY) : Ada n'a pas de carte E : sa main contient A, B, B."
    svg = _through_the_api(client, DEAL, [*PLAYED, {"type": "no_bet"}, {"type": "draw"}], "fr")
    root, group = _checked_fr(svg)
    assert _verdict(root).startswith("Le coup 3 est légal : Ada a pris la carte B de la pile Finito 2 ;")
    assert "Piles Finito" in [t.text for t in group.findall(f"{SVG}text")]
    assert root.get("aria-label").startswith("Ada : ")


def _checked_fr(svg: str) -> tuple[ET.Element, ET.Element]:
    root, group = _proposed(svg)
    assert _verdict(root).startswith(group.find(f"{SVG}title").text)
    return root, group


def test_through_the_library_the_same_picture_as_through_the_api(client):
    request = {"state": MID, "moves": [{"type": "play", "card": "C", "stories": 1}]}
    assert GAME.picture(request, "de") == _through_the_api(client, MID, request["moves"], "de")
    before, proposal = GAME.proposal(request)
    assert GAME.picture(request, "de") == GAME.draw(GAME.table_of(before), "de", proposal)
    # the board as it was, the verdict below it: the picture grown by the verdict's lines
    plain = ET.fromstring(GAME.draw(GAME.table_of(before), "de"))
    root = ET.fromstring(GAME.picture(request, "de"))
    assert root.get("width") == plain.get("width")
    band = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "verdict legal")
    lines = len(band.findall(f"{SVG}text"))
    assert lines >= 2 and int(root.get("height")) == int(plain.get("height")) - 10 + 18 * lines + 9 + 9


def test_the_library_draws_a_proposal_it_is_given():
    table = GAME.table_of(GAME.read({"state": DEAL}))
    refused = Proposal(Step("bet", tower=2, value=3), 4, False,
                       (GAME.proposal({"state": DEAL, "moves": [{"type": "no_bet"}]})[1].violations[0],))
    root, group = _checked(GAME.draw(table, "en", refused), legal=False, rule="C-TURN-PLAY")
    token = _faded(group).find(f"{SVG}circle")
    assert _attrs(token, "cx", "cy") == (_x(2) + 42, 196 + 37) and token.get("fill") == WHITE
    assert group.find(f"{SVG}title").text == verdict(refused)[0] == _verdict(root)
    assert _verdict(root).startswith("Step 5 is refused (C-TURN-PLAY): A turn starts with playing a card")
    # a bet under no tower of the table (not a move the API reads): the row of towers, marked
    nowhere = Proposal(Step("bet", tower=7, value=1), 0, False, refused.violations)
    _, group = _checked(GAME.draw(table, "en", nowhere), legal=False, rule="C-TURN-PLAY")
    assert _attrs(_faded(group).find(f"{SVG}rect"), "x", "y", "width", "height") == (16, 58, 524, 196 + 18 - 58)


@pytest.mark.parametrize("language", ["en", "fr", "de", "it"])
@pytest.mark.parametrize(("state", "moves"), [
    (DEAL, [{"type": "play", "card": "B", "stories": 1}]), (DEAL, [{"type": "pass"}]),
    (MID, [{"type": "play", "card": "C", "stories": 2}, {"type": "bet", "tower": 1, "value": 3}]),
    (MID, [{"type": "play", "card": "C", "stories": 2}, {"type": "no_bet"}, {"type": "draw"}]),
    (EMPTY_HAND, [{"type": "pass"}]),
])
def test_every_proposal_picture_is_xml(state, moves, language):
    svg = GAME.picture({"state": state, "moves": moves}, language)
    _proposed(svg)
    assert svg.startswith("<svg") and svg.endswith("</svg>")


# The pictures as they were before proposals were drawn (service/games/campanile/picture.py at the commit this
# feature starts from): their SHA-256.
BEFORE = {
    ("example", "en"): "857259043b70340a27f61fab012a0318eda45fd1594e854ffd9a42870b2f877d",
    ("example", "fr"): "9366f4f5c810434f9c90515f8e7d431d04e7fcc85210f3deb42036ec298ea18b",
    ("deal", "en"): "5265208bf984a3ec07c9c0c68481d94e5a45ef8abf6af06eba9f134b3fbd77e6",
    ("deal", "fr"): "ce052fb9eb7f1e537b95427a6dd0e832add50b7ae0523f1fa7fc2a7bf36ba618",
    ("mid", "en"): "b600c2b7bab279c2bef63b765d9e070b610e26a00fc4224d9f8b0b4d8c0264e2",
    ("mid", "fr"): "d7609192c24b1419302534ec913c0d92e1ce833635c11ea5b09dd0d88525baa3",
}


@pytest.mark.parametrize(("picture_of", "language"), sorted(BEFORE))
def test_without_a_proposal_the_picture_is_the_same_bytes_as_before(client, picture_of, language):
    request = {"example": {"table": GAME.examples["picture"]["table"]}, "deal": {"state": DEAL},
               "mid": {"state": MID}}[picture_of]
    answer = client.post(f"{BASE}/picture?lang={language}", json=request, headers={"Accept": "application/json"})
    svg = answer.get_json()["svg"]
    towers = re.findall(r'<g class="tower" data-tower="(\d)" data-style="([A-E])">', svg)
    assert towers == [(str(i), style) for i, style in enumerate("ABCDE")]  # each tower named for a page's targets
    before = re.sub(r'<g class="tower" data-tower="\d" data-style="[A-E]">', "<g>", svg)
    assert hashlib.sha256(before.encode()).hexdigest() == BEFORE[picture_of, language]
    table = GAME.table_of_request(request)
    assert GAME.draw(table, language) == GAME.draw(table, language, None) == picture.svg(table, language=language) \
        == svg
    assert "proposed" not in svg and "verdict" not in svg
