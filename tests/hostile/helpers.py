"""Shared checks for the hostile-input, limits, leak and fault tests.

Every error answer must be RFC 9457 problem+json with `errors[]` of {rule, pointer, message}, must not hang
(`timed` records each request's wall time, reported at the end of the run, and fails only past HANG_SECONDS: a
guard against unbounded work, not a speed check; speed is measured in bench/), and must carry no internals (stack
traces, file paths) and no configuration secrets.
"""
from __future__ import annotations

import importlib.util
import re
import sys
import time
from pathlib import Path
from typing import Any

from service.games.torri.schemas import TorriStateSchema
from service.games import campanile, torri
from service.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
BASE = "/v1/games/torri"
CAMPANILE = "/v1/games/campanile"
PROBLEM_JSON = "application/problem+json"
HANG_SECONDS = 30.0  # answers take milliseconds; only unbounded work (a hang, a quadratic blow-up) reaches this
RULE_IDS = frozenset(rule["id"] for game in GAMES.values() for rule in game.rules())
POINTER = re.compile(r"^(/([^/~]|~[01])*)*$")  # RFC 6901
# Text that must never be in an error answer: a stack trace, source or library paths.
INTERNALS = ("Traceback", "/site-packages/", 'File "', "service/", "werkzeug/", "flask/", ".py\"", ".py:")

TORRI_POSTS = ("new", "validate", "legal-moves", "apply", "replay", "score", "view", "picture", "notation")
CAMPANILE_POSTS = ("new", "validate", "legal-moves", "apply", "replay", "score", "view")
ALL_POSTS = tuple(f"{BASE}/{q}" for q in TORRI_POSTS) + tuple(f"{CAMPANILE}/{q}" for q in CAMPANILE_POSTS)

# (label, seconds) of every timed request in this process, and figures of the fuzz and fault runs, for the summary
# at the end of the run
TIMINGS: list[tuple[str, float]] = []
REPORTS: list[str] = []


def bench_module(name: str):
    """bench/<name>.py as a module (bench/ is scripts, not a package)."""
    key = f"bench_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, ROOT / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    return sys.modules[key]


def api_state(doc: dict) -> dict:
    """A library state as the API takes it: `closed_by` left out while the request schema does not declare it."""
    if "closed_by" in doc and "closed_by" not in TorriStateSchema._declared_fields:
        doc = {k: v for k, v in doc.items() if k != "closed_by"}
    return doc


def fresh_state(seed: int = 42, **kwargs: Any) -> dict:
    return api_state(torri.state_json(torri.new_game(seed, **kwargs)))


def timed(client, label: str, method: str, path: str, limit: float = HANG_SECONDS, **kwargs: Any):
    """One request through the test client, timed with perf_counter; fails if it took `limit` seconds or more."""
    started = time.perf_counter()
    response = client.open(path, method=method, **kwargs)
    response.get_data()
    elapsed = time.perf_counter() - started
    TIMINGS.append((label, elapsed))
    assert elapsed < limit, f"{label}: {elapsed:.2f} s (limit {limit} s)"
    return response


def assert_no_internals(text: str, where: str = "") -> None:
    for marker in INTERNALS:
        assert marker not in text, f"{where}: internal detail {marker!r} in {text[:400]!r}"


def assert_problem(response, status: int | tuple[int, ...], *, pointer: str | None = None,
                   under: str | tuple[str, ...] | None = None, rule: str | None = None, min_errors: int = 1) -> dict:
    """An RFC 9457 problem of `status`: the media type, the members, errors[] of {rule, pointer, message} with
    RFC 6901 pointers and known rule ids, the request id, no internals. `pointer` must be among the pointers,
    `under`: every pointer starts with it; `rule` must be among the rules."""
    statuses = (status,) if isinstance(status, int) else status
    text = response.get_data(as_text=True)
    assert response.status_code in statuses, (response.status_code, text[:600])
    assert response.mimetype == PROBLEM_JSON, (response.content_type, text[:300])
    body = response.get_json(force=True)
    assert isinstance(body, dict), text[:300]
    assert body["status"] == response.status_code
    for member in ("type", "title", "detail", "instance"):
        assert isinstance(body.get(member), str) and body[member], (member, body)
    assert body.get("request_id") == response.headers.get("X-Request-Id"), body
    errors = body["errors"]
    assert isinstance(errors, list) and len(errors) >= min_errors, body
    for error in errors:
        assert set(error) == {"rule", "pointer", "message"}, error
        assert error["rule"] is None or error["rule"] in RULE_IDS, error
        assert isinstance(error["pointer"], str) and POINTER.match(error["pointer"]), error
        assert isinstance(error["message"], str) and error["message"].strip(), error
    if pointer is not None:
        assert pointer in {e["pointer"] for e in errors}, (pointer, errors)
    if under is not None:
        prefixes = (under,) if isinstance(under, str) else under
        assert all(e["pointer"].startswith(prefixes) for e in errors), (prefixes, errors)
    if rule is not None:
        assert rule in {e["rule"] for e in errors}, (rule, errors)
    assert len(text) < 64 * 1024, f"a {len(text)}-byte problem: an error answer must stay small"
    assert_no_internals(text, f"{response.status_code} {body['instance']}")
    return body


def assert_healthy(client) -> None:
    """The app still answers a normal question right after the hostile one."""
    state = fresh_state(7)
    response = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.get_json()["moves"]
    assert client.get("/healthz").status_code == 200
