"""Hand-made positions judged through the HTTP API (Flask test client): the wire forms, the violations and their
pointers, every problem of an impossible state at once, and malformed input anywhere answered with a 4xx
problem+json, never a 500. The board is test_referee_cases' (its sides worked out there)."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.games import sangimignano as sg
from service.games.sangimignano.geometry import distinct_quartets, space_set, spaces_of
from tests.conformance import json_paths

from .test_referee_cases import CHAIN, board

BASE = "/v1/games/sangimignano"


def post(client, question: str, body) -> tuple[int, dict]:
    response = client.post(f"{BASE}/{question}", data=json.dumps(body), content_type="application/json")
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json", response.get_data(as_text=True)
    return response.status_code, response.get_json()


def doc(**extra) -> dict:
    return sg.state_json(board(**extra))


def test_S_GEO_2_the_hand_made_board_in_other_spellings_is_one_position(client):
    canonical = doc(tokens={((1, -1), "C"): (1,), ((0, 0), "B"): (0, 1)})
    written = copy.deepcopy(canonical)
    written["board"].reverse()  # [1,0], [1,-1], [0,0], [0,-1]
    written["board"][1].update(rotation=3, guilds=["C", "D", "A"], tokens=[[1], [], []])  # [1,-1]
    written["board"][2].update(rotation=4, guilds=["A", "B", "D"], tokens=[[], [1, 0], []])  # [0,0]
    assert [h["at"] for h in written["board"]] == [[1, 0], [1, -1], [0, 0], [0, -1]]
    for player in written["players"]:
        del player["tokens"], player["towers"]  # what conservation leaves
    assert post(client, "validate", {"state": written}) == (200, {"valid": True, "errors": [], "warnings": []})
    status, moves = post(client, "legal-moves", {"state": written})
    assert status == 200 and moves == post(client, "legal-moves", {"state": canonical})[1]
    assert len(moves["moves"]) == 11  # twelve spaces, B[0,0] full
    status, body = post(client, "apply", {"state": written, "moves": [{"type": "token", "at": [0, 0], "guild": "A"}]})
    assert body["legal"] is True
    assert body["state"]["board"] == sg.state_json(board(tokens={((1, -1), "C"): (1,), ((0, 0), "B"): (0, 1),
                                                                 ((0, 0), "A"): (0,)}))["board"]


def test_S_HEX_2_and_S_HEX_3_violations_name_the_rule_and_the_field(client):
    state = doc()
    first = {"type": "token", "at": [0, 0], "guild": "A"}
    cases = [({"type": "hex", "hex": ["A", "B", "C"], "at": [2, 0], "rotation": 0}, "S-HEX-2", "/moves/1/at"),
             ({"type": "hex", "hex": ["B", "C", "A"], "at": [-1, 0], "rotation": 1}, "S-HEX-3", "/moves/1/rotation"),
             ({"type": "hex", "hex": ["B", "C", "D"], "at": [-1, 0], "rotation": 0}, "S-HEX-1", "/moves/1/hex")]
    for move, rule, pointer in cases:
        status, body = post(client, "apply", {"state": state, "moves": [first, move]})
        assert status == 200 and (body["legal"], body["failed_at"]) == (False, 1)
        assert (body["violations"][0]["rule"], body["violations"][0]["pointer"]) == (rule, pointer)
        assert body["state"]["step"] == "hex" and len(body["state"]["board"]) == 4
    # B C A turned 2 is A B C turned 0 at [-1,0]: fits (A meets A of [0,0] at a corner only)
    status, body = post(client, "apply", {"state": state, "moves": [
        first, {"type": "hex", "hex": ["B", "C", "A"], "at": [-1, 0], "rotation": 2}]})
    assert body["legal"] is True and body["events"][1] == {"type": "hex", "player": 0, "hex": ["A", "B", "C"],
                                                           "at": [-1, 0], "rotation": 0, "step": 1,
                                                           "text": "P0 laid the hexagon ABC at [-1, 0], rotation 0."}
    assert {"at": [-1, 0], "rotation": 0, "guilds": ["A", "B", "C"], "tokens": [[], [], []],
            "towers": [None, None, None]} in body["state"]["board"]


def test_S_BUILD_1_the_chain_across_hexagons_and_a_missing_guild_in_plain_words(client):
    state = doc(tokens=CHAIN, step="build")
    status, body = post(client, "legal-moves", {"state": state})
    assert status == 200 and body["to_act"] == 0
    assert sorted(json.dumps(m, sort_keys=True) for m in body["moves"]) == sorted(
        [json.dumps({"type": "build", "at": list(at), "guild": g}, sort_keys=True) for at, g in CHAIN]
        + [json.dumps({"type": "end"})])
    short = {k: v for k, v in CHAIN.items() if k != ((1, -1), "C")}
    state = doc(tokens={**short, ((0, 0), "A"): (0,)}, towers={((1, 0), "C"): 1}, step="token")
    status, body = post(client, "apply", {"state": state, "moves": [
        {"type": "token", "at": [0, 0], "guild": "D"}, {"type": "hex", "hex": ["A", "B", "C"], "at": [-1, 0],
                                                        "rotation": 0}]})
    assert body["legal"] is True and body["state"]["turn"] == 1  # no group: the tower phase passed by itself
    assert {"type": "skipped", "player": 0, "phase": "build", "reason": "no_group", "step": 1,
            "text": "P0 skips building a tower: no group of their tokens can take a tower."} in body["events"]
    # on ten hexagons: a quartet, and a lone token of P0's away from it; a tower on the lone token is refused
    placed = full_board()
    lay = sg.layout(placed)
    quartet = spaces_of(next(distinct_quartets(lay, space_set(range(lay.spaces)))))
    near = set(quartet).union(*(lay.neighbours[s] for s in quartet))
    lone = next(s for s in range(lay.spaces) if s not in near)
    tokens = tuple((0,) if s in quartet or s == lone else () for s in range(lay.spaces))
    players = (sg.Player("Ada", (), 0, 15, 10), sg.Player("Bea", (), 0, 20, 10))
    wire = sg.state_json(sg.State(False, players, placed, tokens, (None,) * lay.spaces, 6, 0, sg.BUILD))
    assert post(client, "validate", {"state": wire})[1]["valid"] is True
    at, guild = lay.name(lone)
    status, body = post(client, "apply", {"state": wire, "moves": [{"type": "build", "at": list(at), "guild": guild}]})
    assert status == 200 and (body["legal"], body["failed_at"]) == (False, 0)
    violation = body["violations"][0]
    assert (violation["rule"], violation["pointer"]) == ("S-BUILD-1", "/moves/0/at")
    missing = " or ".join(g for g in sg.GUILDS if g != guild)
    assert f"reaches {guild} but has none of their tokens on {missing}: a tower needs all four guilds" in \
        violation["message"]
    board_with_tokens = doc(tokens={**short, ((0, 0), "D"): (0,)}, step="build")
    status, body = post(client, "validate", {"state": board_with_tokens})
    assert status == 200 and [e["rule"] for e in body["errors"]] == ["S-SVC-STEP"]  # build phase, no group


def test_S_BUILD_2_the_tower_s_tokens_go_home_through_the_api(client):
    state = doc(tokens={**CHAIN, ((0, 0), "B"): (0, 1)}, step="build")
    status, body = post(client, "apply", {"state": state, "moves": [{"type": "build", "at": [0, 0], "guild": "B"}]})
    assert status == 200
    assert body["legal"] is True
    after = body["state"]
    hexagon = next(h for h in after["board"] if h["at"] == [0, 0])
    assert hexagon["guilds"][0] == "B" and hexagon["tokens"][0] == [] and hexagon["towers"][0] == 0
    assert [(p["tokens"], p["towers"]) for p in after["players"]] == [(17, 9), (20, 10)]
    assert after["turn"] == 1 and after["step"] == "token"
    assert post(client, "validate", {"state": after})[1]["valid"] is True


def full_board() -> tuple[sg.Placed, ...]:
    """Ten hexagons for two players (every hexagon in hand laid), from a seeded deal."""
    state = sg.new_game(5, players=2)
    while any(p.hexes for p in state.players):
        legal = sg.legal_steps(state)
        step = next((s for s in legal if s.type == "hex"), legal[0])
        state = sg.apply_step(state, step)[0]
    return state.board


def test_S_END_1_the_tenth_tower_ends_the_game_through_the_api(client):
    placed = full_board()
    lay = sg.layout(placed)
    quartet = spaces_of(next(distinct_quartets(lay, space_set(range(lay.spaces)))))
    others = [s for s in range(lay.spaces) if s not in quartet][:9]
    tokens = [(0,) if s in quartet else () for s in range(lay.spaces)]
    towers = [0 if s in others else None for s in range(lay.spaces)]
    players = (sg.Player("Ada", (), 0, 16, 1), sg.Player("Bea", (), 0, 20, 10))
    state = sg.State(False, players, placed, tuple(tokens), tuple(towers), 6, 0, sg.BUILD)
    wire = sg.state_json(state)
    assert post(client, "validate", {"state": wire})[1]["valid"] is True
    at, guild = lay.name(quartet[0])
    status, body = post(client, "apply", {"state": wire, "moves": [{"type": "build", "at": list(at), "guild": guild}]})
    assert body["legal"] is True and body["state"]["phase"] == "over" and body["state"]["step"] is None
    assert [e["type"] for e in body["events"]] == ["built", "game_over"]
    assert body["events"][-1]["reason"] == "tenth_tower"
    score = post(client, "score", {"state": body["state"]})[1]
    assert (score["winners"], score["decided_by"], score["over"]) == ([0], "towers", True)
    assert score["players"][0] == {"name": "Ada", "towers": 10, "tokens": 3}
    # the same position a step later, not over: impossible
    wire_after = copy.deepcopy(body["state"])
    wire_after.update(phase="play", step="token", turn=1)
    status, problems = post(client, "validate", {"state": wire_after})
    assert status == 200
    assert ("S-END-1", "/state/players/0/towers") in {(e["rule"], e["pointer"]) for e in problems["errors"]}


def test_S_END_3_ties_through_the_api(client):
    towers = {((0, 0), "B"): 0, ((0, -1), "D"): 1}
    status, score = post(client, "score", {"state": doc(towers=towers, tokens={((1, 0), "C"): (0, 1)})})
    assert (score["winners"], score["winner"], score["decided_by"]) == ([0, 1], None, "shared")
    status, score = post(client, "score", {"state": doc(towers=towers, tokens={((1, 0), "C"): (1,)})})
    assert status == 200
    assert (score["winners"], score["winner"], score["decided_by"]) == ([1], 1, "tokens")
    assert [p["towers"] for p in score["players"]] == [1, 1] and score["over"] is False


def test_S_COMP_4_every_problem_of_an_impossible_state_at_once(client):
    state = doc(tokens={((1, 0), "A"): (1,)}, towers={((0, 0), "B"): 0})
    state["players"][0]["tokens"] = 18  # one of P0's on the board (below): 18 + 1
    state["players"][1]["towers"] = 9  # P1 has built none: 9 + 0
    hexagon = next(h for h in state["board"] if h["at"] == [1, -1])
    hexagon["tokens"][1] = [0, 1, 1]  # C[1,-1]: three tokens; P1 has 4 on the board then, and 19 in supply
    zero = next(h for h in state["board"] if h["at"] == [0, 0])
    zero["tokens"][0] = [1]  # under P0's tower
    state["players"][1]["hexes"].append(["A", "B", "C"])  # a fourth hexagon in hand: 17 in all
    status, body = post(client, "validate", {"state": state})
    found = {(e["rule"], e["pointer"]) for e in body["errors"]}
    h_c, h_0 = state["board"].index(hexagon), state["board"].index(zero)
    assert found == {
        ("S-COMP-4", "/state/players/0/tokens"), ("S-COMP-4", "/state/players/1/tokens"),
        ("S-COMP-4", "/state/players/1/towers"), ("S-TOKEN-1", f"/state/board/{h_c}/tokens/1"),
        ("S-BUILD-3", f"/state/board/{h_0}/tokens/0"), ("S-COMP-4", "/state/board"),
    }
    assert all(e["message"] for e in body["errors"]) and body["valid"] is False
    status, refused = post(client, "legal-moves", {"state": state})
    assert status == 422 and {(e["rule"], e["pointer"]) for e in refused["errors"]} == found
    # the board's own rules: [1,0] turned 4 would put its B (sides 2-3) against B of [0,0] (side 0 of [0,0])
    state = doc()
    assert [h["at"] for h in state["board"]] == [[0, -1], [0, 0], [1, -1], [1, 0]]
    state["board"][3]["rotation"] = 4
    status, body = post(client, "validate", {"state": state})
    assert {(e["rule"], e["pointer"]) for e in body["errors"]} == {("S-HEX-3", "/state/board/1")}
    state["board"][3]["rotation"] = 1
    state["board"][2]["at"] = [0, 0]  # two hexagons on one place
    status, body = post(client, "validate", {"state": state})
    assert ("S-GEO-1", "/state/board/2/at") in {(e["rule"], e["pointer"]) for e in body["errors"]}


@pytest.mark.parametrize("question, change, status, pointer", [
    ("validate", lambda s: s.update(turn="0"), 400, "/state/turn"),
    ("validate", lambda s: s["board"][0].update(at=[0, "0"]), 400, "/state/board/0/at/1"),
    ("validate", lambda s: s["board"][0].update(at=[0, 0, 0]), 400, "/state/board/0/at"),
    ("validate", lambda s: s["board"][0].update(rotation=6), 400, "/state/board/0/rotation"),
    ("validate", lambda s: s["board"][0].update(rotation=True), 400, "/state/board/0/rotation"),
    ("validate", lambda s: s["board"][0].update(guilds=["A", "B", "E"]), 400, "/state/board/0/guilds/2"),
    ("validate", lambda s: s["board"][0].update(tokens=[[0], [], ["1"]]), 400, "/state/board/0/tokens/2/0"),
    ("validate", lambda s: s["board"][0].update(towers=[None, None]), 400, "/state/board/0/towers"),
    ("validate", lambda s: s["players"][0].update(hexes="ABC"), 400, "/state/players/0/hexes"),
    ("validate", lambda s: s["players"][0].update(hexes={"count": -1}), 400, "/state/players/0/hexes/count"),
    ("validate", lambda s: s["players"][1].update(tokens=1.5), 400, "/state/players/1/tokens"),
    ("validate", lambda s: s.update(variant={"large_groups": 1}), 400, "/state/variant/large_groups"),
    ("score", lambda s: s.update(board={}), 400, "/state/board"),
    ("picture", lambda s: s.update(step="tower"), 400, "/state/step"),
    ("legal-moves", lambda s: s["board"][0].update(guilds=["A", "A", "B"]), 422, "/state/board/0/guilds"),
    ("legal-moves", lambda s: s["players"].pop(), 422, "/state/players"),
])
def test_malformed_or_impossible_input_is_a_4xx_naming_the_field(client, question, change, status, pointer):
    state = doc()
    change(state)
    code, body = post(client, question, {"state": state})
    assert code == status and pointer in {e["pointer"] for e in body["errors"]}, body


@pytest.mark.parametrize("move, pointer", [
    ({"type": "token", "at": [0, 0]}, "/moves/0/guild"),
    ({"type": "token", "at": [0, 0], "guild": "E"}, "/moves/0/guild"),
    ({"type": "hex", "hex": ["A", "B"], "at": [-1, 0], "rotation": 0}, "/moves/0/hex"),
    ({"type": "hex", "hex": ["A", "B", "C"], "at": [-1, 0], "rotation": "0"}, "/moves/0/rotation"),
    ({"type": "build", "at": "0,0", "guild": "B"}, "/moves/0/at"),
    ({"type": "tower", "at": [0, 0], "guild": "B"}, "/moves/0/type"),
    ({"type": "end", "why": "none"}, "/moves/0/why"),
])
def test_malformed_moves_are_a_400_naming_the_field(client, move, pointer):
    code, body = post(client, "apply", {"state": doc(), "moves": [move]})
    assert code == 400 and pointer in {e["pointer"] for e in body["errors"]}, body


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=False),
                 st.text(max_size=5), st.lists(st.integers(-3, 5), max_size=4),
                 st.lists(st.sampled_from(["A", "B", "C", "D", "E"]), max_size=4),
                 st.dictionaries(st.sampled_from(["count", "at", "x"]), st.integers(-2, 20), max_size=2))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), question=st.sampled_from(["validate", "legal-moves", "apply", "score", "picture", "view"]))
def test_junk_anywhere_in_a_request_is_never_a_500(client, data, question):
    body = {"state": doc(tokens=CHAIN, step="build"), "moves": [{"type": "build", "at": [0, 0], "guild": "B"}],
            "player": 1}
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from([p for p in json_paths(body) if p]))
        target = body
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = data.draw(JUNK)
    code, answer = post(client, question, body)
    assert code in (200, 400, 422)
    if code != 200:
        assert answer["errors"] and all(e["pointer"].startswith("/") or e["pointer"] == "" for e in answer["errors"])
