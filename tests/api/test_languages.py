"""The language of an answer, chosen as HTTP does (service/api/language.py): `?lang=`, else Accept-Language with
q-values and a region falling back to its language, else English; never an error. Answers say it
(Content-Language) and that they depend on the header (Vary)."""
from __future__ import annotations

from pathlib import Path
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


# ---------------------------------------------------------------- every answer, in the language chosen

from service.games.core.events import Event  # noqa: E402
from service.games.core.language import LANGUAGES  # noqa: E402
from service.games.core.language import said as say_in  # noqa: E402
from tests.replay.records import whole_game  # noqa: E402

from .helpers import BASE, body_for, fresh_state  # noqa: E402

SPEAKING = ("validate", "apply", "replay", "score")  # the questions whose answers have words for people
SILENT = ("legal-moves", "view", "notation")  # answers without words: the same in every language


def _record(game_id: str) -> tuple[dict, list]:
    game = GAMES[game_id]
    return whole_game(game_id, {}, min(game.info.min_players + 1, game.info.max_players), seed=5)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", list(GAMES))
def test_events_are_said_in_the_language_chosen(client: Any, game_id: str, language: str) -> None:
    """/replay's events in each language: the game's sentence for each, said there; the facts, types and order
    unchanged."""
    start, moves = _record(game_id)
    body = {"state": start, "moves": moves[:40]}
    english = client.post(f"/v1/games/{game_id}/replay", json=body).get_json()
    answer = client.post(f"/v1/games/{game_id}/replay", json=body, headers={"Accept-Language": language})
    assert answer.status_code == 200 and answer.headers["Content-Language"] == language
    assert "Accept-Language" in answer.headers["Vary"]
    said = answer.get_json()
    game = GAMES[game_id]
    names = game.player_names(game.load_state(start).checked())
    assert [{k: v for k, v in e.items() if k != "text"} for e in said["events"]] == \
        [{k: v for k, v in e.items() if k != "text"} for e in english["events"]]
    for event in said["events"]:
        facts = Event({key: value for key, value in event.items() if key != "text"})
        assert event["text"] == game.narrate(facts, names).said(language)
    if language != "en":  # the same words as English only where a sentence is all names and numbers
        differ = [a["text"] != b["text"] for a, b in zip(said["events"], english["events"])]
        assert sum(differ) >= len(differ) * 0.9


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_violation_is_said_in_the_language_chosen(client: Any, game_id: str) -> None:
    """A later step of a record played first (out of turn, or out of its phase): its violation, in each
    language, is the library's; the rule and pointer the same, the words each language's own."""
    game = GAMES[game_id]
    start, moves = _record(game_id)
    body = next(body for body in ({"state": start, "moves": [move]} for move in moves[1:20])
                if not game.apply(body)["legal"])
    said = {}
    for language in LANGUAGES:
        answer = client.post(f"/v1/games/{game_id}/apply?lang={language}", json=body)
        document = answer.get_json()
        assert answer.status_code == 200 and answer.headers["Content-Language"] == language
        assert document["violations"] == game.apply(body, language=language)["violations"]
        said[language] = tuple(v["message"] for v in document["violations"])
        assert [(v["rule"], v["pointer"]) for v in document["violations"]] == \
            [(v["rule"], v["pointer"]) for v in game.apply(body)["violations"]]
    assert len(set(said.values())) == len(LANGUAGES)  # four languages, four sentences


@pytest.mark.parametrize("question", SPEAKING + SILENT)
def test_every_answer_says_its_language_when_it_has_words(client: Any, question: str) -> None:
    body = body_for(question, fresh_state(7)) if question != "notation" else {"state": fresh_state(7)}
    answer = client.post(f"{BASE}/{question}", json=body, headers={"Accept-Language": "de-DE"})
    assert answer.status_code == 200
    if question in SPEAKING:
        assert answer.headers["Content-Language"] == "de" and "Accept-Language" in answer.headers["Vary"]
    else:
        assert "Content-Language" not in answer.headers


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_problem_is_said_in_the_language_chosen(client: Any, language: str) -> None:
    answer = client.post(f"{BASE}/legal-moves?lang={language}", json={"state": {"players": 3}})
    problem = answer.get_json()
    assert answer.status_code == 400 and answer.headers["Content-Language"] == language
    assert answer.mimetype == "application/problem+json" and "Accept-Language" in answer.headers["Vary"]
    english = client.post(f"{BASE}/legal-moves", json={"state": {"players": 3}}).get_json()
    assert [(e["rule"], e["pointer"]) for e in problem["errors"]] == \
        [(e["rule"], e["pointer"]) for e in english["errors"]]
    if language != "en":
        assert problem["title"] != english["title"] and problem["detail"] != english["detail"]
        assert all(a["message"] != b["message"] for a, b in zip(problem["errors"], english["errors"]))


