"""The referee page as a person uses it, with Torri: type a table, press Score, read the breakdown, the winner and
why, and see the picture; a broken line is shown with its line number and highlighted. The shell: the game
chooser, the shareable link, the request as JSON, the announcement of the result."""
from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .conftest import check_both_sizes, link_of

EXAMPLE = ["Adso @: 10x3* 9x3* 8x3 6x3* 10-6", "William: 7x3* 9-5* 10-8* 7-5*"]


def type_table(page, lines: list[str]) -> None:
    area = page.locator("#notation")
    area.click()
    for i, line in enumerate(lines):
        if i:
            page.keyboard.press("Enter")
        page.keyboard.type(line)


def open_page(page) -> None:
    page.goto("/referee")
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def test_score_the_rulesheet_example(page, base_url, tmp_path):
    open_page(page)
    expect(page.locator("#notation")).to_have_attribute("placeholder", re.compile(r"Adso @: 10x3\*"))
    type_table(page, EXAMPLE)
    expect(page.locator("#notation")).to_have_value("\n".join(EXAMPLE))
    page.get_by_role("button", name="Score", exact=True).click()

    verdict = page.locator("#verdict")
    expect(verdict).to_have_text("William wins on points, 66 to 63.")
    totals = page.locator("#breakdown tfoot td")
    expect(totals).to_have_text(["63", "66"])
    expect(page.locator("#breakdown thead th")).to_have_text(["Category", "Adso", "William"])
    expect(page.locator("#breakdown thead th.winner")).to_have_text("William")
    rows = {category: page.locator(f'#breakdown tr[data-category="{category}"] td')
            for category in ("completion", "blessing", "plain", "colorful", "highest")}
    expect(rows["completion"]).to_have_text(["15", "20"])
    expect(rows["blessing"]).to_have_text(["0", "6"])
    expect(rows["plain"]).to_have_text(["33 (6, 8, 9, 10)", "7 (7)"])
    expect(rows["colorful"]).to_have_text(["5", "33"])
    expect(rows["highest"]).to_have_text(["10", "0"])
    expect(page.locator("#warnings")).to_be_hidden()
    expect(page.locator("#problems")).to_be_hidden()

    text = page.locator("body").inner_text()
    assert "63" in text and "66" in text and "William wins" in text

    picture = page.locator("#picture svg")
    expect(picture).to_be_visible()
    expect(picture.locator("g.tower")).to_have_count(9)
    expect(picture.locator("g.tower.complete")).to_have_count(7)
    expect(picture.locator("g.marker")).to_have_count(1)
    expect(picture.locator("text.name")).to_have_text(["Adso", "William"])
    expect(page.locator("#download")).to_be_visible()

    page.screenshot(path=str(tmp_path / "referee-scored.png"), full_page=True)
    assert (tmp_path / "referee-scored.png").stat().st_size > 10_000
    assert all(url.startswith(base_url) for url in page.requests), page.requests  # nothing from elsewhere
    assert page.errors == []


