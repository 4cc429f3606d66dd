"""Steps the tests of the play page (/play) share: a page that records what it posts to the API, the setup form
filled, the person's turn waited for and a step chosen from the list in words, the link's record read back with the
page's own record.js, and the API asked directly (Flask's test client) for what the page should show."""
from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import expect

from .conftest import link_of

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
HTML = "html"
API = "/v1/games/"

DECODE = "(text) => import('/referee/assets/record.js').then((module) => module.decodeRecord(text))"
# What the page is doing now: "over", "pass", "person", or null while it works (the computer, a step applied)
MOMENT = """() => {
  const data = document.documentElement.dataset;
  if (data.over === 'true') return 'over';
  return data.turn === 'pass' || data.turn === 'person' ? data.turn : null;
}"""


def watch(page: Any) -> Any:
    """Record what the page posts to the API: page.posted, each {"endpoint", "body", "headers"} in order."""
    page.posted = []

    def seen(request: Any) -> None:
        if request.method == "POST" and API in request.url:
            endpoint = request.url.split("?", 1)[0].rsplit("/", 1)[1]
            try:
                body = json.loads(request.post_data or "null")
            except ValueError:
                body = None
            page.posted.append({"endpoint": endpoint, "body": body, "headers": request.headers})

    page.on("request", seen)
    return page


def new_page(browser: Any, base_url: str, size: dict | None = None, locale: str = "en-GB") -> Any:
    """A page in a context of its own (a size, a locale), recording its errors and what it posts, as the conftest's
    `page` does; the caller closes page.context."""
    context = browser.new_context(base_url=base_url, locale=locale, **(size or LAPTOP))
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.requests = []
    page.errors = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    return watch(page)


def open_play(page: Any, address: str = "/play") -> None:
    if not hasattr(page, "posted"):
        watch(page)
    page.goto(address)
    expect(page.locator(HTML)).to_have_attribute("data-ready", "true")


def set_table(page: Any, game_id: str, seats: Sequence[str], names: Sequence[str] = (), pace: str = "0",
              variants: Sequence[str] = ()) -> None:
    """The setup form: the game, its variants, as many players as seats, each seat's player and name, the pace."""
    page.select_option("#game", game_id)
    for variant in variants:
        page.check(f"#variant-list input[value={variant}]")
    if page.locator("#players").is_enabled():
        page.select_option("#players", str(len(seats)))
    rows = page.locator("#seats li")
    expect(rows).to_have_count(len(seats))
    for i, who in enumerate(seats):
        rows.nth(i).locator(".who").select_option(who)
        if i < len(names):
            rows.nth(i).locator(".name").fill(names[i])
    page.select_option("#pace", pace)


def moment(page: Any, timeout: float = 30_000) -> str:
    """Wait until the page waits on a person (their turn: "person"; the phone to pass: "pass") or the game is over
    ("over"); which of them."""
    return page.wait_for_function(MOMENT, timeout=timeout).json_value()


def person_turn(page: Any, timeout: float = 30_000) -> int:
    """Wait for a person's turn; the seat."""
    expect(page.locator(HTML)).to_have_attribute("data-turn", "person", timeout=timeout)
    return int(page.locator(HTML).get_attribute("data-seat"))


def played(page: Any) -> int:
    """The steps in the record (the page writes them on <html> with the link)."""
    return int(page.locator(HTML).get_attribute("data-steps"))


def offered(page: Any) -> list[str]:
    return page.locator("#steps button.step").all_inner_texts()


