"""Carcassonne on /play, played by pointing at the board (board.js beside the game's editor), against the computer
at random: ten turns of the base game on a phone (390×844, touch: taps), a whole game with The Tower on a laptop
(1366×768: clicks, and the keyboard).

- on each of the person's turns the board lights exactly the legal steps: the free squares where the drawn tile fits
  (one way round: the square is the step; several: pointing at it draws the ways it can lie, each a target), the
  features of the tile just placed where a meeple may go, the towers to raise, the meeples to capture, "no meeple";
  every target a button named in words, 44 px at least on a touch screen, all of them one Tab stop;
- what the person pointed at is what the page applied (the record in the link, decoded by the page's record.js),
  and what a target stands for is what it shows (its square, the rotation drawn, the feature);
- by the keyboard: the board's one Tab stop, the arrow keys to a target, Enter or Space;
- what is not lit cannot be chosen (a square where the tile does not fit, a tile with nothing to do on it);
- the board scrolls inside its own box (class board-scroll), the page never wider than the screen, and it opens on
  the tiles;
- played to the end, the final score shown is /score's of the final state;
- axe-core finds nothing serious or critical, with the rotations drawn and with a tile up close.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from service.games.registry import GAMES

from .axe import assert_accessible
from .play import Followed

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
GAME = GAMES["carcassonne"]

# the person's turn drawn on the board after its n-th drawing; or the game over
NEXT_TURN = """(n) => document.documentElement.dataset.over === 'true' ||
  (document.documentElement.dataset.turn === 'person' && Number(document.querySelector('.kb')?.dataset.shown) > n)"""
# the table as the page shows it: over or not, the board's drawing and step, every target of the board (what it
# stands for, how big, whether lit), and the record in the link, decoded by the page's own module
SNAPSHOT = """async () => {
  const {decodeRecord} = await import('/referee/assets/record.js');
  const match = /^#carcassonne\\/([a-z0-9,-]+):([zj][A-Za-z0-9_-]+)$/.exec(location.hash);
  const board = document.querySelector('#board .kb');
  const targets = [...document.querySelectorAll('#board .kb-target')].map((node) => {
    const box = node.getBoundingClientRect();
    return {tag: node.tagName, key: node.dataset.key, label: node.getAttribute('aria-label') || node.textContent.trim(),
            lit: node.classList.contains('kb-lit'), control: node.classList.contains('kb-control'),
            tabindex: node.getAttribute('tabindex'), width: box.width, height: box.height,
            move: node.dataset.move ? JSON.parse(node.dataset.move) : null, narrows: node.dataset.narrows === 'true',
            at: node.dataset.at || null, feature: node.dataset.feature || null,
            drawn: node.querySelector('img')?.style.transform || null};
  });
  return {over: document.documentElement.dataset.over === 'true', shown: Number(board?.dataset.shown || 0),
          wider: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          step: board?.dataset.step || null, targets, seats: match && match[1],
          record: match ? await decodeRecord(match[2]) : null,
          focused: document.activeElement?.closest('#board .kb-target')?.dataset.key || null};
}"""
FOCUSED = "() => document.activeElement?.closest('#board .kb-target')?.dataset.key || null"
ARROWS = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]
NARROWED = ("rotation:", "meeple:", "floor:", "tower_meeple:", "capture:")  # the targets a tile up close offers


def snapshot(page, legal: list[dict] | None = None, *, phone: bool = False) -> dict:
    seen = page.evaluate(SNAPSHOT)
    assert seen["seats"] == "person,random" and seen["record"], page.evaluate("location.hash")
    if legal is not None and not seen["over"]:
        check_targets(seen["targets"], legal, phone=phone)
    return seen


def check_targets(targets: list[dict], legal: list[dict], *, phone: bool) -> None:
    """The board's targets against the legal steps: every one lit, a button named in words, one Tab stop, 44 px on a
    touch screen; the steps they stand for legal, and every legal step lit (or reached through a square or a tile
    that narrows the steps to its own)."""
    steps = [t for t in targets if not t["control"]]
    assert steps, "nothing lit on the person's turn"
    for target in targets:
        assert target["tag"] == "BUTTON" and target["label"] and not re.search(r"[{}]", target["label"]), target
        assert target["lit"] or target["control"], target
        if phone:
            assert target["width"] >= 44 and target["height"] >= 44, f"a target smaller than a finger: {target}"
    assert [t["tabindex"] for t in targets].count("0") == 1, "the board is one Tab stop"
    pointed = [t["move"] for t in steps if t["move"]]
    for move in pointed:
        assert move in legal, f"lit, but not legal: {move}"
    direct = {json.dumps(m, sort_keys=True) for m in pointed}
    narrowing = {t["at"] for t in steps if t["narrows"]}
    for move in legal:
        if json.dumps(move, sort_keys=True) in direct:
            continue
        at = move.get("at")
        assert (at and f"{at[0]},{at[1]}" in narrowing) or (move["type"] == "meeple" and narrowing), \
            f"legal, but not lit: {move}"


def keyed(page, rng: random.Random, presses: int, arrows: list[str]) -> str | None:
    """Arrow keys pressed from where the focus is (the board's Tab stop when it is not on the board); the key of the
    target focused."""
    if page.evaluate(FOCUSED) is None:
        page.locator("#board .kb-target[tabindex='0']").focus()
    for _ in range(presses):
        page.keyboard.press(rng.choice(arrows))
    return page.evaluate(FOCUSED)


def selector_of(target: dict) -> str:
    return f'#board .kb-target[data-key="{target["key"]}"]'


def activate(page, target: dict, how: str, rng: random.Random) -> None:
    if how == "tap":
        page.locator(selector_of(target)).tap()
    elif how == "keys":
        assert page.evaluate(FOCUSED) == target["key"]
        page.keyboard.press(rng.choice(["Enter", " "]))
    else:
        page.locator(selector_of(target)).click()


def try_unlit(page, moves: int, shown: int) -> None:
    """A square where the tile does not fit, and a tile with nothing to do on it: pointing at them does nothing
    (they are drawn, not buttons, out of the Tab order)."""
    for selector in ("#board .kc-free.kb-off", "#board div.kc-tile"):
        nodes = page.locator(selector)
        if nodes.count():
            node = nodes.first
            assert node.evaluate("(n) => n.tagName") == "DIV" and node.get_attribute("tabindex") is None
            node.click(force=True)
    page.wait_for_timeout(150)
    seen = snapshot(page)
    assert seen["shown"] == shown and len(seen["record"]["moves"]) == moves, "an unlit place was chosen"


def check_pointed(chosen: dict, narrowed_from: dict | None) -> None:
    """What a target stands for is what it shows: the square it lies on, the rotation drawn, the feature."""
    move = chosen["move"]
    square = chosen["at"] or (narrowed_from and narrowed_from["at"])
    if move.get("at") or move["type"] == "place":
        assert square and move["at"] == [int(v) for v in square.split(",")], (move, square)
    if move["type"] == "place":
        assert chosen["drawn"] == f"rotate({move['rotation']}deg)", (move, chosen["drawn"])
    if chosen["key"].startswith(("meeple:", "capture:")) and move.get("feature") != "tower":
        assert chosen["feature"] == move["feature"]  # up close, where the editor draws a meeple on it


def start(page, *, tower: bool) -> None:
    page.goto("/play")
    page.wait_for_selector("html[data-ready=true]")
    page.select_option("#game", "carcassonne")
    if tower:
        page.check("#variant-list input[value=tower]")
    page.locator("#seats .who").nth(0).select_option("person")
    page.locator("#seats .who").nth(1).select_option("random")
    page.select_option("#pace", "0")
    page.click("#start")
    page.wait_for_function(NEXT_TURN, arg=0)


def opens_on_tiles(page) -> None:
    """The board scrolls inside its box, the page no wider than the screen; the start tile in view."""
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    inside = page.evaluate("""() => {
      const box = document.querySelector('#board .board-scroll').getBoundingClientRect();
      const tile = document.querySelector('#board .kc-tile[data-at="0,0"]').getBoundingClientRect();
      return tile.left >= box.left && tile.right <= box.right && tile.top >= box.top && tile.bottom <= box.bottom;
    }""")
    assert inside, "the board does not open on its tiles"


def play(page, *, phone: bool, tower: bool, turns: int | None, seed: int) -> Counter[str]:
    """The person's turns by pointing at the board (`turns` of them, None: to the end); what was applied checked
    against what was pointed at. The counts of what was pointed at, by kind and by how."""
    rng = random.Random(seed)
    start(page, tower=tower)
    opens_on_tiles(page)
    seen = snapshot(page)
    table = Followed(GAME, seen["record"])
    counts: Counter[str] = Counter()
    person_turns = 0
    audited = set()
    expected = None  # the step last pointed at
    while True:
        # the turn drawn: what was pointed at is what was applied (the record in the link), then the steps lit now
        moves = seen["record"]["moves"]
        if expected is not None:
            assert len(moves) > len(table.moves) and moves[len(table.moves)] == expected, \
                f"pointed at {expected}, applied {moves[len(table.moves):len(table.moves) + 1]}"
        table.follow(moves)
        if seen["over"]:
            break
        legal = table.legal()
        check_targets(seen["targets"], legal, phone=phone)
        assert seen["wider"] <= 0, "the page is wider than the screen: the board scrolls in its own box"
        kind, steps = seen["step"], [t for t in seen["targets"] if not t["control"]]
        if kind == "place":
            person_turns += 1
            if turns is not None and person_turns > turns:
                break
            if person_turns in (1, 6):
                try_unlit(page, len(table.moves), seen["shown"])
        how = "tap" if phone else rng.choice(["click", "click", "keys"])
        if kind == "action" and "close" not in audited and page.locator("#board .kb-zoom").count():
            audited.add("close")
            assert_accessible(page)
        # what is pointed at: any lit target (by the keyboard: the one the arrow keys land on)
        if how == "keys":
            key = keyed(page, rng, rng.randrange(6), ARROWS)
            target = next((t for t in steps if t["key"] == key), None)
            assert target, f"the arrow keys leave the lit steps: {key}"
        else:
            target = rng.choice(steps)
        narrowed_from = None
        if target["narrows"]:
            narrowed_from = target
            activate(page, target, how, rng)
            page.wait_for_selector("#board .kb-tray .kb-target[data-move]")
            if kind == "place" and "rotations" not in audited:
                audited.add("rotations")
                assert_accessible(page)
            narrowed = snapshot(page, legal, phone=phone)
            inner = [t for t in narrowed["targets"] if t["move"] and t["key"].startswith(NARROWED)]
            assert inner, "pointing narrowed to nothing"
            if how == "keys":
                # the focus goes to the first of them; the others along their row
                assert narrowed["focused"] == inner[0]["key"]
                presses = rng.randrange(len(inner)) if kind == "place" else 0
                key = keyed(page, rng, presses, ["ArrowRight"])
                chosen = next((t for t in inner if t["key"] == key), None)
                assert chosen, f"the arrow keys leave the ways the tile lies: {key}"
            else:
                chosen = rng.choice(inner)
            counts["narrowed " + kind] += 1
        else:
            chosen = target
        expected = chosen["move"]
        check_pointed(chosen, narrowed_from)
        activate(page, chosen, how, rng)
        counts[expected["type"]] += 1
        counts[how] += 1
        page.wait_for_function(NEXT_TURN, arg=seen["shown"])
        assert not page.errors, page.errors
        seen = snapshot(page)
    if seen["over"]:
        score = page.evaluate("""async (state) => {
          const response = await fetch('/v1/games/carcassonne/score', {method: 'POST', body: JSON.stringify({state}),
            headers: {'Content-Type': 'application/json', 'Accept': 'application/json'}});
          return response.json();
        }""", GAME.state_json(table.state))
        said = page.locator("#scores li").all_inner_texts()
        assert len(said) == len(score["players"])
        for text, player in zip(said, score["players"]):
            assert text.startswith(player["name"]) and re.search(rf"\b{player['total']} points?\b", text), \
                (text, player)
        counts["over"] += 1
    assert not page.errors, page.errors
    return counts


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_play_by_pointing(browser, base_url, size):
    context = browser.new_context(base_url=base_url, **(PHONE if size == "phone" else LAPTOP))
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    try:
        if size == "phone":
            counts = play(page, phone=True, tower=False, turns=10, seed=5)
            assert counts["place"] >= 10 and counts.get("narrowed place"), counts
        else:
            counts = play(page, phone=False, tower=True, turns=None, seed=11)
            assert counts.get("over") and counts.get("floor") and counts.get("meeple") and counts.get("keys"), counts
    finally:
        context.close()


# the board module shown on /play with steps the game seldom deals at random: a tile that fits nowhere, a ransom
FABRICATED = """async (view) => {
  const {el, svgNode} = await import('/referee/assets/page.js');
  const {translator} = await import('/referee/assets/words.js');
  const {createBoard} = await import('/referee/carcassonne/board.js');
  document.getElementById('game-style').href = '/referee/carcassonne/editor.css';
  const root = el('div', {id: 'fabricated'});
  document.querySelector('main').prepend(root);
  window.picked = [];
  const board = createBoard({root, el, svgNode, picture: async () => null, ...translator({lang: 'en'}),
                             touch: () => false, announce: () => {}});
  const steps = [{type: 'discard', tile: 'BA/L'}, {type: 'ransom', from: 1}];
  window.again = () => board.show({view, steps, texts: ['discard', 'ransom'], seat: 0, names: ['Ada', 'Bea'],
                                   pick: (indices) => window.picked.push(indices)});
  await window.again();
  return [...root.querySelectorAll('.kb-target')].map((node) => [node.dataset.key, node.getAttribute('aria-label')]);
}"""


def test_a_tile_that_fits_nowhere_and_a_ransom(page):
    """The tile drawn is discarded where it is shown; the person's meeple held by another player is freed where it
    is shown among that player's prisoners: each a target named in words, picked by its index (by click, and by
    Enter on the board's one Tab stop)."""
    page.goto("/play")
    page.wait_for_selector("html[data-ready=true]")
    view = page.evaluate("""async () => (await (await fetch('/v1/games/carcassonne/new', {method: 'POST',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify({names: ['Ada', 'Bea'],
      variant: {tower: true}})})).json()).state""")
    view["players"][1]["prisoners"] = [0]
    view["players"][0].update(score=5, supply=6)
    targets = dict(page.evaluate(FABRICATED, view))
    assert targets == {"ransom:1": "Pay Bea 3 points to free your meeple",
                       "discard:BA/L": "Discard the tile, which fits nowhere: cloister"}
    assert page.locator("#fabricated .kb-board .kb-target").count() == 0  # nothing on the board is lit
    page.locator('#fabricated .kb-target[data-key="ransom:1"]').click()
    assert page.evaluate("window.picked") == [[1]]
    assert page.locator("#fabricated .kb-target").count() == 0  # once chosen, nothing is lit until the next turn
    page.evaluate("window.again()")  # the same turn drawn again
    page.locator("#fabricated .kb-target[tabindex='0']").focus()  # the board's one Tab stop: the ransom, first
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.key") == "discard:BA/L"
    page.keyboard.press("Enter")
    assert page.evaluate("window.picked") == [[1], [0]]
    assert not page.errors, page.errors
