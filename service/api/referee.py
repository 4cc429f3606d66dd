"""The referee page: GET /referee, where a person transcribes a finished table of any game from a photo and
scores it.

The page's shell (game chooser, result panel, shareable link, JSON copy, picture download, announcements) is plain
HTML, CSS and JavaScript: the HTML a template (`templates/pages/referee.html`), the rest served from
`static/referee/`. Each game's editor ships inside the game's own package, in the folder its `Game` names as
`editor` (an `editor.js` ES module, optionally `editor.css`); it is served here under `/referee/<game>/`.
`GET /referee/games.json` lists the games the page offers, from the registry. No CDN, no build step, works offline;
every call is to the public API with relative URLs, so the page works wherever the service is mounted.

The pages speak the language chosen as the API does (`?lang=`, else Accept-Language: service.api.language.chosen).
Their words are the `pages` domain of gettext catalogues (English is each entry's id): the web service's
(`service/api/locales/<language>/LC_MESSAGES/pages.po`) for the shell and the replay page, each game's for its
editor. The templates say theirs with `t`, `tn` and `tp` when they are rendered; the scripts say theirs with
functions of the same names (static/referee/words.js), given the catalogue as JSON: the page's own in a JSON data
block of the page (`<script type="application/json" id="page-words">`: no inline script, the policy holds), an
editor's from `GET /referee/<game>/messages.json?lang=…`. With each catalogue come its language's plural categories
in the order of the catalogue's plural forms (CLDR's, as Babel writes them: zero, one, two, few, many, other among
the language's own), which the browser's `Intl.PluralRules` picks from. tools/messages.py extracts the entries
(MAKERS: the calls that make them) and checks every translation.
"""
from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterable

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from flask import Blueprint, Response, abort, jsonify, render_template, request, send_from_directory
from markupsafe import Markup, escape

from ..games.core.game import Capability
from ..games.core.language import DEFAULT, Catalogues
from ..games.registry import GAMES
from .language import OVERRIDE, choices, chosen, spoken

STATIC = Path(__file__).resolve().parent / "static" / "referee"
# Everything comes from this origin; pictures are inline SVG built from the API's answers.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'")
EDITOR = "editor.js"
EDITOR_STYLE = "editor.css"
BOARD = "board.js"  # the game played by pointing on /play: its board, drawn as the editor draws it
WORDS = "messages.json"  # an editor's catalogue, beside its files: /referee/<game>/messages.json?lang=…

DOMAIN = "pages"  # the catalogues' domain of the pages' words
# The calls that make the pages' entries, for Babel's extractors (JavaScript; Jinja): `t(text, {name})`,
# `tn(singular, plural, count, {name})`, `tp(context, text, {name})`, and `N_(text)`, which only marks a text said
# later with `t` (a table of labels at the top of a module)
MAKERS = {"t": None, "tn": (1, 2), "tp": ((1, "c"), 2), "N_": None}
PLURAL_ORDER = ("zero", "one", "two", "few", "many", "other")  # the order of gettext's forms, as Babel writes them
SHELL = Catalogues(Path(__file__).resolve().parent)  # the web service's catalogues: the shell's and replay's words

referee_blp = Blueprint("referee", __name__, static_folder=str(STATIC), static_url_path="/referee/assets",
                        template_folder="templates")


def editor_folder(game_id: str) -> Path | None:
    """The folder of a registered game's editor files, or None when the game offers none."""
    game = GAMES.get(game_id)
    if game is None or not game.offers(Capability.EDITOR) or not game.editor:
        return None
    package = Path(sys.modules[type(game).__module__].__file__ or "").resolve().parent
    folder = package / game.editor
    return folder if (folder / EDITOR).is_file() else None


def strict(response: Response) -> Response:
    """The referee pages' policy (everything from this origin), and never a stale page."""
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


# ------------------------------------------------------------------ the pages' words


def plural_categories(language: str) -> list[str]:
    """The CLDR plural categories of a language in the order of its gettext plural forms (Babel's: zero, one, two,
    few, many, other among the language's own, `other` always last): French ["one", "many", "other"]."""
    rule = Locale.parse(language).plural_form
    return [tag for tag in PLURAL_ORDER if tag in rule.tags or tag == "other"]


@cache
def catalogue_json(folder: Path, language: str, only: tuple[str, ...] = ()) -> dict[str, Any]:
    """A folder's `pages` catalogue in `language` as the browser takes it: {"lang", "plurals", "messages"}, each
    message by its id (`context\\u0004id` with a context; a plural by its singular) to its translation (a plural:
    its forms, in the order of `plurals`). Fuzzy and untranslated entries are left out: the page says the English.
    `only`: the entries used in files whose names end so (the scripts' entries, not the template's)."""
    messages: dict[str, Any] = {}
    po_file = Catalogues(folder).po_file(language, DOMAIN)
    if language != DEFAULT and po_file.is_file():
        with open(po_file, "rb") as file:
            catalog = read_po(file, locale=language)
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            if only and not any(path.endswith(only) for path, _ in message.locations):
                continue
            forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
            if not all(forms):
                continue
            singular = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            key = f"{message.context}\u0004{singular}" if message.context else singular
            messages[key] = forms if message.pluralizable else forms[0]
    return {"lang": language, "plurals": plural_categories(language), "messages": messages}


