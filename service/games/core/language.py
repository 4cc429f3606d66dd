"""The languages the referee speaks, and its sentences as data.

Every sentence for people is a catalogue entry (gettext `.po`, kept with Babel's tools) and its parameters, said in
a language only where it leaves the library: the library's calls take the language as a parameter (English by
default) and need no web server. A game's catalogues live in its folder, `locales/<language>/LC_MESSAGES/<domain>.po`
(the English text is the entry's id, so English needs no file); they are read with Babel, whose CLDR data gives
each language its plural forms (French: 0 and 1 are singular; German and Italian: only 1) and its way of writing
numbers and lists. `tools/messages.py` extracts the entries and keeps every catalogue in step with them.
"""
from __future__ import annotations

import io
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, wraps
from inspect import signature
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from babel.core import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LANGUAGES = ("en", "fr", "de", "it")  # English first: the language of the catalogues' ids, and the default
DEFAULT = LANGUAGES[0]
LOCALES = "locales"
MESSAGES = "messages"  # the domain of a folder's sentences (its Python sources' `tr` calls)
# The locale whose data writes a language's lists and numbers: English lists without the serial comma ("a, b and
# c"), as the service has always written them.
LOCALE_DATA = {"en": "en_GB"}
CACHED_COUNTS = 100  # a plural entry's sentence is kept for each count below this (a count may be any number)
MAKERS = {"tr": None, "tr_n": (1, 2), "tr_p": ((1, "c"), 2)}  # the calls that make messages, for Babel's extractor


# The language messages are made in now (`speaking`): each message is formatted once, in the language its answer
# is asked in, as gettext with an active language does; English outside any `speaking`.
_SPEAKING: ContextVar[str] = ContextVar("speaking", default=DEFAULT)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within it, messages are made in `language` (as a `str`, a message is its sentence there)."""
    token = _SPEAKING.set(language)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def speaks(method: Callable[..., Any]) -> Callable[..., Any]:
    """A method taking a `language` whose messages are made in that language (`speaking`), so that an answer in
    French formats each sentence once, in French, not in English first."""
    position = list(signature(method).parameters).index("language")

    @wraps(method)
    def in_language(*args: Any, **kwargs: Any) -> Any:
        language = kwargs.get("language", args[position] if len(args) > position else DEFAULT)
        if language == _SPEAKING.get():
            return method(*args, **kwargs)
        with speaking(language):
            return method(*args, **kwargs)
    return in_language


def language_of(asked: str | None) -> str:
    """One of LANGUAGES for a language asked by name (`fr`, `fr-CA`, `fr_CA`): its primary subtag; English for
    anything else."""
    primary = (asked or "").replace("_", "-").split("-")[0].strip().lower()
    return primary if primary in LANGUAGES else DEFAULT


class Catalogues:
    """The catalogues of one folder (`<folder>/locales/<language>/LC_MESSAGES/<domain>.po`), read once each.
    English, and a language or domain with no catalogue, say the ids themselves."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder) / LOCALES
        self._read: dict[tuple[str, str], NullTranslations] = {}  # (language, domain): what every message asks
        # (language, text, plural, count, context): the messages' sentences looked up, as gettext would each time;
        # bounded by the entries, the languages and the counts under CACHED_COUNTS
        self._templates: dict[tuple[str, str, str | None, int | None, str | None], str] = {}

    def po_file(self, language: str, domain: str) -> Path:
        return self.folder / language / "LC_MESSAGES" / f"{domain}.po"

    def translations(self, language: str, domain: str) -> NullTranslations:
        found = self._read.get((language, domain))
        if found is None:
            found = self._read[language, domain] = _translations(self.po_file(language, domain), language)
        return found

    def sentence(self, language: str, text: str, plural: str | None = None, count: int | None = None,
                 context: str | None = None) -> str:
        """A `messages` entry's sentence in `language` (not English), its parameters not yet said; for a plural
        entry, its form for `count`. Looked up once per language, entry (and small count): every answer in that
        language says the same entries again."""
        key = (language, text, plural, count, context)
        found = self._templates.get(key)
        if found is None:
            translations = self.translations(language, MESSAGES)
            if plural is None:
                found = translations.gettext(text) if context is None else translations.pgettext(context, text)
            else:
                found = (translations.ngettext(text, plural, count) if context is None
                         else translations.npgettext(context, text, plural, count))
            if count is None or 0 <= count < CACHED_COUNTS:
                self._templates[key] = found
        return found

    @classmethod
    def of(cls, module_file: str) -> "Catalogues":
        """The catalogues of the folder of a module (`Catalogues.of(__file__)`)."""
        return cls(Path(module_file).parent)

    def makers(self) -> tuple[Callable[..., "Message"], Callable[..., "Message"], Callable[..., "Message"]]:
        """This folder's `tr(text, **parameters)`, `tr_n(singular, plural, count, **parameters)` and
        `tr_p(context, text, **parameters)`: the messages of its `messages` catalogues (the names Babel's extractor
        looks for, MAKERS)."""
        def tr(text: str, **parameters: Any) -> Message:
            return Message(self, text, parameters)

        def tr_n(singular: str, plural: str, count: int, **parameters: Any) -> Message:
            return Message(self, singular, {"count": count, **parameters}, plural=plural)

        def tr_p(context: str, text: str, **parameters: Any) -> Message:
            return Message(self, text, parameters, context=context)
        return tr, tr_n, tr_p

    def say(self, language: str, domain: str, text: str, *, context: str | None = None) -> str:
        """`text` (an entry's id, English) in `language`; with `context`, the entry of that context."""
        if language == DEFAULT:
            return text
        translations = self.translations(language, domain)
        return translations.pgettext(context, text) if context is not None else translations.gettext(text)


