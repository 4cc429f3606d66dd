"""San Gimignano's sentences in French, German and Italian, said through the library: a violation, an impossible
state, narrated events with plurals (French says 0 in the singular, German and Italian in the plural), the picture
and the score for the command line."""
from __future__ import annotations

import pytest

from service.games import sangimignano as sg
from service.games.sangimignano.game import GAME

from .helpers import position

# P0 (to act, in the tower phase) has built nine towers and holds four connected spaces of four guilds; the A space
# of [0, 0] holds a token of each player.
LAST_TOWER = position(
    [((-1, 0), 0, "DBA"), ((0, -1), 0, "BDA"), ((0, 0), 1, "CAD"), ((0, 1), 0, "DAC"), ((1, -1), 1, "BDC"),
     ((1, 0), 0, "BAC"), ((2, -2), 0, "ABC"), ((2, -1), 1, "DAC"), ((2, 0), 0, "CAD")],
    tokens={((0, 0), "C"): (0,), ((0, 0), "A"): (0, 1), ((0, 0), "D"): (1,), ((1, -1), "B"): (0,),
            ((1, -1), "D"): (0,), ((2, -1), "D"): (1,)},
    towers={(at, guild): 0 for at, guilds in (((-1, 0), "DBA"), ((0, -1), "BDA"), ((0, 1), "DAC"))
            for guild in guilds},
    hands=[[], ["ADB"]], step="build")


def test_the_last_tower_is_narrated_with_its_plurals() -> None:
    request = {"state": sg.state_json(LAST_TOWER), "moves": [{"type": "build", "at": [0, 0], "guild": "A"}]}
    said = {language: [event["text"] for event in GAME.apply(request, language=language)["events"]]
            for language in ("en", "fr", "de", "it")}
    assert said["en"] == [
        "P0 built a tower on the A space of [0, 0]; the 2 tokens there go back to P0 and P1 (0 towers left).",
        "The game is over: the tenth tower is built; P0 wins."]
    assert said["fr"] == [  # French: 0 is singular
        "P0 a construit une tour sur le secteur A de [0, 0] ; les 2 jetons qui s'y trouvaient reviennent à P0 et P1 "
        "(0 tour restante).",
        "La partie est terminée : la dixième tour est construite ; P0 gagne."]
    assert said["de"] == [
        "P0 hat einen Turm auf dem Feld A von [0, 0] gebaut; die 2 Spielsteine, die dort lagen, gehen an P0 und P1 "
        "zurück (0 Türme übrig).",
        "Das Spiel ist beendet: Der zehnte Turm ist gebaut; P0 gewinnt."]
    assert said["it"] == [
        "P0 ha costruito una torre sul settore A di [0, 0]; i 2 segnalini che vi si trovavano tornano nella riserva "
        "di P0 e P1 (0 torri rimanenti).",
        "La partita è finita: la decima torre è costruita; P0 vince."]


def test_a_step_of_another_phase_is_refused_in_each_language() -> None:
    request = {"state": sg.state_json(LAST_TOWER), "moves": [{"type": "token", "at": [0, 0], "guild": "C"}]}
    said = {language: GAME.apply(request, language=language)["violations"] for language in ("fr", "de", "it")}
    assert {v["rule"] for found in said.values() for v in found} == {"S-TURN-3"}
    assert said["fr"][0]["message"] == (
        "P0 en est à la phase tour : une étape build ou end est attendue, pas \"token\" (un tour de jeu : jeton, "
        "puis hexagone, puis tour).")
    assert said["de"][0]["message"] == (
        "P0 ist in der Phase Turm: Erwartet wird ein Schritt build oder end, nicht \"token\" (ein Zug ist Spielstein, "
        "dann Spielplanteil, dann Turm).")
    assert said["it"][0]["message"] == (
        "È la fase torre di P0: si attende una mossa build o end, non \"token\" (un turno è segnalino, poi esagono, "
        "poi torre).")


def test_a_hexagon_touching_none_is_refused_with_the_plural_of_each_language() -> None:
    state = sg.new_game(7, names=["Ada", "Bea"])
    first = sg.legal_steps(state)[0].to_json()
    kind = sg.apply_steps(state, [first]).state.players[0].hexes[0]
    request = {"state": sg.state_json(state),
               "moves": [first, {"type": "hex", "hex": list(kind), "at": [10, 10], "rotation": 0}]}
    said = {language: GAME.apply(request, language=language)["violations"] for language in ("en", "fr", "de", "it")}
    assert [(v["rule"], v["pointer"]) for v in said["fr"]] == [("S-HEX-2", "/moves/1/at")]
    assert said["en"][0]["message"] == ("A hexagon at [10, 10] would touch 0 hexagons in play; it must touch at "
                                        "least two by a side.")
    assert said["fr"][0]["message"] == ("Posé en [10, 10], un hexagone toucherait 0 hexagone en jeu ; il doit en "
                                        "toucher au moins deux par un côté.")
    assert said["de"][0]["message"] == ("Ein Spielplanteil auf [10, 10] würde 0 ausliegende Spielplanteile "
                                        "berühren; es muss mindestens zwei mit einer Seite berühren.")
    assert said["it"][0]["message"] == ("Un esagono in [10, 10] toccherebbe 0 esagoni in gioco; deve toccarne "
                                        "almeno due con un lato.")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "With 4 players 0 hexagons go back to the box; 2 given."),
    ("fr", "À 4 joueurs, 0 hexagone retourne dans la boîte ; nombre indiqué : 2."),
    ("de", "Bei 4 Spielern kommen 0 Spielplanteile zurück in die Schachtel; angegeben: 2."),
    ("it", "Con 4 giocatori tornano nella scatola 0 esagoni; indicati: 2."),
])
def test_an_impossible_box_is_said_in_each_language(language: str, expected: str) -> None:
    document = sg.state_json(sg.new_game(3, players=4))
    document["box"] = 2
    answer = GAME.validate({"state": document}, language=language)
    assert not answer["valid"]
    assert [e["message"] for e in answer["errors"] if e["pointer"] == "/state/box"] == [expected]
    problems, _ = sg.validate_state(document)
    assert [p.to_json(language)["message"] for p in problems if p.pointer == "/box"] == [expected]


def test_the_picture_and_the_score_speak_the_language_asked() -> None:
    request = {"state": sg.state_json(LAST_TOWER)}
    german = GAME.picture(request, language="de")
    assert "P0 (rot): 9 Türme, 4 Spielsteine auf dem Spielplan; P1 (weiß): 0 Türme, 3 Spielsteine auf dem " \
           "Spielplan. P0 führt nach Türmen." in german
    assert "Vorrat: 1 Turm, 16 Spielsteine, 0 Spielplanteile" in german
    assert "Vorrat: 10 Türme, 17 Spielsteine, 1 Spielplanteil" in german
    assert "A auf [0, 0]: Spielstein von P0, Spielstein von P1" in german
    french = GAME.picture(request, language="fr")
    assert "réserve : 1 tour, 16 jetons, 0 hexagone" in french  # French: 0 is singular
    assert GAME.score_text(sg.score(LAST_TOWER), language="it")[:2] == ["  P0: 9 torri, 4 segnalini",
                                                                        "  P1: 0 torri, 3 segnalini"]
