"""The referee's languages (service.games.core.language): every game's catalogues complete in every language, the
same parameters as the English, every plural form; each game's glossary kept (the same thing always called the
same); and what the library says in each language."""
from __future__ import annotations

import importlib.util
import re
import sys
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
    sys.modules[spec.name] = module  # its dataclasses look their module up while they are made
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
    (folder,) = tool.folders(game_id)
    for domain, template in tool.templates(folder).items():
        catalog = tool._read(game.catalogues.po_file(language, domain), language)
        for entry in template:
            if not entry.id:
                continue
            english = " ".join(entry.id) if isinstance(entry.id, tuple) else entry.id
            english = re.sub(r"\{[a-z_]+\}", " ", english)  # a parameter's name is no word of the sentence
            found = catalog.get(entry.id, context=entry.context)
            said = " ".join(found.string) if isinstance(found.string, tuple) else found.string
            for term in terms:
                if re.search(rf"\b{re.escape(term['en'])}\b", english, re.IGNORECASE) and \
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


# ---------------------------------------------------------------- messages: sentences as data

def _makers():
    from service.games.core.language import Catalogues
    return Catalogues(ROOT / "service" / "games" / "core").makers()


def test_a_message_is_its_english_sentence_and_says_itself_in_each_language() -> None:
    from service.games.core.narration import winners_said
    said = winners_said(["Ada", "Bea", "Cy"], [0, 2])
    assert said == "Ada and Cy share the win."  # as a str: the English the library always said
    assert said.said("fr") == "Ada et Cy se partagent la victoire."
    assert said.said("de") == "Ada und Cy teilen sich den Sieg."
    assert said.said("it") == "Ada e Cy condividono la vittoria."


@pytest.mark.parametrize(("count", "fr", "de"), [
    (0, "0 nom pour 3 joueurs.", "0 Namen für 3 Spieler."),  # French: 0 is singular, German: plural
    (1, "1 nom pour 3 joueurs.", "1 Name für 3 Spieler."),
    (2, "2 noms pour 3 joueurs.", "2 Namen für 3 Spieler."),
    (1500, "1\u202f500 noms pour 3 joueurs.", "1.500 Namen für 3 Spieler."),  # numbers the locale's way
])
def test_plural_forms_and_numbers_follow_each_language(count: int, fr: str, de: str) -> None:
    tr, tr_n, _ = _makers()
    message = tr_n("{count} name for {players} players.", "{count} names for {players} players.", count, players=3)
    assert message.said("fr") == fr and message.said("de") == de
    assert str(message) == f"{count:,} name{'s' if count != 1 else ''} for 3 players."


def test_lists_are_written_the_languages_way() -> None:
    from service.games.core.language import Listed
    tr, _, _ = _makers()
    message = tr("{players} share the win.", players=Listed(["Ada", "Bea", "Cy"]))
    assert message == "Ada, Bea and Cy share the win."
    assert message.said("fr") == "Ada, Bea et Cy se partagent la victoire."
    assert message.said("it") == "Ada, Bea e Cy condividono la vittoria."


def test_a_message_crosses_a_process_boundary_as_itself() -> None:
    import pickle

    from service.games.core.language import Message
    tr, _, _ = _makers()
    message = tr("{player} wins.", player="Ada")
    back = pickle.loads(pickle.dumps(message))
    assert isinstance(back, Message) and back == message and back.said("de") == "Ada gewinnt."


def test_a_message_made_while_speaking_a_language_is_its_sentence_there() -> None:
    """An answer in French makes its messages in French (each formatted once); they still say every language, and
    a nested message, a plural and a pickled copy keep to the language they were made in."""
    import pickle

    from service.games.core.language import Listed, speaking
    tr, tr_n, _ = _makers()
    with speaking("fr"):
        message = tr("{players} share the win.", players=Listed([tr("{player} wins.", player="Ada"), "Bea"]))
        counted = tr_n("{count} name for {players} players.", "{count} names for {players} players.", 0, players=3)
    assert message == "Ada gagne. et Bea se partagent la victoire." and message.language == "fr"
    assert message.said("en") == "Ada wins. and Bea share the win."
    assert message.said("de") == "Ada gewinnt. und Bea teilen sich den Sieg."
    assert counted == "0 nom pour 3 joueurs." and counted.said("en") == "0 names for 3 players."
    assert pickle.loads(pickle.dumps(counted)) == "0 nom pour 3 joueurs."
    assert tr("{player} wins.", player="Ada") == "Ada wins."  # outside it, English again


def test_a_game_speaks_a_language_for_one_call_only() -> None:
    """`Game.apply(..., language="fr")` answers in French, and the next call in English is English again."""
    game = GAMES["campanile"]
    start = game.new({"seed": 3, "names": ["Ada", "Bea"]})["state"]
    moves = game.legal_moves({"state": start})["moves"][:1]
    french = game.apply({"state": start, "moves": moves}, replay=True, language="fr")
    english = game.apply({"state": start, "moves": moves}, replay=True)
    assert [e["text"] for e in french["events"]] != [e["text"] for e in english["events"]]
    again = game.apply({"state": start, "moves": moves}, replay=True, language="en")
    assert again == english


def test_marshmallow_s_messages_are_entries_with_their_parameters() -> None:
    from service.wire.messages import translatable
    from tests.words import unsaid
    said = translatable("Must be greater than or equal to 0 and less than or equal to 4.")
    assert unsaid(said) == [] and said.said("fr") == "Doit être compris entre 0 et 4 inclus."
    assert translatable("Missing data for required field.").said("it") == "Questo campo è obbligatorio."
    assert translatable("Missing data for required field.") == "This field is required."
    assert unsaid(translatable("Something marshmallow never said.")) != []


@pytest.mark.parametrize(("environ", "said"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "de_AT.UTF-8", "LC_ALL": "it_IT.UTF-8"}, "it"),
    ({"LANGUAGE": "de:fr", "LANG": "fr_FR.UTF-8"}, "de"), ({"LANG": "C.UTF-8"}, "en"), ({}, "en"),
    ({"LANG": "pt_BR.UTF-8"}, "en"),
])
def test_the_command_line_speaks_the_environment_s_language(environ: dict, said: str) -> None:
    from service.__main__ import spoken_language
    assert spoken_language(environ) == said
