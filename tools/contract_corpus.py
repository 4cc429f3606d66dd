"""Record the service's answers to a broad corpus of requests, and compare a later build's answers field by field.

    python tools/contract_corpus.py record /tmp/before      # before a change: requests and answers, one per line
    python tools/contract_corpus.py compare /tmp/before     # after it: every answer again; differences listed
    python tools/contract_corpus.py compare /tmp/before --game torri   # only one game's requests

A change that must not change the wire contract (a refactor, a speed-up) is checked this way: the corpus covers every
game, variant and player count, and for each of them legal, illegal, malformed and impossible requests to every
endpoint. It is made from seeded games, so the same build always makes the same corpus; `compare` sends the
recorded requests, so the corpus does not depend on the build that compares. Answers are compared as JSON, field by
field (JSON pointers in the report); what differs per request by design (`request_id`) is left out, and
`--ignore-rules-version` leaves out `rules_version` for a change that bumps it on purpose. A change that adds a field
to answers on purpose names it with `--ignore-added NAME` (repeatable): a field of that name present now and absent
before is counted, not reported; everything else, that field's value where both have it included, is compared.

    python tools/contract_corpus.py compare /tmp/before --ignore-added text
"""
from __future__ import annotations

import argparse
import copy
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT  # noqa: E402
from service.games.core.game import Capability  # noqa: E402
from service.games.core.language import LANGUAGES  # noqa: E402
from service.games.registry import GAMES  # noqa: E402

NAMES = ["Ada", "Bea", "Cy", "Dee", "Eve"]
STATE_ENDPOINTS = ("validate", "legal-moves", "score")  # every game's; then /picture and /notation where offered
VOLATILE = {"request_id"}
CORPUS = "corpus.jsonl"


def variants(game) -> list[dict]:
    """The base game, then each variant on its own at the value that plays it (its `example`)."""
    return [{}] + [{v.name: v.example} for v in game.info.variants]


def state_endpoints(game) -> tuple[str, ...]:
    """The endpoints a state alone is sent to: every game's, then /picture if the game draws."""
    return STATE_ENDPOINTS + (("picture",) if game.offers(Capability.PICTURE) else ())


def playout(game, variant: dict, players: int, seed: int) -> tuple[list[dict], list[dict]]:
    """(every state JSON, every move) of one seeded random game, at most 300 steps."""
    doc = game.new({"seed": seed, "names": NAMES[:players], "variant": variant})["state"]
    state = game.load_state(doc).checked()
    rng = random.Random(f"corpus:{game.info.id}:{seed}:{players}")
    states, moves = [game.state_json(state)], []
    while len(moves) < 300:
        legal = game.legal_moves_of(state)
        if not legal:
            break
        move = rng.choice(legal)
        state = game.apply_steps(state, [move]).state
        moves.append(move)
        states.append(game.state_json(state))
    return states, moves


def broken_copies(doc: dict, rng: random.Random) -> Iterator[tuple[str, dict]]:
    """Malformed and impossible variations of a state: a field dropped, a field of the wrong type, an unknown
    field, numbers out of range, a player too many or too few, a list emptied."""
    keys = sorted(doc)
    key = rng.choice(keys)
    dropped = {k: v for k, v in doc.items() if k != key}
    yield f"without {key}", dropped
    yield "unknown field", {**doc, "surprise": 1}
    for key in keys:
        value = doc[key]
        if isinstance(value, bool):
            yield f"{key} a string", {**doc, key: "yes"}
        elif isinstance(value, int):
            yield f"{key} + 7", {**doc, key: value + 7}
            yield f"{key} - 100", {**doc, key: value - 100}
        elif isinstance(value, list) and value:
            yield f"{key} emptied", {**doc, key: []}
            yield f"{key} doubled", {**doc, key: value + value}
        elif isinstance(value, str):
            yield f"{key} unknown", {**doc, key: "nonsense"}
    players = doc.get("players")
    if isinstance(players, list) and players and isinstance(players[0], dict):
        changed = copy.deepcopy(doc)
        player = changed["players"][0]
        for field in sorted(player):
            if isinstance(player[field], int) and not isinstance(player[field], bool):
                player[field] += 1
        yield "first player's numbers + 1", changed
        yield "a player too many", {**doc, "players": players + [copy.deepcopy(players[-1])]}


