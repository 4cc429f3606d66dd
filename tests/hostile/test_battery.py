"""Hostile input: every request here must be answered with the right 4xx problem+json (or a 200 where the input is
legal but odd), without hanging (each one timed, HANG_SECONDS at most), and the app must answer a normal question right
after (the `healthy_after` fixture)."""
from __future__ import annotations

import copy
import json

import orjson
import pytest

from .helpers import (ALL_POSTS, BASE, CAMPANILE, PROBLEM_JSON, assert_healthy, assert_no_internals, assert_problem,
                      fresh_state, timed)

JSON = "application/json"
TEN_MB = b"{" + b" " * (10 * 1024 * 1024) + b"}"


@pytest.fixture(autouse=True)
def healthy_after(client):
    yield
    assert_healthy(client)


def post_raw(client, label: str, path: str, raw: bytes, content_type: str | None = JSON, **kwargs):
    headers = {} if content_type is None else {"Content-Type": content_type}
    return timed(client, label, "POST", path, data=raw, headers=headers, **kwargs)


def post(client, label: str, path: str, doc):
    return post_raw(client, label, path, orjson.dumps(doc))


def with_tower(state: dict) -> dict:
    """The deal with one incomplete plain 10 tower of 3 for Player 1 (cards moved from the deck: conserved)."""
    doc = copy.deepcopy(state)
    for _ in range(3):
        doc["deck"].remove("10")
    doc["players"][0]["towers"] = [{"cards": ["10", "10", "10"], "complete": False}]
    doc["highest"] = 0  # the marker goes to the first tower built
    return doc


def valid_body(path: str, state: dict) -> dict:
    question = path.rsplit("/", 1)[1]
    if path.startswith(CAMPANILE):
        return {"seed": 1, "names": ["Ada", "Bea"]} if question == "new" else {}
    return {"new": {"seed": 1}, "apply": {"state": state, "moves": [{"type": "pass"}]},
            "replay": {"state": state, "moves": [{"type": "pass"}]}, "view": {"state": state, "player": 0}}.get(
        question, {"state": state})


# ---------------------------------------------------------------- not JSON, wrong type, empty, too big, too deep

NOT_JSON = {
    "text": b"hello", "truncated": b'{"state": ', "unclosed": b"[1, 2", "two-documents": b'{"a": 1}{"b": 2}',
    "nan": b"NaN", "infinity": b'{"seed": Infinity}', "binary": bytes(range(256)), "nul-bytes": b"\x00" * 64,
    "not-utf8": b'{"state": "\xed\xa0\x80\xff"}', "bom-garbage": b"\xef\xbb\xbf{nope",
    "huge-exponent": b'{"seed": 1e400}',
    "lone-surrogate": b'{"seed": "\\ud800"}',
}


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("name", NOT_JSON)
def test_not_json(client, path, name):
    assert_problem(post_raw(client, f"not JSON ({name}) {path}", path, NOT_JSON[name]), 400)


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          "application/xml", "application/jsonx", None])
def test_wrong_content_type(client, path, content_type):
    response = post_raw(client, f"content type {content_type} {path}", path, b'{"seed": 1}', content_type)
    assert_problem(response, 415, min_errors=0)


@pytest.mark.parametrize("path", ALL_POSTS)
def test_empty_body(client, path):
    assert_problem(post_raw(client, f"empty body {path}", path, b""), 400)


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("content_type", [JSON, "text/plain"])
def test_ten_megabyte_body(client, path, content_type):
    response = post_raw(client, f"10 MB body ({content_type}) {path}", path, TEN_MB, content_type)
    body = assert_problem(response, 413 if content_type == JSON else (413, 415), min_errors=0)
    if response.status_code == 413:
        assert f"{256 * 1024:,}" in body["detail"]  # the number as English writes it


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("shape", ["array", "object"])
def test_ten_thousand_deep_nesting(client, path, shape):
    raw = b"[" * 10_000 + b"]" * 10_000 if shape == "array" else b'{"a":' * 10_000 + b"1" + b"}" * 10_000
    assert_problem(post_raw(client, f"10,000-deep {shape} {path}", path, raw), 400)


