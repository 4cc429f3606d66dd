"""A tower's `kind` and `rank` may always be given: in a build, in an extension (the tower's), in a state's or a
table's towers. They are required only where Buona Pietra makes the cards ambiguous (T-NOB-BP); a value that
agrees with the cards (or the extended tower) changes nothing, one that contradicts them is refused with its rule
and a pointer at the field (T-ACT-BUILD-2, T-ACT-EXTEND-1)."""
from __future__ import annotations

import pytest

from service.games import torri
from tests.torri.helpers import BP, GIOSTRA, build, errors, extend, js, make, moves, play, refused, state_dict, tower


def nob(**kwargs) -> torri.State:
    return make(nobles=True, **kwargs)


def violation(outcome: torri.Outcome) -> tuple[str, str]:
    assert len(outcome.violations) == 1, outcome.violations
    return outcome.violations[0].rule, outcome.violations[0].pointer


def same_outcome(state: torri.State, step: dict, **given) -> None:
    """The step with `given` added is accepted and does exactly what the bare step does."""
    bare, redundant = play(state, step), play(state, {**step, **given})
    assert (redundant.state, redundant.events) == (bare.state, bare.events), given


# ---------------------------------------------------------------- build

@pytest.mark.parametrize("given", [{"kind": "plain", "rank": 6}, {"kind": "plain"}, {"rank": 6}])
def test_T_ACT_BUILD_2_a_plain_build_may_say_it_is_plain_and_its_rank(given):
    same_outcome(make(hands=[["6x3", 9], [5]]), build("6x3"), **given)


@pytest.mark.parametrize("given", [{"kind": "colorful", "rank": 9}, {"kind": "colorful"}, {"rank": 9}])
def test_T_ACT_BUILD_3_a_colorful_build_may_say_it_is_colorful_and_its_bottom_rank(given):
    same_outcome(make(hands=[[9, 8, 7, 5], [6]]), build(9, 8, 7), **given)


def test_T_ACT_BUILD_2_a_kind_or_rank_the_cards_do_not_have_is_refused_at_that_field():
    plain = make(hands=[["6x3", 9], [5]])
    assert violation(refused(plain, build("6x3", kind="colorful"))) == ("T-ACT-BUILD-2", "/0/kind")
    assert violation(refused(plain, build("6x3", kind="colorful", rank=6))) == ("T-ACT-BUILD-2", "/0/kind")
    assert violation(refused(plain, build("6x3", rank=7))) == ("T-ACT-BUILD-2", "/0/rank")
    assert violation(refused(plain, build("6x3", kind="plain", rank=9))) == ("T-ACT-BUILD-2", "/0/rank")
    colorful = make(hands=[[9, 8, 7, 5], [6]])
    assert violation(refused(colorful, build(9, 8, 7, kind="plain"))) == ("T-ACT-BUILD-2", "/0/kind")
    assert violation(refused(colorful, build(9, 8, 7, kind="colorful", rank=7))) == ("T-ACT-BUILD-2", "/0/rank")
    assert "plain 6" in refused(plain, build("6x3", rank=7)).violations[0].message


def test_T_ACT_BUILD_2_a_refused_kind_leaves_the_shape_rules_first():
    state = make(hands=[[6, 6, 7, 9], [5]])
    assert violation(refused(state, build(6, 6, 7, kind="plain", rank=6))) == ("T-ACT-BUILD-2", "/0/cards")


def test_T_NOB_BP_a_build_that_buona_pietra_leaves_unambiguous_may_give_kind_and_rank():
    # Buona Pietra under a 10 stands for 11: colorful 11-10-9, the only reading of these cards
    state = nob(hands=[[BP, 10, 9, 5], [6]], played=[[], ["mura"]])
    assert build(BP, 10, 9) in moves(state)
    for given in ({"kind": "colorful"}, {"kind": "colorful", "rank": 11}, {"rank": 11}):
        same_outcome(state, build(BP, 10, 9), **given)
    tower_ = js(play(state, build(BP, 10, 9, kind="colorful")).state)["players"][0]["towers"][0]
    assert (tower_["kind"], tower_["rank"]) == ("colorful", 11)
    assert violation(refused(state, build(BP, 10, 9, kind="plain"))) == ("T-ACT-BUILD-2", "/0/kind")
    assert violation(refused(state, build(BP, 10, 9, kind="colorful", rank=10))) == ("T-ACT-BUILD-2", "/0/rank")


def test_T_NOB_BP_an_ambiguous_build_still_needs_both_and_they_must_agree():
    state = nob(hands=[[8, 8, BP, BP], [6]], played=[[], ["mura"]])
    assert violation(refused(state, build(8, BP, BP))) == ("T-NOB-BP", "/0/cards")
    assert violation(refused(state, build(8, BP, BP, kind="plain"))) == ("T-NOB-BP", "/0/cards")
    assert violation(refused(state, build(8, BP, BP, kind="plain", rank=9))) == ("T-ACT-BUILD-2", "/0/rank")
    assert play(state, build(8, BP, BP, kind="colorful", rank=8)).state.players[0].towers[0].kind == "colorful"


