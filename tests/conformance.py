"""A game-agnostic conformance harness for the referee's rules libraries.

A game plugs in through a small `GameAdapter` (deal from a seed, list legal steps, apply one step, JSON in
and out, the cards a state holds, whether the game is over, and optionally a player's view). The harness then
plays seeded random games and, after EVERY step, holds the library to these properties:

- conservation: the state holds exactly the game's cards (known cards plus unknown slots in a view);
- JSON: state -> JSON -> text -> JSON -> state gives an equal state and the same bytes;
- the legal list has no duplicates, each listed step survives its own JSON form, and apply accepts each one
  without touching the state it was given;
- candidates: plausible steps (random ones from the step schema, and near misses of listed ones) are
  accepted by apply if and only if their parsed form is listed; anything else apply raises is a crash;
- termination: a game ends within a bound;
- views: the state as the player to act sees it obeys the same, accepts every step it lists, and accepts every
  step of the full state once the revealed card is named (`adapter.reveal`);
- the game's own invariants (`adapter.invariants`), at every position, views included;
- following (`Checker.follow`): a referee who sees only one player's view is fed a whole game's steps (with
  revealed cards named and view-only decisions settled by `adapter.resolve`); every step is legal there, every
  view position passes the checks above, and the view keeps agreeing with the game (`adapter.agree`).

`Plan` names the random games an adapter plays in the registry-wide test (tests/test_games_conform.py), which
runs every game of service.games.registry.GAMES through the plans its tests package provides.

`perft` counts step sequences, the usual move-generator cross-check (tests/torri/data/perft.json).

Every failure raises `ConformanceError` carrying a reproduction: the game, the seed, the policy and the steps
played so far as JSON.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Sequence

import pytest
from hypothesis import strategies as st

from service.games.core.perft import perft as core_perft

# A step schema: for each step type, its fields and what each holds.
#   "card": one card name    "cards": a list of card names    "index": a whole number 0 or more
#   "indices": a list of whole numbers    a tuple of strings: one of those values
FieldKind = Any


@dataclass
class GameAdapter:
    name: str
    new_game: Callable[[int], Any]
    legal_steps: Callable[[Any], Sequence[Any]]
    apply: Callable[[Any, Any], Any]  # the next state; raises one of `illegal` on an illegal step
    illegal: tuple[type[BaseException], ...]
    state_to_json: Callable[[Any], Any]
    state_from_json: Callable[[Any], Any]
    step_to_json: Callable[[Any], dict]
    parse_step: Callable[[Any], Any]  # raises one of `malformed` on a malformed step
    malformed: tuple[type[BaseException], ...]
    cards: Callable[[Any], tuple[Counter, int]]  # (known cards as a multiset, unknown slots)
    full_set: Counter  # every card of the game
    is_over: Callable[[Any], bool]
    to_act: Callable[[Any], int | None]
    step_type: Callable[[Any], str]
    step_schema: Mapping[str, Mapping[str, FieldKind]]
    card_names: Sequence[str]  # every card name the wire knows
    card_pool: Callable[[Any], Sequence[str]] = lambda state: ()  # card names that matter in this state
    max_index: Callable[[Any], int] = lambda state: 4  # indices above this are never useful
    pass_type: str = "pass"
    max_steps: int = 3000  # a game that has not ended after this many steps does not terminate
    view: Callable[[Any, int], Any] | None = None
    reveal: Callable[[Any, Any, Any], Any] | None = None  # (full state, view, step) -> the step in the view
    extra_candidates: Callable[[Any, random.Random], Iterable[dict]] | None = None
    # Known aliases: another spelling of a listed step that apply also accepts, mapped to the listed spelling.
    # Each one is a disagreement between apply and the list; a game keeps this empty unless it tests the alias
    # on its own (strictly) elsewhere.
    canonical: Callable[[Any, Any], Any] | None = None
    # For following a game from one player's view (Checker.follow): the step that settles a decision only the
    # view has (e.g. naming the cards a refill turns up, declining a reaction the real hand cannot make), or
    # None; and a description of how the view disagrees with the full state, or None.
    resolve: Callable[[Any, Any], Any] | None = None
    agree: Callable[[Any, Any, int], str | None] | None = None
    # Known engine bugs: a candidate (as JSON) for which this returns a reason is not checked against the list, only
    # counted (Stats.candidates_known_bug). Each reason must have a strict xfail test of its own, so that a fix shows.
    known_bug: Callable[[Any, dict], str | None] | None = None
    # The game's own invariants beyond conservation (e.g. no two players holding each other's prisoners, a state
    # its own validator finds no fault in): how the state breaks one, or None. Checked at every position, views
    # included.
    invariants: Callable[[Any], str | None] | None = None


def library_adapter(library: Any, *, name: str, new_game: Callable[[int], Any], **game: Any) -> GameAdapter:
    """A GameAdapter for a game library of the service (`service.games.<game>`): listing, applying, reading and
    writing, its errors and whose turn it is come from the library itself; `game` gives the rest (its cards, step
    schema, near misses, …) and may replace any of these."""
    common: dict[str, Any] = dict(
        legal_steps=library.legal_steps, apply=lambda state, step: library.apply_step(state, step)[0],
        illegal=(library.IllegalStepError,), state_to_json=library.state_json, state_from_json=library.read_state,
        step_to_json=lambda step: step.to_json(), parse_step=library.parse_step, malformed=(library.MalformedError,),
        is_over=lambda state: state.over, to_act=getattr(library, "to_act", None), step_type=lambda step: step.type,
        view=library.player_view)
    return GameAdapter(name=name, new_game=new_game, **{**common, **game})


def hand_disagreement(index: int, viewer: int, real: Any, seen: Any) -> str | None:
    """How player `index`'s hand in a view (as player `viewer` sees it) disagrees with the real one, or None: the
    viewer sees their own hand whole; any other hand keeps its size, and its known cards are really in it."""
    if index == viewer and (seen.hidden or seen.hand != real.hand):
        return f"the viewer's hand {seen.hand} (+{seen.hidden} unknown) is not {real.hand}"
    if real.hand_size != seen.hand_size:
        return f"player {index} holds {real.hand_size} cards, {seen.hand_size} in the view"
    if Counter(seen.hand) - Counter(real.hand):
        return f"player {index}'s known cards {seen.hand} are not all in the real hand {real.hand}"
    return None


class ConformanceError(AssertionError):
    def __init__(self, adapter: GameAdapter, seed: Any, policy: str, history: list[dict], message: str):
        self.seed, self.policy, self.history = seed, policy, history
        super().__init__(f"[{adapter.name} seed={seed!r} policy={policy}] after {len(history)} steps: {message}\n"
                         f"reproduce: new_game({seed!r}) then steps = {json.dumps(history)}")


# ---------------------------------------------------------------- policies (how a random game chooses)

Policy = Callable[[random.Random, Sequence[Any], GameAdapter], Any]


def uniform(rng: random.Random, legal: Sequence[Any], adapter: GameAdapter) -> Any:
    """Every listed step equally likely (games end early: two passes in a row come soon)."""
    return rng.choice(legal)


def biased(pass_chance: float = 0.03) -> Policy:
    """Uniform over the non-pass steps; pass only now and then (or when nothing else is legal)."""
    def choose(rng: random.Random, legal: Sequence[Any], adapter: GameAdapter) -> Any:
        others = [s for s in legal if adapter.step_type(s) != adapter.pass_type]
        if others and rng.random() >= pass_chance:
            return rng.choice(others)
        return rng.choice(legal)
    choose.__name__ = f"biased{pass_chance}"
    return choose


def by_type(pass_chance: float = 0.03) -> Policy:
    """A step type first (uniform over the types listed), then a step of it: rare kinds of step are not drowned
    by numerous ones (many exchanges, few builds), so games build more."""
    def choose(rng: random.Random, legal: Sequence[Any], adapter: GameAdapter) -> Any:
        groups: dict[str, list] = {}
        for step in legal:
            groups.setdefault(adapter.step_type(step), []).append(step)
        if len(groups) > 1 and adapter.pass_type in groups and rng.random() >= pass_chance:
            del groups[adapter.pass_type]
        return rng.choice(groups[rng.choice(sorted(groups))])
    choose.__name__ = f"by_type{pass_chance}"
    return choose


# ---------------------------------------------------------------- candidates

def random_candidate(adapter: GameAdapter, state: Any, rng: random.Random, pool: list[str] | None = None) -> dict:
    """A fresh step of a random type, its fields filled from the schema (optional ones now and then)."""
    step_type = rng.choice(sorted(adapter.step_schema))
    out: dict[str, Any] = {"type": step_type}
    if pool is None:
        pool = list(adapter.card_pool(state)) or list(adapter.card_names)
    for name, kind in adapter.step_schema[step_type].items():
        if rng.random() < 0.85:
            out[name] = _random_value(adapter, state, kind, pool, rng)
    return out


def _random_value(adapter: GameAdapter, state: Any, kind: FieldKind, pool: list[str], rng: random.Random) -> Any:
    def card() -> str:
        return rng.choice(pool) if rng.random() < 0.85 else rng.choice(list(adapter.card_names))

    top = adapter.max_index(state) + 1
    if kind == "card":
        return card()
    if kind == "cards":
        size = rng.choice((0, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7))
        if rng.random() < 0.5:  # a run of one card (plain) or a descending run (colorful) is likelier to matter
            first = card()
            if first.isdigit() and rng.random() < 0.5:
                return [str(r) for r in range(int(first), int(first) - size, -1)]
            return [first] * size
        return [card() for _ in range(size)]
    if kind == "index":
        return rng.randrange(top + 1)
    if kind == "indices":
        return rng.sample(range(top + 1), rng.randrange(min(top + 1, 4) + 1))
    if isinstance(kind, tuple):
        return rng.choice(kind)
    raise ValueError(f"unknown field kind {kind!r}")


def near_misses(adapter: GameAdapter, step_json: dict, state: Any, rng: random.Random, count: int,
                pool: list[str] | None = None) -> list[dict]:
    """`count` mutations of a listed step: one card more or less, another card, another index, another choice,
    a field dropped or added, the order changed."""
    schema = adapter.step_schema.get(step_json["type"], {})
    if pool is None:
        pool = list(adapter.card_pool(state)) or list(adapter.card_names)
    out = []
    for _ in range(count):
        d = {key: list(value) if isinstance(value, list) else value for key, value in step_json.items()}
        names = sorted(set(schema) | (set(d) - {"type"}))
        if not names:
            out.append({"type": rng.choice(sorted(adapter.step_schema)), **{k: v for k, v in d.items() if k != "type"}})
            continue
        name = rng.choice(names)
        kind = schema.get(name)
        value = d.get(name)
        if value is None:  # add an optional field that the listed step leaves out
            if kind is not None:
                d[name] = _random_value(adapter, state, kind, pool, rng)
        elif rng.random() < 0.08:
            del d[name]
        elif isinstance(value, list):
            d[name] = _mutate_list(value, kind, adapter, pool, rng)
        elif isinstance(value, bool):
            d[name] = not value
        elif isinstance(value, int):
            d[name] = max(0, value + rng.choice((-2, -1, 1, 1, 2)))
        elif kind is not None:
            d[name] = _random_value(adapter, state, kind, pool, rng)
        out.append(d)
    return out


def _mutate_list(value: list, kind: FieldKind, adapter: GameAdapter, pool: list[str], rng: random.Random) -> list:
    value = list(value)
    if kind is None:
        kind = "cards" if any(isinstance(v, str) for v in value) else "indices"
    element = (lambda: rng.choice(pool) if rng.random() < 0.8 else rng.choice(list(adapter.card_names))) \
        if kind == "cards" else (lambda: rng.randrange(8))
    how = rng.randrange(6)
    if how == 0 and value:
        value.pop(rng.randrange(len(value)))  # one less
    elif how == 1 and value:
        value.append(rng.choice(value))  # one more of the same
    elif how == 2:
        value.insert(rng.randrange(len(value) + 1), element())  # one more, any
    elif how == 3 and value:
        value[rng.randrange(len(value))] = element()  # one replaced
    elif how == 4 and len(value) > 1:
        rng.shuffle(value)  # order (matters for some steps)
    elif value and kind != "cards":
        value[rng.randrange(len(value))] += rng.choice((-1, 1))
        value = [max(0, v) for v in value]
    else:
        value.append(element())
    return value


# ---------------------------------------------------------------- the checks

@dataclass
class Stats:
    games: int = 0
    steps: int = 0
    positions: int = 0
    listed_applied: int = 0
    candidates: int = 0
    candidates_accepted: int = 0
    candidates_malformed: int = 0
    candidates_known_bug: int = 0
    view_steps_applied: int = 0
    revealed_checked: int = 0
    longest_game: int = 0
    step_types: Counter = field(default_factory=Counter)

    def merge(self, other: "Stats") -> None:
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if name == "longest_game":
                setattr(self, name, max(mine, theirs))
            elif isinstance(mine, Counter):
                mine.update(theirs)
            else:
                setattr(self, name, mine + theirs)


class Checker:
    """Plays and checks games of one adapter. Knobs: candidates per position (random and near misses), and
    whether views are checked."""

    def __init__(self, adapter: GameAdapter, *, random_candidates: int = 4, near_miss_candidates: int = 4,
                 view_candidates: int = 2, check_views: bool = True):
        self.adapter = adapter
        self.random_candidates = random_candidates
        self.near_miss_candidates = near_miss_candidates
        self.view_candidates = view_candidates
        self.check_views = check_views and adapter.view is not None
        self.stats = Stats()
        self.json_checked: set = set()  # listed steps whose JSON form was checked already (steps are values)

    # -- one whole game
    def play(self, seed: Any, policy: Policy, *, check: bool = True) -> tuple[Any, list[dict]]:
        """Play a game from `seed` with `policy`, checking every position; returns (final state, steps)."""
        adapter = self.adapter
        rng = random.Random(f"{adapter.name}:conformance:{seed}:{policy.__name__}")
        state = adapter.new_game(seed)
        history: list[dict] = []
        self.where = (seed, policy.__name__, history)
        while True:
            legal = self.check_position(state, rng) if check else list(adapter.legal_steps(state))
            if adapter.is_over(state):
                break
            if len(history) >= adapter.max_steps:
                self.fail(f"the game has not ended after {adapter.max_steps} steps")
            step = policy(rng, legal, adapter)
            self.stats.step_types[adapter.step_type(step)] += 1
            history.append(adapter.step_to_json(step))
            state = adapter.apply(state, step)
            self.stats.steps += 1
        self.stats.games += 1
        self.stats.longest_game = max(self.stats.longest_game, len(history))
        return state, history

    def follow(self, seed: Any, policy: Policy, viewer: int, *, check: bool = True) -> tuple[Any, Any]:
        """A referee at a real table: play a game from `seed`, and alongside it keep the state as `viewer` sees it
        (the opponent's hand and the deck unknown), fed the same steps with the revealed cards named. Every full
        step must be legal in that view, the view must keep agreeing with the full state, and (with `check`)
        every view position passes the checks of `check_position`. Returns (full state, view state)."""
        adapter = self.adapter
        assert adapter.view is not None and adapter.resolve is not None and adapter.agree is not None
        rng = random.Random(f"{adapter.name}:follow:{seed}:{policy.__name__}:{viewer}")
        full = adapter.new_game(seed)
        view = adapter.view(full, viewer)
        history: list[dict] = []
        self.where = (seed, f"{policy.__name__}, followed by player {viewer}'s view", history)
        while True:
            problem = adapter.agree(full, view, viewer)
            if problem:
                self.fail(f"the view no longer agrees with the full state: {problem}")
            view_legal = self.check_position(view, rng, full=False) if check else list(adapter.legal_steps(view))
            if adapter.is_over(full):
                break
            if len(history) >= adapter.max_steps:
                self.fail(f"the game has not ended after {adapter.max_steps} steps")
            step = policy(rng, list(adapter.legal_steps(full)), adapter)
            named = adapter.reveal(full, view, step) if adapter.reveal else step
            history.append(adapter.step_to_json(step))
            if named not in set(view_legal):
                self.fail(f"the step {history[-1]} (in the view {adapter.step_to_json(named)}) is not listed in the "
                          "view")
            full = adapter.apply(full, step)
            view = self.accept(view, named, "followed")
            for _ in range(8):  # decisions only the view has
                extra = adapter.resolve(full, view)
                if extra is None:
                    break
                history.append({"view-only": adapter.step_to_json(extra)})
                view = self.accept(view, extra, "view-only")
            self.stats.steps += 1
        self.stats.games += 1
        return full, view

    def fail(self, message: str) -> None:
        seed, policy, history = self.where
        raise ConformanceError(self.adapter, seed, policy, list(history), message)

    # -- one position
    def check_position(self, state: Any, rng: random.Random, *, full: bool = True) -> list:
        """Every check of one position; `full` False for a state with unknown cards (a view): conservation then
        counts unknown slots, and no view of it is taken."""
        adapter = self.adapter
        self.stats.positions += 1
        self.check_cards(state, full=full)
        self.check_invariants(state)
        before = self.check_json(state)
        legal = list(adapter.legal_steps(state))
        if adapter.is_over(state):
            if legal:
                self.fail(f"the game is over but steps are listed: {self.names(legal[:5])}")
            self.check_candidates(state, set(), rng, legal)
            return legal
        if not legal:
            self.fail("the game goes on but no step is listed")
        listed = set(legal)
        if len(listed) != len(legal):
            dupes = [adapter.step_to_json(s) for s, n in Counter(legal).items() if n > 1]
            self.fail(f"steps listed twice: {dupes[:5]}")
        for step in legal:
            if step not in self.json_checked:
                self.check_step_json(step)
                self.json_checked.add(step)
            self.accept(state, step, "listed")
        self.stats.listed_applied += len(legal)
        self.check_candidates(state, listed, rng, legal)
        if state != before:
            self.fail("applying steps changed the state they were applied to")
        if self.check_views and full:
            self.check_view(state, legal, rng)
        return legal

    def check_cards(self, state: Any, full: bool) -> None:
        known, hidden = self.adapter.cards(state)
        expected = self.adapter.full_set
        if full and (hidden or known != expected):
            self.fail(f"cards not conserved: extra {dict(known - expected)}, missing {dict(expected - known)}, "
                      f"unknown slots {hidden}")
        if not full:
            extra = known - expected
            if extra or sum(known.values()) + hidden != sum(expected.values()):
                self.fail(f"cards not conserved in a view: extra {dict(extra)}, known {sum(known.values())} + "
                          f"unknown {hidden} != {sum(expected.values())}")

    def check_invariants(self, state: Any) -> None:
        if self.adapter.invariants is not None:
            problem = self.adapter.invariants(state)
            if problem:
                self.fail(f"the state breaks an invariant of the game: {problem}")

    def check_json(self, state: Any) -> Any:
        """The JSON round trip; returns the state read back (an independent copy)."""
        adapter = self.adapter
        try:
            text = json.dumps(adapter.state_to_json(state))
            back = adapter.state_from_json(json.loads(text))
        except Exception as error:  # noqa: BLE001 - any exception here is the finding
            self.fail(f"the state does not survive JSON: {type(error).__name__}: {error}")
        if back != state:
            self.fail(f"the state read back from JSON differs:\n  {state!r}\n  {back!r}")
        again = json.dumps(adapter.state_to_json(back))
        if again != text:
            self.fail(f"the state's JSON is not stable:\n  {text}\n  {again}")
        return back

    def check_step_json(self, step: Any) -> None:
        adapter = self.adapter
        data = json.loads(json.dumps(adapter.step_to_json(step)))
        try:
            back = adapter.parse_step(data)
        except Exception as error:  # noqa: BLE001
            self.fail(f"a listed step's JSON {data} does not parse: {type(error).__name__}: {error}")
        if back != step:
            self.fail(f"a listed step's JSON {data} parses to another step: {back!r} != {step!r}")

    def accept(self, state: Any, step: Any, what: str) -> Any:
        try:
            return self.adapter.apply(state, step)
        except self.adapter.illegal as error:
            self.fail(f"a {what} step is rejected: {self.adapter.step_to_json(step)}: {error}")
        except Exception as error:  # noqa: BLE001
            self.fail(f"a {what} step crashes apply: {self.adapter.step_to_json(step)}: "
                      f"{type(error).__name__}: {error}")

    def check_candidates(self, state: Any, listed: set, rng: random.Random, legal: Sequence[Any],
                         random_count: int | None = None, near_count: int | None = None) -> None:
        adapter = self.adapter
        random_count = self.random_candidates if random_count is None else random_count
        near_count = self.near_miss_candidates if near_count is None else near_count
        pool = list(adapter.card_pool(state)) or list(adapter.card_names)
        candidates = [random_candidate(adapter, state, rng, pool) for _ in range(random_count)]
        if legal and near_count:
            for _ in range(near_count):
                base = adapter.step_to_json(rng.choice(legal))
                candidates.extend(near_misses(adapter, base, state, rng, 1, pool))
        if adapter.extra_candidates is not None:
            candidates.extend(adapter.extra_candidates(state, rng))
        for candidate in candidates:
            self.check_candidate(state, listed, candidate)

    def check_candidate(self, state: Any, listed: set, candidate: dict) -> None:
        adapter = self.adapter
        self.stats.candidates += 1
        try:
            step = adapter.parse_step(candidate)  # candidates are built of plain JSON values
        except adapter.malformed:
            self.stats.candidates_malformed += 1
            return
        except Exception as error:  # noqa: BLE001
            self.fail(f"parse_step crashes on {candidate}: {type(error).__name__}: {error}")
        if adapter.known_bug is not None and adapter.known_bug(state, candidate):
            self.stats.candidates_known_bug += 1
            return
        try:
            adapter.apply(state, step)
            accepted = True
        except adapter.illegal:
            accepted = False
        except Exception as error:  # noqa: BLE001
            self.fail(f"apply crashes on the candidate {candidate}: {type(error).__name__}: {error}")
        if accepted:
            self.stats.candidates_accepted += 1
        if adapter.canonical is not None:
            step = adapter.canonical(state, step)
        if accepted != (step in listed):
            if accepted:
                self.fail(f"an unlisted step is accepted: {candidate}")
            self.fail(f"a listed step is rejected: {candidate}")

    def check_view(self, state: Any, legal: Sequence[Any], rng: random.Random) -> None:
        adapter = self.adapter
        player = adapter.to_act(state)
        if player is None:
            return
        view = adapter.view(state, player)  # type: ignore[misc]
        self.check_cards(view, full=False)
        self.check_invariants(view)
        self.check_json(view)
        view_legal = list(adapter.legal_steps(view))
        view_listed = set(view_legal)
        if len(view_listed) != len(view_legal):
            self.fail("a view lists a step twice")
        for step in view_legal:
            self.accept(view, step, "view-listed")
        self.stats.view_steps_applied += len(view_legal)
        for step in legal:
            named = adapter.reveal(state, view, step) if adapter.reveal else step
            if named not in view_listed:
                self.fail(f"the full state's step {adapter.step_to_json(step)} (in the view "
                          f"{adapter.step_to_json(named)}) is not listed in player {player}'s view")
        self.stats.revealed_checked += len(legal)
        if self.view_candidates:
            self.check_candidates(view, view_listed, rng, view_legal, self.view_candidates // 2,
                                  self.view_candidates - self.view_candidates // 2)

    @staticmethod
    def names(steps: Iterable[Any]) -> list:
        return [repr(s) for s in steps]


# ---------------------------------------------------------------- a game's random games, for the registry

@dataclass(frozen=True)
class Plan:
    """The seeded random games one adapter plays in the registry-wide test (tests/test_games_conform.py). A game's
    tests package lists its plans in `conformance_plans()` of `tests/<game>/conformance.py`, one per adapter (a
    player count, a variant).

    Each (policy name, seed) of `games` is one game, played and checked at every step by a `Checker` built with
    `knobs`; `finished(state, history, stats)` then holds the finished game to the game's own assertions (it raises
    AssertionError), e.g. how it ended and which kinds of step the policy reached."""

    adapter: GameAdapter
    games: Sequence[tuple[str, Any]]
    policies: Mapping[str, Policy]
    knobs: Mapping[str, Any] = field(default_factory=dict)
    finished: Callable[[Any, list[dict], Stats], None] | None = None

    def play(self, policy: str, seed: Any) -> tuple[Any, list[dict], Stats]:
        checker = Checker(self.adapter, **self.knobs)
        state, history = checker.play(seed, self.policies[policy])
        if self.finished is not None:
            self.finished(state, history, checker.stats)
        return state, history, checker.stats


# ---------------------------------------------------------------- perft

def perft(adapter: GameAdapter, state: Any, depth: int) -> int:
    """The number of step sequences of length `depth` (service.games.core.perft over the adapter's functions)."""
    return core_perft(_Stepped(adapter), state, depth)


class _Stepped:
    """A GameAdapter as the library's perft sees a game: legal_steps, and apply_step giving (state, events)."""

    def __init__(self, adapter: GameAdapter) -> None:
        self.legal_steps = adapter.legal_steps
        self._apply = adapter.apply

    def apply_step(self, state: Any, step: Any) -> tuple[Any, list]:
        return self._apply(state, step), []


def json_paths(node: Any, prefix: tuple = ()) -> Iterable[tuple]:
    """Every path into a JSON document (keys and indices), the document's own () first."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from json_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from json_paths(value, prefix + (index,))


def check_a_mutated_state(library: ModuleType, doc: dict, data: st.DataObject, json_values: st.SearchStrategy) -> None:
    """A document near a real state (`doc`, one to three of its values replaced by `json_values` or dropped, as
    hypothesis's `data` draws) is either read (valid or with rule problems) or refused as malformed, never a crash;
    legal steps of a readable one apply and it scores."""
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
        errors, _ = library.validate_state(doc)
    except library.MalformedError:
        return
    if errors:
        with pytest.raises(library.InvalidStateError):
            library.read_state(doc)
        return
    state = library.read_state(doc)
    for step in library.legal_steps(state):
        library.apply_step(state, step)
    library.score(state)
