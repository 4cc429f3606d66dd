"""What the harness and the language tests hold every sentence to: a sentence for people is a catalogue entry
(service.games.core.language.Message) of its folder, translated in every language the service speaks, and said
there without error, its parameters too (messages in them, and the items of a list)."""
from __future__ import annotations

from functools import cache
from typing import Any

from service.games.core.language import DEFAULT, LANGUAGES, MESSAGES, Listed, Message


@cache
def _entries(folder: str, language: str) -> frozenset:
    """The keys of a folder's compiled catalogue in `language` (gettext's: `msgid`, `context\\x04msgid`, and
    `(msgid, n)` for a plural's forms)."""
    from pathlib import Path

    from service.games.core.language import Catalogues
    translations = Catalogues(Path(folder)).translations(language, MESSAGES)
    return frozenset(getattr(translations, "_catalog", {}))


def _key(message: Message) -> Any:
    text = message.text if message.context is None else f"{message.context}\x04{message.text}"
    return (text, 0) if message.plural is not None else text


def unsaid(text: Any, where: str = "") -> list[str]:
    """Why `text` is not a sentence said in every language (empty: it is). A plain str at the top is one (a name or
    an id is a plain str only as a parameter)."""
    if not isinstance(text, Message):
        return [f"{where}not a catalogue entry: {text!r}"]
    found = []
    folder = str(text.catalogues.folder.parent)
    for language in LANGUAGES:
        if language == DEFAULT:
            continue
        if _key(text) not in _entries(folder, language):
            found.append(f"{where}{text.text!r} ({folder}) has no {language} entry")
            continue
        try:
            text.said(language)
        except Exception as error:  # noqa: BLE001 - any failure to say it is the finding
            found.append(f"{where}{text.text!r} cannot be said in {language}: {type(error).__name__}: {error}")
    for name, value in text.parameters.items():
        found += _parameter(value, f"{where}{text.text[:30]!r} {{{name}}}: ")
    return found


def _parameter(value: Any, where: str) -> list[str]:
    if isinstance(value, Message):
        return unsaid(value, where)
    if isinstance(value, Listed):
        return [problem for item in value for problem in _parameter(item, where)]
    return []


def assert_said(text: Any, where: str = "") -> None:
    found = unsaid(text, where)
    assert not found, "\n".join(found)