@pytest.mark.parametrize("where", ["state", "moves", "name", "pending"])
def test_ten_thousand_deep_nesting_inside_a_valid_document(client, state, where):
    deep = "[" * 10_000 + "]" * 10_000
    text = json.dumps({"state": state, "moves": []}).replace('"moves": []', '"moves": [%s]' % deep) \
        if where == "moves" else json.dumps({"state": state, "moves": []})
    if where == "state":
        text = text.replace('"market": [', '"market": [%s, ' % deep, 1)
    elif where == "name":
        text = text.replace('"name": "Player 1"', '"name": %s' % deep, 1)
    elif where == "pending":
        text = text.replace('"pending": null', '"pending": %s' % deep, 1)
    assert "[" * 10_000 in text
    assert_problem(post_raw(client, f"10,000-deep inside {where}", f"{BASE}/apply", text.encode()), 400)


@pytest.mark.parametrize("path", ALL_POSTS)
@pytest.mark.parametrize("doc", [[], [1, 2], "state", 42, None, True], ids=repr)
def test_body_not_an_object(client, path, doc):
    assert_problem(post(client, f"body {doc!r} {path}", path, doc), 400, pointer="")


# ---------------------------------------------------------------- 100,000-long arrays (200 KB: under the size limit)

def _long(n: int = 100_000) -> str:
    return "[" + ",".join(["0"] * n) + "]"


def _with_array(doc: dict, marker: str) -> bytes:
    """The document with the JSON text `"@@"` replaced by a 100,000-item array of zeros."""
    raw = json.dumps(doc).replace(json.dumps(marker), _long())
    assert len(raw) < 256 * 1024
    return raw.encode()


def _long_array_cases():
    s = fresh_state(42)
    t = with_tower(s)
    m = "@@"
    cases = {
        "apply moves": (f"{BASE}/apply", {"state": s, "moves": m}, "/moves"),
        "replay moves": (f"{BASE}/replay", {"state": s, "moves": m}, "/moves"),
        "deck": (f"{BASE}/validate", {"state": {**s, "deck": m}}, "/state/deck"),
        "market": (f"{BASE}/validate", {"state": {**s, "market": m}}, "/state/market"),
        "players": (f"{BASE}/legal-moves", {"state": {**s, "players": m}}, "/state/players"),
        "hand": (f"{BASE}/legal-moves", {"state": {**s, "players": [{**s["players"][0], "hand": m},
                                                                     s["players"][1]]}}, "/state/players/0/hand"),
        "counted hand's known cards": (f"{BASE}/validate", {"state": {**s, "players": [
            {**s["players"][0], "hand": {"count": 5, "known": m}}, s["players"][1]]}}, "/state/players/0/hand/known"),
        "towers": (f"{BASE}/score", {"state": {**s, "players": [{**s["players"][0], "towers": m},
                                                                 s["players"][1]]}}, "/state/players/0/towers"),
        "tower cards": (f"{BASE}/view", {"player": 0, "state": {**t, "players": [
            {**t["players"][0], "towers": [{"cards": m}]}, t["players"][1]]}}, "/state/players/0/towers/0/cards"),
        "complete towers": (f"{BASE}/apply", {"state": t, "moves": [{"type": "complete", "towers": m}]},
                            "/moves/0/towers"),
        "take positions": (f"{BASE}/apply", {"state": s, "moves": [{"type": "take", "positions": m}]},
                           "/moves/0/positions"),
        "build cards": (f"{BASE}/apply", {"state": s, "moves": [{"type": "build", "cards": m}]}, "/moves/0/cards"),
        "pending from": (f"{BASE}/validate", {"state": {**s, "pending": {"type": "draw", "action": "purchase",
                                                                         "player": 0, "from": m}}},
                         "/state/pending/from"),
        "new names": (f"{BASE}/new", {"seed": 1, "names": m}, "/names"),
        "table players": (f"{BASE}/score", {"table": {"players": m}}, "/table/players"),
        "picture table towers": (f"{BASE}/picture", {"table": {"players": [{"towers": m}, {"towers": []}]}},
                                 "/table/players/0/towers"),
        "campanile moves": (f"{CAMPANILE}/apply", {"state": {}, "moves": m}, "/moves"),
        "campanile names": (f"{CAMPANILE}/new", {"seed": 1, "names": m}, "/names"),
    }
    return cases


LONG_ARRAYS = _long_array_cases()


