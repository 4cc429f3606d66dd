"""Keep every game's message catalogues in step with what it says, with Babel's catalogue tools.

    python tools/messages.py extract          # write each game's templates (locales/<domain>.pot) from its sources
    python tools/messages.py update           # bring each language's .po in step: new entries empty, changed ones
                                              # fuzzy (never said until translated again), gone ones dropped
    python tools/messages.py check            # exit 1 when a template is stale or an entry is missing, empty,
                                              # fuzzy or says other parameters than the English (what a test runs)
    python tools/messages.py update --only api --domain pages   # one folder's, one domain's catalogues

Every folder that says something has its catalogues in `<folder>/locales/`: each registered game's folder
(service/games/registry.py), the games' shared core (service/games/core), the wire kit (service/wire), the web
service (service/api) and the command line (service). Domains:
- `messages`: the sentences of the folder's Python modules, each a `tr`, `tr_n` or `tr_p` call
  (service.games.core.language.Catalogues.makers), read with Babel's Python extractor;
- `rules` (a game's): the rule catalogue's words (rule_book.json and rulings.toml): each section, title and text,
  its context the rule's id (`C-COMP-2 text`);
- `pages` (the web service's and each game's): the words of the referee's pages, each a `t`, `tn`, `tp` or `N_`
  call (service.api.referee.MAKERS): the web service's page templates (`templates/**/*.html`, read with Jinja's
  extractor) and scripts (`static/**/*.js`, Babel's JavaScript extractor); a game's editor's scripts (its
  `referee/*.js`).
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

from dataclasses import dataclass
from typing import Any, Callable

from babel.messages.catalog import Catalog
from babel.messages.extract import extract as extract_from
from babel.messages.pofile import read_po, write_po
from jinja2.ext import babel_extract as jinja_extractor

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.games.core.catalogue import DOMAIN as RULES  # noqa: E402
from service.games.core.game import Game  # noqa: E402
from service.games.core.language import DEFAULT, LANGUAGES, MAKERS, MESSAGES, Catalogues  # noqa: E402
from service.games.registry import GAMES  # noqa: E402
from service.api.referee import DOMAIN as PAGES, MAKERS as PAGE_MAKERS, sources as page_sources  # noqa: E402

PARAMETER = re.compile(r"\{[a-z_]+\}")  # a parameter of an entry: `{player}`
PROJECT = "tower-referee"
ABOUT = {RULES: "the rule catalogue's words", MESSAGES: "its sentences", PAGES: "the words of its pages"}
COMMENT_TAGS = ("Translators:",)  # a comment so tagged, just above a message, is a note for its translators


@dataclass(frozen=True)
class Folder:
    """A folder that says something: its name in the catalogues' headers, its version, its catalogues and what
    each of its domains' templates is made from."""

    title: str
    version: str
    catalogues: Catalogues
    sources: dict[str, Callable[[], Catalog | None]]

    @property
    def path(self) -> Path:
        return self.catalogues.folder.parent


def folders(only: str | None = None) -> list[Folder]:
    """Every folder with catalogues: the shared ones, then each registered game's; `only`: the one of that name
    (`campanile`, `core`, `wire`, `api`)."""
    return [folder for folder in _folders() if only is None or folder.path.name == only]


def _folders() -> list[Folder]:
    found = []
    for title, path in (("The games' core", ROOT / "service/games/core"), ("The wire kit", ROOT / "service/wire"),
                        ("The web service", ROOT / "service/api"), ("The command line", ROOT / "service")):
        folder = Folder(title, "1", Catalogues(path), {})
        folder.sources[MESSAGES] = lambda folder=folder: _sentences(folder)
        folder.sources[PAGES] = lambda folder=folder: _page_words(folder)
        found.append(folder)
    for game in GAMES.values():
        folder = Folder(game.info.title, game.info.rules_version, game.catalogues, {})
        folder.sources[MESSAGES] = lambda folder=folder: _sentences(folder)
        folder.sources[RULES] = lambda folder=folder, game=game: _rules(folder, game)
        folder.sources[PAGES] = lambda folder=folder: _page_words(folder)
        found.append(folder)
    return found


def _catalog(folder: Folder, domain: str, language: str | None = None) -> Catalog:
    said = f"{folder.title}: {ABOUT[domain]}"
    return Catalog(locale=language, domain=domain, project=PROJECT, version=folder.version, fuzzy=False,
                   header_comment=f"# {said}" + (f" ({language})" if language else ", the template") + ".\n"
                                  "# Kept in step with the sources by tools/messages.py; translated by people, with "
                                  "the glossary beside it.",
                   copyright_holder=PROJECT, msgid_bugs_address=f"the {PROJECT} project",
                   last_translator=f"the {PROJECT} project",
                   language_team=f"{language or 'every language'} <the {PROJECT} project>")


def _rules(folder: Folder, game: Game) -> Catalog:
    rules = _catalog(folder, RULES)
    for rule in game.rule_book:
        for context, text in rule.entries():
            rules.add(text, context=context)
    return rules


