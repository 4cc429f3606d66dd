"""Golden playthroughs and perft counts of the advanced game (the ten nobles), written by
tools/make_torri_golden_nobles.py.

A difference here means the rules' outcome changed. If that was meant, rerun the tool and review the diff of
tests/torri/data/golden_nobles and perft_nobles.json; if not, the engine regressed.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from service.games import torri
from service.games.core.perft import perft

DATA = Path(__file__).parent / "data"
GOLDEN = sorted((DATA / "golden_nobles").glob("*.json"))
PERFT = json.loads((DATA / "perft_nobles.json").read_text())
TOOL = Path(__file__).resolve().parents[2] / "tools" / "make_torri_golden_nobles.py"
ALL_FEATURES = {"noble_via_francigena", "noble_monumento", "noble_cappella", "noble_palazzo", "noble_mura",
                "buona_pietra", "giostra", "giostra_on_noble", "giostra_on_buona_pietra_rebuild", "palazzo_fizzled",
                "palazzo_cap_refusal", "via_francigena_stop", "buona_pietra_income", "noble_drawn_from_market",
                "game_over"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _new(golden: dict) -> torri.State:
    assert golden["variant"] == {"nobles": True}
    return torri.new_game(golden["seed"], nobles=True)


def test_golden_noble_games_cover_the_features() -> None:
    assert len(GOLDEN) >= 5
    covered = set().union(*(_load(path)["features"] for path in GOLDEN))
    assert ALL_FEATURES <= covered, ALL_FEATURES - covered
    checkpoints = {c["feature"] for path in GOLDEN for c in _load(path)["checkpoints"]}
    assert {"giostra_on_noble", "giostra_on_buona_pietra_rebuild", "palazzo_fizzled", "palazzo_cap_refusal",
            "via_francigena_stop"} <= checkpoints


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_noble_replay_all_at_once(path: Path) -> None:
    golden = _load(path)
    outcome = torri.apply_steps(_new(golden), golden["steps"])
    assert outcome.legal, (outcome.failed_at, outcome.violations)
    assert torri.state_json(outcome.state) == golden["final_state"]
    assert json.loads(json.dumps(outcome.events)) == golden["events"]
    assert torri.score(outcome.state).to_json() == golden["score"]
    assert outcome.state.phase == torri.OVER


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_noble_replay_one_step_at_a_time(path: Path) -> None:
    """api.md: an action sent one step at a time, the state going through JSON between calls, ends the same; at each
    checkpoint the legal list is exactly the recorded one, and the steps a Palazzo caps are refused with T-NOB-PC."""
    golden = _load(path)
    checkpoints = {c["step"]: c for c in golden["checkpoints"]}
    state_doc = torri.state_json(_new(golden))
    events: list[dict] = []
    for index, step in enumerate(golden["steps"]):
        state = torri.read_state(json.loads(json.dumps(state_doc)))
        legal = torri.legal_moves(state)
        assert step in legal, (index, step)
        if index in checkpoints:
            checkpoint = checkpoints.pop(index)
            assert legal == checkpoint["legal"], (index, checkpoint["feature"])
            for refusal in checkpoint.get("refused", []):
                assert refusal["step"] not in legal
                refused = torri.apply_steps(state, [refusal["step"]])
                assert not refused.legal and [p.rule for p in refused.violations] == [refusal["rule"]]
        outcome = torri.apply_steps(state, [step])
        assert outcome.legal, (index, step, outcome.violations)
        for event in outcome.events:
            event["step"] = index
        events.extend(outcome.events)
        state_doc = torri.state_json(outcome.state)
    assert checkpoints == {}
    assert state_doc == golden["final_state"]
    assert json.loads(json.dumps(events)) == golden["events"]
    assert torri.score(torri.read_state(state_doc)).to_json() == golden["score"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_noble_final_state_is_valid(path: Path) -> None:
    errors, _ = torri.validate_state(_load(path)["final_state"])
    assert errors == []


def test_the_tool_plays_the_golden_games_again() -> None:
    """The generator's directed games still are the recorded ones (the data files and the tool agree)."""
    spec = importlib.util.spec_from_file_location("make_torri_golden_nobles", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)  # type: ignore[union-attr]
    assert set(tool.FEATURES) == ALL_FEATURES
    for path in GOLDEN:
        golden = _load(path)
        game = tool.play(golden["seed"])
        assert game["steps"] == golden["steps"] and sorted(game["features"]) == golden["features"], path.name


@pytest.mark.parametrize("position", PERFT["positions"], ids=lambda p: p["name"])
def test_noble_perft(position: dict) -> None:
    assert PERFT["variant"] == {"nobles": True}
    outcome = torri.apply_steps(torri.new_game(position["seed"], nobles=True), position["steps"])
    assert outcome.legal
    assert [torri.CARD_NAMES[c] for c in outcome.state.noble_deck] == position["noble_deck"]  # the same deal
    got = {depth: perft(torri, outcome.state, int(depth)) for depth in position["counts"]}
    assert got == position["counts"]
