"""Per-rule tests: scoring (T-SCORE-*, T-DON-7), with the rulesheet's worked example and api.md's breakdown."""
from __future__ import annotations

import pytest

from service.games import torri
from tests.torri.helpers import CLOSE, PASS, make, play, tower


def table(p0: list, p1: list, highest: int | None = None, played: tuple = ([], []), **extra) -> dict:
    return {"players": [{"name": "Adso", "towers": [tower(t) for t in p0], "played": list(played[0])},
                        {"name": "William", "towers": [tower(t) for t in p1], "played": list(played[1])}],
            "highest": highest, **extra}


def scored(p0: list, p1: list, highest: int | None = None, **kwargs) -> dict:
    score, warnings = torri.score_table_json(table(p0, p1, highest, **kwargs))
    return score.to_json()


def cats(result: dict, player: int) -> dict:
    return result["players"][player]["categories"]


# ---------------------------------------------------------------- the rulesheet's worked example (api.md)

WORKED = table(["10x3*", "9x3*", "8x3", "6x3*", "10-6"], ["7x3*", "9-5*", "10-8*", "7-5*"], highest=0)

API_MD_SCORE = {
    "players": [
        {"name": "Adso",
         "categories": {"completion": 15, "blessing": 0, "plain": 33, "colorful": 5, "highest": 10,
                        "monumento": 0, "cappella": 0},
         "plain_ranks_won": [6, 8, 9, 10],
         "total": 63},
        {"name": "William",
         "categories": {"completion": 20, "blessing": 6, "plain": 7, "colorful": 33, "highest": 0,
                        "monumento": 0, "cappella": 0},
         "plain_ranks_won": [7], "total": 66}],
    "winner": 1, "decided_by": "points"}


def test_T_SCORE_WIN_worked_example_adso_63_william_66_william_wins_on_points():
    score, warnings = torri.score_table_json(WORKED)
    assert score.to_json() == API_MD_SCORE
    assert warnings == []
    assert [p.total for p in score.players] == [63, 66]
    assert (score.winner, score.decided_by) == (1, "points")


def test_T_SCORE_1_to_6_worked_example_from_a_whole_state():
    # the same table as a finished game (hands and deck hold the rest): scoring reads only the table
    state = make(towers=[WORKED["players"][0]["towers"], WORKED["players"][1]["towers"]], highest=0,
                 hands=[[5, 5], [5]], phase="over", passes=2)
    assert torri.score(state).to_json() == API_MD_SCORE


def test_T_SCORE_WIN_worked_example_written_in_the_notation_of_api_md():
    notation = pytest.importorskip("service.games.torri.notation")
    text = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*\n"
    assert torri.score_table_json(notation.parse(text))[0].to_json() == API_MD_SCORE


# ---------------------------------------------------------------- category by category

def test_T_SCORE_1_completion_5_per_complete_tower():
    assert cats(scored(["5x3*", "6x3*", "7-5"], []), 0)["completion"] == 10
    assert cats(scored(["5x3", "6x3", "7-5"], []), 0)["completion"] == 0


def test_T_SCORE_2_blessing_2_per_story_of_plain_7s_complete_or_not():
    result = scored(["7x3", "7x3*"], ["9-7"])
    assert cats(result, 0)["blessing"] == 12
    assert cats(result, 1)["blessing"] == 0  # 7s in colorful towers do not count


def test_T_DON_7_blessing_plain_7_towers_score_2_per_story():
    assert cats(scored(["7x5"], []), 0)["blessing"] == 10
    result = scored(["7x4"], ["7x3"])
    assert (cats(result, 0)["blessing"], cats(result, 1)["blessing"]) == (8, 6)  # both bless, whoever is taller


def test_T_SCORE_3_the_tallest_plain_tower_of_each_rank_scores_its_rank():
    result = scored(["9x3", "8x3", "6x3", "6x3"], ["9x5", "8x3", "10-8"])
    assert result["players"][0]["plain_ranks_won"] == [6, 8]
    assert result["players"][1]["plain_ranks_won"] == [8, 9]  # a tie scores for both
    assert cats(result, 0)["plain"] == 6 + 8  # the rank once, however many towers
    assert cats(result, 1)["plain"] == 8 + 9  # a colorful tower is not a plain 10


def test_T_SCORE_3_no_plain_tower_of_a_rank_scores_nothing_for_it():
    result = scored([], ["10-8"])
    assert cats(result, 0)["plain"] == cats(result, 1)["plain"] == 0
    assert result["players"][1]["plain_ranks_won"] == []


def test_T_SCORE_4_colorful_number_of_towers_times_their_total_stories():
    assert cats(scored(["10-8", "9-5"], []), 0)["colorful"] == 2 * (3 + 5)
    assert cats(scored(["10-8", "9-7", "8-5"], []), 0)["colorful"] == 3 * (3 + 3 + 4)
    assert cats(scored(["10-8"], []), 0)["colorful"] == 3
    assert cats(scored(["10x3"], []), 0)["colorful"] == 0


