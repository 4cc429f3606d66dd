"""The replay page (/referee/replay) at the table: on a phone (390×844, touch) and a laptop (1366×768), for every game,
with a record of 50 steps whose step 26 is illegal.

- the step controls stay on screen (a sticky bar) and choosing a step in "Every step" brings the picture into view
  (its box within the window, below the bar);
- at the illegal step the picture is the position the step was tried from with the step drawn on it
  (`g.proposed.refused`) and its verdict with the rule, the caption says so, and the legal steps are folded under
  the picture, in words;
- every step is said in words (its events' sentences, from /replay), not as the record's code;
- a record refused clears the replay before it (Back brings it again); Back and Forward step through the steps seen;
- the keyboard reaches the steps (one Tab stop, ↑ ↓ inside, Enter shows the picture; the skip link past the
  board); targets of 44 px and no keyboard hints on a touch screen; axe-core finds nothing serious or critical;
- in French, the steps, the caption and the legal steps are said in French;
- /referee/games.json lists every registered game, so that a game without an editor is replayed too.
"""
from __future__ import annotations

import json
import re
from functools import cache
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from service.api.replay import proposes
from service.games.core.errors import IllegalStepError
from service.games.registry import GAMES
from tests.replay.records import whole_game

from .axe import assert_accessible
from .conftest import link_of

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SIZES = {"phone": PHONE, "laptop": LAPTOP}
LENGTH, ILLEGAL_AT = 50, 25  # the record's steps; the index of the illegal one (step 26)
PLAYERS = {game_id: min(game.info.min_players + 1, game.info.max_players) for game_id, game in GAMES.items()}


@cache
def record_of(game_id: str) -> tuple[dict, int, str]:
    """(a record of LENGTH steps of a seeded game whose step at ILLEGAL_AT is an earlier move the position refuses,
    that index, the rule it breaks)."""
    game = GAMES[game_id]
    start, moves = whole_game(game_id, {}, PLAYERS[game_id], 7)
    assert len(moves) >= LENGTH
    state = game.load_state(start).checked()
    for move in moves[:ILLEGAL_AT]:
        state = game.apply_steps(state, [move]).state
    legal = game.legal_moves_of(state)
    for candidate in reversed(moves[:ILLEGAL_AT]):
        if candidate in legal:
            continue
        try:
            game.apply_step(state, game.as_step(candidate))
        except IllegalStepError as error:
            record = {"state": start, "moves": [*moves[:ILLEGAL_AT], candidate, *moves[ILLEGAL_AT:LENGTH - 1]]}
            return record, ILLEGAL_AT, error.problems[0].rule or ""
    raise AssertionError("no earlier move is illegal here")


@cache
def replayed(game_id: str, language: str = "en") -> dict:
    record, _, _ = record_of(game_id)
    return GAMES[game_id].apply(record, replay=True, language=language)


def code_of(move: dict) -> str:
    """A move as the page writes the record's code (replay.js, describe)."""
    facts = []
    for key, value in move.items():
        if key == "type":
            continue
        if isinstance(value, list):
            pair = len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            value = "[" + ", ".join(map(str, value)) + "]" if pair else " ".join(map(str, value))
        elif isinstance(value, bool):
            value = "true" if value else "false"
        facts.append(f"{key} {value}")
    return move["type"].replace("_", " ") + (" " + ", ".join(facts) if facts else "")


@pytest.fixture
def opened(browser, base_url):
    """open(size, address): a page of that size (the phone with touch), recording errors and the API's languages."""
    contexts = []

    def open_page(size: str, address: str = "/referee/replay", locale: str = "en-GB"):
        context = browser.new_context(base_url=base_url, locale=locale, **SIZES[size])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.errors = []  # type: ignore[attr-defined]
        page.requests = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
        page.on("request", lambda request: page.requests.append(request.url))
        page.goto(address)
        ready(page)
        return page

    yield open_page
    for context in contexts:
        context.close()


def ready(page) -> None:
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def at(page, position: int) -> None:
    expect(page.locator("html")).to_have_attribute("data-position", str(position))


def paste(page, record: dict, button: str = "Replay") -> None:
    page.locator("#record").fill(json.dumps(record))
    page.get_by_role("button", name=button, exact=True).click()
    ready(page)


def settled(page) -> None:
    """The picture of the step shown is drawn (not the last one, faded)."""
    expect(page.locator("#picture svg")).to_be_visible()
    expect(page.locator("#picture")).not_to_have_class(re.compile(r"\bstale\b"))


