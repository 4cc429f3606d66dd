"""/play with Le Torri di San Gimignano played by pointing at its board (service/games/torri/referee/board.js): a
person at seat 1 against the computer (`random`, at once), at a laptop's size (the advanced game, with the nobles)
and at a phone's (touch; the basic game).

On each of the person's turns the test points at the board only, as a person would: it means a legal step (a
kind first, the rare kinds more often) and points at what makes it, or wanders among the lit targets: lit cards (or
towers, or the other hand's cards) chosen one by one, then a lit action, tower, deck or market card; when the board
stands for several steps the page lists them in words, and the one meant (or any) is chosen there. Then it checks
- that the step applied (the record in the link, decoded with the page's own record.js) is what was pointed at:
  its kind, and exactly the cards, towers or card positions chosen;
- that nothing unlit can be chosen: a click or Enter on an unlit target changes nothing;
- that the board never shows what the seat may not see: its face-up cards are exactly the seat's hand and the market
  of /view for the seat, the other hand and the decks are drawn face down (their counts only), and every picture
  the page asks for is of a view (no deck, no other hand in it);
- one Tab stop, targets of 44 px on the phone, and axe-core finds nothing serious or critical, at both sizes.
It plays the whole game when it fits in TIME_BUDGET seconds, and at least MIN_TURNS of the person's steps.
The steps a game seldom reaches (a Trade's take and give, a Conspiracy's target, Via Francigena's draws) are
pointed at from positions dealt on purpose, at both sizes.
"""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

import pytest

from tests.torri.helpers import state_dict

from .axe import assert_accessible

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
MIN_TURNS = 10
TIME_BUDGET = 60.0  # seconds of play for each size: the whole game when it fits

# What the board shows, read in the page: every target with what it stands for
READ_BOARD = """() => [...document.querySelectorAll('#board .tt-target')].map((node) => {
  const box = node.getBoundingClientRect();
  return {key: node.dataset.key || '', lit: 'lit' in node.dataset, pile: node.dataset.pile || null,
          card: node.dataset.card || null, pos: node.dataset.pos === undefined ? null : Number(node.dataset.pos),
          action: node.dataset.action || null, mode: node.dataset.mode || null,
          pressed: node.getAttribute('aria-pressed'), label: node.getAttribute('aria-label') || node.textContent,
          tag: node.tagName.toLowerCase(), tabindex: node.getAttribute('tabindex'),
          hidden: node.hidden || !node.getClientRects().length, width: box.width, height: box.height};
})"""
RECORD = """async () => {
  const match = /^#torri\\/[a-z0-9,-]+:([zj][A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return null;
  return (await import('/referee/assets/record.js')).decodeRecord(match[1]);
}"""


def post(page: Any, base_url: str, endpoint: str, body: dict) -> dict:
    answer = page.request.post(f"{base_url}/v1/games/torri/{endpoint}", data=json.dumps(body),
                               headers={"Content-Type": "application/json"})
    assert answer.ok, answer.text()
    return answer.json()


def start(page: Any, nobles: bool) -> None:
    page.select_option("#game", "torri")
    if nobles:
        page.check("#variant-list input[value=nobles]")
    page.locator("#seats .who").nth(0).select_option("person")
    page.locator("#seats .who").nth(1).select_option("random")
    page.select_option("#pace", "0")
    page.click("#start")


# Counts the person's turns as the page starts them (data-turn becoming "person" on <html>)
WATCH_TURNS = """() => {
  window.__turns = document.documentElement.dataset.turn === 'person' ? 1 : 0;
  new MutationObserver((changes) => {
    changes.forEach((change, i) => { // (each change's new value: the next one's old value, or the value now)
      const now = i + 1 < changes.length ? changes[i + 1].oldValue : document.documentElement.dataset.turn;
      if (now === 'person' && change.oldValue !== 'person') window.__turns++;
    });
  }).observe(document.documentElement, {attributes: true, attributeFilter: ['data-turn'], attributeOldValue: true});
}"""
OVER = "document.documentElement.dataset.over === 'true'"


def wait_turn(page: Any, seen: int) -> bool:
    """Until the person's next turn after the `seen` first ones (True) or the end of the game (False)."""
    page.wait_for_function(f"(seen) => window.__turns > seen || {OVER}", arg=seen, timeout=30_000)
    return page.evaluate(f"!({OVER})")


def board(page: Any) -> list[dict]:
    return page.evaluate(READ_BOARD)