@pytest.mark.parametrize("case", LONG_ARRAYS)
def test_hundred_thousand_long_array(client, case):
    path, doc, pointer = LONG_ARRAYS[case]
    response = post_raw(client, f"100,000-long array: {case}", path, _with_array(doc, "@@"))
    body = assert_problem(response, 400, pointer=pointer)
    assert len(body["errors"]) <= 10, body["errors"][:3]


def test_hundred_thousand_characters_of_notation(client):
    response = post(client, "200,000-character notation", f"{BASE}/score", {"notation": "Adso: 10x3\n" * 18_000})
    assert_problem(response, 400, pointer="/notation")


def test_a_thousand_moves_full_of_wrong_cards_is_answered_quickly_and_briefly(client, state):
    """Within every length limit: up to 1000 moves of 60 wrong cards each (a move names at most 64; about 250 KB,
    60,000 wrong items). Reading stops at the tenth wrong item of a list, and a 400 lists at most 100 problems."""
    body = {"state": state, "moves": []}
    while len(orjson.dumps(body)) < 230 * 1024 and len(body["moves"]) < 1000:
        body["moves"].append({"type": "build", "cards": [0] * 60})
    response = post(client, f"{len(body['moves'])} moves x 60 wrong cards", f"{BASE}/apply", body)
    problem = assert_problem(response, 400, pointer="/moves/0/cards/0")
    assert len(problem["errors"]) <= 100
    assert len(response.get_data()) < 20_000


def test_twenty_thousand_unknown_fields(client, state):
    doc = {**state, **{f"k{i}": 0 for i in range(20_000)}}
    response = post(client, "20,000 unknown fields", f"{BASE}/validate", {"state": doc})
    problem = assert_problem(response, 400, under="/state/k")
    assert len(problem["errors"]) == 100 and "20,000 problems" in problem["detail"]


# ---------------------------------------------------------------- huge numbers

HUGE = {
    "seed 2**70": (f"{BASE}/new", b'{"seed": 1180591620717411303424}'),
    "seed -2**70": (f"{BASE}/new", b'{"seed": -1180591620717411303424}'),
    "seed 2**64": (f"{BASE}/new", b'{"seed": 18446744073709551616}'),
    "seed 1e400": (f"{BASE}/new", b'{"seed": 1e400}'),
    "seed -1e400": (f"{BASE}/new", b'{"seed": -1e400}'),
    "seed 1e308": (f"{BASE}/new", b'{"seed": 1e308}'),
    "seed 10**1000": (f"{BASE}/new", b'{"seed": 1' + b"0" * 1000 + b"}"),
    "campanile seed 2**70": (f"{CAMPANILE}/new", b'{"seed": 1180591620717411303424, "names": ["A", "B"]}'),
}


@pytest.mark.parametrize("case", HUGE)
def test_huge_numbers_in_the_body(client, case):
    path, raw = HUGE[case]
    assert_problem(post_raw(client, f"huge number: {case}", path, raw), 400, under=("", "/seed"))


@pytest.mark.parametrize("value", [2 ** 70, -(2 ** 70), 2 ** 64, 2 ** 63, -1, 1e308, 0.5, -0.0], ids=repr)
@pytest.mark.parametrize("where", ["turn", "count", "tower", "player", "pending left", "complete"])
def test_huge_and_negative_integers_in_fields(client, state, where, value):
    tower_state = with_tower(state)
    path, doc, pointer = {
        "turn": ("validate", {"state": {**state, "turn": value}}, "/state/turn"),
        "count": ("legal-moves", {"state": {**state, "deck": {"count": value}}}, "/state/deck/count"),
        "tower": ("apply", {"state": tower_state, "moves": [{"type": "extend", "tower": value, "cards": ["10"]}]},
                  "/moves/0/tower"),
        "player": ("view", {"state": state, "player": value}, "/player"),
        "pending left": ("legal-moves", {"state": {**state, "pending": {"type": "draw", "action": "purchase",
                                                                        "player": 0, "left": value}}},
                         "/state/pending/left"),
        "complete": ("replay", {"state": tower_state, "moves": [{"type": "complete", "towers": [value]}]},
                     "/moves/0/towers/0"),
    }[where]
    response = post_raw(client, f"{where} = {value!r}", f"{BASE}/{path}", orjson.dumps(doc)
                        if not isinstance(value, int) or abs(value) < 2 ** 63 else
                        json.dumps(doc).encode())
    assert_problem(response, 400, pointer=pointer)


# ---------------------------------------------------------------- unknown fields at several depths

