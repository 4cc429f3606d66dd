"""Torri's sentences in French, German and Italian, through the library as callers use it: a violation, an
impossible position, narrated events (with their plurals), a notation problem, the picture and the score for people
(the game's catalogues: service/games/torri/locales)."""
from __future__ import annotations

import pytest

from service.games.torri.game import GAME
from service.games.torri.narration import narrate

NAMES = ("Adso", "William")


@pytest.fixture(scope="module")
def dealt() -> dict:
    return {"state": GAME.new({"seed": 42, "names": list(NAMES)})["state"]}


def test_a_violation_is_said_in_each_language(dealt: dict) -> None:
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"}, {"type": "close"}]
    said = {language: GAME.apply({**dealt, "moves": moves}, language=language)["violations"]
            for language in ("en", "fr", "de", "it")}
    assert [v["rule"] for v in said["fr"]] == ["T-TURN-2"] and said["fr"][0]["pointer"] == "/moves/2/type"
    assert said["en"][0]["message"] == \
        'The purchase is waiting for 1 more draw; expected a draw step, not "close".'
    assert said["fr"][0]["message"] == \
        'L\'action purchase attend encore 1 carte à piocher ; étape attendue : draw, et non "close".'
    assert said["de"][0]["message"] == \
        'Die Aktion purchase wartet noch auf: 1 weitere Karte zum Ziehen; erwartet wird ein Schritt draw, ' \
        'nicht "close".'
    assert said["it"][0]["message"] == \
        'L\'azione purchase attende ancora 1 carta da pescare; atteso un passo draw, non "close".'


def test_a_violation_with_its_numbers(dealt: dict) -> None:
    said = {language: GAME.apply({**dealt, "moves": [{"type": "close"}]}, language=language)["violations"][0]
            for language in ("fr", "de", "it")}
    assert said["fr"]["message"] == \
        "Fermer la construction demande au moins 4 tours terminées ; le joueur 0 en a 0."
    assert said["de"]["message"] == \
        "Den Bau zu schließen erfordert mindestens 4 vollendete Türme; Spieler 0 hat 0."
    assert said["it"]["message"] == \
        "Per chiudere la costruzione servono almeno 4 torri completate; il giocatore 0 ne ha 0."


def test_an_impossible_state_is_said_in_each_language() -> None:
    request = GAME.examples["validate"]  # one 5 too many (T-COMP-4)
    errors = {language: [e["message"] for e in GAME.validate(request, language=language)["errors"]]
              for language in ("en", "fr", "de", "it")}
    assert errors["en"] == ["One 5 too many: the game has 5 of them.",
                            ("The state holds 46 cards in all; the game has 45 (deck, market, hands and towers "
                             "together).")]
    assert errors["fr"] == ["Une carte 5 de trop : le jeu en compte 5.",
                            ("L'état contient 46 cartes en tout ; le jeu en a 45 (pioche, marché, mains et tours "
                             "ensemble).")]
    assert errors["de"] == ["Eine Karte 5 zu viel: Das Spiel hat 5 davon.",
                            ("Der Zustand enthält insgesamt 46 Karten; das Spiel hat 45 (Stapel, Markt, Hände und "
                             "Türme zusammen).")]
    assert errors["it"] == ["Una carta 5 di troppo: il gioco ne ha 5.",
                            ("Lo stato contiene 46 carte in tutto; il gioco ne ha 45 (mazzo, mercato, mani e torri "
                             "insieme).")]


def test_a_problem_says_itself_in_any_language() -> None:
    problem = GAME.reading(GAME.examples["validate"]).errors[0]
    assert problem.message == "One 5 too many: the game has 5 of them."  # a Message is its English
    assert problem.to_json("de") == {"rule": "T-COMP-4", "pointer": "/players/0/hand/0",
                                     "message": "Eine Karte 5 zu viel: Das Spiel hat 5 davon."}


