"""The referee's pages in French, German and Italian beside English: the language chosen as the API chooses it
(`?lang=` first, else the browser's Accept-Language), said by `<html lang>`, every word of the shell, of each game's
editor and of the replay page from the `pages` catalogues, the API asked in the page's language (so that a refused
table's problems, a replayed step's violation and the events come back in it), plural forms by the language's CLDR
categories, the language picker, and links that keep `?lang=`. English is what it always was (the other browser
tests)."""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from service.games.registry import GAMES
from tests.replay.records import disputed

from .axe import assert_accessible
from .conftest import check_both_sizes, link_of

IMPOSSIBLE = ["Adso @: 10x3 10x3 10x3", "William: 10x3*"]  # one 10 too many (T-COMP-4), on line 2
EXAMPLE = ["Adso @: 10x3* 9x3* 8x3 6x3* 10-6", "William: 7x3* 9-5* 10-8* 7-5*"]
# each game's editor, in French: a word of it that only the editor writes (a button, a label, a heading)
FRENCH_EDITORS = {
    "torri": ("summary", "Comment écrire une table"),
    "campanile": ("label", "Étages de la tour A"),
    "sangimignano": ("button", "Choisir un hexagone"),
    "carcassonne": ("group", "Tuiles restantes"),
}
EXAMPLE_BUTTON = {"torri": "Exemple de la règle", "campanile": "Table d'exemple", "sangimignano": "Table d'exemple",
                  "carcassonne": "Table d'exemple"}


@pytest.fixture
def in_browser(browser, base_url):
    """Pages in a context of the browser's language (`locale`, as Accept-Language and navigator.language), each
    recording its errors (not a refused request's: a refused table is the service's answer) and the
    Accept-Language of its calls to the API."""
    contexts = []

    def open_context(locale: str = "en-GB", **options):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url, locale=locale,
                                      **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.errors = []  # type: ignore[attr-defined]
        page.api_languages = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" and
                not message.text.startswith("Failed to load resource") else None)
        page.on("request", lambda request: page.api_languages.append(request.headers.get("accept-language"))
                if "/v1/games/" in request.url else None)
        return page

    yield open_context
    for context in contexts:
        context.close()


def ready(page) -> None:
    expect(page.locator("html")).to_have_attribute("data-ready", "true")


def open_referee(page, address: str) -> None:
    page.goto(address)
    ready(page)
    if page.locator("html").get_attribute("data-game") == "carcassonne":
        page.wait_for_selector("[data-tiles=ready]")


def type_table(page, lines: list[str]) -> None:
    page.locator("#notation").click()
    for i, line in enumerate(lines):
        if i:
            page.keyboard.press("Enter")
        page.keyboard.type(line)


def french(client, path: str, body: dict | None = None, language: str = "fr") -> dict:
    """What the API answers in a language (what the page should show)."""
    answer = client.post(path, json=body, headers={"Accept-Language": language}) if body is not None else \
        client.get(path, headers={"Accept-Language": language})
    assert answer.headers["Content-Language"] == language
    return answer.get_json()


def expect_picker(page, language: str) -> None:
    picker = page.get_by_role("navigation", name={"en": "Language", "fr": "Langue", "de": "Sprache",
                                                  "it": "Lingua"}[language])
    links = picker.get_by_role("link")
    expect(links).to_have_text(["English", "Français", "Deutsch", "Italiano"])
    expect(picker.locator("a[aria-current=true]")).to_have_attribute("hreflang", language)
    for code in ("en", "fr", "de", "it"):
        expect(picker.locator(f'a[hreflang="{code}"]')).to_have_attribute("lang", code)


# ---------------------------------------------------------------- the scoring page


