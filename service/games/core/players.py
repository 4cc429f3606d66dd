"""Computer players, written once against the game protocol (`service.games.core.game.Game`): a seat filled, or
a hint for a player learning the game.

Three levels, after boardgame.io's bots and OpenSpiel's search:

- `random`: a legal step chosen uniformly (boardgame.io's RandomBot over `ai.enumerate`);
- `greedy`: the step after which the game's own evaluation (`Game.evaluate`: the score so far, in points)
  puts the player furthest ahead of the best opponent;
- `mcts`: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012; OpenSpiel's `ismcts.py`),
  single observer: every iteration deals afresh what the player to act cannot see (`Game.sample_unseen`,
  consistent with the player's view), walks one tree of that player's information set (steps not available in
  this deal are skipped; a step's UCB counts only the iterations where it was available), plays at random to the
  end, or for the game's `playout_turns` and then judges by its evaluation (the leader wins: a short playout is
  many more playouts, and a random one long enough drowns what a step did), and backs up each seat's share of
  the win.

The player never peeks: whatever the level, the search starts from what the seat to act sees, so two states that
differ only in what that seat cannot see give the same suggestion for the same seed (and playout budget).

A suggestion is the player's steps up to the end of their turn, or up to a step whose outcome they cannot know in
advance (a card drawn from a face-down deck): beyond it, the next steps depend on what it reveals, so the caller
applies the steps and asks again.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Hashable, Mapping, Sequence, TypeVar

from .errors import GameOverError, IllegalStepError, Problem
from .game import Game, Json
from .messages import tr

S = TypeVar("S")  # a game's state
T = TypeVar("T", bound=Hashable)  # a game's step
H = TypeVar("H", bound=Hashable)  # a card, a tile: a piece of a game's composition

LEVELS = ("random", "greedy", "mcts")
EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1]
CHECKS = 6  # deals a step is applied to, to tell whether it reveals what the player could not see
ALTERNATIVES = 4  # the runner-up steps an answer reports


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search runs: `playouts` iterations (reproducible), or `seconds` of wall clock; either way never
    past `ceiling` seconds (a worker is never held longer)."""

    playouts: int | None = None
    seconds: float | None = None
    ceiling: float | None = None

    def deadline(self, started: float) -> float:
        limits = [s for s in (self.seconds, self.ceiling) if s is not None]
        return started + min(limits) if limits else math.inf


@dataclass(frozen=True, slots=True)
class Appraisal(Generic[T]):
    """One first step and what the search thinks of it: the player's chance of winning, the points ahead of the
    best opponent it expects (at the end of a playout, or after the step for `greedy`), the playouts that began
    with it."""

    step: T
    win_chance: float | None
    margin: float | None
    playouts: int


@dataclass(frozen=True, slots=True)
class Suggestion(Generic[T]):
    """The steps suggested (the seat's turn, or its steps up to one that reveals something), how the first was
    judged, the runner-up first steps, and the work done: playouts, milliseconds, whether a playout budget ran in
    full (False: the time ceiling stopped it)."""

    level: str
    player: int
    steps: list[T]
    best: Appraisal[T]
    alternatives: list[Appraisal[T]]
    playouts: int
    elapsed_ms: float
    complete: bool = True


def suggest(game: Game[S, T], state: S, *, level: str = "mcts", seed: int | str = 0,
            budget: Budget = Budget(playouts=200)) -> Suggestion[T]:
    """The suggestion of `level` for the seat to act in `state`; GameOverError when no one is to act."""
    started = time.perf_counter()
    seat = game.to_act(state)
    if seat is None:
        raise GameOverError(Problem(None, "/state", tr("The game is over: no one is to act, so there is no step "
                                                       "to suggest.")))
    if level not in LEVELS:
        raise ValueError(f"level is one of {', '.join(LEVELS)}, not {level!r}")
    rng = random.Random(f"suggest:{level}:{seed}")
    view = game.seen_by(state, seat)  # from here on, the search sees nothing else
    deals = [game.sample_unseen(view, seat, rng) for _ in range(CHECKS)]
    if level == "mcts":
        search = Search(game, view, seat, rng, budget)
        search.run(started)
        best, alternatives = search.appraisals()
        follow: Callable[[S], T] = search.follower(best.step)
        playouts, complete = search.playouts, search.complete
    else:
        choose = _greedy_choice if level == "greedy" else _random_choice
        best, alternatives = choose(game, deals[0], seat, rng)
        follow = lambda deal: choose(game, deal, seat, rng)[0].step  # noqa: E731
        playouts, complete = 0, True
    steps = _as_the_state_takes_them(game, state, deals[0], _turn(game, deals, seat, best.step, follow))
    return Suggestion(level, seat, steps, best, alternatives, playouts, (time.perf_counter() - started) * 1000,
                      complete)


