"""Every error status is RFC 9457 problem+json with errors[] of {rule, pointer, message}, and never a 500 for
anything a caller sends."""
from __future__ import annotations

import copy
import json
import logging
import os
import subprocess
import sys

import pytest

from .helpers import BASE, POST_QUESTIONS, assert_problem, body_for, fresh_state, impossible_state, table

JSON = "application/json"

# ---------------------------------------------------------------- 400: not JSON


@pytest.mark.parametrize("question", POST_QUESTIONS)
@pytest.mark.parametrize("raw", ["{nope", '{"state": ', "[1, 2", "'single'", "NaN", '{"a": 1} trailing'],
                         ids=["bad-token", "truncated", "unclosed", "single-quotes", "nan", "trailing"])
def test_not_json(client, question, raw):
    response = client.post(f"{BASE}/{question}", data=raw, content_type=JSON)
    body = assert_problem(response, 400, pointers=("",), min_errors=1)
    assert body["type"] == "/problems/malformed-request"


@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_not_utf8_is_a_400(client, question):
    response = client.post(f"{BASE}/{question}", data=b'{"state": "\xed\xa0\x80\xff"}', content_type=JSON)
    assert_problem(response, 400, min_errors=1)


@pytest.mark.parametrize("question", ["validate", "legal-moves", "apply", "replay", "view"])
def test_not_utf8_says_not_json(client, question):
    response = client.post(f"{BASE}/{question}", data=b'{"state": "\xed\xa0\x80\xff"}', content_type=JSON)
    body = assert_problem(response, 400, pointers=("",))
    assert {e["pointer"] for e in body["errors"]} == {""}
    assert "JSON" in body["detail"]


@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_empty_body(client, question):
    response = client.post(f"{BASE}/{question}", data=b"", content_type=JSON)
    assert_problem(response, 400, min_errors=1)


@pytest.mark.parametrize("question", POST_QUESTIONS)
@pytest.mark.parametrize("doc", [[], [1, 2], "state", 42, None, True], ids=repr)
def test_body_not_an_object(client, question, doc):
    response = client.post(f"{BASE}/{question}", data=json.dumps(doc), content_type=JSON)
    assert_problem(response, 400, pointers=("",), min_errors=1)


# ---------------------------------------------------------------- 400: deep nesting, huge numbers


@pytest.mark.parametrize("question", POST_QUESTIONS)
@pytest.mark.parametrize("raw", ["[" * 10_000 + "]" * 10_000, "[" * 10_000, '{"state": ' + "[" * 10_000 + "]" * 10_000
                                 + "}", '{"a":' * 5_000 + "1" + "}" * 5_000],
                         ids=["brackets", "unclosed-brackets", "nested-under-state", "objects"])
def test_deep_nesting_is_a_clean_400(client, question, raw):
    response = client.post(f"{BASE}/{question}", data=raw, content_type=JSON)
    assert_problem(response, 400, min_errors=1)


@pytest.mark.parametrize("path, build, pointer", [
    ("new", lambda s: '{"seed": 1' + "0" * 40 + "}", "/seed"),
    ("new", lambda s: '{"seed": 18446744073709551616}', "/seed"),
    ("validate", lambda s: json.dumps({"state": s}).replace('"turn": 0', '"turn": ' + "9" * 30), "/state/turn"),
    ("validate", lambda s: json.dumps({"state": s}).replace('"passes": 0', '"passes": ' + "9" * 25), "/state/passes"),
    ("view", lambda s: json.dumps({"state": s, "player": 10 ** 30}), "/player"),
    ("apply", lambda s: json.dumps({"state": s, "moves": [{"type": "extend", "tower": 10 ** 30, "cards": ["5"]}]}),
     "/moves/0/tower"),
    ("apply", lambda s: json.dumps({"state": s, "moves": [{"type": "complete", "towers": [2 ** 63]}]}),
     "/moves/0/towers/0"),
], ids=["seed-1e40", "seed-2**64", "turn", "passes", "player", "tower", "towers-2**63"])
def test_huge_integers(client, state, path, build, pointer):
    response = client.post(f"{BASE}/{path}", data=build(state), content_type=JSON)
    assert_problem(response, 400, pointers=(pointer,))