def test_impossible_states_not_found_and_refused_methods_are_said_too(client: Any) -> None:
    for path, method, status in ((f"{BASE}/nothing", "post", 404), ("/v1/games/chess/apply", "post", 404),
                                 (f"{BASE}/apply", "get", 405)):
        answer = getattr(client, method)(path, json={}, headers={"Accept-Language": "it"})
        assert answer.status_code == status and answer.headers["Content-Language"] == "it"
        assert answer.get_json()["detail"] != getattr(client, method)(path, json={}).get_json()["detail"]


@pytest.mark.app_config(CACHE_MIN_COMPUTE_MS=0)
def test_the_cache_keeps_an_answer_per_language_chosen_never_per_header(client: Any) -> None:
    """`fr`, then `fr-FR` and every other way of asking for French, is a hit; English and German are answers of
    their own; a flood of distinct headers makes no more entries than the languages spoken."""
    start, moves = _record("campanile")
    body = {"state": start, "moves": moves[:12]}

    def ask(header: str) -> Any:
        return client.post("/v1/games/campanile/apply", json=body, headers={"Accept-Language": header})

    french = ask("fr")
    assert french.headers["X-Cache"] == "miss"
    for header in ("fr-FR", "fr-CA, en;q=0.5", "fr;q=0.9, xx", "FR"):
        again = ask(header)
        assert again.headers["X-Cache"] == "hit" and again.get_data() == french.get_data()
        assert again.headers["Content-Language"] == "fr"
    english = ask("en-GB")
    assert english.headers["X-Cache"] == "miss" and english.get_data() != french.get_data()
    assert english.headers["Content-Language"] == "en"
    flood = [ask(f"x{i}-Y{i}, de;q=0.{i % 9 + 1}") for i in range(60)]
    assert [r.headers["X-Cache"] for r in flood] == ["miss"] + ["hit"] * 59
    assert all(r.headers["Content-Language"] == "de" for r in flood)
    assert ask("de").get_data() == flood[0].get_data() != french.get_data()


def test_the_games_list_says_its_variants_in_the_language_chosen(client: Any) -> None:
    english = client.get("/v1/games").get_json()["games"]
    for language in LANGUAGES:
        answer = client.get("/v1/games", headers={"Accept-Language": language})
        assert answer.headers["Content-Language"] == language
        for game, was in zip(answer.get_json()["games"], english):
            assert [v["name"] for v in game["variants"]] == [v["name"] for v in was["variants"]]
            if language != "en":
                assert all(v["description"] != w["description"] for v, w in zip(game["variants"], was["variants"]))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_legal_moves_said_in_words_are_what_apply_would_say(client: Any, game_id: str) -> None:
    """/legal-moves with `texts`: one sentence per move, in order, the events' own words for it (what /apply
    answers for that move, as it can be foreseen: Game.foreseen leaves out what chance brings), in the language
    chosen; without `texts`, no words and no language."""
    start, moves = _record(game_id)
    game = GAMES[game_id]
    body = {"state": start, "moves": moves[:6]}
    state = client.post(f"/v1/games/{game_id}/apply", json=body).get_json()["state"]
    plain = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state})
    assert "texts" not in plain.get_json() and "Content-Language" not in plain.headers
    for language in ("en", "it"):
        answer = client.post(f"/v1/games/{game_id}/legal-moves?lang={language}", json={"state": state, "texts": True})
        said = answer.get_json()
        assert answer.headers["Content-Language"] == language
        assert said["moves"] == plain.get_json()["moves"] and len(said["texts"]) == len(said["moves"])
        for move, text in list(zip(said["moves"], said["texts"]))[:8]:
            applied = client.post(f"/v1/games/{game_id}/apply?lang={language}",
                                  json={"state": state, "moves": [move]}).get_json()
            names = [player["name"] for player in state["players"]]
            foreseen = [say_in(game.narrate(game.foreseen({k: v for k, v in event.items() if k != "text"}), names),
                             language) for event in applied["events"]]
            assert text == " ".join(foreseen)


def test_every_catalogue_is_read_when_the_app_is_made(client: Any) -> None:
    """Before gunicorn forks its workers from the preloaded app: no answer reads a catalogue."""
    from service.games.core.language import _translations
    files = sorted((Path(__file__).resolve().parents[2] / "service").glob("**/locales/*/LC_MESSAGES/*.po"))
    assert len(files) >= 3 * len(GAMES)  # each game's messages, rules and pages, at least
    before = _translations.cache_info()
    for po_file in files:
        _translations(po_file, po_file.parent.parent.name)
    assert _translations.cache_info().misses == before.misses  # all read already
