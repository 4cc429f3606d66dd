"""Torri's adapters for the shared conformance harness (tests/conformance.py), the base game and the advanced game
(the ten nobles), and the random games the registry-wide test (tests/test_games_conform.py) plays with them: all
the cards conserved (T-COMP-4: 55 with the nobles), JSON round trips, legal list = accepted steps with Torri's
near misses, views, termination; each game ends with two passes.

`CONFORMANCE_GAMES` sets how many random base games the registry-wide test plays (default 200: about 45 s on one
core, half that with the suite's two workers) and `CONFORMANCE_NOBLE_GAMES` how many noble games (default 40).
"""
from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter

from service.games import torri
from service.games.torri.cards import BUONA_PIETRA, CARD_NAMES, NOBLE_COUNTS, NOBLE_NAMES, TOWER_COUNTS, is_tower_card
from tests.conformance import GameAdapter, Plan, Stats, biased, by_type, hand_disagreement, library_adapter, uniform

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "200"))
NOBLE_GAMES = int(os.environ.get("CONFORMANCE_NOBLE_GAMES", "40"))
ACTION_NOBLES = ("via_francigena", "monumento", "cappella", "palazzo", "mura")


def _cards(state: torri.State) -> tuple[Counter, int]:
    known = Counter(state.deck)
    known.update(state.deck_bottom)
    known.update(state.market)
    known.update(state.noble_deck)
    known.update(state.noble_bottom)
    known.update(state.removed)
    hidden = state.deck_hidden + state.noble_hidden
    for player in state.players:
        known.update(player.hand)
        known.update(player.played)
        hidden += player.hidden
        for tower in player.towers:
            known.update(tower.cards)
    return known, hidden



def _card_pool(state: torri.State) -> list[str]:
    pool = [CARD_NAMES[c] for c in state.market]
    for player in state.players:
        pool.extend(CARD_NAMES[c] for c in player.hand)
    if state.deck:
        pool.append(CARD_NAMES[state.deck[0]])
    return pool


def _max_index(state: torri.State) -> int:
    return max(len(p.towers) for p in state.players) + max(p.hand_size for p in state.players) // 3 + 1


def _reveal(state: torri.State, view: torri.State, step: torri.Step) -> torri.Step:
    """A step of the full state as a caller who sees only `view` sends it: naming the card that comes off the
    unknown deck, and the cards that the Trade's random positions pick from an unknown hand."""
    if step.type == "draw" and step.source == "deck" and step.card is None and not view.deck and view.deck_hidden:
        return step._replace(card=(state.deck + state.deck_bottom)[0])
    if step.type == "take" and step.positions is not None:
        victim = state.players[1 - state.pending.player]
        if view.players[1 - state.pending.player].hidden:
            return torri.Step("take", cards=tuple(sorted(victim.hand[i] for i in step.positions)))
    return step


def _resolve(full: torri.State, view: torri.State) -> torri.Step | None:
    """Decisions only the view has: the cards a refill turns up (the full state knew them and refilled), and a
    Guard window that the real hand, holding no 5, never opened (declined)."""
    pending = view.pending
    if pending is None:
        return None
    if pending.type == "refill":
        return torri.Step("refill", cards=full.market)
    if pending.type == "guard" and (full.pending is None or full.pending.type != "guard"):
        return torri.Step("decline")
    return None


def _agree(full: torri.State, view: torri.State, viewer: int) -> str | None:
    """How the view contradicts the full state, if it does."""
    for name in ("phase", "turn", "to_act", "passes", "highest", "market", "pending", "deck_size"):
        if getattr(full, name) != getattr(view, name):
            return f"{name}: {getattr(full, name)!r} in the game, {getattr(view, name)!r} in the view"
    deck = full.deck
    if view.deck_hidden:
        bottom = view.deck_bottom
        if deck[:len(view.deck)] != view.deck or (bottom and deck[-len(bottom):] != bottom):
            return f"the deck's known cards {view.deck} ... {view.deck_bottom} are not those of {deck}"
    elif view.deck + view.deck_bottom != deck:
        return f"deck {view.deck + view.deck_bottom} in the view, {deck} in the game"
    for index, (real, seen) in enumerate(zip(full.players, view.players)):
        if real.towers != seen.towers:
            return f"player {index}'s towers differ"
        hand = hand_disagreement(index, viewer, real, seen)
        if hand is not None:
            return hand
    return None