def _unknown_field_cases():
    s = fresh_state(42)
    t = with_tower(s)
    p0, p1 = s["players"]
    return {
        "top": (f"{BASE}/validate", {"state": s, "zz": 1}, "/zz"),
        "state": (f"{BASE}/validate", {"state": {**s, "zz": 1}}, "/state/zz"),
        "variant": (f"{BASE}/legal-moves", {"state": {**s, "variant": {"nobles": False, "zz": 1}}},
                    "/state/variant/zz"),
        "player": (f"{BASE}/score", {"state": {**s, "players": [{**p0, "zz": 1}, p1]}}, "/state/players/0/zz"),
        "tower": (f"{BASE}/view", {"player": 1, "state": {**t, "players": [
            {**t["players"][0], "towers": [{"cards": ["10", "10", "10"], "zz": 1}]}, p1]}},
                  "/state/players/0/towers/0/zz"),
        "counted hand": (f"{BASE}/validate", {"state": {**s, "players": [{**p0, "hand": {"count": 5, "zz": 1}}, p1]}},
                         "/state/players/0/hand/zz"),
        "counted deck": (f"{BASE}/validate", {"state": {**s, "deck": {"count": 30, "zz": 1}}}, "/state/deck/zz"),
        "pending": (f"{BASE}/legal-moves", {"state": {**s, "pending": {"type": "draw", "action": "purchase",
                                                                       "player": 0, "left": 2, "zz": 1}}},
                    "/state/pending/zz"),
        "pending target": (f"{BASE}/legal-moves", {"state": {**s, "pending": {
            "type": "guard", "action": "trade", "player": 1, "size": 3, "target": {"player": 0, "zz": 1}}}},
                           "/state/pending/target/zz"),
        "move": (f"{BASE}/apply", {"state": s, "moves": [{"type": "pass", "zz": 1}]}, "/moves/0/zz"),
        "third move": (f"{BASE}/replay", {"state": s, "moves": [{"type": "purchase"}, {"type": "draw", "from": "deck"},
                                                                 {"type": "draw", "from": "deck", "zz": {"a": 1}}]},
                       "/moves/2/zz"),
        "new": (f"{BASE}/new", {"seed": 1, "zz": 1}, "/zz"),
        "new variant": (f"{BASE}/new", {"seed": 1, "variant": {"nobles": False, "zz": 1}}, "/variant/zz"),
        "table": (f"{BASE}/score", {"table": {"players": [{"towers": []}, {"towers": []}], "zz": 1}}, "/table/zz"),
        "table tower": (f"{BASE}/picture", {"table": {"players": [{"towers": [{"cards": ["10", "10", "10"],
                                                                               "zz": 1}]}, {"towers": []}]}},
                        "/table/players/0/towers/0/zz"),
        "view": (f"{BASE}/view", {"state": s, "player": 0, "zz": 1}, "/zz"),
        "slash and tilde": (f"{BASE}/validate", {"state": {**s, "a/b~c": 1}}, "/state/a~1b~0c"),
        "campanile top": (f"{CAMPANILE}/new", {"seed": 1, "names": ["A", "B"], "zz": 1}, "/zz"),
    }


UNKNOWN_FIELDS = _unknown_field_cases()


@pytest.mark.parametrize("case", UNKNOWN_FIELDS)
def test_unknown_field(client, case):
    path, doc, pointer = UNKNOWN_FIELDS[case]
    assert_problem(post(client, f"unknown field: {case}", path, doc), 400, pointer=pointer)


def test_unknown_fields_at_every_depth_at_once(client, state):
    doc = with_tower(state)
    doc["zz"] = 1
    doc["variant"] = {"nobles": False, "zz": 1}
    doc["players"][0]["zz"] = 1
    doc["players"][0]["towers"][0]["zz"] = 1
    doc["players"][1]["hand"] = {"count": 5, "zz": 1}
    body = {"state": doc, "moves": [{"type": "pass", "zz": 1}], "zz": 1}
    problem = assert_problem(post(client, "unknown fields at every depth", f"{BASE}/apply", body), 400)
    assert {"/zz", "/state/zz", "/state/variant/zz", "/state/players/0/zz", "/state/players/0/towers/0/zz",
            "/state/players/1/hand/zz", "/moves/0/zz"} <= {e["pointer"] for e in problem["errors"]}


# ---------------------------------------------------------------- wrong types

