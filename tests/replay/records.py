"""Seeded whole games with one illegal step inserted: what the replay's command line and page are tested with."""
from __future__ import annotations

import random
from dataclasses import dataclass

from service.games.core.errors import IllegalStepError
from service.games.registry import GAMES

NAMES = ("Ada", "Bea", "Cy", "Dee", "Eve")


@dataclass(frozen=True)
class Disputed:
    """A record {"state", "moves"} whose move `failed_at` is the first illegal one, breaking `rule`."""

    game: str
    variant: dict
    record: dict
    failed_at: int
    rule: str
    legal_before: int  # the number of legal steps open at `failed_at`


def cases() -> list[tuple[str, dict, int]]:
    """(game, variant, players) for every game: the base game at one player more than the fewest where the game
    seats more, then each variant (at its example) at the most players."""
    found = []
    for game_id, game in GAMES.items():
        info = game.info
        found.append((game_id, {}, min(info.min_players + 1, info.max_players)))
        found += [(game_id, {variant.name: variant.example}, info.max_players) for variant in info.variants]
    return found


def whole_game(game_id: str, variant: dict, players: int, seed: int) -> tuple[dict, list[dict]]:
    """(the dealt state, every move) of one seeded random game played to its end (passing only when nothing else
    is open)."""
    game = GAMES[game_id]
    start = game.new({"seed": seed, "names": list(NAMES[:players]), "variant": variant})["state"]
    state = game.load_state(start).checked()
    rng = random.Random(f"replay:{game_id}:{variant}:{players}:{seed}")
    moves: list[dict] = []
    while len(moves) < 1000:
        legal = game.legal_moves_of(state)
        if not legal:
            break
        move = rng.choice([move for move in legal if move["type"] != "pass"] or legal)  # a game, not two passes
        state = game.apply_steps(state, [move]).state
        moves.append(move)
    return start, moves


def disputed(game_id: str, variant: dict | None = None, players: int = 2, seed: int = 7,
             where: float = 0.6) -> Disputed:
    """A whole seeded game with, about `where` of the way through, a move of the same game inserted where it is
    not legal (the first earlier move the position refuses)."""
    variant = variant or {}
    start, moves = whole_game(game_id, variant, players, seed)
    game = GAMES[game_id]
    at = int(len(moves) * where)
    state = game.load_state(start).checked()
    for move in moves[:at]:
        state = game.apply_steps(state, [move]).state
    legal = game.legal_moves_of(state)
    for candidate in reversed(moves[:at]):
        if candidate in legal:
            continue
        try:
            game.apply_step(state, game.as_step(candidate))
        except IllegalStepError as error:
            rule = error.problems[0].rule
            record = {"state": start, "moves": [*moves[:at], candidate, *moves[at:]]}
            return Disputed(game_id, variant, record, at, rule or "", len(legal))
    raise AssertionError("no earlier move is illegal here")
