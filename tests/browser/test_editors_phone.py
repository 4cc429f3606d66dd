"""San Gimignano's and Carcassonne's editors at the table: on a phone (390×844, a touch screen) and on a laptop
(1366×768).

- One drawing of San Gimignano's board: the editor lays every hexagon where the picture (/picture) draws it, each
  guild space turned the same way (hexagon 0,-1 top left in both).
- The Tower tool on a space with tokens builds the tower and sends the tokens home (S-BUILD-2): the table is one
  the API accepts; a token on a tower is refused with the rule (S-BUILD-3).
- A board wider than the screen says so (the shell's cues) and fits the width at a touch; Carcassonne's board opens
  on its tiles, from the example and from a link.
- The keyboard: each board is one Tab stop (arrow keys inside it), the Carcassonne example a handful of Tab stops;
  the focus stays on the board after laying a hexagon, or a piece.
- Words where people expect words: a meeple's feature ("road (east)"), a tile ("city north; road east and west"),
  in English and French; a prisoner named; pennants drawn apart from the players' blue.
- On the phone every control of the editors is a target of 44 px at least; axe-core finds nothing serious or
  critical at both sizes.
"""
from __future__ import annotations

import json
import math
import re

import pytest
from playwright.sync_api import expect

from .axe import assert_accessible
from .conftest import link_of

SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}
GAMES = ("sangimignano", "carcassonne")
PREFIX = {"sangimignano": "sg", "carcassonne": "kc"}
PIECES = {"sangimignano": "#editor g.sg-hex", "carcassonne": "#editor .kc-tile"}
EXAMPLE_SIZE = {"sangimignano": 12, "carcassonne": 72}


@pytest.fixture(params=list(SCREENS))
def screen(request, browser, base_url):
    """A fresh page on a phone or a laptop, recording every page error."""
    context = browser.new_context(base_url=base_url, **SCREENS[request.param])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.screen = request.param  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()


def open_game(page, game: str, language: str | None = None, fragment: str = "") -> None:
    page.goto("/referee" + (f"?lang={language}" if language else "") + "#" + game + fragment)
    page.wait_for_selector("html[data-ready=true]")
    if game == "carcassonne":
        page.wait_for_selector("[data-tiles=ready]")


def open_example(page, game: str, language: str | None = None) -> None:
    open_game(page, game, language)
    page.locator("#example").click()
    expect(page.locator(PIECES[game])).to_have_count(EXAMPLE_SIZE[game])


def press(page, locator) -> None:
    """A tap on the phone, a click on the laptop."""
    if page.screen == "phone":
        locator.tap()
    else:
        locator.click()


def sent(page) -> dict:
    return json.loads(page.locator("#json").input_value())


# ---------------------------------------------------------------- one drawing of San Gimignano's board