def test_the_scoring_page_in_french_by_lang(in_browser, client, screenshots):
    page = in_browser("en-GB")
    open_referee(page, "/referee?lang=fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#entry-title")).to_have_text("La table")
    expect(page.get_by_role("button", name="Compter les points", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Effacer")).to_be_visible()
    expect(page.get_by_role("button", name="Copier le lien")).to_be_visible()
    expect(page.locator("#json-box summary")).to_have_text("La requête en JSON")
    expect(page.locator("#hint")).to_have_text("Ctrl+Entrée compte les points")
    expect(page.get_by_role("link", name="Rejouer une partie contestée")).to_have_attribute("href",
                                                                                            "referee/replay?lang=fr")
    expect(page.locator("#page-title span")).to_have_text("· l’arbitre")
    assert page.title() == "Le Torri di San Gimignano — l’arbitre"
    expect_picker(page, "fr")
    expect(page.locator("#rules-link")).to_have_attribute("href", "v1/games/torri/rules?lang=fr")

    # a table the service refuses: its problems in French, from the API, and the line and column read from them
    type_table(page, IMPOSSIBLE)
    page.get_by_role("button", name="Compter les points", exact=True).click()
    refused = french(client, "/v1/games/torri/score", {"notation": "\n".join(IMPOSSIBLE)})
    message = refused["errors"][0]["message"]
    where = re.match(r"ligne 2, colonne (\d+) : (.*)$", message)
    assert where, message  # the API speaks French
    problems = page.locator("#problems")
    expect(problems).to_contain_text("Cette table ne peut pas être réelle")
    expect(problems).to_contain_text(where.group(2))
    expect(problems).to_contain_text("T-COMP-4")
    expect(problems.get_by_role("button", name=f"ligne 2, colonne {where.group(1)}")).to_be_visible()
    expect(page.locator("#gutter .bad")).to_have_text(["2"])
    expect(page.locator("#gutter .bad")).to_have_attribute("title", "un problème sur cette ligne")
    assert set(page.api_languages) == {"fr"}, page.api_languages  # every call says the page's language

    # a table scored: the verdict and the breakdown in French
    page.locator("#notation").fill("\n".join(EXAMPLE))
    page.keyboard.press("Control+Enter")
    expect(page.locator("#verdict")).to_have_text("William gagne aux points, 66 à 63.")
    expect(page.locator("#announce")).to_have_text("William gagne aux points, 66 à 63.")
    expect(page.locator("#breakdown thead th").first).to_have_text("Catégorie")
    expect(page.locator('#breakdown tr[data-category="plain"] th')).to_contain_text("Tours unies")
    expect(page.locator("#breakdown tfoot th")).to_have_text("Total")
    expect(page.locator("#download")).to_have_text("Télécharger l’image (SVG)")
    check_both_sizes(page, screenshots, "referee-fr")
    assert_accessible(page)
    assert page.errors == []


@pytest.mark.parametrize("game", list(FRENCH_EDITORS))
def test_each_editor_speaks_french(in_browser, game):
    page = in_browser("en-GB")
    open_referee(page, f"/referee?lang=fr#{game}")
    expect(page.locator("html")).to_have_attribute("data-game", game)
    role, name = FRENCH_EDITORS[game]
    if role == "summary":
        expect(page.locator("#editor summary")).to_have_text(name)
    elif role == "label":
        expect(page.get_by_label(name, exact=True)).to_be_visible()
    else:
        expect(page.get_by_role(role, name=name, exact=True)).to_be_visible()
    expect(page.locator("#example")).to_have_text(EXAMPLE_BUTTON[game])
    empty = page.evaluate("location.hash")
    page.locator("#example").click()
    # an editor may fetch its example: the table is scored once the link holds it
    page.wait_for_function("(empty) => location.hash !== empty", arg=empty)
    page.get_by_role("button", name="Compter les points", exact=True).click()
    expect(page.locator("#result")).to_be_visible()
    verdict = page.locator("#verdict").inner_text()
    assert re.search(r"\b(gagne|mène|se partagent|Égalité)\b", verdict), verdict
    assert not re.search(r"\b(wins|leads|share|points,? to|draw)\b", verdict), verdict
    expect(page.locator("#breakdown thead")).not_to_contain_text("Player")
    assert set(page.api_languages) == {"fr"}, page.api_languages
    assert page.errors == []


def test_a_refused_table_of_another_editor_in_french(in_browser, client):
    """Campanile's problems are marked on its towers, in the API's French."""
    page = in_browser("en-GB")
    open_referee(page, "/referee?lang=fr#campanile")
    page.get_by_label("Étages de la tour A", exact=True).fill("3")
    page.keyboard.press("Tab")
    page.get_by_role("button", name="Ajouter le jeton 3 de Ada sous la tour A", exact=True).click()
    page.get_by_role("button", name="Ajouter le jeton 3 de Ada sous la tour A", exact=True).click()
    body = json.loads(page.locator("#json").input_value())
    refused = french(client, "/v1/games/campanile/score", body)
    page.get_by_role("button", name="Compter les points", exact=True).click()
    problems = page.locator("#problems")
    expect(problems).to_contain_text("Cette table ne peut pas être réelle")
    for error in refused["errors"]:
        expect(problems).to_contain_text(error["message"])
    expect(page.locator("#announce")).to_contain_text("La table a été refusée : ")
    assert page.errors == []


def test_the_link_and_the_picker_keep_the_language_and_the_table(in_browser, base_url):
    page = in_browser("en-GB")
    open_referee(page, "/referee?lang=fr#torri")
    type_table(page, EXAMPLE)
    link = link_of(page, "^#torri:")
    assert urlsplit(link).query == "lang=fr"
    page.get_by_role("button", name="Copier le lien").click()
    expect(page.locator("#announce")).to_have_text(re.compile(
        r"^Le lien vers cette table est (copié|dans la barre d’adresse)\.$"))

    # the link opened by someone whose browser reads English: French, and the same table
    other = in_browser("en-US")
    open_referee(other, link)
    expect(other.locator("html")).to_have_attribute("lang", "fr")
    expect(other.locator("#notation")).to_have_value("\n".join(EXAMPLE))
    expect(other.get_by_role("button", name="Compter les points", exact=True)).to_be_visible()

    # the picker goes to German and keeps the table
    german = page.get_by_role("link", name="Deutsch")
    expect(german).to_have_attribute("href", re.compile(r"^\?lang=de#torri:"))
    german.click()
    page.wait_for_url("**/referee?lang=de#torri:*")
    ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#notation")).to_have_value("\n".join(EXAMPLE))
    page.get_by_role("button", name="Werten", exact=True).click()
    expect(page.locator("#verdict")).to_have_text("William gewinnt nach Punkten, 66 zu 63.")
    assert page.errors == [] and other.errors == []


def test_the_browser_s_language_when_the_address_names_none(in_browser, client):
    page = in_browser("fr-FR")
    open_referee(page, "/referee")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#entry-title")).to_have_text("La table")
    expect(page.locator("#game-intro")).to_have_text(
        "Choisissez le jeu, recopiez la table finie d’après la photo, et comptez les points.")
    expect_picker(page, "fr")
    expect(page.locator("#editor summary")).to_have_text("Comment écrire une table")
    type_table(page, IMPOSSIBLE)
    page.get_by_role("button", name="Compter les points", exact=True).click()
    refused = french(client, "/v1/games/torri/score", {"notation": "\n".join(IMPOSSIBLE)})
    expect(page.locator("#problems")).to_contain_text(refused["errors"][0]["message"].split(" : ", 1)[1])
    assert set(page.api_languages) == {"fr"}
    # the address names no language, so neither does the link: whoever opens it reads their own language
    link = link_of(page, "^#torri:")
    assert "lang=" not in link
    expect(page.locator("#rules-link")).to_have_attribute("href", "v1/games/torri/rules")
    again = page.context.new_page()
    again.goto(link)
    ready(again)
    expect(again.locator("html")).to_have_attribute("lang", "fr")
    expect(again.locator("#notation")).to_have_value("\n".join(IMPOSSIBLE))

    # the page's language, not the browser's, is the API's: German asked by the address, in a French browser
    german = in_browser("fr-FR")
    open_referee(german, "/referee?lang=de")
    type_table(german, IMPOSSIBLE)
    german.get_by_role("button", name="Werten", exact=True).click()
    refused = french(client, "/v1/games/torri/score", {"notation": "\n".join(IMPOSSIBLE)}, language="de")
    expect(german.locator("#problems")).to_contain_text("Dieser Tisch kann nicht echt sein")
    expect(german.locator("#problems")).to_contain_text(refused["errors"][0]["message"].split(": ", 1)[1])
    expect(german.locator("#problems").get_by_role("button", name=re.compile(r"^Zeile 2, Spalte \d+$"))).to_be_visible()
    assert set(german.api_languages) == {"de"}, german.api_languages
    assert page.errors == [] and german.errors == []


def test_german_and_italian(in_browser, screenshots):
    page = in_browser("en-GB")
    open_referee(page, "/referee?lang=de#torri")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#entry-title")).to_have_text("Der Tisch")
    expect(page.locator("#editor summary")).to_have_text("So schreibt man einen Tisch")
    page.get_by_role("button", name="Beispiel aus der Regel").click()
    page.get_by_role("button", name="Werten", exact=True).click()
    expect(page.locator("#verdict")).to_have_text("William gewinnt nach Punkten, 66 zu 63.")
    check_both_sizes(page, screenshots, "referee-de")

    italian = in_browser("it-IT")
    open_referee(italian, "/referee#campanile")
    expect(italian.locator("html")).to_have_attribute("lang", "it")
    expect(italian.get_by_role("button", name="Aggiungi un giocatore")).to_be_visible()
    italian.get_by_role("button", name="Tavolo d'esempio").click()
    italian.get_by_role("button", name="Conta i punti", exact=True).click()
    expect(italian.locator("#verdict")).to_contain_text(" vince con ")
    expect(italian.locator("#flags caption")).to_have_text("Le bandiere, la torre più alta per prima (C-END-2)")
    expect(italian.locator("#flags tbody th").first).to_contain_text(re.compile(r" · \d+ pian[oi]"))
    assert set(italian.api_languages) == {"it"}
    assert page.errors == [] and italian.errors == []


def test_plural_forms_follow_the_language_s_categories(in_browser):
    """The catalogue's forms are in CLDR's order of the language's categories (French: one, many, other), and the
    browser's Intl.PluralRules picks the form: French says 0 and 1 in the singular, English only 1."""
    said = {}
    for language in ("en", "fr", "de", "it"):
        page = in_browser("en-GB")
        open_referee(page, f"/referee?lang={language}")
        said[language] = page.evaluate("""async () => {
            const {words, translator} = await import(new URL("referee/assets/words.js", document.baseURI));
            const block = JSON.parse(document.getElementById("page-words").textContent);
            const forms = translator({lang: "fr", plurals: ["one", "many", "other"],
                                      messages: {"{count} x": ["one {count}", "many {count}", "other {count}"]}});
            return {plurals: block.plurals, counts: [0, 1, 2, 5].map((n) => words.tn("{count} point", "{count} points", n)),
                    many: forms.tn("{count} x", "{count} xs", 1000000), two: forms.tn("{count} x", "{count} xs", 2),
                    frMany: new Intl.PluralRules("fr").resolvedOptions().pluralCategories.includes("many")};
        }""")
    assert said["en"]["plurals"] == ["one", "other"] and said["de"]["plurals"] == ["one", "other"]
    assert said["fr"]["plurals"] == ["one", "many", "other"] and said["it"]["plurals"] == ["one", "many", "other"]
    assert said["en"]["counts"] == ["0 points", "1 point", "2 points", "5 points"]
    assert said["fr"]["counts"] == ["0 point", "1 point", "2 points", "5 points"]
    assert said["de"]["counts"] == ["0 Punkte", "1 Punkt", "2 Punkte", "5 Punkte"]
    assert said["it"]["counts"] == ["0 punti", "1 punto", "2 punti", "5 punti"]
    assert said["fr"]["two"] == "other 2"
    assert said["fr"]["many"] == ("many " if said["fr"]["frMany"] else "other ") + "1\u202f000\u202f000"


# ---------------------------------------------------------------- the replay page


@pytest.mark.parametrize("game_id", ["campanile", "carcassonne"])
def test_the_replay_page_in_french(in_browser, client, screenshots, game_id):
    case = disputed(game_id, {}, 3)
    answer = french(client, f"/v1/games/{game_id}/replay", case.record)
    violation = answer["violations"][0]
    rule = next(r for r in french(client, f"/v1/games/{game_id}/rules")["rules"] if r["id"] == case.rule)
    english_rule = next(r for r in GAMES[game_id].rules() if r["id"] == case.rule)
    assert rule["text"] != english_rule["text"]  # the catalogue speaks French
    illegal, moves = case.failed_at + 1, len(case.record["moves"])

    page = in_browser("en-GB")
    page.goto("/referee/replay?lang=fr")
    ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#load-title")).to_have_text("L’enregistrement de la partie")
    expect_picker(page, "fr")
    page.locator("#record").fill(json.dumps(case.record))
    page.get_by_role("button", name="Rejouer", exact=True).click()
    ready(page)
    expect(page.locator("html")).to_have_attribute("data-position", str(illegal))
    expect(page.locator("#verdict")).to_contain_text(f"L’étape {illegal} sur {moves} enfreint une règle")
    expect(page.locator("#verdict")).to_contain_text(violation["message"])
    expect(page.get_by_role("button", name="La montrer")).to_be_visible()
    ruling = page.locator("#ruling")
    expect(ruling.locator("h3")).to_have_text(f"Pourquoi l’étape {illegal} est illégale")
    expect(ruling.locator(".sentence")).to_have_text(f"{case.rule} {violation['message']}")
    expect(ruling.locator(".rule-text")).to_contain_text(rule["text"])
    expect(ruling.locator(".where")).to_contain_text("Dans l’enregistrement, en ")
    expect(ruling.locator(".open-steps h4")).to_contain_text(re.compile(r"pouvait faire"))
    expect(page.locator("#position")).to_have_text(f"Étape {illegal} sur {moves}illégale")
    expect(page.locator("#scores .label")).to_have_text("Les points ici, comptés comme si la partie finissait maintenant :")

    page.locator("#board-title").click()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("html")).to_have_attribute("data-position", str(illegal - 1))
    events = [event["text"] for event in answer["events"] if event["step"] == case.failed_at - 1]
    assert events, "the step before the illegal one says something"
    expect(page.locator("#happened ul.events li")).to_have_text(events)
    expect(page.locator("#turn")).to_have_text(re.compile(r"^(À .+ de jouer\.|La partie est terminée\.)$"))
    expect(page.locator("#caption")).to_have_text(f"La table après l’étape {illegal - 1}.")
    page.keyboard.press("Home")
    expect(page.locator("#position")).to_have_text("Le début")
    page.keyboard.press("ArrowRight")
    assert set(page.api_languages) == {"fr"}, page.api_languages
    if game_id == "campanile":
        check_both_sizes(page, screenshots, "replay-fr")

    # the link keeps the language: opened in an English browser, the same step in French
    link = link_of(page, f"^#{game_id}/1:")
    assert urlsplit(link).query == "lang=fr"
    other = in_browser("en-US")
    other.goto(link)
    ready(other)
    expect(other.locator("html")).to_have_attribute("lang", "fr")
    expect(other.locator("html")).to_have_attribute("data-position", "1")
    expect(other.locator("#verdict")).to_contain_text(f"L’étape {illegal} sur {moves} enfreint une règle")
    assert page.errors == [] and other.errors == []


def test_the_replay_page_in_the_browser_s_language_and_in_german_and_italian(in_browser, client):
    case = disputed("campanile", {}, 3)
    page = in_browser("fr-FR")
    page.goto("/referee/replay")
    ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("button", name="Rejouer", exact=True)).to_be_visible()
    page.locator("#record").fill('{"moves": []}')
    page.get_by_role("button", name="Rejouer", exact=True).click()
    expect(page.locator("#problems")).to_contain_text("Ce n’est pas un enregistrement de partie")
    expect(page.locator("#problems")).to_contain_text("Un enregistrement est un objet")
    page.locator("#record").fill(json.dumps(case.record))
    page.get_by_role("button", name="Rejouer", exact=True).click()
    ready(page)
    message = french(client, "/v1/games/campanile/replay", case.record)["violations"][0]["message"]
    expect(page.locator("#ruling .sentence")).to_have_text(f"{case.rule} {message}")
    assert "lang=" not in link_of(page, "^#campanile/")
    assert set(page.api_languages) == {"fr"}

    for language, replay, title in (("de", "Nachspielen", "Die Aufzeichnung der Partie"),
                                    ("it", "Rigioca", "La registrazione della partita")):
        other = in_browser("en-GB")
        other.goto(f"/referee/replay?lang={language}")
        ready(other)
        expect(other.locator("html")).to_have_attribute("lang", language)
        expect(other.locator("#load-title")).to_have_text(title)
        other.locator("#record").fill(json.dumps(case.record))
        other.get_by_role("button", name=replay, exact=True).click()
        ready(other)
        message = french(client, "/v1/games/campanile/replay", case.record, language=language)["violations"][0]["message"]
        expect(other.locator("#ruling .sentence")).to_have_text(f"{case.rule} {message}")
        expect(other.locator("#verdict strong")).to_have_text(
            {"de": f"Schritt {case.failed_at + 1} von {len(case.record['moves'])} verstößt gegen eine Regel",
             "it": f"Il passo {case.failed_at + 1} di {len(case.record['moves'])} viola una regola"}[language])
        assert set(other.api_languages) == {language}
        assert other.errors == []
    assert page.errors == []