def check_hidden(page: Any, view: dict, seat: int) -> None:
    """The board's face-up cards are the seat's hand and the market of its view; the rest is face down."""
    targets = board(page)
    hand = [t["card"] for t in sorted((t for t in targets if t["pile"] == "hand"), key=lambda t: t["pos"])]
    assert hand == view["players"][seat]["hand"]
    market = Counter(t["card"] for t in targets if t["pile"] == "market")
    assert market == Counter(view["market"])
    assert Counter(t["card"] for t in targets if t["card"]) == Counter(hand) + market
    theirs = view["players"][1 - seat]["hand"]
    assert isinstance(theirs, dict) or theirs == [], "the view hides the other hand"
    other = [t for t in targets if t["pile"] == "other"]
    assert len(other) == (theirs["count"] if theirs else 0) and not any(t["card"] for t in other)
    drawn = page.evaluate("""() => [...document.querySelectorAll('#board [data-pile=other] svg text')]
                             .map((node) => node.textContent)""")
    assert drawn == [], f"the other hand is drawn face up: {drawn}"
    decks = page.evaluate("""() => [...document.querySelectorAll('#board [data-pile$=deck]')]
        .map((node) => [node.dataset.pile, Number(node.dataset.count), node.querySelectorAll('svg text').length])""")
    assert [pile for pile, _, _ in decks] == ["deck", "noble_deck"][:1 + ("noble_deck" in view)]
    for pile, count, faces in decks:
        known = view[pile]
        assert count == (len(known) if isinstance(known, list) else known["count"]), f"the {pile}'s count"
        assert not faces, f"the {pile} shows more than its count"


def check_pointing_rules(page: Any, phone: bool) -> None:
    """One Tab stop among the lit targets; on a phone each lit target is 44 px at least."""
    targets = [t for t in board(page) if t["lit"] and not t["hidden"]]
    assert targets, "nothing is lit on the person's turn"
    assert [t["tabindex"] for t in targets].count("0") == 1
    for target in targets:
        assert target["label"].strip(), f"{target['key']} has no name"
        if phone:
            assert target["width"] >= 44 and target["height"] >= 44, f"{target['key']} is too small: {target}"


def try_unlit(page: Any) -> None:
    """A click, a tap's click and Enter on unlit targets change nothing."""
    before = page.evaluate("location.hash")
    pressed = page.evaluate("() => [...document.querySelectorAll('#board [aria-pressed=true]')].length")
    tried = page.evaluate("""() => {
      const unlit = [...document.querySelectorAll('#board .tt-target:not([data-lit])')];
      for (const node of unlit.slice(0, 12)) {
        node.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
        node.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true, cancelable: true}));
        if (node.click) node.click();
      }
      return unlit.length;
    }""")
    page.wait_for_timeout(150 if tried else 0)
    assert page.evaluate("location.hash") == before
    assert page.evaluate("document.documentElement.dataset.turn") == "person"
    assert page.evaluate("() => [...document.querySelectorAll('#board [aria-pressed=true]')].length") == pressed
    assert page.locator("#narrowed").is_hidden()


# How much more often the test means a step of each kind (a kind first, then one of its steps): the rare kinds
# often, so that builds, extensions and completions are pointed at, and Pass seldom (two in a row end the game)
WEIGHTS = {"build": 8.0, "extend": 8.0, "complete": 6.0, "noble": 4.0, "close": 4.0, "target": 4.0, "take": 4.0,
           "give": 4.0, "guard": 2.0, "giostra": 2.0, "decline": 1.0, "purchase": 2.0, "exchange": 2.0, "draw": 2.0,
           "stop": 0.5, "pass": 0.05}


def activator(page: Any, phone: bool):
    def activate(key: str) -> None:
        locator = page.locator(f'#board .tt-target[data-key="{key}"]').first
        locator.tap() if phone else locator.click()
    return activate


def chosen_now(page: Any, commit: dict, planned: int | None = None) -> dict:
    """What the board says is chosen as `commit` is pointed at: the intent the applied step must match."""
    picked = [t for t in board(page) if t["pressed"] == "true"]
    return {"commit": commit, "planned": planned,
            "cards": sorted(t["card"] for t in picked if t["pile"] == "hand"),
            "positions": sorted(t["pos"] for t in picked if t["pile"] == "other"),
            "towers": sorted(int(t["key"].split(":")[2]) for t in picked if t["key"].startswith("tower:"))}


