"""Every way the notation can be wrong says where (line and column) and, where it can, how to fix it."""
from __future__ import annotations

import pytest

from service.games.core.errors import InvalidStateError, MalformedError
from service.games.torri import notation
from service.games.torri.notation import NotationError, NotationProblem, NotationTableError

W = "\nWilliam: 7x3*"  # a second line that is fine

# (text, line, column, fragment of the message, rule)
PARSE_ERRORS = [
    # the lines
    ("", 1, 1, "the notation is empty: write one line per player", "T-COMP-3"),
    ("# only a comment\n\n", 1, 1, "the notation is empty", "T-COMP-3"),
    ("Adso @: 10x3*", 2, 1, "expected a second line for the other player, like William: 7x3* 9-5*", "T-COMP-3"),
    ("A: 5x3\nB: 6x3\nSalvatore: 7x3", 3, 1, "Torri is for two players: this is a third player line",
     "T-COMP-3"),
    ("Adso @: 10x3*\nWilliam @: 7x3*", 2, 9, "both players are marked @", "T-COMP-3"),
    ("Adso @: 10x3*\nWilliam: @ 7x3*", 2, 10, "both players are marked @", "T-COMP-3"),
    # names
    ("Adso @ 10x3* 9x3" + W, 1, 8, "expected ':' after the player's name; did you mean Adso @: 10x3* 9x3", None),
    ("10x3 9x3" + W, 1, 1, "expected the player's name and ':' before the towers, like Adso: 10x3 9x3", None),
    ("Adso" + W, 1, 5, "expected ':' and the towers after the player's name, like Adso: 10x3* 9-7", None),
    (": 10x3" + W, 1, 1, "expected the player's name before ':', like Adso: 10x3*", None),
    ("  @ : 10x3" + W, 1, 3, "expected the player's name before ':'", None),
    ("Ad@so: 10x3" + W, 1, 3, "the Highest marker '@' goes after the name, like Adso @:", None),
    ('"Adso" 10x3' + W, 1, 8, "expected ':' after the quoted name", None),
    ('"Ad\\qso": 10x3' + W, 1, 1, "a quoted name is written like a JSON string", None),
    ('"": 10x3' + W, 1, 1, "expected the player's name between the quotes", None),
    ('"Adso: 10x3' + W, 1, 1, "expected a closing '\"' for the name opened here", None),
    ("A" * 101 + ": 10x3" + W, 1, 1, "a name has at most 100 characters; this one has 101", None),
    # towers
    ("Adso @: 83" + W, 1, 9, "expected a tower like 8x3, 10-6 or [9 9 BP]; did you mean 8x3?", None),
    ("Adso @: 103*" + W, 1, 9, "did you mean 10x3?", None),
    ("Adso @: 8*3" + W, 1, 9, "did you mean 8x3?", None),
    ("Adso @: 8/3" + W, 1, 9, "did you mean 8x3?", None),
    ("Adso @: 8.3" + W, 1, 9, "did you mean 8x3?", None),
    ("Adso @: 8 3" + W, 1, 9, "did you mean 8x3?", None),
    ("Adso @: 8" + W, 1, 9, "did you mean 8x3 (plain, 3 stories) or 8-6 (colorful)?", None),
    ("Adso @: 4" + W, 1, 9, "expected a tower like 8x3, 10-6 or [9 9 BP].", None),
    ("Adso @: x3" + W, 1, 9, "expected the rank before 'x', like 8x3", None),
    ("Adso @: 10x" + W, 1, 12, "expected the height after '10x', like 10x3.", None),
    ("Adso @: 10x BP" + W, 1, 13, "expected the height after '10x', like 10x3.", None),
    ("Adso @: 3x8" + W, 1, 9, "the rank comes first; did you mean 8x3?", None),
    ("Adso @: 11x3" + W, 1, 9, "11 is not a rank: ranks are 5 to 10, like 8x3.", None),
    ("Adso @: 10x0" + W, 1, 12, "a tower has at least one story; did you mean 10x3?", None),
    ("Adso @: 10x46" + W, 1, 12, "no tower is 46 stories tall: there are 10 cards of 10 and 3 Buona Pietra.", None),
    ("Adso @: 10-" + W, 1, 12, "expected the top rank after '10-', like 10-8.", None),
    ("Adso @: 10-x" + W, 1, 12, "expected the top rank after '10-'", None),
    ("Adso @: 10-4" + W, 1, 12, "rank 4 is not a rank: ranks are 5 to 10.", None),
    ("Adso @: 6-10" + W, 1, 9, "a colorful tower is written from its bottom rank down to its top rank; did you "
                               "mean 10-6?", None),
    ("Adso @: 9-7-6" + W, 1, 11, "after 9 comes 8; did you mean 9-6 or, with Buona Pietra, [9 BP 7 6]?", None),
    ("Adso @: 9-8-9" + W, 1, 13, "after 8 comes 7; did you mean 9-9?", None),
    ("Adso @: 10x3y" + W, 1, 13, "unexpected 'y' right after the tower 10x3; separate towers with spaces.", None),
    ("Adso @: 10x3[9 9 9]" + W, 1, 13, "unexpected '[' right after the tower 10x3", None),
    ("Adso @: 10x3 *9x3" + W, 1, 14, "'*' goes right after the tower it marks complete, like 9x3*.", None),
    ("Adso @: * 10x3" + W, 1, 9, "'*' goes right after the tower it marks complete", None),
    ("Adso @: - 10x3" + W, 1, 9, "a colorful tower is written bottom-top, like 10-6.", None),
    ("Adso @: 10x3 ]" + W, 1, 14, "this ']' closes no stack: a stack is written like [9 9 BP].", None),
    ("Adso @: 10x3 ?" + W, 1, 14, "unexpected '?': expected a tower like 8x3, 10-6 or [9 9 BP].", None),
    ("Adso @: 10x3 | ?" + W, 1, 16, "unexpected '?': expected a tower like 8x3, 10-6 or [9 9 BP] or a noble like "
                                    "+MON.", None),
    ("Adso @: 10x3 blah" + W, 1, 14, "'blah' is not a tower.", None),
    ("Adso @: 10x3 MUN" + W, 1, 14, "did you mean +MU?", None),
    ("Adso @: BP" + W, 1, 9, "Buona Pietra is played as a story of a tower, not in front of a player", "T-NOB-PLAY"),
    ("Adso @: BPX" + W, 1, 9, "a Buona Pietra stands in a tower: write the tower as a stack, like [9 9 BP].", None),
    # stacks
    ("Adso @: [10 10 BP 10" + W, 1, 9, "expected ']' to close the stack opened here, like [9 9 BP].", None),
    ("Adso @: [10 10 [9 9 9]" + W, 1, 9, "expected ']' to close this stack before the next one opens.", None),
    ("Adso @: []" + W, 1, 9, "an empty stack: list the stories bottom first, like [9 9 BP].", None),
    ("Adso @: [10 11 10]" + W, 1, 13, "11 is not a rank: the stories of a stack are ranks 5 to 10 or BP", None),
    ("Adso @: [9 9 B]" + W, 1, 14, "expected a rank 5 to 10 or BP in the stack; did you mean BP?", None),
    ("Adso @: [9 9 PB]" + W, 1, 14, "did you mean BP?", None),
    ("Adso @: [9 9 MON]" + W, 1, 14, "(only Buona Pietra stands in a tower); did you mean BP?", None),
    ("Adso @: [9 9 zz]" + W, 1, 14, "expected a rank 5 to 10 or BP in the stack, not 'zz'.", None),
    ("Adso @: [9 x 3]" + W, 1, 12, "a plain tower without Buona Pietra is written 9x3.", None),
    ("Adso @: [9 9 ?]" + W, 1, 14, "unexpected '?' in the stack: list the stories bottom first", None),
    ("Adso @: [10 BP12 10]" + W, 1, 15, "a Buona Pietra stands for a rank from 11 down to 4, not 12.", "T-NOB-BP"),
    ("Adso @: [10 BP7 BP]" + W, 1, 13, "this Buona Pietra cannot stand for 7 here: the stack is plain 10 or "
                                       "colorful 10-8.", "T-NOB-BP"),
    # nobles
    ("Adso @: 10x3 | +" + W, 1, 16, "expected a noble after '+', like +MON, +SF, +MU, +PC, +VF or +GI.", None),
    ("Adso @: 10x3 | + MON" + W, 1, 16, "expected a noble after '+'", None),
    ("Adso @: 10x3 | +MOM" + W, 1, 16, "expected a played noble like +MON, +SF, +MU, +PC, +VF or +GI; did you mean "
                                       "+MON?", None),
    ("Adso @: 10x3 | +QQQQ" + W, 1, 16, "expected a played noble like +MON, +SF, +MU, +PC, +VF or +GI.", None),
    ("Adso @: 10x3 | +BP" + W, 1, 16, "Buona Pietra is played as a story of a tower", "T-NOB-PLAY"),
    ("Adso @: 10x3 | +MON3" + W, 1, 20, "unexpected '3' right after a noble; separate nobles with spaces", None),
    ("Adso @: 10x3 | +MON 9x3" + W, 1, 21, "towers go before '|' and the nobles after it", None),
]


