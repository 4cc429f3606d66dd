"""Campanile against the shared conformance harness (tests/conformance.py), for every player count 2 to 5:
seeded random games checked after every step (conservation of cards and tokens, legal list = accepted steps,
JSON round trips, views, termination), a referee following a game from one player's view, and hypothesis
properties of the JSON forms.

`CAMPANILE_CONFORMANCE_GAMES` sets how many random games per player count the main test plays (default 6).
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games import campanile
from service.games.campanile import STYLES, TOKENS
from tests.conformance import Checker, GameAdapter, biased, by_type, json_paths, perft, uniform

GAMES = int(os.environ.get("CAMPANILE_CONFORMANCE_GAMES", "6"))
FOLLOWED = int(os.environ.get("CAMPANILE_CONFORMANCE_FOLLOWED", "3"))
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


def _apply(state: campanile.State, step: campanile.Step) -> campanile.State:
    return campanile.apply_step(state, step)[0]


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
        if index == viewer and (seen.hidden or seen.hand != real.hand):
            return f"the viewer's hand {seen.hand} (+{seen.hidden} unknown) is not {real.hand}"
        if real.hand_size != seen.hand_size:
            return f"player {index} holds {real.hand_size} cards, {seen.hand_size} in the view"
        if Counter(seen.hand) - Counter(real.hand):
            return f"player {index}'s known cards {seen.hand} are not all in the real hand {real.hand}"
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
    return GameAdapter(
        name=f"campanile-{players}p",
        new_game=lambda seed: campanile.new_game(seed, players=players),
        legal_steps=campanile.legal_steps,
        apply=_apply,
        illegal=(campanile.IllegalStepError,),
        state_to_json=campanile.state_json,
        state_from_json=campanile.read_state,
        step_to_json=lambda step: step.to_json(),
        parse_step=campanile.parse_step,
        malformed=(campanile.MalformedError,),
        cards=_cards,
        full_set=_full_set(players),
        is_over=lambda state: state.over,
        to_act=campanile.to_act,
        step_type=lambda step: step.type,
        step_schema=STEP_SCHEMA,
        card_names=STYLES,
        card_pool=_card_pool,
        max_index=lambda state: 3,
        max_steps=600,
        view=campanile.player_view,
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


@pytest.mark.parametrize(("players", "policy", "seed"), _games(GAMES), ids=lambda v: str(v))
def test_random_game_conforms(players: int, policy: str, seed: int) -> None:
    checker = Checker(ADAPTERS[players], random_candidates=4, near_miss_candidates=4)
    state, history = checker.play(seed, POLICIES[policy])
    assert state.over
    assert any(pile.size == 0 for pile in state.piles)  # C-END-1: the game ended because a pile ran out
    assert history[-1]["type"] == "draw"
    assert checker.stats.listed_applied > 0 and checker.stats.candidates_accepted > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_game_with_the_variant_conforms(players: int) -> None:
    base = ADAPTERS[players]
    adapter = GameAdapter(**{**base.__dict__, "name": f"campanile-{players}p-variant",
                             "new_game": lambda seed: campanile.new_game(seed, players=players, bet_on_played=True)})
    checker = Checker(adapter, random_candidates=3, near_miss_candidates=3)
    state, _ = checker.play(7 * players, bettor)
    assert state.over and state.bet_on_played


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", range(FOLLOWED))
def test_referee_follows_a_game_from_one_view(players: int, seed: int) -> None:
    """A referee who sees one player's view (other hands, the removed cards and the piles below their tops unknown)
    is fed the real game's steps, naming each card turned face up: each is legal in the view, the view keeps
    agreeing with the game, every view position passes the harness's checks, and the score comes out the same."""
    checker = Checker(ADAPTERS[players], random_candidates=2, near_miss_candidates=2)
    full, view = checker.follow(1000 + seed, (bettor, by_type(0.03), uniform)[seed % 3], viewer=seed % players)
    assert view.over
    assert campanile.score(view).to_json() == campanile.score(full).to_json()


