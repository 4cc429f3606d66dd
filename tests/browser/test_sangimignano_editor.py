"""San Gimignano on the referee page: a finished game's board laid hexagon by hexagon with clicks and keys (the
three guilds chosen by key, the hexagon turned with R), its tokens and towers put on guild spaces, and the score
with every player's towers and tokens; an illegal layout marked on the board with the rule broken; the link."""
from __future__ import annotations

from collections import deque

import pytest
from playwright.sync_api import expect

from service.games.sangimignano.game import SanGimignanoGame, example_game
from service.games.sangimignano.position import state_json

from .conftest import check_both_sizes, link_of, open_referee

DIRECTIONS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


@pytest.fixture(scope="module")
def finished() -> tuple[dict, dict]:
    """The service's own example of a whole seeded game (three players), and its score."""
    state = state_json(example_game()[0])
    return state, SanGimignanoGame().score({"state": state})


def laying_order(board: list[dict]) -> list[dict]:
    """The hexagons from [0, 0] outwards, each touching one laid before (the editor offers only such cells)."""
    by_at = {tuple(hexagon["at"]): hexagon for hexagon in board}
    order, seen, queue = [], {(0, 0)}, deque([(0, 0)])
    while queue:
        at = queue.popleft()
        order.append(by_at[at])
        for dq, dr in DIRECTIONS:
            near = (at[0] + dq, at[1] + dr)
            if near in by_at and near not in seen:
                seen.add(near)
                queue.append(near)
    assert len(order) == len(board)
    return order


def at(hexagon: dict) -> str:
    return f'{hexagon["at"][0]},{hexagon["at"][1]}'


def space(page, hexagon: dict, guild: str):
    return page.locator(f'g.sg-hex[data-at="{at(hexagon)}"] g.sg-space[data-guild="{guild}"]')


def use(page, tool: str, player: int) -> None:
    page.locator(f'.sg-tool[data-tool="{tool}"]').click()
    page.locator(".chooser-player").nth(player).click()


def lay(page, hexagon: dict) -> None:
    page.locator(f'g.sg-free[data-at="{at(hexagon)}"]').click()
    for i, guild in enumerate(hexagon["guilds"]):
        page.get_by_label(f"Guild of space {i + 1}", exact=True).focus()
        page.keyboard.press(guild)  # a closed select jumps to the option starting with the key
    page.get_by_role("button", name="Turn the hexagon").focus()
    for _ in range(hexagon["rotation"]):
        page.keyboard.press("r")
    expect(page.locator(".sg-rotation")).to_have_text(f"rotation {hexagon['rotation']}")


def test_a_finished_game_entered_by_clicks_and_keys(page, base_url, screenshots, finished):
    state, score = finished
    names = [player["name"] for player in state["players"]]
    open_referee(page, "#sangimignano")
    page.get_by_role("button", name="Add a player").click()
    for i, name in enumerate(names):
        page.get_by_label(f"Name of player {i + 1}", exact=True).fill("")
        page.get_by_label(f"Name of player {i + 1}", exact=True).type(name)
    order = laying_order(state["board"])
    for hexagon in order:
        lay(page, hexagon)
    expect(page.locator("g.sg-hex")).to_have_count(len(order))
    for hexagon in order:
        for i, guild in enumerate(hexagon["guilds"]):
            for player in hexagon["tokens"][i]:
                use(page, "token", player)
                space(page, hexagon, guild).click()
            if hexagon["towers"][i] is not None:
                use(page, "tower", hexagon["towers"][i])
                space(page, hexagon, guild).focus()
                page.keyboard.press("Enter")
    page.get_by_role("button", name="Score", exact=True).click()

    rows = page.locator("#breakdown tbody tr")
    expect(rows.locator("th")).to_have_text(names)
    expect(rows.locator("td.towers")).to_have_text([str(p["towers"]) for p in score["players"]])
    expect(rows.locator("td.tokens")).to_have_text([str(p["tokens"]) for p in score["players"]])
    assert score["decided_by"] == "tokens"
    expect(page.locator("#verdict")).to_have_text("Bea wins: 3 towers, as many as Ada, and the tie goes to the most "
                                                  "tokens on the board, 20 (S-END-3).")
    expect(page.locator("#picture svg")).to_be_visible()
    expect(page.locator("#download")).to_have_attribute("download", "sangimignano-table.svg")
    expect(page.locator("#problems")).to_be_hidden()
    check_both_sizes(page, screenshots, "sangimignano-scored")
    assert all(url.startswith(base_url) for url in page.requests), page.requests
    assert page.errors == []

    # the link reopens the same board
    other = page.context.new_page()
    other.goto(link_of(page, "^#sangimignano:"))
    other.wait_for_selector("html[data-ready=true]")
    expect(other.locator("g.sg-hex")).to_have_count(len(order))
    first = order[0]
    expect(space(other, first, first["guilds"][0])).to_have_attribute(
        "aria-label", space(page, first, first["guilds"][0]).get_attribute("aria-label"))
    other.get_by_role("button", name="Score", exact=True).click()
    expect(other.locator("#breakdown td.tokens")).to_have_text([str(p["tokens"]) for p in score["players"]])


def test_an_illegal_layout_is_marked_on_the_board(page, screenshots):
    open_referee(page, "#sangimignano")
    page.get_by_role("button", name="Example table").click()
    expect(page.locator("g.sg-hex")).to_have_count(12)
    page.get_by_role("button", name="Score", exact=True).click()
    expect(page.locator("#breakdown td.towers")).to_have_text(["3", "3", "2"])
    first = {"at": [0, 0]}
    use(page, "token", 2)
    space(page, first, "A").click()  # a third token on a space that holds two: S-TOKEN-1
    problems = page.locator("#problems")
    expect(problems).to_contain_text("3 tokens on one space; a space holds at most two.")
    expect(problems).to_contain_text("S-TOKEN-1")
    marked = page.locator('g.sg-hex.bad[data-at="0,0"]')
    expect(marked).to_have_count(1)
    expect(marked.locator("text.sg-rule")).to_contain_text("S-TOKEN-1")
    check_both_sizes(page, screenshots, "sangimignano-problem")

    # emptying the space clears the mark
    use(page, "empty", 0)
    space(page, first, "A").click()
    expect(page.locator("g.sg-hex.bad")).to_have_count(0)