@pytest.mark.parametrize("question", ["new", "validate"])
def test_integer_of_five_thousand_digits(client, question):
    raw = '{"seed": ' + "9" * 5000 + "}" if question == "new" else '{"state": {"turn": ' + "9" * 5000 + "}}"
    assert_problem(client.post(f"{BASE}/{question}", data=raw, content_type=JSON), 400, min_errors=1)


# ---------------------------------------------------------------- 400: wrong shape, unknown fields, wrong types


def _with(state, path, value):
    doc = copy.deepcopy(state)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize("question, make, pointer", [
    ("validate", lambda s: {"state": s, "bogus": 1}, "/bogus"),
    ("validate", lambda s: {"state": _with(s, ["bogus"], 1)}, "/state/bogus"),
    ("validate", lambda s: {"state": _with(s, ["variant", "bogus"], 1)}, "/state/variant/bogus"),
    ("legal-moves", lambda s: {"state": _with(s, ["players", 1, "bogus"], 1)}, "/state/players/1/bogus"),
    ("view", lambda s: {"player": 0, "state": _with(s, ["players", 0, "towers"], [{"cards": ["5", "5", "5"],
                                                                                    "bogus": True}])},
     "/state/players/0/towers/0/bogus"),
    ("validate", lambda s: {"state": _with(s, ["deck"], {"count": 31, "bogus": []})}, "/state/deck/bogus"),
    ("apply", lambda s: {"state": s, "moves": [{"type": "purchase"}, {"type": "draw", "from": "deck", "bogus": 1}]},
     "/moves/1/bogus"),
    ("apply", lambda s: {"state": s, "moves": [{"type": "purchase"}, {"type": "draw", "form": "deck"}]},
     "/moves/1/form"),
    ("new", lambda s: {"seed": 1, "variant": {"nobles": False, "bogus": 1}}, "/variant/bogus"),
    ("score", lambda s: {"table": {"players": [{"name": "A", "towers": [], "bogus": 1}, {"name": "B", "towers": []}]}},
     "/table/players/0/bogus"),
], ids=["top", "state", "variant", "player", "tower", "counted-deck", "move", "move-typo", "new-variant", "table"])
def test_unknown_field_has_the_right_pointer(client, state, question, make, pointer):
    response = client.post(f"{BASE}/{question}", json=make(state))
    body = assert_problem(response, 400, pointers=(pointer,))
    error = next(e for e in body["errors"] if e["pointer"] == pointer)
    assert error["rule"] is None
    assert "unknown" in error["message"].lower()


def test_key_with_slash_is_escaped_in_the_pointer(client, state):
    state["a/b~c"] = 1
    assert_problem(client.post(f"{BASE}/validate", json={"state": state}), 400, pointers=("/state/a~1b~0c",))


