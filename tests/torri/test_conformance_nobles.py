"""Torri, advanced game (the ten nobles), against the conformance harness: seeded random games checked after every
step (all 55 cards conserved, JSON round trip, legal list = accepted with noble near misses, termination), games
followed by a referee who sees one player's view (the other hand, the tower deck and the noble deck unknown), and
hypothesis properties of the JSON forms.

`CONFORMANCE_NOBLE_GAMES` sets how many random games the main test plays (default 40) and `CONFORMANCE_NOBLE_FOLLOWED`
how many games a one-view referee follows (default 12): the whole file takes about 45 s of one core, half that with
the suite's two workers.
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games import torri
from service.games.torri.cards import (BUONA_PIETRA, CARD_NAMES, NOBLE_COUNTS, NOBLE_NAMES, PALAZZO, TOWER_COUNTS,
                                       is_tower_card)
from tests.conformance import Checker, GameAdapter, biased, by_type, perft, uniform
from tests.torri import test_conformance as base

GAMES = int(os.environ.get("CONFORMANCE_NOBLE_GAMES", "40"))
FOLLOWED = int(os.environ.get("CONFORMANCE_NOBLE_FOLLOWED", "12"))
ACTION_NOBLES = ("via_francigena", "monumento", "cappella", "palazzo", "mura")


def _reveal(state: torri.State, view: torri.State, step: torri.Step) -> torri.Step:
    """The base game's reveal, plus the noble drawn off an unknown noble deck."""
    if step.type == "draw" and step.source == "noble_deck" and step.card is None and not view.noble_deck \
            and view.noble_hidden:
        return step._replace(card=(state.noble_deck + state.noble_bottom)[0])
    return base._reveal(state, view, step)


def _resolve(full: torri.State, view: torri.State) -> torri.Step | None:
    """The base game's view-only decisions, plus a Giostra window that only the view opened (the opponent's hand is
    unknown there, so it may hold Giostra; the real hand does not): declined."""
    pending = view.pending
    if pending is not None and pending.type == "giostra" and (full.pending is None or full.pending.type != "giostra"):
        return torri.Step("decline")
    return base._resolve(full, view)


def _agree(full: torri.State, view: torri.State, viewer: int) -> str | None:
    problem = base._agree(full, view, viewer)
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


def _extra_candidates(state: torri.State, rng: random.Random) -> list[dict]:
    """The base game's near misses, plus the noble ones: every noble played as an action (held or not), Palazzo
    with 0, 1, 2 or 3 cards of cost (from hand or not, the Palazzo itself among them), Giostra, decline and stop
    whatever is pending, Buona Pietra stacks with their kind/rank dropped, added or wrong, stacks of nobles only,
    and rebuilds with the wrong cards or tower."""
    out = base._extra_candidates(state, rng)
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


def _card_pool(state: torri.State) -> list[str]:
    pool = base._card_pool(state)
    if state.noble_deck:
        pool.append(CARD_NAMES[state.noble_deck[0]])
    pool.append("buona_pietra")
    return pool


def noble_adapter() -> GameAdapter:
    return dataclasses.replace(
        base.ADAPTER,
        name="torri-nobles",
        new_game=lambda seed: torri.new_game(seed, nobles=True),
        full_set=Counter(TOWER_COUNTS) + Counter(NOBLE_COUNTS),  # T-COMP-4: all 55 cards
        card_pool=_card_pool,
        reveal=_reveal,
        resolve=_resolve,
        agree=_agree,
        extra_candidates=_extra_candidates,
    )


ADAPTER = noble_adapter()


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


POLICIES = {"uniform": uniform, "biased": biased(0.03), "by_type": by_type(0.03), "noble_hungry": noble_hungry,
            "market_hungry": base.market_hungry}


