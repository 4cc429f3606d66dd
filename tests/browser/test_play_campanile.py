"""Campanile on /play, played by pointing at its board (service/games/campanile/referee/board.js, drawn on the game's
picture), a person at seat 0 against the computer (`random`, at once): a whole game at a laptop's size (1366×768:
clicks and the keyboard), and a dozen turns on a phone (390×844, touch: taps) and in French.

On each of the person's turns the test means a legal step and points at what makes it on the board, never at the
list in words: a card of the hand or the tower of its style, then its stories (C-TURN-PLAY); a tower and a token's
value, in either order, or "No bet" (C-TURN-BET); the Finito pile numbered as the stories built (C-TURN-DRAW). Then
it checks
- that the step applied (the record in the link, decoded with the page's own record.js) is the one meant;
- that the board lights exactly what the legal steps need: the cards and towers of the plays, the towers and values
  of the bets, the one pile of the draw; every lit target named in words, one Tab stop, 44 px on the phone;
- that what is not lit cannot be chosen: a click and Enter on unlit towers and buttons change nothing;
- that the keyboard alone plays: from the board's one Tab stop the arrow keys reach each target, Enter or Space
  chooses it, and Escape puts back a card chosen;
- that the board shows only the seat's own hand (the other hand as a count: /view's);
- that the final score shown is /score's of the final state, and axe-core finds nothing serious or critical.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from service.games.registry import GAMES

from .axe import assert_accessible
from .play import LAPTOP, PHONE, Followed, new_page

GAME = GAMES["campanile"]

NEXT_TURN = """(n) => document.documentElement.dataset.over === 'true' ||
  (document.documentElement.dataset.turn === 'person' &&
   Number(document.querySelector('#board .cpb-board')?.dataset.shown) > n)"""
SNAPSHOT = """async () => {
  const {decodeRecord} = await import('/referee/assets/record.js');
  const match = /^#campanile\\/([a-z0-9,-]+):([zj][A-Za-z0-9_-]+)$/.exec(location.hash);
  const board = document.querySelector('#board .cpb-board');
  const targets = [...document.querySelectorAll('#board .cpb-target')].map((node) => {
    const box = node.getBoundingClientRect();
    return {tag: node.tagName.toLowerCase(), key: node.dataset.key, lit: 'lit' in node.dataset,
            label: node.getAttribute('aria-label') || node.textContent.trim(), tabindex: node.getAttribute('tabindex'),
            width: box.width, height: box.height, card: node.dataset.card || null, style: node.dataset.style || null,
            hidden: node.hidden || node.closest('[hidden]') !== null};
  });
  return {over: document.documentElement.dataset.over === 'true', shown: Number(board?.dataset.shown || 0),
          step: board?.dataset.step || null, targets, seats: match && match[1],
          record: match ? await decodeRecord(match[2]) : null,
          wider: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          text: board ? board.innerText : ''};
}"""
# whether the pointer finds a target (or what it holds) at its middle: nothing lies over it
AT_ITS_MIDDLE = """(node) => {
  const box = node.getBoundingClientRect();
  const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!found && node.contains(found);
}"""
FOCUSED = "() => document.activeElement?.closest('#board .cpb-target')?.dataset.key || null"
# from the target focused to the one with this key, in px: [dx, dy] between their middles
TOWARDS = """(key) => {
  const middle = (node) => { const box = node.getBoundingClientRect();
                             return [box.left + box.width / 2, box.top + box.height / 2]; };
  const [x0, y0] = middle(document.activeElement);
  const [x1, y1] = middle(document.querySelector(`#board .cpb-target[data-key="${key}"]`));
  return [x1 - x0, y1 - y0];
}"""
PRESSED = ("() => [...document.querySelectorAll('#board .cpb-target[aria-pressed=true]')]"
           ".map((node) => node.dataset.key)")


def snapshot(page: Any) -> dict:
    seen = page.evaluate(SNAPSHOT)
    assert seen["seats"] == "person,random" and seen["record"], page.evaluate("location.hash")
    return seen


def start(page: Any, address: str = "/play") -> None:
    page.goto(address)
    page.wait_for_selector("html[data-ready=true]")
    page.select_option("#game", "campanile")
    page.select_option("#players", "2")
    page.locator("#seats .who").nth(0).select_option("person")
    page.locator("#seats .who").nth(1).select_option("random")
    page.select_option("#pace", "0")
    page.click("#start")
    page.wait_for_function(NEXT_TURN, arg=0)


def lit_keys(legal: list[dict], view: dict, chosen: dict | None = None) -> set[str]:
    """What the board should light for these legal steps, nothing chosen: the keys of its targets."""
    hand = view["players"][0]["hand"]
    keys: set[str] = set()
    towers = {tower["style"]: i for i, tower in enumerate(view["towers"])}
    for step in legal:
        if step["type"] == "play":
            keys |= {f"card:{i}" for i, card in enumerate(hand) if card == step["card"]}
            keys.add(f"tower:{towers[step['card']]}")
        elif step["type"] == "bet":
            keys |= {f"tower:{step['tower']}", f"value:{step['value']}"}
        elif step["type"] == "draw":
            keys.add(f"pile:{view['last_play']['stories']}")
        else:
            keys.add(f"action:{step['type']}")
    return keys


def check_board(seen: dict, legal: list[dict], view: dict, *, phone: bool) -> None:
    lit = {t["key"] for t in seen["targets"] if t["lit"] and not t["hidden"]}
    assert lit == lit_keys(legal, view), (sorted(lit), sorted(lit_keys(legal, view)), legal)
    stops = [t for t in seen["targets"] if t["lit"] and t["tabindex"] == "0"]
    assert len(stops) == 1, [t["key"] for t in stops]  # one Tab stop
    for target in seen["targets"]:
        if target["lit"] and not target["hidden"]:
            assert target["label"], target
            if phone:
                assert target["width"] >= 44 - 0.5 and target["height"] >= 44 - 0.5, target
    # the seat's own hand is shown, the other's only counted (the view holds nothing more)
    other = view["players"][1]["hand"]
    assert isinstance(other, dict) and "count" in other
    assert re.search(rf"{re.escape(view['players'][1]['name'])}\s?: {other['count']}\b", seen["text"]), seen["text"]


def pointings(step: dict, view: dict, legal: list[dict], rng: random.Random) -> list[str]:
    """The keys to point at, in order, to make `step`."""
    if step["type"] == "play":
        hand = view["players"][0]["hand"]
        tower = next(i for i, t in enumerate(view["towers"]) if t["style"] == step["card"])
        first = rng.choice([f"card:{hand.index(step['card'])}", f"tower:{tower}"])
        return [first, f"stories:{step['stories']}"]
    if step["type"] == "bet":
        at_tower = [s for s in legal if s["type"] == "bet" and s["tower"] == step["tower"]]
        of_value = [s for s in legal if s["type"] == "bet" and s["value"] == step["value"]]
        if rng.random() < 0.5:
            return [f"tower:{step['tower']}"] + ([] if len(at_tower) == 1 else [f"value:{step['value']}"])
        return [f"value:{step['value']}"] + ([] if len(of_value) == 1 else [f"tower:{step['tower']}"])
    if step["type"] == "draw":
        return [f"pile:{view['last_play']['stories']}"]
    return [f"action:{step['type']}"]


def walk(page: Any, key: str) -> None:
    """The keyboard to the target `key`: from the target focused (else the board's one Tab stop, focused as Tab
    would), the arrow keys towards it, as it lies on the screen."""
    if page.evaluate(FOCUSED) is None:
        page.locator("#board .cpb-target[data-lit][tabindex='0']").focus()
    for _ in range(30):
        here = page.evaluate(FOCUSED)
        if here == key:
            return
        dx, dy = page.evaluate(TOWARDS, key)
        across = ["ArrowRight" if dx > 0 else "ArrowLeft", "ArrowDown" if dy > 0 else "ArrowUp"]
        arrows = across if abs(dx) >= abs(dy) else across[::-1]
        for arrow in arrows:
            page.keyboard.press(arrow)
            if page.evaluate(FOCUSED) != here:
                break
        else:
            raise AssertionError(f"the arrow keys do not lead from {here} to {key}")
    raise AssertionError(f"the arrow keys do not reach {key}")


def point(page: Any, key: str, how: str) -> None:
    node = page.locator(f'#board .cpb-target[data-key="{key}"]')
    if how == "tap":
        node.tap()
    elif how == "click":
        node.click()
    else:  # the keyboard: the arrow keys to it from the board's one Tab stop, then Enter or Space
        walk(page, key)
        page.keyboard.press(random.choice(["Enter", " "]))


def check_escape(page: Any, first: str) -> None:
    """A card (or its tower) chosen by the keyboard, then Escape: nothing is chosen any more, no stories are lit."""
    point(page, first, "keys")
    page.wait_for_function(f"() => ({PRESSED})().length > 0")
    lit = {t["key"] for t in snapshot(page)["targets"] if t["lit"]}
    assert {"stories:1", "stories:2", "stories:3"} <= lit, lit
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => ({PRESSED})().length === 0")
    seen = snapshot(page)
    assert not any(t["lit"] for t in seen["targets"] if t["key"].startswith("stories:")), seen["targets"]
    assert page.evaluate(FOCUSED) is not None, "the focus left the board"


def try_unlit(page: Any, seen: dict) -> None:
    """Unlit towers and buttons: a click and Enter change nothing (no step sent, the same turn shown)."""
    before = len(seen["record"]["moves"])
    unlit = [t for t in seen["targets"] if not t["lit"] and not t["hidden"]]
    assert unlit, "everything is lit"
    for target in unlit[:4]:
        node = page.locator(f'#board .cpb-target[data-key="{target["key"]}"]')
        # in the middle of the screen, clear of the page's bars, so that the click lands on the target itself
        node.evaluate("(n) => n.scrollIntoView({block: 'center', inline: 'center'})")
        assert node.evaluate(AT_ITS_MIDDLE), target
        node.click(force=True)
        node.dispatch_event("keydown", {"key": "Enter"})
    page.wait_for_timeout(300)
    after = snapshot(page)
    assert len(after["record"]["moves"]) == before and after["shown"] == seen["shown"]


def check_keyboard(page: Any, seen: dict) -> None:
    """The arrow keys move the one Tab stop between lit targets only."""
    lit = {t["key"] for t in seen["targets"] if t["lit"] and not t["hidden"]}
    page.locator("#board .cpb-target[tabindex='0']").focus()
    visited = set()
    for key in ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowRight", "ArrowUp"]:
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        assert focused in lit, (focused, lit)
        visited.add(focused)


def play(page: Any, *, phone: bool, turns: int | None, seed: int, address: str = "/play") -> Counter:
    rng = random.Random(seed)
    start(page, address)
    seen = snapshot(page)
    table = Followed(GAME, seen["record"])
    counts: Counter = Counter()
    expected = None
    person_turns = 0
    while True:
        moves = seen["record"]["moves"]
        if expected is not None:
            assert moves[len(table.moves)] == expected, (expected, moves[len(table.moves):])
        table.follow(moves)
        if seen["over"]:
            break
        legal = table.legal()
        view = GAME.view({"state": table.json(), "player": 0})["state"]
        assert seen["step"] == view["step"]
        check_board(seen, legal, view, phone=phone)
        person_turns += 1
        if turns is not None and person_turns > turns:
            break
        if person_turns in (2, 7):
            try_unlit(page, seen)
        if person_turns == 3:
            if not phone:
                check_keyboard(page, seen)
            assert_accessible(page)
        how = "tap" if phone else rng.choice(["click", "click", "keys"])
        # the rare steps more often: a bet when one may be made
        bets = [s for s in legal if s["type"] == "bet"]
        step = rng.choice(bets) if bets and rng.random() < 0.6 else rng.choice(legal)
        keys = pointings(step, view, legal, rng)
        if not phone and step["type"] == "play" and not counts["escape"]:
            check_escape(page, keys[0])
            how = "keys"
            counts["escape"] += 1
        for key in keys:
            point(page, key, how)
        expected = step
        counts[step["type"]] += 1
        counts[how] += 1
        page.wait_for_function(NEXT_TURN, arg=seen["shown"])
        assert not page.errors, page.errors
        seen = snapshot(page)
        assert seen["wider"] <= 0, "the page is wider than the screen"
    if seen["over"]:
        score = GAME.score({"state": table.json()})
        said = page.locator("#scores li").all_inner_texts()
        assert len(said) == len(score["players"])
        for text, player in zip(said, score["players"]):
            assert text.startswith(player["name"]) and re.search(rf"\b{player['total']}\b", text), (text, player)
        assert_accessible(page)
        counts["over"] += 1
    assert not page.errors, page.errors
    return counts


def test_a_whole_game_by_pointing_at_a_laptop(browser: Any, base_url: str) -> None:
    page = new_page(browser, base_url, LAPTOP)
    try:
        counts = play(page, phone=False, turns=None, seed=3)
        assert counts["over"] and counts["play"] and counts["bet"] and counts["draw"] and counts["keys"] and \
            counts["escape"], counts
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_dozen_turns_by_pointing_on_a_phone(browser: Any, base_url: str, language: str) -> None:
    page = new_page(browser, base_url, PHONE, locale="fr-FR" if language == "fr" else "en-GB")
    try:
        counts = play(page, phone=True, turns=12, seed=8, address=f"/play?lang={language}")
        assert counts["play"] and counts["tap"], counts
        if language == "fr":
            assert "Votre main" in page.locator("#board").inner_text()
    finally:
        page.context.close()
