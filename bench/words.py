"""What saying an answer's words in another language costs, counted in instructions: immune to the machine's other
load, which moves the time of a /replay by more than the difference measured.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/words.py torri en 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/words.py torri en 4
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/words.py torri fr 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/words.py torri fr 4

Each round posts five whole seeded games of two players to /replay (every event said) through Flask's test client,
the deployed settings with the cache off (every answer computed) and `Accept-Language` the language given. What a
language costs an answer is (its run of 4 rounds - its run of 2) / (the same in English), from callgrind's
`Collected` line: what a process does once cancels out, the set-up and the first answer in a language reading that
language's catalogues, which a worker does once in its life.
`bench/requests.py --endpoints replay --language fr` measures the same in CPU time, on a quiet machine.
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.api.config import HEAVY_CLIENT_RATE_LIMIT  # noqa: E402
from tests.replay.records import whole_game  # noqa: E402

GAMES = 5


def main() -> None:
    game_id, language, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    logging.disable(logging.CRITICAL)
    client = create_app({"RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "CACHE_MAX_ENTRIES": 0,
                         "LOG_LEVEL": "ERROR"}).test_client()
    bodies = []
    for seed in range(1, GAMES + 1):
        start, moves = whole_game(game_id, {}, 2, seed)
        bodies.append(json.dumps({"state": start, "moves": moves}))
    for _ in range(rounds):
        for body in bodies:
            answer = client.post(f"/v1/games/{game_id}/replay", data=body, content_type="application/json",
                                 headers={"Accept-Language": language})
            assert answer.status_code == 200 and answer.headers["Content-Language"] == language


if __name__ == "__main__":
    main()
