"""A turn: token, hexagon, tower (S-TURN-*, S-TOKEN-1, S-HEX-*, S-BUILD-*, S-SVC-SKIP, S-SVC-NOFIT)."""
from __future__ import annotations

from dataclasses import replace


from service.games import sangimignano as sg
from service.games.sangimignano import engine
from service.games.sangimignano.steps import hex_step

from .helpers import build, position, refused, space, token
from .test_rules_setup import HANDS_3P, THREE, fresh_3p

GROUP = {((1, 0), "B"): (0,), ((0, 0), "A"): (0,), ((1, 0), "C"): (0,), ((0, 1), "D"): (0,)}  # A-B-C-D, connected


def build_phase(tokens=None, **extra) -> sg.State:
    return position(THREE, players=3, tokens=GROUP if tokens is None else tokens, step="build", **extra)


# ---------------------------------------------------------------- token

def test_S_TURN_1_a_turn_starts_with_one_token_on_a_space_with_room():
    state = fresh_3p()
    legal = sg.legal_steps(state)
    assert {s.type for s in legal} == {"token"} and len(legal) == 9
    after, events = sg.apply_step(state, token((1, 0), "D"))
    assert after.tokens[space(after, (1, 0), "D")] == (0,) and after.players[0].tokens == 19
    assert after.step == sg.HEX and events[0] == {"type": "token", "player": 0, "at": [1, 0], "guild": "D"}
    problem = refused(state, hex_step(("A", "B", "D"), (1, 1), 0))
    assert problem.rule == "S-TURN-1" and problem.pointer == "/type"


def test_S_TOKEN_1_at_most_two_tokens_a_space_both_may_be_one_player_s():
    state = fresh_3p(tokens={((0, 0), "A"): (0,), ((0, 0), "B"): (1, 2)})
    assert token((0, 0), "A") in sg.legal_steps(state)
    assert token((0, 0), "B") not in sg.legal_steps(state)
    after, _ = sg.apply_step(state, token((0, 0), "A"))
    assert after.tokens[space(after, (0, 0), "A")] == (0, 0)
    problem = refused(state, token((0, 0), "B"))
    assert problem.rule == "S-TOKEN-1" and "two tokens" in problem.message


def test_S_SVC_SKIP_no_token_or_no_room_passes_the_token_phase():
    events: list[dict] = []
    state = engine.settle(fresh_3p(supply={0: 0}), sg.TOKEN, events)
    assert events[0] == {"type": "skipped", "player": 0, "phase": "token", "reason": "no_token"}
    assert state.step == sg.HEX and state.turn == 0
    full = {((at), g): (1, 2) for at, _, gs in THREE for g in gs}
    events = []
    state = engine.settle(fresh_3p(tokens=full), sg.TOKEN, events)
    assert events[0]["reason"] == "no_room" and state.step == sg.HEX
    assert refused(fresh_3p(supply={0: 0}), token((0, 0), "A")).rule == "S-SVC-SKIP"


# ---------------------------------------------------------------- hexagon

def test_S_TURN_2_then_one_hexagon_from_hand():
    state = sg.apply_step(fresh_3p(), token((0, 0), "A"))[0]
    legal = sg.legal_steps(state)
    assert legal and {s.type for s in legal} == {"hex"}
    step = legal[0]
    after, events = sg.apply_step(state, step)
    assert len(after.board) == 4 and after.players[0].hand_size == 2
    rest = list(state.players[0].hexes)
    rest.remove(step.hex)
    assert after.players[0].hexes == tuple(rest)
    assert events[0]["type"] == "hex"
    assert refused(state, token((0, 0), "B")).rule == "S-TURN-2"


def test_S_HEX_1_any_hexagon_of_the_hand_turned_any_way():
    state = sg.apply_step(fresh_3p(), token((0, 0), "A"))[0]
    legal = sg.legal_steps(state)
    assert {s.hex for s in legal} == set(state.players[0].hexes)
    assert len({s.rotation for s in legal}) > 2
    problem = refused(state, hex_step(("A", "B", "C"), legal[0].at, 0))  # Ada holds no A-B-C
    assert problem.rule == "S-HEX-1" and problem.pointer == "/hex"


def test_S_HEX_2_a_hexagon_touches_two_in_play():
    state = sg.apply_step(fresh_3p(), token((0, 0), "A"))[0]
    lay = sg.layout(state.board)
    assert {s.at for s in sg.legal_steps(state)} <= set(lay.frontier)
    assert all(lay.touching(at) >= 2 for at in lay.frontier)
    kind = state.players[0].hexes[0]
    lonely = refused(state, hex_step(kind, (2, 0), 0))  # touches [1,0] only
    assert lonely.rule == "S-HEX-2" and "touch 1 hexagon" in lonely.message
    assert refused(state, hex_step(kind, (1, 0), 0)).rule == "S-HEX-2"  # taken