def logged(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#log li").all_text_contents()]


def choose(page: Any, index: int = 0) -> None:
    """The person's step chosen from the list in words, once it is applied (the record counts one step more)."""
    person_turn(page)
    before = played(page)
    page.locator("#steps button.step").nth(index).click()
    page.wait_for_function("(before) => Number(document.documentElement.dataset.steps) > before", arg=before)


def record_of(page: Any, game_id: str) -> tuple[list[str], dict]:
    """(the seats' words, the record) of the page's link, read with the page's own record.js."""
    link = link_of(page, rf"^#{game_id}/[a-z0-9,-]+:[zj]")
    seats, text = link.split("#", 1)[1].split("/", 1)[1].split(":", 1)
    record = page.evaluate(DECODE, text)
    assert record and "state" in record and isinstance(record.get("moves"), list), f"no record in {link}"
    return seats.split(","), record


def api(client: Any, game_id: str, endpoint: str, body: dict, lang: str | None = None) -> dict:
    """The service's answer to a POST, as the page would have it (200 only)."""
    headers = {"Accept-Language": lang} if lang else {}
    answer = client.post(f"{API}{game_id}/{endpoint}", json=body, headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:2000]
    return answer.get_json()


def states_of(client: Any, game_id: str, record: dict) -> list[dict]:
    """Every state of a record, its start first: /replay, which must find it legal."""
    replayed = api(client, game_id, "replay", record)
    assert replayed["legal"], replayed.get("violations")
    assert len(replayed["states"]) == len(record["moves"])
    return [record["state"], *replayed["states"]]


def told(client: Any, game_id: str, record: dict, player: int | None = None, lang: str | None = None) -> list[str]:
    """The sentences of a record's events, as `player` is told them (everything with None), oldest first."""
    body = record if player is None else {**record, "player": player}
    return [event["text"] for event in api(client, game_id, "replay", body, lang)["events"] if event.get("text")]


def finished_record(client: Any, game_id: str, names: Sequence[str], seed: int = 7) -> dict:
    """A whole game, its seats the computer at random, to its end: the record {state, moves} (the same for the
    same seed)."""
    state = api(client, game_id, "new", {"names": list(names), "seed": seed})["state"]
    record = {"state": state, "moves": []}
    while True:
        legal = api(client, game_id, "legal-moves", {"state": state})
        if legal["to_act"] is None or not legal["moves"]:
            return record
        steps = api(client, game_id, "suggest", {"state": state, "level": "random",
                                                  "seed": seed * 1000 + len(record["moves"])})["moves"]
        state = api(client, game_id, "apply", {"state": state, "moves": steps})["state"]
        record["moves"] += steps


def link_to(game_id: str, seats: Sequence[str], record: dict, query: str = "") -> str:
    """/play's link to a table, its record as plain JSON ("j…", which record.js reads as it reads "z…")."""
    text = base64.urlsafe_b64encode(json.dumps(record).encode()).decode().rstrip("=")
    return f"/play{query}#{game_id}/{','.join(seats)}:j{text}"


def check_score_shown(page: Any, score: dict) -> None:
    """The result as /score has it: each player's name and total (points, or towers where the game counts
    towers), the winners marked, and the verdict naming the winners and their score."""
    expect(page.locator("#result")).to_be_visible()
    winners = score.get("winners")
    if winners is None:
        winners = [] if score.get("winner") is None else [score["winner"]]
    shown = page.locator("#scores li")
    expect(shown).to_have_count(len(score["players"]))
    for i, (item, player) in enumerate(zip(shown.all(), score["players"])):
        expect(item.locator("strong")).to_have_text(player["name"])
        figure, unit = (player["total"], "points?") if "total" in player else (player["towers"], "towers?")
        text = item.inner_text()
        assert f"{player['name']} " in text and re.search(rf"(^|\s){figure} {unit}$", text), \
            f"{text!r} shown for {player}"
        assert ("leads" in (item.get_attribute("class") or "").split()) == (i in winners), f"{text}: winners {winners}"
    verdict = page.locator("#verdict").inner_text()
    assert verdict.strip()
    for i in winners:
        player = score["players"][i]
        assert player["name"] in verdict, f"the verdict {verdict!r} does not name the winner {player['name']}"
        figure = player["total"] if "total" in player else player["towers"]
        assert str(figure) in verdict, f"the verdict {verdict!r} does not give the winner's score {figure}"
    if not winners:  # a draw: the verdict says the totals
        for player in score["players"]:
            assert str(player.get("total", player.get("towers"))) in verdict, verdict
    # (the editor's table of the breakdown is drawn into the page's own box for it: by their class, not their id,
    # which the page's box and the editors' tables share: test_play_page.py's test_no_id_is_given_twice_at_the_end)
    expect(page.locator("#result > div.breakdown")).not_to_be_empty()


class Followed:
    """A game as a page's link records it, followed step by step with the game's own engine (the record is only
    ever extended)."""

    def __init__(self, game: Any, record: dict) -> None:
        self.game = game
        self.moves: list[dict] = []
        self.state = game.load_state(record["state"]).checked()

    def follow(self, moves: list[dict]) -> None:
        assert moves[:len(self.moves)] == self.moves, "the record was rewritten"
        for move in moves[len(self.moves):]:
            self.state = self.game.apply_steps(self.state, [move]).state
            self.moves.append(move)

    def legal(self) -> list[dict]:
        return self.game.legal_moves_of(self.state)

    def json(self) -> dict:
        return self.game.state_json(self.state)
