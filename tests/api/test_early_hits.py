"""Well-formed questions answered before Flask (service/api/early.py), from the cache or computed: the same bytes
and headers as the Flask path, a miss looked up once, refusals left to Flask, and the layer out of the way wherever
the answer depends on more than the body."""
from __future__ import annotations

import copy
import json

import pytest

from service.api.early import EarlyAnswers
from service.games.registry import GAMES

from .helpers import BASE, body_for, fresh_state

CACHED = ("new", "validate", "legal-moves", "apply", "replay", "score", "view", "notation")


def _body(question: str) -> dict:
    if question == "notation":
        return {"state": fresh_state(7)}
    return body_for(question, fresh_state(7))


def _twice(client, question: str, **headers: str):
    body = _body(question)
    first = client.post(f"{BASE}/{question}", json=body, headers=headers)
    second = client.post(f"{BASE}/{question}", json=body, headers=headers)
    return first, second


def _comparable(response) -> tuple:
    headers = sorted((k, v) for k, v in response.headers.items() if k != "X-Request-Id")
    return response.status_code, headers, response.get_data()


def _answers_early(app) -> bool:
    """Whether the early layer is among the WSGI layers in front of Flask (the memos' counter may stand before it)."""
    layer = app.wsgi_app
    while not isinstance(layer, EarlyAnswers):
        layer = getattr(layer, "wsgi_app", None)
        if layer is None or getattr(layer, "__self__", None) is app:  # Flask's own wsgi_app: no layer left
            return False
    return True


def test_the_layer_is_in_front_when_nothing_but_the_body_matters(make_app):
    assert _answers_early(make_app())
    assert not _answers_early(make_app(EARLY_CACHE_HITS=False))
    assert not _answers_early(make_app(RATE_LIMIT="100 per minute"))
    assert not _answers_early(make_app(CORS_ORIGINS="https://a.example"))


@pytest.mark.parametrize("origin", [None, "https://front.example"])
@pytest.mark.parametrize("question", CACHED)
def test_a_hit_answered_early_is_the_hit_flask_gives(make_app, question, origin):
    headers = {"Origin": origin} if origin else {}
    early_first, early_hit = _twice(make_app().test_client(), question, **headers)
    flask_first, flask_hit = _twice(make_app(EARLY_CACHE_HITS=False).test_client(), question, **headers)
    assert early_first.headers["X-Cache"] == flask_first.headers["X-Cache"] == "miss"
    assert early_hit.headers["X-Cache"] == flask_hit.headers["X-Cache"] == "hit"
    assert _comparable(early_hit) == _comparable(flask_hit)
    assert _comparable(early_first) == _comparable(flask_first)


def test_request_id_is_kept_or_made(make_app):
    client = make_app().test_client()
    _twice(client, "apply")
    body = _body("apply")
    given = client.post(f"{BASE}/apply", json=body, headers={"X-Request-Id": "front-42.a"})
    assert given.headers["X-Cache"] == "hit" and given.headers["X-Request-Id"] == "front-42.a"
    bad = client.post(f"{BASE}/apply", json=body, headers={"X-Request-Id": "no spaces allowed"})
    assert bad.headers["X-Cache"] == "hit" and len(bad.headers["X-Request-Id"]) == 32


def _samples(app, name: str, **labels: str) -> float:
    registry_metric = getattr(app.extensions["referee"].metrics, name)
    return registry_metric.labels(**labels)._value.get()


def test_a_miss_is_looked_up_once_and_a_hit_is_counted(make_app):
    app = make_app()
    client = app.test_client()
    first, second = _twice(client, "apply")
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("miss", "hit")
    assert _samples(app, "cache_requests", store="memory", operation="get", result="miss") == 1
    assert _samples(app, "cache_requests", store="memory", operation="get", result="hit") == 1
    assert _samples(app, "cache_requests", store="memory", operation="set", result="ok") == 1
    assert _samples(app, "adjudications", game="torri", endpoint="apply", outcome="cached") == 1
    # both answered before Flask, the first computed: counted as early answers by their X-Cache
    assert _samples(app, "early_answers", game="torri", endpoint="apply", cache="miss") == 1
    assert _samples(app, "early_answers", game="torri", endpoint="apply", cache="hit") == 1
    assert _samples(app, "adjudications", game="torri", endpoint="apply", outcome="legal") == 1