def _wrong_type_cases():
    s = fresh_state(42)
    t = with_tower(s)
    p0, p1 = s["players"]
    cases = {}
    for value in ([], "x", 1, None, True):
        cases[f"state {value!r}"] = (f"{BASE}/legal-moves", {"state": value}, "/state")
    cases.update({
        "players object": (f"{BASE}/validate", {"state": {**s, "players": {}}}, "/state/players"),
        "player string": (f"{BASE}/validate", {"state": {**s, "players": ["Adso", p1]}}, "/state/players/0"),
        "hand string": (f"{BASE}/validate", {"state": {**s, "players": [{**p0, "hand": "5"}, p1]}},
                        "/state/players/0/hand"),
        "hand number": (f"{BASE}/validate", {"state": {**s, "players": [{**p0, "hand": 5}, p1]}},
                        "/state/players/0/hand"),
        "card number": (f"{BASE}/validate", {"state": {**s, "market": [5, "6", "7", "8"]}}, "/state/market/0"),
        "tower cards string": (f"{BASE}/score", {"state": {**t, "players": [
            {**t["players"][0], "towers": [{"cards": "101010"}]}, p1]}}, "/state/players/0/towers/0/cards"),
        "complete string": (f"{BASE}/score", {"state": {**t, "players": [
            {**t["players"][0], "towers": [{"cards": ["10", "10", "10"], "complete": "yes"}]}, p1]}},
                            "/state/players/0/towers/0/complete"),
        "turn text": (f"{BASE}/validate", {"state": {**s, "turn": "0"}}, "/state/turn"),
        "turn boolean": (f"{BASE}/validate", {"state": {**s, "turn": True}}, "/state/turn"),
        "turn float": (f"{BASE}/validate", {"state": {**s, "turn": 0.0}}, "/state/turn"),
        "count float": (f"{BASE}/validate", {"state": {**s, "deck": {"count": 1.5}}}, "/state/deck/count"),
        "market text": (f"{BASE}/validate", {"state": {**s, "market": "5555"}}, "/state/market"),
        "pending list": (f"{BASE}/legal-moves", {"state": {**s, "pending": []}}, "/state/pending"),
        "variant nobles text": (f"{BASE}/validate", {"state": {**s, "variant": {"nobles": "no"}}},
                                "/state/variant/nobles"),
        "name number": (f"{BASE}/validate", {"state": {**s, "players": [{**p0, "name": 7}, p1]}},
                        "/state/players/0/name"),
        "moves object": (f"{BASE}/apply", {"state": s, "moves": {}}, "/moves"),
        "move text": (f"{BASE}/apply", {"state": s, "moves": ["pass"]}, "/moves/0"),
        "move type number": (f"{BASE}/apply", {"state": s, "moves": [{"type": 5}]}, "/moves/0/type"),
        "move type object": (f"{BASE}/apply", {"state": s, "moves": [{"type": {}}]}, "/moves/0/type"),
        "move type list": (f"{BASE}/replay", {"state": s, "moves": [{"type": ["pass"]}]}, "/moves/0/type"),
        "move cards text": (f"{BASE}/apply", {"state": s, "moves": [{"type": "build", "cards": "555"}]},
                            "/moves/0/cards"),
        "view player text": (f"{BASE}/view", {"state": s, "player": "0"}, "/player"),
        "view player null": (f"{BASE}/view", {"state": s, "player": None}, "/player"),
        "seed float": (f"{BASE}/new", {"seed": 1.5}, "/seed"),
        "seed list": (f"{BASE}/new", {"seed": []}, "/seed"),
        "seed boolean": (f"{BASE}/new", {"seed": True}, "/seed"),
        "names text": (f"{BASE}/new", {"seed": 1, "names": "ab"}, "/names"),
        "notation number": (f"{BASE}/score", {"notation": 42}, "/notation"),
        "table list": (f"{BASE}/notation", {"table": []}, "/table"),
        "campanile state text": (f"{CAMPANILE}/validate", {"state": "x"}, "/state"),
        "campanile moves object": (f"{CAMPANILE}/apply", {"state": {}, "moves": {}}, "/moves"),
    })
    return cases


WRONG_TYPES = _wrong_type_cases()


@pytest.mark.parametrize("case", WRONG_TYPES)
def test_wrong_type(client, case):
    path, doc, pointer = WRONG_TYPES[case]
    assert_problem(post(client, f"wrong type: {case}", path, doc), 400, pointer=pointer)


