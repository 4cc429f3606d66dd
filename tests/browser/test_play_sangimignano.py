"""San Gimignano on /play, played by pointing at its board (service/games/sangimignano/referee/board.js, drawn with
the game's referee editor's own drawings): a person at seat 1 against the computer (`random`, at once), on a phone
(390×844, touch: taps) and at a laptop's size (1366×768: clicks and the keyboard; the large groups variant).

On each of the person's turns the test means a legal step (a kind first, the rare kinds more often) and points at
what makes it on the board, never at the list in words: the guild space of a token or a tower, "Build no tower", the
free cell of a hexagon (first the hexagon in the hand, now and then), then, where it fits several ways, the way it
lies among those drawn beside the board. By the keyboard, it wanders: the board's one Tab stop, arrow keys, then
Enter or Space on whatever lit target the focus lands on. Then it checks
- that the step applied (the record in the link, decoded with the page's own record.js) is what was pointed at;
- that the board lights exactly the legal steps: every target a step (or a cell, or a hexagon of the hand, that
  narrows them), every legal step reached, each target named in words, one Tab stop, 44 px on the phone;
- that nothing unlit can be chosen: a click, a tap and Enter on the spaces and hexagons that are not lit change
  nothing (they are drawn, not buttons, out of the Tab order);
- that the board shows only what /view gives the person's seat: the hexagons on the table with their tokens and
  towers as the view has them, the seat's own hexagons, and of the other seat's only their count;
- that the board scrolls in its own box (the page never wider than the screen) and opens on its hexagons;
- that the final score shown (html[data-over=true]) is /score's of the final state;
- that axe-core finds nothing serious or critical: a token's turn, the ways a hexagon lies, the end.
It plays the whole game when it fits in TIME_BUDGET seconds, and at least MIN_TURNS of the person's turns.
"""
from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from typing import Any

import pytest

from service.games.registry import GAMES

from .axe import assert_accessible
from .play import Followed

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
GAME = GAMES["sangimignano"]
MIN_TURNS = 10
TIME_BUDGET = 60.0  # seconds of play for each size: the whole game when it fits
# How much more often the test means a step of each kind: a tower often, declining it seldom
WEIGHTS = {"token": 1.0, "hex": 1.0, "build": 3.0, "end": 1.0}

# the person's turn drawn on the board after its n-th drawing; or the game over
NEXT_TURN = """(n) => document.documentElement.dataset.over === 'true' ||
  (document.documentElement.dataset.turn === 'person' &&
   Number(document.querySelector('#board .sgp')?.dataset.shown) > n)"""
