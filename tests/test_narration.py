"""Every registered game's events in words (tests/narration.py plays the games): every event type the game's engine
makes has a sentence in service/games/<game>/narration.py, seeded random games reach every event type (but the rare
ones tests/<game>/narration.py names in `UNREACHED`, whose sentences its own tests check by hand), and each sentence
names the players and says the facts `facts` lists; /apply's events carry it as `text`. A registered game without
tests/<game>/narration.py fails here, so no game skips this."""
from __future__ import annotations

import importlib
import random
from functools import cache
from types import ModuleType

import pytest

from service.games.core.language import LANGUAGES
from service.games.registry import GAMES
from service.games.torri.steps import Step
from tests.narration import check_sentences, engine_event_types, played_events

ALL = list(GAMES)


def declared(game: str) -> ModuleType:
    return importlib.import_module(f"tests.{game}.narration")


def sentences(game: str) -> dict:
    return importlib.import_module(f"service.games.{game}.narration").SENTENCES


@cache
def events(game: str) -> list[tuple[dict, tuple[str, ...]]]:
    return played_events(game, **declared(game).PLAYED)


@pytest.mark.parametrize("game", ALL)
def test_every_event_type_the_engine_makes_has_a_sentence(game: str) -> None:
    assert engine_event_types(game) == set(sentences(game))


@pytest.mark.parametrize("game", ALL)
def test_random_games_reach_every_event_type_but_the_rare_ones(game: str) -> None:
    assert {event["type"] for event, _ in events(game)} == set(sentences(game)) - declared(game).UNREACHED


@pytest.mark.parametrize("game", ALL)
def test_every_sentence_names_the_players_and_the_facts(game: str) -> None:
    check_sentences(events(game), sentences(game), declared(game).facts)


def _variants(game: str) -> list[dict]:
    """The defaults, and each variant turned to its other value (a yes-or-no one) in turn."""
    info = GAMES[game].info
    return [{}] + [{v.name: not v.default} for v in info.variants if isinstance(v.default, bool)]


@pytest.mark.parametrize("game", ALL)
def test_every_legal_step_is_said_in_words_in_every_language(game: str) -> None:
    """/legal-moves' `texts`: no step is offered without its words (a front-end lists them to choose from)."""
    subject = GAMES[game]
    for variant in _variants(game):
        rng = random.Random(11)
        state = subject.new_game(11, names=["Ada", "Bea"], variant=variant)
        for turn in range(400):
            steps = subject.legal_steps(state)
            if not steps:
                break
            names = subject.player_names(state)
            for step in steps if turn % 5 == 0 else steps[:3]:  # every step now and then, a few otherwise
                for language in LANGUAGES:
                    assert subject.step_text(state, step, names, language).strip(), (variant, turn, step, language)
            state, _ = subject.apply_step(state, rng.choice(steps))


def test_torri_a_build_the_opponent_may_answer_with_giostra_is_said_as_it_happens_unless_answered() -> None:
    """T-NOB-GIOSTRA: a build with Buona Pietra makes no event until the opponent lets it happen; its words are
    the build's, said as what happens unless the opponent answers with Giostra."""
    subject = GAMES["torri"]
    for seed in range(40):
        rng = random.Random(seed)
        state = subject.new_game(seed, names=["Ada", "Bea"], variant={"nobles": True})
        while steps := subject.legal_steps(state):
            for step in steps:
                after, events = subject.apply_step(state, step)
                if events or after.pending is None or after.pending.type != "giostra":
                    continue
                names = subject.player_names(state)
                let, done = subject.apply_step(after, Step("decline"))
                built = subject.foreseen_text([e for e in done if e["type"] != "declined"], names)
                other = names[after.to_act]
                assert subject.step_text(state, step, names) == f"Unless {other} answers with Giostra: {built}"
                french = subject.step_text(state, step, names, "fr")
                assert french == f"Sauf si {other} répond avec Giostra : " + subject.foreseen_text(
                    [e for e in done if e["type"] != "declined"], names, "fr")
                return
            state, _ = subject.apply_step(state, rng.choice(steps))
    pytest.fail("no seeded game opened a Giostra window on a build")
