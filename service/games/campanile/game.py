"""Campanile as the service plays it (service.games.core.game.Game): deal, view, score, the computer players'
sampling, on top of the engine; pictures of a table, and the contract's examples."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from ..core.errors import Problem
from ..core.events import Event
from ..core.game import Capability, Game, GameInfo, Json, Outcome, Proposal, Variant
from ..core.language import DEFAULT
from ..core.players import shuffled_rest
from ..core.seating import player_names, to_act
from . import picture as table_picture
from . import schemas as wire_schemas
from .cards import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PILES, STYLES, full_deck, in_play_per_style, pile_size
from .catalogue import RULES, RULES_VERSION
from .engine import apply_step, legal_steps
from .messages import tr
from .model import Pile, Player, State, empty_towers
from .narration import narrate
from .position import _known_cards, state_json, table_of
from .schemas import read_table
from .scoring import Score, score_state, score_table
from .steps import Step


def new_game(seed: int | str, *, players: int | None = None, names: Iterable[str] | None = None,
             bet_on_played: bool = False) -> State:
    """C-SETUP-1..3: a fresh deal for 2 to 5 players (`names`, or `players` unnamed ones; 2 by default). The same
    seed and player count always deal the same cards; the variant does not change the deal."""
    names = player_names(names, players, fewest=MIN_PLAYERS, most=MAX_PLAYERS, game="Campanile", rule="C-SETUP-1")
    n = len(names)
    rng = random.Random(f"campanile:{n}:{seed}")  # a str seed is hashed with SHA-512: stable across machines
    cards = [style for style in STYLES for _ in range(in_play_per_style(n))]  # C-SETUP-1
    rng.shuffle(cards)
    hands = [tuple(sorted(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE])) for i in range(n)]  # C-SETUP-2
    rest = cards[n * HAND_SIZE:]
    size = pile_size(n)
    piles = tuple(Pile(tuple(rest[k * size:(k + 1) * size])) for k in range(PILES))
    removed = tuple(sorted(rest[PILES * size:]))  # the 0 to 2 cards that do not divide evenly
    return State(bet_on_played, tuple(Player(name, hand) for name, hand in zip(names, hands)), empty_towers(), piles,
                 removed)


def score_table_json(data: Any) -> tuple[Score, list[Problem]]:
    table, warnings = read_table(data)
    return score_table(table), warnings


# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("bet_on_played",
                    tr("A player may also bet on the tower they played on this turn (C-VAR-1).")),)


class CampanileGame(Game[State, Step]):
    info = GameInfo(id="campanile", title="Campanile", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    rules_version=RULES_VERSION, variants=VARIANTS)
    rule_book = RULES
    wire = wire_schemas.FORMS  # the requests and answers on the wire (openapi.yaml is made from them)
    step_type = Step
    capabilities = frozenset({Capability.TABLE, Capability.PICTURE, Capability.EDITOR})
    editor = "referee"
    playout_turns = 2  # the search's playouts: two turns, then the leader on points wins (bench/players.py)

    legal_steps = staticmethod(legal_steps)
    apply_step = staticmethod(apply_step)
    narrate = staticmethod(narrate)
    state_json = staticmethod(state_json)

    def deal(self, seed: int | str, *, names: Sequence[str] | None, variant: Mapping[str, Any]) -> State:
        return new_game(seed, names=names, bet_on_played=variant["bet_on_played"])

    def foreseen(self, event: Event) -> Event:
        """An event as it can be foreseen: the card a draw turns up is not known before the step (C-TURN-DRAW)."""
        if event["type"] == "drew" and "revealed" in event:
            return {key: value for key, value in event.items() if key != "revealed"}
        return event

    def player_view(self, state: State, player: int) -> State:
        """The state as `player` may see it (C-SVC-UNKNOWN): the other hands, the removed cards and every pile below
        its face-up top become counts. Towers, tokens, supplies and the tops are public."""
        players = tuple(p if i == player else p._replace(hand=(), hidden=p.hand_size)
                        for i, p in enumerate(state.players))
        piles = tuple(Pile(pile.cards[:1], pile.size - 1) if pile.size > 1 else pile for pile in state.piles)
        removed = len(state.removed) + state.removed_hidden
        return replace(state, players=players, piles=piles, removed=(), removed_hidden=removed)

    def sample_unseen(self, seen: State, seat: int, rng: random.Random) -> State:
        """A whole state `seat` cannot tell from `seen` (its view): the other hands, the piles below their tops and
        the removed cards dealt afresh from the cards in play it cannot account for (C-SETUP-1)."""
        if not seen.has_hidden:
            return seen
        rest = shuffled_rest(full_deck(len(seen.players)), _known_cards(seen), rng)

        def deal(count: int) -> tuple[str, ...]:
            dealt, rest[:count] = tuple(rest[:count]), []
            return dealt
        players = tuple(p._replace(hand=tuple(sorted(p.hand + deal(p.hidden))), hidden=0) if p.hidden else p
                        for p in seen.players)
        piles = tuple(Pile(pile.cards + deal(pile.hidden)) if pile.hidden else pile for pile in seen.piles)
        removed = tuple(sorted(seen.removed + deal(seen.removed_hidden)))
        return replace(seen, players=players, piles=piles, removed=removed, removed_hidden=0)

    def evaluate(self, state: State) -> tuple[int, ...]:
        """Each player's points so far (C-END-3): the greedy player's evaluation."""
        return tuple(p.total for p in score_state(state).players)

    score_state = staticmethod(score_state)

    # a finished table (TABLE, PICTURE)
    score_table = staticmethod(score_table)
    table_of = staticmethod(table_of)

    def draw(self, table: Any, language: str = DEFAULT, proposal: Proposal | None = None) -> str:
        """Draw a state's table or a table as SVG: the five towers in their row as stacks of cards, the flag each
        earns, the tokens under each in betting order in the players' colours, who takes the large and small
        numbers, and every player's total (the aria-label says who leads). Not cached: drawing is cheap."""
        # With a `proposal` (Game.picture with `moves`): its step drawn faded where it was tried on this table, marked
        # legal or refused, and its verdict below (picture._proposed). This docstring is the endpoint's description.
        return table_picture.svg(table, language=language, proposal=proposal)

    @property
    def examples(self) -> dict[str, Json]:
        """The requests the contract's examples are made from (Game.examples)."""
        names = ["Ada", "Bea", "Cy"]
        state = state_json(new_game(42, names=names))
        card = state["players"][0]["hand"][0]
        broken = {**state, "players": [{**state["players"][0], "hand": [*state["players"][0]["hand"], "A"]},
                                       *state["players"][1:]]}  # one card A too many (C-COMP-5)
        finished_table = {
            "players": [{"name": "Ada"}, {"name": "Bea"}, {"name": "Cy"}],
            "towers": [
                {"style": "A", "plays": [2, 3, 1], "tokens": [{"player": 0, "value": 2}, {"player": 1, "value": 3}]},
                {"style": "B", "plays": [3, 3], "tokens": [{"player": 2, "value": 3}, {"player": 0, "value": 2}]},
                {"style": "C", "plays": [1], "tokens": [{"player": 1, "value": 1}]},
                {"style": "D", "plays": [2, 2, 2], "tokens": [{"player": 1, "value": 2}, {"player": 2, "value": 2}]},
                {"style": "E", "plays": [], "tokens": []},
            ],
        }
        return {
            "new": {"seed": 42, "names": names},
            "apply": {"moves": [{"type": "play", "card": card, "stories": 1}, {"type": "no_bet"}, {"type": "draw"}]},
            "score": {"table": finished_table},
            "picture": {"table": finished_table},
            "validate": {"state": broken},
        }


GAME = CampanileGame()
player_view, sample_unseen, standing, score = GAME.player_view, GAME.sample_unseen, GAME.evaluate, GAME.score_state
as_step = GAME.as_step  # (step, index=0) -> Step
apply_steps = GAME.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step
legal_moves = GAME.legal_moves_of  # (state) -> every legal step's JSON form


__all__ = ["GAME", "CampanileGame", "Outcome", "apply_steps", "as_step", "legal_moves", "new_game", "player_view",
           "sample_unseen", "score", "score_table_json", "standing", "table_of", "to_act"]