def _games(count: int) -> list[tuple[str, int]]:
    kinds = ("noble_hungry", "by_type", "noble_hungry", "biased", "noble_hungry", "uniform", "market_hungry")
    return [(kinds[i % len(kinds)], 7000 + i) for i in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize(("policy", "seed"), _games(GAMES), ids=lambda v: str(v))
def test_random_noble_game_conforms(policy: str, seed: int) -> None:
    checker = Checker(ADAPTER, random_candidates=3, near_miss_candidates=3)
    state, history = checker.play(seed, POLICIES[policy])
    assert state.phase == torri.OVER and state.passes == 2
    assert history[-2:] == [{"type": "pass"}, {"type": "pass"}]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8000, 8000 + FOLLOWED))
def test_referee_follows_a_noble_game_from_one_view(seed: int) -> None:
    """A referee who sees one player's view (the other hand, the tower deck and the noble deck unknown) is fed the
    real game's steps, naming the cards that come off either deck: each is legal in the view, the view keeps
    agreeing with the game, every view position passes the harness's checks, and the score comes out the same."""
    policy = (noble_hungry, by_type(0.03), noble_hungry, biased(0.03))[seed % 4]
    checker = Checker(ADAPTER, random_candidates=2, near_miss_candidates=2)
    full, view = checker.follow(seed, policy, viewer=seed % 2)
    assert view.phase == torri.OVER
    assert torri.score(view).to_json() == torri.score(full).to_json()


def test_noble_games_cover_every_noble_step() -> None:
    """The policies reach every noble decision: each action noble played (a Palazzo fizzling too), Buona Pietra built
    and extended, Giostra answering a build and an action noble, Giostra declined, Via Francigena stopped, a rebuild
    and a rebuild stopped, nobles drawn from the noble deck and from the market."""
    seen: set[tuple] = set()
    for i in range(60):
        seed = 9000 + i
        rng = random.Random(f"cover:{seed}")
        state = torri.new_game(seed, nobles=True)
        while state.phase != torri.OVER:
            step = noble_hungry(rng, torri.legal_steps(state), ADAPTER)
            pending = state.pending
            after = torri.apply_step(state, step)[0]
            if step.type == "noble":
                fizzled = step.card == PALAZZO and PALAZZO in after.removed and after.pending is None
                seen.add(("noble", CARD_NAMES[step.card]) + (("fizzled",) if fizzled else ()))
            elif pending is not None and pending.type == "rebuild":
                seen.add(("rebuild", step.type))
            elif step.type in ("build", "extend") and BUONA_PIETRA in step.cards:
                seen.add((step.type, "buona_pietra"))
            elif step.type == "giostra":
                seen.add(("giostra", "build" if pending.action in ("build", "extend") else "noble"))
            elif step.type == "decline" and pending.type == "giostra":
                seen.add(("decline",))
            elif step.type == "stop":
                seen.add(("stop", pending.action))
            elif step.type == "draw" and step.source == "noble_deck":
                seen.add(("draw", "noble_deck"))
            elif step.type == "draw" and step.card is not None and not is_tower_card(step.card):
                seen.add(("draw", "market noble"))
            state = after
    wanted = {("noble", name) for name in ACTION_NOBLES} | {
        ("noble", "palazzo", "fizzled"), ("build", "buona_pietra"), ("extend", "buona_pietra"), ("giostra", "build"),
        ("giostra", "noble"), ("decline",), ("stop", "via_francigena"), ("rebuild", "build"), ("rebuild", "stop"),
        ("draw", "noble_deck"), ("draw", "market noble")}
    assert wanted <= seen, wanted - seen


# ---------------------------------------------------------------- hypothesis properties

def _play(seed, steps: int, choices: int) -> list[torri.State]:
    return base._play(seed, steps, choices, nobles=True, choose=noble_hungry, adapter=ADAPTER)


seeds = base.seeds


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32))
def test_noble_json_round_trip(seed, steps, choices) -> None:
    base.assert_json_round_trip(_play(seed, steps, choices)[-1])


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32),
       depth=st.integers(min_value=1, max_value=2))
def test_noble_perft_survives_json(seed, steps, choices, depth) -> None:
    state = _play(seed, steps, choices)[-1]
    back = torri.read_state(json.loads(json.dumps(torri.state_json(state))))
    assert perft(ADAPTER, back, depth) == perft(ADAPTER, state, depth)
