"""Campanile's words in French, German and Italian, through the library: a violation, an impossible state, a shape
error, narrated events with a plural, a warning whose plural differs between French (0 and 1 are singular) and
German and Italian (only 1 is), and the picture's words. English stays as it was (a Message is its English str)."""
from __future__ import annotations

import re

import pytest

from service.games import campanile
from service.games.core.errors import GameError

GAME = campanile.GAME
NAMES = ["Ada", "Bea", "Cy"]


def _state(seed: int = 42, names: list[str] = NAMES) -> dict:
    return GAME.new({"seed": seed, "names": names})["state"]


def _played_and_drawn(language: str) -> dict:
    """Ada plays her first card 2 stories up, places no token and draws from pile 2; then a draw out of turn."""
    state = _state()
    card = state["players"][0]["hand"][0]
    moves = [{"type": "play", "card": card, "stories": 2}, {"type": "no_bet"}, {"type": "draw"}, {"type": "draw"}]
    return GAME.apply({"state": state, "moves": moves}, language=language)


def test_the_deal_of_the_words_tests_is_the_one_they_read() -> None:
    state = _state()
    assert state["players"][0]["hand"][0] == "A"
    assert [pile[:2] for pile in state["piles"]] == [["B", "D"], ["B", "A"], ["E", "B"]]


@pytest.mark.parametrize(("language", "played", "drew", "turn"), [
    ("en", "Ada played an A card on tower A, 2 stories up: it stands 2 high.",
     "Ada took the B from Finito pile 2; an A is turned face up, 14 cards left there.", "Bea's turn."),
    ("fr", "Ada a joué une carte A sur la tour A, en l'augmentant de 2 étages : elle atteint une hauteur de 2.",
     "Ada a pris la carte B de la pile Finito 2 ; une carte A est retournée face visible, il y reste 14 cartes.",
     "À Bea de jouer."),
    ("de", "Ada hat eine Karte A an Turm A angelegt und ihn um 2 Stockwerke aufgestockt: Er hat jetzt die Höhe 2.",
     "Ada hat die Karte B vom Finito-Stapel 2 genommen; eine Karte A wird aufgedeckt, dort liegen noch 14 Karten.",
     "Bea ist am Zug."),
    ("it", "Ada ha giocato una carta A sulla torre A, alzandola di 2 piani: ora ha un'altezza di 2.",
     "Ada ha preso la carta B dal mazzo Finito 2; viene scoperta una carta A, lì restano 14 carte.",
     "È il turno di Bea."),
])
def test_events_are_narrated_in_the_language_asked(language: str, played: str, drew: str, turn: str) -> None:
    answer = _played_and_drawn(language)
    assert [event["text"] for event in answer["events"] if event["type"] in ("played", "drew", "turn")] == \
        [played, drew, turn]


@pytest.mark.parametrize(("language", "message"), [
    ("en", "A turn starts with playing a card from hand: expected a play or pass step, not \"draw\"."),
    ("fr", "Un tour commence par jouer une carte de sa main : une étape play ou pass est attendue, pas \"draw\"."),
    ("de", ("Ein Zug beginnt damit, eine Karte aus der Hand anzulegen: Erwartet wird ein Schritt play oder pass, "
            "nicht \"draw\".")),
    ("it", "Un turno inizia giocando una carta dalla mano: è attesa una fase play o pass, non \"draw\"."),
])
def test_a_violation_is_said_in_the_language_asked(language: str, message: str) -> None:
    answer = _played_and_drawn(language)
    assert not answer["legal"] and answer["failed_at"] == 3
    assert answer["violations"] == [{"rule": "C-TURN-PLAY", "pointer": "/moves/3/type", "message": message}]


@pytest.mark.parametrize(("language", "message"), [
    ("fr", "Après avoir construit 3 étages, le jeton doit valoir au moins 3 ; un 2 est trop petit."),
    ("de", "Nach 3 gebauten Stockwerken muss der Chip mindestens 3 wert sein; eine 2 ist zu klein."),
    ("it", "Avendo costruito 3 piani, il gettone deve valere almeno 3; un 2 è troppo piccolo."),
])
def test_a_bet_too_small_is_said_with_its_plural(language: str, message: str) -> None:
    state = _state()
    moves = [{"type": "play", "card": "A", "stories": 3}, {"type": "bet", "tower": 1, "value": 2}]  # B shows on pile 1
    answer = GAME.apply({"state": state, "moves": moves}, language=language)
    assert answer["violations"] == [{"rule": "C-TURN-BET", "pointer": "/moves/1/value", "message": message}]