def test_S_HEX_3_no_two_spaces_of_one_guild_share_a_side():
    state = sg.apply_step(fresh_3p(), token((0, 0), "A"))[0]
    lay = sg.layout(state.board)
    kind = state.players[0].hexes[0]
    clashing = [(at, k) for at in lay.frontier for k in range(6)
                if lay.clashes(at, *sg.geometry.canonical_turn(k, kind))]
    assert clashing
    at, k = clashing[0]
    assert hex_step(kind, at, k) not in sg.legal_steps(state)
    problem = refused(state, hex_step(kind, at, k))
    assert problem.rule == "S-HEX-3" and "share side" in problem.message


def test_S_SVC_NOFIT_no_hexagon_fits_the_phase_passes_and_the_hand_stays(monkeypatch):
    monkeypatch.setattr(engine, "any_fits", lambda lay, kinds: False)
    state = fresh_3p(tokens=GROUP)
    events: list[dict] = []
    after = engine.settle(state, sg.HEX, events)
    assert events[0] == {"type": "skipped", "player": 0, "phase": "hex", "reason": "no_fit"}
    assert after.players[0].hexes == state.players[0].hexes and after.step == sg.BUILD


def test_S_TURN_2_with_no_hexagon_left_the_phase_passes():
    state = position(THREE, players=3, hands=[[], HANDS_3P[1], HANDS_3P[2]], step="token")
    after, events = sg.apply_step(state, token((0, 0), "C"))
    assert {"type": "skipped", "player": 0, "phase": "hex", "reason": "no_hexagon"} in events
    assert after.turn == 1


# ---------------------------------------------------------------- tower

def test_S_TURN_3_build_or_end_and_with_no_group_the_turn_ends():
    state = build_phase()
    legal = sg.legal_steps(state)
    assert legal[-1] == sg.Step("end") and {s.type for s in legal[:-1]} == {"build"}
    after, events = sg.apply_step(state, sg.Step("end"))
    assert events[0] == {"type": "declined", "player": 0} and after.turn == 1
    plain = position(THREE, players=3, hands=[["ABD"], [], []], step="token")
    after, events = sg.apply_step(plain, token((0, 0), "A"))
    after, events = sg.apply_step(after, sg.legal_steps(after)[0])
    assert {"type": "skipped", "player": 0, "phase": "build", "reason": "no_group"} in events
    assert refused(state, token((0, 0), "B")).rule == "S-TURN-3"


def test_S_BUILD_1_four_guilds_connected_and_the_reason_when_not():
    state = build_phase()
    builds = {(s.at, s.guild) for s in sg.legal_steps(state) if s.type == "build"}
    assert builds == set(GROUP)
    short = {k: v for k, v in GROUP.items() if k != ((0, 1), "D")}
    state = build_phase(tokens={**short, ((0, 0), "B"): (0,)})
    assert sg.buildable(state, 0) == []
    problem = refused(state, build((0, 0), "A"))
    assert problem.rule == "S-BUILD-1" and "none of their tokens on D" in problem.message
    problem = refused(state, build((0, 1), "B"))
    assert problem.rule == "S-BUILD-1" and "no token on B at [0, 1]" in problem.message


def test_S_BUILD_2_the_tower_takes_one_space_its_tokens_go_home():
    state = build_phase(tokens={**GROUP, ((0, 0), "A"): (0, 1)})
    after, events = sg.apply_step(state, build((0, 0), "A"))
    a = space(after, (0, 0), "A")
    assert after.towers[a] == 0 and after.tokens[a] == ()
    assert after.players[0].towers == 9 and after.players[0].tokens == state.players[0].tokens + 1
    assert after.players[1].tokens == state.players[1].tokens + 1
    assert all(after.tokens[space(after, at, g)] == (0,) for at, g in GROUP if (at, g) != ((0, 0), "A"))
    assert events[0]["type"] == "built" and events[0]["returned"] == [0, 1]


def test_S_BUILD_3_a_tower_s_space_takes_no_token_and_joins_no_group():
    towers = {((0, 0), "B"): 1}
    state = fresh_3p(towers=towers)
    assert token((0, 0), "B") not in sg.legal_steps(state)
    problem = refused(state, token((0, 0), "B"))
    assert problem.rule == "S-BUILD-3"
    # the group A-B-C-D through [0,0] B is broken by the tower there
    tokens = {((0, 0), "A"): (0,), ((0, 0), "C"): (0,), ((1, 0), "D"): (0,)}
    state = build_phase(tokens=tokens, towers=towers)
    assert sg.buildable(state, 0) == []
    assert refused(build_phase(towers={((1, 0), "B"): 2}), build((1, 0), "B")).rule == "S-BUILD-3"


def test_S_BUILD_4_one_tower_a_turn():
    everything = {(at, g): (0,) for at, _, gs in THREE for g in gs}
    state = build_phase(tokens=everything)
    after, events = sg.apply_step(state, build((0, 0), "B"))
    assert after.turn == 1 and after.step == sg.TOKEN
    assert sg.buildable(replace(after, turn=0), 0)  # another group still qualifies, for a later turn
    assert [e["type"] for e in events].count("built") == 1