def test_events_are_narrated_with_their_plurals(dealt: dict) -> None:
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"}]
    texts = {language: [e["text"] for e in GAME.apply({**dealt, "moves": moves}, language=language)["events"]]
             for language in ("fr", "de", "it")}
    assert texts["fr"] == ["Adso a choisi l'action Acheter : 2 cartes à piocher.",
                           "Adso a pioché une carte dans la pioche : 6."]
    assert texts["de"] == ["Adso hat die Aktion Kaufen gewählt: 2 Karten zu ziehen.",
                           "Adso hat vom Stapel eine Karte gezogen: 6."]
    assert texts["it"] == ["Adso ha fatto un Acquisto: 2 carte da pescare.",
                           "Adso ha pescato una carta dal mazzo: 6."]


@pytest.mark.parametrize(("draws", "fr", "de", "it"), [
    (0, "0 carte", "0 Karten", "0 carte"),  # French says 0 in the singular; German and Italian in the plural
    (1, "1 carte", "1 Karte", "1 carta"),
    (2, "2 cartes", "2 Karten", "2 carte"),
])
def test_a_count_of_none_is_singular_in_french_only(draws: int, fr: str, de: str, it: str) -> None:
    said = narrate({"type": "donazione", "effect": "income", "player": 0, "draws": draws}, NAMES)
    assert said.said("fr") == f"Donazione, Revenus : Adso pioche {fr}."
    assert said.said("de") == f"Donazione, Einkommen: Adso zieht {de}."
    assert said.said("it") == f"Donazione, Rendita: Adso pesca {it}."


def test_towers_are_counted_in_the_order_they_were_built() -> None:
    said = narrate({"type": "completed", "player": 0, "towers": [0, 2]}, NAMES)
    assert said == "Adso completed their first and third towers."
    assert said.said("fr") == "Adso a terminé ses première et troisième tours."
    assert said.said("de") == "Adso hat den 1. und 3. Turm vollendet."
    assert said.said("it") == "Adso ha completato la prima e terza torre."
    beyond = narrate({"type": "destroyed", "player": 1, "tower": 12, "cards": ["8", "8", "8"]}, NAMES)
    assert beyond == "William's 13th tower (8, 8 and 8) was destroyed."
    assert beyond.said("fr") == "La 13e tour de William (8, 8 et 8) a été détruite."
    assert beyond.said("it") == "La 13ª torre di William (8, 8 e 8) è stata distrutta."


def test_a_notation_problem_keeps_its_line_and_column() -> None:
    request = {"notation": "Adso @: 10x3* 9x3!\nWilliam: 7x3*"}
    said = {language: GAME.score(request, language=language)["warnings"][0]["message"]
            for language in ("en", "fr", "de", "it")}
    assert said["en"] == "line 1, column 18: ignored a stray '!' after 9x3 (write 9x3* if that tower is complete)."
    assert said["fr"] == \
        "ligne 1, colonne 18 : '!' isolé ignoré après la tour 9x3 (écrivez 9x3* si cette tour est terminée)."
    assert said["de"] == "Zeile 1, Spalte 18: Ein überzähliges '!' nach dem Turm 9x3 wurde ignoriert (schreibe " \
                         "9x3*, wenn dieser Turm vollendet ist)."
    assert said["it"] == \
        "riga 1, colonna 18: ignorato un '!' di troppo dopo la torre 9x3 (scrivi 9x3* se quella torre è completata)."


def test_the_picture_and_the_score_speak_the_language() -> None:
    request = GAME.examples["picture"]
    assert "Vainqueur" in GAME.picture(request, "fr") and "Winner" not in GAME.picture(request, "fr")
    assert "Marker für den höchsten Turm" in GAME.picture(request, "de")
    assert "William vince, 66 a 63 (ai punti)." in GAME.picture(request, "it")
    table, _ = GAME.read_notation(request["notation"])
    lines = GAME.score_text(GAME.score_table(table), [], "de")
    assert lines[-1] == "William gewinnt nach Punkten, 66 zu 63."
    assert lines[1].startswith("Vollendung ")
