"""San Gimignano's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a
referee reads out for one event of /apply or /replay. A guild space is named by its guild and its hexagon's place
(S-GEO-2): "the B space of [1, 0]"."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.narration import Event, counted, listed, narrator, player_name, winners_sentence

PHASES = {"token": "placing a token", "hex": "laying a hexagon", "build": "building a tower"}
SKIPPED = {
    "no_token": "no token is left in supply",
    "no_room": "no guild space can take a token",
    "no_hexagon": "no hexagon is left in hand",
    "no_fit": "no hexagon in hand fits anywhere",
    "no_group": "no group of their tokens can take a tower",
}
ENDINGS = {
    "tenth_tower": "the tenth tower is built",
    "no_possible_group": "no player can ever build again",
}


def place(at: Sequence[Any]) -> str:
    return f"[{at[0]}, {at[1]}]" if len(at) == 2 else str(list(at))


def space(event: Event) -> str:
    return f"the {event['guild']} space of {place(event['at'])}"


def _built(event: Event, names: Sequence[str]) -> str:
    said = f"{player_name(names, event['player'])} built a tower on {space(event)}"
    returned = event.get("returned") or []  # S-BUILD-2: the tokens on the space go back to their owners
    if returned:
        owners = listed(player_name(names, p) for p in sorted(set(returned)))
        said += f"; the {counted(len(returned), 'token')} there go{'es' * (len(returned) == 1)} back to {owners}"
    return said + f" ({counted(event['towers_left'], 'tower')} left)."


def _skipped(event: Event, names: Sequence[str]) -> str:
    doing = PHASES.get(event.get("phase"), str(event.get("phase")))
    why = SKIPPED.get(event.get("reason"), str(event.get("reason")))
    return f"{player_name(names, event['player'])} skips {doing}: {why}."


def _game_over(event: Event, names: Sequence[str]) -> str:
    why = ENDINGS.get(event.get("reason"), str(event.get("reason")))
    return f"The game is over: {why}; {winners_sentence(names, event.get('winners', []))}."


SENTENCES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "token": lambda e, n: f"{player_name(n, e['player'])} placed a token on {space(e)}.",
    "hex": lambda e, n: f"{player_name(n, e['player'])} laid the hexagon {''.join(e['hex'])} at {place(e['at'])}, "
                        f"rotation {e['rotation']}.",
    "built": _built,
    "declined": lambda e, n: f"{player_name(n, e['player'])} built no tower this turn.",
    "no_fit": lambda e, n: f"{player_name(n, e['player'])} declared that no hexagon in hand fits.",
    "skipped": _skipped,
    "turn": lambda e, n: f"{player_name(n, e['player'])}'s turn.",
    "game_over": _game_over,
}


narrate = narrator(SENTENCES)  # one of San Gimignano's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