# ---------------------------------------------------------------- unicode in names

NAMES = {"emoji": "🏰👑🎲", "rtl override": "\u202eosdA", "arabic": "أدسو", "nul": "Ad\x00so",
         "zero width": "A\u200bdso",
         "combining": "e\u0301\u0301\u0301", "newline": "Ad\nso", "script": "<script>alert(1)</script>",
         "quotes and ampersand": "a&b\"'<", "notation syntax": "Adso @: 10x3* | +MON", "100 emoji": "🏰" * 100,
         "control characters": "".join(chr(c) for c in range(1, 32))}


@pytest.mark.parametrize("name", NAMES)
def test_unicode_names_are_kept_and_escaped(client, state, name):
    text = NAMES[name]
    state["players"][0]["name"] = text
    for question in ("validate", "score", "notation", "view"):
        body = {"state": state, "player": 0} if question == "view" else {"state": state}
        response = post(client, f"name {name}: {question}", f"{BASE}/{question}", body)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.get_json()["state"]["players"][0]["name"] == text  # the view keeps the name as sent
    scored = post(client, f"name {name}: score", f"{BASE}/score", {"state": state}).get_json()
    assert scored["players"][0]["name"] == text
    picture = post(client, f"name {name}: picture", f"{BASE}/picture", {"state": state})
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    svg = picture.get_data(as_text=True)
    assert "<script" not in svg and "\x00" not in svg and 'a&b"' not in svg
    notation = post(client, f"name {name}: notation", f"{BASE}/notation", {"state": state}).get_json()["notation"]
    again = post(client, f"name {name}: notation read back", f"{BASE}/score", {"notation": notation})
    assert again.status_code in (200, 400), again.get_data(as_text=True)[:300]
    if again.status_code == 400:
        assert_problem(again, 400, under="/notation")


@pytest.mark.parametrize("name", ["", "x" * 101, "🏰" * 101])
def test_names_out_of_bounds(client, state, name):
    state["players"][0]["name"] = name
    response = post(client, f"name of {len(name)} characters", f"{BASE}/validate", {"state": state})
    assert_problem(response, 400, pointer="/state/players/0/name")


# ---------------------------------------------------------------- indices: negative, out of range, beyond the hand

INDEX_400 = {
    "extend tower -1": ({"type": "extend", "tower": -1, "cards": ["10"]}, "/moves/0/tower"),
    "extend tower 9999": ({"type": "extend", "tower": 9999, "cards": ["10"]}, "/moves/0/tower"),
    "complete tower -1": ({"type": "complete", "towers": [-1]}, "/moves/0/towers/0"),
    "complete tower 9999": ({"type": "complete", "towers": [0, 9999]}, "/moves/0/towers/1"),
    "target player -1": ({"type": "target", "player": -1, "tower": 0}, "/moves/0/player"),
    "target tower 9999": ({"type": "target", "player": 1, "tower": 9999}, "/moves/0/tower"),
    "take position -1": ({"type": "take", "positions": [-1]}, "/moves/0/positions/0"),
    "take position 9999": ({"type": "take", "positions": [9999]}, "/moves/0/positions/0"),
}


@pytest.mark.parametrize("case", INDEX_400)
def test_index_out_of_the_schema_range(client, state, case):
    move, pointer = INDEX_400[case]
    response = post(client, f"index: {case}", f"{BASE}/apply", {"state": with_tower(state), "moves": [move]})
    assert_problem(response, 400, pointer=pointer)


INDEX_ILLEGAL = {
    "extend tower 5 (Player 1 has one tower)": [{"type": "extend", "tower": 5, "cards": ["10"]}],
    "extend tower 128": [{"type": "extend", "tower": 128, "cards": ["10"]}],
    "complete tower 1": [{"type": "complete", "towers": [1]}],
    "take positions beyond the hand": [{"type": "take", "positions": [120, 127]}],
    "target player 5": [{"type": "target", "player": 5, "tower": 0}],
    "draw a card the market does not hold": [{"type": "purchase"}, {"type": "draw", "from": "market", "card": next(
        card for card in ("5", "6", "7", "8", "9", "10") if card not in fresh_state(42)["market"])}],
}


