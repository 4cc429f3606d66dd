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
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LANGUAGES = ("en", "fr", "de", "it")  # English first: the language of the catalogues' ids, and the default
DEFAULT = LANGUAGES[0]
LOCALES = "locales"


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

    def po_file(self, language: str, domain: str) -> Path:
        return self.folder / language / "LC_MESSAGES" / f"{domain}.po"

    def translations(self, language: str, domain: str) -> NullTranslations:
        return _translations(self.po_file(language, domain), language)

    def say(self, language: str, domain: str, text: str, *, context: str | None = None) -> str:
        """`text` (an entry's id, English) in `language`; with `context`, the entry of that context."""
        if language == DEFAULT:
            return text
        translations = self.translations(language, domain)
        return translations.pgettext(context, text) if context is not None else translations.gettext(text)


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


__all__ = ["DEFAULT", "LANGUAGES", "Catalogues", "language_of"]