# the table as the page shows it: over or not, the board's step, its targets (what each stands for, how big, whether
# lit), what it draws (the hexagons on the table with their pieces, the hexagons of the hand, the players), and the
# record in the link, decoded by the page's own module
SNAPSHOT = """async () => {
  const {decodeRecord} = await import('/referee/assets/record.js');
  const match = /^#sangimignano\\/([a-z0-9,-]+):([zj][A-Za-z0-9_-]+)$/.exec(location.hash);
  const board = document.querySelector('#board .sgp');
  const targets = [...document.querySelectorAll('#board .sgp-target')].map((node) => {
    const box = node.getBoundingClientRect();
    return {tag: node.tagName.toLowerCase(), key: node.dataset.key, role: node.getAttribute('role'),
            label: node.getAttribute('aria-label') || node.textContent.trim(), lit: node.dataset.lit === 'true',
            control: node.dataset.control === 'true', action: node.dataset.action || null,
            tabindex: node.getAttribute('tabindex'), width: box.width, height: box.height,
            move: node.dataset.move ? JSON.parse(node.dataset.move) : null, narrows: node.dataset.narrows === 'true',
            indices: node.dataset.indices ? JSON.parse(node.dataset.indices) : null, at: node.dataset.at || null,
            hex: node.dataset.hex || null, pressed: node.getAttribute('aria-pressed')};
  });
  const owner = (node) => Number(/\\bp(\\d)\\b/.exec(node.getAttribute('class'))[1]);
  const hexes = [...document.querySelectorAll('#board svg.sgp-board > g.sg-hex')].map((hex) => ({
    at: hex.dataset.at,
    spaces: [...hex.querySelectorAll(':scope > g[data-guild]')].map((space) => ({
      guild: space.dataset.guild,
      tokens: [...space.querySelectorAll('.sg-token')].map(owner),
      tower: space.querySelector('.sg-tower') ? owner(space.querySelector('.sg-tower')) : null,
      lit: space.classList.contains('sgp-target'), role: space.getAttribute('role'),
      tabindex: space.getAttribute('tabindex')}))}));
  const hand = [...document.querySelectorAll('#board .sgp-hand')].map((node) => ({
    hex: node.dataset.hex, count: Number(node.dataset.count), lit: node.classList.contains('sgp-target')}));
  const named = new Set([...document.querySelectorAll('#board [data-hex]')].map((node) => node.dataset.hex));
  const scroll = document.querySelector('#board .board-scroll');
  return {over: document.documentElement.dataset.over === 'true', turn: document.documentElement.dataset.turn,
          shown: Number(board?.dataset.shown || 0), step: board?.dataset.step || null,
          wider: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          scrolls: scroll ? scroll.scrollWidth > scroll.clientWidth + 1 : false,
          targets, hexes, hand, named: [...named], players: [...document.querySelectorAll('#board .sgp-player')]
            .map((node) => node.textContent.trim()),
          ways: document.querySelectorAll('#board .sgp-way').length,
          seats: match && match[1], record: match ? await decodeRecord(match[2]) : null,
          focused: document.activeElement?.closest('#board .sgp-target')?.dataset.key || null};
}"""
FOCUSED = "() => document.activeElement?.closest('#board .sgp-target')?.dataset.key || null"
ARROWS = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]


