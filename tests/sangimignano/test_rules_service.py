"""The service's rulings: S-SVC-FORM, S-SVC-UNKNOWN, S-SVC-STEP, S-SVC-LAYOUT, S-SVC-SCORE, S-SVC-EDGE."""
from __future__ import annotations

import json

import pytest

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import KINDS, canonical_turn

from .helpers import playout, position
from .test_rules_setup import HANDS_3P, THREE, errors, fresh_3p


def test_S_SVC_FORM_one_way_to_write_a_position_and_a_step():
    doc = sg.state_json(fresh_3p())
    assert all(h["rotation"] in (0, 1) for h in doc["board"])
    assert [h["at"] for h in doc["board"]] == sorted(h["at"] for h in doc["board"])
    for player in doc["players"]:
        assert player["hexes"] == sorted(player["hexes"])
        assert all(h[0] == min(h) for h in player["hexes"])
    shuffled = json.loads(json.dumps(doc))
    shuffled["board"].reverse()
    shuffled["players"][0]["hexes"] = [["D", "A", "B"], ["C", "D", "A"], ["D", "B", "C"]]  # same kinds, turned
    del shuffled["players"][1]["tokens"], shuffled["players"][1]["towers"]  # what conservation leaves
    assert sg.state_json(sg.read_state(shuffled)) == doc
    # A on sides 0-1, B on 2-3, D on 4-5, written two ways
    one = sg.parse_step({"type": "hex", "hex": ["A", "B", "D"], "at": [1, 1], "rotation": 0})
    other = sg.parse_step({"type": "hex", "hex": ["B", "D", "A"], "at": [1, 1], "rotation": 2})
    assert one == other and other.to_json() == {"type": "hex", "hex": ["A", "B", "D"], "at": [1, 1], "rotation": 0}
    assert sg.parse_step({"type": "hex", "hex": ["D", "A", "B"], "at": [1, 1], "rotation": 0}) != one


def test_S_SVC_UNKNOWN_counted_hands_name_the_hexagon_laid():
    state = sg.apply_step(fresh_3p(), sg.Step("token", at=(0, 0), guild="A"))[0]
    view = sg.player_view(state, 1)
    assert view.players[0].hidden == 3 and view.players[1].hexes == state.players[1].hexes
    assert sg.state_json(view)["players"][0]["hexes"] == {"count": 3}
    legal = sg.legal_steps(view)
    assert {s.hex for s in legal if s.type == "hex"} == set(KINDS) and legal[-1] == sg.Step("end")
    assert set(sg.legal_steps(state)) < set(legal)
    laid, _ = sg.apply_step(view, next(s for s in legal if s.type == "hex" and s.hex not in state.players[0].hexes))
    assert laid.players[0].hidden == 2
    declared, events = sg.apply_step(view, sg.Step("end"))
    assert events[0] == {"type": "no_fit", "player": 0}
    assert declared.players[0].hidden == 3 and declared.turn == 1
    with pytest.raises(sg.IllegalStepError):  # a known hand may not decline the hexagon phase
        sg.apply_step(state, sg.Step("end"))


def test_S_SVC_STEP_the_phase_due_always_offers_a_choice():
    full = {(at, g): (1, 2) for at, _, gs in THREE for g in gs}
    doc = sg.state_json(fresh_3p(tokens=full))
    assert errors(doc) == {("S-SVC-STEP", "/step")}  # no space has room: Ada's token phase passes by itself
    doc = sg.state_json(fresh_3p())
    doc["step"] = None
    assert ("S-SVC-STEP", "/step") in errors(doc)
    doc = sg.state_json(fresh_3p())
    doc["step"] = "build"
    assert errors(doc) == {("S-SVC-STEP", "/step")}
    for seed in range(3):  # every state of a game names a phase with a choice, or is over
        state = sg.new_game(seed, players=3)
        while not state.over:
            assert sg.legal_steps(state) and state.step in sg.model.PHASES
            state = sg.apply_step(state, sg.legal_steps(state)[0])[0]


def test_S_SVC_LAYOUT_a_board_laid_by_the_rules_from_some_start():
    state = playout(4, 3, 12)
    assert sg.validate_state(sg.state_json(state))[0] == []
    hands = [["".join(h) for h in p.hexes] for p in state.players]
    holder = next(i for i, hand in enumerate(hands) if hand)
    lonely = [(p.at, p.rotation, "".join(p.guilds)) for p in state.board]
    lonely.append(((9, 9), 0, hands[holder].pop()))  # laid far from the rest
    doc = sg.state_json(position(lonely, players=4, hands=hands, box=0))
    assert errors(doc) == {("S-HEX-2", "/board")}
    # a line of four: from any start of two, each later hexagon would touch one hexagon only
    line = [((0, 0), 0, "ABC"), ((1, 0), 1, "ABD"), ((2, 0), 0, "ABC"), ((3, 0), 1, "ABD")]
    doc = sg.state_json(position(line, players=2, hands=[["ABC"] * 3, ["ABD"] * 3], box=6))
    assert errors(doc) == {("S-HEX-2", "/board")}
    pair = sg.layout(position(line[:2]).board)
    turn = next(k for k in range(6) if pair.fits((0, 1), *canonical_turn(k, ("B", "C", "D"))))
    triangle = line[:2] + [((0, 1), turn, "BCD")]  # the third touches both: fine
    doc = sg.state_json(position(triangle, players=2, hands=[["ABC"] * 3, ["ABD"] * 4], box=6))
    assert errors(doc) == set()


def test_S_SVC_SCORE_any_state_is_scored_as_if_it_ended_now():
    state = fresh_3p(towers={((0, 0), "A"): 2})
    score = sg.score(state).to_json()
    assert score["over"] is False and score["winner"] == 2 and score["decided_by"] == "towers"
    finished = playout(2, 4, 3000)
    assert sg.score(finished).over is True
    assert HANDS_3P and THREE


def test_S_SVC_EDGE_no_hexagon_is_offered_or_laid_beyond_the_table_s_edge():
    # two hexagons at the eastern edge: the cells touching both are [63, 0] (on the table) and [65, -1] (beyond)
    edge = position([((64, 0), 0, "ABC"), ((64, -1), 0, "ABD")], hands=[["ACD"] * 4, ["BCD"] * 4], step="hex")
    assert sg.validate_state(sg.state_json(edge)) == ([], [])  # (problems, warnings)
    places = {step.at for step in sg.legal_steps(edge)}
    assert places == {(63, 0)}
    beyond = sg.Step("hex", at=(65, -1), hex=("A", "C", "D"), rotation=0)
    outcome = sg.apply_steps(edge, [beyond])
    assert [(v.rule, v.pointer) for v in outcome.violations] == [("S-SVC-EDGE", "/0/at")]
    # and mirrored at the western edge, where a hexagon may still be laid on the last place
    west = position([((-64, 0), 0, "ABC"), ((-64, 1), 0, "ABD")], hands=[["ACD"] * 4, ["BCD"] * 4], step="hex")
    assert {step.at for step in sg.legal_steps(west)} == {(-63, 0)}
    assert all(sg.apply_steps(west, [step]).legal for step in sg.legal_steps(west))