@pytest.mark.parametrize("case", INDEX_ILLEGAL)
@pytest.mark.parametrize("question", ["apply", "replay"])
def test_index_beyond_the_position_is_an_illegal_move(client, state, case, question):
    """Well formed but impossible here: a 200 answer, legal: false, with the rule broken and a pointer into the
    move."""
    moves = INDEX_ILLEGAL[case]
    response = post(client, f"{question}: {case}", f"{BASE}/{question}", {"state": with_tower(state),
                                                                           "moves": moves})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    answer = response.get_json()
    assert answer["legal"] is False and answer["failed_at"] == len(moves) - 1
    violation = answer["violations"][0]
    assert violation["rule"] and violation["pointer"].startswith(f"/moves/{len(moves) - 1}")


@pytest.mark.parametrize("player", [-1, 2, 9999])
def test_view_player_out_of_range(client, state, player):
    assert_problem(post(client, f"view player {player}", f"{BASE}/view", {"state": state, "player": player}), 400,
                   pointer="/player")


@pytest.mark.parametrize("field, value", [("player", 5), ("player", -1), ("built", 9999), ("height", 9999),
                                          ("size", 9999), ("target", {"player": 3}),
                                          ("target", {"player": 0, "tower": 9999}), ("target", {"player": -1})])
def test_pending_indices_out_of_range(client, state, field, value):
    """Out of the schema's range (0..128): 400; within it but beyond the position (player 3 of 2): 400 or 422.
    Either way the pointers are into the pending decision."""
    state["pending"] = {"type": "guard", "action": "trade", "player": 0, "size": 3, "target": {"player": 1},
                        field: value}
    response = post(client, f"pending {field} {value}", f"{BASE}/legal-moves", {"state": state})
    assert_problem(response, (400, 422), under="/state/pending")
    if value in (5, -1, 9999) or value in ({"player": 0, "tower": 9999}, {"player": -1}):
        assert response.status_code == 400


# ---------------------------------------------------------------- a tampered pending

def _after_purchase(state: dict, client) -> dict:
    answer = client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "purchase"}]}).get_json()
    assert answer["legal"] and answer["state"]["pending"]["type"] == "draw"
    return answer["state"]


@pytest.mark.parametrize("left, rule", [(5, "T-ACT-PURCHASE-1"), (0, "T-TURN-4")])
def test_purchase_owing_the_wrong_number_of_draws(client, state, left, rule):
    doc = _after_purchase(state, client)
    doc["pending"]["left"] = left
    for question in ("legal-moves", "apply", "replay", "view"):
        body = {"state": doc, "moves": [{"type": "draw", "from": "deck"}], "player": 0}
        body = {k: v for k, v in body.items() if k == "state" or
                (k == "moves" and question in ("apply", "replay")) or (k == "player" and question == "view")}
        response = post(client, f"purchase owing {left}: {question}", f"{BASE}/{question}", body)
        assert_problem(response, 422, pointer="/state/pending/left", rule=rule, under="/state")
    checked = post(client, f"purchase owing {left}: validate", f"{BASE}/validate", {"state": doc}).get_json()
    assert checked["valid"] is False and rule in {e["rule"] for e in checked["errors"]}


TAMPERED = {
    "guard window for a Trade that was never made": (
        {"type": "guard", "action": "trade", "player": 0, "size": 3, "target": {"player": 1}}, "T-DON-9"),
    "guard window for a Conspiracy that was never made": (
        {"type": "guard", "action": "conspiracy", "player": 0, "target": {"player": 1, "tower": 0}}, "T-DON-10"),
    "Trade take with no Trade": ({"type": "take", "action": "trade", "player": 0, "left": 2, "give": 1}, "T-DON-9"),
    "Trade give with no Trade": ({"type": "give", "action": "trade", "player": 0, "left": 2}, "T-DON-9"),
    "Conspiracy target with no Conspiracy": (
        {"type": "target", "action": "conspiracy", "player": 0, "built": 0, "height": 3}, "T-DON-10"),
    "market refill with cards on the market": (
        {"type": "refill", "action": "purchase", "player": 0, "left": 4, "from": ["deck"]}, "T-MKT-1"),
}


