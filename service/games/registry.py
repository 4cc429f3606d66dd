"""The games the service referees. Adding a game: its folder (its `Game` in game.py, named `GAME` by its package;
its rules, wire schemas, rule book) and its id on the line below."""
from __future__ import annotations

from importlib import import_module

from .core.game import Game


def registered(*game_ids: str) -> dict[str, Game]:
    """Each game's `GAME` (service/games/<id>/), by id, in the order given; its id is checked against its info."""
    games = {}
    for game_id in game_ids:
        game = import_module(f"{__package__}.{game_id}").GAME
        if not isinstance(game, Game) or game.info.id != game_id:
            raise TypeError(f"service.games.{game_id}.GAME is no Game with the id {game_id!r}")
        games[game_id] = game
    return games


GAMES: dict[str, Game] = registered("torri", "campanile", "sangimignano", "carcassonne")
