"""Every registered game's rule catalogue is up to date: service/games/<game>/rule_book.json is what
tools/gen_catalogue.py makes of the game's own rule book, service/games/<game>/rules.md. A game's other generated
files are checked in its own tests (e.g. tests/carcassonne/test_generated.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from service.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_rule_catalogue_is_generated_from_the_game_s_rule_book(game):
    assert (ROOT / "service" / "games" / game / "rules.md").is_file()
    result = subprocess.run([sys.executable, "tools/gen_catalogue.py", game, "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
