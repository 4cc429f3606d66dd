"""The advanced game's recorded games (the ten nobles, tests/torri/data/golden_nobles and perft_nobles.json, written
by tools/make_golden.py) beyond what tests/test_golden.py holds every recorded set to: they are all of the advanced
game, their checkpoints are where the nobles' rare decisions are, the tool still plays them, and each perft position
is the recorded deal.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from service.games import torri
from tests.golden import load, perft_file, perft_start, recorded_games

GOLDEN = recorded_games("torri", "golden_nobles")
PERFT = load(perft_file("torri", "golden_nobles"))
TOOL = Path(__file__).resolve().parents[2] / "tools" / "make_golden.py"


def test_golden_noble_games_are_of_the_advanced_game_and_check_the_rare_decisions() -> None:
    assert all(load(path)["variant"] == {"nobles": True} for path in GOLDEN)
    checkpoints = {c["feature"] for path in GOLDEN for c in load(path)["checkpoints"]}
    assert {"giostra_on_noble", "giostra_on_buona_pietra_rebuild", "palazzo_fizzled", "palazzo_cap_refusal",
            "via_francigena_stop"} <= checkpoints


def test_the_tool_plays_the_golden_games_again() -> None:
    """The generator's directed games still are the recorded ones (the data files and the tool agree)."""
    spec = importlib.util.spec_from_file_location("make_golden", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)  # type: ignore[union-attr]
    for path in GOLDEN:
        golden = load(path)
        game = tool.play_recorded("torri", "golden_nobles", golden)
        assert game.steps == golden["steps"] and sorted(game.features) == golden["features"], path.name


@pytest.mark.parametrize("position", PERFT["positions"], ids=lambda p: p["name"])
def test_noble_perft_positions_are_the_recorded_deals(position: dict) -> None:
    assert PERFT["variant"] == {"nobles": True}
    outcome = torri.apply_steps(perft_start("torri", PERFT, position), position["steps"])
    assert outcome.legal
    assert [torri.CARD_NAMES[c] for c in outcome.state.noble_deck] == position["noble_deck"]  # the same deal