def _turn(game: Game[S, T], deals: list[S], seat: int, first: T, follow: Callable[[S], T]) -> list[T]:
    """The steps from `first` on while the seat stays to act and each step's outcome is the same in every deal
    (it revealed nothing the seat could not see before): `follow(deal)` chooses each next one."""
    steps = [first]
    while True:
        deals = [after for deal in deals if (after := _after(game, deal, steps[-1])) is not None]
        if not deals or any(game.to_act(deal) != seat for deal in deals):
            return steps
        seen, options = game.player_view(deals[0], seat), game.legal_steps(deals[0])
        if any(game.player_view(deal, seat) != seen or game.legal_steps(deal) != options for deal in deals[1:]):
            return steps
        steps.append(follow(deals[0]))


def _as_the_state_takes_them(game: Game[S, T], state: S, deal: S, steps: list[T]) -> list[T]:
    """The steps in the form `state` takes them. A state that counts a deck, a bag or a hand without listing it
    (a referee's record of a real table) takes a draw or a blind take only with the cards named: such a step
    becomes the listed step that does in `deal` what it does there (failing that, the first that names more,
    or of its kind), and ends the suggestion (what follows depends on what it revealed)."""
    taken: list[T] = []
    for step in steps:
        after = _after(game, state, step)
        if after is not None:
            taken.append(step)
            state, deal = after, _after(game, deal, step) or deal
            continue
        outcome, written = _after(game, deal, step), step.to_json()  # type: ignore[attr-defined]
        listed = game.legal_steps(state)
        named = [s for s in listed if outcome is not None and _after(game, deal, s) == outcome] or \
            [s for s in listed if written.items() <= s.to_json().items()] or \
            [s for s in listed if s.to_json()["type"] == written["type"]] or listed  # type: ignore[attr-defined]
        taken.extend(named[:1])
        break
    return taken


def _after(game: Game[S, T], deal: S, step: T) -> S | None:
    """The deal after the step; None where the step does not fit the deal (a step naming what it asserts, such as
    the tile drawn from a counted bag, fits only the deals that agree)."""
    try:
        return game.apply_step(deal, step)[0]
    except IllegalStepError:
        return None


def _random_choice(game: Game[S, T], deal: S, seat: int, rng: random.Random) -> tuple[Appraisal[T], list]:
    return Appraisal(rng.choice(game.legal_steps(deal)), None, None, 0), []


def shuffled_rest(full: Mapping[H, int], known: Mapping[H, int], rng: random.Random) -> list[H]:
    """The pieces of a game whose composition is `full` that are not among the `known` ones, in a random order:
    what a seat cannot account for, to deal into what it cannot see."""
    rest = [piece for piece, count in full.items() for _ in range(count - known.get(piece, 0))]
    rng.shuffle(rest)
    return rest


def margin_of(standing: Sequence[float], seat: int) -> float:
    """How far `seat` is ahead of the best of the others (negative: behind)."""
    return standing[seat] - max(v for i, v in enumerate(standing) if i != seat)


def _greedy_choice(game: Game[S, T], deal: S, seat: int, rng: random.Random) -> tuple[Appraisal[T], list]:
    """Each legal step applied to the deal and evaluated; the best margin first (ties in a seeded random order)."""
    legal = game.legal_steps(deal)
    rng.shuffle(legal)
    judged = [Appraisal(step, None, margin_of(game.evaluate(game.apply_step(deal, step)[0]), seat), 0)
              for step in legal]
    judged.sort(key=lambda a: -a.margin)  # type: ignore[operator]  # a stable sort keeps the shuffled order of ties
    return judged[0], judged[1:1 + ALTERNATIVES]


def _shares(game: Game[S, T], finished: S) -> list[float]:
    """Each seat's share of the win of a finished game: 1 for a sole winner, split among the winners of a tie."""
    winners = game.winners(finished)
    shares = [0.0] * game.players(finished)
    for w in winners:
        shares[w] = 1.0 / len(winners)
    return shares


def _judged(standing: Sequence[float], lead_scale: float | None) -> list[float]:
    """Each seat's chance of winning a game cut short with this standing: a logistic of its lead over the best of
    the others, in units of `lead_scale` (a lead of one unit: 73 %); without a scale, the leaders split the win."""
    if lead_scale is not None:
        return [1 / (1 + math.exp(-margin_of(standing, seat) / lead_scale)) for seat in range(len(standing))]
    best = max(standing)
    leaders = [i for i, v in enumerate(standing) if v == best]
    return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(len(standing))]