def canonical(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def snapshot(page: Any) -> dict:
    seen = page.evaluate(SNAPSHOT)
    assert seen["seats"] == "person,random" and seen["record"], page.evaluate("location.hash")
    return seen


def selector_of(key: str) -> str:
    return f'#board .sgp-target[data-key="{key}"]'


def check_targets(seen: dict, legal: list[dict], *, phone: bool) -> None:
    """The board's targets against the legal steps: every one lit, named in words, one Tab stop, 44 px on a touch
    screen; the steps they stand for legal, and every legal step lit (or reached through a cell that narrows the
    steps to its own)."""
    targets = seen["targets"]
    steps = [t for t in targets if not t["control"]]
    assert steps, "nothing lit on the person's turn"
    for target in targets:
        assert target["lit"], target
        assert target["label"] and not re.search(r"[{}]", target["label"]), f"a target named {target['label']!r}"
        assert target["tag"] == "button" or target["role"] == "button", target
        if phone:
            assert target["width"] >= 44 and target["height"] >= 44, f"a target smaller than a finger: {target}"
    assert [t["tabindex"] for t in targets].count("0") == 1, "the board is one Tab stop"
    legal_keys = {canonical(m) for m in legal}
    pointed = [t["move"] for t in steps if t["move"]]
    for move in pointed:
        assert canonical(move) in legal_keys, f"lit, but not legal: {move}"
    for target in steps:
        if target["indices"] is not None:  # (a hexagon of the hand stands for its cells, not for steps)
            assert all(0 <= i < len(legal) for i in target["indices"]), target
    reached = {canonical(m) for m in pointed}
    narrowing = {t["at"] for t in steps if t["narrows"] and t["action"] == "cell"}
    for move in legal:
        if canonical(move) in reached:
            continue
        at = move.get("at")
        assert move["type"] == "hex" and f"{at[0]},{at[1]}" in narrowing, f"legal, but not lit: {move}"
    # the spaces lit are the token's and tower's steps, each where the step names it
    for target in steps:
        if target["key"].startswith("space:"):
            _, at, guild = target["key"].split(":")
            assert target["move"]["type"] in ("token", "build") and target["move"]["guild"] == guild and \
                f"{target['move']['at'][0]},{target['move']['at'][1]}" == at, target


def check_view(seen: dict, view: dict, seat: int) -> None:
    """The board draws the seat's view and nothing more: the hexagons on the table and their pieces, the seat's own
    hexagons (each kind once, with its count), the other seat's only counted."""
    drawn = {hex["at"]: [(s["guild"], sorted(s["tokens"]), s["tower"]) for s in hex["spaces"]] for hex in seen["hexes"]}
    wanted = {f"{hex['at'][0]},{hex['at'][1]}": [(hex["guilds"][i], sorted(hex["tokens"][i]), hex["towers"][i])
                                                 for i in range(3)] for hex in view["board"]}
    assert drawn == wanted, "the board is not the view's"
    mine = view["players"][seat]["hexes"]
    assert isinstance(mine, list), "the view holds the seat's own hexagons"
    assert Counter({h["hex"]: h["count"] for h in seen["hand"]}) == Counter("".join(h) for h in mine)
    for other, player in enumerate(view["players"]):
        if other == seat:
            continue
        hidden = player["hexes"]
        assert isinstance(hidden, dict) or hidden == [], "the view hides the other seat's hexagons"
        count = hidden["count"] if isinstance(hidden, dict) else 0
        said = seen["players"][other]
        assert re.search(rf"\b{count} hexagons? in hand\b", said), said
    # every hexagon named on the board is the seat's own (a way to lay one of them included)
    assert set(seen["named"]) <= {"".join(h) for h in mine}, seen["named"]
    for player, said in zip(view["players"], seen["players"]):
        assert said.startswith(player["name"]) and re.search(rf"\b{player['tokens']} tokens? in supply\b", said) \
            and re.search(rf"\b{player['towers']} towers? in supply\b", said), said


def try_unlit(page: Any, phone: bool) -> int:
    """A click (a tap), Enter and Space on spaces and hexagons that are not lit: nothing is chosen, nothing narrows.
    How many were tried."""
    before = snapshot(page)
    still = page.locator("#board .sgp-still[role=img], #board .sgp-hand.sgp-off")
    count = still.count()
    for i in range(min(count, 3)):
        node = still.nth(i)
        assert node.get_attribute("tabindex") is None and node.get_attribute("role") == "img"
        node.tap(force=True) if phone else node.click(force=True)
    page.evaluate("""() => {
      const still = document.querySelectorAll('#board .sgp-still[role=img], #board .sgp-hand.sgp-off');
      for (const node of [...still].slice(0, 20)) {
        node.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
        for (const key of ['Enter', ' ']) {
          node.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
        }
      }
    }""")
    page.wait_for_timeout(150)
    after = snapshot(page)
    assert after["record"]["moves"] == before["record"]["moves"] and after["shown"] == before["shown"], \
        "an unlit place was chosen"
    assert after["turn"] == "person" and after["ways"] == before["ways"]
    assert [t["pressed"] for t in after["targets"]] == [t["pressed"] for t in before["targets"]]
    return count


def activate(page: Any, key: str, how: str, rng: random.Random) -> None:
    if how == "keys":
        page.locator(selector_of(key)).focus()
        page.keyboard.press(rng.choice(["Enter", " "]))
    elif how == "tap":
        page.locator(selector_of(key)).tap()
    else:
        page.locator(selector_of(key)).click()


def wait_for(page: Any, predicate: str, arg: Any = None) -> None:
    page.wait_for_function(predicate, arg=arg, timeout=10_000)


def aim(page: Any, rng: random.Random, how: str, legal: list[dict], seen: dict, counts: Counter) -> dict:
    """Mean one legal step (a kind by WEIGHTS, then one of its steps) and point at what makes it: its space, "Build
    no tower", or for a hexagon its cell (after the hexagon in the hand, now and then) and the way it lies. The step
    the board said it stands for, as it was pointed at."""
    kinds = sorted({step["type"] for step in legal})
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1.0) for k in kinds])[0]
    steps = [s for s in legal if s["type"] == kind]
    if kind == "hex" and rng.random() < 0.8:  # mostly at a cell where a hexagon fits several ways
        ways = Counter(tuple(s["at"]) for s in steps)
        steps = [s for s in steps if ways[tuple(s["at"])] > 1] or steps
    step = rng.choice(steps)
    targets = {t["key"]: t for t in seen["targets"]}
    if kind in ("token", "build"):
        key = f"space:{step['at'][0]},{step['at'][1]}:{step['guild']}"
    elif kind == "end":
        key = "end"
    else:
        assert kind == "hex", step
        return lay(page, rng, how, legal, step, targets, counts)
    assert key in targets and targets[key]["move"] == step, f"{step} is not lit where it is made: {targets.get(key)}"
    activate(page, key, how, rng)
    return targets[key]["move"]


