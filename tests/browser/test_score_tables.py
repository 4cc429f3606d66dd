"""Every game's score table on a phone (390×844): each player's total is on the screen without scrolling sideways,
neither the page nor the table; for each game its example table scored, and for Carcassonne also five players with
long names (its table stacks: each player's name and total on one line, the columns below)."""
from __future__ import annotations

import base64
import json

import pytest
from playwright.sync_api import expect

from .conftest import SIZES, open_referee

PHONE = SIZES["phone"]
# each game's cells with a player's total: Torri's and Campanile's and Carcassonne's total, San Gimignano's towers
# and tokens (S-END-3: the towers decide, the tokens break a tie)
TOTALS = {"torri": "#breakdown td.total", "campanile": "#breakdown td.total", "carcassonne": "#breakdown td.total",
          "sangimignano": "#breakdown td.towers, #breakdown td.tokens"}
PLAYERS = {"torri": 2, "campanile": 3, "sangimignano": 3, "carcassonne": 3}  # in each game's example


def fragment(game: str, table: dict) -> str:
    return "#" + game + ":" + base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")


def score_on_a_phone(page, game: str) -> None:
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.get_by_role("button", name="Score", exact=True).click()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator(TOTALS[game]).first).to_be_visible()


def assert_totals_on_screen(page, game: str, players: int) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert width == PHONE[0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    scrolling = page.evaluate("""() => [...document.querySelectorAll('#result .table-scroll')]
        .filter((box) => box.scrollWidth > box.clientWidth + 1).length""")
    assert scrolling == 0, "a score table scrolls sideways"
    boxes = [cell.bounding_box() for cell in page.locator(TOTALS[game]).all()]
    assert len(boxes) == players * (2 if game == "sangimignano" else 1)
    for box in boxes:
        assert box is not None and box["width"] > 0
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, (game, box)
    # every cell a person sees (a stacked table's head is there only for screen readers: 1 px, clipped)
    cells = page.evaluate("""() => [...document.querySelectorAll('#breakdown th, #breakdown td')]
        .filter((cell) => cell.parentElement.parentElement.getBoundingClientRect().width > 1)
        .filter((cell) => cell.getBoundingClientRect().left < 0
                          || cell.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map((cell) => cell.textContent)""")
    assert cells == [], f"cells of {game}'s score table off the screen: {cells}"


@pytest.mark.parametrize("game", ["torri", "campanile", "sangimignano", "carcassonne"])
def test_each_game_s_example_shows_every_total_on_a_phone(page, screenshots, game):
    open_referee(page, "#" + game)
    if game == "carcassonne":
        page.wait_for_selector("[data-tiles=ready]")
    page.locator("#example").click()
    score_on_a_phone(page, game)
    assert_totals_on_screen(page, game, PLAYERS[game])
    page.locator("#result").screenshot(path=str(screenshots / f"score-table-{game}-phone-390x844.png"))
    assert page.errors == []


def test_carcassonne_five_players_with_long_names_on_a_phone(page, screenshots):
    names = ["Guinevere of the Orkney Isles", "Bea", "Maximilian Alexander", "Cy", "Eleonora Vittoria"]
    table = {"tower": False, "players": [{"name": name, "score": 100 + 7 * i, "prisoners": []}
                                         for i, name in enumerate(names)],
             "board": [{"tile": "BA/RCr", "at": [0, 0], "rotation": 0}],
             "meeples": [{"player": 4, "at": [0, 0], "feature": "N"}], "towers": []}
    open_referee(page, fragment("carcassonne", table))
    page.wait_for_selector("[data-tiles=ready]")
    score_on_a_phone(page, "carcassonne")
    expect(page.locator("#breakdown td.total")).to_have_text(["100", "107", "114", "121", "129"])
    assert_totals_on_screen(page, "carcassonne", 5)
    # stacked: each player's total on the line of their name
    for row in page.locator("#breakdown tbody tr").all():
        name, total = row.locator("th").bounding_box(), row.locator("td.total").bounding_box()
        assert name is not None and total is not None
        assert total["y"] < name["y"] + name["height"] and name["y"] < total["y"] + total["height"]
    page.locator("#result").screenshot(path=str(screenshots / "score-table-carcassonne-5-players-phone-390x844.png"))
    assert page.errors == []
