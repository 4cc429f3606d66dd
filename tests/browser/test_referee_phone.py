"""The scoring page at the table, on a phone (390×844, touch) and on a laptop (1366×768), in Chromium: the verdict
comes into view; Clear and the example can be undone, and Back brings the table before them back; no sideways
scroll of the page; targets of 44 px on touch; no keyboard hints on touch screens; a skip link past the table;
the focus ring at 3:1; axe-core finds nothing serious or critical. Every game for the shell's points; Torri and
Campanile for their editors' (the notation box showing its lines whole, a problem of the notation pointed at in
French, German and Italian, every control reached by Tab).

Exempt from the 44 px check, and why:
- the skip link while it is out of sight (1×1 px off screen until the keyboard reaches it; focused, it is 44 px
  tall: test_the_skip_link_jumps_past_the_table);
- elements of zero size (hidden, in a closed <details>) and the visually hidden ones (for screen readers only);
- the answer the page focuses (#verdict, #problems: tabindex="-1", no target to tap);
- a checkbox or a radio button measures by its label (its target), which is 44 px tall on touch;
- on San Gimignano and Carcassonne, the editor's own controls (their editors are another task's: the shell's
  controls around them are checked).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .axe import assert_accessible

GAMES = ["torri", "campanile", "sangimignano", "carcassonne"]
OURS = ["torri", "campanile"]  # the editors checked whole; the others only around their editor
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
EXAMPLE = ["Adso @: 10x3* 9x3* 8x3 6x3* 10-6", "William: 7x3* 9-5* 10-8* 7-5*"]
BROKEN = [EXAMPLE[0], "William: 7x3* 9-5* 83 7-5*"]  # line 2, column 20: "83"

INTERACTIVE = ("a[href], button, input:not([type=hidden]), select, textarea, summary, "
               "[tabindex]:not([tabindex='-1']), [role=button], [role=link]")

# the interactive elements smaller than 44×44 px (see the exemptions above); scope: the whole page, or all but the
# editor
SMALL_TARGETS = """([selector, whole]) => [...document.querySelectorAll(selector)].filter((node) => {
    if (!whole && node.closest('#editor')) return false;
    if (node.matches('a.skip') && document.activeElement !== node) return false;
    if (node.closest('.visually-hidden') || !node.checkVisibility({visibilityProperty: true})) return false;
    let box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (node.matches('input[type=checkbox], input[type=radio]')) {
      const label = node.closest('label') || (node.id && document.querySelector(`label[for="${node.id}"]`));
      if (label) box = label.getBoundingClientRect();
    }
    return box.width < 43.5 || box.height < 43.5;
  }).map((node) => {
    const box = node.getBoundingClientRect();
    const name = node.getAttribute('aria-label') || node.textContent.trim().slice(0, 40);
    return `${node.tagName.toLowerCase()}.${node.className} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`;
  })"""

VERDICT_IN_VIEW = """(id) => {
    const node = document.getElementById(id);
    const box = node.getBoundingClientRect();
    return !node.hidden && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
           && document.activeElement === node;
  }"""


@pytest.fixture
def opened(browser, base_url):
    """open(size, address): a page of a fresh context (nothing stored) at that size, a phone with touch, ready."""
    contexts = []

    def open_page(size: str, address: str = "/referee"):
        width, height = SIZES[size]
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=base_url,
                                      has_touch=size == "phone", is_mobile=size == "phone", locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.goto(address)
        page.wait_for_selector("html[data-ready=true]")
        if address.endswith("#carcassonne"):  # its editor learns the tiles after it is drawn
            page.wait_for_selector("[data-tiles=ready]")
        return page

    yield open_page
    for context in contexts:
        context.close()


def no_sideways_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def small_targets(page, game: str) -> list[str]:
    return page.evaluate(SMALL_TARGETS, [INTERACTIVE, game in OURS])


def load_example(page) -> None:
    page.locator("#example").click()
    expect(page.locator("#undo")).to_be_visible()


def score(page) -> None:
    page.locator("#score").click()
    expect(page.locator("#score")).to_be_enabled()


def type_notation(page, lines: list[str]) -> None:
    page.locator("#notation").fill("\n".join(lines))


def json_sent(page) -> str:
    return page.locator("#json").input_value()


def href(page) -> str:
    """The page's address as the page has it now (page.url follows history.replaceState a moment later)."""
    return page.evaluate("location.href")


def wait_for_address(page, address: str) -> None:
    page.wait_for_function("(address) => location.href === address", arg=address)


