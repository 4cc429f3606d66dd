"""Keep every game's message catalogues in step with what it says, with Babel's catalogue tools.

    python tools/messages.py extract          # write each game's templates (locales/<domain>.pot) from its sources
    python tools/messages.py update           # bring each language's .po in step: new entries empty, changed ones
                                              # fuzzy (never said until translated again), gone ones dropped
    python tools/messages.py check            # exit 1 when a template is stale or an entry is missing, empty,
                                              # fuzzy or says other parameters than the English (what a test runs)

Domains, for every registered game (service/games/registry.py), in `service/games/<game>/locales/`:
- `rules`: the rule catalogue's words (rule_book.json and rulings.toml): each section, title and text, its context
  the rule's id (`C-COMP-2 text`).
The English text is each entry's id; the other languages (service.games.core.language.LANGUAGES) have a `.po` each:
`locales/<language>/LC_MESSAGES/<domain>.po`, translated by people, with the game's glossary
(`locales/<language>/glossary.toml`) beside it so that the same thing is always called the same.

Adding a language: add it to LANGUAGES, run `update` (every entry of the new `.po` files is empty), translate them,
and `check` passes.
"""
from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.games.core.catalogue import DOMAIN as RULES  # noqa: E402
from service.games.core.game import Game  # noqa: E402
from service.games.core.language import DEFAULT, LANGUAGES  # noqa: E402
from service.games.registry import GAMES  # noqa: E402

PARAMETER = re.compile(r"\{[a-z_]+\}")  # a parameter of an entry: `{player}`
PROJECT = "tower-referee"
ABOUT = {RULES: "the rule catalogue's words"}


def _catalog(game: Game, domain: str, language: str | None = None) -> Catalog:
    said = f"{game.info.title}: {ABOUT[domain]}"
    return Catalog(locale=language, domain=domain, project=PROJECT, version=game.info.rules_version, fuzzy=False,
                   header_comment=f"# {said}" + (f" ({language})" if language else ", the template") + ".\n"
                                  "# Kept in step with the sources by tools/messages.py; translated by people, with "
                                  "the glossary beside it.",
                   copyright_holder=PROJECT, msgid_bugs_address=f"the {PROJECT} project",
                   last_translator=f"the {PROJECT} project",
                   language_team=f"{language or 'every language'} <the {PROJECT} project>")


def templates(game: Game) -> dict[str, Catalog]:
    """Each domain's template for one game: its entries (id, context) in the order the sources give them."""
    rules = _catalog(game, RULES)
    for rule in game.rule_book:
        for context, text in rule.entries():
            rules.add(text, context=context)
    return {RULES: rules}


def _written(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=116, omit_header=False, sort_output=False, ignore_obsolete=True,
             include_previous=False)
    # the header's dates (and Babel's version) would make every extraction a change
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date|Generated-By): [^"]*\\n"\n', b"", out.getvalue())


def _read(path: Path, language: str | None = None) -> Catalog:
    with open(path, "rb") as file:
        return read_po(file, locale=language)


def _entries(catalog: Catalog) -> list[tuple[object, str | None]]:
    return [(message.id, message.context) for message in catalog if message.id]


def locales(game: Game) -> Path:
    return game.catalogues.folder


def extract() -> list[Path]:
    """Write every template; the paths that changed."""
    changed = []
    for game in GAMES.values():
        for domain, catalog in templates(game).items():
            path = locales(game) / f"{domain}.pot"
            text = _written(catalog)
            if not path.is_file() or path.read_bytes() != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(text)
                changed.append(path)
    return changed


def update() -> list[Path]:
    """Bring every language's catalogue in step with its template; the paths written."""
    written = []
    for game in GAMES.values():
        for domain, template in templates(game).items():
            for language in LANGUAGES:
                if language == DEFAULT:
                    continue
                path = game.catalogues.po_file(language, domain)
                if path.is_file():
                    catalog = _read(path, language)
                    catalog.update(template, no_fuzzy_matching=True)
                else:
                    catalog = _catalog(game, domain, language)
                    catalog.update(template, no_fuzzy_matching=True)
                text = _written(catalog)
                if not path.is_file() or path.read_bytes() != text:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(text)
                    written.append(path)
    return written


def problems() -> list[str]:
    """Everything `check` refuses, one line each."""
    found = []
    for game in GAMES.values():
        for domain, template in templates(game).items():
            pot = locales(game) / f"{domain}.pot"
            if not pot.is_file() or _entries(_read(pot)) != _entries(template):  # the entries, whatever wrote them
                found.append(f"{pot.relative_to(ROOT)}: stale: run `python tools/messages.py extract`")
            for language in LANGUAGES:
                if language == DEFAULT:
                    continue
                path = game.catalogues.po_file(language, domain)
                if not path.is_file():
                    found.append(f"{path.relative_to(ROOT)}: missing: run `python tools/messages.py update`")
                    continue
                catalog = _read(path, language)
                where = path.relative_to(ROOT)
                for entry in template:
                    if not entry.id:
                        continue
                    said = catalog.get(entry.id, context=entry.context)
                    name = f"{where}: {entry.context or ''} {str(entry.id)[:50]!r}"
                    if said is None or said.fuzzy:
                        found.append(f"{name}: {'fuzzy' if said else 'missing'}")
                        continue
                    forms = said.string if isinstance(said.string, (list, tuple)) else [said.string]
                    if not all(forms):
                        found.append(f"{name}: untranslated")
                    elif entry.pluralizable and len(forms) != catalog.num_plurals:
                        found.append(f"{name}: {len(forms)} plural forms, not {catalog.num_plurals}")
                    ids = entry.id if isinstance(entry.id, (list, tuple)) else [entry.id]
                    wanted = set(PARAMETER.findall(" ".join(ids)))
                    if any(set(PARAMETER.findall(form)) != wanted for form in forms if form):
                        found.append(f"{name}: parameters other than {sorted(wanted)}")
                extra = {(m.id, m.context) for m in catalog if m.id} - {(m.id, m.context) for m in template if m.id}
                found += [f"{where}: {context} {str(id_)[:50]!r}: not in the template" for id_, context in extra]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["extract", "update", "check"])
    args = parser.parse_args(argv)
    if args.command == "extract":
        for path in extract():
            print(f"wrote {path.relative_to(ROOT)}")
    elif args.command == "update":
        for path in update():
            print(f"wrote {path.relative_to(ROOT)}")
    else:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
