"""Patience: what people type when transcribing a photo reads as the table they meant, when it is unambiguous."""
from __future__ import annotations

import pytest

from service.games.torri import notation

from .helpers import RULESHEET

RULESHEET_TABLE = notation.read(RULESHEET)[0]

SAME_AS_RULESHEET = [
    # whitespace
    "  Adso   @ :  10x3*   9x3*\t8x3 6x3*  10-6  \n\n\tWilliam:7x3* 9-5* 10-8* 7-5*   \n\n",
    "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\r\nWilliam: 7x3* 9-5* 10-8* 7-5*\r\n",
    "\n# Adso and William, from the rulesheet\nAdso @: 10x3* 9x3* 8x3 6x3* 10-6   # Adso\nWilliam: 7x3* 9-5* "
    "10-8* 7-5*",
    # case
    "Adso @: 10X3* 9X3* 8X3 6X3* 10-6\nWilliam: 7X3* 9-5* 10-8* 7-5*",
    # 10 x 4, 10X4, ×, dashes, spaces before the star
    "Adso @: 10 x 3* 9 X 3 * 8 × 3 6x3 * 10 - 6\nWilliam: 7x3* 9 – 5* 10—8* 7−5*",
    # commas, a trailing comma
    "Adso @: 10x3*, 9x3*, 8x3, 6x3*, 10-6,\nWilliam: 7x3*,9-5*,10-8*,7-5*,",
    "Adso @: 10x3*; 9x3*; 8x3; 6x3*; 10-6;\nWilliam: 7x3* 9-5* 10-8* 7-5*",
    # the marker before or after the colon, glued to the name
    "Adso@: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*",
    "Adso: @ 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*",
    "@ Adso: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*",
    # stacks and chains for what RxH and A-B say
    "Adso @: [10 10 10]* [9,9,9]* [8 8 8] [6 6 6]* [10 9 8 7 6]\nWilliam: [7 7 7]* 9-8-7-6-5* 10-9-8* [7 6 5]*",
    # glued towers after a star
    "Adso @: 10x3*9x3*8x3 6x3*10-6\nWilliam: 7x3*9-5*10-8*7-5*",
    # a variant line, in any case
    "VARIANT: Basic\nAdso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*",
]


@pytest.mark.parametrize("text", SAME_AS_RULESHEET, ids=range(len(SAME_AS_RULESHEET)))
def test_slips_read_as_the_table_meant(text):
    table, warnings = notation.read(text)
    assert table == RULESHEET_TABLE
    assert warnings == []
    assert notation.canonical(text) == RULESHEET


def test_a_stray_exclamation_mark_is_ignored_and_said():
    table, warnings = notation.read("Adso @!: 10x3*! 9x3* 8x3! 6x3* 10-6 !\nWilliam: 7x3* 9-5* 10-8* 7-5*!")
    assert table == RULESHEET_TABLE
    assert [(w.line, w.column, w.rule) for w in warnings] == [(1, 7, None), (1, 15, None), (1, 25, None),
                                                               (1, 37, None), (2, 30, None)]
    messages = [w.message for w in warnings]
    assert messages[0] == "line 1, column 7: ignored a stray '!'."
    assert messages[1] == "line 1, column 15: ignored a stray '!' after 10x3*."
    assert messages[2] == "line 1, column 25: ignored a stray '!' after 8x3 (write 8x3* if that tower is complete)."
    assert messages[3] == "line 1, column 37: ignored a stray '!'."
    assert all(w.pointer == "/notation" for w in warnings)


@pytest.mark.parametrize("text, played", [
    ("A @: 10x3 | +MON +SF +MU +PC +VF +GI\nB:", ["monumento", "cappella", "mura", "palazzo", "via_francigena",
                                                "giostra"]),
    ("A @: 10x3 | mon sf\nB: | +Mura", ["monumento", "cappella"]),
    ("A @: 10x3 +MON\nB:", ["monumento"]),
    ("A @: 10x3 | +monumento +Cappella di Santa Fina +via_francigena +Via Francigena\nB:",
     ["monumento", "cappella", "via_francigena", "via_francigena"]),
    ("A @: 10x3 | +PALAZZO_COMUNALE +Santa Fina\nB:", ["palazzo", "cappella"]),
])
def test_nobles_by_code_or_name(text, played):
    assert notation.parse(text)["players"][0]["played"] == played


def test_buona_pietra_in_any_case_and_saying_what_it_stands_for():
    document = notation.parse("A @: [10 bp Bp8 7] [BP11 10 9]\nB:")
    first, second = document["players"][0]["towers"]
    assert first == {"cards": ["10", "buona_pietra", "buona_pietra", "7"], "complete": False}
    assert second == {"cards": ["buona_pietra", "10", "9"], "complete": False}
    assert notation.parse("A @: [10 BP9 BP]\nB:")["players"][0]["towers"][0] == {
        "cards": ["10", "buona_pietra", "buona_pietra"], "complete": False, "kind": "colorful", "rank": 10}


def test_the_document_is_what_read_table_takes():
    assert notation.parse("Adso @: 10x3* 9-7 | +MON\nWilliam:") == {
        "players": [
            {"name": "Adso", "towers": [{"cards": ["10", "10", "10"], "complete": True, "kind": "plain", "rank": 10},
                                        {"cards": ["9", "8", "7"], "complete": False, "kind": "colorful", "rank": 9}],
             "played": ["monumento"]},
            {"name": "William", "towers": [], "played": []}],
        "highest": 0,
    }
    assert notation.parse("variant: nobles\nA:\nB:")["variant"] == {"nobles": True}


def test_a_one_story_tower_writes_its_kind():
    from service.games.torri.model import COLORFUL, PLAIN, Tower

    assert notation.write_tower(Tower((7,), False, PLAIN, 7)) == "7x1"
    assert notation.write_tower(Tower((7,), True, COLORFUL, 7)) == "7-7*"