def lay(page: Any, rng: random.Random, how: str, legal: list[dict], step: dict, targets: dict,
        counts: Counter) -> dict:
    hexagon = "".join(step["hex"])
    at = f"{step['at'][0]},{step['at'][1]}"
    hands = [t for t in targets.values() if t["action"] == "hand"]
    kinds = {"".join(s["hex"]) for s in legal if s["type"] == "hex"}
    assert bool(hands) == (len(kinds) > 1), "the hand's hexagons are targets when there is a hexagon to choose"
    chosen = None
    if hands and rng.random() < 0.5:
        # the hexagon first: only the cells where it fits stay lit
        activate(page, f"hand:{hexagon}", how, rng)
        wait_for(page, "(key) => document.querySelector(`#board [data-key=\"${key}\"]`)"
                 "?.getAttribute('aria-pressed') === 'true'", f"hand:{hexagon}")
        chosen = hexagon
        counts["hand"] += 1
        now = snapshot(page)
        cells = {t["at"] for t in now["targets"] if t["key"].startswith("cell:")}
        assert cells == {f"{s['at'][0]},{s['at'][1]}" for s in legal if s["type"] == "hex" and
                         "".join(s["hex"]) == hexagon}, "the cells lit are not those where the hexagon fits"
        pressed = [t["key"] for t in now["targets"] if t["pressed"] == "true"]
        assert pressed == [f"hand:{hexagon}"], pressed
        targets = {t["key"]: t for t in now["targets"]}
    ways = [s for s in legal if s["type"] == "hex" and s["at"] == step["at"] and
            (chosen is None or "".join(s["hex"]) == chosen)]
    cell = targets[f"cell:{at}"]
    assert sorted(cell["indices"]) == sorted(legal.index(s) for s in ways), (cell, ways)
    if len(ways) == 1:
        assert cell["move"] == step
        activate(page, f"cell:{at}", how, rng)
        return cell["move"]
    assert cell["narrows"] and cell["move"] is None
    activate(page, f"cell:{at}", how, rng)
    wait_for(page, "(n) => document.querySelectorAll('#board .sgp-way').length === n", len(ways))
    counts["narrowed"] += 1
    now = snapshot(page)
    if how == "keys":  # the focus goes to the first way
        assert now["focused"] == next(t["key"] for t in now["targets"] if t["key"].startswith("way:"))
    drawn = [t for t in now["targets"] if t["key"].startswith("way:")]
    assert sorted(canonical(t["move"]) for t in drawn) == sorted(canonical(s) for s in ways), \
        "the ways drawn are not the steps at the cell"
    for target in drawn:
        assert target["at"] == at and target["hex"] == "".join(target["move"]["hex"])
        assert target["key"] == f"way:{target['hex']}:{target['move']['rotation']}"
    if counts["back"] < 2 and rng.random() < 0.3:  # another cell, and this one again
        if how == "keys":
            page.keyboard.press("Escape")
        else:
            activate(page, "back", how, rng)
        wait_for(page, "() => !document.querySelector('#board .sgp-way')")
        counts["back"] += 1
        activate(page, f"cell:{at}", how, rng)
        wait_for(page, "(n) => document.querySelectorAll('#board .sgp-way').length === n", len(ways))
    key = f"way:{hexagon}:{step['rotation']}"
    if how == "click":  # the cell shows the way pointed at
        page.locator(selector_of(key)).hover()
        shows = page.evaluate("""(at) => [...document.querySelectorAll(`#board .sgp-cell[data-at="${at}"] .sgp-ghost
          g[data-guild]`)].map((space) => space.dataset.guild).join('')""", at)
        assert sorted(shows) == sorted(hexagon), (shows, hexagon)
    activate(page, key, how, rng)
    return step


