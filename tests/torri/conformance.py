"""Torri's knowledge for the shared conformance harness (tests/conformance.py), for the base game and the advanced
game (the ten nobles), and the random games the registry-wide test (tests/test_games_conform.py) plays with them:
all the cards conserved (T-COMP-4: 55 with the nobles), JSON round trips, legal list = accepted steps with Torri's
near misses, views, termination; each game ends with two passes. Everything else the harness takes from the
registered game (service.games.registry.GAMES["torri"]).

`CONFORMANCE_GAMES` sets how many random base games the registry-wide test plays (default 200: about 45 s on one
core, half that with the suite's two workers) and `CONFORMANCE_NOBLE_GAMES` how many noble games (default 40).
"""
from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any, Mapping

from service.games import torri
from service.games.registry import GAMES
from service.games.torri.cards import BUONA_PIETRA, CARD_NAMES, NOBLE_COUNTS, NOBLE_NAMES, TOWER_COUNTS, is_tower_card
from tests.conformance import (Conservation, Knowledge, Plan, Stats, Subject, biased, by_type, differing, in_turn,
                               players_disagreement, preferring, uniform)

GAMES_PLAYED = int(os.environ.get("CONFORMANCE_GAMES", "200"))
NOBLE_GAMES = int(os.environ.get("CONFORMANCE_NOBLE_GAMES", "40"))
ACTION_NOBLES = ("via_francigena", "monumento", "cappella", "palazzo", "mura")


def _pieces(state: torri.State) -> tuple[Counter, int]:
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


def _full_set(players: int, variant: Mapping[str, Any]) -> Counter:
    """T-COMP-4: the tower cards, and the ten nobles in the advanced game (55 cards)."""
    return Counter(TOWER_COUNTS) + (Counter(NOBLE_COUNTS) if variant["nobles"] else Counter())


def _card_pool(state: torri.State) -> list[str]:
    pool = [CARD_NAMES[c] for c in state.market]
    for player in state.players:
        pool.extend(CARD_NAMES[c] for c in player.hand)
    if state.deck:
        pool.append(CARD_NAMES[state.deck[0]])
    if state.nobles:
        if state.noble_deck:
            pool.append(CARD_NAMES[state.noble_deck[0]])
        pool.append("buona_pietra")
    return pool


def _max_index(state: torri.State) -> int:
    return max(len(p.towers) for p in state.players) + max(p.hand_size for p in state.players) // 3 + 1


def _reveal(state: torri.State, view: torri.State, step: torri.Step) -> torri.Step:
    """A step of the full state as a caller who sees only `view` sends it: naming the card that comes off the
    unknown deck (or the unknown noble deck), and the cards that the Trade's random positions pick from an unknown
    hand."""
    if step.type == "draw" and step.card is None:
        if step.source == "deck" and not view.deck and view.deck_hidden:
            return step._replace(card=(state.deck + state.deck_bottom)[0])
        if step.source == "noble_deck" and not view.noble_deck and view.noble_hidden:
            return step._replace(card=(state.noble_deck + state.noble_bottom)[0])
    if step.type == "take" and step.positions is not None:
        victim = state.players[1 - state.pending.player]
        if view.players[1 - state.pending.player].hidden:
            return torri.Step("take", cards=tuple(sorted(victim.hand[i] for i in step.positions)))
    return step


def _resolve(full: torri.State, view: torri.State) -> torri.Step | None:
    """Decisions only the view has: the cards a refill turns up (the full state knew them and refilled), and a
    Guard or Giostra window that only the view opened (the opponent's hand is unknown there, so it may hold a 5 or
    Giostra; the real hand does not): declined."""
    pending = view.pending
    if pending is None:
        return None
    if pending.type == "refill":
        return torri.Step("refill", cards=full.market)
    if pending.type in ("guard", "giostra") and (full.pending is None or full.pending.type != pending.type):
        return torri.Step("decline")
    return None


def _deck_disagreement(name: str, real: tuple, top: tuple, hidden: int, bottom: tuple) -> str | None:
    """How a view's deck (known cards on top, `hidden` unknown ones, known ones at the bottom) contradicts the real
    one, if it does."""
    if hidden:
        if real[:len(top)] != top or (bottom and real[-len(bottom):] != bottom):
            return f"the {name}'s known cards {top} ... {bottom} are not those of {real}"
    elif top + bottom != real:
        return f"{name} {top + bottom} in the view, {real} in the game"
    return None