def choose(page, size: str, position: int) -> None:
    """Choose a step in "Every step" as a person does: scrolled to it, tapped (the phone) or clicked."""
    button = page.locator(f'#steps li[data-position="{position}"] button')
    button.scroll_into_view_if_needed()
    if size == "phone":
        button.tap()
    else:
        button.click()
    at(page, position)


def picture_in_view(page) -> None:
    """The picture and its caption wholly in the window, below the bar of step controls (which stays on screen)."""
    settled(page)
    window = page.viewport_size
    figure = page.locator("#figure").bounding_box()
    bar = page.locator("#bar").bounding_box()
    assert bar["y"] >= -1 and bar["y"] + bar["height"] <= window["height"], f"the bar is off screen: {bar}"
    assert figure["y"] >= bar["y"] + bar["height"] - 1, f"the picture is under the bar: {figure}, {bar}"
    assert figure["y"] + figure["height"] <= window["height"] + 1, f"the picture runs below the window: {figure}"


def step_texts(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#steps li[data-position]')]
        .filter((li) => li.dataset.position !== '')
        .map((li) => [li.dataset.position, li.textContent]))""")


# ---------------------------------------------------------------- every game, both sizes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_refused_step_on_the_picture_and_every_step_in_words(opened, game_id, size):
    record, failed_at, rule = record_of(game_id)
    answer = replayed(game_id)
    assert answer["failed_at"] == failed_at and answer["violations"][0]["rule"] == rule
    illegal = failed_at + 1
    page = opened(size)
    paste(page, record)
    at(page, illegal)

    # the caption says which table this is and what was refused; the picture draws the refused step and the rule
    expect(page.locator("#caption")).to_have_text(f"The table before step {illegal}: step {illegal} is refused ({rule}).")
    settled(page)
    drawn_here = proposes(GAMES[game_id])
    if drawn_here:
        expect(page.locator("#picture svg g.proposed.refused")).to_have_count(1)
        expect(page.locator("#picture svg g.verdict.refused")).to_contain_text(f"Step {illegal} is refused ({rule})")
    expect(page.locator("#position")).to_contain_text(f"Step {illegal} of {LENGTH}")
    expect(page.locator("#turn")).to_contain_text("to act (as before the refused step).")

    # the legal steps, folded under the picture, in words (the codes beside them)
    legal = GAMES[game_id].legal_moves({"state": answer["states"][failed_at - 1], "texts": True})
    open_steps = page.locator("#open-steps")
    expect(open_steps.locator("summary")).to_contain_text(f"one of {len(legal['moves'])} legal step")
    expect(open_steps.locator("ul.legal li").first).to_be_hidden()
    figure = page.locator("#figure").bounding_box()
    assert page.locator("#open-steps").bounding_box()["y"] > figure["y"] + figure["height"]  # under the picture
    open_steps.locator("summary").click()
    expect(open_steps.locator("ul.legal li .words").first).to_have_text(legal["texts"][0])
    expect(open_steps.locator("ul.legal li")).to_have_count(len(legal["moves"]))

    # every step in words: its events' sentences, not the record's code
    texts = step_texts(page)
    for index, move in enumerate(record["moves"][:failed_at]):
        said = " ".join(event["text"] for event in answer["events"] if event["step"] == index)
        shown = texts[str(index + 1)]
        assert said and said in shown, (index, said, shown)
        if len(move) > 1:
            assert code_of(move) not in shown, (index, shown)
    expect(page.locator('#steps li[data-position="1"] code')).to_have_count(0)
    expect(page.locator(f'#steps li[data-position="{illegal}"]')).to_contain_text(answer["violations"][0]["message"])
    expect(page.locator("#steps li.unplayed")).to_have_count(LENGTH - illegal)
    assert_accessible(page)

    # choosing a step in the list brings the picture into view, the bar of controls on screen
    for position in (3, failed_at - 1, 12):
        choose(page, size, position)
        picture_in_view(page)
        expect(page.locator("#caption")).to_have_text(f"The table after step {position}.")
        expect(page.locator("#happened ul.events li").first).to_be_visible()
    page.mouse.wheel(0, 2000)  # the list, far below the picture on a phone
    page.wait_for_timeout(200)
    bar = page.locator("#bar").bounding_box()
    assert bar["y"] >= -1 and bar["y"] + bar["height"] <= page.viewport_size["height"]  # the bar stays on screen
    page.locator("#next").click()
    at(page, 13)
    if size == "phone":  # the picture had scrolled away with the list: the bar's ▶ brings it back
        picture_in_view(page)
    assert_accessible(page)

    # "Show it" brings the refused step's picture into view
    page.get_by_role("button", name="Show it").click()
    at(page, illegal)
    picture_in_view(page)
    if not drawn_here:
        pytest.xfail(f"{game_id}'s picture does not draw a proposed step yet (its draw takes no `proposal`): the page "
                     "shows the position the step was tried from, without the step on it")
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_back_and_forward_step_through_what_was_seen(opened, size):
    record, failed_at, _ = record_of("campanile")
    page = opened(size)
    paste(page, record)
    at(page, failed_at + 1)
    choose(page, size, 5)
    choose(page, size, 9)
    page.locator("#previous").click()
    at(page, 8)
    link_of(page, "^#campanile/8:")
    page.go_back()
    at(page, 9)
    page.go_back()
    at(page, 5)
    page.go_back()
    at(page, failed_at + 1)
    page.go_forward()
    at(page, 5)
    expect(page.locator('#steps li.current')).to_have_attribute("data-position", "5")
    expect(page.locator("#caption")).to_have_text("The table after step 5.")
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_record_clears_the_replay_before_it(opened, size):
    record, failed_at, _ = record_of("torri")
    page = opened(size)
    paste(page, record)
    at(page, failed_at + 1)
    link = link_of(page, f"^#torri/{failed_at + 1}:")

    page.locator("#record").fill('{"moves": []}')
    page.get_by_role("button", name="Replay", exact=True).click()
    expect(page.locator("#problems")).to_contain_text("This is not a game record")
    expect(page.locator("#problems")).to_be_in_viewport()
    for gone in ("#stage", "#verdict", "#share", "#skip-board"):
        expect(page.locator(gone)).to_be_hidden()
    expect(page.locator("#steps li")).to_have_count(0)
    expect(page.locator("#picture svg")).to_have_count(0)
    assert page.locator("html").get_attribute("data-position") is None
    assert urlsplit(link_of(page, "^$")).fragment == ""  # the link holds no old record
    assert_accessible(page)

    # Back brings the replay again, at its step
    page.go_back()
    ready(page)
    at(page, failed_at + 1)
    expect(page.locator("#stage")).to_be_visible()
    expect(page.locator("#problems")).to_be_hidden()

    # a record the service refuses (a move it does not know) clears it too, and says why
    start = GAMES["torri"].new({"seed": 1, "names": ["Ada", "Bea"]})["state"]
    paste(page, {"state": start, "moves": [{"type": "fly"}]})
    expect(page.locator("#problems")).to_contain_text("/moves/0/type")
    expect(page.locator("#stage")).to_be_hidden()
    expect(page.locator("#verdict")).to_be_hidden()
    expect(page.locator("#steps li")).to_have_count(0)
    page.locator("#record").fill("{not json")
    page.get_by_role("button", name="Replay", exact=True).click()
    expect(page.locator("#problems")).to_contain_text("This is not JSON")
    assert page.errors == [] or all("422" in error or "400" in error for error in page.errors), page.errors


def test_the_keyboard_reaches_every_step(opened):
    record, failed_at, _ = record_of("sangimignano")
    illegal = failed_at + 1
    page = opened("laptop")
    paste(page, record)
    at(page, illegal)

    # Tab from the record reaches the list: one Tab stop, the current step
    page.locator("#record").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('#steps')"):
            break
    else:
        pytest.fail("Tab never reaches the steps")
    focused = page.locator("#steps button.go:focus")
    expect(focused).to_have_attribute("data-position", str(illegal))
    expect(focused).to_have_attribute("aria-current", "step")
    expect(page.locator('#steps button.go[tabindex="0"]')).to_have_count(1)
    page.keyboard.press("ArrowUp")
    at(page, illegal - 1)
    expect(page.locator("#steps button.go:focus")).to_have_attribute("data-position", str(illegal - 1))
    for _ in range(5):
        page.keyboard.press("ArrowUp")
    at(page, illegal - 6)
    page.keyboard.press("ArrowDown")
    at(page, illegal - 5)
    page.keyboard.press("Home")
    at(page, 0)
    expect(page.locator("#steps button.go:focus")).to_have_attribute("data-position", "0")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    at(page, 2)
    picture_in_view(page)
    page.keyboard.press("Shift+Tab")  # out of the list, and back in at the current step
    page.keyboard.press("Tab")
    expect(page.locator("#steps button.go:focus")).to_have_attribute("data-position", "2")

    # the skip link: the keyboard reaches it before the controls, and it goes past the board to the steps
    page.get_by_role("button", name="Show it").focus()
    page.keyboard.press("Tab")
    skip = page.locator("#skip-board")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#steps button.go:focus")).to_have_attribute("data-position", "2")

    # the focus ring: 3 px, solid, in the accent colour
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }""")
    assert ring == ["solid", "3px", "rgb(122, 47, 34)"], ring
    assert page.errors == []