def requests() -> Iterator[tuple[str, str, Any]]:
    """(method, path, body) of the whole corpus, in a fixed order: each request asked in English, then in one of
    the other languages in turn (`?lang=`), so that every answer's words are compared in every language."""
    others = LANGUAGES[1:]
    for count, (method, path, body) in enumerate(_asked_in_english()):
        yield method, path, body
        yield method, f"{path}?lang={others[count % len(others)]}", body


def _asked_in_english() -> Iterator[tuple[str, str, Any]]:
    yield "GET", "/v1/games", None
    for game_id, game in GAMES.items():
        base = f"/v1/games/{game_id}"
        yield "GET", f"{base}/rules", None
        info = game.info
        for variant in variants(game):
            for players in range(info.min_players, info.max_players + 1):
                for seed in (1, 2):
                    new = {"seed": seed, "names": NAMES[:players], "variant": variant}
                    yield "POST", f"{base}/new", new
                    states, moves = playout(game, variant, players, seed)
                    rng = random.Random(f"{game_id}:{players}:{seed}:{sorted(variant)}")
                    picks = sorted({0, len(states) - 1, *rng.sample(range(len(states)), min(6, len(states)))})
                    for i in picks:
                        doc = states[i]
                        for endpoint in state_endpoints(game):
                            yield "POST", f"{base}/{endpoint}", {"state": doc}
                        yield "POST", f"{base}/legal-moves", {"state": doc, "texts": True}
                        for player in range(players):
                            yield "POST", f"{base}/view", {"state": doc, "player": player}
                        if game.offers(Capability.NOTATION):
                            yield "POST", f"{base}/notation", {"state": doc}
                        if i < len(moves):
                            yield "POST", f"{base}/apply", {"state": doc, "moves": moves[i:i + 3]}
                            yield "POST", f"{base}/replay", {"state": doc, "moves": moves[i:i + 12]}
                            other = moves[(i + 5) % len(moves)]  # most often illegal here
                            yield "POST", f"{base}/apply", {"state": doc, "moves": [other]}
                            yield "POST", f"{base}/apply", {"state": doc, "moves": [{**moves[i], "extra": 1}]}
                            yield "POST", f"{base}/apply", {"state": doc, "moves": [{"type": "nonsense"}]}
                            if game.offers(Capability.PICTURE):  # a proposed step drawn, legal or not
                                for proposed in (moves[i], other):
                                    yield "POST", f"{base}/picture", {"state": doc, "moves": [proposed]}
                        for _, broken in broken_copies(doc, rng):
                            yield "POST", f"{base}/validate", {"state": broken}
                            yield "POST", f"{base}/legal-moves", {"state": broken}
                    yield "POST", f"{base}/replay", {"state": states[0], "moves": moves}
                    yield "POST", f"{base}/score", {"state": states[-1]}
        for junk in ({}, [], {"state": None}, {"state": {}}, {"seed": -1, "names": []}):
            for endpoint in ("new", "validate", "legal-moves", "apply", "replay", "score", "view"):
                if endpoint != "new" or not isinstance(junk, dict) or "seed" in junk:  # no seed: a random deal
                    yield "POST", f"{base}/{endpoint}", junk


def answer_of(client, method: str, path: str, body: Any) -> dict:
    if method == "GET":
        response = client.get(path)
    else:
        response = client.post(path, data=orjson.dumps(body), content_type="application/json")
    data = response.get_data()
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError:
        parsed = data.decode("utf-8", "replace")
    return {"status": response.status_code, "type": response.mimetype, "body": parsed}