def test_anything_but_a_hit_goes_to_flask_unchanged(make_app):
    client = make_app().test_client()
    body = _body("apply")
    client.post(f"{BASE}/apply", json=body)
    assert client.post(f"{BASE}/apply", json=body).headers["X-Cache"] == "hit"
    # the same body as text/plain: 415 as ever; a GET: 405; an unseeded /new: never cached
    assert client.post(f"{BASE}/apply", data=json.dumps(body), content_type="text/plain").status_code == 415
    assert client.get(f"{BASE}/apply").status_code == 405
    unseeded = [client.post(f"{BASE}/new", json={}) for _ in range(2)]
    assert [r.headers["X-Cache"] for r in unseeded] == ["bypass", "bypass"]
    # a body that only differs in key order and spacing is the same question: a hit
    reordered = json.dumps(dict(reversed(list(body.items()))), indent=2)
    spaced = client.post(f"{BASE}/apply", data=reordered, content_type="application/json")
    assert spaced.headers["X-Cache"] == "hit"
    # a broken body is Flask's 400
    broken = client.post(f"{BASE}/apply", data=b'{"state": ', content_type="application/json")
    assert broken.status_code == 400



def _without_request_id(response) -> tuple:
    """A response comparable across apps: its request id (made afresh when none is sent) left out, also from a
    problem document."""
    status, headers, body = _comparable(response)
    if response.mimetype == "application/problem+json":
        body = {k: v for k, v in json.loads(body).items() if k != "request_id"}
    return status, headers, body


def _game_bodies(game_id: str) -> list[tuple[str, dict]]:
    """Questions to every endpoint of a game: its contract examples, the state they deal before and after the
    example moves, and refusals (a malformed state, an unknown field, an illegal move, an impossible position)."""
    adapter = GAMES[game_id]
    examples = adapter.examples
    dealt = adapter.new({**examples["new"], "seed": examples["new"].get("seed", 1)})["state"]
    moves = examples["apply"]["moves"]
    after = adapter.apply({"state": dealt, "moves": moves})["state"]
    questions = [("new", {**examples["new"], "seed": 3})]
    for state in (dealt, after):
        questions += [("validate", {"state": state}), ("legal-moves", {"state": state}),
                      ("apply", {"state": state, "moves": moves}), ("replay", {"state": state, "moves": moves}),
                      ("score", {"state": state}), ("view", {"state": state, "player": 1})]
    questions += [(name, copy.deepcopy(examples[name])) for name in ("score", "validate") if name in examples]
    impossible = copy.deepcopy(dealt)
    impossible["players"] = impossible["players"][:1]
    questions += [("legal-moves", {"state": {**dealt, "turn": "first"}}), ("apply", {"state": dealt, "moves": moves,
                                                                                    "extra": 1}),
                  ("apply", {"state": dealt, "moves": [{"type": "no such move"}]}),
                  ("legal-moves", {"state": impossible}), ("score", {"state": dealt, "table": {}})]
    return questions


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_answers_early_as_flask_does(make_app, game_id):
    """Computed answers (first asked: X-Cache miss or bypass) and refusals, byte for byte and header for header,
    with the early layer and without it."""
    early, flask = make_app().test_client(), make_app(EARLY_CACHE_HITS=False).test_client()
    statuses = set()
    for question, body in _game_bodies(game_id):
        path = f"/v1/games/{game_id}/{question}"
        mine, theirs = early.post(path, json=body), flask.post(path, json=body)
        assert _without_request_id(mine) == _without_request_id(theirs), (question, body)
        statuses.add(mine.status_code)
    assert {200, 400, 422} <= statuses