def _extra_candidates(state: torri.State, rng: random.Random) -> list[dict]:
    """Torri's own near misses: a market card the Exchange excluded, the deck's top named right or wrong, every
    tower index for extend/complete/target, positions one past the end."""
    out: list[dict] = []
    pending = state.pending
    if pending is not None and pending.type == "draw":
        out.extend({"type": "draw", "from": "market", "card": CARD_NAMES[c]} for c in pending.excluded)
        if state.deck:
            out.append({"type": "draw", "from": "deck", "card": CARD_NAMES[state.deck[0]]})
            out.append({"type": "draw", "from": "deck", "card": str(rng.choice(torri.RANKS))})
        out.append({"type": "draw", "from": "noble_deck"})
    if pending is None:
        player = state.players[state.turn]
        index = rng.randrange(len(player.towers) + 2)
        out.append({"type": "complete", "towers": [index]})
        out.append({"type": "extend", "tower": index,
                    "cards": [CARD_NAMES[c] for c in player.hand[:rng.randrange(1, 3)]] or ["5"]})
    if pending is not None and pending.type in ("target", "guard"):
        for owner, player in enumerate(state.players):
            out.append({"type": "target", "player": owner, "tower": rng.randrange(len(player.towers) + 1)})
    if pending is not None and pending.type == "take":
        size = state.players[1 - pending.player].hand_size
        out.append({"type": "take", "positions": list(range(size - pending.left + 1, size + 1))})
        out.append({"type": "take", "positions": list(range(max(0, pending.left - 1)))})
    return out


def _canonical(state: torri.State, step: torri.Step) -> torri.Step:
    """A draw from a known deck may name its top card (a referee confirming it): the engine's canonical_step
    makes that the same step as the listed one, without a card."""
    return torri.canonical_step(state, step)


_CARDS = "cards"
STEP_SCHEMA = {
    "purchase": {},
    "exchange": {"cards": _CARDS},
    "draw": {"from": ("deck", "market", "noble_deck"), "card": "card"},
    "stop": {},
    "build": {"cards": _CARDS, "kind": ("plain", "colorful"), "rank": "index"},
    "extend": {"tower": "index", "cards": _CARDS, "kind": ("plain", "colorful"), "rank": "index"},
    "complete": {"towers": "indices"},
    "close": {},
    "pass": {},
    "guard": {},
    "giostra": {},
    "decline": {},
    "target": {"player": "index", "tower": "index"},
    "take": {"positions": "indices", "cards": _CARDS},
    "give": {"cards": _CARDS},
    "refill": {"cards": _CARDS},
    "noble": {"card": "card", "cost": _CARDS},
}


def torri_adapter() -> GameAdapter:
    return library_adapter(
        torri, name="torri", new_game=lambda seed: torri.new_game(seed),
        cards=_cards,
        full_set=Counter(TOWER_COUNTS),
        is_over=lambda state: state.phase == torri.OVER,
        to_act=lambda state: state.to_act,
        step_schema=STEP_SCHEMA,
        card_names=tuple(CARD_NAMES.values()),
        card_pool=_card_pool,
        max_index=_max_index,
        max_steps=3000,
        reveal=_reveal,
        extra_candidates=_extra_candidates,
        canonical=_canonical,
        resolve=_resolve,
        agree=_agree,
    )


ADAPTER = torri_adapter()


def market_hungry(rng: random.Random, legal, adapter: GameAdapter):
    """Draws from the market and rarely exchanges, so the market runs dry and refills (by_type otherwise)."""
    market = [s for s in legal if s.type == "draw" and s.source == "market"]
    if market and rng.random() < 0.8:
        return rng.choice(market)
    others = [s for s in legal if s.type != "exchange"]
    return by_type(0.03)(rng, others if others and rng.random() < 0.9 else legal, adapter)


def _games(count: int) -> list[tuple[str, int]]:
    """Mostly long games (choices biased away from pass, or by step type, or market-hungry); one in six uniform."""
    kinds = ("biased", "by_type", "market_hungry", "biased", "by_type", "uniform")
    return [(kinds[i % len(kinds)], 1000 + i) for i in range(count)]


POLICIES = {"uniform": uniform, "biased": biased(0.03), "by_type": by_type(0.03), "market_hungry": market_hungry}


# ---------------------------------------------------------------- the advanced game (nobles)