@pytest.mark.parametrize("text, line, column, fragment, rule", PARSE_ERRORS,
                         ids=[repr(case[0])[:40] for case in PARSE_ERRORS])
def test_parse_errors_say_where_and_how_to_fix(text, line, column, fragment, rule):
    with pytest.raises(NotationError) as caught:
        notation.read(text)
    error = caught.value
    assert isinstance(error, MalformedError)
    problem = error.problems[0]
    assert isinstance(problem, NotationProblem)
    assert problem.pointer == "/notation"
    assert problem.rule == rule
    assert (problem.line, problem.column) == (line, column), problem.message
    assert (error.line, error.column) == (line, column)
    assert problem.message.startswith(f"line {line}, column {column}: "), problem.message
    assert fragment in problem.message, problem.message
    assert "\n" not in problem.message
    with pytest.raises(NotationError):
        notation.parse(text)


def test_not_a_text():
    with pytest.raises(NotationError) as caught:
        notation.read(None)  # type: ignore[arg-type]
    assert caught.value.problems[0].message == "the notation: notation is a text, one line per player."
    assert caught.value.line is None


def test_too_many_lines():
    with pytest.raises(NotationError) as caught:
        notation.read("\n" * notation.MAX_LINES)
    assert "more than 10000 lines" in caught.value.problems[0].message


