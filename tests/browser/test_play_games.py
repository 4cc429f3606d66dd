"""The play page (/play) as a whole, for every game, by the list of legal steps in words (which every game offers;
each game's pointing is tests/browser/test_play_<game>.py).

- every registered game played to its end with every seat the computer (`random`): the record in the link replays
  legal to its end, and the score shown is /score's of the final state;
- around one phone, a game that hides something (Torri): the phone is passed before each person's turn, nothing of
  the table shows meanwhile, and what a seat sees (the board, its steps in words, what happened) never holds the
  other seat's hand nor the deck's cards;
- the link resumes the game; against the computer, Undo takes back the person's last step; a hint marks a step;
- on a phone, the page fits the width and its targets are 44 px; axe-core finds nothing serious or critical;
- in French, the page and the steps' words are French, and the link keeps `?lang=fr`.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from service.games.registry import GAMES

from .axe import assert_accessible
from .conftest import link_of

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
HTML = "html"


@pytest.fixture
def opened(browser, base_url):
    """open(address, size): a page recording its errors and the bodies it posts to the API."""
    contexts = []

    def open_page(address: str = "/play", size: dict = LAPTOP, locale: str = "en-GB"):
        context = browser.new_context(base_url=base_url, locale=locale, **size)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.errors = []  # type: ignore[attr-defined]
        page.posted = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
        page.on("request", lambda request: page.posted.append((request.url, request.post_data))
                if "/v1/games/" in request.url and request.method == "POST" else None)
        page.goto(address)
        expect(page.locator(HTML)).to_have_attribute("data-ready", "true")
        return page

    yield open_page
    for context in contexts:
        context.close()


def set_table(page, game_id: str, seats: list[str], players: int | None = None) -> None:
    page.select_option("#game", game_id)
    if page.locator("#players").is_enabled():  # (a game for one number of players offers no choice)
        page.select_option("#players", str(players or len(seats)))
    for row, who in zip(page.locator("#seats li").all(), seats):
        row.locator(".who").select_option(who)
    page.select_option("#pace", "0")


def record_of(page, game_id: str) -> tuple[list[str], dict]:
    """(the seats, the record) the link holds."""
    link = link_of(page, rf"^#{game_id}/")
    fragment = link.split("#", 1)[1]
    seats, text = fragment.split("/", 1)[1].split(":", 1)
    record = page.evaluate("(text) => import('/referee/assets/record.js').then((m) => m.decodeRecord(text))", text)
    return seats.split(","), record


def person_turn(page) -> None:
    expect(page.locator(HTML)).to_have_attribute("data-turn", "person")


def choose_step(page, index: int = 0) -> None:
    """The person's step chosen from the list in words, once it is played (the link counts one step more)."""
    person_turn(page)
    played = int(page.locator(HTML).get_attribute("data-steps"))
    page.locator("#steps button.step").nth(index).click()
    page.wait_for_function("(played) => Number(document.documentElement.dataset.steps) > played", arg=played)


def play_by_list(page, turns: int) -> None:
    """The person's steps, each chosen from the list in words; the computer answers at once."""
    for _ in range(turns):
        choose_step(page)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_is_played_to_its_end_by_the_computer(opened, client, game_id):
    game = GAMES[game_id]
    page = opened()
    set_table(page, game_id, ["random"] * game.info.min_players)
    page.click("#start")
    expect(page.locator(HTML)).to_have_attribute("data-over", "true", timeout=120_000)
    seats, record = record_of(page, game_id)
    assert seats == ["random"] * game.info.min_players
    replayed = client.post(f"/v1/games/{game_id}/replay", json=record).get_json()
    assert replayed["legal"] and replayed["states"]
    final = replayed["states"][-1]
    assert client.post(f"/v1/games/{game_id}/legal-moves", json={"state": final}).get_json()["to_act"] is None
    score = client.post(f"/v1/games/{game_id}/score", json={"state": final}).get_json()
    shown = page.locator("#scores li")
    expect(shown).to_have_count(len(score["players"]))
    for item, player in zip(shown.all(), score["players"]):
        expect(item.locator("strong")).to_have_text(player["name"])
        if "total" in player:
            assert re.search(rf"\b{player['total']} points?\b", item.inner_text()), item.inner_text()
    expect(page.locator("#verdict")).not_to_be_empty()
    expect(page.locator("#log li").first).to_contain_text(replayed["events"][-1]["text"])
    assert page.errors == []