def wander(page: Any, rng: random.Random, phone: bool) -> dict:
    """Point at lit targets at random: cards, towers or positions one by one, then a lit target that makes a step."""
    activate = activator(page, phone)
    for _ in range(40):
        targets = [t for t in board(page) if t["lit"] and not t["hidden"] and t["key"] != "clear"]
        toggles = [t for t in targets if t["pressed"] is not None or t["mode"] == "choose"]
        unpressed = [t for t in toggles if t["pressed"] != "true"]
        commits = [t for t in targets if t not in toggles and (t["action"] != "pass" or not unpressed)]
        chosen = any(t["pressed"] == "true" for t in targets)
        if commits and (not unpressed or rng.random() < (0.45 if chosen else 0.3)):
            target = rng.choice(commits)
            intent = chosen_now(page, target)
            activate(target["key"])
            return intent
        assert unpressed, f"nothing to point at: {targets}"
        target = rng.choice(unpressed)
        activate(target["key"])
        page.wait_for_function("(key) => document.querySelector(`#board .tt-target[data-key=\"${key}\"]`)"
                               ".getAttribute('aria-pressed') === 'true'", arg=target["key"])
    raise AssertionError("forty targets pointed at without a step")


def aim(page: Any, rng: random.Random, phone: bool, legal: list[dict], view: dict, seat: int, audit: Any) -> dict:
    """Mean one legal step (a kind by WEIGHTS, then one of its steps) and point at what makes it: its cards in the
    hand (or the other hand's positions, or towers), each lit before it is pointed at, then its target."""
    kinds = sorted({step["type"] for step in legal})
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1.0) for k in kinds])[0]
    index = rng.choice([i for i, step in enumerate(legal) if step["type"] == kind])
    step = legal[index]
    rebuild = (view.get("pending") or {}).get("type") == "rebuild"
    targets = {t["key"]: t for t in board(page)}
    cards: list[str] = []
    toggles: list[str] = []
    if kind in ("exchange", "give") or kind in ("build", "extend") and not rebuild:
        cards = list(step["cards"])
    elif kind == "noble":
        cards = [step["card"], *step.get("cost", [])]
    elif kind == "complete":
        toggles = [f"tower:{seat}:{tower}" for tower in step["towers"]]
    elif kind == "take":
        toggles = [f"other:{position}" for position in step.get("positions", [])]
    free = {t["pos"]: t["card"] for t in targets.values() if t["pile"] == "hand"}
    for card in cards:
        position = next(p for p, c in sorted(free.items()) if c == card)
        del free[position]
        toggles.append(f"hand:{position}")
    if kind == "draw":
        commit = (next(k for k, t in targets.items() if t["pile"] == "market" and t["card"] == step["card"])
                  if step["from"] == "market" else step["from"])
    elif kind in ("extend", "target"):
        commit = f"tower:{step.get('player', seat)}:{step['tower']}"
    else:
        commit = f"action:{kind}" if f"action:{kind}" in targets else "action:other"
    activate = activator(page, phone)
    rng.shuffle(toggles)
    for key in toggles:
        now = {t["key"]: t for t in board(page)}
        assert now[key]["lit"], f"{key} is not lit, though {step} takes it"
        activate(key)
        page.wait_for_function("(key) => document.querySelector(`#board .tt-target[data-key=\"${key}\"]`)"
                               ".getAttribute('aria-pressed') === 'true'", arg=key)
    if toggles and audit is not None:  # the board with cards or towers chosen
        audit()
    now = {t["key"]: t for t in board(page)}
    assert now[commit]["lit"], f"{commit} is not lit for {step}"
    intent = chosen_now(page, now[commit], index)
    activate(commit)
    return intent


def matches(step: dict, intent: dict, seat: int) -> bool:
    """Whether `step` is what was pointed at."""
    commit = intent["commit"]
    key, cards = commit["key"], sorted(intent["cards"])
    kind = step["type"]
    if commit["pile"] == "market":
        return kind == "draw" and step["from"] == "market" and step["card"] == commit["card"]
    if commit["pile"] in ("deck", "noble_deck"):
        return kind in ("draw", "refill") and step.get("from", "deck") == commit["pile"]
    if key.startswith("tower:"):
        _, player, tower = key.split(":")
        if kind == "target":
            return step["player"] == int(player) and step["tower"] == int(tower)
        return (kind == "extend" and int(player) == seat and step["tower"] == int(tower) and
                (sorted(step["cards"]) == cards or not cards))
    action = commit["action"]
    if action == "noble":
        return kind == "noble" and sorted([step["card"], *step.get("cost", [])]) == cards
    if action in ("exchange", "give"):
        return kind == action and sorted(step["cards"]) == cards
    if action == "build":
        return kind == "build" and (sorted(step["cards"]) == cards or not cards)
    if action == "complete":
        return kind == "complete" and sorted(step["towers"]) == intent["towers"]
    if action == "take":
        return kind == "take" and sorted(step.get("positions", [])) == intent["positions"]
    return kind == action


