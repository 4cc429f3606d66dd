"""Carcassonne's sentences said in French, German and Italian through the library: a violation, the problems of an
impossible state, a narrated event with its plurals, the picture's words, each in the game's own words (the
glossaries: tuile, Karte, tessera; meeple, Gefolgsmann, seguace; réserve, Vorrat, riserva …)."""
from __future__ import annotations

import re

import pytest

from service.games import carcassonne
from service.games.carcassonne import GAME
from tests.words import assert_said

from .helpers import doc

# a road loop below the start tile, its last tile ([1, 2], rotation 90) still to place
LOOP = [("BA/Rr", (0, 1), 270), ("BA/Rr", (1, 1), 0), ("BA/Rr", (0, 2), 180)]


def _violation(document: dict, moves: list[dict], language: str) -> dict:
    answer = carcassonne.GAME.apply({"state": document, "moves": moves}, language=language)
    assert not answer["legal"]
    (violation,) = answer["violations"]
    return violation


@pytest.mark.parametrize(("language", "said"), [
    ("en", "[0, 5] touches no tile by an edge."),
    ("fr", "La case [0, 5] ne touche aucune tuile par un côté."),
    ("de", "Das Feld [0, 5] berührt keine Karte an einer Kante."),
    ("it", "La casella [0, 5] non tocca nessuna tessera con un lato."),
])
def test_a_violation_is_said_in_each_language(language: str, said: str) -> None:
    violation = _violation(doc(draw=["BA/L"]), [{"type": "place", "at": [0, 5], "rotation": 0}], language)
    assert violation == {"rule": "K-PLACE-1", "pointer": "/moves/0/at", "message": said}


@pytest.mark.parametrize(("language", "said"), [
    ("en", "A ransom costs 3 points; the player has 2."),
    ("fr", "Une rançon coûte 3 points ; le joueur en a 2."),
    ("de", "Ein Lösegeld kostet 3 Punkte; der Spieler hat 2."),
    ("it", "Un riscatto costa 3 punti; il giocatore ne ha 2."),
])
def test_a_ransom_the_player_cannot_pay(language: str, said: str) -> None:
    document = doc(tower=True, scores=[2, 0], prisoners=[[], [0]], draw=["BA/L"])
    assert _violation(document, [{"type": "ransom", "from": 1}], language)["message"] == said


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Player 0's meeples: 6 in supply, 0 on the board, on towers or held; a player has 7."),
    ("fr", "Meeples du joueur 0 : 6 en réserve, 0 sur l'aire de jeu, sur des tours ou retenus ; un joueur en a 7."),
    ("de", ("Gefolgsleute von Spieler 0: 6 im Vorrat, 0 in der Auslage, auf Türmen oder gefangen gehalten; ein "
            "Spieler hat 7.")),
    ("it", ("Seguaci del giocatore 0: 6 nella riserva, 0 nell'area di gioco, sulle torri o tenuti prigionieri; un "
            "giocatore ne ha 7.")),
])
def test_an_impossible_state_is_said_in_each_language(language: str, said: str) -> None:
    document = doc()
    document["players"][0]["supply"] = 6
    errors, _ = carcassonne.validate_state(document)
    (problem,) = errors
    assert problem.to_json(language) == {"rule": "K-COMP-3", "pointer": "/players/0", "message": said}