def test_every_broken_line_is_reported_at_once():
    with pytest.raises(NotationError) as caught:
        notation.read("Adso @: 83\nWilliam: 7x3 6-10")
    assert [(p.line, p.column) for p in caught.value.problems] == [(1, 9), (2, 14)]


# (text, line, column, fragment, rule): the notation reads, but the table cannot be real
TABLE_ERRORS = [
    ("Adso @: 10x3* 10x3 10x3 10x3" + W, 1, 25,
     "Adso's tower 4 (10x3): one 10 too many: the table shows 12 and the game has 10.", "T-COMP-4"),
    ("Adso @: 10x3 | +MON +MON" + W, 1, 21,
     "Adso's played nobles: one Monumento too many: the table shows 2 and the game has 1.", "T-COMP-4"),
    ("Adso @: [10 BP 10] [9 BP 9] [8 BP 8] [7 BP 7]" + W, 1, 41,
     "Adso's tower 4 ([7 BP 7]): one Buona Pietra too many: the table shows 4 and the game has 3.", "T-COMP-4"),
    ("Adso @: 10x2" + W, 1, 9, "Adso's tower 1 (10x2): A tower has 3 or more stories; this one has 2.",
     "T-ACT-BUILD-1"),
    ("Adso @: 10x3 [9 8 6]" + W, 1, 14, "Adso's tower 2 ([9 8 6]): 9-8-6 is neither plain (one rank) nor colorful",
     "T-ACT-BUILD-3"),
    ("Adso @: [9 9 8]" + W, 1, 9, "is neither plain (one rank) nor colorful", "T-ACT-BUILD-2"),
    ("Adso @: [BP BP BP]" + W, 1, 9, "is neither plain (one rank) nor colorful", "T-NOB-BP"),
    ("Adso @: 10x3 [10 BP BP]" + W, 1, 14,
     "Adso's tower 2 ([10 BP BP]): this stack can be read more than one way; write what each Buona Pietra stands "
     "for: plain 10: [10 BP10 BP10]; or colorful 10-8: [10 BP9 BP8].", "T-NOB-BP"),
    ("variant: basic\nAdso @: [10 10 BP]" + W, 2, 16,
     "Adso's tower 1 ([10 10 BP]): Buona Pietra is a noble card, and the line 'variant: basic' says this game has "
     "no nobles.", "T-COMP-2"),
    ("variant: basic\nAdso @: 10x3 | +MON" + W, 2, 16, "Adso's played nobles: Monumento is a noble card",
     "T-COMP-2"),
]


