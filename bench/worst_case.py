"""The slowest legal request per game, variant and endpoint, found by search: what one request can cost a worker.

    python bench/worst_case.py                 # every game, ~3 min
    python bench/worst_case.py --games sangimignano --seconds 20 --json /tmp/worst.json

Candidates are legal bodies of every kind the API takes, made by playing whole seeded games of every game, variant
and player count through the library with three policies (random; passive: the step that changes least, such as
declining a tower, whenever one is offered; and the player that always takes the first step listed):
- the state after every step, for `/validate`, `/legal-moves`, `/view`, `/score` and `/picture` (where the game
  draws), and the same state as a player other than the one to act sees it (their hands unknown) for
  `/legal-moves`, `/validate`, `/score`;
- from a sample of those states, the rest of the game as `moves` for `/apply` and `/replay`, and, where a step can be
  repeated without end (San Gimignano's `end`), that step as many times as a request may hold;
- the game's hostile bodies the tests keep (tests/hostile/data), found by an earlier climb over token placements.
Every candidate is timed once through Flask's test client with the cache off; the slowest few per endpoint are timed
again (median of `--repeat`), and the slowest of those is reported with the request's and the answer's size.
Nothing here asserts: the figures go to RESULTS.md.
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import orjson
from marshmallow import validate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT
from service.games.core.game import Capability  # noqa: E402
from service.games.registry import GAMES  # noqa: E402

STATE_ENDPOINTS = ("validate", "legal-moves", "view", "score")  # every game's; /picture where the game draws
MOVES_ENDPOINTS = ("apply", "replay")
PASSIVE = ("end", "decline", "pass", "stop", "skip")  # step types that change the least, where a game has them
NAMES = ["Ada", "Bea", "Cy", "Dee", "Eve"]
HOSTILE = ROOT / "tests" / "hostile" / "data"
MAX_PLAYOUT = 400  # steps: a passive game can go on for ever (everyone declining), a real one ends well before


@dataclass
class Candidate:
    game: str
    variant: str
    endpoint: str
    body: dict
    origin: str
    raw: bytes = b""
    seconds: list[float] = field(default_factory=list)
    status: int = 0
    answer_bytes: int = 0

    @property
    def time(self) -> float:
        return statistics.median(self.seconds)


def variants(game) -> list[dict]:
    """The base game, then each variant on its own at the value that plays it (its `example`)."""
    return [{}] + [{v.name: v.example} for v in game.info.variants]


def state_endpoints(game) -> tuple[str, ...]:
    """The endpoints a state alone is sent to: every game's, then /picture if the game draws."""
    return STATE_ENDPOINTS + (("picture",) if game.offers(Capability.PICTURE) else ())


def variant_name(variant: dict) -> str:
    return ",".join(variant) or "base"


def max_moves(game) -> int:
    """The longest `moves` list the contract allows for the game: its moves request schema's length limit."""
    field = game.wire.schema("MovesRequest")._declared_fields["moves"]
    return next(v.max for v in field.validators if isinstance(v, validate.Length) and v.max is not None)


def playout(game, variant: dict, players: int, seed: int, policy: str) -> Iterator[tuple[dict, list[dict], dict]]:
    """(state JSON, the moves played from it to the end, the state as a player who is not to act sees it) for
    every state of one seeded game."""
    doc = game.new({"seed": seed, "names": NAMES[:players], "variant": variant})["state"]
    state = game.load_state(doc).checked()
    rng = random.Random(f"{policy}:{seed}")
    states, moves, views = [game.state_json(state)], [], [hidden_view(game, state)]
    while len(moves) < MAX_PLAYOUT:
        legal = game.legal_moves_of(state)
        if not legal:
            break
        if policy == "passive":
            quiet = [m for m in legal if m.get("type") in PASSIVE]
            move = rng.choice(quiet or legal)
        elif policy == "first":
            move = legal[0]
        else:
            move = rng.choice(legal)
        outcome = game.apply_steps(state, [move])
        assert outcome.legal, (game.info.id, move, outcome.violations)
        state = outcome.state
        moves.append(move)
        states.append(game.state_json(state))
        views.append(hidden_view(game, state))
    for i, doc in enumerate(states):
        yield doc, moves[i:], views[i]


def hidden_view(game, state) -> dict:
    """The state as seen by a player other than the one to act: their hands unknown, so the legal list has to
    allow for every card they might hold."""
    to_act = game.to_act(state)
    other = 0 if to_act is None else (to_act + 1) % game.players(state)
    return game.state_json(game.player_view(state, other))


def repeatable(game, doc: dict, limit: int) -> list[dict] | None:
    """A passive step that stays legal `limit` times in a row from `doc`, as a moves list, or None."""
    state = game.load_state(doc).checked()
    for move in game.legal_moves_of(state):
        if move.get("type") in PASSIVE:
            outcome = game.apply_steps(state, [move] * limit)
            if outcome.legal:
                return [move] * limit
    return None