# ------------------------------------------------------------------ the shell, every game


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_the_verdict_comes_into_view(opened, game, size):
    page = opened(size, f"/referee#{game}")
    load_example(page)
    page.evaluate("window.scrollTo(0, 0)")
    score(page)
    page.wait_for_function(VERDICT_IN_VIEW, arg="verdict")
    expect(page.locator("#verdict")).not_to_be_empty()
    expect(page.locator("#announce")).to_have_text(page.locator("#verdict").inner_text())
    no_sideways_scroll(page)
    assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_clear_and_the_example_can_be_undone(opened, game, size):
    page = opened(size, f"/referee#{game}")
    empty_link, empty = href(page), json_sent(page)

    load_example(page)  # a new entry of the history, and Undo offered
    example_link, example = href(page), json_sent(page)
    assert example != empty and example_link != empty_link
    expect(page.locator("#undo")).to_contain_text("The example table is in the editor.")
    expect(page.locator("#announce")).to_have_text("The example table is in the editor. Undo brings the table back.")

    page.locator("#clear").click()  # Clear, then Undo: the example is back, its link too
    expect(page.locator("#undo")).to_contain_text("The table is empty.")
    assert json_sent(page) == empty
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator("#json")).to_have_value(example)
    wait_for_address(page, example_link)
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#announce")).to_have_text("The table is back.")
    assert page.evaluate("document.activeElement.id") == "clear"  # the focus where it was

    page.go_back()  # Back after the example: the link before it, and its table
    wait_for_address(page, empty_link)
    expect(page.locator("#json")).to_have_value(empty)
    page.go_forward()
    wait_for_address(page, example_link)
    expect(page.locator("#json")).to_have_value(example)

    page.locator("#clear").click()  # Back instead of Undo: the same table back, and Undo withdrawn
    expect(page.locator("#undo")).to_be_visible()
    page.go_back()
    expect(page.locator("#json")).to_have_value(example)
    expect(page.locator("#undo")).to_be_hidden()
    assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_targets_hints_and_no_sideways_scroll(opened, game, size):
    page = opened(size, f"/referee#{game}")
    states = {"empty": lambda: None, "example": lambda: load_example(page), "scored": lambda: score(page)}
    for state, reach in states.items():
        reach()
        page.wait_for_timeout(150)
        no_sideways_scroll(page)
        text = page.locator("body").inner_text()
        if size == "phone":
            assert small_targets(page, game) == [], state
            assert "Ctrl+" not in text, f"a keyboard hint shows on a touch screen ({state})"
            expect(page.locator("#hint .keys")).to_be_hidden()
        else:
            expect(page.locator("#hint")).to_contain_text("Ctrl+Enter")
    assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_grave(opened, game, size):
    page = opened(size, f"/referee#{game}")
    assert_accessible(page)
    load_example(page)
    assert_accessible(page)
    score(page)
    page.wait_for_function(VERDICT_IN_VIEW, arg="verdict")
    page.wait_for_timeout(300)  # the picture
    assert_accessible(page)


def test_the_skip_link_jumps_past_the_table(opened):
    page = opened("laptop", "/referee#campanile")
    link = href(page)
    page.locator("#games button").last.focus()
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip the table, to the Score button")
    box = skip.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44
    page.keyboard.press("Enter")
    expect(page.locator("#score")).to_be_focused()
    assert href(page) == link  # the link still holds the table


def test_the_header_links_home(opened, base_url):
    page = opened("phone", "/referee?lang=fr#torri")
    home = page.get_by_role("link", name="Page d’accueil").first
    expect(home).to_have_attribute("href", "./?lang=fr")
    home.click()
    page.wait_for_url(f"{base_url}/?lang=fr")
    english = opened("laptop", "/referee")
    english.get_by_role("link", name="Home page").first.click()
    english.wait_for_url(f"{base_url}/")


def test_the_focus_ring_stands_out(opened):
    """The ring of a focused control: solid, 2 px at least, at 3:1 at least against what is behind it."""
    page = opened("laptop", "/referee#campanile")
    rings = []
    for _ in range(14):
        page.keyboard.press("Tab")
        rings.append(page.evaluate("""() => {
            const node = document.activeElement;
            const style = getComputedStyle(node);
            let behind = node.parentElement, fill = 'rgba(0, 0, 0, 0)';
            while (behind && /rgba\\(.*, 0\\)|transparent/.test(getComputedStyle(behind).backgroundColor)) {
              behind = behind.parentElement;
            }
            fill = behind ? getComputedStyle(behind).backgroundColor : getComputedStyle(document.documentElement).backgroundColor;
            return {name: node.getAttribute('aria-label') || node.textContent.trim().slice(0, 30),
                    style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor, fill};
        }"""))
    for ring in rings:
        assert ring["style"] == "solid" and ring["width"] >= 2, ring
        for fill in (ring["fill"], "rgb(246, 239, 226)"):  # its background, and the header's darkest
            assert contrast(ring["color"], fill) >= 3, (ring, fill)