def test_T_NOB_GIOSTRA_a_window_keeps_no_trace_of_a_redundant_kind_and_rank():
    state = nob(hands=[[8, 8, BP, 5], ["giostra", 6]])
    bare = play(state, build(8, BP, 8)).state
    redundant = play(state, build(8, BP, 8, kind="plain", rank=8)).state
    assert js(redundant)["pending"] == js(bare)["pending"] == {"type": "giostra", "action": "build", "player": 0,
                                                               "cards": ["8", BP, "8"]}
    assert js(redundant) == js(bare)
    declined = play(redundant, {"type": "decline"}).state
    assert js(declined)["players"][0]["towers"][0] == {"cards": ["8", BP, "8"], "complete": False, "kind": "plain",
                                                       "rank": 8}


def test_T_NOB_GIOSTRA_a_rebuild_may_give_the_kind_and_rank_of_its_cards():
    state = nob(hands=[[10, 9, 8, BP], ["giostra", 6]])
    cancelled = play(state, build(10, 9, 8, BP), GIOSTRA).state
    same_outcome(cancelled, build(10, 9, 8), kind="colorful", rank=10)
    assert violation(refused(cancelled, build(10, 9, 8, kind="colorful", rank=9))) == ("T-ACT-BUILD-2", "/0/rank")


# ---------------------------------------------------------------- extend

@pytest.mark.parametrize("given", [{"kind": "plain", "rank": 7}, {"kind": "plain"}, {"rank": 7}])
def test_T_ACT_EXTEND_1_an_extension_may_give_the_plain_towers_kind_and_rank(given):
    same_outcome(make(hands=[[7, 7, 8], []], towers=[["7x3"], []]), extend(0, 7, 7), **given)


@pytest.mark.parametrize("given", [{"kind": "colorful", "rank": 10}, {"kind": "colorful"}, {"rank": 10}])
def test_T_ACT_EXTEND_1_an_extension_may_give_the_colorful_towers_kind_and_bottom_rank(given):
    same_outcome(make(hands=[[7, 6, 5, 9], []], towers=[["10-8"], []]), extend(0, 7, 6), **given)


def test_T_ACT_EXTEND_1_a_kind_or_rank_that_is_not_the_towers_is_refused_at_that_field():
    plain = make(hands=[[7, 7, 8], []], towers=[["7x3"], []])
    assert violation(refused(plain, extend(0, 7, kind="colorful"))) == ("T-ACT-EXTEND-1", "/0/kind")
    assert violation(refused(plain, extend(0, 7, kind="plain", rank=8))) == ("T-ACT-EXTEND-1", "/0/rank")
    colorful = make(hands=[[7, 6, 5, 9], []], towers=[["10-8"], []])
    assert violation(refused(colorful, extend(0, 7, rank=8))) == ("T-ACT-EXTEND-1", "/0/rank")  # the top is 8
    assert violation(refused(colorful, extend(0, 7, kind="plain", rank=10))) == ("T-ACT-EXTEND-1", "/0/kind")
    assert violation(refused(colorful, extend(3, 7, kind="colorful"))) == ("T-ACT-EXTEND-1", "/0/tower")


def test_T_NOB_BP_an_extension_with_buona_pietra_may_give_the_towers_kind_and_rank():
    state = nob(hands=[[9, BP, 5], [6]], towers=[["10x3"], []], played=[[], ["mura"]])
    same_outcome(state, extend(0, BP), kind="plain", rank=10)
    assert violation(refused(state, extend(0, BP, kind="colorful", rank=10))) == ("T-ACT-EXTEND-1", "/0/kind")


# ---------------------------------------------------------------- one spelling

def test_T_ACT_BUILD_2_canonical_step_drops_only_what_agrees():
    state = make(hands=[["6x3", 9, 8, 7], [5]], towers=[["10-8*", "9x3"], []])
    listed = set(torri.legal_steps(state))
    for given in (build("6x3", kind="plain", rank=6), build(9, 8, 7, kind="colorful", rank=9),
                  extend(1, 9, kind="plain", rank=9)):
        step = torri.parse_step(given)
        assert step not in listed and torri.canonical_step(state, step) in listed, given
    for wrong in (build("6x3", kind="colorful"), extend(1, 9, rank=8), extend(5, 9, kind="plain")):
        step = torri.parse_step(wrong)
        assert torri.canonical_step(state, step) == step, wrong


# ---------------------------------------------------------------- towers in a state and a table

def _with_kinds(towers: list, kinds: list[dict]) -> list[dict]:
    return [{**tower(spec), **given} for spec, given in zip(towers, kinds)]


def test_T_ACT_BUILD_2_towers_in_a_state_may_give_kind_and_rank_that_agree():
    towers = ["10x3*", "9-7", "6x4"]
    plain_doc = state_dict(towers=[towers, []], hands=[[5], [5]])
    kinds = [{"kind": "plain", "rank": 10}, {"kind": "colorful"}, {"rank": 6}]
    doc = state_dict(towers=[_with_kinds(towers, kinds), []], hands=[[5], [5]])
    assert errors(doc) == []
    assert js(torri.read_state(doc)) == js(torri.read_state(plain_doc))