def wander(page: Any, rng: random.Random, seen: dict, counts: Counter) -> dict:
    """By the keyboard: the board's Tab stop, arrow keys, then Enter or Space on the target the focus lands on (a
    cell that narrows: arrow keys among its ways, then Enter or Space)."""
    page.locator("#board .sgp-target[tabindex='0']").focus()
    for _ in range(rng.randrange(6)):
        page.keyboard.press(rng.choice(ARROWS))
    key = page.evaluate(FOCUSED)
    targets = {t["key"]: t for t in seen["targets"]}
    assert key in targets, f"the arrow keys leave the lit targets: {key}"
    target = targets[key]
    if target["action"] == "hand":  # a hexagon of the hand: chosen, then a cell where it fits
        page.keyboard.press(rng.choice(["Enter", " "]))
        wait_for(page, "(key) => document.querySelector(`#board [data-key=\"${key}\"]`)"
                 "?.getAttribute('aria-pressed') === 'true'", key)
        counts["hand"] += 1
        page.locator(selector_of(next(t["key"] for t in snapshot(page)["targets"] if t["key"].startswith("cell:")))) \
            .focus()
        key = page.evaluate(FOCUSED)
        target = {t["key"]: t for t in snapshot(page)["targets"]}[key]
    page.keyboard.press(rng.choice(["Enter", " "]))
    if not target["narrows"]:
        return target["move"]
    wait_for(page, "() => document.querySelectorAll('#board .sgp-way').length > 1")
    counts["narrowed"] += 1
    assert page.evaluate(FOCUSED).startswith("way:"), "the focus is not on the first way"
    ways = {t["key"]: t for t in snapshot(page)["targets"] if t["key"].startswith("way:")}
    for _ in range(rng.randrange(min(len(ways), 4))):  # along their row
        page.keyboard.press("ArrowRight")
    key = page.evaluate(FOCUSED)
    assert key in ways, f"the arrow keys leave the ways: {key}"
    page.keyboard.press(rng.choice(["Enter", " "]))
    return ways[key]["move"]


def start(page: Any, *, large_groups: bool) -> None:
    page.goto("/play")
    page.wait_for_selector("html[data-ready=true]")
    page.select_option("#game", "sangimignano")
    if large_groups:
        page.check("#variant-list input[value=large_groups]")
    page.locator("#seats .who").nth(0).select_option("person")
    page.locator("#seats .who").nth(1).select_option("random")
    page.select_option("#pace", "0")
    page.click("#start")
    page.wait_for_function(NEXT_TURN, arg=0, timeout=30_000)


def opens_on_hexagons(page: Any) -> None:
    """The board scrolls inside its box, the page no wider than the screen; the hexagons dealt in view."""
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    inside = page.evaluate("""() => {
      const box = document.querySelector('#board .board-scroll').getBoundingClientRect();
      return [...document.querySelectorAll('#board svg.sgp-board > g.sg-hex')].every((hex) => {
        const b = hex.getBoundingClientRect();
        return b.left >= box.left - 1 && b.right <= box.right + 1 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
      });
    }""")
    assert inside, "the board does not open on its hexagons"