def test_around_one_phone_a_seat_sees_only_what_it_may(opened, client):
    page = opened()
    set_table(page, "torri", ["person", "person"])
    page.locator("#seats .name").nth(0).fill("Ada")
    page.locator("#seats .name").nth(1).fill("Bea")
    page.click("#start")
    holder, passes = None, 0
    for _ in range(14):
        expect(page.locator(HTML)).to_have_attribute("data-turn", re.compile("^(pass|person)$"))
        if page.locator(HTML).get_attribute("data-turn") == "pass":
            expect(page.locator("#table")).to_be_hidden()
            name = page.locator("#pass-title").inner_text()
            assert re.fullmatch(r"Pass the phone to (Ada|Bea)", name)
            page.click("#pass-ready")
            passes += 1
        else:
            name = None
        person_turn(page)
        seat = int(page.locator(HTML).get_attribute("data-seat"))
        assert (name is None) == (seat == holder), "the phone is passed exactly when the seat to act changes"
        if name is not None:
            assert name.endswith(("Ada", "Bea")[seat])
        holder = seat
        _, record = record_of(page, "torri")
        state = client.post("/v1/games/torri/replay", json=record).get_json()
        state = state["states"][-1] if state["states"] else record["state"]
        seen = client.post("/v1/games/torri/view", json={"state": state, "player": seat}).get_json()["state"]
        # the picture is the seat's view's, and the words the seat reads are told to it
        pictured = [json.loads(body)["state"] for url, body in page.posted if url.endswith("/picture")]
        assert pictured and pictured[-1] == seen
        told = [json.loads(body) for url, body in page.posted if url.endswith(("/apply", "/replay"))]
        assert all(body.get("player") == seat for body in told[-1:]) or not record["moves"]
        for event in client.post("/v1/games/torri/replay", json={**record, "player": seat}).get_json()["events"]:
            if event["type"] == "drew" and event["player"] != seat and event["from"] == "deck":
                assert "card" not in event
        log = page.locator("#log").inner_text()
        whole = client.post("/v1/games/torri/replay", json=record).get_json()["events"]
        for event in whole:
            if event["type"] == "drew" and event["from"] == "deck" and event["player"] != seat:
                assert event["text"] not in log  # the other seat's card from the deck, never named
        steps = page.locator("#steps").inner_text()
        assert "from the deck:" not in steps and not re.search(r"drew an? \d+ from the deck", steps)
        choose_step(page)
    assert passes >= 2
    assert page.errors == []


def test_the_link_resumes_the_game_and_undo_takes_back_the_person_s_step(opened, client):
    page = opened()
    set_table(page, "campanile", ["person", "random"])
    page.click("#start")
    play_by_list(page, 3)
    person_turn(page)
    seats, record = record_of(page, "campanile")
    assert seats == ["person", "random"] and len(record["moves"]) >= 3
    logged = page.locator("#log li").count()
    offered = page.locator("#steps button.step").all_inner_texts()

    again = opened(link_of(page, r"^#campanile/"))
    person_turn(again)
    expect(again.locator("#log li")).to_have_count(logged)
    assert again.locator("#steps button.step").all_inner_texts() == offered
    assert again.errors == []

    # a hint marks one of the steps offered, and says it
    page.click("#hint")
    expect(page.locator("#hint-said")).to_be_visible(timeout=30_000)
    expect(page.locator("#steps button.step.hinted")).to_have_count(1)
    hinted = page.locator("#steps button.step.hinted").inner_text()
    assert hinted in page.locator("#hint-said").inner_text()

    # Undo: the record loses the person's last step and what the computer did after it
    before, hash_before = len(record["moves"]), page.evaluate("location.hash")
    expect(page.locator("#undo")).to_be_visible()
    page.click("#undo")
    page.wait_for_function("(old) => location.hash !== old", arg=hash_before)  # the link is written a moment after
    person_turn(page)
    _, undone = record_of(page, "campanile")
    assert len(undone["moves"]) < before and undone["moves"] == record["moves"][:len(undone["moves"])]
    assert page.errors == []


def test_on_a_phone_the_page_fits_and_is_accessible(opened):
    page = opened(size=PHONE)
    assert_accessible(page)
    set_table(page, "campanile", ["person", "random", "greedy"], players=3)
    for target in ["#start", "#game", "#players", *[f"#seats li:nth-child({i}) .who" for i in (1, 2, 3)]]:
        assert page.locator(target).bounding_box()["height"] >= 44, target
    page.click("#start")
    person_turn(page)
    for button in page.locator("#steps button.step").all():
        assert button.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert_accessible(page)
    choose_step(page)
    person_turn(page)
    assert_accessible(page)
    assert page.errors == []


def test_the_page_speaks_french(opened, client):
    page = opened("/play?lang=fr", locale="en-GB")
    expect(page.locator("#start")).to_have_text("Commencer la partie")
    set_table(page, "campanile", ["person", "random"])
    page.click("#start")
    person_turn(page)
    _, record = record_of(page, "campanile")
    state = record["state"]
    french = client.post("/v1/games/campanile/legal-moves?lang=fr", json={"state": state, "texts": True}).get_json()
    assert page.locator("#steps button.step").all_inner_texts() == french["texts"]
    assert "lang=fr" in link_of(page, r"^#campanile/")
    assert page.errors == []
