"""The referee's languages (service.games.core.language): every game's catalogues complete in every language, the
same parameters as the English, every plural form; each game's glossary kept (the same thing always called the
same); and what the library says in each language."""
from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from service.games.core.language import DEFAULT, LANGUAGES, language_of
from service.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
OTHER = [language for language in LANGUAGES if language != DEFAULT]


def _tool():
    spec = importlib.util.spec_from_file_location("messages_tool", ROOT / "tools" / "messages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_every_catalogue_is_complete_and_in_step_with_its_sources() -> None:
    """No template stale, no entry missing, empty, fuzzy, short of a plural form or saying other parameters."""
    assert _tool().problems() == []


def glossary(game_id: str, language: str) -> list[dict]:
    path = GAMES[game_id].catalogues.folder / language / "glossary.toml"
    with open(path, "rb") as file:
        return tomllib.load(file)["term"]


@pytest.mark.parametrize("language", OTHER)
@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_glossary_is_kept(game_id: str, language: str) -> None:
    """Wherever the English says a glossary's term, the translation says it as the glossary does (one of its
    forms): the same thing is always called the same."""
    terms = glossary(game_id, language)
    assert terms, "a glossary names the game's own words"
    tool = _tool()
    game = GAMES[game_id]
    broken = []
    for domain, template in tool.templates(game).items():
        translations = game.catalogues.translations(language, domain)
        for entry in template:
            if not entry.id:
                continue
            said = translations.pgettext(entry.context, entry.id) if entry.context else translations.gettext(entry.id)
            for term in terms:
                if re.search(rf"\b{re.escape(term['en'])}\b", entry.id, re.IGNORECASE) and \
                        not any(form.lower() in said.lower() for form in term["said"]):
                    broken.append(f"{entry.context}: {term['en']!r} not said as {term['said']}: {said[:80]!r}")
    assert broken == []


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_rules_are_said_in_every_language(game_id: str) -> None:
    """/rules' words in each language are the catalogue's, the ids and rulings as they are."""
    game = GAMES[game_id]
    english = game.rules()
    for language in OTHER:
        said = game.rules(language)
        assert [r["id"] for r in said] == [r["id"] for r in english]
        assert [r["ruling"] for r in said] == [r["ruling"] for r in english]
        changed = sum(a["text"] != b["text"] for a, b in zip(said, english))
        assert changed > len(english) * 0.9, f"{language}: most texts are translated"


@pytest.mark.parametrize(("asked", "said"), [
    ("fr", "fr"), ("fr-CA", "fr"), ("de_AT", "de"), ("IT", "it"), ("en-GB", "en"), ("pt", "en"), ("", "en"),
    (None, "en"), ("x" * 300, "en"),
])
def test_a_language_asked_by_name(asked: str | None, said: str) -> None:
    assert language_of(asked) == said