def _sentences(folder: Folder) -> Catalog | None:
    """The `tr` calls of the folder's modules, in the order of the files (by name) and of their lines; None for a
    folder that says nothing."""
    catalog = _catalog(folder, MESSAGES)
    for path in sorted(folder.path.glob("*.py")):
        _extracted(catalog, path, "python", MAKERS)
    return catalog if len(catalog) else None


def _extracted(catalog: Catalog, path: Path, method: Any, keywords: dict) -> None:
    """Add the entries Babel's extractor (`method`) finds in a file to `catalog`, each with where it stands and
    its translators' comments; an entry said in several places is one entry."""
    with open(path, "rb") as file:
        for line, text, comments, context in extract_from(method, file, keywords=keywords,
                                                           comment_tags=COMMENT_TAGS, strip_comment_tags=True):
            where = (path.relative_to(ROOT).as_posix(), line)
            known = catalog.get(text, context=context)
            if known is not None:
                known.locations.append(where)
                known.auto_comments.extend(c for c in comments if c not in known.auto_comments)
            else:
                catalog.add(text, locations=[where], auto_comments=comments, context=context)


def _page_words(folder: Folder) -> Catalog | None:
    """The words of the folder's pages (service.api.referee.sources: the web service's templates and scripts, a
    game's editor), in the order of the files and of their lines; None for a folder whose pages say nothing."""
    catalog = _catalog(folder, PAGES)
    for path in page_sources(folder.path):
        _extracted(catalog, path, jinja_extractor if path.suffix == ".html" else "javascript", PAGE_MAKERS)
    return catalog if len(catalog) else None


def templates(folder: Folder, only: str | None = None) -> dict[str, Catalog]:
    """Each domain's template for one folder: its entries (id, context) in the order the sources give them."""
    made = {domain: source() for domain, source in folder.sources.items() if only is None or domain == only}
    return {domain: catalog for domain, catalog in made.items() if catalog is not None}


def _written(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=116, omit_header=False, sort_output=False, ignore_obsolete=True,
             include_previous=False, include_lineno=False)
    # the header's dates (and Babel's version) would make every extraction a change
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date|Generated-By): [^"]*\\n"\n', b"", out.getvalue())


def _read(path: Path, language: str | None = None) -> Catalog:
    with open(path, "rb") as file:
        return read_po(file, locale=language)


def _entries(catalog: Catalog) -> list[tuple[object, str | None]]:
    return [(message.id, message.context) for message in catalog if message.id]


def locales(folder: Folder) -> Path:
    return folder.catalogues.folder


def extract(only: str | None = None, kind: str | None = None) -> list[Path]:
    """Write every template; the paths that changed."""
    changed = []
    for folder in folders(only):
        for domain, catalog in templates(folder, kind).items():
            path = locales(folder) / f"{domain}.pot"
            text = _written(catalog)
            if not path.is_file() or path.read_bytes() != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(text)
                changed.append(path)
    return changed


def update(only: str | None = None, kind: str | None = None) -> list[Path]:
    """Bring every language's catalogue in step with its template; the paths written."""
    written = []
    for folder in folders(only):
        for domain, template in templates(folder, kind).items():
            for language in LANGUAGES:
                if language == DEFAULT:
                    continue
                path = folder.catalogues.po_file(language, domain)
                if path.is_file():
                    catalog = _read(path, language)
                    catalog.update(template, no_fuzzy_matching=True)
                else:
                    catalog = _catalog(folder, domain, language)
                    catalog.update(template, no_fuzzy_matching=True)
                text = _written(catalog)
                if not path.is_file() or path.read_bytes() != text:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(text)
                    written.append(path)
    return written


def problems(only: str | None = None, kind: str | None = None) -> list[str]:
    """Everything `check` refuses, one line each."""
    found = []
    for folder in folders(only):
        for domain, template in templates(folder, kind).items():
            pot = locales(folder) / f"{domain}.pot"
            if not pot.is_file() or _entries(_read(pot)) != _entries(template):  # the entries, whatever wrote them
                found.append(f"{pot.relative_to(ROOT)}: stale: run `python tools/messages.py extract`")
            for language in LANGUAGES:
                if language == DEFAULT:
                    continue
                path = folder.catalogues.po_file(language, domain)
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
    parser.add_argument("--only", metavar="FOLDER", help="one folder's catalogues: a game's id, core, wire, api or service")
    parser.add_argument("--domain", help="one domain's catalogues: messages, rules or pages")
    args = parser.parse_args(argv)
    if args.command == "extract":
        for path in extract(args.only, args.domain):
            print(f"wrote {path.relative_to(ROOT)}")
    elif args.command == "update":
        for path in update(args.only, args.domain):
            print(f"wrote {path.relative_to(ROOT)}")
    else:
        found = problems(args.only, args.domain)
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
