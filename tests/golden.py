"""What every game's golden tests read: the recorded games and perft counts under tests/<game>/data (written by
tools/make_golden.py), and the deal each recorded game starts from.

A game records one set or more: data/golden/*.json with data/perft.json, and a variant's own set beside them
(Torri's data/golden_nobles/*.json with data/perft_nobles.json). What each set must cover is the game's to say, in
`FEATURES` of tests/<game>/golden.py, keyed by the set's folder name (and how the tool plays it, in `RECORDING`).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.games.core.game import Game
from service.games.registry import GAMES

TESTS = Path(__file__).resolve().parent


def library(game: str) -> Game:
    """The registered game (service.games.core.game.Game), what the replays and perft walk."""
    return GAMES[game]


def data(game: str) -> Path:
    return TESTS / game / "data"


def recorded_sets(game: str) -> list[str]:
    """The folder names of the game's recorded sets: golden, golden_<variant>, …"""
    return sorted(path.name for path in data(game).glob("golden*") if path.is_dir())


def recorded_games(game: str, folder: str = "golden") -> list[Path]:
    return sorted((data(game) / folder).glob("*.json"))


def perft_file(game: str, folder: str) -> Path:
    """The perft counts recorded beside a set: perft.json beside golden, perft_<variant>.json beside
    golden_<variant>."""
    return data(game) / (folder.replace("golden", "perft", 1) + ".json")


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def variant_names(game: str) -> list[str]:
    return [variant.name for variant in GAMES[game].info.variants]


def deal(game: str, golden: dict) -> Any:
    """The deal a recorded game starts from: its seed, its players' names (Torri's two records none) and its
    variant."""
    return library(game).new_game(golden["seed"], names=golden.get("names"), variant=golden["variant"])


def perft_start(game: str, counts: dict, position: dict) -> Any:
    """The deal of a perft position: its seed, its player count if it names one, and the variant, the file's
    (`"variant"`) or the position's own (a key per variant the game declares)."""
    variant = dict(counts.get("variant", {}))
    variant.update({name: position[name] for name in variant_names(game) if name in position})
    names = [f"Player {i + 1}" for i in range(position["players"])] if "players" in position else None
    return library(game).new_game(position["seed"], names=names, variant=variant)


def is_over(game: str, state: Any) -> bool:
    return library(game).to_act(state) is None