@pytest.mark.parametrize("question, make, pointer", [
    ("validate", lambda s: {"state": _with(s, ["players", 0, "hand", 3], 5)}, "/state/players/0/hand/3"),
    ("validate", lambda s: {"state": _with(s, ["players", 0, "hand", 3], "11")}, "/state/players/0/hand/3"),
    ("validate", lambda s: {"state": _with(s, ["turn"], "0")}, "/state/turn"),
    ("validate", lambda s: {"state": _with(s, ["turn"], True)}, "/state/turn"),
    ("validate", lambda s: {"state": _with(s, ["turn"], 0.5)}, "/state/turn"),
    ("validate", lambda s: {"state": _with(s, ["phase"], "midgame")}, "/state/phase"),
    ("validate", lambda s: {"state": _with(s, ["market"], "5 8 9 9")}, "/state/market"),
    ("validate", lambda s: {"state": _with(s, ["players"], {"0": {}})}, "/state/players"),
    ("validate", lambda s: {"state": _with(s, ["deck"], 31)}, "/state/deck"),
    ("validate", lambda s: {"state": s["players"]}, "/state"),
    ("view", lambda s: {"state": s, "player": "1"}, "/player"),
    ("view", lambda s: {"state": s, "player": 2}, "/player"),
    ("apply", lambda s: {"state": s, "moves": {"type": "pass"}}, "/moves"),
    ("apply", lambda s: {"state": s, "moves": ["pass"]}, "/moves/0"),
    ("apply", lambda s: {"state": s, "moves": [{"type": "pass"}, {"type": "fly"}]}, "/moves/1/type"),
    ("apply", lambda s: {"state": s, "moves": [{"type": "extend", "tower": "0", "cards": ["5"]}]}, "/moves/0/tower"),
    ("apply", lambda s: {"state": s, "moves": [{"type": "build", "cards": "5 6 7"}]}, "/moves/0/cards"),
    ("new", lambda s: {"seed": [42]}, "/seed"),
    ("new", lambda s: {"seed": 42, "names": ["Adso"]}, "/names"),
], ids=["hand-int", "hand-11", "turn-text", "turn-bool", "turn-float", "phase", "market-text", "players-object",
        "deck-int", "state-list", "player-text", "player-2", "moves-object", "move-text", "move-type", "tower-text",
        "cards-text", "seed-list", "one-name"])
def test_wrong_types(client, state, question, make, pointer):
    assert_problem(client.post(f"{BASE}/{question}", json=make(state)), 400, pointers=(pointer,))


@pytest.mark.parametrize("question, body, pointer", [
    ("validate", {}, "/state"),
    ("view", {"state": None}, "/state"),
    ("apply", {"moves": []}, "/state"),
    ("view", {"player": 0}, "/state"),
])
def test_missing_fields(client, state, question, body, pointer):
    assert_problem(client.post(f"{BASE}/{question}", json=body), 400, pointers=(pointer,))


def test_missing_field_deep(client, state):
    del state["players"][1]["hand"]
    assert_problem(client.post(f"{BASE}/validate", json={"state": state}), 400, pointers=("/state/players/1/hand",))
    moves = {"state": fresh_state(), "moves": [{"type": "purchase"}, {"type": "draw"}]}
    assert_problem(client.post(f"{BASE}/apply", json=moves), 400, pointers=("/moves/1/from",))


def test_score_needs_exactly_one_of_state_and_table(client, state):
    assert_problem(client.post(f"{BASE}/score", json={}), 400, min_errors=1)
    assert_problem(client.post(f"{BASE}/score", json={"state": state, "table": table()}), 400, min_errors=1)


@pytest.mark.parametrize("move_type", [{}, [], ["pass"]], ids=["object", "list", "list-of-text"])
@pytest.mark.parametrize("question", ["apply", "replay"])
def test_move_type_of_the_wrong_json_type_is_a_400(client, state, question, move_type):
    response = client.post(f"{BASE}/{question}", json={"state": state, "moves": [{"type": move_type}]})
    assert_problem(response, 400, pointers=("/moves/0/type",))


@pytest.mark.parametrize("value", [0, 1, "true", "yes", "on"])
def test_new_variant_nobles_must_be_a_boolean(client, value):
    response = client.post(f"{BASE}/new", json={"seed": 42, "variant": {"nobles": value}})
    assert_problem(response, 400, pointers=("/variant/nobles",))


def test_booleans_inside_a_state_are_strict(client, state):
    state["players"][0]["towers"] = [{"cards": ["10", "10", "10"], "complete": "yes"}]
    state["players"][0]["hand"] = ["6", "7", "8", "9"]
    state["deck"].remove("10")  # keep the card count; the shape error is what is answered
    response = client.post(f"{BASE}/validate", json={"state": state})
    assert_problem(response, 400, pointers=("/state/players/0/towers/0/complete",))