def candidates(game, seconds: float, limit: int, seed0: int) -> Iterator[Candidate]:
    """Bodies from seeded games, the time shared out evenly between the variants."""
    info = game.info
    for variant in variants(game):
        yield Candidate(info.id, variant_name(variant), "new",
                        {"seed": seed0, "names": NAMES[:info.max_players], "variant": variant}, "deal")
    for variant in variants(game):
        name = variant_name(variant)
        deadline = time.perf_counter() + seconds / len(variants(game))
        seed = seed0
        while time.perf_counter() < deadline:
            seed += 1
            for players, policy in itertools.product(range(info.min_players, info.max_players + 1),
                                                      ("random", "passive", "first")):
                if time.perf_counter() >= deadline:
                    break
                origin = f"{players}p seed {seed} {policy}"
                for index, (doc, rest, seen) in enumerate(playout(game, variant, players, seed, policy)):
                    for endpoint in state_endpoints(game):
                        body = {"state": doc, "player": 0} if endpoint == "view" else {"state": doc}
                        yield Candidate(info.id, name, endpoint, body, f"{origin}, after step {index}")
                    if seen != doc:
                        for endpoint in ("legal-moves", "validate", "score"):
                            yield Candidate(info.id, name, endpoint, {"state": seen},
                                            f"{origin}, after step {index}, as another player sees it")
                    if index % 7 == 0 and rest:
                        for endpoint in MOVES_ENDPOINTS:
                            yield Candidate(info.id, name, endpoint, {"state": doc, "moves": rest[:limit]},
                                            f"{origin}, the rest of the game from step {index}")
                    if policy == "passive" and index % 5 == 0:
                        again = repeatable(game, doc, limit)
                        if again:
                            for endpoint in MOVES_ENDPOINTS:
                                yield Candidate(info.id, name, endpoint, {"state": doc, "moves": again},
                                                f"{origin}, {limit} x {again[0]['type']} from step {index}")
                            break  # a game that can idle for ever: one such body is enough


def hostile_candidates(game, limit: int) -> Iterator[Candidate]:
    """The game's hostile states the tests keep, each with a passive step repeated as often as a request may."""
    info = game.info
    for path in sorted(HOSTILE.glob("*.json")):
        doc = json.loads(path.read_text())
        if doc.get("game") != info.id:
            continue
        played = doc.get("variant") or {}
        variant = variant_name({v.name: played[v.name] for v in info.variants
                                if played.get(v.name, v.default) != v.default})
        for move in game.legal_moves_of(game.load_state(doc).checked()):
            if move.get("type") in PASSIVE:
                for endpoint in MOVES_ENDPOINTS:
                    yield Candidate(info.id, variant, endpoint, {"state": doc, "moves": [move] * limit},
                                    f"tests/hostile/data/{path.name}, {limit} x {move['type']}")
                break


def time_one(client, candidate: Candidate) -> None:
    if not candidate.raw:
        candidate.raw = orjson.dumps(candidate.body)
    started = time.perf_counter()
    response = client.post(f"/v1/games/{candidate.game}/{candidate.endpoint}", data=candidate.raw,
                           content_type="application/json")
    data = response.get_data()
    candidate.seconds.append(time.perf_counter() - started)
    candidate.status, candidate.answer_bytes = response.status_code, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--seconds", type=float, default=30.0, help="candidate generation per game")
    parser.add_argument("--top", type=int, default=4, help="candidates per endpoint timed again")
    parser.add_argument("--repeat", type=int, default=5, help="timings of each of the slowest")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the results here as JSON")
    args = parser.parse_args()

    app = create_app({"RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "CACHE_MAX_ENTRIES": 0, "LOG_LEVEL": "WARNING", "REDIS_URL": ""})
    client = app.test_client()
    rows = []
    refused = 0
    for game_id in args.games.split(","):
        game = GAMES[game_id]
        limit = max_moves(game)
        found: dict[tuple[str, str], list[Candidate]] = {}
        count = 0
        for candidate in itertools.chain(hostile_candidates(game, limit),
                                         candidates(game, args.seconds, limit, args.seed)):
            time_one(client, candidate)
            count += 1
            candidate.body = candidate.body if candidate.status == 200 else {}
            if candidate.status != 200:
                refused += 1
                continue
            slot = found.setdefault((candidate.variant, candidate.endpoint), [])
            slot.append(candidate)
            slot.sort(key=lambda c: -c.seconds[0])
            for dropped in slot[args.top:]:
                dropped.body, dropped.raw = {}, b""  # keep only what will be timed again
            del slot[args.top:]
        for (variant, endpoint), slot in sorted(found.items()):
            for candidate in slot:
                candidate.seconds = []
                for _ in range(args.repeat):
                    time_one(client, candidate)
            worst = max(slot, key=lambda c: c.time)
            rows.append({"game": game_id, "variant": variant, "endpoint": endpoint, "ms": round(worst.time * 1000, 2),
                         "request_bytes": len(worst.raw), "answer_bytes": worst.answer_bytes,
                         "origin": worst.origin, "candidates": count})
            print(f"{game_id:13} {variant:13} {endpoint:12} {worst.time * 1000:9.2f} ms  {len(worst.raw):>8} B in "
                  f"{worst.answer_bytes:>9} B out  ({worst.origin})", flush=True)
        print(f"{game_id}: {count} candidates timed", flush=True)
    if refused:
        print(f"{refused} candidates were not 200 (left out)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
