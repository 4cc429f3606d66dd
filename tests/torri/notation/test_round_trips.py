"""write and read are inverses: read(write(t)) == t for every valid table, and write(read(x)) is canonical."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import torri
from service.games.torri import notation
from service.games.torri.position import table_json, table_of
from service.games.torri.schemas import read_table

from .helpers import RULESHEET, plain_names, tables


@given(tables())
def test_every_valid_table_is_a_valid_table(table):
    """The strategy makes only tables that the library accepts as they are."""
    assert read_table(table_json(table))[0] == table


@given(tables())
def test_read_write_gives_the_table_back(table):
    text = notation.write(table)
    assert notation.read(text)[0] == table


@given(tables())
def test_parse_gives_a_document_that_read_table_takes(table):
    assert read_table(notation.parse(notation.write(table)))[0] == table


@given(tables())
def test_write_is_canonical(table):
    text = notation.write(table)
    assert notation.canonical(text) == text
    assert notation.write(notation.read(text)[0]) == text


@given(tables(plain_names), st.randoms(use_true_random=False))
def test_sloppy_spellings_read_the_same(table, rnd):
    """Case, spaces around x and -, ×, en dashes, commas, a trailing comma, spaces before *: the same table."""
    text = notation.write(table)
    sloppy_lines = []
    for line in text.splitlines():
        if line.startswith("variant"):
            sloppy_lines.append(line.upper())
            continue
        head, _, body = line.partition(":")
        tokens = body.split()
        out = []
        for token in tokens:
            if token[0].isdigit():
                token = rnd.choice([token, token.replace("x", " x "), token.replace("x", "X"),
                                    token.replace("x", "×"), token.replace("-", " – "), token.replace("-", "-")])
                if token.endswith("*") and rnd.random() < 0.3:
                    token = token[:-1] + " *"
            elif token.startswith("["):
                token = rnd.choice([token, token.lower(), token.replace(" ", ", "), token.replace(" ", "   ")])
            elif token.startswith("+"):
                token = rnd.choice([token, token.lower(), token[0] + token[1:].title()])
            out.append(token + rnd.choice(["", "", ","]))
        sep = rnd.choice([" ", "  ", "\t"])
        head = head.replace(" @", rnd.choice([" @", "@", "  @ "]))
        sloppy_lines.append(rnd.choice(["", " "]) + head + rnd.choice([":", " :"]) + sep + sep.join(out)
                            + rnd.choice(["", " ", ",", " # a comment"]))
    sloppy = rnd.choice(["", "# transcribed from a photo\n", "\n"]) + "\r\n".join(sloppy_lines) + "\n\n"
    assert notation.read(sloppy)[0] == table, sloppy


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_a_played_state_writes_its_table(seed):
    """States from real play: write(state) is the notation of its table, and reads back to it."""
    rnd = random.Random(seed)
    state = torri.new_game(seed, nobles=rnd.random() < 0.5, names=("Adso", "William"))
    for _ in range(rnd.randrange(20, 120)):
        moves = torri.legal_steps(state)
        if not moves:
            break
        state, _ = torri.apply_step(state, rnd.choice(moves))
    text = notation.write(state)
    assert text == notation.write(table_of(state))
    assert notation.read(text)[0] == table_of(state)


def test_the_rulesheet_example_is_canonical():
    table, warnings = notation.read(RULESHEET)
    assert notation.write(table) == RULESHEET
    assert warnings == []


def test_canonical_forms():
    cases = {
        "adso@:10 x 3 *, 9X3*,8×3\nWILLIAM :7-5*": "adso @: 10x3* 9x3* 8x3\nWILLIAM: 7-5*\n",
        "A: [10 10 10] [9 8 7]\nB @: [9 BP 9]": "A: 10x3 9-7\nB @: [9 BP 9]\n",
        "A @: [10 BP BP8]\nB:": "A @: [10 BP9 BP8]\nB:\n",
        "A @: [10 BP10 BP]\nB:": "A @: [10 BP10 BP10]\nB:\n",
        "A @: 10-9-8-7\nB: | mon sf": "A @: 10-7\nB: | +MON +SF\n",
        "variant: advanced\nA @: 10x3\nB: 9x3": "variant: nobles\nA @: 10x3\nB: 9x3\n",
        "variant: basic\nA @: 10x3\nB: 9x3": "A @: 10x3\nB: 9x3\n",
        '"Brother: William" @: 5x3\n"#1": 6x3': '"Brother: William" @: 5x3\n"#1": 6x3\n',
        "Brother   William: 5x3\n@Adso: 6x3": "Brother William: 5x3\nAdso @: 6x3\n",
        "A @: 10x3 | +via_francigena +Via Francigena +Cappella di Santa Fina\nB:":
            "A @: 10x3 | +VF +VF +SF\nB:\n",
    }
    for text, canonical in cases.items():
        assert notation.canonical(text) == canonical, text


def test_write_takes_a_state_or_a_table():
    state = torri.new_game(1, names=("Adso", "William"))
    assert notation.write(state) == "Adso:\nWilliam:\n"
    assert notation.write(table_of(state)) == "Adso:\nWilliam:\n"


NOTATION_ALPHABET = st.sampled_from(list("0123456789xX-*[]@:|+!,# \n\"\\") + ["BP", "MON", "SF", "10", "Adso",
                                                                                "variant", "(closed)", "×", "–"])


@given(st.one_of(st.text(max_size=200), st.lists(NOTATION_ALPHABET, max_size=60).map("".join)))
def test_any_text_reads_or_says_where_it_is_wrong(text):
    try:
        table, warnings = notation.read(text)
    except notation.NotationError as error:
        assert error.problems and all(p.pointer == "/notation" for p in error.problems)
        assert all(p.message.startswith(("line ", "the notation")) for p in error.problems)
    except notation.NotationTableError as error:
        assert error.problems and all(p.pointer == "/notation" for p in error.problems)
    else:
        assert notation.read(notation.write(table))[0] == table
