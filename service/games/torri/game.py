"""Whole-game operations on top of the engine: deal, apply a list of steps, replay, view, score."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import partial
from typing import Any

from ..core.errors import Problem
from ..core.players import shuffled_rest
from ..core.stepping import Outcome, Stepper, player_names
from .cards import NOBLE_COUNTS, TOWER_COUNTS
from .engine import apply_step, legal_steps
from .model import MAIN, Player, State
from .position import _known_cards, state_json, table_of
from .schemas import parse_step, read_table
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


STEPS: Stepper[State, Step] = Stepper(Step, parse_step, apply_step,
                                      partial(legal_steps, limit=MAX_LEGAL_STEPS))  # T-SVC-LIST
as_step = STEPS.as_step  # (step, index=0) -> Step
apply_steps = STEPS.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step



def legal_moves(state: State, *, limit: int | None = MAX_LEGAL_STEPS) -> list[dict[str, Any]]:
    return [step.to_json() for step in legal_steps(state, limit=limit)]


def player_view(state: State, player: int) -> State:
    """The state as `player` may see it: the opponent's hand and both decks' order become counts."""
    view = state.draft()
    other = replace(view.players[1 - player], hand=(), hidden=view.players[1 - player].hand_size)
    view.players = (view.players[0], other) if player == 0 else (other, view.players[1])
    if view.deck_size:
        view.deck, view.deck_hidden, view.deck_bottom = (), view.deck_size, ()
    if view.noble_deck_size:
        view.noble_deck, view.noble_hidden, view.noble_bottom = (), view.noble_deck_size, ()
    return view.freeze()


def sample_unseen(seen: State, seat: int, rng: random.Random) -> State:
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


def standing(state: State) -> tuple[int, ...]:
    """Each player's points so far (T-SCORE): the greedy player's evaluation."""
    return tuple(p.total for p in score(state).players)


def score(state: State, *, several_deals: bool = False) -> Score:
    return score_table(table_of(state), several_deals=several_deals)


def score_table_json(data: Any, *, several_deals: bool = False) -> tuple[Score, list[Problem]]:
    table, warnings = read_table(data)
    return score_table(table, several_deals=several_deals), warnings


__all__ = ["Outcome", "apply_steps", "legal_moves", "new_game", "player_view", "sample_unseen", "score",
           "score_table_json", "standing", "state_json"]