def test_boxes_that_scroll_say_so(opened):
    """The shell's cue for a board wider than the screen: a hint before it, its edges faded where more lies."""
    page = opened("phone", "/referee#torri")
    page.evaluate("""() => {
        const box = document.createElement('div');
        box.className = 'board-scroll';
        box.id = 'wide-board';
        box.style.cssText = 'width: 200px; overflow: auto';  // (by the CSSOM: the policy refuses style attributes)
        const board = document.createElement('div');
        board.textContent = 'a board';
        board.style.cssText = 'width: 600px; height: 40px';
        box.appendChild(board);
        document.getElementById('editor').appendChild(box);
    }""")
    board = page.locator("#wide-board")
    expect(page.locator(".scroll-hint")).to_have_text(
        "The board goes on beyond its edges: swipe or scroll it to see the rest.")
    assert page.evaluate("document.getElementById('wide-board').previousElementSibling.className") == "scroll-hint"
    expect(board).to_have_attribute("data-more", "right")
    board.evaluate("(node) => { node.scrollLeft = node.scrollWidth; }")
    expect(board).to_have_attribute("data-more", "left")
    board.evaluate("(node) => { node.firstElementChild.style.width = '100px'; }")
    expect(page.locator(".scroll-hint")).to_be_hidden()
    expect(board).not_to_have_attribute("data-more", re.compile(".*"))


@pytest.mark.parametrize("game", ["sangimignano", "carcassonne"])
def test_each_board_fits_the_phone_or_says_it_scrolls(opened, game):
    page = opened("phone", f"/referee#{game}")
    load_example(page)
    page.wait_for_timeout(300)
    for box in page.locator("#editor .board-scroll").all():
        scrolls = box.evaluate("(node) => node.scrollWidth > node.clientWidth + 1")
        if scrolls and box.get_attribute("data-scroll-cues") != "own":
            expect(box).to_have_attribute("data-more", re.compile("right|left"))
            expect(page.locator("#editor .scroll-hint").first).to_be_visible()


# ------------------------------------------------------------------ Torri's and Campanile's editors


def test_the_notation_box_shows_each_line_whole(opened):
    page = opened("phone", "/referee#torri")
    area = page.locator("#notation")
    fits = "(node) => node.scrollWidth <= node.clientWidth && node.scrollHeight <= node.clientHeight + 1"
    assert area.evaluate(fits)  # the placeholder
    type_notation(page, EXAMPLE)
    assert area.evaluate(fits)  # the lines wrap, the box grows: nothing cut, nothing to scroll inside it
    rows = page.locator("#backdrop > div")
    numbers = page.locator("#gutter > div")
    expect(rows).to_have_count(2)
    expect(numbers).to_have_text(["1", "2"])
    for i in range(2):  # each number beside its line, as tall as its rows
        row, number = rows.nth(i).bounding_box(), numbers.nth(i).bounding_box()
        assert row and number and abs(row["y"] - number["y"]) < 1 and abs(row["height"] - number["height"]) < 1
    assert rows.nth(0).bounding_box()["height"] > 30  # line 1 wraps on a phone (two rows), whole
    no_sideways_scroll(page)


def test_a_refused_table_shows_its_problems_in_view(opened):
    page = opened("phone", "/referee#torri")
    type_notation(page, BROKEN)
    page.evaluate("window.scrollTo(0, 0)")
    score(page)
    page.wait_for_function(VERDICT_IN_VIEW, arg="problems")
    problems = page.locator("#problems")
    expect(problems.get_by_role("button", name="line 2, column 20")).to_be_visible()
    assert small_targets(page, "torri") == []

    campanile = opened("phone", "/referee#campanile")
    for tower in ("A", "B"):
        campanile.get_by_role("button", name=f"Tower {tower} stories: one more").click()
        campanile.get_by_role("button", name=f"Add Ada's token 3 under tower {tower}").click()
    campanile.evaluate("window.scrollTo(0, 0)")
    score(campanile)
    campanile.wait_for_function(VERDICT_IN_VIEW, arg="problems")
    expect(campanile.locator("#problems")).to_contain_text("C-COMP-4")
    assert_accessible(campanile)
    assert_accessible(page)