@dataclass(slots=True)
class Node(Generic[T]):
    """The information set reached by a sequence of steps: per step taken from it, the child, and per child the
    visits, the reward of the seat that chose it, the margins its playouts ended with, and the iterations in which
    it was available (ISMCTS's availability count)."""

    children: dict[Any, "Node[T]"] = field(default_factory=dict)
    visits: int = 0
    reward: float = 0.0
    margin: float = 0.0
    available: int = 0

    def ucb(self) -> float:
        return self.reward / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)

    def most_visited(self, legal: list[T]) -> T | None:
        counted = [(self.children[s].visits, i) for i, s in enumerate(legal) if s in self.children]
        return legal[max(counted)[1]] if counted and max(counted)[0] > 0 else None


class Search(Generic[S, T]):
    """Single-observer information-set MCTS from `view` (what `seat` sees)."""

    def __init__(self, game: Game[S, T], view: S, seat: int, rng: random.Random, budget: Budget) -> None:
        self.game, self.view, self.seat, self.rng, self.budget = game, view, seat, rng, budget
        self.root: Node[T] = Node()
        self.playouts = 0
        self.complete = True

    def run(self, started: float) -> None:
        deadline = self.budget.deadline(started)
        target = self.budget.playouts
        while target is None or self.playouts < target:
            if time.perf_counter() >= deadline:
                self.complete = target is None  # a playout budget cut short by the ceiling is not reproducible
                return
            self.iterate()
            self.playouts += 1

    def iterate(self) -> None:
        game, rng = self.game, self.rng
        state = game.sample_unseen(self.view, self.seat, rng)
        node, path = self.root, []  # path: (node, the seat that chose the step into it)
        while (actor := game.to_act(state)) is not None:
            legal = game.legal_steps(state)
            children = node.children
            untried = [s for s in legal if s not in children]
            if untried:  # expand one step never taken from here
                step = rng.choice(untried)
                for s in legal:
                    if s in children:
                        children[s].available += 1
                child = children[step] = Node(available=1)
                path.append((child, actor))
                state = game.apply_step(state, step)[0]
                break
            for s in legal:
                children[s].available += 1
            step = max(legal, key=lambda s: children[s].ucb())
            node = children[step]
            path.append((node, actor))
            state = game.apply_step(state, step)[0]
        turns, last = game.playout_turns, actor
        while (actor := game.to_act(state)) is not None:  # the playout: uniformly random steps
            if actor != last and turns is not None:
                if turns == 0:
                    break
                turns, last = turns - 1, actor
            state = game.apply_step(state, rng.choice(game.legal_steps(state)))[0]
        standing = game.evaluate(state)
        shares = _shares(game, state) if actor is None else _judged(standing, game.lead_scale)
        for visited, actor in path:
            visited.visits += 1
            visited.reward += shares[actor]
            visited.margin += margin_of(standing, actor)

    def appraisals(self) -> tuple[Appraisal[T], list[Appraisal[T]]]:
        """The first steps, most played first (the robust choice): the best and the runners-up."""
        ranked = sorted(self.root.children.items(), key=lambda item: -item[1].visits)
        judged = [Appraisal(step, n.reward / n.visits if n.visits else None, n.margin / n.visits if n.visits else None,
                            n.visits) for step, n in ranked]
        if not judged:  # no iteration ran (a zero budget): a legal step all the same
            deal = self.game.sample_unseen(self.view, self.seat, self.rng)
            judged = [Appraisal(self.rng.choice(self.game.legal_steps(deal)), None, None, 0)]
        return judged[0], judged[1:1 + ALTERNATIVES]

    def follower(self, first: T) -> Callable[[S], T]:
        """Chooses the turn's next steps down the tree (the most played), or greedily where the tree has none."""
        path = [self.root.children.get(first)]

        def follow(deal: S) -> T:
            node = path[-1]
            legal = self.game.legal_steps(deal)
            step = node.most_visited(legal) if node is not None else None
            if step is None:
                step = _greedy_choice(self.game, deal, self.seat, self.rng)[0].step
            path.append(node.children.get(step) if node is not None else None)
            return step
        return follow


def figures(appraisal: Appraisal) -> Json:
    """What the search thinks of a step, rounded for the wire."""
    return {"win_chance": None if appraisal.win_chance is None else round(appraisal.win_chance, 4),
            "margin": None if appraisal.margin is None else round(appraisal.margin, 3),
            "playouts": appraisal.playouts}


__all__ = ["Appraisal", "Budget", "LEVELS", "Search", "Suggestion", "figures", "margin_of", "shuffled_rest", "suggest"]
