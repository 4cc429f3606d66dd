"""Carcassonne on the referee page, entered by clicks and keys only: tiles from the palette turned with R and put
on the board, meeples by a click on their feature, the score track typed, towers built floor by floor with a meeple
on top, prisoners. A finished golden game with The Tower: every player's total and every feature, its tiles lit on
the board when hovered, and the link reopening the same board; a game still being played (bag not empty): the
points so far; a tile turned wrong: the rule broken, marked on the board. The example, a whole seeded game, scored
as the service scores it; a tile put by a click turned the first way round that fits; a square chosen first, and
the palette showing only the tiles that fit it."""
from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from service.games import carcassonne
from service.games.carcassonne.game import CarcassonneGame, example_game
from service.games.carcassonne.tiles import DIRECTIONS, Kind

from .conftest import check_both_sizes, link_of, open_referee

GOLDEN = Path(__file__).resolve().parents[1] / "carcassonne" / "data" / "golden" / "2p-seed-14-tower.json"
CELL = 56
EDGES = ["N", "E", "S", "W"]
HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]
EDGE_SPOT = [(0.5, 0.2), (0.8, 0.5), (0.5, 0.8), (0.2, 0.5)]
HALF_SPOT = [(0.28, 0.12), (0.72, 0.12), (0.88, 0.28), (0.88, 0.72), (0.72, 0.88), (0.28, 0.88), (0.12, 0.72),
             (0.12, 0.28)]


@pytest.fixture(scope="module")
def golden() -> tuple[dict, dict]:
    """A whole game with The Tower (two players, 90 tiles): towers, a meeple on top, a prisoner."""
    game = json.loads(GOLDEN.read_text(encoding="utf-8"))
    state = game["final_state"]
    assert state["phase"] == "over" and not state["discarded"] and state["towers"]
    assert any(p["prisoners"] for p in state["players"]) and any(p["score"] for p in state["players"])
    return state, game["score"]


def game_in_progress(seed: int = 3, tiles: int = 8) -> dict:
    """A three-player base game after `tiles` tiles, a meeple wherever the policy could put one, score track typed."""
    rng = random.Random(seed)
    state = carcassonne.new_game(seed, names=["Ada", "Bea", "Cy"], tower=False)
    while len(state.board) < tiles + 1 or state.step.value != "place":
        steps = carcassonne.legal_steps(state)
        state = carcassonne.apply_step(state, rng.choice([s for s in steps if s.type == "meeple"] or steps))[0]
    document = carcassonne.state_json(state)
    for player, track in zip(document["players"], [5, 0, 12]):
        player["score"] = track
    return document


def spot(feature: str) -> dict:
    """Where on a tile (pixels, board orientation) a click names the feature."""
    if feature in EDGES:
        x, y = EDGE_SPOT[EDGES.index(feature)]
    elif feature in HALVES:
        x, y = HALF_SPOT[HALVES.index(feature)]
    else:
        x, y = 0.5, 0.5
    return {"x": x * CELL, "y": y * CELL}


def square(at: list[int]) -> str:
    return f"{at[0]},{at[1]}"


def open_carcassonne(page, fragment: str = "#carcassonne") -> None:
    open_referee(page, fragment)
    page.wait_for_selector("[data-tiles=ready]")