def _noble_reveal(state: torri.State, view: torri.State, step: torri.Step) -> torri.Step:
    """The base game's reveal, plus the noble drawn off an unknown noble deck."""
    if step.type == "draw" and step.source == "noble_deck" and step.card is None and not view.noble_deck \
            and view.noble_hidden:
        return step._replace(card=(state.noble_deck + state.noble_bottom)[0])
    return _reveal(state, view, step)


def _noble_resolve(full: torri.State, view: torri.State) -> torri.Step | None:
    """The base game's view-only decisions, plus a Giostra window that only the view opened (the opponent's hand is
    unknown there, so it may hold Giostra; the real hand does not): declined."""
    pending = view.pending
    if pending is not None and pending.type == "giostra" and (full.pending is None or full.pending.type != "giostra"):
        return torri.Step("decline")
    return _resolve(full, view)


def _noble_agree(full: torri.State, view: torri.State, viewer: int) -> str | None:
    problem = _agree(full, view, viewer)
    if problem:
        return problem
    for name in ("removed", "palazzo", "noble_deck_size", "nobles", "closed_by"):
        if getattr(full, name) != getattr(view, name):
            return f"{name}: {getattr(full, name)!r} in the game, {getattr(view, name)!r} in the view"
    deck = full.noble_deck + full.noble_bottom
    if view.noble_hidden:
        bottom = view.noble_bottom
        if deck[:len(view.noble_deck)] != view.noble_deck or (bottom and deck[-len(bottom):] != bottom):
            return f"the noble deck's known cards {view.noble_deck} ... {bottom} are not those of {deck}"
    elif view.noble_deck + view.noble_bottom != deck:
        return f"noble deck {view.noble_deck + view.noble_bottom} in the view, {deck} in the game"
    for index, (real, seen) in enumerate(zip(full.players, view.players)):
        if real.played != seen.played:
            return f"player {index}'s played row differs: {real.played} in the game, {seen.played} in the view"
    return None


def _names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _noble_extra_candidates(state: torri.State, rng: random.Random) -> list[dict]:
    """The base game's near misses, plus the noble ones: every noble played as an action (held or not), Palazzo
    with 0, 1, 2 or 3 cards of cost (from hand or not, the Palazzo itself among them), Giostra, decline and stop
    whatever is pending, Buona Pietra stacks with their kind/rank dropped, added or wrong, stacks of nobles only,
    and rebuilds with the wrong cards or tower."""
    out = _extra_candidates(state, rng)
    pending = state.pending
    out.extend([{"type": "giostra"}, {"type": "decline"}, {"type": "stop"}])
    player = state.players[state.to_act if state.to_act is not None else 0]
    hand = _names(player.hand)
    if pending is None:
        for name in NOBLE_NAMES.values():
            out.append({"type": "noble", "card": name})
        out.append({"type": "noble", "card": rng.choice(ACTION_NOBLES), "cost": rng.sample(hand, min(2, len(hand)))})
        rest = list(hand)
        if "palazzo" in rest:
            rest.remove("palazzo")
        for size in (0, 1, 2, 3):
            cost = rng.sample(rest, min(size, len(rest)))
            out.append({"type": "noble", "card": "palazzo", "cost": cost})
        out.append({"type": "noble", "card": "palazzo", "cost": ["palazzo"] + rest[:1]})
        out.append({"type": "noble", "card": "palazzo", "cost": [rng.choice(list(NOBLE_NAMES.values())), "5"]})
        nobles_held = [c for c in hand if c in NOBLE_NAMES.values()]
        if nobles_held:  # T-NOB-BP: a tower needs a tower card; nobles other than Buona Pietra are no stories
            stack = [rng.choice(nobles_held) for _ in range(3)]
            out.append({"type": "build", "cards": stack})
            out.append({"type": "build", "cards": ["buona_pietra"] + stack[:2]})
            out.append({"type": "build", "cards": [nobles_held[0]] * 2 + ["buona_pietra"]})
            if player.towers:
                out.append({"type": "extend", "tower": rng.randrange(len(player.towers)), "cards": [nobles_held[0]]})
        out.append({"type": "build", "cards": ["buona_pietra"] * 3})
    for step in _sample(torri.legal_steps(state), rng, 3):
        if step.type in ("build", "extend") and BUONA_PIETRA in step.cards:
            data = step.to_json()
            if "kind" in data:  # ambiguous: without kind/rank, or with the other kind, or a rank off by one
                out.append({k: v for k, v in data.items() if k not in ("kind", "rank")})
                out.append({**data, "kind": "plain" if data["kind"] == "colorful" else "colorful"})
                out.append({**data, "rank": data["rank"] + rng.choice((-1, 1))})
                out.append({k: v for k, v in data.items() if k != "rank"})
            elif step.type == "build":  # unambiguous: kind/rank are taken if they agree, refused if not
                out.append({**data, "kind": "plain", "rank": max(c for c in step.cards if is_tower_card(c))})
                out.append({**data, "kind": "colorful", "rank": 11})
            swapped = list(data["cards"])
            rng.shuffle(swapped)
            out.append({**data, "cards": swapped})
        if step.type == "noble" and step.cost:
            cost = list(_names(step.cost))
            out.append({"type": "noble", "card": "palazzo", "cost": cost[:1]})
            out.append({"type": "noble", "card": "palazzo", "cost": cost + cost[:1]})
    if pending is not None and pending.type == "rebuild":
        cards = _names(pending.cards)
        out.append({"type": "build", "cards": cards + ["buona_pietra"]})
        out.append({"type": "build", "cards": cards[:-1]})
        out.append({"type": "extend", "tower": (pending.tower or 0) + 1, "cards": cards})
        out.append({"type": "build", "cards": list(reversed(cards))})
    if pending is not None and pending.type == "draw":
        for card in set(state.market):
            out.append({"type": "draw", "from": "market", "card": CARD_NAMES[card]})
    return out


