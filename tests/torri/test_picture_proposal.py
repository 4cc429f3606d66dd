"""Torri's picture of a proposed step (`/picture` with `moves`): every kind of step, legal and refused, drawn faded
where it was tried (a new tower after its builder's towers, cards on top of their tower, roofs, the tower a
Conspiracy targets, a noble or Close in the player's row, anything else in words in the highlighted band of the
player whose step it is, a step of nobody's below the board), marked ✓ or ✗ (dashed), the verdict below; and a
picture of a game still going on says who leads, never who wins. Through the library and through the API."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from service.games.torri import picture
from service.games.torri.game import GAME
from tests.torri.helpers import state_dict

SVG = "{http://www.w3.org/2000/svg}"
PICTURES = Path(__file__).parent / "data" / "pictures"  # answers recorded before proposals were drawn
HEAD = 44  # the title's band (picture.svg: always drawn by /picture)


def _unknown_deck(doc: dict) -> dict:
    doc["deck"] = {"count": len(doc["deck"])}
    return doc


# Positions: Adso (player 0) to act unless said otherwise.
BASE = state_dict(hands=[["9", "9", "9", "7", "5"], ["8", "8", "8", "6"]],
                  towers=[["10x3*", "7x3", "9-7"], ["6x4", "8x3*"]])
FULL_HAND = state_dict(hands=[["9", "9", "9", "7", "5", "5", "6"], ["8", "8", "8", "6"]],
                       towers=[["10x3*", "7x3", "9-7"], ["6x4", "8x3*"]])
GUARDED = state_dict(hands=[["9", "9", "9", "7"], ["8", "5", "6"]], towers=[["10x3*", "7x3"], ["6x4"]])
CLOSER = state_dict(hands=[["5"], ["6"]], towers=[["10x3*", "9x3*", "8x3*", "6x3*"], ["7x3"]])
OVER = state_dict(hands=[["5"], ["6"]], towers=[["10x3*", "9x3*"], ["7x3"]], phase="over", passes=2)
CONSPIRACY = state_dict(hands=[["10x3"], ["6"]], towers=[["9-7", "8x4"], ["7-5", "5x4", "6x3", "9x3*"]], highest=0)
NOBLES = state_dict(nobles=True, hands=[["mura", "5", "via_francigena"], ["giostra", "6"]], towers=[["7x3"], ["8x3"]])
UNKNOWN_DECK = _unknown_deck(state_dict(hands=[["6"], []], market=["9", "10"]))

PURCHASE = {"type": "purchase"}
TRADE = {"type": "build", "cards": ["9", "9", "9"]}  # a plain 9: Donazione, Trade (T-DON-9)
TAKE = {"type": "take", "positions": [0, 1, 2]}
CONSPIRE = {"type": "build", "cards": ["10", "10", "10"]}  # a plain 10: Donazione, Conspiracy (T-DON-10)
EMPTY_MARKET = [PURCHASE, {"type": "draw", "from": "market", "card": "9"},
                {"type": "draw", "from": "market", "card": "10"}]

# kind: (legal: state, moves), (refused: state, moves, rule)
CASES: dict[str, tuple[tuple[dict, list], tuple[dict, list, str]]] = {
    "purchase": ((BASE, [PURCHASE]), (FULL_HAND, [PURCHASE], "T-ACT-PURCHASE-2")),
    "exchange": ((BASE, [{"type": "exchange", "cards": ["5", "7"]}]),
                 (BASE, [{"type": "exchange", "cards": ["5"]}], "T-ACT-EXCHANGE-1")),
    "draw": ((BASE, [PURCHASE, {"type": "draw", "from": "deck"}]),
             (BASE, [PURCHASE, {"type": "draw", "from": "market", "card": "5"}], "T-TURN-4")),
    "stop": ((NOBLES, [{"type": "noble", "card": "via_francigena"}, {"type": "decline"}, {"type": "stop"}]),
             (BASE, [{"type": "stop"}], "T-TURN-1")),
    "build": ((BASE, [TRADE]), (BASE, [{"type": "build", "cards": ["9", "7", "5"]}], "T-ACT-BUILD-3")),
    "extend": ((BASE, [{"type": "extend", "tower": 1, "cards": ["7"]}]),
               (BASE, [{"type": "extend", "tower": 0, "cards": ["7"]}], "T-ACT-COMPLETE-1")),
    "complete": ((BASE, [{"type": "complete", "towers": [1, 2]}]),
                 (BASE, [{"type": "complete", "towers": [0]}], "T-ACT-COMPLETE-1")),
    "close": ((CLOSER, [{"type": "close"}]), (BASE, [{"type": "close"}], "T-ACT-CLOSE-1")),
    "pass": ((BASE, [{"type": "pass"}]), (OVER, [{"type": "pass"}], "T-TURN-3")),
    "guard": ((GUARDED, [TRADE, {"type": "guard"}]), (BASE, [{"type": "guard"}], "T-TURN-1")),
    "giostra": ((NOBLES, [{"type": "noble", "card": "mura"}, {"type": "giostra"}]),
                (NOBLES, [{"type": "giostra"}], "T-TURN-1")),
    "decline": ((NOBLES, [{"type": "noble", "card": "mura"}, {"type": "decline"}]),
                (BASE, [{"type": "decline"}], "T-TURN-1")),
    "target": ((CONSPIRACY, [CONSPIRE, {"type": "target", "player": 1, "tower": 0}]),
               (CONSPIRACY, [CONSPIRE, {"type": "target", "player": 1, "tower": 2}], "T-DON-10")),
    "take": ((BASE, [TRADE, TAKE]), (BASE, [TRADE, {"type": "take", "positions": [0]}], "T-DON-9")),
    "give": ((BASE, [TRADE, TAKE, {"type": "give", "cards": ["7", "8"]}]),
             (BASE, [TRADE, TAKE, {"type": "give", "cards": ["10", "10"]}], "T-DON-9")),
    "refill": ((UNKNOWN_DECK, [*EMPTY_MARKET, {"type": "refill", "cards": ["5", "7", "8", "8"]}]),
               (UNKNOWN_DECK, [*EMPTY_MARKET, {"type": "refill", "cards": ["5", "6", "7"]}], "T-SVC-REFILL")),
    "noble": ((NOBLES, [{"type": "noble", "card": "mura"}]),
              (NOBLES, [{"type": "noble", "card": "monumento"}], "T-NOB-PLAY")),
}
KINDS = sorted(CASES)
TRIED = [(kind, legal) for kind in KINDS for legal in (True, False)]


def _case(kind: str, legal: bool) -> tuple[dict, str | None]:
    """The picture request for a kind of step, legal or refused, and the rule a refused one breaks."""
    if legal:
        state, moves = CASES[kind][0]
        return {"state": state, "moves": moves}, None
    state, moves, rule = CASES[kind][1]
    return {"state": state, "moves": moves}, rule


def _api(client: Any, body: dict, language: str = "en") -> str:
    answer = client.post(f"/v1/games/torri/picture?lang={language}", json=body, headers={"Accept": "application/json"})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return answer.get_json()["svg"]


def _proposed(svg: str) -> ElementTree.Element:
    """The one `proposed` group of a picture (the SVG parses as XML)."""
    root = ElementTree.fromstring(svg)
    groups = [g for g in root.iter(f"{SVG}g") if "proposed" in g.get("class", "").split()]
    assert len(groups) == 1
    return groups[0]


def _marks(group: ElementTree.Element) -> list[ElementTree.Element]:
    """The outlines that mark a proposed step (not faded)."""
    return [rect for rect in group.findall(f"{SVG}rect") if rect.get("class") == "mark"]


def _geometry(tallest: int) -> tuple[int, int, int]:
    """(a story's height, the towers' height, a player's band) of a picture with a proposal whose tallest tower, the
    proposed stories included, has `tallest` stories: as picture.svg lays them out, with room for the ✓/✗."""
    card_h = 22 if tallest <= 8 else 18 if tallest <= 11 else 15
    towers_h = max(tallest, 3) * card_h + picture.ROOF_H + 6 + picture.ROOM_H
    return card_h, towers_h, picture.NAME_H + towers_h + picture.LABEL_H


def _ground(player: int, tallest: int) -> int:
    _, towers_h, band = _geometry(tallest)
    return HEAD + player * band + picture.NAME_H + towers_h


def _tower_x(index: int) -> int:
    return picture.MARGIN + index * (picture.CARD_W + picture.GAP)


def _num(value: str | None) -> float:
    assert value is not None
    return float(value)


# ---------------------------------------------------------------- every kind, legal and refused

@pytest.mark.parametrize(("kind", "legal"), TRIED)
def test_each_kind_of_step_is_drawn_faded_marked_and_said(client: Any, kind: str, legal: bool) -> None:
    body, rule = _case(kind, legal)
    svg = _api(client, body)
    assert svg == GAME.picture(body, "en")  # the library draws what the API answers
    root = ElementTree.fromstring(svg)
    group = _proposed(svg)
    verdict_kind = "legal" if legal else "refused"
    assert group.get("class") == f"proposed {verdict_kind}" and group.get("data-step") == kind
    number = len(body["moves"])
    title = group.find(f"{SVG}title")
    assert title is not None and title.text is not None
    assert title.text.startswith(f"Step {number} is legal" if legal else f"Step {number} is refused ({rule})")
    faded = group.find(f"{SVG}g")
    assert faded is not None and faded.get("opacity") == "0.55" and len(faded)
    glyphs = [text.text for text in group.findall(f"{SVG}text") if text.get("aria-hidden") == "true"]
    assert glyphs and set(glyphs) == {"✓" if legal else "✗"}  # not colour alone
    marks = _marks(group)
    assert marks and all((mark.get("stroke-dasharray") is None) == legal for mark in marks)
    assert all(mark.get("stroke") == ("#1b5e20" if legal else "#b71c1c") for mark in marks)
    verdicts = [g for g in root.iter(f"{SVG}g") if g.get("class") == f"verdict {verdict_kind}"]
    assert len(verdicts) == 1
    lines = [text.text or "" for text in verdicts[0]]
    if legal:
        assert lines[0] == f"Step {number} is legal:" and len(lines) > 1  # what it does follows
    else:
        assert lines[0].startswith(f"Step {number} is refused ({rule}):")
    # the verdict below the players, inside the picture grown to hold it
    height = _num(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    ground = max(_num(rect.get("y")) for rect in root.iter(f"{SVG}rect") if rect.get("fill") == "#c9b796")
    assert all(ground < _num(text.get("y")) < height for text in verdicts[0])


def test_the_library_draws_the_proposal_on_the_table_it_was_tried_on() -> None:
    body, _ = _case("build", True)
    before, proposal = GAME.proposal(body)
    assert proposal.player == 0 and proposal.step.to_json() == TRADE
    assert GAME.picture(body, "de") == GAME.draw(GAME.table_of(before), "de", proposal)
    assert "Zug 1 ist regelkonform:" in GAME.draw(GAME.table_of(before), "de", proposal)


# ---------------------------------------------------------------- where each kind is drawn

@pytest.mark.parametrize("legal", [True, False])
def test_a_build_is_a_new_tower_after_the_builder_s_towers(client: Any, legal: bool) -> None:
    body, _ = _case("build", legal)
    group = _proposed(_api(client, body))
    card_h, _, _ = _geometry(4)  # William's 6x4 is the tallest
    ground, x = _ground(0, 4), _tower_x(3)  # Adso's fourth tower
    tower = group.find(f"{SVG}g/{SVG}g")
    assert tower is not None and tower.get("class") == "new-tower incomplete" and tower.get("data-tower") == "3"
    stories = [rect for rect in tower.findall(f"{SVG}rect") if rect.get("width") == str(picture.CARD_W)]
    assert [(_num(r.get("x")), _num(r.get("y"))) for r in stories] == \
        [(x, ground - (story + 1) * card_h + 1) for story in range(3)]
    faces = [text.text for text in tower.findall(f"{SVG}text")]
    assert faces[:3] == (["9", "9", "9"] if legal else ["9", "7", "5"])  # bottom first
    assert faces[3] == ("9×3" if legal else "9-7-5")  # a stack that is no tower is labelled by its cards
    (mark,) = _marks(group)
    assert (_num(mark.get("x")), _num(mark.get("y"))) == (x - 5, ground - 3 * card_h - 14)


@pytest.mark.parametrize(("legal", "index"), [(True, 1), (False, 0)])
def test_an_extension_is_cards_on_top_of_its_tower(client: Any, legal: bool, index: int) -> None:
    body, _ = _case("extend", legal)
    group = _proposed(_api(client, body))
    tallest = 4 if legal else 5  # (room for a story above the roof of a complete tower)
    card_h, _, _ = _geometry(tallest)
    ground, x = _ground(0, tallest), _tower_x(index)
    lift = picture.ROOF_H if not legal else 0  # the refused one is on a complete tower: above its roof
    (card,) = [rect for rect in group.iter(f"{SVG}rect") if rect.get("width") == str(picture.CARD_W)]
    assert (_num(card.get("x")), _num(card.get("y"))) == (x, ground - 4 * card_h - lift + 1)  # the fourth story
    assert next(text.text for text in group.iter(f"{SVG}text")) == "7"


@pytest.mark.parametrize(("legal", "indices"), [(True, [1, 2]), (False, [0])])
def test_completing_roofs_the_towers_named(client: Any, legal: bool, indices: list[int]) -> None:
    body, _ = _case("complete", legal)
    group = _proposed(_api(client, body))
    card_h, _, _ = _geometry(4)
    summit = _ground(0, 4) - 3 * card_h
    roofs = [path.get("d") for path in group.iter(f"{SVG}path") if path.get("fill") == "#7a2f22"]
    assert roofs == [f"M{_tower_x(i) - 3} {summit} L{_tower_x(i) + picture.CARD_W / 2} "
                     f"{summit - picture.ROOF_H + 2} L{_tower_x(i) + picture.CARD_W + 3} {summit} Z" for i in indices]
    assert [_num(mark.get("x")) for mark in _marks(group)] == [_tower_x(i) - 5 for i in indices]


@pytest.mark.parametrize(("legal", "index"), [(True, 0), (False, 2)])
def test_a_conspiracy_target_is_sighted_on_its_tower(client: Any, legal: bool, index: int) -> None:
    body, _ = _case("target", legal)
    group = _proposed(_api(client, body))
    card_h, _, _ = _geometry(4)  # Adso's 8x4 and William's 5x4
    ground, x = _ground(1, 4), _tower_x(index)  # William's tower
    top = ground - 3 * card_h - 12  # 3 stories, open: its scaffolding
    (sight,) = group.iter(f"{SVG}circle")
    assert (_num(sight.get("cx")), _num(sight.get("cy"))) == (x + picture.CARD_W / 2, (top + ground) / 2)
    (mark,) = _marks(group)
    assert (_num(mark.get("x")), _num(mark.get("y"))) == (x - 4, top - 2)


def _badges_end(svg: str, player: int) -> float:
    """Where the row of badges beside a player's name ends (the next badge's x): after the marker's pill 8 px, after
    any other pill 6 px (picture._player)."""
    root = ElementTree.fromstring(svg)
    (row,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "player" and g.get("data-player") == str(player)]
    end = float(picture.MARGIN)
    for badge in row.findall(f"{SVG}g"):
        if badge.get("class") in ("marker", "pill"):
            rect = badge.find(f"{SVG}rect")
            assert rect is not None
            end = _num(rect.get("x")) + _num(rect.get("width")) + (8 if badge.get("class") == "marker" else 6)
    return end


@pytest.mark.parametrize(("kind", "legal", "player", "words"), [
    ("noble", True, 0, "+ Mura"), ("noble", False, 0, "+ Monumento"),
    ("giostra", True, 1, "+ Giostra"), ("giostra", False, 0, "+ Giostra"),
    ("close", True, 0, "Closed"), ("close", False, 0, "Closed"),
])
def test_a_noble_giostra_or_close_is_a_badge_in_its_player_s_row(client: Any, kind: str, legal: bool, player: int,
                                                                  words: str) -> None:
    body, _ = _case(kind, legal)
    svg = _api(client, body)
    group = _proposed(svg)
    state = GAME.read({"state": body["state"]})
    tallest = max(t.height for p in state.players for t in p.towers)
    top = HEAD + player * _geometry(tallest)[2]
    (badge,) = [g for g in group.iter(f"{SVG}g") if g.get("class") == "pill"]
    rect, text = badge.find(f"{SVG}rect"), badge.find(f"{SVG}text")
    assert rect is not None and text is not None and text.text == words
    assert _num(rect.get("y")) == top + 40  # the row under the name
    assert abs(_num(rect.get("x")) - _badges_end(svg, player)) <= 1  # after the badges already there
    (mark,) = _marks(group)
    assert _num(mark.get("x")) == pytest.approx(_num(rect.get("x")) - 3)


IN_WORDS = [  # kind, legal, whose step, the words beside the name
    ("purchase", True, 0, "Purchase"), ("purchase", False, 0, "Purchase"),
    ("exchange", True, 0, "Exchange 5 and 7"), ("exchange", False, 0, "Exchange 5"),
    ("draw", True, 0, "Draw from the deck"), ("draw", False, 0, "Draw 5 from the market"),
    ("stop", True, 0, "Stop drawing"), ("stop", False, 0, "Stop drawing"),
    ("pass", True, 0, "Pass"),
    ("guard", True, 1, "Guard with a 5"), ("guard", False, 0, "Guard with a 5"),
    ("decline", True, 1, "Decline"), ("decline", False, 0, "Decline"),
    ("take", True, 0, "Take 3 cards"), ("take", False, 0, "Take 1 card"),
    ("give", True, 0, "Give back 7 and 8"), ("give", False, 0, "Give back 10 and 10"),
    ("refill", True, 0, "Refill the market with 5, 7, 8 and 8"),
    ("refill", False, 0, "Refill the market with 5, 6 and 7"),
]


@pytest.mark.parametrize(("kind", "legal", "player", "words"), IN_WORDS)
def test_a_step_the_table_does_not_show_is_said_beside_its_player_s_name(client: Any, kind: str, legal: bool,
                                                                        player: int, words: str) -> None:
    body, _ = _case(kind, legal)
    svg = _api(client, body)
    group = _proposed(svg)
    state = GAME.read({"state": body["state"]})
    tallest = max([t.height for p in state.players for t in p.towers] + [3])  # (the Trade's 9x3 is not taller)
    band = _geometry(tallest)[2]
    top = HEAD + player * band
    (badge,) = [g for g in group.iter(f"{SVG}g") if g.get("class") == "pill"]
    rect, text = badge.find(f"{SVG}rect"), badge.find(f"{SVG}text")
    assert rect is not None and text is not None and text.text == words
    assert _num(rect.get("y")) == top + 40
    assert abs(_num(rect.get("x")) - _badges_end(svg, player)) <= 1
    (mark,) = _marks(group)  # the player's band, highlighted
    assert (_num(mark.get("x")), _num(mark.get("y")), _num(mark.get("height"))) == \
        (picture.MARGIN - 12, top + 8, band - 6)


def test_a_step_of_nobody_s_is_said_below_the_board(client: Any) -> None:
    body, _ = _case("pass", False)  # the game is over: nobody is to act
    svg = _api(client, body)
    group = _proposed(svg)
    band = _geometry(3)[2]
    (mark,) = _marks(group)  # the whole board
    assert (_num(mark.get("x")), _num(mark.get("y")), _num(mark.get("height"))) == \
        (picture.MARGIN - 12, HEAD + 6, 2 * band - 2)
    (badge,) = [g for g in group.iter(f"{SVG}g") if g.get("class") == "pill"]
    rect, text = badge.find(f"{SVG}rect"), badge.find(f"{SVG}text")
    assert rect is not None and text is not None and text.text == "Pass"
    assert (_num(rect.get("x")), _num(rect.get("y"))) == (picture.MARGIN, HEAD + 2 * band + 10)


def test_every_kind_of_step_the_game_has_is_tried() -> None:
    from service.games.torri.schemas import MOVE_SCHEMAS

    assert set(CASES) == set(MOVE_SCHEMAS)


# ---------------------------------------------------------------- in other languages

@pytest.mark.parametrize(("kind", "legal", "said"), [
    ("build", False, "Le coup 1 est refusé (T-ACT-BUILD-3)"),
    ("purchase", True, "Le coup 1 est légal"),
    ("purchase", False, "Le coup 1 est refusé (T-ACT-PURCHASE-2)"),
])
def test_the_french_picture_says_the_verdict_in_french(client: Any, kind: str, legal: bool, said: str) -> None:
    body, _ = _case(kind, legal)
    svg = _api(client, body, "fr")
    title = _proposed(svg).find(f"{SVG}title")
    assert title is not None and title.text is not None and title.text.startswith(said)
    assert said in svg and "Step 1" not in svg
    if kind == "purchase":
        assert ">Acheter</text>" in svg  # the step's words too


def test_the_step_s_words_are_said_in_each_language(client: Any) -> None:
    body, _ = _case("give", True)
    assert ">Rendre 7 et 8</text>" in _api(client, body, "fr")
    assert ">7 und 8 zurückgeben</text>" in _api(client, body, "de")
    assert ">Restituire 7 e 8</text>" in _api(client, body, "it")


# ---------------------------------------------------------------- without a proposal

@pytest.mark.parametrize(("name", "body", "language"), [
    ("notation-en", {"notation": GAME.examples["picture"]["notation"]}, "en"),
    ("notation-fr", {"notation": GAME.examples["picture"]["notation"]}, "fr"),
    ("table-de", {"table": GAME.examples["score"]["table"]}, "de"),
    ("over-it", {"state": OVER}, "it"),
])
def test_without_moves_a_table_a_notation_or_a_finished_state_is_drawn_as_before(client: Any, name: str, body: dict,
                                                                                 language: str) -> None:
    svg = _api(client, body, language)
    assert svg == (PICTURES / f"{name}.svg").read_text(encoding="utf-8")
    assert "proposed" not in svg and "verdict" not in svg


def test_a_game_in_progress_says_who_leads_not_who_wins(client: Any) -> None:
    svg = _api(client, {"state": BASE})
    root = ElementTree.fromstring(svg)
    assert "Adso leads, 31 to 29." in svg and "Leading" in svg
    assert "wins" not in svg and "Winner" not in svg and "proposed" not in svg
    assert root.get("aria-label", "").endswith("Adso leads, 31 to 29.")
    french = _api(client, {"state": BASE}, "fr")
    assert "Adso mène, 31 à 29." in french and "En tête" in french and "Vainqueur" not in french
    dealt = {"state": GAME.new({"seed": 42, "names": ["Adso", "William"]})["state"]}
    level = _api(client, dealt)
    assert "Level at 0 points." in level and "A draw" not in level and "Winner" not in level
    assert "Gleichstand bei 0 Punkten." in _api(client, dealt, "de")


def test_a_finished_game_still_says_who_won(client: Any) -> None:
    svg = _api(client, {"state": OVER})
    assert "Adso wins, 39 to 13 (on points)." in svg and "Winner" in svg and "leads" not in svg


def test_the_table_of_a_state_says_whether_its_game_is_over() -> None:
    going_on, over = GAME.table_of(GAME.read({"state": BASE})), GAME.table_of(GAME.read({"state": OVER}))
    assert not going_on.finished and over.finished
    table = GAME.read({"table": GAME.examples["score"]["table"]}, "table")
    assert table.finished  # a photo of a table: a finished game
    assert going_on == replace(going_on, finished=True)  # the same towers, nobles and marker: the same table