def audit_of(page: Any, texts: list[str]):
    """axe-core on the page as it is, but for two faults of the page's own (play.html, play.js), not the board's:
    the log of what happened scrolls without a Tab stop once it is long, and a step the service says in no words
    (a Build with Buona Pietra the opponent may answer with Giostra: its events wait for the answer) is a button
    without a name in the list of steps."""
    def audit() -> None:
        exclude = []
        if page.evaluate("() => { const log = document.getElementById('log');"
                         "return log.scrollHeight > log.clientHeight + 1; }"):
            exclude.append("#log")
        if not all(text.strip() for text in texts):
            exclude.append("#steps")
        assert_accessible(page, exclude=tuple(exclude))
    return audit


def play(page: Any, base_url: str, *, phone: bool, nobles: bool, seed: int, shots: Any = None) -> int:
    """The person's game, pointing at the board; the person's steps played."""
    rng = random.Random(seed)
    pictures: list[dict] = []
    page.on("request", lambda request: pictures.append(json.loads(request.post_data or "{}"))
            if request.url.endswith("/v1/games/torri/picture") else None)
    refusals: list[str] = []
    page.on("response", lambda response: refusals.append(response.text()) if response.url.endswith("/apply") and
            (not response.ok or not response.json().get("legal")) else None)
    page.goto("/play")
    page.wait_for_selector("html[data-ready=true]")
    page.evaluate(WATCH_TURNS)
    start(page, nobles)
    seat, played, listed_at, asked, kinds, chosen_audited = 0, 0, 0, 0, Counter(), False
    began = time.monotonic()
    while wait_turn(page, played):
        record = page.evaluate(RECORD)
        assert record is not None, "the link holds the game"
        state = post(page, base_url, "apply", {"state": record["state"], "moves": record["moves"]})["state"]
        view = post(page, base_url, "view", {"state": state, "player": seat})["state"]
        answer = post(page, base_url, "legal-moves", {"state": state, "texts": True})
        legal = answer["moves"]
        audit = audit_of(page, answer["texts"])
        assert state["to_act"] == seat
        asked = len(pictures)  # (the picture at the game's end is the whole table's: it hides nothing any more)
        check_hidden(page, view, seat)
        check_pointing_rules(page, phone)
        if played % 4 == 0:
            try_unlit(page)
        if played == 1 and not phone:  # the keyboard: one Tab stop, Space chooses a card and puts it back
            first = page.locator("#board .tt-target[data-lit][tabindex='0']")
            first.focus()
            if first.get_attribute("aria-pressed") == "false":
                page.keyboard.press("Space")
                assert first.get_attribute("aria-pressed") == "true"
                page.keyboard.press("Space")
                assert first.get_attribute("aria-pressed") == "false"
                page.keyboard.press("Enter")  # chosen again, then Escape puts back everything chosen
                assert first.get_attribute("aria-pressed") == "true"
                page.keyboard.press("Escape")
                assert page.locator("#board [aria-pressed=true]").count() == 0
            page.keyboard.press("ArrowRight")  # the arrow keys move the Tab stop to another lit target
            moved = page.evaluate("() => [document.activeElement.matches('#board .tt-target[data-lit]'),"
                                  "document.activeElement.getAttribute('tabindex')]")
            assert moved == [True, "0"]
            check_pointing_rules(page, phone)
        if played == 2:
            audit()
        if played == 20 and shots is not None:
            page.screenshot(path=str(shots / f"play-torri-{'phone' if phone else 'laptop'}.png"), full_page=True)
        before = len(record["moves"])
        intent = (wander(page, rng, phone) if rng.random() < 0.25 else
                  aim(page, rng, phone, legal, view, seat, audit if not chosen_audited else None))
        chosen_audited = chosen_audited or bool(intent["cards"] or intent["towers"])
        page.wait_for_function(f"(seen) => !document.getElementById('narrowed').hidden || window.__turns > seen || "
                               f"{OVER}", arg=played + 1)
        if page.locator("#narrowed").is_visible():
            # several steps: the page lists them in words, each of them what was pointed at; one is chosen
            listed = [int(i) for i in page.locator("#steps button.step").evaluate_all(
                "(buttons) => buttons.map((b) => b.dataset.index)")]
            assert len(listed) > 1
            for index in listed:
                assert matches(legal[index], intent, seat), (legal[index], intent)
            if not listed_at:
                audit()
            listed_at += 1
            if intent["planned"] is not None:
                assert intent["planned"] in listed, "the step meant is among those listed"
            choice = intent["planned"] if intent["planned"] is not None else rng.choice(listed)
            button = page.locator(f"#steps button.step[data-index='{choice}']")
            button.tap() if phone else button.click()
        page.wait_for_function(f"(seen) => window.__turns > seen || {OVER}", arg=played + 1, timeout=30_000)
        applied = page.evaluate(RECORD)["moves"]
        assert len(applied) > before, ("the step pointed at was applied", intent, refusals)
        step = applied[before]
        assert step in legal
        assert matches(step, intent, seat), f"pointed at {intent}, applied {step}"
        if intent["planned"] is not None:
            assert step == legal[intent["planned"]], f"meant {legal[intent['planned']]}, applied {step}"
        kinds[step["type"]] += 1
        played += 1
        if time.monotonic() - began > TIME_BUDGET and played >= MIN_TURNS:
            break
    assert played >= MIN_TURNS, f"only {played} steps pointed at"
    assert kinds["purchase"] + kinds["exchange"] + kinds["build"], kinds
    # every picture the page asked for is of a view: no deck's cards, no other hand
    assert asked
    for body in pictures[:asked]:
        shown = body["state"]
        assert isinstance(shown["players"][1 - seat]["hand"], dict) or shown["players"][1 - seat]["hand"] == []
        for pile in ("deck", "noble_deck"):  # (a view lists a deck only when it is empty)
            assert isinstance(shown.get(pile, {}), dict) or shown[pile] == [], f"a picture of the {pile}'s cards"
    if page.evaluate(f"!({OVER})"):
        audit()
    print(f"{'phone' if phone else 'laptop'}: {played} steps pointed at, {dict(kinds)}, "
          f"{'over' if page.evaluate(OVER) else 'going on'}, {time.monotonic() - began:.0f} s")
    return played