def _agree(full: torri.State, view: torri.State, viewer: int) -> str | None:
    """How the view contradicts the full state, if it does (the nobles' fields too, empty in the base game)."""
    return (differing(full, view, ("phase", "turn", "to_act", "passes", "highest", "market", "pending", "deck_size",
                                   "removed", "palazzo", "noble_deck_size", "nobles", "closed_by"))
            or _deck_disagreement("deck", full.deck + full.deck_bottom, view.deck, view.deck_hidden,
                                  view.deck_bottom)
            or _deck_disagreement("noble deck", full.noble_deck + full.noble_bottom, view.noble_deck,
                                  view.noble_hidden, view.noble_bottom)
            or players_disagreement(full, view, viewer, ("towers", "played")))


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


def _candidates(state: torri.State, rng: random.Random) -> list[dict]:
    """The near misses of the game dealt: the base game's, or with the nobles theirs too."""
    return (_noble_extra_candidates if state.nobles else _extra_candidates)(state, rng)


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

KNOWLEDGE = Knowledge(
    conservation=Conservation(_pieces, _full_set),
    step_schema=STEP_SCHEMA,
    card_names=tuple(CARD_NAMES.values()),
    card_pool=_card_pool,
    max_index=_max_index,
    extra_candidates=_candidates,
    # A draw from a known deck may name its top card (a referee confirming it): the engine's canonical_step makes
    # that the same step as the listed one, without a card.
    canonical=torri.canonical_step,
    # The Game lists at most 10,000 steps (T-SVC-LIST), refusing more (a view's unknown hands multiply the choices
    # with the nobles); the engine lists them all.
    whole_listing=torri.legal_steps,
    reveal=_reveal,
    resolve=_resolve,
    agree=_agree,
)

GAME = GAMES["torri"]
BASE = Subject(GAME, knows=KNOWLEDGE)  # "torri"
NOBLES = Subject(GAME, variant={"nobles": True}, knows=KNOWLEDGE)  # "torri-nobles"


def _exchanging_little(rng: random.Random, legal, subject: Subject):
    others = [s for s in legal if s.type != "exchange"]
    return by_type(0.03)(rng, others if others and rng.random() < 0.9 else legal, subject)


# Draws from the market and rarely exchanges, so the market runs dry and refills (by_type otherwise).
market_hungry = preferring("market_hungry", lambda s: s.type == "draw" and s.source == "market", 0.8,
                           _exchanging_little)

POLICIES = {"uniform": uniform, "biased": biased(0.03), "by_type": by_type(0.03), "market_hungry": market_hungry}


def _likes_nobles(step: torri.Step) -> bool:
    """A noble drawn (off the noble deck or the market) or played, Giostra, Buona Pietra built or extended."""
    if step.type == "draw" and (step.source == "noble_deck" or (step.card is not None
                                                                  and not is_tower_card(step.card))):
        return True
    if step.type in ("noble", "giostra"):
        return True
    return step.type in ("build", "extend") and BUONA_PIETRA in step.cards


_liking_nobles = preferring("noble_hungry", _likes_nobles, 0.7, by_type(0.03))


def noble_hungry(rng: random.Random, legal, subject: Subject):
    """Draws nobles, plays them, builds with Buona Pietra and answers with Giostra when it can (by_type
    otherwise), so that the noble paths come up in every game."""
    rebuilds = [s for s in legal if s.type in ("build", "extend")]
    if rebuilds and any(s.type == "stop" for s in legal) and rng.random() < 0.8:  # after Giostra: rebuild if it can
        return rng.choice(rebuilds)
    return _liking_nobles(rng, legal, subject)


NOBLE_POLICIES = {**POLICIES, "noble_hungry": noble_hungry}


def _ended_with_two_passes(state: torri.State, history: list[dict], stats: Stats) -> None:
    assert state.phase == torri.OVER and state.passes == 2
    assert history[-2:] == [{"type": "pass"}, {"type": "pass"}]


def conformance_plans() -> list[Plan]:
    """The base game's random games (mostly long ones: biased away from pass, by step type or market-hungry; one
    in six uniform) and the noble games (noble-hungry three times in seven)."""
    base = ("biased", "by_type", "market_hungry", "biased", "by_type", "uniform")
    nobles = ("noble_hungry", "by_type", "noble_hungry", "biased", "noble_hungry", "uniform", "market_hungry")
    return [Plan(BASE, in_turn(base, range(1000, 1000 + GAMES_PLAYED)), POLICIES, finished=_ended_with_two_passes),
            Plan(NOBLES, in_turn(nobles, range(7000, 7000 + NOBLE_GAMES)), NOBLE_POLICIES,
                 knobs={"random_candidates": 3, "near_miss_candidates": 3}, finished=_ended_with_two_passes)]
