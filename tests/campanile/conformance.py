"""Campanile's adapters for the shared conformance harness (tests/conformance.py), every player count 2 to 5, with
and without the variant (bets on played towers), and the random games the registry-wide test
(tests/test_games_conform.py) plays with them: conservation of cards and tokens, legal list = accepted steps,
JSON round trips, views, termination; each game ends on a draw that empties a pile (C-END-1).

Cards and tokens are the harness's "cards": each card by its style, `token:<player>:<value>` (in supply or under
a tower); unknown cards (in a hand, a pile or the removed cards of a view) are unknown slots.
`CAMPANILE_CONFORMANCE_GAMES` sets how many random games per player count the registry-wide test plays (default 6).
"""
from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter

from service.games import campanile
from service.games.campanile import STYLES, TOKENS
from tests.conformance import GameAdapter, Plan, Stats, biased, by_type, hand_disagreement, library_adapter, uniform

GAMES = int(os.environ.get("CAMPANILE_CONFORMANCE_GAMES", "6"))
PLAYER_COUNTS = (2, 3, 4, 5)


def _token(player: int, value: int) -> str:
    return f"token:{player}:{value}"


def _cards(state: campanile.State) -> tuple[Counter, int]:
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


def _full_set(players: int) -> Counter:
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
    for name in ("turn", "step", "last_play", "towers", "bet_on_played"):
        if getattr(full, name) != getattr(view, name):
            return f"{name}: {getattr(full, name)!r} in the game, {getattr(view, name)!r} in the view"
    for k, (real, seen) in enumerate(zip(full.piles, view.piles)):
        if real.size != seen.size or real.cards[:len(seen.cards)] != seen.cards:
            return f"pile {k + 1}: {real} in the game, {seen} in the view"
    if len(full.removed) + full.removed_hidden != len(view.removed) + view.removed_hidden:
        return "the removed cards differ in number"
    for index, (real, seen) in enumerate(zip(full.players, view.players)):
        if real.supply != seen.supply:
            return f"player {index}'s supply differs"
        hand = hand_disagreement(index, viewer, real, seen)
        if hand is not None:
            return hand
    return None


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


def campanile_adapter(players: int) -> GameAdapter:
    return library_adapter(
        campanile, name=f"campanile-{players}p", new_game=lambda seed: campanile.new_game(seed, players=players),
        cards=_cards,
        full_set=_full_set(players),
        step_schema=STEP_SCHEMA,
        card_names=STYLES,
        card_pool=_card_pool,
        max_index=lambda state: 3,
        max_steps=600,
        reveal=_reveal,
        extra_candidates=_extra_candidates,
        resolve=lambda full, view: None,
        agree=_agree,
    )


ADAPTERS = {n: campanile_adapter(n) for n in PLAYER_COUNTS}


def bettor(rng: random.Random, legal, adapter: GameAdapter):
    """Bets whenever it can (so supplies run low and the value rule bites), otherwise uniform."""
    bets = [s for s in legal if s.type == "bet"]
    if bets and rng.random() < 0.9:
        return rng.choice(bets)
    return rng.choice(legal)


POLICIES = {"uniform": uniform, "biased": biased(0.03), "by_type": by_type(0.03), "bettor": bettor}


def _games(count: int) -> list[tuple[int, str, int]]:
    kinds = ("bettor", "uniform", "by_type", "biased")
    return [(n, kinds[i % len(kinds)], 100 * n + i) for n in PLAYER_COUNTS for i in range(count)]



def _ended_on_an_empty_pile(state: campanile.State, history: list[dict], stats: Stats) -> None:
    assert state.over
    assert any(pile.size == 0 for pile in state.piles)  # C-END-1: the game ended because a pile ran out
    assert history[-1]["type"] == "draw"
    assert stats.listed_applied > 0 and stats.candidates_accepted > 0


def _with_the_variant(state: campanile.State, history: list[dict], stats: Stats) -> None:
    assert state.over and state.bet_on_played


def variant_adapter(players: int) -> GameAdapter:
    return dataclasses.replace(ADAPTERS[players], name=f"campanile-{players}p-variant",
                               new_game=lambda seed: campanile.new_game(seed, players=players, bet_on_played=True))


def conformance_plans() -> list[Plan]:
    """Per player count, GAMES games (bettor, uniform, by type, biased in turn) and one game of the variant (a
    bettor)."""
    games = _games(GAMES)
    plans = [Plan(ADAPTERS[n], [(policy, seed) for players, policy, seed in games if players == n], POLICIES,
                  knobs={"random_candidates": 4, "near_miss_candidates": 4}, finished=_ended_on_an_empty_pile)
             for n in PLAYER_COUNTS]
    plans += [Plan(variant_adapter(n), [("bettor", 7 * n)], POLICIES,
                   knobs={"random_candidates": 3, "near_miss_candidates": 3}, finished=_with_the_variant)
              for n in PLAYER_COUNTS]
    return plans
