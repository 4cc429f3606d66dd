"""The play page (/play) as a whole, by the list of legal steps in words, which every game offers (pointing at a
game's board is tests/browser/test_play_<game>.py's). What the page shows is checked against the service itself
(Flask's test client, the deployed settings): /replay of the record the link holds, /score, /view, /legal-moves.

1. every registered game played to its end by the computer (`random` at every seat, at once): the record in the link
   replays legal to its end, the page scored that final state, and shows /score's totals, winners and verdict;
2. around one phone, a game that hides something (Torri, Campanile) with two persons: before each seat's turn the
   phone is passed (its player named, nothing of the table shown), then the page asks /view for that seat, and what
   it shows (board, steps, what happened, the announcements) holds nothing of the other seat's hidden cards;
3. the link resumes the game in a new page: the same events, steps, seat; the game goes on there to its end;
4. Undo against the computer takes the record back to just before the person's last step;
5. a hint (every game) marks one of the steps offered and says it; the step chosen is the one applied;
6. a step the service refuses shows its rule and sentence, and the person's turn is offered again;
7. on a phone and a laptop: nothing wider than the window, 44 px targets on the phone, axe-core finds nothing
   serious or critical on the setup, on a person's turn and at the end;
8. in French: the setup's and the steps' words are French (as the API says them in French), the link keeps
   ?lang=fr.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import expect

from service.api.referee import SHELL, template_makers
from service.games.registry import GAMES

from .axe import assert_accessible
from .play import (
    HTML,
    LAPTOP,
    PHONE,
    api,
    check_score_shown,
    choose,
    finished_record,
    link_to,
    logged,
    moment,
    new_page,
    offered,
    open_play,
    person_turn,
    played,
    record_of,
    set_table,
    states_of,
    told,
)


@pytest.fixture
def pages(browser, base_url):
    """pages(size, locale): pages in contexts of their own, closed after the test."""
    made = []

    def make(size: dict | None = None, locale: str = "en-GB"):
        page = new_page(browser, base_url, size, locale)
        made.append(page)
        return page

    yield make
    for page in made:
        page.context.close()


def pick(page: Any, rng: random.Random) -> int:
    """A step of the list at random, a Pass seldom (two in a row may end a game before it is played)."""
    person_turn(page)
    texts = offered(page)
    assert texts, "a person's turn offers no step"
    others = [i for i, text in enumerate(texts) if " passed" not in text]
    return rng.choice(others) if others and rng.random() < 0.95 else rng.randrange(len(texts))


def last_state(client: Any, game_id: str, record: dict) -> dict:
    return states_of(client, game_id, record)[-1]


def play_to_the_end(page: Any, limit: int = 400) -> None:
    """The person's first step of the list each turn until the game is over (one person at the table: no phone
    passed). In Campanile the first step plays 1 story up, and its draw is from pile 1 (C-TURN-DRAW)."""
    for _ in range(limit):
        now = moment(page)
        if now == "over":
            return
        assert now == "person", "one person at the table: the phone is never passed"
        choose(page, 0)
    raise AssertionError(f"the game is not over after {limit} steps of the person")


# ------------------------------------------------------------------ 1. every game, to its end, by the computer

@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_is_played_to_its_end_by_the_computer(page, client, game_id):
    players = GAMES[game_id].info.min_players
    open_play(page)
    set_table(page, game_id, ["random"] * players)
    page.click("#start")
    expect(page.locator(HTML)).to_have_attribute("data-over", "true", timeout=90_000)
    expect(page.locator("#table")).to_be_visible()
    seats, record = record_of(page, game_id)
    assert seats == ["random"] * players
    assert played(page) == len(record["moves"]) > 0
    states = states_of(client, game_id, record)  # the record replays legal to its end
    final = states[-1]
    legal = api(client, game_id, "legal-moves", {"state": final})
    assert legal["to_act"] is None or not legal["moves"], "the page ended a game that goes on"
    # the page scored that very state, and shows its score
    scored = [post["body"] for post in page.posted if post["endpoint"] == "score"]
    assert scored and scored[-1]["state"] == final
    check_score_shown(page, api(client, game_id, "score", {"state": final}))
    # what happened: every event's sentence, the newest first (nothing hidden: nobody at the table is a person)
    assert logged(page) == told(client, game_id, record)[::-1]
    expect(page.locator("#steps button.step")).to_have_count(0)
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#undo")).to_be_hidden()
    # New game: the setup again, as it was chosen, and the link no longer holds the game
    page.click("#again")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#table")).to_be_hidden()
    expect(page.locator(HTML)).not_to_have_attribute("data-over", "true")
    assert page.evaluate("location.hash") == ""
    expect(page.locator("#game")).to_have_value(game_id)
    assert page.errors == []


DUPLICATE_IDS = """() => {
  const ids = [...document.querySelectorAll('[id]')].map((node) => node.id);
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}"""


@pytest.mark.parametrize("game_id", list(GAMES))
def test_no_id_is_given_twice_at_the_end(pages, client, game_id):
    """A finished game opened from its link: its score as /score has it, and each id once in the page (the
    labels, the skip link and the scripts find their element by it)."""
    record = finished_record(client, game_id, ["Ada", "Bea"])
    page = pages()
    open_play(page, link_to(game_id, ["person", "random"], record))
    expect(page.locator(HTML)).to_have_attribute("data-over", "true")
    check_score_shown(page, api(client, game_id, "score", {"state": last_state(client, game_id, record)}))
    assert page.evaluate(DUPLICATE_IDS) == []
    assert page.errors == []


# ------------------------------------------------------------------ 2. around one phone, each seat sees its own

DOM_TEXT = """() => {
  const parts = [];
  for (const root of document.querySelectorAll('#board, #steps, #log, #announce, #turn, #caption, #hint-said')) {
    parts.push(root.textContent);
    for (const node of [root, ...root.querySelectorAll('*')]) {
      for (const attribute of node.attributes) parts.push(attribute.value);
    }
  }
  return parts.join('\\n');
}"""
BOARD_CARDS = "() => [...document.querySelectorAll('#board [data-card]')].map((node) => node.dataset.card)"


def leaves(value: Any) -> Counter:
    """Every string in a document (a view's cards among them), counted."""
    if isinstance(value, str):
        return Counter([value])
    found: Counter = Counter()
    for item in (value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()):
        found += leaves(item)
    return found


def said_as_list(cards: list[str]) -> list[str]:
    """A hand as a sentence would list it ("5, 8 and 10", "5, 8, 10"), in its order and sorted."""
    forms = []
    for order in (cards, sorted(cards)):
        forms += [", ".join(order[:-1]) + " and " + order[-1], ", ".join(order)]
    return forms


def secrets(client: Any, game_id: str, record: dict, seat: int) -> set[str]:
    """The sentences of the record's whole story that `seat` is told otherwise (what another seat drew, named)."""
    return set(told(client, game_id, record)) - set(told(client, game_id, record, seat))


def check_pass_screen(page: Any, name: str, hidden: set[str]) -> None:
    expect(page.locator("#pass")).to_be_visible()
    expect(page.locator("#table")).to_be_hidden()
    expect(page.locator("#pass-title")).to_have_text(f"Pass the phone to {name}")
    expect(page.locator("#pass-ready")).to_have_text(f"I am {name}: show my hand")
    for part in ("#board", "#steps", "#log", "#choices", "#turn", "#hint", "#undo"):
        expect(page.locator(part)).to_be_hidden()
    expect(page.locator("button.step:visible")).to_have_count(0)
    assert page.evaluate("() => document.getElementById('pass').contains(document.activeElement)"), \
        "the focus is not on the pass screen"
    # what may be read now tells nothing hidden: the screen, and the announcements (a screen reader's live region)
    screen = page.evaluate("""() => [...document.body.children].filter((node) => node.id !== 'announce')
                                      .map((node) => node.innerText).join('\\n')""")
    shown = sorted(text for text in hidden if text in screen)
    assert not shown, f"the pass screen for {name} shows what {name} may not know: {shown}"
    announced = page.locator("#announce").text_content()
    shown = sorted(text for text in hidden if text in announced)
    assert not shown, (f"while the phone is passed to {name}, the live region #announce still says what {name} "
                       f"may not know: {announced!r}")


def check_seat_sees_its_own(page: Any, client: Any, game_id: str, record: dict, states: list[dict], seat: int,
                            since: list[dict]) -> None:
    """What the page shows on `seat`'s turn is made of its /view only."""
    full = states[-1]
    view = api(client, game_id, "view", {"state": full, "player": seat})["state"]
    seats = len(full["players"])
    # the pictures asked for on this turn are of the seat's view; none ever of a state as a whole
    pictured = [post["body"]["state"] for post in since if post["endpoint"] == "picture"]
    assert pictured, "no picture drawn on the person's turn"
    assert all(state == view for state in pictured), "a picture of something else than the seat's view"
    whole = [post["body"]["state"] for post in page.posted if post["endpoint"] == "picture"]
    assert not [state for state in whole if state in states], "a picture of the whole state, hidden cards and all"
    # the steps: the seat's legal steps in words; what happened: the events as the seat is told them
    legal = api(client, game_id, "legal-moves", {"state": full, "texts": True})
    assert legal["to_act"] == seat
    assert offered(page) == legal["texts"]
    assert logged(page) == told(client, game_id, record, seat)[::-1]
    # the board's cards are cards of the view (nothing more of them than the view shows)
    cards = Counter(page.evaluate(BOARD_CARDS))
    assert not cards - leaves(view), f"the board shows cards the view hides: {cards - leaves(view)}"
    # and nothing shown names a hidden hand, nor says a sentence the seat is not told
    text = page.evaluate(DOM_TEXT)
    for other in range(seats):
        hand = full["players"][other]["hand"]
        if other == seat or isinstance(view["players"][other]["hand"], list) or len(hand) < 3:
            continue
        for listed in said_as_list(hand):
            assert listed not in text, f"seat {seat} is shown seat {other}'s hidden hand ({listed})"
    shown = sorted(sentence for sentence in secrets(client, game_id, record, seat) if sentence in text)
    assert not shown, f"seat {seat} is shown what it is not told: {shown}"


@pytest.mark.parametrize("game_id", ["torri", "campanile"])
def test_around_one_phone_each_seat_sees_only_its_own(page, client, game_id):
    names = ["Ada", "Bea"]
    rng = random.Random(f"{game_id}-phone")
    open_play(page)
    set_table(page, game_id, ["person", "person"], names)
    page.click("#start")
    holder, passes, steps, findings = None, 0, 0, []
    while passes < 4 and steps < 16:
        now = moment(page)
        if now == "over":
            break
        _, record = record_of(page, game_id)
        states = states_of(client, game_id, record)
        seat = api(client, game_id, "legal-moves", {"state": states[-1]})["to_act"]
        mark = len(page.posted)
        if now == "pass":
            assert seat != holder, "the phone is passed to the seat that holds it"
            passes += 1
            try:
                check_pass_screen(page, names[seat], secrets(client, game_id, record, seat))
            except AssertionError as problem:  # (the rest of the game is checked still)
                findings.append(str(problem))
            if passes == 2:
                assert_accessible(page)
            mark = len(page.posted)
            page.click("#pass-ready")
            assert person_turn(page) == seat
            views = [post["body"] for post in page.posted[mark:] if post["endpoint"] == "view"]
            assert {"state": states[-1], "player": seat} in views, "no /view asked for the seat given the phone"
        else:
            assert seat == holder, f"seat {seat} plays on a phone {names[holder or 0]} holds: never passed"
            assert person_turn(page) == seat
            mark = max(i for i, post in enumerate(page.posted) if post["endpoint"] == "apply")
        expect(page.locator("#turn")).to_have_text(f"Your turn, {names[seat]}")
        expect(page.locator("#undo")).to_be_hidden()  # two persons: a step once made stays made
        check_seat_sees_its_own(page, client, game_id, record, states, seat, page.posted[mark:])
        holder = seat
        choose(page, pick(page, rng))
        steps += 1
        told_to = [post["body"].get("player") for post in page.posted if post["endpoint"] == "apply"][-1]
        assert told_to == seat, "the step's events are told to someone else than the seat that holds the phone"
    assert passes >= 3, f"the phone was passed {passes} times in {steps} steps"
    assert not findings, "\n".join(findings)
    assert page.errors == []


# ------------------------------------------------------------------ 3. the link resumes the game

DECODE_LINK = """async () => (await import('/referee/assets/record.js'))
  .decodeRecord(location.hash.slice(location.hash.indexOf(':') + 1))"""


def late_table(client: Any, names: list[str], cards: int) -> dict:
    """A Campanile table of a game played at random, at the start of seat 0's turn, `cards` cards left in pile 1
    and more in the others: the game ends (C-END-1) when seat 0 has drawn from pile 1 (1 story up) as often."""
    for seed in range(1, 40):
        record = finished_record(client, "campanile", names, seed)
        states = states_of(client, "campanile", record)
        for before, state in pairwise(states):
            piles = [len(pile) for pile in state["piles"]]
            if state["turn"] == 0 != before["turn"] and piles[0] == cards and min(piles[1:]) > cards + 2:
                return state
    raise AssertionError(f"no game of Campanile has such a table ({cards} cards left in pile 1)")


def test_the_link_resumes_the_game_which_goes_on_to_its_end(page, pages, client):
    game_id = "campanile"  # (it hides the hands: what happened is told as the person was told it)
    # the deal is a table some turns before the end (C-END-1: the piles nearly empty), so that the game ends within
    # the time: the person's step is the first of the list, 1 story up, drawn from pile 1 each turn. (The resumed
    # page plays the computer at the pace its setup form shows, 900 ms a step: the link does not hold the pace.)
    table = late_table(client, ["Ada", "Cyd"], 4)
    page.route(f"**/v1/games/{game_id}/new", lambda route: route.fulfill(json={"state": table, "seed": 7}))
    open_play(page)
    set_table(page, game_id, ["person", "random"], ["Ada", "Cyd"])
    page.click("#start")
    for _ in range(4):
        choose(page, 0)
    seat = person_turn(page)
    seats, record = record_of(page, game_id)
    assert seats == ["person", "random"] and len(record["moves"]) >= 4
    link = page.evaluate("location.href")
    before = {"log": logged(page), "steps": offered(page), "seat": seat, "played": played(page),
              "turn": page.locator("#turn").inner_text(), "undo": page.locator("#undo").is_visible()}
    assert before["log"] == told(client, game_id, record, 0)[::-1]
    assert before["undo"], "the person has a step to undo"
    # Copy the link: the page's address, the game in it
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#share")
    expect(page.locator("#announce")).to_have_text("The link to this game is copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == link

    again = pages()
    open_play(again, link[link.index("/play"):])
    assert person_turn(again) == before["seat"]
    assert {"log": logged(again), "steps": offered(again), "seat": before["seat"], "played": played(again),
            "turn": again.locator("#turn").inner_text(), "undo": again.locator("#undo").is_visible()} == before
    assert again.evaluate("location.href") == link, "the resumed page writes another link for the same game"
    resumed = [post["body"] for post in again.posted if post["endpoint"] == "replay"]
    assert resumed and resumed[0] == record, "the link is not resumed by /replay of its record"
    # the replay page opens the same game at the same step
    replay = pages()
    replay.goto(page.locator("#replay-link").evaluate("(link) => link.href"))
    expect(replay.locator(HTML)).to_have_attribute("data-ready", "true")
    expect(replay.locator(HTML)).to_have_attribute("data-position", str(len(record["moves"])))
    assert replay.evaluate(DECODE_LINK) == record
    assert replay.errors == []

    play_to_the_end(again)
    _, finished = record_of(again, game_id)
    assert finished["moves"][:len(record["moves"])] == record["moves"]
    final = last_state(client, game_id, finished)
    assert api(client, game_id, "legal-moves", {"state": final})["to_act"] is None
    check_score_shown(again, api(client, game_id, "score", {"state": final}))
    assert logged(again) == told(client, game_id, finished, 0)[::-1]
    assert page.errors == [] and again.errors == []


# ------------------------------------------------------------------ 4. Undo against the computer

@pytest.mark.parametrize("game_id", ["campanile", "sangimignano"])
def test_undo_takes_back_the_person_s_last_step(page, client, game_id):
    rng = random.Random(f"undo-{game_id}")
    open_play(page)
    set_table(page, game_id, ["person", "random"])
    page.click("#start")
    seat = person_turn(page)
    expect(page.locator("#undo")).to_be_hidden()  # nothing of the person's to undo yet
    for _ in range(12):
        seat = person_turn(page)
        _, record = record_of(page, game_id)
        snapshot = {"moves": record["moves"], "steps": offered(page), "log": logged(page), "seat": seat}
        choose(page, pick(page, rng))
        assert moment(page) == "person"
        if played(page) > len(record["moves"]) + 1:
            break  # the computer answered the person's step
    else:
        raise AssertionError("the computer never answered")
    person_turn(page)
    expect(page.locator("#undo")).to_be_visible()
    apply_count = sum(post["endpoint"] == "apply" for post in page.posted)
    page.click("#undo")
    page.wait_for_function("(steps) => Number(document.documentElement.dataset.steps) === steps",
                           arg=len(snapshot["moves"]))
    assert person_turn(page) == snapshot["seat"]
    _, undone = record_of(page, game_id)
    assert undone["moves"] == snapshot["moves"], "Undo does not bring the record back to before the person's step"
    assert undone["state"] == record["state"]
    assert offered(page) == snapshot["steps"]
    assert logged(page) == ["Your last step is undone.", *snapshot["log"]]
    assert sum(post["endpoint"] == "apply" for post in page.posted) == apply_count, "Undo applied a step"
    # the game goes on from there
    choose(page, 0)
    assert page.errors == []


# ------------------------------------------------------------------ 5. a hint

@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_hint_marks_one_of_the_steps_offered(page, client, game_id):
    open_play(page)
    set_table(page, game_id, ["person", "random"])
    page.click("#start")
    person_turn(page)
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#hint-said")).to_be_hidden()
    _, record = record_of(page, game_id)
    state = last_state(client, game_id, record)
    page.click("#hint")
    expect(page.locator("#hint-said")).to_be_visible(timeout=30_000)
    asked = [post["body"] for post in page.posted if post["endpoint"] == "suggest"]
    assert asked and asked[-1]["state"] == state and asked[-1]["level"] == "mcts"
    hinted = page.locator("#steps button.step.hinted")
    expect(hinted).to_have_count(1)
    text = hinted.inner_text()
    assert text in offered(page)
    expect(page.locator("#hint-said")).to_have_text(f"The computer would: {text}")
    expect(hinted).to_be_visible()
    # the hinted step, chosen, is the one applied
    index = int(hinted.get_attribute("data-index"))
    legal = api(client, game_id, "legal-moves", {"state": state, "texts": True})
    assert legal["texts"][index] == text
    before = played(page)
    hinted.click()
    page.wait_for_function("(before) => Number(document.documentElement.dataset.steps) > before", arg=before)
    _, after = record_of(page, game_id)
    assert after["moves"][before] == legal["moves"][index]
    moment(page)
    expect(page.locator("#steps button.step.hinted")).to_have_count(0)
    assert page.errors == []


# ------------------------------------------------------------------ 6. a refused step shows its rule

def missing_card(state: dict) -> dict:
    """Campanile: a card the seat to play does not hold, 1 story up (C-TURN-PLAY)."""
    hand = state["players"][state["turn"]]["hand"]
    return {"type": "play", "card": next(card for card in "ABCDE" if card not in hand), "stories": 1}


def no_such_card(state: dict) -> dict:
    """Campanile: a card no game has, which the service cannot even read (a 400 problem; its errors have no
    rule)."""
    return {"type": "play", "card": "Z", "stories": 1}


def nowhere(state: dict) -> dict:
    """San Gimignano: a token where no hexagon lies (S-GEO-2)."""
    return {"type": "token", "at": [9, 9], "guild": "A"}


def offered_too(game_id: str, bad: Any):
    """The page's first list of the person's steps has one more, an illegal one, said in words."""
    def refuse(page: Any, refused: dict) -> None:
        def answer(route: Any) -> None:
            response = route.fetch()
            body = response.json()
            if "step" not in refused and body.get("to_act") == 0:
                refused["step"] = bad(json.loads(route.request.post_data)["state"])
                refused["text"] = f"An illegal step: {json.dumps(refused['step'])}."
                body["moves"].append(refused["step"])
                body["texts"].append(refused["text"])
            route.fulfill(response=response, json=body)

        page.route(f"**/v1/games/{game_id}/legal-moves", answer)
    return refuse


def sent_otherwise(game_id: str, bad: Any):
    """The person's first step is sent as another, illegal one (the /apply request rewritten on its way)."""
    def refuse(page: Any, refused: dict) -> None:
        def rewrite(route: Any) -> None:
            body = json.loads(route.request.post_data)
            if "step" not in refused and refused.get("armed"):
                refused["step"] = bad(body["state"])
                body["moves"] = [refused["step"]]
            route.continue_(post_data=json.dumps(body))

        page.route(f"**/v1/games/{game_id}/apply", rewrite)
    return refuse


@pytest.mark.parametrize(("game_id", "refuse"), [
    ("campanile", offered_too("campanile", missing_card)), ("sangimignano", sent_otherwise("sangimignano", nowhere)),
    ("campanile", sent_otherwise("campanile", no_such_card))],
    ids=["an-illegal-step-offered", "a-step-sent-otherwise", "a-step-the-service-cannot-read"])
def test_a_refused_step_shows_its_rule_and_the_turn_is_offered_again(page, client, game_id, refuse):
    refused: dict = {}
    refuse(page, refused)
    open_play(page)
    set_table(page, game_id, ["person", "random"])
    page.click("#start")
    assert person_turn(page) == 0
    _, record = record_of(page, game_id)
    assert record["moves"] == []
    state = record["state"]
    legal = api(client, game_id, "legal-moves", {"state": state, "texts": True})
    steps = offered(page)
    index = steps.index(refused["text"]) if "text" in refused else 0
    refused["armed"] = True
    page.locator("#steps button.step").nth(index).click()
    page.wait_for_function("() => !document.getElementById('refused').hidden || "
                           "document.documentElement.dataset.turn === 'person'")
    # the service's refusal of that step: an illegal step's violations (200), or a problem's errors (400)
    assert "step" in refused
    answer = client.post(f"/v1/games/{game_id}/apply", json={"state": state, "moves": [refused["step"]],
                                                              "player": 0})
    expected = answer.get_json()
    if answer.status_code == 200:
        assert expected["legal"] is False
    lines = expected.get("violations") or expected.get("errors")
    assert lines, expected
    # the person's turn again, with the real steps; the record as it was
    expect(page.locator(HTML)).to_have_attribute("data-turn", "person", timeout=10_000)
    assert played(page) == 0
    assert record_of(page, game_id)[1] == record
    assert offered(page) == legal["texts"]
    # the refusal shows, with its rule (where it has one) and the service's sentence
    shown = page.locator("#refused")
    expect(shown).to_be_visible()
    expect(shown.locator("h3")).to_have_text("The referee refused it")
    expect(shown.locator("li").first).to_contain_text(lines[0]["message"])
    if lines[0]["rule"]:
        expect(shown.locator("li").first.locator(".rule")).to_have_text(lines[0]["rule"])
    # a legal step then goes through, and the refusal goes away
    choose(page, 0)
    moment(page)
    expect(shown).to_be_hidden()
    # (Chromium logs the 400 answer it was sent on purpose as an error of the console)
    assert [error for error in page.errors if f"status of {answer.status_code} " not in error] == []


# ------------------------------------------------------------------ 7. on a phone and on a laptop

FITS = """() => ({
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  wide: [...document.querySelectorAll('body *')]
    .filter((node) => node.getClientRects().length
                      && node.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                      && !node.closest('.table-scroll, .drawing, .board-scroll, .breakdown, .visually-hidden'))
    .map((node) => node.tagName + (node.id ? '#' + node.id : '') + '.' + node.className).slice(0, 6),
})"""
SMALL = """(selectors) => selectors.flatMap((selector) => [...document.querySelectorAll(selector)]
  .filter((node) => node.getClientRects().length && !node.closest('[hidden]'))
  .map((node) => [selector, node.getBoundingClientRect()])
  .filter(([, box]) => box.width < 44 || box.height < 44)
  .map(([selector, box]) => `${selector} ${Math.round(box.width)}×${Math.round(box.height)}`))"""


def check_fits(page: Any, phone: bool, targets: list[str], where: str) -> None:
    page.wait_for_timeout(50)
    fits = page.evaluate(FITS)
    assert fits["overflow"] <= 0, f"{where}: the page is {fits['overflow']} px wider than the window: {fits['wide']}"
    if phone:
        small = page.evaluate(SMALL, targets)
        assert not small, f"{where}: targets under 44 px on a phone: {small}"


@pytest.mark.parametrize(("size", "game_id", "seats"), [
    ("phone", "campanile", ["person", "random", "greedy"]), ("laptop", "sangimignano", ["person", "random"])])
def test_the_page_fits_a_phone_and_a_laptop_and_is_accessible(pages, client, size, game_id, seats):
    phone = size == "phone"
    page = pages(PHONE if phone else LAPTOP)
    open_play(page)
    set_table(page, game_id, seats)
    page.locator("#seats .who").nth(1).select_option("mcts")  # (its budget shown)
    expect(page.locator("#seats .budget").nth(1)).to_be_visible()
    check_fits(page, phone, ["#start", "#game", "#players", "#pace", "#seats .who", "#seats .budget",
                             "#seats .name", "#setup button"], "the setup")
    assert_accessible(page)
    page.locator("#seats .who").nth(1).select_option("random")
    page.click("#start")
    person_turn(page)
    expect(page.locator("#steps button.step").first).to_be_visible()
    check_fits(page, phone, ["#steps button.step", "#hint", "#undo", "#share", "#again", "#replay-link"],
               "a person's turn")
    assert_accessible(page)
    choose(page, 0)
    person_turn(page)
    check_fits(page, phone, ["#steps button.step", "#hint", "#undo"], "a person's turn after the computer's")
    assert_accessible(page)
    # the end of a game (a link to a finished one)
    record = finished_record(client, game_id, [f"Player {i + 1}" for i in range(len(seats))])
    ended = pages(PHONE if phone else LAPTOP)
    open_play(ended, link_to(game_id, ["person", *seats[1:]], record))
    expect(ended.locator(HTML)).to_have_attribute("data-over", "true")
    check_score_shown(ended, api(client, game_id, "score", {"state": last_state(client, game_id, record)}))
    check_fits(ended, phone, ["#share", "#again", "#replay-link"], "the end")
    assert_accessible(ended)
    assert page.errors == [] and ended.errors == []


# ------------------------------------------------------------------ 8. in French

def test_the_page_speaks_french_and_its_link_keeps_it(pages, client):
    page = pages(LAPTOP, locale="en-GB")  # the browser asks for English: the address names French
    open_play(page, "/play?lang=fr")
    french = template_makers(SHELL, "fr")
    expect(page.locator(HTML)).to_have_attribute("lang", "fr")
    words = json.loads(page.locator("#page-words").text_content())
    said = words["messages"]
    # the setup's words: the page's own, the games' from the API in French
    expect(page.locator("label[for=game]")).to_have_text(french["t"]("Game"))
    expect(page.locator("label[for=players]")).to_have_text(french["t"]("Players"))
    expect(page.locator("#start")).to_have_text(french["tp"]("button", "Start the game"))
    assert page.locator("#pace option").all_inner_texts() == [
        french["t"](text) for text in ("at a pace a person can follow", "quickly", "at once")]
    listed = client.get("/v1/games", headers={"Accept-Language": "fr"}).get_json()["games"]
    assert page.locator("#game option").all_inner_texts() == [game["title"] for game in listed]
    set_table(page, "campanile", ["person", "random"])
    descriptions = next(game for game in listed if game["id"] == "campanile")["variants"]
    assert [text.strip() for text in page.locator("#variant-list label").all_inner_texts()] == [
        variant["description"] for variant in descriptions]
    assert page.locator("#seats li .who").first.locator("option").all_inner_texts() == [
        said[text] for text in ("a person", "the computer, at random", "the computer, greedy",
                                "the computer, searching (MCTS)")]
    assert page.locator("#seats .name").first.input_value() == said["Player {number}"].replace("{number}", "1")
    setup = page.locator("#setup").inner_text()
    assert not [phrase for phrase in ("A new game", "Who sits at each seat", "The computer's steps",
                                      "Start the game") if phrase in setup]

    page.click("#start")
    seat = person_turn(page)
    _, record = record_of(page, "campanile")
    state = last_state(client, "campanile", record)
    legal = api(client, "campanile", "legal-moves", {"state": state, "texts": True}, lang="fr")
    in_english = api(client, "campanile", "legal-moves", {"state": state, "texts": True})
    assert offered(page) == legal["texts"] != in_english["texts"]
    expect(page.locator("#turn")).to_have_text(said["Your turn, {player}"].replace("{player}", "Joueur 1"))
    assert all(post["headers"].get("accept-language") == "fr" for post in page.posted)
    choose(page, 0)
    person_turn(page)
    _, record = record_of(page, "campanile")
    assert logged(page) == told(client, "campanile", record, seat, lang="fr")[::-1]
    # the link keeps ?lang=fr, as the replay page's link and the language picker's do
    link = page.evaluate("location.href")
    assert "?lang=fr#campanile/person,random:" in link
    assert "lang=fr" in page.locator("#replay-link").get_attribute("href")
    picker = page.locator("nav.languages a[hreflang=de]")
    if picker.count():
        assert picker.get_attribute("href").endswith(link[link.index("#"):])
    # and opened, the link is French still
    again = pages(LAPTOP, locale="en-GB")
    open_play(again, link[link.index("/play"):])
    person_turn(again)
    assert offered(again) == offered(page)
    expect(again.locator("#turn")).to_have_text(page.locator("#turn").inner_text())
    assert page.errors == [] and again.errors == []
