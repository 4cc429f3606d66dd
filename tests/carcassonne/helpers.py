"""Building Carcassonne positions for the tests: a board, meeples and towers, with everything else made
consistent (the bag holds the rest of the tiles, the drawn tile first; supplies and floors balance)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from service.games import carcassonne
from service.games.carcassonne import FLOORS, START_TILE, tile_counts

START = (START_TILE, (0, 0), 0)

# A 3x3 block below the start tile, all edges matching, around a cloister at [0, 2] (tile counts of basic:1).
CLOISTER_BLOCK = [
    ("BA/Cc.1", (-1, 1), 0), ("BA/L", (0, 1), 0), ("BA/Cc.1", (1, 1), 90),
    ("BA/C", (-1, 2), 270), ("BA/L", (0, 2), 0), ("BA/C", (1, 2), 90),
    ("BA/Cc.1", (-1, 3), 270), ("BA/C", (0, 3), 180), ("BA/Cc+", (1, 3), 180),
]


def doc(board: Iterable[tuple[str, tuple[int, int], int]] = (), *, players: int = 2, tower: bool = False,
        draw: Iterable[str] = (), meeples: Iterable[tuple[int, tuple[int, int], str]] = (),
        towers: Iterable[tuple[tuple[int, int], int, int | None]] = (), step: str = "place",
        last: tuple[int, int] | None = None, raised: tuple[int, int] | None = None, turn: int = 0,
        scores: Iterable[int] | None = None, prisoners: Iterable[Iterable[int]] | None = None,
        bag_count: bool = False, ransomed: bool = False, phase: str = "play", keep: int | None = None) -> dict:
    """A state document. `board` is added after the start tile (unless it places [0, 0] itself); `draw` are the
    next tiles of the bag; `keep` bounds the bag (the rest of the tiles are discarded)."""
    tiles = list(board)
    if not any(at == (0, 0) for _, at, _ in tiles):
        tiles.insert(0, START)
    left = Counter(tile_counts(tower))
    left.subtract(t for t, _, _ in tiles)
    draw = list(draw)
    left.subtract(draw)
    assert all(left[t] >= 0 for t in tile_counts(tower)), "more tiles than the set has"
    rest = draw + [t for t in tile_counts(tower) for _ in range(left[t])]
    discarded: list[str] = []
    if keep is not None:
        rest, discarded = rest[:keep], rest[keep:]
    towers = list(towers)
    floors = [FLOORS[players] if tower else 0] * players
    used = sum(h for _, h, _ in towers)
    for p in reversed(range(players)):
        taken = min(used, floors[p])
        floors[p] -= taken
        used -= taken
    prisoners = [list(p) for p in prisoners] if prisoners is not None else [[] for _ in range(players)]
    scores = list(scores) if scores is not None else [0] * players
    return {
        "game": "carcassonne", "variant": {"tower": tower}, "phase": phase, "turn": turn, "step": step,
        "bag": {"count": len(rest)} if bag_count else rest, "discarded": discarded,
        "board": [{"tile": t, "at": list(at), "rotation": r} for t, at, r in tiles],
        "last": list(last) if last else None, "raised": list(raised) if raised else None,
        "meeples": [{"player": p, "at": list(at), "feature": f} for p, at, f in meeples],
        "towers": [{"at": list(at), "height": h, "top": top} for at, h, top in towers],
        "players": [{"name": f"P{i}", "score": scores[i], "floors": floors[i], "prisoners": prisoners[i]}
                    for i in range(players)],
        "ransomed": ransomed,
    }


def state(*args: Any, **kwargs: Any) -> carcassonne.State:
    return carcassonne.read_state(doc(*args, **kwargs))


def play(st: carcassonne.State, *steps: dict) -> tuple[carcassonne.State, list[dict]]:
    """Apply legal steps (failing the test on an illegal one): the state after them and the events."""
    outcome = carcassonne.apply_steps(st, list(steps))
    assert outcome.legal, outcome.violations
    return outcome.state, outcome.events


def refused(st: carcassonne.State, step: dict) -> list[str]:
    """The rule ids an illegal step breaks (asserting it is illegal and not listed)."""
    outcome = carcassonne.apply_steps(st, [step])
    assert not outcome.legal, step
    parsed = carcassonne.parse_step(step)
    assert parsed not in carcassonne.legal_steps(st)
    return [p.rule for p in outcome.violations]


def scored(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == "scored"]


def listed(st: carcassonne.State, kind: str) -> list[dict]:
    return [m for m in carcassonne.legal_moves(st) if m["type"] == kind]
