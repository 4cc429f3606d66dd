"""Le Torri di San Gimignano as the service plays it (service.games.core.game.Game): deal, view, score, the
computer players' sampling, on top of the engine; tables in notation and in pictures, and the contract's
examples."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from operator import attrgetter
from typing import Any, Mapping, Sequence

from ..core.errors import Problem
from ..core.events import Event
from ..core.game import Capability, Game, GameInfo, Json, Outcome, Variant
from ..core.language import DEFAULT, said, speaks
from ..core.narration import player_name
from ..core.players import shuffled_rest
from ..core.seating import player_names
from . import notation as table_notation
from . import picture as table_picture
from . import report
from . import schemas as wire_schemas
from .cards import NOBLE_COUNTS, TOWER_COUNTS
from .catalogue import RULES, RULES_VERSION
from .engine import apply_step, legal_steps
from .messages import tr
from .model import MAIN, Player, State
from .narration import FACE_DOWN, narrate
from .position import _known_cards, state_json, table_of
from .schemas import read_table
from .scoring import Score, score_table
from .steps import Step

HAND_SIZE = 5  # T-SETUP-1
MARKET_SIZE = 4
MAX_LEGAL_STEPS = 10_000  # T-SVC-LIST


def new_game(seed: int | str, *, nobles: bool = False, names: tuple[str, str] | None = None) -> State:
    """T-SETUP-1..3: a fresh deal; the same seed (and variant) always deals the same cards."""
    rng = random.Random(f"torri:{seed}")  # a str seed is hashed with SHA-512: stable across runs and machines
    cards = [rank for rank, count in TOWER_COUNTS.items() for _ in range(count)]
    rng.shuffle(cards)
    noble_deck: tuple[int, ...] = ()
    if nobles:
        noble_cards = [card for card, count in NOBLE_COUNTS.items() for _ in range(count)]
        rng.shuffle(noble_cards)
        noble_deck = tuple(noble_cards)
    first, second = player_names(names, None, fewest=2, most=2, game="Torri", rule="T-COMP-3")
    players = (Player(first, tuple(sorted(cards[:HAND_SIZE]))),
               Player(second, tuple(sorted(cards[HAND_SIZE:2 * HAND_SIZE]))))
    market = tuple(sorted(cards[2 * HAND_SIZE:2 * HAND_SIZE + MARKET_SIZE]))
    deck = tuple(cards[2 * HAND_SIZE + MARKET_SIZE:])
    return State(nobles, MAIN, 0, 0, 0, None, deck, 0, (), market, players, None, noble_deck)


def legal_moves(state: State, *, limit: int | None = MAX_LEGAL_STEPS) -> list[dict[str, Any]]:
    return [step.to_json() for step in legal_steps(state, limit=limit)]


def _committed_in_hand(seen: State) -> State:
    """`seen` with the cards of a build or extension awaiting a Giostra answer (T-NOB-GIOSTRA) or a rebuild,
    public since the move was announced, known in the builder's hand: they are there, whatever else is."""
    pending = seen.pending
    if pending is None or pending.type not in ("giostra", "rebuild") or pending.action not in ("build", "extend"):
        return seen
    builder = seen.players[pending.player]
    missing = list((Counter(pending.cards) - Counter(builder.hand)).elements())
    if not missing or len(missing) > builder.hidden:
        return seen
    state = seen.draft()
    placed = replace(builder, hand=tuple(sorted(builder.hand + tuple(missing))), hidden=builder.hidden - len(missing))
    state.players = (placed, seen.players[1]) if pending.player == 0 else (seen.players[0], placed)
    return state.freeze()


def score_table_json(data: Any, *, several_deals: bool = False) -> tuple[Score, list[Problem]]:
    table, warnings = read_table(data)
    return score_table(table, several_deals=several_deals), warnings


# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("nobles", tr("The advanced game with the ten noble cards (T-NOB).")),)