@pytest.mark.parametrize("language, score_button, where", [
    ("fr", "Compter les points", "ligne 2, colonne 20"),
    ("de", "Werten", "Zeile 2, Spalte 20"),
    ("it", "Conta i punti", "riga 2, colonna 20"),
])
def test_a_notation_problem_points_at_its_line_and_column_in_every_language(opened, language, score_button, where):
    page = opened("phone", f"/referee?lang={language}#torri")
    type_notation(page, BROKEN)
    page.get_by_role("button", name=score_button, exact=True).click()
    problems = page.locator("#problems")
    button = problems.get_by_role("button", name=where, exact=True)
    expect(button).to_be_visible()
    item = problems.locator("li").first
    assert not re.match(r"^\s*(ligne|Zeile|riga|line) \d", item.inner_text().split(where, 1)[1].strip())
    expect(page.locator("#gutter .bad")).to_have_text(["2"])
    expect(page.locator("#backdrop .bad-line mark")).to_have_text("8")
    button.click()
    selection = page.evaluate("() => { const a = document.getElementById('notation');"
                              " return a.value.slice(a.selectionStart, a.selectionEnd); }")
    assert selection == "8"


@pytest.mark.parametrize("size", list(SIZES))
def test_back_after_the_example_brings_an_edited_table_back(opened, size):
    page = opened(size, "/referee#torri")
    type_notation(page, ["Adso @: 8x3", "William: 9-5"])
    edited_link = href(page)
    page.get_by_role("button", name="Rulesheet example").click()
    expect(page.locator("#notation")).to_have_value("\n".join(EXAMPLE))
    page.go_back()
    wait_for_address(page, edited_link)
    expect(page.locator("#notation")).to_have_value("Adso @: 8x3\nWilliam: 9-5")

    campanile = opened(size, "/referee#campanile")
    campanile.get_by_role("button", name="Tower C stories: one more").click()
    campanile.get_by_role("button", name="Add Ada's token 2 under tower C").click()
    edited_link = href(campanile)
    campanile.get_by_role("button", name="Example table").click()
    expect(campanile.get_by_label("Tower A stories", exact=True)).to_have_value("6")
    campanile.go_back()
    wait_for_address(campanile, edited_link)
    expect(campanile.get_by_label("Tower C stories", exact=True)).to_have_value("1")
    expect(campanile.locator('.cp-tower[data-style="C"] .cp-tokens li')).to_have_count(1)


@pytest.mark.parametrize("game", OURS)
def test_every_control_is_reached_by_tab(opened, game):
    page = opened("laptop", f"/referee#{game}")
    load_example(page)
    page.locator("#score").click()
    page.wait_for_function(VERDICT_IN_VIEW, arg="verdict")
    page.evaluate("""() => document.querySelectorAll('*').forEach((node, i) => { node.dataset.k = i; })""")
    page.locator("a.home").focus()
    reached = set()
    for _ in range(250):
        key = page.evaluate("document.activeElement.dataset.k")
        if key in reached:
            break
        reached.add(key)
        page.keyboard.press("Tab")
    controls = page.evaluate("""(selector) => [...document.querySelectorAll(selector)].filter((node) => {
        const box = node.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && node.checkVisibility({visibilityProperty: true})
               && !node.disabled && !node.matches('a.skip');
      }).map((node) => [node.dataset.k, node.getAttribute('aria-label') || node.textContent.trim().slice(0, 40)])""",
                             INTERACTIVE)
    missed = [name for key, name in controls if key not in reached]
    assert not missed, f"not reached by Tab: {missed}"


def test_campanile_steppers_on_a_phone(opened):
    page = opened("phone", "/referee#campanile")
    for name in ("Tower A stories: one more", "Tower A stories: one less", "Remove player 1",
                 "Add Ada's token 1 under tower A"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (name, box)
    page.get_by_role("button", name="Tower A stories: one more").tap()
    expect(page.get_by_label("Tower A stories", exact=True)).to_have_value("1")
    page.get_by_role("button", name="Add Ada's token 1 under tower A").tap()
    chip = page.locator('.cp-tower[data-style="A"] .cp-tokens li')
    expect(chip).to_have_count(1)
    remove = chip.get_by_role("button")
    box = remove.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    expect(page.locator(".cp-none").first).to_have_css("color", "rgb(107, 92, 72)")


# ------------------------------------------------------------------ contrast


def _rgb(css: str) -> tuple[float, float, float]:
    values = [float(v) for v in re.findall(r"[\d.]+", css)[:3]]
    return values[0], values[1], values[2]


def _luminance(css: str) -> float:
    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in _rgb(css))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
