"""What every game's narration test reads: the events of seeded random games as /apply answers them (with their
`text`)."""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Iterable

from service.games.registry import GAMES


def played_events(game_id: str, *, seeds: Iterable[int], players: Iterable[int], variants: Iterable[dict],
                  liked: tuple[str, ...] = (), names: tuple[str, ...] = ("Ada", "Bea", "Cy", "Dee", "Eve"),
                  most_steps: int = 400) -> list[tuple[dict, tuple[str, ...]]]:
    """(event, the players' names) for every event of seeded random games, each game sent whole to /apply's
    call; the moves are chosen at random, a `liked` type of move half the time it is open (to reach the rare
    events: reactions, captures, nobles)."""
    game = GAMES[game_id]
    found: list[tuple[dict, tuple[str, ...]]] = []
    for variant in variants:
        for count in players:
            for seed in seeds:
                seated = names[:count]
                start = game.new({"seed": seed, "names": list(seated), "variant": variant})["state"]
                state = game.load_state(start).checked()
                rng = random.Random(f"narration:{game_id}:{variant}:{count}:{seed}")
                moves: list[dict] = []
                while len(moves) < most_steps:
                    legal = game.legal_moves_of(state)
                    if not legal:
                        break
                    move = _choose(rng, legal, liked)
                    state = game.apply_steps(state, [move]).state
                    moves.append(move)
                answer = game.apply({"state": start, "moves": moves})
                assert answer["legal"], answer["violations"]
                found.extend((event, seated) for event in answer["events"])
    return found


def _choose(rng: random.Random, legal: list[dict], liked: tuple[str, ...]) -> dict:
    for kind in liked:
        chosen = [move for move in legal if move["type"] == kind]
        if chosen and rng.random() < 0.5:
            return rng.choice(chosen)
    return rng.choice(legal)


def said(value: Any) -> str:
    """A fact as the sentences say it: a place `[x, y]`, a list joined, anything else as text."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"[{value[0]}, {value[1]}]"
    return str(value)


def engine_event_types(package: str) -> set[str]:
    """Every event type a game's library makes (`Event({"type": …`), read from its source."""
    folder = Path(__file__).resolve().parents[1] / "service" / "games" / package
    pattern = re.compile(r'Event\(\{"type": "(\w+)"')
    return {kind for path in folder.glob("*.py") for kind in pattern.findall(path.read_text(encoding="utf-8"))}


def check_sentences(events: list[tuple[dict, tuple[str, ...]]], sentences: dict, facts) -> None:
    """Every event has a sentence of its own type (not the plain fallback) naming the player it is about (its
    `player`) and saying every other fact `facts(event, names)` lists (the other players it concerns among them)."""
    for event, names in events:
        assert event["type"] in sentences, event
        text = event["text"]
        assert text and text[0].isupper() and text.endswith("."), text
        if isinstance(event.get("player"), int):
            assert names[event["player"]] in text, event
        for fact in facts(event, names):
            assert fact in text, (fact, event)


def told(narrate, names: tuple[str, ...], *events: dict) -> list[tuple[dict, tuple[str, ...]]]:
    """Hand-made events with their `text`, as /apply would give them, for `check_sentences`."""
    return [({**event, "text": narrate(event, names)}, names) for event in events]