# ---------------------------------------------------------------- 404


@pytest.mark.parametrize("method, path", [
    ("GET", "/nope"), ("GET", "/v1"), ("GET", "/v2/games"), ("GET", "/v1/games/torri/nope"),
    ("POST", "/v1/games/torri/nope"), ("GET", "/v1/games/chess"), ("GET", "/v1/games/chess/rules"),
    ("POST", "/v1/games/chess/apply"), ("POST", "/v1/games/chess/new"), ("GET", "/docs/assets/nope.js"),
    ("GET", "/docs/assets/../../pyproject.toml"), ("GET", "/docs/assets/index.html"),
])
def test_not_found(client, state, method, path):
    response = client.open(path, method=method, json={"state": state, "moves": []} if method == "POST" else None)
    body = assert_problem(response, 404)
    assert body["title"] == "Not Found"


def test_unknown_game_names_the_games_served(client):
    body = assert_problem(client.post("/v1/games/chess/apply", json={}), 404)
    assert "chess" in body["detail"] and "torri" in body["detail"]


def test_an_unknown_endpoint_names_every_endpoint_the_game_has(client):
    detail = assert_problem(client.post("/v1/games/torri/nope", json={}), 404)["detail"]
    assert detail.endswith("it has rules, new, validate, legal-moves, apply, replay, score, view, picture, notation, "
                           "suggest.")
    detail = assert_problem(client.post("/v1/games/carcassonne/notation", json={}), 404)["detail"]
    assert "picture" in detail and "notation" not in detail.split("it has")[1]


@pytest.mark.parametrize("path", ["/nope", "/v1/games/chess/apply", "/v1/games/torri/nope"])
def test_not_found_wins_over_unsupported_media_type(client, path):
    assert_problem(client.post(path, data="x", content_type="text/plain"), 404)


# ---------------------------------------------------------------- 405


