"""Torri (base game) against the conformance harness: seeded random games checked after every step, and
hypothesis properties of the JSON forms.

`CONFORMANCE_GAMES` sets how many random games the main test plays (default 200: about 45 s on one core, half
that with the suite's two workers); `CONFORMANCE_FOLLOWED` how many games a one-view referee follows (default 20).
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games import torri
from service.games.torri.cards import CARD_NAMES, TOWER_COUNTS
from tests.conformance import Checker, GameAdapter, biased, by_type, perft, uniform

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "200"))


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


def _apply(state: torri.State, step: torri.Step) -> torri.State:
    return torri.apply_step(state, step)[0]


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
        if index == viewer and (seen.hidden or seen.hand != real.hand):
            return f"the viewer's hand {seen.hand} (+{seen.hidden} unknown) is not {real.hand}"
        if real.hand_size != seen.hand_size:
            return f"player {index} holds {real.hand_size} cards, {seen.hand_size} in the view"
        if Counter(seen.hand) - Counter(real.hand):
            return f"player {index}'s known cards {seen.hand} are not all in the real hand {real.hand}"
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
    return GameAdapter(
        name="torri",
        new_game=lambda seed: torri.new_game(seed),
        legal_steps=torri.legal_steps,
        apply=_apply,
        illegal=(torri.IllegalStepError,),
        state_to_json=torri.state_json,
        state_from_json=torri.read_state,
        step_to_json=lambda step: step.to_json(),
        parse_step=torri.parse_step,
        malformed=(torri.MalformedError,),
        cards=_cards,
        full_set=Counter(TOWER_COUNTS),
        is_over=lambda state: state.phase == torri.OVER,
        to_act=lambda state: state.to_act,
        step_type=lambda step: step.type,
        step_schema=STEP_SCHEMA,
        card_names=tuple(CARD_NAMES.values()),
        card_pool=_card_pool,
        max_index=_max_index,
        max_steps=3000,
        view=torri.player_view,
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


@pytest.mark.slow
@pytest.mark.parametrize(("policy", "seed"), _games(GAMES), ids=lambda v: str(v))
def test_random_game_conforms(policy: str, seed: int) -> None:
    checker = Checker(ADAPTER)
    state, history = checker.play(seed, POLICIES[policy])
    assert state.phase == torri.OVER and state.passes == 2
    assert history[-2:] == [{"type": "pass"}, {"type": "pass"}]


FOLLOWED = int(os.environ.get("CONFORMANCE_FOLLOWED", "20"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2000, 2000 + FOLLOWED))
def test_referee_follows_a_game_from_one_view(seed: int) -> None:
    """A referee who sees one player's view (the other hand and the deck unknown) is fed the real game's steps,
    naming the cards that come off the deck and that the Trade picks: each is legal in the view, the view keeps
    agreeing with the game, every view position passes the harness's checks, and the score comes out the same."""
    policy = (market_hungry, by_type(0.03), biased(0.03))[seed % 3]
    checker = Checker(ADAPTER, random_candidates=3, near_miss_candidates=3)
    full, view = checker.follow(seed, policy, viewer=seed % 2)
    assert view.phase == torri.OVER
    assert torri.score(view).to_json() == torri.score(full).to_json()


def test_draw_naming_known_top_card_is_the_listed_draw() -> None:
    """Naming the known top card is accepted as the listed draw; naming another card is illegal (T-COMP-4)."""
    state = torri.apply_steps(torri.new_game(1000), [{"type": "purchase"}]).state
    top = state.deck[0]
    named = torri.parse_step({"type": "draw", "from": "deck", "card": torri.CARD_NAMES[top]})
    assert named not in torri.legal_steps(state)
    assert torri.canonical_step(state, named) in torri.legal_steps(state)
    assert torri.apply_step(state, named)[0] == torri.apply_step(state, torri.Step("draw", source="deck"))[0]
    other = next(rank for rank in torri.RANKS if rank != top)
    with pytest.raises(torri.IllegalStepError) as error:
        torri.apply_step(state, torri.parse_step({"type": "draw", "from": "deck", "card": torri.CARD_NAMES[other]}))
    assert error.value.problems[0].rule == "T-COMP-4"