def test_touch_screens_have_big_targets_and_no_keyboard_hints(opened):
    record, failed_at, _ = record_of("carcassonne")
    page = opened("phone")
    expect(page.locator("#hint")).to_be_hidden()
    paste(page, record)
    at(page, failed_at + 1)
    expect(page.locator("#steps-hint")).to_be_hidden()
    page.locator("#open-steps summary").tap()
    small = page.evaluate("""() => [...document.querySelectorAll(
            'button, a[href], input, select, textarea, summary, label.file')]
        // the language picker is the shell's; the skip link is out of sight until focused (then checked below)
        .filter((node) => node.checkVisibility() && !node.closest('.languages') && !node.matches('a.skip'))
        // links inside a sentence are exempt (WCAG 2.5.8: inline targets): the header's and the footer's
        .filter((node) => !(node.matches('a') && (node.closest('header p') || node.closest('footer'))))
        .map((node) => { const box = node.getBoundingClientRect();
                         return {what: node.id || node.className || node.tagName, w: box.width, h: box.height}; })
        .filter((box) => box.w < 44 || box.h < 44)""")
    small = [box for box in small if box["what"] != "file"]  # the file input itself is invisible: its label is the target
    assert not small, small
    page.locator("#skip-board").focus()
    skip = page.locator("#skip-board").bounding_box()
    assert skip["height"] >= 44 and skip["width"] >= 44, skip

    laptop = opened("laptop")
    expect(laptop.locator("#hint")).to_be_visible()
    paste(laptop, record)
    expect(laptop.locator("#steps-hint")).to_be_visible()
    assert page.errors == [] and laptop.errors == []