@pytest.mark.parametrize("text, line, column, fragment, rule", TABLE_ERRORS,
                         ids=[repr(case[0])[:40] for case in TABLE_ERRORS])
def test_impossible_tables_name_the_player_and_the_tower(text, line, column, fragment, rule):
    notation.parse(text)  # it is notation
    with pytest.raises(NotationTableError) as caught:
        notation.read(text)
    error = caught.value
    assert isinstance(error, InvalidStateError)
    problem = next(p for p in error.problems if p.rule == rule)
    assert problem.pointer == "/notation"
    assert (problem.line, problem.column) == (line, column), problem.message
    assert problem.message.startswith(f"line {line}, column {column}: ")
    assert fragment in problem.message, problem.message


def test_warnings_for_what_is_possible_but_suspicious():
    _, warnings = notation.read("Adso @: 10x3\nWilliam: 9-5")
    assert [(w.rule, w.line, w.column) for w in warnings] == [("T-HIGH-3", 1, 6)]
    assert warnings[0].message.startswith("line 1, column 6: Adso holds the marker, but the marker's holder has no "
                                          "tower as tall as the other player's tallest (3 < 5)")
    _, warnings = notation.read("Adso: 10x3\nWilliam: 9-5")
    assert [(w.rule, w.line) for w in warnings] == [("T-HIGH-2", None)]
    assert "no player is marked @" in warnings[0].message and "Adso @:" in warnings[0].message
    assert notation.read("Adso:\nWilliam:")[1] == []


CLOSER = pytest.mark.skipif("closed_by" not in __import__("service.games.torri.model", fromlist=["Table"]).Table.
                            __dataclass_fields__, reason="tables do not record who closed")


@CLOSER
def test_the_closer_is_marked_after_the_name():
    text = "Adso (closed) @: 10x3* 9x3* 8x3* 6x3*\nWilliam: 7x3*\n"
    table, _ = notation.read(text)
    assert table.closed_by == 0 and table.highest == 0
    assert notation.write(table) == text
    assert notation.read("Adso @ (Closed) !: 10x3* 9x3* 8x3* 6x3*\nWilliam: 7x3*")[0] == table
    assert notation.read('"Adso" (closed)@: 10x3* 9x3* 8x3* 6x3*\nWilliam: 7x3*')[0] == table
    assert notation.write_name("Adso (closed)") == '"Adso (closed)"'


@CLOSER
def test_the_closer_needs_four_complete_towers_and_is_one_player():
    with pytest.raises(NotationTableError) as caught:
        notation.read("Adso (closed) @: 10x3* 9x3*\nWilliam: 7x3*")
    problem = caught.value.problems[0]
    assert (problem.rule, problem.line, problem.column) == ("T-ACT-CLOSE-1", 1, 6)
    assert problem.message.startswith("line 1, column 6: Adso (closed): Closing takes at least 4 complete towers")
    with pytest.raises(NotationError) as caught:
        notation.read("Adso (closed): 10x3*\nWilliam (closed): 7x3*")
    problem = caught.value.problems[0]
    assert (problem.rule, problem.line, problem.column) == ("T-ACT-CLOSE-1", 2, 9)
    assert "both players are marked (closed)" in problem.message


@pytest.mark.parametrize("text, fragment", [
    ("A: " + "1" * 20_000 + "\nB:", "expected a tower like 8x3"),
    ("A: 5x" + "1" * 20_000 + "\nB:", "no tower is 11111111111111111111111… stories tall"),
    ("A: " + "9" * 40 + "x3\nB:", "99999999999999999999999… is not a rank"),
    ("A: ²x3\nB:", "unexpected '²x'"),
    ("A: ٣x3\nB:", "unexpected '٣'"),
    ("A: " + "x" * 20_000 + "\nB:", "'xxxxxxxxxxxxxxxxxxxxxxx…' is not a tower."),
    ("A: [" + "10 " * 3000 + "]\nB:", "Lists more than 128 cards."),
    ("A: " + "5x3 " * 200 + "\nB:", "A: Must be a list of at most 128 towers."),
    ("A: " + "[" * 20_000 + "\nB:", "expected ']' to close this stack before the next one opens."),
], ids=range(9))
def test_hostile_input_is_a_short_error(text, fragment):
    with pytest.raises((NotationError, NotationTableError)) as caught:
        notation.read(text)
    message = caught.value.problems[0].message
    assert fragment in message and len(message) < 300, message
