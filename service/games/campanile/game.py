"""Whole-game operations on top of the engine: deal, apply a list of steps, view, score."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Iterable

from ..core.errors import Problem
from ..core.players import shuffled_rest
from ..core.stepping import Outcome, Stepper, player_names, to_act
from .cards import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PILES, STYLES, full_deck, in_play_per_style, pile_size
from .engine import apply_step, legal_steps
from .model import Pile, Player, State, empty_towers
from .position import _known_cards, table_of
from .schemas import parse_step, read_table
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


STEPS: Stepper[State, Step] = Stepper(Step, parse_step, apply_step, legal_steps)
as_step = STEPS.as_step  # (step, index=0) -> Step
apply_steps = STEPS.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step
legal_moves = STEPS.legal_moves  # (state) -> every legal step's JSON form


def player_view(state: State, player: int) -> State:
    """The state as `player` may see it (C-SVC-UNKNOWN): the other hands, the removed cards and every pile below
    its face-up top become counts. Towers, tokens, supplies and the tops are public."""
    players = tuple(p if i == player else p._replace(hand=(), hidden=p.hand_size)
                    for i, p in enumerate(state.players))
    piles = tuple(Pile(pile.cards[:1], pile.size - 1) if pile.size > 1 else pile for pile in state.piles)
    removed = len(state.removed) + state.removed_hidden
    return replace(state, players=players, piles=piles, removed=(), removed_hidden=removed)


def sample_unseen(seen: State, seat: int, rng: random.Random) -> State:
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


def standing(state: State) -> tuple[int, ...]:
    """Each player's points so far (C-END-3): the greedy player's evaluation."""
    return tuple(p.total for p in score_state(state).players)


def score(state: State) -> Score:
    return score_state(state)


def score_table_json(data: Any) -> tuple[Score, list[Problem]]:
    table, warnings = read_table(data)
    return score_table(table), warnings


__all__ = ["Outcome", "apply_steps", "as_step", "legal_moves", "new_game", "player_view", "sample_unseen", "score",
           "score_table_json", "standing", "table_of", "to_act"]