def enter(page, state: dict) -> None:
    if state["variant"]["tower"]:
        page.get_by_label("The Tower", exact=False).check()
    while page.locator(".kc-player").count() < len(state["players"]):
        page.get_by_role("button", name="Add a player").click()
    for i, player in enumerate(state["players"]):
        page.get_by_label(f"Name of player {i + 1}", exact=True).fill("")
        page.get_by_label(f"Name of player {i + 1}", exact=True).type(player["name"])
        page.get_by_label(f"Score track of player {i + 1}", exact=True).click()
        page.keyboard.press("Control+A")
        page.keyboard.type(str(player["score"]))
        page.keyboard.press("Tab")
    for tile in state["board"][1:]:  # the start tile is there already
        page.locator(f'.kc-pick[data-tile="{tile["tile"]}"]').click()
        for _ in range(tile["rotation"] // 90):
            page.keyboard.press("r")
        page.locator(f'.kc-free[data-at="{square(tile["at"])}"]').click()
    expect(page.locator(".kc-tile")).to_have_count(len(state["board"]))
    placed = {node.get_attribute("data-at"): (node.get_attribute("data-tile"), node.get_attribute("data-rotation"),
                                               node.get_attribute("aria-label"))
              for node in page.locator(".kc-tile").all()}
    for tile in state["board"]:  # each tile where it lies, turned as it is (its name in words: no tile id)
        where = square(tile["at"])
        assert placed[where][:2] == (tile["tile"], str(tile["rotation"]))
        assert placed[where][2].startswith(f'Tile at {where}, turned {tile["rotation"]}°: ')
        assert tile["tile"] not in placed[where][2]
    for meeple in state["meeples"]:
        page.locator(".chooser-player").nth(meeple["player"]).click()
        page.locator(f'.kc-tile[data-at="{square(meeple["at"])}"]').click(position=spot(meeple["feature"]))
    expect(page.locator(".kc-meeple")).to_have_count(len(state["meeples"]))
    for tower in state["towers"]:
        page.locator(f'.kc-tile[data-at="{square(tower["at"])}"]').focus()
        page.keyboard.press("Enter")
        for _ in range(tower["height"]):
            page.get_by_role("button", name=f'Tower at {square(tower["at"])}: one floor more').click()
        if tower["top"] is not None:
            page.get_by_label(f'Meeple on top of the tower at {square(tower["at"])}').focus()
            page.keyboard.type(state["players"][tower["top"]]["name"][0])
    for holder, player in enumerate(state["players"]):
        for owner in player["prisoners"]:
            page.get_by_label(f"Add a prisoner held by player {holder + 1}", exact=True).focus()
            page.keyboard.type(state["players"][owner]["name"][0])


def expect_score(page, score: dict) -> None:
    rows = page.locator("#breakdown tbody tr")
    expect(rows.locator("th")).to_have_text([p["name"] for p in score["players"]])
    expect(rows.locator("td.total")).to_have_text([str(p["total"]) for p in score["players"]])
    for category in ("so_far", "roads", "cities", "cloisters", "fields"):
        expect(rows.locator(f"td.{category}")).to_have_text([str(p[category]) for p in score["players"]])
    expect(page.locator("#features li")).to_have_count(len(score["features"]))
    expect(page.locator("#problems")).to_be_hidden()


def test_a_finished_golden_game_with_the_tower(page, base_url, screenshots, golden):
    state, score = golden
    open_carcassonne(page)
    enter(page, state)
    expect(page.locator(".kc-pick:not([disabled])")).to_have_count(0)  # every tile is on the board
    page.keyboard.press("Control+Enter")
    expect_score(page, score)
    winner = score["players"][score["winners"][0]]
    verdict = f'{winner["name"]} wins with {winner["total"]} points'
    expect(page.locator("#verdict")).to_contain_text(verdict)
    expect(page.locator("#announce")).to_contain_text(verdict)

    features = page.locator("#features li")
    biggest = max(range(len(score["features"])), key=lambda i: len(score["features"][i]["tiles"]))
    features.nth(biggest).hover()
    tiles = score["features"][biggest]["tiles"]
    expect(page.locator(".kc-tile.lit")).to_have_count(len(tiles))
    assert {node.get_attribute("data-at") for node in page.locator(".kc-tile.lit").all()} == set(map(square, tiles))
    page.locator("#verdict").hover()
    expect(page.locator(".kc-tile.lit")).to_have_count(0)

    sent = page.evaluate("() => JSON.parse(document.getElementById('json').value).state")
    assert sent["phase"] == "over" and sent["bag"] == [] and sent["towers"] == state["towers"]
    assert [p["prisoners"] for p in sent["players"]] == [p["prisoners"] for p in state["players"]]
    assert [p["supply"] for p in sent["players"]] == [p["supply"] for p in state["players"]]
    expect(page.locator("#picture svg")).to_be_visible()
    expect(page.locator("#download")).to_have_attribute("download", "carcassonne-table.svg")
    check_both_sizes(page, screenshots, "carcassonne-finished")
    local = (base_url, "blob:" + base_url, "data:")  # the tile drawings are blobs made in the page
    assert all(url.startswith(local) for url in page.requests), page.requests
    # what the editor knows of the tiles is one file beside it, not questions to the service
    tile_files = [url for url in page.requests if url.endswith("/tiles.json")]
    assert tile_files == [base_url + "/referee/carcassonne/tiles.json"]
    assert not [url for url in page.requests if "/v1/games/carcassonne/" in url and "legal-moves" in url]
    assert page.errors == []

    # the link reopens the same board
    other = page.context.new_page()
    asked = []
    other.on("request", lambda request: asked.append(request.url))
    open_carcassonne(other, "#" + link_of(page, "^#carcassonne:").split("#", 1)[1])
    expect(other.locator(".kc-tile")).to_have_count(len(state["board"]))
    expect(other.locator(".kc-meeple")).to_have_count(len(state["meeples"]))
    assert not [url for url in asked if "legal-moves" in url]
    other.get_by_role("button", name="Score", exact=True).click()
    expect(other.locator("#breakdown td.total")).to_have_text([str(p["total"]) for p in score["players"]])


def test_a_game_still_being_played(page, screenshots):
    state = game_in_progress()
    score = CarcassonneGame().score({"state": state})
    open_carcassonne(page)
    enter(page, state)
    page.get_by_role("button", name="Score", exact=True).click()
    expect_score(page, score)
    expect(page.locator("#verdict")).to_contain_text("with tiles still in the bag")
    check_both_sizes(page, screenshots, "carcassonne-in-progress")


def test_a_tile_turned_wrong_shows_the_rule(page, golden):
    state, _ = golden
    first = copy.deepcopy(state["board"][1])
    open_carcassonne(page)
    page.get_by_label("The Tower", exact=False).check()
    page.locator(f'.kc-pick[data-tile="{first["tile"]}"]').click()
    for _ in range(first["rotation"] // 90):
        page.keyboard.press("r")
    page.locator(f'.kc-free[data-at="{square(first["at"])}"]').click()
    placed = page.locator(f'.kc-tile[data-at="{square(first["at"])}"]')
    problems = page.locator("#problems")
    # the first turn of it whose edge towards the start tile does not match the start tile's (K-PLACE-2)
    side = DIRECTIONS.index(tuple(first["at"]))  # the tile's side as seen from [0, 0]
    start_edge = carcassonne.face(carcassonne.START_TILE, 0).edges[side]
    turns = next(k for k in range(1, 4)
                 if carcassonne.face(first["tile"], (first["rotation"] + 90 * k) % 360).edges[(side + 2) % 4]
                 is not start_edge)
    for _ in range(turns):
        placed.focus()
        page.keyboard.press("r")
    expect(problems).to_contain_text("K-PLACE-2")
    expect(problems).to_contain_text("does not match")
    expect(page.locator(".kc-tile.bad .kc-rule").first).to_contain_text("K-PLACE-2")
    page.keyboard.press("Delete")
    expect(page.locator(".kc-tile")).to_have_count(1)
    expect(problems).to_be_hidden()


def test_the_example_is_a_whole_seeded_game_and_scores_as_the_service_does(page, screenshots):
    state = carcassonne.state_json(example_game())
    score = CarcassonneGame().score({"state": state})
    open_carcassonne(page)
    page.get_by_role("button", name="Example table").click()
    expect(page.locator(".kc-tile")).to_have_count(72)
    expect(page.locator(".kc-meeple")).to_have_count(len(state["meeples"]))
    expect(page.locator(".kc-pick:not([disabled])")).to_have_count(0)  # every tile is on the board
    page.get_by_role("button", name="Score", exact=True).click()
    expect_score(page, score)
    sent = page.evaluate("() => JSON.parse(document.getElementById('json').value).state")
    assert sent["phase"] == "over" and sent["board"] == state["board"] and sent["meeples"] == state["meeples"]
    assert [p["score"] for p in sent["players"]] == [p["score"] for p in state["players"]]
    assert {f["type"] for f in score["features"]} == {"road", "city", "cloister", "field"}
    winner = score["players"][score["winners"][0]]
    expect(page.locator("#verdict")).to_contain_text(f'{winner["name"]} wins with {winner["total"]} points')
    check_both_sizes(page, screenshots, "carcassonne-example")
    assert page.errors == []


def first_fit(tile: str, at: tuple[int, int], board: dict[tuple[int, int], tuple[str, int]], start: int) -> int:
    """K-PLACE-2: the first rotation, from `start` clockwise, in which `tile` at `at` matches every neighbour."""
    for k in range(4):
        rotation = (start + 90 * k) % 360
        edges = carcassonne.face(tile, rotation).edges
        if all(carcassonne.face(*board[(at[0] + dx, at[1] + dy)]).edges[(side + 2) % 4] is edges[side]
               for side, (dx, dy) in enumerate(DIRECTIONS) if (at[0] + dx, at[1] + dy) in board):
            return rotation
    raise AssertionError(f"{tile} fits no way round at {at}")


def test_a_click_with_a_tile_chosen_puts_it_the_first_way_round_that_fits(page):
    board = {(0, 0): (carcassonne.START_TILE, 0)}
    open_carcassonne(page)
    # north of the start tile its city: a city cap goes there turned to face it, without a key pressed
    page.locator('.kc-pick[data-tile="BA/C"]').click()
    page.locator('.kc-free[data-at="0,-1"]').click()
    turned = first_fit("BA/C", (0, -1), board, 0)
    assert turned == 180
    expect(page.locator('.kc-tile[data-at="0,-1"]')).to_have_attribute("data-tile", "BA/C")
    expect(page.locator('.kc-tile[data-at="0,-1"]')).to_have_attribute("data-rotation", "180")
    expect(page.locator('.kc-tile[data-at="0,-1"]')).to_have_attribute("aria-label", re.compile(
        r"^Tile at 0,-1, turned 180°: city south"))  # its city faces the start tile's, to the south
    board[(0, -1)] = ("BA/C", turned)
    # turned by hand first, the search starts from the way it is shown: a road east of the start tile's road
    page.locator('.kc-pick[data-tile="BA/RFr"]').click()
    page.keyboard.press("r")
    expect(page.locator('.kc-free[data-at="1,0"]')).to_have_attribute("aria-label",
                                                                      "Put at 1,0, turned 180°: road east and west")
    page.locator('.kc-free[data-at="1,0"]').click()
    assert first_fit("BA/RFr", (1, 0), board, 90) == 180
    expect(page.locator('.kc-tile[data-at="1,0"]')).to_have_attribute("data-tile", "BA/RFr")
    expect(page.locator('.kc-tile[data-at="1,0"]')).to_have_attribute("data-rotation", "180")
    # a tile that fits a square no way round is put as shown, and the check names the rule
    page.locator('.kc-pick[data-tile="BA/Cccc+"]').click()
    expect(page.locator('.kc-free[data-at="0,1"]')).to_have_class(re.compile(r"\bnofit\b"))
    page.locator('.kc-free[data-at="0,1"]').click()
    expect(page.locator("#problems")).to_contain_text("K-PLACE-2")
    assert page.errors == []


def test_a_square_chosen_first_narrows_the_palette_to_the_tiles_that_fit(page):
    board = {(0, 0): (carcassonne.START_TILE, 0)}
    open_carcassonne(page)
    everything = page.locator(".kc-pick").count()
    page.locator('.kc-free[data-at="0,-1"]').click()  # no tile chosen: the square is chosen
    expect(page.locator('.kc-free[data-at="0,-1"]')).to_have_class(re.compile(r"\btarget\b"))
    left = carcassonne.tile_counts(False).copy()
    left[carcassonne.START_TILE] -= 1
    fitting = sorted(tile for tile, n in left.items() if n > 0 and any(
        carcassonne.face(tile, r).edges[2] is Kind.CITY for r in (0, 90, 180, 270)))  # its south edge: a city
    expect(page.locator(".kc-pick")).to_have_count(len(fitting))
    assert [node.get_attribute("data-tile") for node in page.locator(".kc-pick").all()] == fitting
    assert len(fitting) < everything
    expect(page.locator(".kc-target-note")).to_contain_text(f"{len(fitting)} of the tiles left fit 0,-1")
    page.get_by_label("Only these").uncheck()
    expect(page.locator(".kc-pick")).to_have_count(everything)
    page.get_by_label("Only these").check()
    # a click in the palette puts the tile on the square, turned the first way round that fits
    page.locator('.kc-pick[data-tile="BA/CFc+"]').click()
    turned = first_fit("BA/CFc+", (0, -1), board, 0)
    expect(page.locator('.kc-tile[data-at="0,-1"]')).to_have_attribute("data-tile", "BA/CFc+")
    expect(page.locator('.kc-tile[data-at="0,-1"]')).to_have_attribute("data-rotation", str(turned))
    expect(page.locator(".kc-pick")).to_have_count(everything)  # the whole palette again, no tile chosen
    expect(page.locator('.kc-pick[aria-pressed="true"]')).to_have_count(0)
    # Escape lets a chosen square go
    page.locator('.kc-free[data-at="1,0"]').click()
    expect(page.locator(".kc-free.target")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".kc-free.target")).to_have_count(0)
    expect(page.locator(".kc-pick")).to_have_count(everything)
    assert page.errors == []