def play(page: Any, *, phone: bool, large_groups: bool, seed: int) -> Counter[str]:
    """The person's turns by pointing at the board, to the end of the game when it fits in TIME_BUDGET seconds (at
    least MIN_TURNS turns); what was applied checked against what was pointed at. The counts of what was pointed
    at, by kind and by how."""
    rng = random.Random(seed)
    start(page, large_groups=large_groups)
    opens_on_hexagons(page)
    seen = snapshot(page)
    assert seen["record"]["state"]["variant"] == {"large_groups": large_groups}
    table = Followed(GAME, seen["record"])
    counts: Counter[str] = Counter()
    began = time.monotonic()
    turns = 0
    expected = None  # the step last pointed at
    audited: set[str] = set()
    while True:
        # the turn drawn: what was pointed at is what was applied (the record in the link), then the steps lit now
        moves = seen["record"]["moves"]
        if expected is not None:
            assert len(moves) > len(table.moves) and moves[len(table.moves)] == expected, \
                f"pointed at {expected}, applied {moves[len(table.moves):len(table.moves) + 1]}"
        table.follow(moves)
        if seen["over"]:
            break
        if turns >= MIN_TURNS and time.monotonic() - began > TIME_BUDGET:
            break
        seat = GAME.to_act(table.state)
        assert seat == 0, "the person's turn at the computer's seat"
        legal = table.legal()
        assert seen["step"] == table.json()["step"]
        check_targets(seen, legal, phone=phone)
        check_view(seen, GAME.view({"state": table.json(), "player": seat})["state"], seat)
        assert seen["wider"] <= 0, "the page is wider than the screen: the board scrolls in its own box"
        if seen["step"] == "token":
            turns += 1
        if turns in (1, 5) and f"unlit {turns}" not in audited:
            audited.add(f"unlit {turns}")
            counts["unlit"] += try_unlit(page, phone)
        if seen["step"] not in audited:  # axe-core on a turn of each kind
            audited.add(seen["step"])
            assert_accessible(page)
        how = "tap" if phone else rng.choice(["click", "click", "keys", "wander"])
        if how == "wander":
            expected = wander(page, rng, seen, counts)
            how = "keys"
        else:
            expected = aim(page, rng, how, legal, seen, counts)
        if "ways" not in audited and page.locator("#board .sgp-way").count():
            audited.add("ways")
            assert_accessible(page)
        counts[expected["type"]] += 1
        counts[how] += 1
        page.wait_for_function(NEXT_TURN, arg=seen["shown"], timeout=30_000)
        assert not page.errors, page.errors
        seen = snapshot(page)
    if seen["over"]:
        score = GAME.score({"state": table.json()})
        said = page.locator("#scores li").all_inner_texts()
        assert len(said) == len(score["players"])
        winners = score["winners"]
        for i, (text, player) in enumerate(zip(said, score["players"])):
            assert text.startswith(player["name"]) and re.search(rf"\b{player['towers']} towers?$", text), \
                (text, player)
            assert ("leads" in page.locator("#scores li").nth(i).get_attribute("class")) == (i in winners)
        verdict = page.locator("#verdict").inner_text()
        for i in winners:
            assert score["players"][i]["name"] in verdict, verdict
        assert_accessible(page)
        counts["over"] += 1
    assert not page.errors, page.errors
    assert turns >= MIN_TURNS or seen["over"], f"{turns} turns played"
    return counts


def new_page(browser: Any, base_url: str, size: dict) -> Any:
    context = browser.new_context(base_url=base_url, **size)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    return page


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_play_by_pointing(browser: Any, base_url: str, size: str) -> None:
    phone = size == "phone"
    page = new_page(browser, base_url, PHONE if phone else LAPTOP)
    try:
        counts = play(page, phone=phone, large_groups=not phone, seed=3 if phone else 8)
        assert (counts["token"] >= MIN_TURNS or counts["over"]) and counts["hex"] and counts["unlit"], counts
        if phone:
            assert counts["tap"] and not counts["keys"], counts
        else:
            assert counts["keys"] and counts["click"], counts
    finally:
        page.context.close()