def make_client():
    """The deployed settings, but: no answer kept (every answer computed), no Redis, quiet logs, and a rate limit the
    corpus's one client never reaches (the limiter counts every request all the same)."""
    return create_app({"RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "CACHE_MAX_ENTRIES": 0, "LOG_LEVEL": "ERROR",
                       "REDIS_URL": "", "TESTING": True}).test_client()


def differences(before: Any, after: Any, pointer: str = "", ignore: frozenset[str] = frozenset(),
                added: frozenset[str] = frozenset(), counted: Counter | None = None) -> Iterator[str]:
    """Every difference of `after` from `before`, as a JSON pointer and what changed; a field in `ignore` is left
    out, and one in `added` that only `after` has is counted in `counted` instead of reported."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            if key in ignore:
                continue
            where = f"{pointer}/{key}"
            if key not in after:
                yield f"{where}: gone (was {_short(before[key])})"
            elif key not in before:
                if key in added:
                    if counted is not None:
                        counted[key] += 1
                    continue
                yield f"{where}: new ({_short(after[key])})"
            else:
                yield from differences(before[key], after[key], where, ignore, added, counted)
    elif isinstance(before, list) and isinstance(after, list):
        if len(before) != len(after):
            yield f"{pointer}: {len(before)} items, now {len(after)}"
        for i, (old, new) in enumerate(zip(before, after)):
            yield from differences(old, new, f"{pointer}/{i}", ignore, added, counted)
    elif before != after or type(before) is not type(after):
        yield f"{pointer}: {_short(before)} -> {_short(after)}"


def _short(value: Any) -> str:
    text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def record(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    client = make_client()
    count = 0
    statuses: dict[int, int] = {}
    with open(folder / CORPUS, "wb") as out:
        for method, path, body in requests():
            answer = answer_of(client, method, path, body)
            out.write(orjson.dumps({"method": method, "path": path, "body": body, "answer": answer}) + b"\n")
            count += 1
            statuses[answer["status"]] = statuses.get(answer["status"], 0) + 1
    print(f"recorded {count} requests in {folder / CORPUS}: " +
          ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items())))


def compare(folder: Path, ignore_rules_version: bool, most: int, game: str | None = None,
            ignore_added: frozenset[str] = frozenset()) -> int:
    client = make_client()
    ignore = frozenset(VOLATILE | ({"rules_version"} if ignore_rules_version else set()))
    changed = total = 0
    added: Counter = Counter()  # fields of `ignore_added` found only in the new answers
    answers_adding = 0
    with open(folder / CORPUS, "rb") as lines:
        for line in lines:
            entry = orjson.loads(line)
            if game is not None and not entry["path"].startswith(f"/v1/games/{game}/"):
                continue
            total += 1
            now = answer_of(client, entry["method"], entry["path"], entry["body"])
            before_added = sum(added.values())
            found = list(differences(entry["answer"], now, "", ignore, ignore_added, added))
            answers_adding += sum(added.values()) > before_added
            if found:
                changed += 1
                if changed <= most:
                    print(f"{entry['method']} {entry['path']} {_short(entry['body'])}")
                    for difference in found[:10]:
                        print(f"    {difference}")
    for name in sorted(ignore_added):
        print(f"added \"{name}\": {added[name]} times, in {answers_adding} answers (left out of the comparison)")
    print(f"{total} requests, {changed} answers differ")
    return 1 if changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--ignore-rules-version", action="store_true")
    parser.add_argument("--most", type=int, default=30, help="differing answers printed at most")
    parser.add_argument("--game", help="compare only the requests to this game's endpoints")
    parser.add_argument("--ignore-added", action="append", default=[], metavar="NAME",
                        help="a field the change adds on purpose: where only the new answer has it, it is counted, "
                             "not reported (repeatable)")
    args = parser.parse_args()
    if args.action == "record":
        record(args.folder)
        return 0
    return compare(args.folder, args.ignore_rules_version, args.most, args.game, frozenset(args.ignore_added))


if __name__ == "__main__":
    raise SystemExit(main())
