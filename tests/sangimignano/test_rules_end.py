"""The end of the game, the score and the variant: S-END-*, S-SVC-STUCK, S-VAR-1."""
from __future__ import annotations

from dataclasses import replace

import pytest

from service.games import sangimignano as sg
from service.games.sangimignano import engine

from .helpers import playout, position
from .test_rules_setup import THREE
from .test_rules_turn import GROUP, build, build_phase

# B, A, C, A, D in a chain: all four guilds connected, but no four different ones connected (S-VAR-1 only)
CHAIN = {((1, 0), "B"): (0,), ((0, 0), "A"): (0,), ((0, 0), "C"): (0,), ((0, 1), "A"): (0,), ((0, 1), "D"): (0,)}


def test_S_END_1_the_tenth_tower_ends_the_game_at_once():
    state = build_phase()
    state = replace(state, players=(replace(state.players[0], towers=1),) + state.players[1:])
    after, events = sg.apply_step(state, build((0, 0), "A"))
    assert after.over and after.step is None and after.players[0].towers == 0
    assert events[-1] == {"type": "game_over", "reason": "tenth_tower", "winners": [0]}
    assert sg.legal_steps(after) == []
    with pytest.raises(sg.IllegalStepError) as caught:
        sg.apply_step(after, sg.Step("end"))
    assert caught.value.problems[0].rule == "S-END-1"
    # a valid four-player board with ten of Ada's towers where the game still goes on
    four = sg.new_game(3, players=4)
    spaces = [(p.at, g) for p in four.board for g in p.guilds][:10]
    doc = sg.state_json(position([(p.at, p.rotation, "".join(p.guilds)) for p in four.board], players=4,
                                 towers={s: 0 for s in spaces},
                                 hands=[["".join(h) for h in p.hexes] for p in four.players], box=0))
    assert [(p.rule, p.pointer) for p in sg.validate_state(doc)[0]] == [("S-END-1", "/players/0/towers")]


def test_S_END_2_the_game_ends_when_no_player_can_build_any_more():
    ends = set()
    for seed in range(6):
        state = playout(2 + seed % 3, seed, 2000, builder=False)
        assert state.over
        ends.add(state.players[0].towers == 0 or any(p.towers == 0 for p in state.players))
        if not any(p.towers == 0 for p in state.players):
            assert engine.stuck(state)
    assert False in ends  # some ended by S-END-2
    doc = sg.state_json(sg.new_game(1, players=2))
    doc["phase"], doc["step"] = "over", None
    problems = sg.validate_state(doc)[0]
    assert [(p.rule, p.pointer) for p in problems] == [("S-END-2", "/phase")]


def test_S_SVC_STUCK_no_fitting_hexagon_and_no_possible_group():
    tokens = {((0, 0), "A"): (0,), ((1, 0), "B"): (0,)}  # A-B: C at [1,0] and D at [0,1] would complete it
    state = position(THREE, players=3, tokens=tokens, supply={0: 2, 1: 0, 2: 0}, step="token")
    assert engine.possible_group(state, 0) and not engine.stuck(state)
    short = position(THREE, players=3, tokens=tokens, supply={0: 1, 1: 0, 2: 0}, step="token")
    assert not engine.possible_group(short, 0) and engine.stuck(short)
    # a possible group needs room: every other space full, however many tokens Ada holds
    full = {(at, g): (1, 2) for at, _, gs in THREE for g in gs if (at, g) not in tokens}
    blocked = position(THREE, players=3, tokens={**tokens, **full}, supply={0: 5, 1: 0, 2: 0}, step="token")
    assert not engine.possible_group(blocked, 0)
    roomy = position(THREE, players=3, tokens={**tokens, **full, ((1, 0), "C"): (1,)}, supply={0: 5, 1: 0, 2: 0},
                     step="token")
    assert not engine.possible_group(roomy, 0)  # C has room now, but [0,1] D does not
    roomy = position(THREE, players=3, tokens={**tokens, **full, ((1, 0), "C"): (1,), ((0, 1), "D"): (2,)},
                     supply={0: 2, 1: 0, 2: 0}, step="token")
    assert engine.possible_group(roomy, 0)
    # a hexagon that fits keeps the game going whatever the groups
    holding = position(THREE, players=3, hands=[["ABD"], [], []], supply={0: 0, 1: 0, 2: 0}, step="token")
    assert not engine.stuck(holding)
    events: list[dict] = []
    over = engine.end_turn(short, events)
    assert over.over and events[-1]["reason"] == "no_possible_group"


def test_S_END_3_most_towers_then_most_tokens_then_shared():
    towers = {((0, 0), "A"): 0, ((0, 0), "B"): 1, ((1, 0), "B"): 1}
    score = sg.score(position(THREE, players=3, towers=towers))
    assert score.winners == (1,) and score.decided_by == "towers"
    towers = {((0, 0), "A"): 0, ((0, 0), "B"): 1}
    tokens = {((1, 0), "C"): (0, 1), ((0, 1), "D"): (1,)}
    score = sg.score(position(THREE, players=3, towers=towers, tokens=tokens))
    assert score.winners == (1,) and score.decided_by == "tokens" and score.winner == 1
    tokens = {((1, 0), "C"): (0, 1)}
    score = sg.score(position(THREE, players=3, towers=towers, tokens=tokens))
    assert score.winners == (0, 1) and score.decided_by == "shared" and score.winner is None
    assert [p.to_json() for p in score.players] == [{"name": "P0", "towers": 1, "tokens": 1},
                                                    {"name": "P1", "towers": 1, "tokens": 1},
                                                    {"name": "P2", "towers": 0, "tokens": 0}]


def test_S_VAR_1_larger_groups_with_all_four_guilds():
    base = build_phase(tokens=CHAIN)
    assert sg.buildable(base, 0) == []
    with pytest.raises(sg.IllegalStepError) as caught:
        sg.apply_step(base, build((0, 1), "D"))
    assert caught.value.problems[0].rule == "S-BUILD-1" and "no four connected" in caught.value.problems[0].message
    large = build_phase(tokens=CHAIN, large=True)
    assert {sg.layout(large.board).name(s) for s in sg.buildable(large, 0)} == set(CHAIN)
    after, _ = sg.apply_step(large, build((0, 1), "A"))  # on any space of the group, not only four of them
    assert after.towers[sg.layout(after.board).space((0, 1), "A")] == 0
    # S-SVC-STUCK with the variant: the chain is possible with one more token for the base game's quartet
    assert engine.possible_group(replace(base, step="token"), 0)
    assert set(GROUP) != set(CHAIN)