def test_a_broken_line_shows_its_error_with_the_line_number(page, tmp_path):
    open_page(page)
    type_table(page, [EXAMPLE[0], "William: 7x3* 9-5* 83 7-5*"])
    page.get_by_role("button", name="Score", exact=True).click()

    problems = page.locator("#problems")
    expect(problems).to_be_visible()
    expect(problems).to_contain_text("line 2, column 20")
    expect(problems).to_contain_text("expected a tower like 8x3, 10-6 or [9 9 BP]; did you mean 8x3?")
    expect(page.locator("#gutter .bad")).to_have_text(["2"])
    expect(page.locator("#backdrop .bad-line")).to_have_count(1)
    expect(page.locator("#backdrop > div").nth(1)).to_have_class("bad-line")
    expect(page.locator("#backdrop .bad-line mark")).to_have_text("8")
    expect(page.locator("#notation")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#result")).to_be_hidden()
    assert "line 2" in page.locator("body").inner_text()

    problems.get_by_role("button", name="line 2, column 20").click()
    selection = page.evaluate("() => { const a = document.getElementById('notation');"
                              " return a.value.slice(a.selectionStart, a.selectionEnd); }")
    assert selection == "8"
    page.screenshot(path=str(tmp_path / "referee-error.png"), full_page=True)

    # fixing the line clears the mark, and the table scores
    area = page.locator("#notation")
    area.fill("\n".join(EXAMPLE))
    expect(page.locator("#gutter .bad")).to_have_count(0)
    area.press("Control+Enter")
    expect(page.locator("#verdict")).to_have_text("William wins on points, 66 to 63.")
    expect(problems).to_be_hidden()


def test_an_impossible_table_names_the_player_and_the_tower(page):
    open_page(page)
    type_table(page, ["Adso @: 10x3 10x3 10x3", "William: 10x3*"])
    page.get_by_role("button", name="Score", exact=True).click()
    problems = page.locator("#problems")
    expect(problems).to_contain_text("This table cannot be real")
    expect(problems).to_contain_text("William's tower 1 (10x3*): one 10 too many: the table shows 12 and the game "
                                     "has 10.")
    expect(problems).to_contain_text("T-COMP-4")
    expect(page.locator("#gutter .bad")).to_have_text(["2"])


def test_warnings_and_the_example_button(page):
    open_page(page)
    page.get_by_role("button", name="Rulesheet example").click()
    expect(page.locator("#notation")).to_have_value("\n".join(EXAMPLE))
    page.locator("#notation").fill("Adso @: 8x3\nWilliam: 9-5 !")
    page.get_by_role("button", name="Score", exact=True).click()
    expect(page.locator("#verdict")).to_have_text("Adso wins on points, 18 to 5.")
    warnings = page.locator("#warnings li")
    expect(warnings).to_have_count(2)
    expect(warnings.first).to_contain_text("ignored a stray '!'")
    expect(warnings.nth(1)).to_contain_text("Adso holds the marker, but")


def test_the_chooser_the_link_and_both_sizes(page, base_url, screenshots):
    open_page(page)
    chooser = page.locator("#games button")
    titles = page.evaluate("() => fetch('referee/games.json').then((r) => r.json())"
                           ".then((body) => body.games.map((g) => g.title))")
    expect(chooser).to_have_text(titles)
    assert titles[:2] == ["Le Torri di San Gimignano", "Campanile"]
    expect(page.get_by_role("button", name="Le Torri di San Gimignano")).to_have_attribute("aria-pressed", "true")
    type_table(page, EXAMPLE)
    page.keyboard.press("Control+Enter")
    expect(page.locator("#verdict")).to_have_text("William wins on points, 66 to 63.")
    expect(page.locator("#announce")).to_have_text("William wins on points, 66 to 63.")
    expect(page.locator("#download")).to_have_attribute("download", "torri-table.svg")
    assert json.loads(page.locator("#json").input_value()) == {"notation": "\n".join(EXAMPLE)}
    check_both_sizes(page, screenshots, "torri-scored")

    # the link holds the table: a new page opened on it shows the same text
    link = link_of(page, "^#torri:")
    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector("html[data-ready=true]")
    expect(other.locator("#notation")).to_have_value("\n".join(EXAMPLE))

    # another game and back, by keyboard: each game keeps its own table
    page.get_by_role("button", name="Campanile").focus()
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("data-game", "campanile")
    expect(page.get_by_label("Tower A stories", exact=True)).to_be_visible()
    assert page.url.split("#")[1].startswith("campanile")
    page.get_by_role("button", name="Le Torri di San Gimignano").click()
    expect(page.locator("html")).to_have_attribute("data-game", "torri")
    expect(page.locator("#notation")).to_have_value("\n".join(EXAMPLE))
    assert page.errors == []