@pytest.mark.parametrize("case", TAMPERED)
def test_tampered_pending_is_an_impossible_state(client, state, case):
    pending, rule = TAMPERED[case]
    state["pending"] = pending
    for question in ("legal-moves", "apply", "score"):
        body = {"state": state, "moves": [{"type": "decline"}]} if question == "apply" else {"state": state}
        response = post(client, f"tampered pending: {case} ({question})", f"{BASE}/{question}", body)
        if question == "score":  # scoring reads the table only: a pending decision does not matter to it
            assert response.status_code in (200, 422), response.get_data(as_text=True)[:300]
            continue
        assert_problem(response, 422, rule=rule, under="/state")
    checked = post(client, f"tampered pending: {case} (validate)", f"{BASE}/validate", {"state": state}).get_json()
    assert checked["valid"] is False and rule in {e["rule"] for e in checked["errors"]}


@pytest.mark.parametrize("action", ["zz", "", "purchase\x00", "build", "__class__", "conspiracy"])
def test_pending_with_an_action_that_does_not_fit(client, state, action):
    state["pending"] = {"type": "draw", "action": action, "player": 0, "left": 1, "from": ["deck"]}
    response = post(client, f"pending action {action!r}", f"{BASE}/legal-moves", {"state": state})
    assert_problem(response, (400, 422), under="/state/pending")


# ---------------------------------------------------------------- long step lists, an exploding legal list

@pytest.mark.parametrize("question", ["apply", "replay"])
def test_ten_thousand_steps(client, state, question):
    body = {"state": state, "moves": [{"type": "pass"}] * 10_000}
    response = post(client, f"10,000 steps: {question}", f"{BASE}/{question}", body)
    problem = assert_problem(response, 400, pointer="/moves")
    assert "1000" in problem["errors"][0]["message"]


@pytest.mark.parametrize("question", ["apply", "replay"])
def test_a_thousand_steps_the_most_allowed(client, state, question):
    body = {"state": state, "moves": [{"type": "pass"}] * 1000}
    response = post(client, f"1,000 steps: {question}", f"{BASE}/{question}", body)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.get_json()["legal"] is False  # the game is over after two passes; the third is refused


def exploding_state() -> dict:
    """The advanced game, every hand and deck unknown: the unknown cards multiply the choices past 10,000."""
    doc = fresh_state(7, nobles=True)
    doc["players"][0]["hand"] = {"count": len(doc["players"][0]["hand"]) + 1}
    doc["players"][1]["hand"] = {"count": len(doc["players"][1]["hand"])}
    doc["deck"] = {"count": len(doc["deck"]) - 1}
    doc["noble_deck"] = {"count": len(doc["noble_deck"])}
    return doc


def test_an_exploding_legal_list_is_refused_quickly(client):
    doc = exploding_state()
    response = post(client, "exploding legal list (T-SVC-LIST)", f"{BASE}/legal-moves", {"state": doc})
    assert_problem(response, 422, rule="T-SVC-LIST", pointer="/state")
    checked = post(client, "exploding state: validate", f"{BASE}/validate", {"state": doc}).get_json()
    assert checked["valid"] is True  # the state itself is fine: only listing its moves is refused


# ---------------------------------------------------------------- headers, methods, paths

@pytest.mark.parametrize("given", ["<script>", "a" * 65, "x\u00e9", "../../etc", "ok-id.1_2"])
def test_request_id_header_is_never_echoed_unless_safe(client, given):
    response = timed(client, f"X-Request-Id {given[:12]!r}", "POST", f"{BASE}/validate", json={},
                     headers={"X-Request-Id": given})
    echoed = response.headers["X-Request-Id"]
    assert echoed == given if given == "ok-id.1_2" else (echoed != given and len(echoed) == 32)
    assert_problem(response, 400)


@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE", "TRACE"])
def test_wrong_methods(client, method):
    response = timed(client, f"{method} /apply", method, f"{BASE}/apply", json={})
    assert_problem(response, 405, min_errors=0)


@pytest.mark.parametrize("path", ["/v1/games/<script>alert(1)</script>/new", "/v1/games/torri/%00",
                                  "/v1/games/" + "a" * 5000,
                                  "/v1/games/torri/../../../etc/passwd", "/docs/assets/../../../../etc/passwd"])
def test_hostile_paths(client, path):
    response = timed(client, f"path {path[:40]}", "POST" if "assets" not in path else "GET", path,
                     json={"seed": 1} if "assets" not in path else None)
    assert response.status_code == 404, response.status_code
    assert response.mimetype == PROBLEM_JSON
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert_no_internals(response.get_data(as_text=True), path)