@pytest.mark.parametrize(("given", "field"), [({"kind": "colorful"}, "kind"), ({"kind": "plain", "rank": 9}, "rank"),
                                              ({"rank": 11}, "rank")])
def test_T_ACT_BUILD_2_a_towers_kind_or_rank_that_contradicts_its_cards_is_an_error_there(given, field):
    doc = state_dict(towers=[[{**tower("10x3"), **given}], []], hands=[[5], [5]])
    assert [(p.rule, p.pointer) for p in errors(doc)] == [("T-ACT-BUILD-2", f"/players/0/towers/0/{field}")]
    with pytest.raises(torri.InvalidStateError):
        torri.read_state(doc)


def test_T_NOB_BP_a_towers_kind_settles_buona_pietra_and_a_rank_alone_may_not():
    ambiguous = {"cards": ["8", BP, BP], "complete": False}
    settled = state_dict(nobles=True, towers=[[{**ambiguous, "kind": "colorful"}], []], hands=[[5], [5]],
                         played=[[], ["mura"]])
    assert errors(settled) == []
    unsettled = state_dict(nobles=True, towers=[[{**ambiguous, "rank": 8}], []], hands=[[5], [5]],
                           played=[[], ["mura"]])
    assert [(p.rule, p.pointer) for p in errors(unsettled)] == [("T-NOB-BP", "/players/0/towers/0/cards")]


def _table(towers_0: list, towers_1: list) -> dict:
    return {"players": [{"name": "Adso", "towers": towers_0}, {"name": "William", "towers": towers_1}],
            "highest": 0}


def test_T_ACT_BUILD_2_towers_in_a_table_may_give_kind_and_rank_that_agree():
    towers_0, towers_1 = ["10x4*", "9-6*"], ["7x3*", "8-6"]
    bare = torri.score_table_json(_table([tower(t) for t in towers_0], [tower(t) for t in towers_1]))
    given = torri.score_table_json(_table(
        _with_kinds(towers_0, [{"kind": "plain", "rank": 10}, {"kind": "colorful", "rank": 9}]),
        _with_kinds(towers_1, [{"kind": "plain"}, {"rank": 8}])))
    assert given[0].to_json() == bare[0].to_json() and given[1] == bare[1] == []


def test_T_ACT_BUILD_2_a_tables_tower_that_contradicts_its_cards_is_refused():
    with pytest.raises(torri.InvalidStateError) as raised:
        torri.score_table_json(_table([{**tower("10x4*"), "kind": "plain", "rank": 9}], [tower("7x3*")]))
    assert [(p.rule, p.pointer) for p in raised.value.problems] == [("T-ACT-BUILD-2", "/players/0/towers/0/rank")]


# ---------------------------------------------------------------- through the API

def test_T_ACT_BUILD_2_the_api_takes_a_redundant_kind_in_a_build_and_an_extension(client):
    state = state_dict(nobles=True, hands=[[BP, 10, 9, 7, 7, 5], [6]], towers=[["7x3"], []],
                       played=[[], ["mura"]])
    answer = client.post("/v1/games/torri/apply", json={"state": state, "moves": [
        {"type": "build", "cards": ["buona_pietra", "10", "9"], "kind": "colorful"}]})
    assert answer.status_code == 200 and answer.get_json()["legal"] is True, answer.get_json()
    answer = client.post("/v1/games/torri/apply", json={"state": state, "moves": [
        {"type": "extend", "tower": 0, "cards": ["7", "7"], "kind": "plain", "rank": 7}]})
    assert answer.status_code == 200 and answer.get_json()["legal"] is True, answer.get_json()
    answer = client.post("/v1/games/torri/apply", json={"state": state, "moves": [
        {"type": "build", "cards": ["buona_pietra", "10", "9"], "kind": "plain"}]})
    body = answer.get_json()
    assert answer.status_code == 200 and body["legal"] is False
    assert [(v["rule"], v["pointer"]) for v in body["violations"]] == [("T-ACT-BUILD-2", "/moves/0/kind")]


def test_T_ACT_EXTEND_1_the_api_refuses_an_extensions_contradicting_rank_with_its_pointer(client):
    state = state_dict(hands=[[7, 7], [6]], towers=[["7x3"], []])
    answer = client.post("/v1/games/torri/apply", json={"state": state, "moves": [
        {"type": "extend", "tower": 0, "cards": ["7"], "rank": 8}]})
    body = answer.get_json()
    assert answer.status_code == 200 and body["legal"] is False
    assert [(v["rule"], v["pointer"]) for v in body["violations"]] == [("T-ACT-EXTEND-1", "/moves/0/rank")]
    malformed = client.post("/v1/games/torri/apply", json={"state": state, "moves": [
        {"type": "extend", "tower": 0, "cards": ["7"], "kind": "tall"}]})
    assert malformed.status_code == 400 and malformed.content_type == "application/problem+json"
    assert [error["pointer"] for error in malformed.get_json()["errors"]] == ["/moves/0/kind"]
