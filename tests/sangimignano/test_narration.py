"""San Gimignano's events in words: every event type the engine makes has a sentence, and in seeded random games
(2 to 4 players, both variants) each sentence names the player and says the facts; /apply's events carry it as
`text`."""
from __future__ import annotations

import pytest

from service.games.sangimignano.narration import SENTENCES, narrate
from tests.narration import check_sentences, engine_event_types, played_events, said, told


def facts(event: dict, names: tuple[str, ...]) -> list[str]:
    """What the sentence of `event` must say."""
    out = [names[event["player"]]] if "player" in event else []
    kind = event["type"]
    if kind in ("token", "built"):
        out.append(f"the {event['guild']} space of {said(event['at'])}")
    if kind == "hex":
        out += ["".join(event["hex"]), said(event["at"]), f"rotation {event['rotation']}"]
    if kind == "built":
        out += [names[p] for p in event["returned"]]
        out.append(f"{event['towers_left']} tower")
    if kind == "game_over":
        out += [names[w] for w in event["winners"]]
    return out


@pytest.fixture(scope="module")
def events() -> list[tuple[dict, tuple[str, ...]]]:
    return played_events("sangimignano", seeds=range(3), players=[2, 3, 4], variants=[{}, {"large_groups": True}],
                         liked=("build",))


def test_every_event_type_the_engine_makes_has_a_sentence() -> None:
    assert engine_event_types("sangimignano") == set(SENTENCES)


def test_random_games_reach_every_event_type_but_a_declared_misfit(events) -> None:
    # S-SVC-UNKNOWN: "no hexagon fits" is declared only for a hand the state does not know (checked below)
    assert {event["type"] for event, _ in events} == set(SENTENCES) - {"no_fit"}


def test_every_sentence_names_the_player_and_the_facts(events) -> None:
    check_sentences(events, SENTENCES, facts)


def test_a_declared_misfit_and_the_skips_are_said() -> None:
    names = ("Ada", "Bea")
    declared = {"type": "no_fit", "player": 1, "step": 3}
    skipped = {"type": "skipped", "player": 0, "phase": "token", "reason": "no_token", "step": 3}
    assert narrate(declared, names) == "Bea declared that no hexagon in hand fits."
    assert narrate(skipped, names) == "Ada skips placing a token: no token is left in supply."
    check_sentences(told(narrate, names, declared, skipped), SENTENCES, facts)