# ---------------------------------------------------------------- in French


@pytest.mark.parametrize("game_id", ["torri", "carcassonne"])
def test_in_french_the_steps_are_said_in_french(opened, game_id):
    record, failed_at, rule = record_of(game_id)
    french = replayed(game_id, "fr")
    english = replayed(game_id)
    illegal = failed_at + 1
    page = opened("phone", "/referee/replay?lang=fr")
    paste(page, record, "Rejouer")
    at(page, illegal)
    expect(page.locator("#caption")).to_have_text(
        f"La table avant l’étape {illegal} : l’étape {illegal} est refusée ({rule}).")
    if proposes(GAMES[game_id]):
        settled(page)
        expect(page.locator("#picture svg g.verdict.refused")).to_contain_text(rule)
    texts = step_texts(page)
    for index in range(failed_at):
        said = " ".join(event["text"] for event in french["events"] if event["step"] == index)
        assert said in texts[str(index + 1)], (index, said, texts[str(index + 1)])
    first = next(event["text"] for event in english["events"] if event["step"] == 0)
    assert first not in texts["1"]  # not the English
    expect(page.locator(f'#steps li[data-position="{illegal}"]')).to_contain_text(french["violations"][0]["message"])
    legal = GAMES[game_id].legal_moves({"state": french["states"][failed_at - 1], "texts": True}, "fr")
    page.locator("#open-steps summary").tap()
    expect(page.locator("#open-steps ul.legal li .words").first).to_have_text(legal["texts"][0])
    choose(page, "phone", 4)
    picture_in_view(page)
    expect(page.locator("#caption")).to_have_text("La table après l’étape 4.")
    assert_accessible(page)
    assert page.errors == []


# ---------------------------------------------------------------- every game, editor or not


def test_games_json_lists_every_game(client):
    from service.api.referee import editor_folder

    games = client.get("/referee/games.json").get_json()["games"]
    assert [game["id"] for game in games] == list(GAMES)
    for game in games:
        assert (game["editor"] is None) is (editor_folder(game["id"]) is None)
        assert game["title"] == GAMES[game["id"]].info.title


def test_a_game_without_an_editor_is_replayed(opened, monkeypatch):
    """With Campanile's editor gone (as for a game that has none), games.json still lists it (editor null) and the
    replay page replays it."""
    import service.api.referee as referee

    real = referee.editor_folder
    monkeypatch.setattr(referee, "editor_folder", lambda game_id: None if game_id == "campanile" else real(game_id))
    record, failed_at, _ = record_of("campanile")
    page = opened("laptop")
    listed = page.evaluate("() => fetch('games.json').then((r) => r.json())")
    assert {game["id"]: game["editor"] for game in listed["games"]}["campanile"] is None
    paste(page, record)
    at(page, failed_at + 1)
    expect(page.locator("#verdict")).to_contain_text(f"Step {failed_at + 1} of {LENGTH} breaks a rule")
    assert page.errors == []