def _value(value: Any, language: str) -> Any:
    """A parameter as a page says it: markup as it is, a whole number the locale's way, anything else as text."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 1000:
        return format_decimal(value, locale="en_GB" if language == DEFAULT else language)
    return value


def template_makers(catalogues: Catalogues, language: str) -> dict[str, Callable[..., Markup]]:
    """A template's `t`, `tn` and `tp` in `language`: the entry's translation, escaped, its `{parameters}` filled
    in (escaped, unless they are Markup: `<code>` in a sentence)."""
    translations = catalogues.translations(language, DOMAIN)

    def filled(template: str, parameters: dict[str, Any]) -> Markup:
        text = escape(template)
        return text.format(**{k: _value(v, language) for k, v in parameters.items()}) if parameters else text

    def t(text: str, **parameters: Any) -> Markup:
        return filled(translations.gettext(text), parameters)

    def tn(singular: str, plural: str, count: int, **parameters: Any) -> Markup:
        return filled(translations.ngettext(singular, plural, count), {"count": count, **parameters})

    def tp(context: str, text: str, **parameters: Any) -> Markup:
        return filled(translations.pgettext(context, text), parameters)
    return {"t": t, "tn": tn, "tp": tp}


def page(template: str, **values: Any) -> Response:
    """A page in the language the request chose: `<html lang>`, its words, the script's catalogue as a JSON data
    block, the language picker; saying its language (Content-Language, Vary: Accept-Language)."""
    language = chosen(request.args, request.headers.get("Accept-Language"))
    explicit = bool(request.args.get(OVERRIDE))  # a link that names the language keeps naming it
    words = dict(catalogue_json(SHELL.folder.parent, language, only=(".js",)))
    words["explicit"] = explicit
    html = render_template(
        template, lang=language, words=words, code=lambda text: Markup("<code>{}</code>").format(text),
        query=f"?{OVERRIDE}={language}" if explicit else "",
        root="../" * request.path.strip("/").count("/"),  # relative: the pages work wherever they are mounted
        languages=choices(),
        **template_makers(SHELL, language), **values)
    return spoken(strict(Response(html, mimetype="text/html")), language)


def sources(folder: Path) -> Iterable[Path]:
    """The files whose words are a folder's `pages` entries: its templates and its scripts (the web service's),
    or its editor's scripts (a game's)."""
    found = sorted((folder / "templates").rglob("*.html")) + sorted((folder / "static").rglob("*.js"))
    for game_id, game in GAMES.items():
        editor = editor_folder(game_id)
        if editor is not None and editor.parent == folder:
            found += sorted(editor.rglob("*.js"))
    return found


# ------------------------------------------------------------------ the routes


@referee_blp.route("/referee", methods=["GET"])
def referee_page() -> Response:
    """The page itself, in the language chosen."""
    return page("pages/referee.html")


@referee_blp.route("/referee/games.json", methods=["GET"])
def referee_games() -> Response:
    """Every registered game, in the registry's order: id, title, rules version, where its editor is (null for a
    game without one: the scoring page offers only the games with an editor, the replay page replays them all),
    whether /picture exists, its variants, where its board for /play is (null: played by its picture and its steps
    in words)."""
    listed = []
    for game_id, game in GAMES.items():
        folder = editor_folder(game_id)
        listed.append({
            "id": game_id,
            "title": game.info.title,
            "rules_version": game.info.rules_version,
            "editor": None if folder is None else f"referee/{game_id}/{EDITOR}",
            "style": f"referee/{game_id}/{EDITOR_STYLE}" if folder is not None and (folder / EDITOR_STYLE).is_file()
            else None,
            "picture": game.offers(Capability.PICTURE),
            "variants": [variant.name for variant in game.info.variants],
            "board": f"referee/{game_id}/{BOARD}" if folder is not None and (folder / BOARD).is_file() else None,
        })
    return strict(jsonify({"games": listed}))


@referee_blp.route(f"/referee/<game_id>/{WORDS}", methods=["GET"])
def referee_game_words(game_id: str) -> Response:
    """A game's editor's words in the language chosen (`?lang=`, else Accept-Language), with its plural
    categories: what the editor's `t`, `tn` and `tp` say."""
    folder = editor_folder(game_id)
    if folder is None:
        abort(404)
    language = chosen(request.args, request.headers.get("Accept-Language"))
    return spoken(strict(jsonify(catalogue_json(folder.parent, language))), language)


@referee_blp.route("/referee/<game_id>/<path:filename>", methods=["GET"])
def referee_game_asset(game_id: str, filename: str) -> Response:
    """A file of a game's editor (send_from_directory refuses paths that leave the folder)."""
    folder = editor_folder(game_id)
    if folder is None:
        abort(404)
    return strict(send_from_directory(folder, filename, max_age=0))
