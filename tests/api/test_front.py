"""The one path (service/api/front.py): every request through the front, whatever the settings; a game's question
answered there, from the cache or computed, as its Flask view would answer it; refusals left to Flask; and every
answer, the front's or Flask's, carrying the same headers."""
from __future__ import annotations

import copy
import json

import pytest
from werkzeug.test import Client

from service.api.front import Front
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


def _front(app) -> Front:
    """The front among the WSGI layers of the app (a proxy's ProxyFix may stand before it)."""
    layer = app.wsgi_app
    while not isinstance(layer, Front):
        layer = layer.app
    return layer


@pytest.mark.parametrize("settings", [{}, {"RATE_LIMIT": ""}, {"RATE_LIMIT": "5 per second"},
                                      {"CORS_ORIGINS": "https://a.example"}, {"FORWARDED_PROXIES": 1}])
def test_the_front_answers_whatever_the_settings(make_app, settings):
    app = make_app(**settings)
    assert isinstance(_front(app), Front)
    first, hit = _twice(app.test_client(), "apply")
    assert (first.headers["X-Cache"], hit.headers["X-Cache"]) == ("miss", "hit")
    assert first.get_data() == hit.get_data()


@pytest.mark.parametrize("origin", [None, "https://front.example"])
@pytest.mark.parametrize("question", CACHED)
def test_a_hit_is_the_answer_first_computed(make_app, question, origin):
    headers = {"Origin": origin} if origin else {}
    first, hit = _twice(make_app().test_client(), question, **headers)
    assert (first.headers["X-Cache"], hit.headers["X-Cache"]) == ("miss", "hit")
    assert _comparable(hit)[::2] == _comparable(first)[::2]
    assert _common_headers(hit) == _common_headers(first)


def _common_headers(response) -> dict:
    """What every answer carries, whoever wrote it (the remaining count and the request id differ by request)."""
    names = ("Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Vary", "X-Content-Type-Options",
             "X-RateLimit-Limit")
    found = {name: response.headers.get(name) for name in names}
    # one Vary field; an answer in the language the request's Accept-Language chose (/rules) also varies on it
    assert len(response.headers.getlist("Vary")) <= 1
    found["Vary"] = sorted({v.strip() for v in (found["Vary"] or "").split(",") if v.strip()} - {"Accept-Language"})
    found["X-RateLimit-Remaining"] = response.headers.get("X-RateLimit-Remaining", "").isdigit()
    found["X-Request-Id"] = bool(response.headers.get("X-Request-Id"))
    return found


@pytest.mark.parametrize("origin", [None, "https://front.example"])
def test_every_answer_carries_the_same_headers_whoever_writes_it(make_app, origin):
    """A question the front answers, and Flask's answers: a page, a GET, an error document, a picture, a 404."""
    client = make_app(RATE_LIMIT="1000 per minute").test_client()
    headers = {"Origin": origin} if origin else {}
    state = fresh_state(7)
    answers = [client.post(f"{BASE}/legal-moves", json={"state": state}, headers=headers),
               client.get(f"{BASE}/rules", headers=headers), client.get("/referee", headers=headers),
               client.post(f"{BASE}/legal-moves", json={"state": 5}, headers=headers),
               client.post(f"{BASE}/picture", json={"state": state}, headers=headers),
               client.get("/no/such/page", headers=headers)]
    assert [a.status_code for a in answers] == [200, 200, 200, 400, 200, 404]
    expected = _common_headers(answers[0])
    assert expected["X-RateLimit-Limit"] == "1000" and expected["X-RateLimit-Remaining"]
    assert expected["Access-Control-Allow-Origin"] == (origin or "*")
    for answer in answers[1:]:
        assert _common_headers(answer) == expected, answer.request.path
    assert "Retry-After" not in answers[0].headers
    probe = client.get("/healthz", headers=headers)  # probes are never counted
    assert "X-RateLimit-Limit" not in probe.headers and probe.headers["X-Content-Type-Options"] == "nosniff"


def test_cors_is_flask_cors_s_answer_for_every_path(make_app):
    client = make_app(CORS_ORIGINS="https://a.example").test_client()
    body = _body("apply")
    allowed = client.post(f"{BASE}/apply", json=body, headers={"Origin": "https://a.example"})
    other = client.post(f"{BASE}/apply", json=body, headers={"Origin": "https://b.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://a.example"
    assert "Access-Control-Allow-Origin" not in other.headers and other.status_code == 200
    preflight = client.options(f"{BASE}/apply", headers={"Origin": "https://a.example",
                                                        "Access-Control-Request-Method": "POST",
                                                        "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert preflight.headers["Access-Control-Max-Age"] == "86400"
    assert preflight.headers["Access-Control-Allow-Headers"].lower() == "content-type"
    assert "X-RateLimit-Limit" not in preflight.headers  # a preflight is not counted


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
    # both counted in the HTTP metrics by the front, under the route's rule
    assert _samples(app, "requests", method="POST", status="200") == 2
    assert app.extensions["referee"].metrics.request_seconds.labels(
        method="POST", url_rule=f"{BASE}/apply", status="200")._sum.get() > 0
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


def _as_flask_answers(response) -> tuple:
    """Status, type and body (a problem document without its request id, which the front gives)."""
    body = response.get_data()
    if response.mimetype == "application/problem+json":
        body = {k: v for k, v in json.loads(body).items() if k != "request_id"}
    return response.status_code, response.mimetype, body


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_s_questions_are_answered_as_their_flask_views_answer_them(make_app, game_id):
    """Computed answers (first asked: X-Cache miss or bypass) and refusals, byte for byte, by the front and by the
    Flask view alone (the app without its front)."""
    app = make_app()
    front, views = app.test_client(), Client(_front(app).flask)
    statuses = set()
    for question, body in _game_bodies(game_id):
        path = f"/v1/games/{game_id}/{question}"
        mine, theirs = front.post(path, json=body), views.post(path, json=body)
        assert _as_flask_answers(mine) == _as_flask_answers(theirs), (question, body)
        assert mine.status_code != 200 or mine.headers["X-Cache"] in ("miss", "bypass")
        statuses.add(mine.status_code)
    assert {200, 400, 422} <= statuses