class Listed(tuple):
    """A parameter that is a list, written the language's way (`a, b and c`, `a, b et c`); `style` "or" for
    alternatives (`a, b or c`). Its items may be messages."""

    style = "standard"

    def __new__(cls, items: Iterable[Any], style: str = "standard") -> "Listed":
        listed = super().__new__(cls, items)
        listed.style = style
        return listed


class Message(str):
    """A sentence for people, as data: an entry of a folder's `messages` catalogue (its English text, with `{name}`
    parameters; for a count, its plural too; perhaps a context) and its parameters. As a `str` it is the sentence in
    the language it was made in: English, or the language `speaking` names (so that an answer's sentences are
    formatted once, in its language), and the library reads as it always has; `said(language)` is the sentence in
    any language, its parameters said the same way (numbers and lists the locale's way, messages in the same
    language).

    Entries are written where the game says them, with its folder's `tr`, `tr_n` and `tr_p` (Catalogues.makers),
    so that Babel's extractor finds them (tools/messages.py)."""

    catalogues: Catalogues
    text: str
    parameters: dict[str, Any]
    plural: str | None
    context: str | None
    language: str  # the language of the message as a `str`

    def __new__(cls, catalogues: Catalogues, text: str, parameters: dict[str, Any], *, plural: str | None = None,
                context: str | None = None, language: str | None = None) -> "Message":
        language = language or _SPEAKING.get()
        if language == DEFAULT:
            sentence = text if plural is None or parameters["count"] == 1 else plural
        else:
            count = None if plural is None else parameters["count"]
            sentence = catalogues.sentence(language, text, plural, count, context)
        message = super().__new__(cls, _formatted(sentence, parameters, language) if parameters else sentence)
        message.catalogues, message.text, message.parameters = catalogues, text, parameters
        message.plural, message.context, message.language = plural, context, language
        return message

    def said(self, language: str = DEFAULT) -> str:
        """The sentence in `language`."""
        if language == self.language:
            return str.__str__(self)
        if language == DEFAULT:
            template = self.text if self.plural is None or self.parameters["count"] == 1 else self.plural
        else:
            count = None if self.plural is None else self.parameters["count"]
            template = self.catalogues.sentence(language, self.text, self.plural, count, self.context)
        return _formatted(template, self.parameters, language) if self.parameters else template

    def __reduce__(self) -> tuple:  # pickled (a process pool) as what it is, not as a plain str
        return (_message, (self.catalogues.folder.parent, self.text, self.parameters, self.plural, self.context,
                           self.language))


def _message(folder: Path, text: str, parameters: dict, plural: str | None, context: str | None,
             language: str = DEFAULT) -> Message:
    return Message(Catalogues(folder), text, parameters, plural=plural, context=context, language=language)


def said(text: str, language: str = DEFAULT) -> str:
    """Any text for people in `language`: a message said there, a plain text (a name, an id) as it is."""
    return text.said(language) if isinstance(text, Message) else text


def _formatted(template: str, parameters: dict[str, Any], language: str) -> str:
    return template.format_map({name: _parameter(value, language) for name, value in parameters.items()})


def _parameter(value: Any, language: str) -> str:
    """One parameter in `language`: a message said there; a whole number the locale's way (`1 234`); a list
    the locale's way; anything else (a name, a card's rank, an id) as it is."""
    if type(value) is str:  # a name, an id: the most common parameter
        return value
    if isinstance(value, Message):
        return value.said(language)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value) if 0 <= value < 1000 else format_decimal(value, locale=_locale(language))
    if isinstance(value, float):
        return format_decimal(value, locale=_locale(language))
    if isinstance(value, Listed):
        return format_list([_parameter(item, language) for item in value], style=value.style,
                           locale=_locale(language))
    return str(value)


@cache
def _locale(language: str) -> Locale:
    """The CLDR data a language's numbers and lists are written with, read once (Babel parses a name each time)."""
    return Locale.parse(LOCALE_DATA.get(language, language))


def read_catalogues(root: Path | str) -> int:
    """Every catalogue under `root` (each `locales/<language>/LC_MESSAGES/<domain>.po`) read now, once per process:
    the first answer in a language then does not pay for reading it, and a server's workers forked from a preloaded
    app share them. How many were read."""
    files = sorted(Path(root).glob(f"**/{LOCALES}/*/LC_MESSAGES/*.po"))
    for po_file in files:
        _translations(po_file, po_file.parent.parent.name)
    return len(files)


@cache
def _translations(po_file: Path, language: str) -> NullTranslations:
    """A `.po` file compiled in memory (no `.mo` files to build or ship), with its language's plural rules."""
    if not po_file.is_file():
        return NullTranslations()
    with open(po_file, "rb") as file:
        catalog = read_po(file, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: a stale translation is never said
    compiled.seek(0)
    return Translations(compiled)


__all__ = ["DEFAULT", "LANGUAGES", "MAKERS", "MESSAGES", "Catalogues", "Listed", "Message", "language_of",
           "read_catalogues", "said", "speaking", "speaks"]