@pytest.mark.parametrize(("board", "language", "said"), [
    # French says 0 in the singular, German and Italian in the plural; 1 is singular in all four
    (0, "en", "0 tiles on the board, 0 discarded and 0 in the bag make 0; the game has 72."),
    (0, "fr", "0 tuile sur l'aire de jeu, 0 dans la défausse et 0 dans le sac font 0 ; le jeu en compte 72."),
    (0, "de", "0 Karten in der Auslage, 0 abgeworfen und 0 im Beutel ergeben 0; das Spiel hat 72."),
    (0, "it", "0 tessere nell'area di gioco, 0 tra gli scarti e 0 nel sacchetto fanno 0; il gioco ne ha 72."),
    (1, "en", "1 tile on the board, 0 discarded and 0 in the bag make 1; the game has 72."),
    (1, "fr", "1 tuile sur l'aire de jeu, 0 dans la défausse et 0 dans le sac font 1 ; le jeu en compte 72."),
    (1, "de", "1 Karte in der Auslage, 0 abgeworfen und 0 im Beutel ergeben 1; das Spiel hat 72."),
    (1, "it", "1 tessera nell'area di gioco, 0 tra gli scarti e 0 nel sacchetto fanno 1; il gioco ne ha 72."),
])
def test_a_count_of_0_is_singular_in_french_only(board: int, language: str, said: str) -> None:
    document = doc(keep=0)
    document["discarded"], document["board"] = [], document["board"][:board]
    answer = GAME.validate({"state": document}, language=language)
    assert {"rule": "K-COMP-3", "pointer": "/state/bag", "message": said} in answer["errors"]


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["P0 placed tile BA/Rr at [1, 2], rotated 90°.",
            "P0 put a meeple on the tile at [1, 2], on the road or city on its north edge.",
            "Completed a road of 4 tiles at [0, 1]: P0 scores 4 points; 1 meeple goes back to supply.",
            "P1's turn."]),
    ("fr", ["P0 a placé la tuile BA/Rr en [1, 2], tournée de 90°.",
            "P0 a posé un meeple sur la tuile en [1, 2], sur la route ou la ville de son côté nord.",
            "On complète une route de 4 tuiles en [0, 1] : P0 marque 4 points ; 1 meeple retourne en réserve.",
            "À P1 de jouer."]),
    ("de", ["P0 hat Karte BA/Rr auf [1, 2] gelegt, um 90° gedreht.",
            "P0 hat einen Gefolgsmann auf die Karte auf [1, 2] gesetzt, auf die Straße oder Stadt an ihrer Nordkante.",
            ("Abgeschlossen ist eine Straße aus 4 Karten auf [0, 1]: P0 erhält 4 Punkte; 1 Gefolgsmann geht in den "
             "Vorrat zurück."),
            "P1 ist am Zug."]),
    ("it", ["P0 ha piazzato la tessera BA/Rr in [1, 2], ruotata di 90°.",
            "P0 ha piazzato un seguace sulla tessera in [1, 2], sulla strada o città del suo lato nord.",
            "Si completa una strada di 4 tessere in [0, 1]: P0 ottiene 4 punti; 1 seguace torna nella riserva.",
            "È il turno di P1."]),
])
def test_a_road_completed_is_narrated_with_its_plurals(language: str, said: list[str]) -> None:
    moves = [{"type": "place", "at": [1, 2], "rotation": 90}, {"type": "meeple", "feature": "N"}]
    answer = GAME.apply({"state": doc(LOOP, draw=["BA/Rr"]), "moves": moves}, language=language)
    assert [event["text"] for event in answer["events"]] == said


@pytest.mark.parametrize(("language", "label", "legend"), [
    ("en", "P0 (red): 0 points; P1 (blue): 0 points. P0 and P1 are level with 0 points.",
     "P0 ▶: 0 points (0 on the track), 7 in supply, 10 floors"),
    ("fr", "P0 (rouge) : 0 point ; P1 (bleu) : 0 point. P0 et P1 sont à égalité avec 0 point.",
     "P0 ▶ : 0 point (0 sur la piste de score), 7 en réserve, 10 étages"),
    ("de", "P0 (rot): 0 Punkte; P1 (blau): 0 Punkte. P0 und P1 liegen gleichauf mit 0 Punkten.",
     "P0 ▶: 0 Punkte (0 auf der Wertungstafel), 7 im Vorrat, 10 Turmteile"),
    ("it", "P0 (rosso): 0 punti; P1 (blu): 0 punti. P0 e P1 sono in parità con 0 punti.",
     "P0 ▶: 0 punti (0 sul segnapunti), 7 nella riserva, 10 piani"),
])
def test_the_picture_s_words(language: str, label: str, legend: str) -> None:
    picture = GAME.picture({"state": doc(tower=True)}, language=language)
    assert re.search(r'aria-label="([^"]*)"', picture)[1] == label
    assert re.findall(r'font-size="13" font-family="sans-serif">([^<]*)<', picture)[0] == legend


def test_the_picture_joins_three_tied_players_each_language_s_way() -> None:
    document = doc(players=3)
    assert "P0 and P1 and P2 are level with 0 points." in GAME.picture({"state": document})  # as always in English
    assert "P0, P1 et P2 sont à égalité avec 0 point." in GAME.picture({"state": document}, language="fr")


def test_the_variant_and_a_tile_s_features_are_entries() -> None:
    (tower,) = GAME.info.variants
    assert_said(tower.description)
    assert tower.description.said("it").startswith("La Torre: 18 tessere con fondamenta di torri")
    document = doc([("BA/L", (0, 1), 0)], step="action", last=(0, 1))
    answer = GAME.apply({"state": document, "moves": [{"type": "meeple", "feature": "Cloister"}]}, language="de")
    assert answer["violations"][0]["message"] == (
        'Die soeben gelegte Karte hat kein Gebiet "Cloister". Ihre Gebiete mit allen Namen, auf die jedes hört: '
        'Kloster; Wiese NL, NR, EL, ER, SL, SR, WL oder WR. Bei Namen zählt Groß- und Kleinschreibung: "cloister".')
