"""The generated files are up to date (each tool's --check): the tile table from the tile data in
tools/data/carcassonne/, the referee page's tile facts from the tile table and its example from the seeded game.
The rule catalogue is checked with every game's (tests/test_generated.py); the golden data by replaying it
(tests/test_golden.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args, "--check"], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_tile_table_is_generated_from_the_tile_data():
    result = _check("tools/gen_carcassonne_tiles.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_referee_page_s_tile_facts_are_generated_from_the_tile_table():
    result = _check("tools/gen_carcassonne_referee_tiles.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_referee_page_s_example_is_the_generated_seeded_game():
    result = _check("tools/gen_carcassonne_referee_example.py")
    assert result.returncode == 0, result.stdout + result.stderr
