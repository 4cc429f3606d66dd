"""Shared assertions and documents for the API tests."""
from __future__ import annotations

import copy
import re
from typing import Any

from service.games import torri
from service.games.registry import GAMES

BASE = "/v1/games/torri"
PROBLEM_JSON = "application/problem+json"
POST_QUESTIONS = ("new", "validate", "legal-moves", "apply", "replay", "score", "view")
RULE_IDS = frozenset(rule.id for rule in torri.RULES)
POINTER = re.compile(r"^(/([^/~]|~[01])*)*$")  # RFC 6901


def canonical_state(seed: int | str = 42, **kwargs: Any) -> dict:
    """A new game in the full canonical form the service answers with, straight from the library."""
    return torri.state_json(torri.new_game(seed, **kwargs))


def wire(state: dict) -> dict:
    """A state as a caller may send it: a field at its obvious default may be left out (api.md); the battery
    sends `closed_by: null` that way (the round trip of the full form is tested on its own)."""
    doc = copy.deepcopy(state)
    if doc.get("closed_by", 0) is None:
        del doc["closed_by"]
    return doc


def fresh_state(seed: int | str = 42, **kwargs: Any) -> dict:
    """A new game as a request body's state (no web server involved)."""
    return wire(canonical_state(seed, **kwargs))


def table() -> dict:
    """The rulesheet's Adso/William table (63 to 66), the contract's example."""
    return copy.deepcopy(GAMES["torri"].examples["score"]["table"])


def impossible_state(seed: int = 42) -> dict:
    """A sixth 5 in Player 1's hand: breaks conservation (T-COMP-4)."""
    state = fresh_state(seed)
    state["players"][0]["hand"].append("5")
    return state


def body_for(question: str, state: dict | None = None) -> dict:
    """A valid request body for each POST question."""
    state = fresh_state() if state is None else state
    return {
        "new": {"seed": 42},
        "validate": {"state": state},
        "legal-moves": {"state": state},
        "apply": {"state": state, "moves": [{"type": "pass"}]},
        "replay": {"state": state, "moves": [{"type": "pass"}]},
        "score": {"table": table()},
        "view": {"state": state, "player": 1},
    }[question]


def assert_problem(response, status: int, *, pointers: tuple[str, ...] = (), rules: tuple[str, ...] = (),
                   min_errors: int = 0) -> dict:
    """An RFC 9457 problem: the media type, the standard members, and `errors[]` of {rule, pointer, message}.

    Every pointer in `pointers` and every rule in `rules` must occur among the errors."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:500])
    assert response.mimetype == PROBLEM_JSON, response.content_type
    body = response.get_json(force=True)
    assert isinstance(body, dict)
    assert body["status"] == status
    for member in ("type", "title", "detail", "instance"):
        assert isinstance(body.get(member), str) and body[member], member
    assert body["instance"] == response.request.path
    assert body.get("request_id") == response.headers["X-Request-Id"]
    errors = body["errors"]
    assert isinstance(errors, list) and len(errors) >= min_errors, errors
    for error in errors:
        assert set(error) == {"rule", "pointer", "message"}, error
        assert error["rule"] is None or error["rule"] in RULE_IDS, error
        assert isinstance(error["pointer"], str) and POINTER.match(error["pointer"]), error
        assert isinstance(error["message"], str) and error["message"].strip(), error
    found_pointers = {e["pointer"] for e in errors}
    for pointer in pointers:
        assert pointer in found_pointers, (pointer, errors)
    found_rules = {e["rule"] for e in errors}
    for rule in rules:
        assert rule in found_rules, (rule, errors)
    return body