@pytest.mark.parametrize("method", ["GET", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_wrong_method_on_a_post_endpoint(client, question, method):
    response = client.open(f"{BASE}/{question}", method=method)
    assert_problem(response, 405)
    allowed = {m.strip() for m in response.headers["Allow"].split(",")}
    assert "POST" in allowed
    assert method not in allowed


@pytest.mark.parametrize("path", ["/v1/games", f"{BASE}/rules", "/healthz", "/readyz", "/metrics", "/openapi.yaml",
                                  "/docs"])
def test_post_with_json_on_a_get_endpoint(client, path):
    response = client.post(path, json={})
    assert_problem(response, 405)
    assert "GET" in {m.strip() for m in response.headers["Allow"].split(",")}


@pytest.mark.parametrize("path", ["/v1/games", f"{BASE}/rules", "/healthz", "/readyz"])
def test_delete_on_a_get_endpoint(client, path):
    response = client.delete(path)
    assert_problem(response, 405)
    assert "DELETE" not in response.headers["Allow"]


@pytest.mark.parametrize("path", ["/v1/games", f"{BASE}/rules", "/healthz", "/readyz"])
def test_post_without_body_on_a_get_endpoint_is_405(client, path):
    response = client.post(path)
    assert_problem(response, 405)
    assert response.headers["Allow"]


@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_options_allow_lists_only_working_methods(client, question):
    response = client.options(f"{BASE}/{question}")
    allowed = {m.strip() for m in response.headers["Allow"].split(",")}
    assert allowed <= {"POST", "OPTIONS"}


# ---------------------------------------------------------------- 413


@pytest.mark.app_config(MAX_BODY_BYTES=2000)
@pytest.mark.parametrize("question", POST_QUESTIONS)
def test_body_over_the_limit(client, state, question):
    body = {**body_for(question, state), "padding": "x" * 3000}
    response = client.post(f"{BASE}/{question}", json=body)
    problem = assert_problem(response, 413, min_errors=1)
    assert "2,000 bytes" in problem["detail"]  # the number as English writes it


@pytest.mark.app_config(MAX_BODY_BYTES=2000)
def test_body_under_the_limit_is_answered(client):
    assert client.post(f"{BASE}/new", json={"seed": 1}).status_code == 200


@pytest.mark.app_config(MAX_BODY_BYTES=2000)
def test_huge_nesting_over_the_limit_is_413(client):
    response = client.post(f"{BASE}/apply", data="[" * 10_000 + "]" * 10_000, content_type=JSON)
    assert_problem(response, 413, min_errors=1)


# ---------------------------------------------------------------- 415


@pytest.mark.parametrize("question", POST_QUESTIONS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml",
                                          "multipart/form-data; boundary=x", None])
def test_not_json_content_type(client, state, question, content_type):
    data = json.dumps(body_for(question, state))
    kwargs = {"content_type": content_type} if content_type else {}
    response = client.post(f"{BASE}/{question}", data=data, **kwargs)
    body = assert_problem(response, 415)
    assert body["type"] == "/problems/not-json"


def test_json_with_charset_is_json(client, state):
    response = client.post(f"{BASE}/validate", data=json.dumps({"state": state}),
                           content_type="application/json; charset=utf-8")
    assert response.status_code == 200


# ---------------------------------------------------------------- 422


@pytest.mark.parametrize("question", ["legal-moves", "apply", "replay", "view", "score"])
def test_impossible_state(client, question):
    state = impossible_state()
    body = {"legal-moves": {"state": state}, "apply": {"state": state, "moves": []},
            "replay": {"state": state, "moves": [{"type": "pass"}]}, "view": {"state": state, "player": 0},
            "score": {"state": state}}[question]
    response = client.post(f"{BASE}/{question}", json=body)
    problem = assert_problem(response, 422, rules=("T-COMP-4",), pointers=("/state/players/0/hand/0",))
    assert problem["type"] == "/problems/impossible-state"
    assert all(e["pointer"].startswith("/state") for e in problem["errors"])
    assert all(e["rule"] for e in problem["errors"]), "an impossible state names the rules it breaks"


def _crooked_tower_state(state):
    hand = state["players"][0]["hand"]  # 6 7 8 9 10: stack three of them in a wrong order
    state["players"][0]["hand"] = [c for c in hand if c not in ("6", "7", "8")]
    state["players"][0]["towers"] = [{"cards": ["6", "8", "7"]}]
    state["highest"] = 0
    return state


def test_tower_neither_plain_nor_colorful(client, state):
    response = client.post(f"{BASE}/legal-moves", json={"state": _crooked_tower_state(state)})
    assert_problem(response, 422, rules=("T-ACT-BUILD-3",), pointers=("/state/players/0/towers/0/cards",))


def test_crooked_tower_is_not_also_a_conservation_error(client, state):
    response = client.post(f"{BASE}/legal-moves", json={"state": _crooked_tower_state(state)})
    problem = assert_problem(response, 422, rules=("T-ACT-BUILD-3",))
    assert {e["rule"] for e in problem["errors"]} == {"T-ACT-BUILD-3"}


def test_hand_over_its_limit(client, state):
    state["players"][0]["hand"] += state["deck"][:10]
    state["deck"] = state["deck"][10:]
    assert_problem(client.post(f"{BASE}/apply", json={"state": state, "moves": []}), 422,
                   rules=("T-SETUP-4",), pointers=("/state/players/0/hand",))


def test_apply_on_an_impossible_state_is_422_not_an_illegal_move(client):
    response = client.post(f"{BASE}/apply", json={"state": impossible_state(), "moves": [{"type": "pass"}]})
    assert_problem(response, 422, rules=("T-COMP-4",))


# ---------------------------------------------------------------- 429


@pytest.mark.app_config(RATE_LIMIT="3 per minute")
def test_rate_limit(client):
    for _ in range(3):
        assert client.post(f"{BASE}/new", json={"seed": 1}).status_code == 200
    response = client.post(f"{BASE}/new", json={"seed": 1})
    body = assert_problem(response, 429, min_errors=1)
    assert body["type"] == "/problems/rate-limited"
    assert int(response.headers["Retry-After"]) > 0
    assert "X-Cache" not in response.headers


@pytest.mark.app_config(RATE_LIMIT="3 per minute")
def test_rate_limit_is_per_client_address(client):
    for _ in range(4):
        client.post(f"{BASE}/new", json={"seed": 1})
    assert client.post(f"{BASE}/new", json={"seed": 1}).status_code == 429
    other = client.post(f"{BASE}/new", json={"seed": 1}, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert other.status_code == 200


@pytest.mark.app_config(RATE_LIMIT="3 per minute")
def test_rate_limit_is_shared_across_endpoints(client, state):
    for _ in range(3):
        assert client.post(f"{BASE}/new", json={"seed": 1}).status_code == 200
    assert_problem(client.post(f"{BASE}/validate", json={"state": state}), 429)


@pytest.mark.app_config(RATE_LIMIT="3 per minute")
@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics"])
def test_probes_are_exempt_from_the_rate_limit(client, path):
    for _ in range(3):
        client.post(f"{BASE}/new", json={"seed": 1})
    assert client.post(f"{BASE}/new", json={"seed": 1}).status_code == 429
    for _ in range(10):
        assert client.get(path).status_code == 200


# ---------------------------------------------------------------- 500


SECRET = "the-secret-internal-detail-4f1c"


@pytest.fixture
def boom_app(make_app):
    app = make_app(TESTING=False, PROPAGATE_EXCEPTIONS=False)

    @app.route("/boom", methods=["GET", "POST"])
    def boom():
        raise RuntimeError(SECRET)

    return app


def test_unexpected_error_is_a_500_problem_without_internals(boom_app):
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep()
    logger = logging.getLogger("service.api")
    logger.addHandler(handler)
    try:
        response = boom_app.test_client().get("/boom")
    finally:
        logger.removeHandler(handler)
    body = assert_problem(response, 500)
    assert body["type"] == "/problems/internal-error"
    error_id = body["error_id"]
    assert isinstance(error_id, str) and len(error_id) >= 16
    text = response.get_data(as_text=True)
    for leak in (SECRET, "Traceback", "RuntimeError", "File \"", ".py"):
        assert leak not in text, leak
    # the id ties the answer to the log line that has the traceback
    logged = [r for r in records if getattr(r, "error_id", None) == error_id]
    assert logged and logged[0].exc_info is not None


def test_500_problem_keeps_cors_and_request_id(boom_app):
    response = boom_app.test_client().post("/boom", json={}, headers={"Origin": "https://front.example",
                                                                      "X-Request-Id": "req-500"})
    assert response.status_code == 500
    assert response.headers["X-Request-Id"] == "req-500"
    assert response.get_json()["request_id"] == "req-500"
    assert response.headers["Access-Control-Allow-Origin"] in ("*", "https://front.example")


def test_unknown_fields_are_reported_in_the_same_order_in_every_process():
    """marshmallow finds unknown fields through a set, whose order changes with the process's hash seed: the
    answer lists them sorted, after the errors of the fields it knows, so the same request always gets the same
    answer (and the same cache entry)."""
    script = ("from service.api import create_app\n"
              "client = create_app({'RATE_LIMIT': '', 'LOG_LEVEL': 'ERROR'}).test_client()\n"
              "body = {'seed': -1, 'names': [], 'zz': 1, 'aa': 2, 'mm': 3}\n"
              "print([e['pointer'] for e in client.post('/v1/games/torri/apply', json=body).json['errors']])\n")
    seen = set()
    for seed in ("1", "2", "3", "4"):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip()
        seen.add(out.splitlines()[-1])
    assert seen == {"['/state', '/moves', '/aa', '/mm', '/names', '/seed', '/zz']"}
