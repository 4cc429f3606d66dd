"""The computer players (service/games/core/players.py) on every game, through the library alone: every suggestion
legal from random positions of every game, variant and player count; the player never peeks; deals of what a seat
cannot see are real positions consistent with its view; answers reproducible from the seed."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.games.core.errors import GameOverError
from service.games.core.game import Game
from service.games.core.players import LEVELS, Budget, suggest
from service.games.registry import GAMES


@dataclass(frozen=True)
class Setup:
    game: str
    players: int
    variant: tuple[str, ...] = ()

    def deal(self, seed: int) -> Any:
        game = GAMES[self.game]
        variant = {v.name: v.example for v in game.info.variants if v.name in self.variant}
        names = [f"Player {i + 1}" for i in range(self.players)]
        return game.new_game(seed, names=names, variant=variant)

    def __str__(self) -> str:
        return f"{self.game}-{self.players}p" + "".join(f"-{v}" for v in self.variant)


def setups(game_id: str) -> list[Setup]:
    """What a game is played with here, from its info: the base game at the fewest players; each variant (at its
    example) at one player more where the game seats more; and every variant at once at the most players, where
    that is more again."""
    info = GAMES[game_id].info
    variants = tuple(variant.name for variant in info.variants)
    more = min(info.min_players + 1, info.max_players)
    found = [Setup(game_id, info.min_players), *(Setup(game_id, more, (name,)) for name in variants)]
    if info.max_players > more:
        found.append(Setup(game_id, info.max_players, variants))
    return found


SETUPS = [setup for game_id in GAMES for setup in setups(game_id)]
FEWEST = [setups(game_id)[0] for game_id in GAMES]  # each game's base game at the fewest players
MOST = [setups(game_id)[-1] for game_id in GAMES]  # each game at the most players tried, its variants on


def library(setup: Setup) -> Any:
    return GAMES[setup.game]


def position(setup: Setup, seed: int, fraction: float) -> Any:
    """A state `fraction` of the way through a random game of `setup` (someone is to act)."""
    lib, rng = library(setup), random.Random(seed)
    state, states = setup.deal(seed), []
    while lib.to_act(state) is not None:
        states.append(state)
        state = lib.apply_step(state, rng.choice(lib.legal_steps(state)))[0]
    return states[min(len(states) - 1, int(fraction * len(states)))]


def with_hidden(setup: Setup, seed: int) -> Any:
    """A position where the player to act cannot see everything (an opponent's hand, a deck, a bag)."""
    lib = library(setup)
    for attempt in range(50):
        state = position(setup, seed + attempt, 0.3 / (1 + attempt % 5))  # San Gimignano's hands empty early
        seat = lib.to_act(state)
        if lib.seen_by(state, seat) != state:
            return state
    raise AssertionError(f"no position of {setup} hides anything")


@pytest.mark.parametrize("setup", SETUPS, ids=str)
@settings(max_examples=12)
@given(seed=st.integers(0, 10 ** 6), fraction=st.floats(0, 1), level=st.sampled_from(LEVELS))
def test_every_suggestion_is_legal(setup: Setup, seed: int, fraction: float, level: str) -> None:
    lib = library(setup)
    state = position(setup, seed, fraction)
    found = suggest(lib, state, level=level, seed=seed, budget=Budget(playouts=8))
    outcome = lib.apply_steps(state, found.steps, keep_states=True)
    assert outcome.legal, (found.steps, outcome.violations)
    assert found.player == lib.to_act(state)
    assert all(lib.to_act(after) == found.player for after in outcome.states[:-1])  # the player's own steps


@pytest.mark.parametrize("setup", SETUPS, ids=str)
@settings(max_examples=10)
@given(seed=st.integers(0, 10 ** 6), fraction=st.floats(0, 1), level=st.sampled_from(LEVELS))
def test_a_state_with_unknown_cards_gets_steps_it_takes(setup: Setup, seed: int, fraction: float,
                                                        level: str) -> None:
    """A referee's record of a real table counts what it does not know (here: the player's own view): a draw
    from a counted deck names the card, a blind take the cards taken, as that state takes them."""
    lib = library(setup)
    state = position(setup, seed, fraction)
    view = lib.player_view(state, lib.to_act(state))
    found = suggest(lib, view, level=level, seed=seed, budget=Budget(playouts=8))
    outcome = lib.apply_steps(view, found.steps)
    assert found.steps and outcome.legal, (found.steps, outcome.violations)


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_every_state_of_whole_games_gets_a_legal_suggestion(setup: Setup) -> None:
    """Every state of a random game, whatever is due (a pending decision, a capture, a Giostra window, the
    ending phase), at each level in turn."""
    lib = library(setup)
    rng, state, asked = random.Random(1), setup.deal(1), 0
    while lib.to_act(state) is not None:
        found = suggest(lib, state, level=LEVELS[asked % 3], seed=asked, budget=Budget(playouts=3))
        assert lib.apply_steps(state, found.steps).legal, (asked, found.steps)
        state, asked = lib.apply_step(state, rng.choice(lib.legal_steps(state)))[0], asked + 1


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_a_turn_of_several_steps_is_suggested_whole(setup: Setup) -> None:
    """The steps run to the end of the player's turn, or to a step whose outcome the player cannot know: then
    other deals of what it cannot see give it other views or other options after the steps."""
    lib = library(setup)
    rules = lib
    for seed in range(6):
        state = position(setup, seed, 0.5)
        seat = rules.to_act(state)
        found = suggest(rules, state, level="greedy", seed=seed)
        if rules.to_act(lib.apply_steps(state, found.steps).state) != seat:
            continue  # the turn is over
        seen = rules.seen_by(state, seat)
        outcomes = set()
        for k in range(30):
            after = lib.apply_steps(rules.sample_unseen(seen, seat, random.Random(k)), found.steps).state
            outcomes.add((rules.player_view(after, seat), tuple(rules.legal_steps(after))))
        assert len(outcomes) > 1, found.steps


@pytest.mark.parametrize("setup", SETUPS, ids=str)
@settings(max_examples=8)
@given(seed=st.integers(0, 10 ** 6), fraction=st.floats(0, 1))
def test_a_deal_of_the_unseen_is_a_real_position_the_player_cannot_tell_apart(setup: Setup, seed: int,
                                                                                fraction: float) -> None:
    lib = library(setup)
    rules = lib
    state = position(setup, seed, fraction)
    seat = rules.to_act(state)
    seen = rules.seen_by(state, seat)
    dealt = rules.sample_unseen(seen, seat, random.Random(seed))
    assert rules.seen_by(dealt, seat) == seen
    assert rules.player_view(dealt, seat) == rules.player_view(state, seat)
    reading = lib.load_state(lib.state_json(dealt))
    assert not reading.errors, reading.errors
    assert rules.seen_by(dealt, seat) == rules.seen_by(rules.sample_unseen(seen, seat, random.Random(seed + 1)), seat)


@pytest.mark.parametrize("setup", SETUPS, ids=str)
@pytest.mark.parametrize("level", LEVELS)
def test_it_never_peeks(setup: Setup, level: str) -> None:
    """Two states that differ only in what the player to act cannot see get the same suggestion for the same seed
    and playouts."""
    rules = library(setup)
    if type(rules).sample_unseen is Game.sample_unseen:  # a game that hides nothing: each seat sees it all
        state = position(setup, 0, 0.5)
        assert rules.seen_by(state, rules.to_act(state)) == state
        return
    for seed in range(3):
        state = with_hidden(setup, 100 * seed)
        seat = rules.to_act(state)
        seen = rules.seen_by(state, seat)
        # a deal of the unseen may happen to be the real one (few hexagons left to a San Gimignano of four): the
        # first that differs
        dealt = (rules.sample_unseen(seen, seat, random.Random(f"other:{seed}:{k}")) for k in range(20))
        other = next((other for other in dealt if other != state), None)
        assert other is not None and rules.seen_by(other, seat) == seen, "every deal of the unseen was the real one"
        first = suggest(rules, state, level=level, seed=seed, budget=Budget(playouts=40))
        second = suggest(rules, other, level=level, seed=seed, budget=Budget(playouts=40))
        assert (first.steps, first.best, first.alternatives) == (second.steps, second.best, second.alternatives)


def test_it_never_peeks_at_the_opponents_hand_in_torri() -> None:
    """Torri, built by hand: the opponent's hand and the deck trade a card; nothing else changes."""
    lib = GAMES["torri"]
    state = lib.new_game(7)
    opponent = state.players[1]
    card = next(c for c in state.deck if c not in opponent.hand)
    draft = state.draft()
    hand = list(opponent.hand)
    given_away = hand.pop()
    draft.players = (state.players[0], type(opponent)(opponent.name, tuple(sorted(hand + [card]))))
    deck = list(state.deck)
    deck[deck.index(card)] = given_away
    draft.deck = tuple(deck)
    other = draft.freeze()
    assert lib.player_view(other, 0) == lib.player_view(state, 0)
    first = suggest(lib, state, seed=3, budget=Budget(playouts=60))
    second = suggest(lib, other, seed=3, budget=Budget(playouts=60))
    assert (first.steps, first.best, first.alternatives) == (second.steps, second.best, second.alternatives)


@pytest.mark.parametrize("setup", MOST, ids=str)
def test_the_same_seed_and_playouts_give_the_same_answer(setup: Setup) -> None:
    rules = library(setup)
    state = position(setup, 5, 0.4)
    first, second = (suggest(rules, state, seed="same", budget=Budget(playouts=30)) for _ in range(2))
    assert (first.steps, first.best, first.alternatives) == (second.steps, second.best, second.alternatives)
    assert first.playouts == 30 and first.complete


def test_the_ceiling_stops_a_playout_budget_and_says_so() -> None:
    rules = GAMES["carcassonne"]
    state = position(Setup("carcassonne", 2), 1, 0.1)
    found = suggest(rules, state, seed=1, budget=Budget(playouts=100_000, ceiling=0.0))
    assert not found.complete and found.playouts < 100_000
    assert GAMES["carcassonne"].apply_steps(state, found.steps).legal


def test_the_search_reports_its_figures() -> None:
    rules = GAMES["campanile"]
    state = position(Setup("campanile", 3), 2, 0.2)
    found = suggest(rules, state, seed=2, budget=Budget(playouts=120))
    assert found.playouts == 120
    assert 0 <= found.best.win_chance <= 1 and found.best.playouts > 0
    assert all(a.playouts <= found.best.playouts for a in found.alternatives)
    assert found.best.playouts + sum(a.playouts for a in found.alternatives) <= 120


def test_greedy_takes_the_points_on_offer() -> None:
    """Torri's deal 5: a tower can be built from hand; greedy builds it (T-SCORE: a tower scores)."""
    lib = GAMES["torri"]
    state = lib.new_game(5)
    found = suggest(lib, state, level="greedy", seed=0)
    assert found.steps[0].type == "build" and found.best.margin > 0


def test_carcassonne_places_the_tile_drawn() -> None:
    """With a listed bag the tile to place is the bag's first: the player holds it (K-PLACE), so the suggestion
    places that tile, at every level."""
    lib = GAMES["carcassonne"]
    state = position(Setup("carcassonne", 2), 3, 0.3)
    while state.step.name != "PLACE":
        state = lib.apply_step(state, lib.legal_steps(state)[0])[0]
    for level in LEVELS:
        found = suggest(lib, state, level=level, seed=1, budget=Budget(playouts=20))
        assert found.steps[0].tile == state.bag.tiles[0]


@pytest.mark.parametrize("setup", FEWEST, ids=str)
def test_a_finished_game_has_no_suggestion(setup: Setup) -> None:
    lib, rng = library(setup), random.Random(0)
    state = setup.deal(0)
    while lib.to_act(state) is not None:
        state = lib.apply_step(state, rng.choice(lib.legal_steps(state)))[0]
    with pytest.raises(GameOverError):
        suggest(lib, state, level="mcts", seed=0)
