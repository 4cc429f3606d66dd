"""The generated files are up to date: the tile table from the shared tile data, the rule catalogue from the
rule book (each tool's --check; skipped where the shared folder is absent), the referee page's tile facts from
the tile table and its example from the seeded game. The golden data is checked by replaying it (test_golden.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args, "--check"], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not (SHARED / "data" / "carcassonne").is_dir(), reason="the shared tile data is not here")
def test_the_tile_table_is_generated_from_the_shared_data():
    result = _check("tools/gen_carcassonne_tiles.py")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not (SHARED / "design" / "carcassonne-rules.md").is_file(), reason="the rule book is not here")
def test_the_rule_catalogue_is_generated_from_the_rule_book():
    result = _check("tools/gen_carcassonne_catalogue.py")
    assert result.returncode == 0, result.stdout + result.stderr



def test_the_referee_page_s_tile_facts_are_generated_from_the_tile_table():
    result = _check("tools/gen_carcassonne_referee_tiles.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_referee_page_s_example_is_the_generated_seeded_game():
    result = _check("tools/gen_carcassonne_referee_example.py")
    assert result.returncode == 0, result.stdout + result.stderr
