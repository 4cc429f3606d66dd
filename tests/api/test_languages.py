"""The language of an answer, chosen as HTTP does (service/api/language.py): `?lang=`, else Accept-Language with
q-values and a region falling back to its language, else English; never an error. Answers say it
(Content-Language) and that they depend on the header (Vary)."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.games.registry import GAMES


@pytest.mark.parametrize(("header", "query", "said"), [
    ("fr", "", "fr"), ("fr-CA", "", "fr"), ("de-AT,de;q=0.9,en;q=0.5", "", "de"), ("en;q=0.2, it;q=0.8", "", "it"),
    ("pt-BR, es", "", "en"), ("*", "", "en"), ("", "", "en"), ("fr", "?lang=it", "it"), ("", "?lang=de-CH", "de"),
    ("de", "?lang=klingon", "en"), (";;q=,fr;q=abc", "", "en"),
])
def test_the_rules_are_said_in_the_language_chosen(client: Any, header: str, query: str, said: str) -> None:
    for game_id, game in GAMES.items():
        answer = client.get(f"/v1/games/{game_id}/rules{query}", headers={"Accept-Language": header})
        assert answer.status_code == 200
        assert answer.headers["Content-Language"] == said
        assert "Accept-Language" in answer.headers["Vary"]
        assert answer.get_json()["rules"] == game.rules(said)


def test_rule_ids_and_rulings_stay_as_they_are_in_every_language(client: Any) -> None:
    for game_id in GAMES:
        english = client.get(f"/v1/games/{game_id}/rules").get_json()["rules"]
        french = client.get(f"/v1/games/{game_id}/rules?lang=fr").get_json()["rules"]
        assert [(r["id"], r["ruling"]) for r in french] == [(r["id"], r["ruling"]) for r in english]
        assert [r["text"] for r in french] != [r["text"] for r in english]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=st.text(max_size=200))
def test_any_accept_language_is_an_answer(client: Any, header: str) -> None:
    """Whatever the header holds, the rules are answered in one of the languages spoken."""
    try:
        answer = client.get("/v1/games/torri/rules", headers={"Accept-Language": header})
    except ValueError:  # a header the test client itself cannot send (a line break)
        return
    assert answer.status_code == 200 and answer.headers["Content-Language"] in ("en", "fr", "de", "it")
