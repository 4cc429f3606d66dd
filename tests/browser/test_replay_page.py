"""The replay page (/referee/replay) as a referee uses it, for every game and variant: a seeded whole game with one
illegal step inserted is pasted, the page lands on the illegal step, names the rule (its id, its text from the
catalogue, the service's sentence) and the steps that were open, steps back and forward by keys, and its link
reopens the same record at the same step. Screenshots at both sizes; nothing scrolls sideways."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from service.games.core.game import Capability
from service.games.registry import GAMES
from tests.replay.records import cases, disputed

from .conftest import check_both_sizes, link_of


CASES = cases()


def open_page(page, fragment: str = "") -> None:
    page.goto("/referee/replay" + fragment)
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def paste(page, record: dict) -> None:
    page.locator("#record").fill(json.dumps(record))
    page.get_by_role("button", name="Replay", exact=True).click()
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def at(page, position: int) -> None:
    expect(page.locator("html")).to_have_attribute("data-position", str(position))


def drawn(page, game_id: str) -> None:
    """The table is drawn where the game draws (Capability.PICTURE); a game that does not shows no picture."""
    if GAMES[game_id].offers(Capability.PICTURE):
        expect(page.locator("#picture svg")).to_be_visible()
    else:
        expect(page.locator("#picture svg")).to_have_count(0)


@pytest.mark.parametrize(("game_id", "variant", "players"), CASES)
def test_the_page_lands_on_the_illegal_step_and_explains_it(page, browser, base_url, screenshots, game_id, variant,
                                                            players):
    case = disputed(game_id, variant, players)
    answer = GAMES[game_id].apply(case.record, replay=True)
    violation = answer["violations"][0]
    rule = next(rule for rule in GAMES[game_id].rules() if rule["id"] == case.rule)
    illegal = case.failed_at + 1
    open_page(page)
    paste(page, case.record)

    at(page, illegal)
    expect(page.locator("#verdict")).to_contain_text(f"Step {illegal} of {len(case.record['moves'])} breaks a rule")
    expect(page.locator("#verdict .rule-id")).to_have_text(case.rule)
    ruling = page.locator("#ruling")
    expect(ruling).to_be_visible()
    expect(ruling.locator(".sentence")).to_have_text(f"{case.rule} {violation['message']}")
    expect(ruling.locator(".rule-text")).to_contain_text(rule["text"])
    expect(ruling.locator(".open-steps h4")).to_contain_text(f"one of {case.legal_before} legal step")
    expect(ruling.locator("ul.legal li")).to_have_count(case.legal_before)
    expect(ruling.locator("ul.legal li").first).to_be_hidden()  # folded under the picture
    ruling.locator(".open-steps summary").click()
    expect(ruling.locator("ul.legal li").first).to_be_visible()
    marked = page.locator("#steps li.illegal")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-position", str(illegal))
    expect(marked).to_have_class("step illegal current")
    expect(marked.locator(".badge")).to_have_text(f"✗ {case.rule}")
    expect(page.locator("#steps li.unplayed")).to_have_count(len(case.record["moves"]) - illegal)
    drawn(page, game_id)
    expect(page.locator("#scores .chip")).to_have_count(players)

    # back and forward by keys: each step shows what happened in the service's words
    page.locator("#board-title").click()
    page.keyboard.press("ArrowLeft")
    at(page, illegal - 1)
    said = [event["text"] for event in answer["events"] if event["step"] == case.failed_at - 1]
    expect(page.locator("#happened ul.events li")).to_have_text(said)
    expect(page.locator("#ruling")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at(page, illegal - 3)
    page.keyboard.press("ArrowRight")
    at(page, illegal - 2)
    page.keyboard.press("Home")
    at(page, 0)
    expect(page.locator("#position")).to_have_text("The start")
    page.keyboard.press("End")
    at(page, illegal)
    page.keyboard.press("ArrowRight")  # nothing after the illegal step is replayed
    at(page, illegal)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at(page, illegal - 2)
    drawn(page, game_id)

    if not variant:  # each game once (its base game), at both sizes
        page.keyboard.press("End")
        at(page, illegal)
        page.locator("#open-steps summary").click()
        expect(page.locator("#open-steps ul.legal li").first).to_be_visible()
        drawn(page, game_id)
        check_both_sizes(page, screenshots, f"replay-{game_id}")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        at(page, illegal - 2)

    # the link reopens the same record at the same step, in a fresh browser
    link = link_of(page, f"^#{game_id}/{illegal - 2}:")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url)
    try:
        other = context.new_page()
        other.goto(link)
        expect(other.locator("html")).to_have_attribute("data-ready", "true")
        at(other, illegal - 2)
        expect(other.locator("#steps li.illegal")).to_have_attribute("data-position", str(illegal))
        assert json.loads(other.locator("#record").input_value()) == case.record
    finally:
        context.close()
    assert all(url.startswith(base_url) for url in page.requests), page.requests  # nothing from elsewhere
    assert page.errors == []


def test_a_whole_tower_game_is_replayed_from_one_answer(page):
    """About 200 steps of Carcassonne with The Tower: one /replay, and a step shown twice is fetched once."""
    case = disputed("carcassonne", {"tower": True}, 4)
    assert len(case.record["moves"]) >= 200
    record = {"state": case.record["state"], "moves": case.record["moves"][:case.failed_at]
              + case.record["moves"][case.failed_at + 1:]}  # the game as played: every step legal
    open_page(page)
    paste(page, record)
    last = len(record["moves"])
    at(page, last)
    expect(page.locator("#verdict")).to_contain_text("Every step is legal.")
    expect(page.locator("#turn")).to_have_text("The game is over.")
    expect(page.locator("#happened ul.events li").last).to_contain_text("the game is over")
    expect(page.locator("#picture svg")).to_be_visible()
    page.locator("#board-title").click()
    for _ in range(40):
        page.keyboard.press("ArrowLeft")
    at(page, last - 40)
    expect(page.locator("#steps li.current")).to_have_attribute("data-position", str(last - 40))
    expect(page.locator("#picture svg")).to_be_visible()
    expect(page.locator("#picture")).not_to_have_class("drawing stale")
    pictures = [url for url in page.requests if url.endswith("/picture")]
    page.keyboard.press("End")
    at(page, last)
    expect(page.locator("#picture")).not_to_have_class("drawing stale")
    assert [url for url in page.requests if url.endswith("/picture")] == pictures  # shown before: not fetched again
    assert sum(url.endswith("/v1/games/carcassonne/replay") for url in page.requests) == 1
    assert not any(url.endswith("/apply") for url in page.requests)
    slider = page.locator("#slider")
    slider.fill("100")
    at(page, 100)
    assert page.errors == []


def test_a_record_that_is_not_one_is_refused_in_words(page):
    open_page(page)
    page.locator("#record").fill('{"moves": []}')
    page.get_by_role("button", name="Replay", exact=True).click()
    expect(page.locator("#problems")).to_contain_text("A record is an object")
    start = GAMES["campanile"].new({"seed": 1, "names": ["Ada", "Bea"]})["state"]
    page.locator("#record").fill(json.dumps({"state": start, "moves": [{"type": "fly"}]}))
    page.get_by_role("button", name="Replay", exact=True).click()
    expect(page.locator("#problems")).to_contain_text("/moves/0/type")
    expect(page.locator("#stage")).to_be_hidden()


def test_the_scoring_page_links_to_the_replay(page):
    page.goto("/referee")
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    page.get_by_role("link", name="Replay a disputed game").click()
    expect(page.locator("html")).to_have_attribute("data-ready", "true")
    expect(page.locator("h1")).to_contain_text("replay a disputed game")