class TorriGame(Game[State, Step]):
    info = GameInfo(id="torri", title="Le Torri di San Gimignano", min_players=2, max_players=2,
                    rules_version=RULES_VERSION, variants=VARIANTS)
    rule_book = RULES
    wire = wire_schemas.FORMS  # the requests and answers on the wire (openapi.yaml is made from them)
    step_type = Step
    capabilities = frozenset({Capability.TABLE, Capability.PICTURE, Capability.NOTATION, Capability.EDITOR})
    editor = "referee"
    playout_turns = 2  # the search's playouts: two turns, then the leader on points wins (bench/players.py)

    apply_step = staticmethod(apply_step)
    to_act = staticmethod(attrgetter("to_act"))
    narrate = staticmethod(narrate)
    state_json = staticmethod(state_json)

    def legal_steps(self, state: State) -> list[Step]:
        return legal_steps(state, limit=MAX_LEGAL_STEPS)  # T-SVC-LIST

    def deal(self, seed: int | str, *, names: Sequence[str] | None, variant: Mapping[str, Any]) -> State:
        return new_game(seed, names=names, nobles=variant["nobles"])

    def player_view(self, state: State, player: int) -> State:
        """The state as `player` may see it: the opponent's hand and both decks' order become counts."""
        view = state.draft()
        other = replace(view.players[1 - player], hand=(), hidden=view.players[1 - player].hand_size)
        view.players = (view.players[0], other) if player == 0 else (other, view.players[1])
        if view.deck_size:
            view.deck, view.deck_hidden, view.deck_bottom = (), view.deck_size, ()
        if view.noble_deck_size:
            view.noble_deck, view.noble_hidden, view.noble_bottom = (), view.noble_deck_size, ()
        return view.freeze()

    def foreseen(self, event: Event) -> Event:
        """An event as it can be foreseen: a card to be drawn from a deck, the cards a refill will bring, or those a
        Trade takes face down from the other hand, are not known before the step is made (T-TURN-4, T-MKT-1,
        T-DON-9)."""
        if event["type"] == "drew" and event["from"] in FACE_DOWN or event["type"] in ("refilled", "took"):
            return {key: value for key, value in event.items() if key not in ("card", "cards")}
        return event

    @speaks
    def step_text(self, state: State, step: Step, names: Sequence[str], language: str = DEFAULT) -> str:
        """A legal step in words. A build or an extension with Buona Pietra that the opponent may answer with
        Giostra happens only once they let it (T-NOB-GIOSTRA): it is said as what it does then, unless answered."""
        after, events = self.apply_step(state, step)
        if events or after.pending is None or after.pending.type != "giostra":
            return self.foreseen_text(events, names, language)
        _, then = self.apply_step(after, Step("decline"))
        done = self.foreseen_text([event for event in then if event["type"] != "declined"], names, language)
        # Translators: a build with Buona Pietra as it is foreseen; {then} says what it does if not answered
        return said(tr("Unless {player} answers with Giostra: {then}", player=player_name(names, after.to_act),
                       then=done), language)

    def told(self, event: Event, seat: int) -> Event:
        """An event as `seat` is told it: a card the opponent draws from a deck is drawn face down, so it is not
        named (T-TURN-4); a card from the market, and everything else, is seen by both."""
        if event["type"] == "drew" and event["from"] in FACE_DOWN and event["player"] != seat:
            return {key: value for key, value in event.items() if key != "card"}
        return event

    def sample_unseen(self, seen: State, seat: int, rng: random.Random) -> State:
        """A whole state `seat` cannot tell from `seen` (its view): every card it does not see (the other hand, the
        decks) dealt afresh from the cards it cannot account for (T-COMP-1, T-COMP-2): the deck from the tower cards,
        the noble deck from the nobles, the hands from what is left of both."""
        if not seen.has_hidden:
            return seen
        seen = _committed_in_hand(seen)
        known = _known_cards(seen)
        towers = shuffled_rest(TOWER_COUNTS, known, rng)
        nobles = shuffled_rest(NOBLE_COUNTS, known, rng) if seen.nobles else []
        deck, noble_deck = towers[:seen.deck_hidden], nobles[:seen.noble_hidden]
        rest = towers[seen.deck_hidden:] + nobles[seen.noble_hidden:]
        rng.shuffle(rest)
        state = seen.draft()
        players = []
        for player in seen.players:
            hand, rest = rest[:player.hidden], rest[player.hidden:]
            players.append(replace(player, hand=tuple(sorted(player.hand + tuple(hand))), hidden=0))
        state.players = tuple(players)
        state.deck, state.deck_hidden, state.deck_bottom = seen.deck + tuple(deck) + seen.deck_bottom, 0, ()
        state.noble_deck, state.noble_hidden, state.noble_bottom = \
            seen.noble_deck + tuple(noble_deck) + seen.noble_bottom, 0, ()
        return state.freeze()

    def evaluate(self, state: State) -> tuple[int, ...]:
        """Each player's points so far (T-SCORE): the greedy player's evaluation."""
        return tuple(p.total for p in self.score_state(state).players)

    def score_state(self, state: State, *, several_deals: bool = False) -> Score:
        return score_table(table_of(state), several_deals=several_deals)

    # a finished table (TABLE, PICTURE, NOTATION)
    score_table = staticmethod(score_table)
    table_of = staticmethod(table_of)
    read_notation = staticmethod(table_notation.read)
    write_notation = staticmethod(table_notation.write)

    score_text = staticmethod(report.score_lines)

    def score_options(self, request: Json) -> dict[str, Any]:
        return {"several_deals": request.get("several_deals", False) is True}  # T-SCORE-DEALS, T-SVC-DEALS

    def draw(self, subject: Any, language: str = DEFAULT, proposal: Any = None) -> str:
        """Draw a state's table, a table or a notation text as SVG: each player's towers as stacked cards
        (Buona Pietra marked), complete towers roofed, the Highest marker beside its holder, names and totals (who
        leads, while the state's game goes on; who won, on a finished table). With a `proposal` (Game.picture with
        `moves`), its step drawn faded where it was tried on that table, marked legal or refused, and the verdict
        below. Not cached: drawing is cheap."""
        return table_picture.svg(subject, language=language, proposal=proposal)

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (Game.examples)."""
        state = state_json(new_game(42, names=("Adso", "William")))
        table = {
            "players": [
                {"name": "Adso", "towers": [
                    {"cards": ["10", "10", "10"], "complete": True}, {"cards": ["9", "9", "9"], "complete": True},
                    {"cards": ["8", "8", "8"]}, {"cards": ["6", "6", "6"], "complete": True},
                    {"cards": ["10", "9", "8", "7", "6"]}]},
                {"name": "William", "towers": [
                    {"cards": ["7", "7", "7"], "complete": True},
                    {"cards": ["9", "8", "7", "6", "5"], "complete": True},
                    {"cards": ["10", "9", "8"], "complete": True}, {"cards": ["7", "6", "5"], "complete": True}]},
            ],
            "highest": 0,
        }
        broken = {**state, "players": [{**state["players"][0], "hand": [*state["players"][0]["hand"], "5"]},
                                       *state["players"][1:]]}  # one 5 too many (T-COMP-4)
        return {
            "new": {"seed": 42, "names": ["Adso", "William"]},
            "apply": {"moves": [{"type": "purchase"}, {"type": "draw", "from": "deck"},
                                {"type": "draw", "from": "market", "card": state["market"][0]}]},
            "score": {"table": table},
            "picture": {"notation": "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*"},
            "notation": {"table": table},
            "validate": {"state": broken},
        }


GAME = TorriGame()
player_view, sample_unseen, standing, score = GAME.player_view, GAME.sample_unseen, GAME.evaluate, GAME.score_state
as_step = GAME.as_step  # (step, index=0) -> Step
apply_steps = GAME.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step


__all__ = ["GAME", "Outcome", "TorriGame", "apply_steps", "as_step", "legal_moves", "new_game", "player_view",
           "sample_unseen", "score", "score_table_json", "standing", "state_json"]