def test_T_SCORE_5_ten_for_the_holder_of_the_marker():
    result = scored(["5x3"], ["6x3"], highest=1)
    assert (cats(result, 0)["highest"], cats(result, 1)["highest"]) == (0, 10)
    assert cats(scored([], []), 0)["highest"] == 0


def test_T_SCORE_6_monumento_and_cappella_if_played():
    result = scored(["8x5", "9-5", "10-7"], ["7x3"], played=(["monumento", "cappella"], ["mura"]))
    assert cats(result, 0)["monumento"] == 7
    assert cats(result, 0)["cappella"] == 10  # two towers of at least 5 stories
    assert cats(result, 1)["monumento"] == cats(result, 1)["cappella"] == 0
    base = scored(["8x5", "9-5"], ["7x3"])
    assert cats(base, 0)["monumento"] == cats(base, 0)["cappella"] == 0


def test_T_SCORE_7_cards_left_in_hand_score_nothing():
    towers = [["8x3*", "9-7"], ["7x4"]]
    empty = make(towers=towers, hands=[[], []], phase="over", passes=2)
    full = make(towers=towers, hands=[["10x7"], ["10x3", "9x4"]], phase="over", passes=2)
    assert torri.score(empty).to_json() == torri.score(full).to_json()


def test_T_SCORE_WIN_a_tie_goes_to_the_marker():
    result = scored(["5x4"], ["10x3*"], highest=0)  # 5 + 10 against 10 + 5
    assert [p["total"] for p in result["players"]] == [15, 15]
    assert (result["winner"], result["decided_by"]) == (0, "highest")


def test_T_SCORE_WIN_a_tie_without_the_marker_is_a_draw():
    result = scored([], [])
    assert (result["winner"], result["decided_by"]) == (None, "draw")
    result = scored(["8x3"], ["8x3"])  # impossible once towers stand, but a table may be scored anyway
    assert (result["winner"], result["decided_by"]) == (None, "draw")


def test_T_SCORE_WIN_most_points_wins_even_without_the_marker():
    result = scored(["5x3"], ["10x3*", "9x3*"], highest=0)
    assert (result["winner"], result["decided_by"]) == (1, "points")


def test_T_SCORE_DEALS_one_deal_no_close_penalty():
    # The several-deals option is not what /score answers: in a single deal the closer who loses keeps every point.
    state = make(hands=[[], []], towers=[["5x3*", "6x3*", "7x3*", "8x3*"], ["10x6*", "9x6*", "8x4*", "7x4*"]],
                 highest=1)
    over = play(state, CLOSE, PASS, PASS)
    assert over.events[0]["type"] == "closed" and over.state.phase == "over"
    result = torri.score(over.state).to_json()
    adso, william = result["players"]
    assert adso["categories"] == {"completion": 20, "blessing": 6, "plain": 5 + 6, "colorful": 0, "highest": 0,
                                  "monumento": 0, "cappella": 0}
    assert adso["total"] == 37  # no -10 for calling Close and losing
    assert william["total"] == 20 + 8 + 10 + 9 + 8 + 7 + 10
    assert (result["winner"], result["decided_by"]) == (1, "points")


def test_T_SVC_DEALS_the_closer_who_loses_the_deal_gets_minus_10():
    state = make(hands=[[], []], towers=[["5x3*", "6x3*", "7x3*", "8x3*"], ["10x6*", "9x6*", "8x4*", "7x4*"]],
                 highest=1)
    over = play(state, CLOSE, PASS, PASS).state
    single, deal = torri.score(over).to_json(), torri.score(over, several_deals=True).to_json()
    adso, william = deal["players"]
    assert adso["categories"]["close_penalty"] == -10 and adso["total"] == single["players"][0]["total"] - 10
    assert william["categories"]["close_penalty"] == 0 and william["total"] == single["players"][1]["total"]
    assert (deal["winner"], deal["decided_by"]) == (1, "points")


def test_T_SVC_DEALS_the_closer_who_wins_keeps_every_point():
    state = make(hands=[[], []], towers=[["10x6*", "9x6*", "8x4*", "7x4*"], ["5x3*", "6x3*", "7x3*", "8x3*"]],
                 highest=0)
    over = play(state, CLOSE, PASS, PASS).state
    deal = torri.score(over, several_deals=True).to_json()
    assert [p["categories"]["close_penalty"] for p in deal["players"]] == [0, 0]
    assert deal["winner"] == 0


# ---------------------------------------------------------------- tables are checked like states

def test_T_SCORE_a_table_is_checked_like_a_state():
    with pytest.raises(torri.InvalidStateError) as raised:
        torri.score_table_json(table(["10x10", "10x3"], []))
    assert "T-COMP-4" in {p.rule for p in raised.value.problems}
    with pytest.raises(torri.InvalidStateError) as raised:
        torri.score_table_json(table([["9", "9"]], []))
    assert "T-ACT-BUILD-1" in {p.rule for p in raised.value.problems}


def test_T_HIGH_3_a_table_whose_marker_holder_is_not_tallest_scores_with_a_warning():
    score, warnings = torri.score_table_json(table(["5x3"], ["8x5"], highest=0))
    assert [w.rule for w in warnings] == ["T-HIGH-3"]
    assert score.players[0].categories["highest"] == 10