def _sample(items, rng: random.Random, count: int) -> list:
    items = list(items)
    return items if len(items) <= count else rng.sample(items, count)


def _noble_card_pool(state: torri.State) -> list[str]:
    pool = _card_pool(state)
    if state.noble_deck:
        pool.append(CARD_NAMES[state.noble_deck[0]])
    pool.append("buona_pietra")
    return pool


def noble_adapter() -> GameAdapter:
    return dataclasses.replace(
        ADAPTER,
        name="torri-nobles",
        new_game=lambda seed: torri.new_game(seed, nobles=True),
        full_set=Counter(TOWER_COUNTS) + Counter(NOBLE_COUNTS),  # T-COMP-4: all 55 cards
        card_pool=_noble_card_pool,
        reveal=_noble_reveal,
        resolve=_noble_resolve,
        agree=_noble_agree,
        extra_candidates=_noble_extra_candidates,
    )


NOBLE_ADAPTER = noble_adapter()


def noble_hungry(rng: random.Random, legal, adapter: GameAdapter):
    """Draws nobles, plays them, builds with Buona Pietra and answers with Giostra when it can (by_type
    otherwise), so that the noble paths come up in every game."""
    def liked(step: torri.Step) -> bool:
        if step.type == "draw" and (step.source == "noble_deck" or (step.card is not None
                                                                      and not is_tower_card(step.card))):
            return True
        if step.type in ("noble", "giostra"):
            return True
        return step.type in ("build", "extend") and BUONA_PIETRA in step.cards

    rebuilds = [s for s in legal if s.type in ("build", "extend")]
    if rebuilds and any(s.type == "stop" for s in legal) and rng.random() < 0.8:  # after Giostra: rebuild if it can
        return rng.choice(rebuilds)
    favourites = [s for s in legal if liked(s)]
    if favourites and rng.random() < 0.7:
        return rng.choice(favourites)
    return by_type(0.03)(rng, legal, adapter)


NOBLE_POLICIES = {**POLICIES, "noble_hungry": noble_hungry}


def _noble_games(count: int) -> list[tuple[str, int]]:
    kinds = ("noble_hungry", "by_type", "noble_hungry", "biased", "noble_hungry", "uniform", "market_hungry")
    return [(kinds[i % len(kinds)], 7000 + i) for i in range(count)]


def _ended_with_two_passes(state: torri.State, history: list[dict], stats: Stats) -> None:
    assert state.phase == torri.OVER and state.passes == 2
    assert history[-2:] == [{"type": "pass"}, {"type": "pass"}]


def conformance_plans() -> list[Plan]:
    """The base game's random games (mostly long ones: biased away from pass, by step type or market-hungry; one
    in six uniform) and the noble games (noble-hungry three times in seven)."""
    return [Plan(ADAPTER, _games(GAMES), POLICIES, finished=_ended_with_two_passes),
            Plan(NOBLE_ADAPTER, _noble_games(NOBLE_GAMES), NOBLE_POLICIES,
                 knobs={"random_candidates": 3, "near_miss_candidates": 3}, finished=_ended_with_two_passes)]