def test_long_games_cover_every_step_type() -> None:
    """The biased policies reach every kind of step of the base game: the suite is not checking empty games."""
    checker = Checker(ADAPTER, random_candidates=0, near_miss_candidates=0, check_views=False)
    for i in range(40):
        checker.play(5000 + i, by_type(0.03) if i % 2 else biased(0.03), check=False)
    seen = set(checker.stats.step_types)
    base = {"purchase", "exchange", "draw", "build", "extend", "complete", "close", "pass", "guard", "decline",
            "target", "take", "give"}
    assert base <= seen, base - seen
    assert checker.stats.longest_game > 100


def test_views_reach_refill_and_named_draws() -> None:
    """In a view the deck is unknown: draws name their card, and an emptied market waits for a refill step."""
    seen: Counter = Counter()
    for seed in range(30):
        state = torri.new_game(seed)
        rng = random.Random(seed)
        while state.phase != torri.OVER:
            legal = torri.legal_steps(state)
            step = market_hungry(rng, legal, ADAPTER)
            view = torri.player_view(state, state.to_act)
            for view_step in torri.legal_steps(view):
                seen[view_step.type, view_step.card is not None] += 1
                if view_step.type == "draw" and view_step.source == "deck":
                    after = _apply(view, view_step)
                    if after.pending is not None and after.pending.type == "refill":
                        seen["refill-pending"] += 1
                        for refill in torri.legal_steps(after)[:3]:
                            _apply(after, refill)
            state = _apply(state, step)
    assert seen["draw", True] and seen["refill-pending"]


# ---------------------------------------------------------------- hypothesis properties

def _play(seed: int | str, steps: int, choices: int, *, nobles: bool = False, choose=biased(0.05),
          adapter: GameAdapter | None = None) -> list[torri.State]:
    """The states of a game of at most `steps` steps from a seeded deal, the steps picked by `choose`."""
    rng = random.Random(choices)
    state = torri.new_game(seed, nobles=nobles)
    states = [state]
    for _ in range(steps):
        legal = torri.legal_steps(state)
        if not legal:
            break
        state = _apply(state, choose(rng, legal, adapter or ADAPTER))
        states.append(state)
    return states


def assert_json_round_trip(state: torri.State) -> None:
    """The state and both players' views read back equal from their JSON, and write back the same bytes."""
    for candidate in (state, torri.player_view(state, 0), torri.player_view(state, 1)):
        text = json.dumps(torri.state_json(candidate))
        back = torri.read_state(json.loads(text))
        assert back == candidate
        assert json.dumps(torri.state_json(back)) == text


seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(max_size=12))


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32))
def test_json_round_trip(seed, steps, choices) -> None:
    assert_json_round_trip(_play(seed, steps, choices)[-1])


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_json_parses(seed, steps, choices) -> None:
    state = _play(seed, steps, choices)[-1]
    for candidate in (state, torri.player_view(state, state.to_act if state.to_act is not None else 0)):
        moves = json.loads(json.dumps(torri.legal_moves(candidate)))
        parsed = [torri.parse_step(move) for move in moves]
        assert parsed == torri.legal_steps(candidate)
        assert [step.to_json() for step in parsed] == moves


@given(seed=seeds, steps=st.integers(min_value=0, max_value=250), choices=st.integers(min_value=0, max_value=2**32),
       depth=st.integers(min_value=1, max_value=3))
def test_perft_survives_json(seed, steps, choices, depth) -> None:
    """The tree of step sequences below a position is the same below its JSON round trip."""
    state = _play(seed, steps, choices)[-1]
    back = torri.read_state(json.loads(json.dumps(torri.state_json(state))))
    assert perft(ADAPTER, back, depth) == perft(ADAPTER, state, depth)
