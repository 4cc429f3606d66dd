"""Every registered game against its golden playthroughs and perft counts (tests/golden.py reads them): each
recorded game replayed at once and one step at a time through JSON ends in the recorded state, events and score;
each recorded final state is valid; each perft count is what the move generator counts today; and the recorded
games cover the features the game names (tests/<game>/golden.py), every player count and every variant.

A difference here means the rules' outcome changed. If that was meant, rerun the tool for the game
(python tools/make_golden.py <game>) and review the diff of tests/<game>/data; if not, the engine regressed. A
registered game with no recorded games fails here, so no game skips this.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from service.games.core.perft import perft
from service.games.registry import GAMES
from tests.golden import (
    deal,
    is_over,
    library,
    load,
    perft_file,
    perft_start,
    recorded_games,
    recorded_sets,
)

SETS = [(game, folder) for game in GAMES for folder in recorded_sets(game)]
RECORDED = [pytest.param(game, path, id=f"{game}-{path.parent.name}-{path.stem}")
            for game, folder in SETS for path in recorded_games(game, folder)]
POSITIONS = [pytest.param(game, folder, position, id=f"{game}-{folder}-{position['name']}")
             for game, folder in SETS if perft_file(game, folder).is_file()  # else reported below
             for position in load(perft_file(game, folder))["positions"]]


def features(game: str) -> dict[str, set[str]]:
    return importlib.import_module(f"tests.{game}.golden").FEATURES


@pytest.mark.parametrize("game", list(GAMES))
def test_every_registered_game_has_golden_games_and_perft_counts(game: str) -> None:
    assert recorded_sets(game), f"tests/{game}/data/golden: no recorded games"
    for folder in recorded_sets(game):
        assert perft_file(game, folder).is_file(), f"tests/{game}/data: no perft counts beside {folder}"
    assert set(features(game)) == set(recorded_sets(game)), f"tests/{game}/golden.py: FEATURES by recorded set"


@pytest.mark.parametrize(("game", "folder"), SETS, ids=[f"{game}-{folder}" for game, folder in SETS])
def test_golden_games_cover_the_features(game: str, folder: str) -> None:
    games = [load(path) for path in recorded_games(game, folder)]
    assert len(games) >= 5
    wanted = features(game)[folder]
    covered = set().union(*(g["features"] for g in games))
    assert wanted <= covered, wanted - covered


@pytest.mark.parametrize("game", list(GAMES))
def test_golden_games_cover_every_player_count_and_variant(game: str) -> None:
    games = [load(path) for folder in recorded_sets(game) for path in recorded_games(game, folder)]
    info = GAMES[game].info
    counts = {len(g["names"]) if "names" in g else info.min_players for g in games}
    assert counts == set(range(info.min_players, info.max_players + 1))
    for variant in info.variants:  # played at a value other than its default, in some golden game
        assert any(g["variant"].get(variant.name, variant.default) != variant.default for g in games), variant.name


@pytest.mark.parametrize(("game", "path"), RECORDED)
def test_golden_replay_all_at_once(game: str, path: Path) -> None:
    rules, golden = library(game), load(path)
    outcome = rules.apply_steps(deal(game, golden), golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert rules.state_json(outcome.state) == golden["final_state"]
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    assert rules.score_state(outcome.state).to_json() == golden["score"]
    assert is_over(game, outcome.state)


@pytest.mark.parametrize(("game", "path"), RECORDED)
def test_golden_replay_one_step_at_a_time_through_json(game: str, path: Path) -> None:
    """api.md: an action sent one step at a time, the state going through JSON between calls, ends the same; at each
    checkpoint a recorded game names, the legal list is exactly the recorded one and the recorded refusals are
    refused with their rule."""
    rules, golden = library(game), load(path)
    checkpoints = {c["step"]: c for c in golden.get("checkpoints", [])}
    state_doc = rules.state_json(deal(game, golden))
    events: list[dict] = []
    for index, step in enumerate(golden["steps"]):
        state = rules.load_state(json.loads(json.dumps(state_doc))).checked()
        legal = rules.legal_moves_of(state)
        assert step in legal, (index, step)
        if index in checkpoints:
            checkpoint = checkpoints.pop(index)
            assert legal == checkpoint["legal"], (index, checkpoint["feature"])
            for refusal in checkpoint.get("refused", []):
                assert refusal["step"] not in legal
                refused = rules.apply_steps(state, [refusal["step"]])
                assert not refused.legal and [p.rule for p in refused.violations] == [refusal["rule"]]
        outcome = rules.apply_steps(state, [step])
        assert outcome.legal, (index, step, outcome.violations)
        events.extend(event.at(index) for event in outcome.events)
        state_doc = rules.state_json(outcome.state)
    assert checkpoints == {}
    assert state_doc == golden["final_state"]
    assert json.loads(json.dumps(events)) == golden["events"]
    assert rules.score_state(rules.load_state(state_doc).checked()).to_json() == golden["score"]


@pytest.mark.parametrize(("game", "path"), RECORDED)
def test_golden_final_state_is_valid(game: str, path: Path) -> None:
    assert library(game).load_state(load(path)["final_state"]).errors == ()


@pytest.mark.parametrize(("game", "folder", "position"), POSITIONS)
def test_perft(game: str, folder: str, position: dict) -> None:
    rules = library(game)
    outcome = rules.apply_steps(perft_start(game, load(perft_file(game, folder)), position), position["steps"])
    assert outcome.legal
    got = {depth: perft(rules, outcome.state, int(depth)) for depth in position["counts"]}
    assert got == position["counts"]