def test_the_english_pages_name_their_language(in_browser):
    page = in_browser("en-GB")
    open_referee(page, "/referee")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect_picker(page, "en")
    expect(page.get_by_role("link", name="Replay a disputed game")).to_have_attribute("href", "referee/replay")
    page.get_by_role("link", name="Français").click()
    page.wait_for_url("**/referee?lang=fr#torri")
    ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.errors == []


# ---------------------------------------------------------------- what the server sends


def test_the_pages_say_their_language(client):
    for path in ("/referee", "/referee/replay"):
        for headers, query, language in (({}, "", "en"), ({"Accept-Language": "de-CH, fr;q=0.5"}, "", "de"),
                                         ({"Accept-Language": "de"}, "?lang=it", "it"),
                                         ({"Accept-Language": "pt-BR"}, "", "en")):
            answer = client.get(path + query, headers=headers)
            assert answer.status_code == 200 and answer.mimetype == "text/html"
            assert answer.headers["Content-Language"] == language
            assert "Accept-Language" in answer.headers["Vary"]
            html = answer.get_data(as_text=True)
            assert f'<html lang="{language}">' in html
            block = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', html, re.S)
            words = json.loads(block.group(1))
            assert words["lang"] == language and words["explicit"] is bool(query)
            assert all(not key.startswith("Tower referee —") for key in words["messages"])  # the script's only
            if language == "fr":
                assert words["messages"]["Every step is legal."] == "Toutes les étapes sont légales."


def test_each_editor_s_words(client):
    from service.api.referee import editor_folder

    for game in (g for g in GAMES if editor_folder(g) is not None):
        french_words = client.get(f"/referee/{game}/messages.json?lang=fr")
        assert french_words.status_code == 200 and french_words.headers["Content-Language"] == "fr"
        body = french_words.get_json()
        assert body["lang"] == "fr" and body["plurals"] == ["one", "many", "other"] and body["messages"]
        assert all(isinstance(v, str) or len(v) == 3 for v in body["messages"].values())
        german = client.get(f"/referee/{game}/messages.json", headers={"Accept-Language": "de-AT"}).get_json()
        assert german["plurals"] == ["one", "other"] and german["messages"]
        assert client.get(f"/referee/{game}/messages.json?lang=en").get_json()["messages"] == {}
    assert client.get("/referee/torri/messages.json?lang=fr").get_json()["messages"]["How to write a table"] == \
        "Comment écrire une table"
    assert client.get("/referee/nogame/messages.json").status_code == 404