PLACES = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].map((node) => [node.dataset.at || node.getAttribute('data-at'),
                                                                         node.getBoundingClientRect()]);
  const left = Math.min(...boxes.map(([, b]) => b.left)), right = Math.max(...boxes.map(([, b]) => b.right));
  const top = Math.min(...boxes.map(([, b]) => b.top)), bottom = Math.max(...boxes.map(([, b]) => b.bottom));
  return Object.fromEntries(boxes.map(([at, b]) => [at, [((b.left + b.right) / 2 - left) / (right - left),
                                                         ((b.top + b.bottom) / 2 - top) / (bottom - top)]]));
}"""

TURNS = """([hexagon, space]) => {
  const box = document.querySelector(hexagon).getBoundingClientRect();
  const cx = (box.left + box.right) / 2, cy = (box.top + box.bottom) / 2;
  return Object.fromEntries([...document.querySelectorAll(hexagon + ' ' + space)].map((node) => {
    const b = node.querySelector('polygon').getBoundingClientRect();
    return [node.dataset.guild || node.getAttribute('data-guild'),
            Math.atan2(cy - (b.top + b.bottom) / 2, (b.left + b.right) / 2 - cx) * 180 / Math.PI];
  }));
}"""


def test_the_editor_lays_the_board_as_the_picture_draws_it(screen):
    page = screen
    open_example(page, "sangimignano")
    page.locator("#score").click()
    expect(page.locator("#picture svg g.hexagon")).to_have_count(12)
    editor = page.evaluate(PLACES, "#editor g.sg-hex")
    picture = page.evaluate(PLACES, "#picture g.hexagon")
    assert editor.keys() == picture.keys()
    for at, (x, y) in picture.items():  # every hexagon at the same place of the board's frame
        assert math.dist(editor[at], (x, y)) < 0.02, (at, editor[at], (x, y))
    # hexagon 0,-1: in the top row, left of the middle, in both
    x, y = editor["0,-1"]
    assert y < min(other[1] for other in editor.values()) + 0.01 and x < 0.5, editor["0,-1"]
    # and its guild spaces turned the same way
    ours = page.evaluate(TURNS, ['#editor g.sg-hex[data-at="0,-1"]', "g.sg-space"])
    theirs = page.evaluate(TURNS, ['#picture g.hexagon[data-at="0,-1"]', "g.space"])
    assert ours.keys() == theirs.keys()
    for guild, angle in theirs.items():
        assert abs((ours[guild] - angle + 180) % 360 - 180) < 3, (guild, ours[guild], angle)
    assert page.errors == []


# ---------------------------------------------------------------- the Tower tool on tokens

def test_a_tower_built_on_tokens_sends_them_home(screen):
    page = screen
    open_example(page, "sangimignano")
    before = sent(page)["state"]
    h = next(i for i, hexagon in enumerate(before["board"]) if hexagon["at"] == [0, 0])
    assert before["board"][h]["tokens"][0] == [0, 2] and before["board"][h]["towers"][0] is None  # Ada's, Cy's
    space = page.locator('#editor g.sg-hex[data-at="0,0"] g.sg-space[data-guild="A"]')
    press(page, page.locator('.sg-tool[data-tool="tower"]'))
    press(page, page.locator(".chooser-player").nth(1))  # Bea
    press(page, space)
    expect(space).to_have_attribute("aria-label", "Guild A space of the hexagon at 0,0: Bea's tower")
    expect(page.locator(".sg-status")).to_contain_text("S-BUILD-2")
    expect(page.locator(".sg-status")).to_be_visible()
    after = sent(page)
    assert after["state"]["board"][h]["tokens"][0] == [] and after["state"]["board"][h]["towers"][0] == 1
    answer = page.request.post("/v1/games/sangimignano/validate", data=after)
    assert answer.ok, answer.text()
    assert answer.json()["errors"] == []
    page.locator("#score").click()
    expect(page.locator("#breakdown td.towers")).to_have_text(["3", "4", "2"])
    expect(page.locator("#problems")).to_be_hidden()

    # a token on the tower is refused, with the rule
    press(page, page.locator('.sg-tool[data-tool="token"]'))
    press(page, space)
    expect(page.locator(".sg-status")).to_contain_text("S-BUILD-3")
    expect(space).to_have_attribute("aria-label", "Guild A space of the hexagon at 0,0: Bea's tower")
    assert sent(page) == after
    assert page.errors == []


def test_a_rule_broken_is_drawn_over_the_neighbours(screen):
    page = screen
    open_example(page, "sangimignano")
    press(page, page.locator(".chooser-player").nth(2))
    press(page, page.locator('#editor g.sg-hex[data-at="0,0"] g.sg-space[data-guild="A"]'))  # a third token
    expect(page.locator('#editor g.sg-hex.bad[data-at="0,0"] text.sg-rule')).to_have_text("S-TOKEN-1")
    # the hexagon marked comes after every other one: its rule is drawn over them, on its own band
    order = page.locator("#editor g.sg-hex").evaluate_all("(nodes) => nodes.map((n) => n.classList.contains('bad'))")
    assert order == [False] * 11 + [True]
    expect(page.locator('#editor g.sg-hex.bad[data-at="0,0"] .sg-rule-tag rect')).to_have_count(1)
    assert page.errors == []


# ---------------------------------------------------------------- the board fits, or shows that it scrolls

IN_VIEW = """() => {
  const box = document.querySelector('#editor .board-scroll').getBoundingClientRect();
  const tiles = [...document.querySelectorAll('#editor .kc-tile')].map((node) => node.getBoundingClientRect());
  const seen = tiles.filter((r) => r.right > box.left + 4 && r.left < box.right - 4 && r.bottom > box.top + 4
                                   && r.top < box.bottom - 4);
  const x = tiles.reduce((sum, r) => sum + r.left + r.width / 2, 0) / tiles.length;
  const y = tiles.reduce((sum, r) => sum + r.top + r.height / 2, 0) / tiles.length;
  return {seen: seen.length, middle: x > box.left && x < box.right && y > box.top && y < box.bottom};
}"""
WIDE = "(box) => box.scrollWidth > box.clientWidth + 1"


def expect_tiles_in_view(page) -> None:
    page.wait_for_timeout(200)  # (the view goes to the tiles once the board is drawn)
    view = page.evaluate(IN_VIEW)
    assert view["middle"] and view["seen"] >= 20, view


@pytest.mark.parametrize("game", GAMES)
def test_the_board_fits_or_shows_that_it_scrolls(screen, game):
    page = screen
    open_example(page, game)
    box = page.locator("#editor .board-scroll")
    fit = page.locator(f"#editor .{PREFIX[game]}-fit")
    if game == "carcassonne":
        expect_tiles_in_view(page)
    if box.evaluate(WIDE):
        # the shell's cues: the edge faded where more lies beyond, a hint just before the box
        expect(box).to_have_attribute("data-more", re.compile(r"\b(left|right)\b"))
        expect(page.locator("#editor .scroll-hint")).to_be_visible()
        assert page.evaluate("() => document.querySelector('#editor .board-scroll').previousElementSibling"
                             ".classList.contains('scroll-hint')")
        assert box.evaluate("(box) => box.scrollLeft") > 0  # opened on the hexagons or tiles, not on its left edge
        expect(fit).to_be_visible()
        expect(fit).to_have_attribute("aria-pressed", "false")
        press(page, fit)
        expect(fit).to_have_attribute("aria-pressed", "true")
        page.wait_for_function(f"() => !({WIDE})(document.querySelector('#editor .board-scroll'))")
        # every hexagon or tile within the box's width
        assert page.evaluate("""(selector) => {
          const box = document.querySelector('#editor .board-scroll').getBoundingClientRect();
          return [...document.querySelectorAll(selector)].every((node) => {
            const r = node.getBoundingClientRect();
            return r.left >= box.left - 1 && r.right <= box.right + 1;
          });
        }""", PIECES[game])
        press(page, fit)  # and back to the board at its size
        expect(fit).to_have_attribute("aria-pressed", "false")
        page.wait_for_function(f"() => ({WIDE})(document.querySelector('#editor .board-scroll'))")
    else:
        assert page.screen == "laptop", "a phone is narrower than these boards"
        expect(fit).to_be_hidden()  # nothing to fit
    if game == "carcassonne":  # a link to the table opens on its tiles too
        other = page.context.new_page()
        open_game(other, game, fragment=link_of(page, f"^#{game}:").split("#" + game, 1)[1])
        expect(other.locator(PIECES[game])).to_have_count(EXAMPLE_SIZE[game])
        expect_tiles_in_view(other)
    assert page.errors == []


# ---------------------------------------------------------------- the keyboard

TAB_STOP = """() => {
  const node = document.activeElement;
  if (!node || !document.getElementById('editor').contains(node)) return null;
  const board = node.closest('.sg-board, .kc-board'), palette = node.closest('.kc-palette');
  return board ? 'board' : palette ? 'palette' : node.tagName + '.' + (node.getAttribute('class') || '');
}"""


# the focus ring's colour, and the colours it lies on: the board's paper, and the guild spaces or the tiles' fields
RING = """(game) => {
  const board = getComputedStyle(document.querySelector('#editor .board-scroll')).backgroundColor;
  if (game === 'sangimignano') {
    const ring = getComputedStyle(document.querySelector('#editor .sg-ring.outer')).stroke;
    const fills = [...new Set([...document.querySelectorAll('#editor .sg-space polygon')]
                              .map((node) => getComputedStyle(node).fill))];
    return [ring, [board, ...fills]];
  }
  return [getComputedStyle(document.activeElement).outlineColor, [board, 'rgb(139, 195, 74)', 'rgb(161, 136, 127)']];
}"""


def luminance(colour: str) -> float:
    red, green, blue = (int(part) / 255 for part in re.findall(r"\d+", colour)[:3])
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def tab_stops(page) -> list[str]:
    """Each Tab stop through the editor, from its first control to the first outside it."""
    page.locator("#editor").locator("input, button, select").first.focus()
    stops = [page.evaluate(TAB_STOP)]
    for _ in range(200):
        page.keyboard.press("Tab")
        stop = page.evaluate(TAB_STOP)
        if stop is None:
            return stops
        stops.append(stop)
    raise AssertionError(f"the Tab key never leaves the editor: {stops[:40]}")


@pytest.mark.parametrize("game", GAMES)
def test_each_board_is_one_tab_stop_with_arrow_keys_inside(screen, game):
    page = screen
    open_example(page, game)
    stops = tab_stops(page)
    assert stops.count("board") == 1, stops
    assert stops.count("palette") <= 1, stops
    assert len(stops) <= 30, stops  # a handful, not 162
    if game == "carcassonne":  # with tiles left, the palette is one Tab stop too
        page.locator("#clear").click()
        expect(page.locator("#editor .kc-tile")).to_have_count(1)
        stops = tab_stops(page)
        assert stops.count("palette") == 1 and stops.count("board") == 1, stops
        assert len(stops) <= 30, stops
        page.locator("#editor .kc-palette [tabindex='0']").focus()
        first = page.evaluate("() => document.activeElement.dataset.tile")
        page.keyboard.press("ArrowRight")
        assert page.evaluate(TAB_STOP) == "palette"
        assert page.evaluate("() => document.activeElement.dataset.tile") != first
        page.locator("#example").click()  # the example back
        expect(page.locator(PIECES[game])).to_have_count(EXAMPLE_SIZE[game])
    # the arrow keys inside the board: to the next cell that way
    current = page.locator("#editor .board-scroll [tabindex='0']")
    expect(current).to_have_count(1)
    current.focus()
    page.keyboard.press("ArrowRight")  # (the keyboard's focus: its ring shows)
    # the focus ring: 3:1 at least against the board and what it lies on
    ring, around = page.evaluate(RING, game)
    assert around and all(contrast(ring, colour) >= 3 for colour in around), (ring, around)
    for key, axis, sign in (("ArrowRight", 0, 1), ("ArrowDown", 1, 1), ("ArrowLeft", 0, -1), ("ArrowUp", 1, -1)):
        before = page.evaluate("() => { const r = document.activeElement.getBoundingClientRect(); "
                               "return [r.left + r.width / 2, r.top + r.height / 2]; }")
        page.keyboard.press(key)
        after = page.evaluate("() => { const r = document.activeElement.getBoundingClientRect(); "
                              "return [r.left + r.width / 2, r.top + r.height / 2]; }")
        assert page.evaluate(TAB_STOP) == "board", key
        assert (after[axis] - before[axis]) * sign > 1, (key, before, after)
        expect(page.locator("#editor .board-scroll [tabindex='0']")).to_have_count(1)  # still one Tab stop
    assert page.errors == []


def test_the_focus_stays_on_the_board_after_laying_a_hexagon(screen):
    page = screen
    open_game(page, "sangimignano")
    page.locator('#editor g.sg-free[data-at="0,0"]').focus()
    page.keyboard.press("Enter")  # a hexagon laid by the keyboard
    expect(page.locator("#editor g.sg-hex")).to_have_count(1)
    focused = "() => { const node = document.activeElement; const hexagon = node && node.closest('g.sg-hex');" \
              " return hexagon ? hexagon.getAttribute('data-at') : node && node.closest('g.sg-free') ? 'free' : null; }"
    assert page.evaluate(focused) == "0,0"
    for _ in range(6):  # the arrow keys to a free cell beside it
        page.keyboard.press("ArrowRight")
        if page.evaluate(focused) == "free":
            break
    at = page.evaluate("() => document.activeElement.getAttribute('data-at')")
    page.keyboard.press("Enter")
    expect(page.locator("#editor g.sg-hex")).to_have_count(2)
    assert page.evaluate(focused) == at
    # a token put by the keyboard: the focus stays on its space (its name says the token now)
    page.keyboard.press("Enter")
    assert page.evaluate(focused) == at
    expect(page.locator("#editor g.sg-space:focus")).to_have_attribute("aria-label", re.compile(r"token of Ada$"))
    # a hexagon laid by a tap or a click: the focus on it too
    free = page.locator("#editor g.sg-free").first
    at = free.get_attribute("data-at")
    press(page, free)
    expect(page.locator("#editor g.sg-hex")).to_have_count(3)
    assert page.evaluate(focused) == at
    # and the focus ring drawn over the board, around it
    expect(page.locator("#editor .sg-ring.outer")).not_to_have_attribute("hidden", "")
    assert page.errors == []


# ---------------------------------------------------------------- words where people expect words

WORDS = {
    None: {"start": "city north; road east and west",
           "features": ["road (east)", "city (north)", "field (east side, north half)", "field (east side, south half)"],
           "put": "Put Ada's meeple on road (east) at 0,0", "pennant": "pennant", "held": "Bea"},
    "fr": {"start": "ville nord ; route est et ouest",
           "features": ["route (est)", "ville (nord)", "pré (côté est, moitié nord)", "pré (côté est, moitié sud)"],
           "put": "Mettre le meeple de Ada sur route (est) en 0,0", "pennant": "blason", "held": "Bea"},
}
CODE = re.compile(r"\b(BA|TO)/|^[NESW][LR]?$")
# the colour of the pennant of a tile's drawing in the palette (its shield's top left, at rotation 0), as drawn
PENNANT = """async (tile) => {
  const img = document.querySelector(`#editor .kc-pick[data-tile="${tile}"] img`);
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0, 64, 64);
  const [r, g, b] = context.getImageData(40, 6, 1, 1).data;
  return r > 230 && g > 230 && b > 230 ? 'white' : `rgb(${r}, ${g}, ${b})`;
}"""


@pytest.mark.parametrize("language", list(WORDS))
def test_tiles_and_meeples_are_said_in_words(screen, language):
    page = screen
    words = WORDS[language]
    open_game(page, "carcassonne", language)
    # the palette's tiles: words (their ids kept in titles, beside the words)
    names = page.locator("#editor .kc-pick").evaluate_all("(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")
    assert names and not [name for name in names if CODE.search(name)], names
    pick = page.locator('#editor .kc-pick[data-tile="BA/CccR+"]')
    assert words["pennant"] in pick.get_attribute("aria-label")
    assert "BA/CccR+" in pick.get_attribute("title")
    # the start tile and its features
    start = page.locator('#editor .kc-tile[data-at="0,0"]')
    expect(start).to_have_attribute("aria-label", re.compile(re.escape(words["start"]) + "$"))
    press(page, page.locator('.kc-tool[data-tool="choose"]'))
    press(page, start)
    features = page.locator("#editor .kc-feature")
    expect(features).to_have_text(words["features"])
    expect(page.get_by_role("button", name=words["put"], exact=True)).to_be_visible()
    press(page, features.first)
    here = page.locator("#editor .kc-here")
    expect(here).to_contain_text(words["features"][0])
    assert not CODE.search(start.get_attribute("aria-label"))
    # a prisoner: the meeple's owner named beside its colour
    page.locator(".kc-tower-option input").check()
    page.locator(".kc-prisoners select").first.select_option("1")
    prisoner = page.locator("#editor .kc-prisoner")
    expect(prisoner).to_have_count(1)
    expect(prisoner).to_contain_text(words["held"])
    # pennants: white shields, not the blue of a player's meeples
    assert page.evaluate(PENNANT, 'BA/CccR+') == "white"
    expect(page.locator("#editor .kc-legend")).to_contain_text(words["pennant"])
    assert page.errors == []


# ---------------------------------------------------------------- targets and axe-core

SMALL = """() => [...document.querySelectorAll(
    '#editor button, #editor input, #editor select, #editor [role=button], #editor a[href], #editor summary')]
  .filter((node) => node.getClientRects().length && !node.closest('[hidden]'))
  .filter((node) => {
    const r = node.getBoundingClientRect();
    if (r.width >= 44 && r.height >= 44) return false;
    // a checkbox: its label is the target
    const label = node.type === 'checkbox' && node.closest('label');
    const l = label && label.getBoundingClientRect();
    return !(l && l.width >= 44 && l.height >= 44);
  })
  .map((node) => node.tagName + '.' + (node.getAttribute('class') || '') + ' '
       + (node.getAttribute('aria-label') || node.textContent || '').slice(0, 40))"""


@pytest.mark.parametrize("game", GAMES)
def test_targets_and_axe_core(screen, game):
    page = screen
    open_example(page, game)
    if game == "carcassonne":
        page.locator(".kc-tower-option input").check()
        press(page, page.locator('.kc-tool[data-tool="choose"]'))
        press(page, page.locator('#editor .kc-tile[data-at="0,0"]'))
        page.locator(".kc-prisoners select").first.select_option("1")
        expect(page.locator("#editor .kc-feature").first).to_be_visible()
    else:
        press(page, page.locator('.sg-tool[data-tool="hexagon"]'))
        press(page, page.locator('#editor g.sg-hex[data-at="0,0"] g.sg-space').first)
        expect(page.locator("#editor .sg-panel select")).to_have_count(3)
    if page.screen == "phone":
        assert page.evaluate(SMALL) == []
    assert_accessible(page)
    page.locator("#editor .board-scroll [tabindex='0']").focus()
    assert_accessible(page)  # the focus ring on the board
    assert page.errors == []