def test_play_torri_at_a_laptop_by_pointing(browser: Any, base_url: str, screenshots: Any) -> None:
    context = browser.new_context(base_url=base_url, **LAPTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        played = play(page, base_url, phone=False, nobles=True, seed=3, shots=screenshots)
        assert played >= MIN_TURNS
        assert not errors, errors
    finally:
        context.close()


def test_play_torri_on_a_phone_by_pointing(browser: Any, base_url: str, screenshots: Any) -> None:
    context = browser.new_context(base_url=base_url, **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        played = play(page, base_url, phone=True, nobles=False, seed=5, shots=screenshots)
        assert played >= MIN_TURNS
        assert not page.locator("#tt-keys").count(), "no keyboard hints on a touch screen"
        assert not errors, errors
    finally:
        context.close()


# ---------------------------------------------------------------- the rare steps, from positions dealt on purpose

def deal(page: Any, state: dict) -> None:
    """A new game at /play whose deal is this position (the deal's answer stubbed: the page plays on from it
    through the service as from any deal), the person at seat 1, the computer at seat 2; until the person's turn."""
    page.goto("/play")
    page.wait_for_selector("html[data-ready=true]")
    page.route("**/v1/games/torri/new", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"state": state, "seed": 1})))
    start(page, False)
    page.wait_for_selector("html[data-turn=person]")
    page.unroute("**/v1/games/torri/new")
    page.evaluate(WATCH_TURNS)


def point_at(page: Any, phone: bool, keys: list[str]) -> None:
    """Point at these targets in turn, each lit when it is pointed at; toggles are seen pressed before the next."""
    activate = activator(page, phone)
    for key in keys:
        now = {t["key"]: t for t in board(page)}
        assert key in now and now[key]["lit"], f"{key} is not lit: {[k for k, t in now.items() if t['lit']]}"
        activate(key)
        if now[key]["pressed"] is not None:
            page.wait_for_function("(key) => document.querySelector(`#board .tt-target[data-key=\"${key}\"]`)"
                                   ".getAttribute('aria-pressed') === 'true'", arg=key)


def step_made(page: Any, seen: int, index: int) -> dict:
    """The step at `index` of the record, once the person's turn after the `seen` first ones has come (or the end)."""
    wait_turn(page, seen)
    moves = page.evaluate(RECORD)["moves"]
    assert len(moves) > index, "the step pointed at was applied"
    return moves[index]


