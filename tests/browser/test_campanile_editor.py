"""Campanile on the referee page: a golden game's finished table entered by clicks and keys (players, the five
towers' stories and cards with the steppers, the tokens in the order placed), the score with every player's total
and the tie-breaks named, a refused table with the rule broken, and the shareable link."""
from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from .conftest import check_both_sizes, link_of, open_referee

GOLDEN = Path(__file__).resolve().parents[1] / "campanile" / "data" / "golden" / "3p-seed-85.json"


def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def set_number(page, label: str, value: int) -> None:
    """Type a number into a stepper's field (keys only), then leave it."""
    field = page.get_by_label(label, exact=True)
    field.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(value))
    page.keyboard.press("Tab")
    expect(page.get_by_label(label, exact=True)).to_have_value(str(value))


def enter_table(page, names: list[str], towers: list[dict]) -> None:
    while page.locator(".cp-player").count() < len(names):
        page.get_by_role("button", name="Add a player").click()
    for i, name in enumerate(names):
        field = page.get_by_label(f"Name of player {i + 1}", exact=True)
        field.click()
        page.keyboard.press("Control+A")
        page.keyboard.type(name)
    for tower in towers:
        style = tower["style"]
        height, cards = sum(tower["plays"]), len(tower["plays"])
        if style == "A":  # the + button, one story at a time; the card count follows
            for _ in range(height):
                page.get_by_role("button", name=f"Tower {style} stories: one more").click()
        else:
            set_number(page, f"Tower {style} stories", height)
        expect(page.get_by_label(f"Tower {style} stories", exact=True)).to_have_value(str(height))
        current = int(page.get_by_label(f"Tower {style} cards", exact=True).input_value())
        if style == "B":  # arrow keys in the field
            page.get_by_label(f"Tower {style} cards", exact=True).focus()
            for _ in range(abs(cards - current)):
                page.keyboard.press("ArrowUp" if cards > current else "ArrowDown")
            page.keyboard.press("Tab")
        else:
            set_number(page, f"Tower {style} cards", cards)
        expect(page.get_by_label(f"Tower {style} cards", exact=True)).to_have_value(str(cards))
        for token in tower["tokens"]:
            page.locator(".chooser-player").nth(token["player"]).click()
            page.get_by_role("button", name=f"Add {names[token['player']]}'s token {token['value']} under tower "
                                            f"{style}", exact=True).click()
        expect(page.locator(f'.cp-tower[data-style="{style}"] .cp-tokens li')).to_have_count(len(tower["tokens"]))


def test_a_golden_game_entered_by_clicks_and_keys(page, base_url, screenshots):
    game = golden()
    open_referee(page, "#campanile")
    expect(page.get_by_role("button", name="Campanile")).to_have_attribute("aria-pressed", "true")
    enter_table(page, game["names"], game["final_state"]["towers"])
    page.get_by_role("button", name="Score", exact=True).click()

    totals = [player["total"] for player in game["score"]["players"]]
    expect(page.locator("#breakdown tbody td.total")).to_have_text([str(t) for t in totals])
    expect(page.locator("#breakdown tbody th")).to_have_text(game["names"])
    expect(page.locator("#verdict")).to_have_text("Ada wins with 10 points, ahead of Bea with 6.")
    expect(page.locator("#announce")).to_have_text("Ada wins with 10 points, ahead of Bea with 6.")
    flags = page.locator("#flags tbody tr")
    expect(flags.locator("th")).to_contain_text(["B · 13 stories", "A · 12 stories", "C · 12 stories",
                                                  "E · 10 stories", "D · 9 stories"])
    tower_c = page.locator('#flags tr[data-style="C"]')
    expect(tower_c.locator("th")).to_contain_text("as tall as A: the tower nearer the piles ranks higher")
    expect(tower_c.locator("td.large")).to_contain_text("Bea 4")
    expect(tower_c.locator("td.small")).to_contain_text("Ada 2")
    expect(tower_c.locator("td.small")).to_contain_text("placed a token here first (C-END-3)")
    expect(page.locator('#flags tr[data-style="D"] td.flag')).to_have_text("none")
    figure = page.locator("#figure")
    expect(figure).to_be_visible()
    expect(figure.get_by_role("img")).to_have_accessible_name(
        "Ada: 10 points; Bea: 6 points; Cy: 6 points. Ada leads.")
    download = figure.get_by_role("link", name="Download the picture (SVG)")
    expect(download).to_have_attribute("download", re.compile(r"\.svg$"))
    sent = json.loads(page.locator("#json").input_value())
    assert [sum(t["plays"]) for t in sent["table"]["towers"]] == [sum(t["plays"]) for t in
                                                                  game["final_state"]["towers"]]
    assert [t["tokens"] for t in sent["table"]["towers"]] == [t["tokens"] for t in game["final_state"]["towers"]]
    check_both_sizes(page, screenshots, "campanile-scored")
    assert all(url.startswith(base_url) for url in page.requests), page.requests
    assert page.errors == []

    # the link reopens the same table
    link = link_of(page, "^#campanile:")
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("html[data-ready=true]")
    for tower in game["final_state"]["towers"]:
        style = tower["style"]
        expect(other.get_by_label(f"Tower {style} stories", exact=True)).to_have_value(str(sum(tower["plays"])))
        expect(other.get_by_label(f"Tower {style} cards", exact=True)).to_have_value(str(len(tower["plays"])))
    expect(other.get_by_label("Name of player 3", exact=True)).to_have_value("Cy")
    other.get_by_role("button", name="Score", exact=True).click()
    expect(other.locator("#breakdown tbody td.total")).to_have_text([str(t) for t in totals])


def test_an_impossible_table_names_the_rule(page):
    open_referee(page, "#campanile")
    page.get_by_role("button", name="Tower A stories: one more").click()
    page.get_by_role("button", name="Tower B stories: one more").click()
    for tower in ("A", "B"):
        page.get_by_role("button", name=f"Add Ada's token 3 under tower {tower}").click()
    page.keyboard.press("Control+Enter")
    problems = page.locator("#problems")
    expect(problems).to_be_visible()
    expect(problems).to_contain_text("This table cannot be real")
    expect(problems).to_contain_text("Player 0 has 2 tokens of value 3 under the towers; each player has 1.")
    expect(problems.locator(".rule")).to_have_text(["C-COMP-4"])
    expect(page.locator("#result")).to_be_hidden()

    # a token too many for the cards played: the tower it lies under is marked
    page.get_by_role("button", name="Remove token 1 of tower B (Ada, 3)").click()
    page.get_by_role("button", name="Add Ada's token 1 under tower A").click()
    page.get_by_role("button", name="Add Ada's token 2 under tower B").click()
    page.get_by_role("button", name="Score", exact=True).click()
    expect(problems).to_contain_text("3 tokens lie under the towers, but only 2 cards were played")
    expect(problems.locator(".rule")).to_have_text(["C-TURN-BET"])
    expect(page.locator(".cp-tower.bad")).to_have_count(0)  # the problem points at all the towers, not one
