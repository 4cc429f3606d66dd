"""Campanile's knowledge for the shared conformance harness (tests/conformance.py), and the random games the
registry-wide test (tests/test_games_conform.py) plays with it, every player count 2 to 5, with and without the
variant (bets on played towers): conservation of cards and tokens, legal list = accepted steps, JSON round trips,
views, termination; each game ends on a draw that empties a pile (C-END-1). Everything else the harness takes from
the registered game (service.games.registry.GAMES["campanile"]).

Cards and tokens are the harness's pieces: each card by its style, `token:<player>:<value>` (in supply or under
a tower); unknown cards (in a hand, a pile or the removed cards of a view) are unknown slots.
`CAMPANILE_CONFORMANCE_GAMES` sets how many random games per player count the registry-wide test plays (default 6).
"""
from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any, Mapping

from service.games import campanile
from service.games.campanile import STYLES, TOKENS
from service.games.registry import GAMES
from tests.conformance import (Conservation, Knowledge, Plan, Stats, Subject, biased, by_type, differing, in_turn,
                               players_disagreement, preferring, uniform)

GAMES_PLAYED = int(os.environ.get("CAMPANILE_CONFORMANCE_GAMES", "6"))
PLAYER_COUNTS = (2, 3, 4, 5)


def _token(player: int, value: int) -> str:
    return f"token:{player}:{value}"


def _pieces(state: campanile.State) -> tuple[Counter, int]:
    """The cards and tokens a state holds: known cards (tower plays count one card each) and tokens as pseudo-cards
    `token:<player>:<value>` (in supply or under a tower), plus the unknown card slots."""
    known = campanile.known_cards(state)
    hidden = state.removed_hidden + sum(p.hidden for p in state.players) + sum(p.hidden for p in state.piles)
    for index, player in enumerate(state.players):
        for value in (1, 2, 3):
            known[_token(index, value)] += player.supply[value - 1]
    for tower in state.towers:
        for token in tower.tokens:
            known[_token(token.player, token.value)] += 1
    return known, hidden


def _full_set(players: int, variant: Mapping[str, Any]) -> Counter:
    full = Counter(campanile.full_deck(players))
    for index in range(players):
        for value, count in TOKENS.items():
            full[_token(index, value)] = count
    return full


def _card_pool(state: campanile.State) -> list[str]:
    pool = [c for p in state.players for c in p.hand]
    pool.extend(p.top for p in state.piles if p.top is not None)
    return pool


def _reveal(full: campanile.State, view: campanile.State, step: campanile.Step) -> campanile.Step:
    """A full-state step as a caller who sees only `view` sends it: a draw names the card turned face up when the
    view does not know it."""
    if step.type == "draw" and full.last_play is not None:
        k = full.last_play.stories - 1
        seen = view.piles[k]
        if seen.hidden and len(seen.cards) == 1:
            return step._replace(reveals=full.piles[k].cards[1])
    return step


def _agree(full: campanile.State, view: campanile.State, viewer: int) -> str | None:
    problem = differing(full, view, ("turn", "step", "last_play", "towers", "bet_on_played"))
    if problem:
        return problem
    for k, (real, seen) in enumerate(zip(full.piles, view.piles)):
        if real.size != seen.size or real.cards[:len(seen.cards)] != seen.cards:
            return f"pile {k + 1}: {real} in the game, {seen} in the view"
    if len(full.removed) + full.removed_hidden != len(view.removed) + view.removed_hidden:
        return "the removed cards differ in number"
    return players_disagreement(full, view, viewer, ("supply",))


def _extra_candidates(state: campanile.State, rng: random.Random) -> list[dict]:
    """Campanile's own near misses, a sample of them per position: any card with any story count, any bet, any
    reveal, a pass."""
    out: list[dict] = [{"type": "pass"}, {"type": "no_bet"}, {"type": "draw"}]
    out.extend({"type": "play", "card": style, "stories": s} for style in STYLES for s in (1, 2, 3))
    out.extend({"type": "bet", "tower": t, "value": v} for t in range(5) for v in (1, 2, 3))
    out.extend({"type": "draw", "reveals": style} for style in STYLES)
    return rng.sample(out, 8)


STEP_SCHEMA = {
    "play": {"card": "card", "stories": "index"},
    "bet": {"tower": "index", "value": "index"},
    "no_bet": {},
    "draw": {"reveals": "card"},
    "pass": {},
}

KNOWLEDGE = Knowledge(
    conservation=Conservation(_pieces, _full_set),
    step_schema=STEP_SCHEMA,
    card_names=STYLES,
    card_pool=_card_pool,
    max_index=lambda state: 3,
    max_steps=600,
    reveal=_reveal,
    extra_candidates=_extra_candidates,
    agree=_agree,
)

GAME = GAMES["campanile"]
SUBJECTS = {n: Subject(GAME, n, knows=KNOWLEDGE) for n in PLAYER_COUNTS}  # "campanile-2p", …
# (the names seed the random games: those the variant has always played)
VARIANT_SUBJECTS = {n: Subject(GAME, n, {"bet_on_played": True}, KNOWLEDGE, name=f"campanile-{n}p-variant")
                    for n in PLAYER_COUNTS}

# Bets whenever it can (so supplies run low and the value rule bites), otherwise uniform.
bettor = preferring("bettor", lambda step: step.type == "bet", 0.9)

POLICIES = {"uniform": uniform, "biased": biased(0.03), "by_type": by_type(0.03), "bettor": bettor}


def _ended_on_an_empty_pile(state: campanile.State, history: list[dict], stats: Stats) -> None:
    assert state.over
    assert any(pile.size == 0 for pile in state.piles)  # C-END-1: the game ended because a pile ran out
    assert history[-1]["type"] == "draw"


def _with_the_variant(state: campanile.State, history: list[dict], stats: Stats) -> None:
    assert state.over and state.bet_on_played


def conformance_plans() -> list[Plan]:
    """Per player count, GAMES_PLAYED games (bettor, uniform, by type, biased in turn) and one game of the variant
    (a bettor)."""
    kinds = ("bettor", "uniform", "by_type", "biased")
    plans = [Plan(SUBJECTS[n], in_turn(kinds, range(100 * n, 100 * n + GAMES_PLAYED)), POLICIES,
                  knobs={"random_candidates": 4, "near_miss_candidates": 4}, finished=_ended_on_an_empty_pile)
             for n in PLAYER_COUNTS]
    plans += [Plan(VARIANT_SUBJECTS[n], [("bettor", 7 * n)], POLICIES,
                   knobs={"random_candidates": 3, "near_miss_candidates": 3}, finished=_with_the_variant)
              for n in PLAYER_COUNTS]
    return plans