@pytest.mark.parametrize(("language", "too_many", "in_all"), [
    ("en", "One A too many: with 3 players the game has 11 cards of each style in play (C-SETUP-1).",
     ("The state holds 56 cards in all (hands, piles, towers and removed together); with 3 players the game has 55 "
      "in play.")),
    ("fr", "Une carte A de trop : à 3 joueurs, chaque type compte 11 cartes en jeu (C-SETUP-1).",
     ("L'état contient 56 cartes en tout (mains, piles, tours et cartes écartées ensemble) ; à 3 joueurs, le jeu en "
      "compte 55 en jeu.")),
    ("de", "Eine Karte A zu viel: Bei 3 Spielern hat jeder Baustil 11 Karten im Spiel (C-SETUP-1).",
     ("Der Zustand enthält insgesamt 56 Karten (Hände, Stapel, Türme und beiseitegelegte zusammen); bei 3 Spielern "
      "sind 55 im Spiel.")),
    ("it", "Una carta A di troppo: con 3 giocatori ogni stile ha 11 carte in gioco (C-SETUP-1).",
     ("Lo stato contiene in tutto 56 carte (mani, mazzi, torri e scartate insieme); con 3 giocatori le carte in "
      "gioco sono 55.")),
])
def test_an_impossible_state_is_said_in_the_language_asked(language: str, too_many: str, in_all: str) -> None:
    answer = GAME.validate(GAME.examples["validate"], language=language)  # one card A too many (C-COMP-5)
    assert not answer["valid"]
    said = {(error["rule"], error["pointer"]): error["message"] for error in answer["errors"]}
    assert said[("C-COMP-5", "/state/piles/2/5")] == too_many
    assert said[("C-COMP-5", "/state")] == in_all


def _short_handed(cards: int) -> dict:
    """A two-player state where Bea holds only `cards` cards, the others laid on their towers: valid, with the
    warning of C-SVC-HANDS."""
    state = _state(names=["Ada", "Bea"])
    bea = state["players"][1]["hand"]
    laid = bea[cards:]
    towers = [{**tower, "plays": tower["plays"] + [1] * laid.count(tower["style"])} for tower in state["towers"]]
    return {**state, "players": [state["players"][0], {**state["players"][1], "hand": bea[:cards]}], "towers": towers}


@pytest.mark.parametrize(("language", "none", "one"), [
    ("en", "Bea holds 0 cards; normal play keeps 3 (C-TURN-END).",
     "Bea holds 1 card; normal play keeps 3 (C-TURN-END)."),
    # French: 0 is singular, as 1 is
    ("fr", "Bea a 0 carte en main ; en jeu normal, on en garde 3 (C-TURN-END).",
     "Bea a 1 carte en main ; en jeu normal, on en garde 3 (C-TURN-END)."),
    # German and Italian: only 1 is singular
    ("de", "Bea hat 0 Karten auf der Hand; im normalen Spiel sind es 3 (C-TURN-END).",
     "Bea hat 1 Karte auf der Hand; im normalen Spiel sind es 3 (C-TURN-END)."),
    ("it", "Bea ha 0 carte in mano; nel gioco normale se ne tengono 3 (C-TURN-END).",
     "Bea ha 1 carta in mano; nel gioco normale se ne tengono 3 (C-TURN-END)."),
])
def test_a_count_of_zero_is_singular_in_french_only(language: str, none: str, one: str) -> None:
    for cards, message in ((0, none), (1, one)):
        answer = GAME.validate({"state": _short_handed(cards)}, language=language)
        assert answer["valid"]
        assert answer["warnings"] == [{"rule": "C-SVC-HANDS", "pointer": "/state/players/1/hand", "message": message}]


@pytest.mark.parametrize(("language", "message"), [
    ("fr", "1, 2 ou 3 : une carte augmente sa tour de 1, 2 ou 3 étages (C-TURN-PLAY)."),
    ("de", "1, 2 oder 3: Eine Karte stockt ihren Turm um 1, 2 oder 3 Stockwerke auf (C-TURN-PLAY)."),
    ("it", "1, 2 o 3: una carta alza la sua torre di 1, 2 o 3 piani (C-TURN-PLAY)."),
])
def test_a_move_of_the_wrong_shape_is_said_in_the_language_asked(language: str, message: str) -> None:
    with pytest.raises(GameError) as raised:
        GAME.apply({"state": _state(), "moves": [{"type": "play", "card": "A", "stories": 4}]})
    assert [problem.to_json(language) for problem in raised.value.problems] == [
        {"rule": None, "pointer": "/moves/0/stories", "message": message}]


@pytest.mark.parametrize(("language", "label", "tower"), [
    ("en", "Ada: 7 points; Bea: 14 points; Cy: 8 points. Bea leads.", "Tower A: 6 stories, 3 cards, rank 1"),
    ("fr", "Ada : 7 points ; Bea : 14 points ; Cy : 8 points. Bea est en tête.", "Tour A : 6 étages, 3 cartes, rang 1"),
    ("de", "Ada: 7 Punkte; Bea: 14 Punkte; Cy: 8 Punkte. Bea führt.", "Turm A: 6 Stockwerke, 3 Karten, Rang 1"),
    ("it", "Ada: 7 punti; Bea: 14 punti; Cy: 8 punti. Bea è in testa.", "Torre A: 6 piani, 3 carte, rango 1"),
])
def test_the_picture_says_its_words_in_the_language_asked(language: str, label: str, tower: str) -> None:
    table = GAME.read({"table": GAME.examples["picture"]["table"]}, "table")
    svg = GAME.draw(table, language)
    assert f'aria-label="{label}"' in svg
    assert re.findall(r"<title>([^<]*)</title>", svg)[:2] == [label, tower]
