"""Whole-game operations on top of the engine: deal, apply a list of steps, replay, view, score."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable

from .cards import NOBLE_COUNTS, TOWER_COUNTS
from .codec import read_table, state_json, table_of
from .engine import apply_step, legal_steps
from .errors import IllegalStepError, MalformedError, Problem
from .model import MAIN, Player, State
from .scoring import Score, score_table
from .steps import Step, parse_step

HAND_SIZE = 5  # T-SETUP-1
MARKET_SIZE = 4


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
    first, second = names or ("Player 1", "Player 2")
    players = (Player(first, tuple(sorted(cards[:HAND_SIZE]))),
               Player(second, tuple(sorted(cards[HAND_SIZE:2 * HAND_SIZE]))))
    market = tuple(sorted(cards[2 * HAND_SIZE:2 * HAND_SIZE + MARKET_SIZE]))
    deck = tuple(cards[2 * HAND_SIZE + MARKET_SIZE:])
    return State(nobles, MAIN, 0, 0, 0, None, deck, 0, (), market, players, None, noble_deck)


def as_step(step: Step | dict, index: int = 0) -> Step:
    if isinstance(step, Step):
        return step
    try:
        return parse_step(step)
    except MalformedError as error:
        raise MalformedError([p.under(f"/{index}") for p in error.problems]) from None


@dataclass(slots=True)
class Outcome:
    """What applying a list of steps gave: the state after the last legal one, and what happened."""

    legal: bool
    state: State
    events: list[dict]
    violations: list[Problem] = field(default_factory=list)
    failed_at: int | None = None
    states: list[State] = field(default_factory=list)  # after each applied step, when asked for


def apply_steps(state: State, steps: Iterable[Step | dict], *, keep_states: bool = False) -> Outcome:
    """Apply steps in order, stopping at the first illegal one. Malformed steps raise MalformedError
    (pointers from the list) before anything is applied."""
    parsed = [as_step(step, i) for i, step in enumerate(steps)]
    events: list[dict] = []
    states: list[State] = []
    for index, step in enumerate(parsed):
        try:
            state, happened = apply_step(state, step)
        except IllegalStepError as error:
            return Outcome(False, state, events, [p.under(f"/{index}") for p in error.problems], index, states)
        for event in happened:
            event["step"] = index
        events.extend(happened)
        if keep_states:
            states.append(state)
    return Outcome(True, state, events, [], None, states)


MAX_LEGAL_STEPS = 10_000  # T-SVC-LIST


def legal_moves(state: State, *, limit: int | None = MAX_LEGAL_STEPS) -> list[dict[str, Any]]:
    return [step.to_json() for step in legal_steps(state, limit=limit)]


def player_view(state: State, player: int) -> State:
    """The state as `player` may see it: the opponent's hand and both decks' order become counts."""
    view = state.copy()
    other = view.players[1 - player].copy()
    other.hand, other.hidden = (), other.hand_size
    view.players = (view.players[0], other) if player == 0 else (other, view.players[1])
    if view.deck_size:
        view.deck, view.deck_hidden, view.deck_bottom = (), view.deck_size, ()
    if view.noble_deck_size:
        view.noble_deck, view.noble_hidden, view.noble_bottom = (), view.noble_deck_size, ()
    return view


def score(state: State, *, several_deals: bool = False) -> Score:
    return score_table(table_of(state), several_deals=several_deals)


def score_table_json(data: Any, *, several_deals: bool = False) -> tuple[Score, list[Problem]]:
    table, warnings = read_table(data)
    return score_table(table, several_deals=several_deals), warnings


__all__ = ["Outcome", "apply_steps", "legal_moves", "new_game", "player_view", "score", "score_table_json",
           "state_json"]