def test_long_games_cover_every_step_type() -> None:
    seen: Counter = Counter()
    for players in PLAYER_COUNTS:
        checker = Checker(ADAPTERS[players], random_candidates=0, near_miss_candidates=0, check_views=False)
        for i in range(4):
            checker.play(9000 + i, (bettor, uniform)[i % 2], check=False)
        seen.update(checker.stats.step_types)
    assert {"play", "bet", "no_bet", "draw"} <= set(seen)


# ---------------------------------------------------------------- hypothesis properties

def _play(players: int, seed, steps: int, choices: int, variant: bool = False) -> campanile.State:
    rng = random.Random(choices)
    state = campanile.new_game(seed, players=players, bet_on_played=variant)
    for _ in range(steps):
        legal = campanile.legal_steps(state)
        if not legal:
            break
        state = _apply(state, rng.choice(legal))
    return state


seeds = st.one_of(st.integers(min_value=0, max_value=2**40), st.text(max_size=12))
counts = st.sampled_from(PLAYER_COUNTS)


@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=160),
       choices=st.integers(min_value=0, max_value=2**32), variant=st.booleans())
def test_json_round_trip(players, seed, steps, choices, variant) -> None:
    state = _play(players, seed, steps, choices, variant)
    for candidate in (state, *(campanile.player_view(state, p) for p in range(players))):
        text = json.dumps(campanile.state_json(candidate))
        back = campanile.read_state(json.loads(text))
        assert back == candidate
        assert json.dumps(campanile.state_json(back)) == text


@given(players=counts, seed=seeds, steps=st.integers(min_value=0, max_value=160),
       choices=st.integers(min_value=0, max_value=2**32))
def test_legal_moves_json_parses(players, seed, steps, choices) -> None:
    state = _play(players, seed, steps, choices)
    for candidate in (state, campanile.player_view(state, state.turn)):
        moves = json.loads(json.dumps(campanile.legal_moves(candidate)))
        parsed = [campanile.parse_step(move) for move in moves]
        assert parsed == campanile.legal_steps(candidate)
        assert [step.to_json() for step in parsed] == moves


@given(players=counts, seed=seeds, depth=st.integers(min_value=1, max_value=3))
def test_perft_counts_listed_steps(players, seed, depth) -> None:
    adapter = ADAPTERS[players]
    state = campanile.new_game(seed, players=players)
    assert perft(adapter, state, 1) == len(campanile.legal_steps(state))
    assert perft(adapter, state, depth + 1) == sum(perft(adapter, _apply(state, s), depth)
                                                   for s in campanile.legal_steps(state))


json_values = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from(["A", "E", "x", ""]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
                               ["count", "top", "known", "1", "player", "value", "tower", "stories"]), inner,
                               max_size=3), max_leaves=8)


@given(players=counts, steps=st.integers(min_value=0, max_value=60), data=st.data())
def test_mutated_states_are_answered_never_crash(players, steps, data) -> None:
    """Any document near a real state is either read (valid or with rule problems) or refused as malformed; legal
    steps of a readable state apply."""
    doc = campanile.state_json(_play(players, 5, steps, steps))
    paths = [p for p in json_paths(doc) if p]
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        path = data.draw(st.sampled_from(paths))
        node = doc
        try:
            for key in path[:-1]:
                node = node[key]
            if data.draw(st.booleans()) and isinstance(node, dict):
                node.pop(path[-1], None)
            else:
                node[path[-1]] = data.draw(json_values)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        errors, _ = campanile.validate_state(doc)
    except campanile.MalformedError:
        return
    if errors:
        with pytest.raises(campanile.InvalidStateError):
            campanile.read_state(doc)
        return
    state = campanile.read_state(doc)
    for step in campanile.legal_steps(state):
        campanile.apply_step(state, step)
    campanile.score(state)