BASE = state_dict(hands=[["9", "9", "9", "7", "5"], ["8", "8", "8", "6"]],
                  towers=[["10x3*", "7x3", "9-7"], ["6x4", "8x3*"]])
CONSPIRACY = state_dict(hands=[["10x3"], ["6"]], towers=[["9-7", "8x4"], ["7-5", "5x4", "6x3", "9x3*"]], highest=0)
NOBLES = state_dict(nobles=True, hands=[["mura", "5", "via_francigena"], ["6", "7"]], towers=[["7x3"], ["8x3"]])


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_rare_steps_by_pointing(browser: Any, base_url: str, screenshots: Any, size: str) -> None:
    """A Trade (T-DON-9): the three 9s built, then three of the other hand's face-down cards taken, two given back;
    a Conspiracy (T-DON-10): its target pointed at in the picture, among the towers lit; Via Francigena played
    from the hand (T-NOB-VF), then its draws from either deck until Stop."""
    phone, shots = size == "phone", screenshots
    context = browser.new_context(base_url=base_url, **(PHONE if phone else LAPTOP))
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        # the Trade
        deal(page, BASE)
        nines = [t["key"] for t in board(page) if t["card"] == "9" and t["pile"] == "hand"]
        point_at(page, phone, [*nines, "action:build"])
        assert step_made(page, 1, 0) == {"type": "build", "cards": ["9", "9", "9"]}
        lit = [t["key"] for t in board(page) if t["lit"]]
        assert lit == ["other:0", "other:1", "other:2", "other:3"], lit  # the take: the other hand, face down
        assert_accessible(page)
        point_at(page, phone, ["other:3", "other:0", "other:1", "action:take"])
        assert step_made(page, 2, 1) == {"type": "take", "positions": [0, 1, 3]}
        hand = {t["key"]: t["card"] for t in board(page) if t["pile"] == "hand"}
        given = [key for key, card in hand.items() if card in ("6", "7")]
        assert len(given) == 2, hand
        point_at(page, phone, [*given, "action:give"])
        assert step_made(page, 3, 2) == {"type": "give", "cards": ["6", "7"]}

        # the Conspiracy: the candidates lit in the picture, the other towers not
        deal(page, CONSPIRACY)
        tens = [t["key"] for t in board(page) if t["card"] == "10" and t["pile"] == "hand"]
        point_at(page, phone, [*tens, "action:build"])
        assert step_made(page, 1, 0) == {"type": "build", "cards": ["10", "10", "10"]}
        towers = {t["key"]: t for t in board(page) if t["key"].startswith("tower:")}
        assert sorted(k for k, t in towers.items() if t["lit"]) == ["tower:0:0", "tower:1:0"]
        assert "William" in towers["tower:1:0"]["label"]
        if phone:
            assert towers["tower:1:0"]["width"] >= 44 and towers["tower:1:0"]["height"] >= 44
        assert_accessible(page)
        if shots is not None:
            page.screenshot(path=str(shots / f"play-torri-conspiracy-{size}.png"), full_page=True)
        point_at(page, phone, ["tower:1:0"])
        assert step_made(page, 2, 1) == {"type": "target", "player": 1, "tower": 0}

        # Via Francigena, played from the hand
        deal(page, NOBLES)
        noble = next(t["key"] for t in board(page) if t["card"] == "via_francigena")
        point_at(page, phone, [noble])
        actions = {t["action"]: t for t in board(page) if t["action"]}
        assert actions["noble"]["lit"] and "Via Francigena" in actions["noble"]["label"]
        assert not actions["exchange"]["lit"]  # (an Exchange puts down two cards at least)
        point_at(page, phone, ["action:noble"])
        assert step_made(page, 1, 0) == {"type": "noble", "card": "via_francigena"}
        lit = sorted(t["key"] for t in board(page) if t["lit"])  # (no Giostra in the other hand: no answer)
        assert lit == ["action:stop", "deck", "noble_deck"], lit
        point_at(page, phone, ["noble_deck"])
        assert step_made(page, 2, 1) == {"type": "draw", "from": "noble_deck"}
        point_at(page, phone, ["deck"])
        assert step_made(page, 3, 2) == {"type": "draw", "from": "deck"}
        point_at(page, phone, ["action:stop"])
        assert step_made(page, 4, 3) == {"type": "stop"}
        assert not errors, errors
    finally:
        context.close()
