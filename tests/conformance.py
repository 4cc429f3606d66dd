"""A game-agnostic conformance harness for the referee's games.

The harness plays a registered `Game` (service.games.registry.GAMES, the protocol of service/games/core/game.py)
and takes from it everything the protocol gives: the deal (`new_game`, for the players and variant a `Subject`
names), the legal list (where the Game refuses a long one, the game's tests may give the whole), apply, the
state's JSON both ways (`state_json`, `load_state`), the steps' (`to_json`, `parse_step`), its errors
(IllegalStepError, MalformedError), whose turn it is and whether the game is over (`to_act` None), and a player's
view (`player_view`). What only the game's tests know comes from its `tests/<game>/conformance.py` as `Knowledge`,
every piece optional: its pieces and their composition (a `Conservation`), its own invariants, the candidates it
tries (a step schema, the names a "card" field takes, its own near misses, the aliases apply also takes),
reveal/resolve/agree for following a game from a view, and its random games (`Plan`: policies, seeds, the
assertions on a finished game). The harness plays seeded random games and, after EVERY step, holds the game to
these properties:

- conservation (with a `Conservation`): the state holds exactly the game's pieces (known pieces plus unknown slots
  in a view);
- JSON: state -> JSON -> text -> JSON -> state gives an equal state and the same bytes;
- the legal list has no duplicates, each listed step survives its own JSON form, and apply accepts each one
  without touching the state it was given; a game that is over lists nothing, one that goes on lists something;
- candidates: plausible steps (random ones from the step schema, and near misses of listed ones) are
  accepted by apply if and only if their parsed form is listed; anything else apply raises is a crash;
- termination: a game ends within a bound;
- views: the state as the player to act sees it obeys the same, accepts every step it lists, and accepts every
  step of the full state once the revealed card is named (`Knowledge.reveal`);
- the game's own invariants (`Knowledge.invariants`), at every position, views included;
- words: every event the game narrates and every violation and shape error it gives is a catalogue entry, said
  in every language the service speaks (tests/words.py);
- following (`Checker.follow`): a referee who sees only one player's view is fed a whole game's steps (with
  revealed cards named and view-only decisions settled by `Knowledge.resolve`); every step is legal there, every
  view position passes the checks above, and the view keeps agreeing with the game (`Knowledge.agree`; by default
  the followed view is the game's view of the full state, to the byte).

`Plan` names the random games a subject plays in the registry-wide test (tests/test_games_conform.py), which
runs every game of service.games.registry.GAMES through the plans its tests package provides, and fails for a
registered game that provides none.

Every failure raises `ConformanceError` carrying a reproduction: the subject, the seed, the policy and the steps
played so far as JSON.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping, Sequence

import pytest
from hypothesis import strategies as st

from service.games.core.errors import IllegalStepError, InvalidStateError, MalformedError
from service.games.core.game import Game
from tests.words import unsaid

# A step schema: for each step type, its fields and what each holds.
#   "card": one card name    "cards": a list of card names    "index": a whole number 0 or more
#   "indices": a list of whole numbers    a tuple of strings: one of those values
FieldKind = Any


@dataclass(frozen=True)
class Conservation:
    """A game's composition, for the conservation check: the pieces a state holds (known ones as a multiset, and
    how many unknown slots a view has), and every piece of a game of `players` with the variant's values (all of
    them, defaults filled in)."""

    pieces: Callable[[Any], tuple[Counter, int]]
    full_set: Callable[[int, Mapping[str, Any]], Counter]


@dataclass(frozen=True)
class Knowledge:
    """What a game's tests know that its `Game` does not say; every piece optional (a game with no cards needs no
    card names, a game with nothing to conserve no `Conservation`)."""

    conservation: Conservation | None = None
    # The game's own invariants beyond conservation (e.g. no two players holding each other's prisoners, a state
    # its own validator finds no fault in): how the state breaks one, or None. Checked at every position, views
    # included.
    invariants: Callable[[Any], str | None] | None = None
    # Candidates: the step schema random steps and near misses are made from (none: near misses of listed steps
    # only), the names a "card" field takes (card_names: all; card_pool: those that matter in a state), the
    # largest useful index, and the game's own near misses.
    step_schema: Mapping[str, Mapping[str, FieldKind]] = field(default_factory=dict)
    card_names: Sequence[str] = ()
    card_pool: Callable[[Any], Sequence[str]] = lambda state: ()
    max_index: Callable[[Any], int] = lambda state: 4  # indices above this are never useful
    extra_candidates: Callable[[Any, random.Random], Iterable[dict]] | None = None
    # Known aliases: another spelling of a listed step that apply also accepts, mapped to the listed spelling.
    # Each one is a disagreement between apply and the list; a game keeps this empty unless it tests the alias
    # on its own (strictly) elsewhere.
    canonical: Callable[[Any, Any], Any] | None = None
    # Known engine bugs: a candidate (as JSON) for which this returns a reason is not checked against the list, only
    # counted (Stats.candidates_known_bug). Each reason must have a strict xfail test of its own, so that a fix shows.
    known_bug: Callable[[Any, dict], str | None] | None = None
    # The whole legal list, for a position whose list the Game refuses as too long (InvalidStateError: a bound of the
    # service's, e.g. Torri's T-SVC-LIST): the checks need every step. Without it, a refused list fails.
    whole_listing: Callable[[Any], Sequence[Any]] | None = None
    pass_type: str = "pass"  # the step the policies `biased` and `by_type` keep for last
    max_steps: int = 3000  # a game that has not ended after this many steps does not terminate
    # Following a game from one player's view (Checker.follow): the full state's step as the view's referee is sent
    # it (the revealed card named; default: the same step); the step that settles a decision only the view has
    # (e.g. naming the cards a refill turns up, declining a reaction the real hand cannot make), or None; and how
    # the followed view disagrees with the full state, or None (default: unless it is the game's view of it).
    reveal: Callable[[Any, Any, Any], Any] | None = None
    resolve: Callable[[Any, Any], Any] | None = None
    agree: Callable[[Any, Any, int], str | None] | None = None


@dataclass(frozen=True)
class Subject:
    """A registered game as the harness plays it: its `Game`, the deal (`players` seated, None: the fewest; the
    `variant`'s values) and the game's `Knowledge`. Its `name` seeds the random games and names them in failures
    (default: the game's id, the players as "-3p", and each variant switched on)."""

    game: Game
    players: int | None = None
    variant: Mapping[str, Any] = field(default_factory=dict)
    knows: Knowledge = field(default_factory=Knowledge)
    name: str = ""

    def __post_init__(self) -> None:
        info = self.game.info
        unknown = set(self.variant) - {v.name for v in info.variants}
        if unknown:
            raise ValueError(f"{info.id} has no variant {sorted(unknown)}")
        if self.players is not None and not info.min_players <= self.players <= info.max_players:
            raise ValueError(f"{info.id} seats {info.min_players} to {info.max_players} players, not {self.players}")
        if not self.name:
            name = info.id + (f"-{self.players}p" if self.players is not None else "")
            name += "".join(f"-{key}" if value is True else f"-{key}={value}" for key, value in self.variant.items()
                            if value not in (False, None))
            object.__setattr__(self, "name", name)

    @cached_property
    def deal(self) -> tuple[int, dict[str, Any]]:
        """The players seated and every variant's value (defaults filled in)."""
        info = self.game.info
        players = self.players if self.players is not None else info.min_players
        return players, {v.name: self.variant.get(v.name, v.default) for v in info.variants}

    @cached_property
    def full_set(self) -> Counter | None:
        conservation = self.knows.conservation
        return None if conservation is None else conservation.full_set(*self.deal)

    # -- the protocol, as the checks and the policies use it (the rest they ask the game)
    def new_game(self, seed: Any) -> Any:
        names = None if self.players is None else tuple(f"Player {i + 1}" for i in range(self.players))
        return self.game.new_game(seed, names=names, variant=self.variant)

    def legal_steps(self, state: Any) -> list:
        try:
            return self.game.legal_steps(state)
        except InvalidStateError:  # the list refused (a position the harness reached by legal steps is valid)
            if self.knows.whole_listing is None:
                raise
            return list(self.knows.whole_listing(state))

    def apply(self, state: Any, step: Any) -> Any:
        """The next state; IllegalStepError for an illegal step."""
        return self.game.apply_step(state, step)[0]

    def apply_saying(self, state: Any, step: Any) -> tuple[Any, list]:
        """The next state and its events in words (the game's narration of each)."""
        after, events = self.game.apply_step(state, step)
        names = self.game.player_names(state)
        return after, [self.game.narrate(event, names) for event in events]

    def is_over(self, state: Any) -> bool:
        return self.game.to_act(state) is None

    @staticmethod
    def step_to_json(step: Any) -> dict:
        return step.to_json()

    @staticmethod
    def step_type(step: Any) -> str:
        return step.type

    @property
    def pass_type(self) -> str:
        return self.knows.pass_type


# ---------------------------------------------------------------- what several games' knowledge shares

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


def differing(full: Any, view: Any, names: Iterable[str], what: str = "") -> str | None:
    """The first of the attributes `names` in which a view (or a player in it) differs from the full state, said;
    or None."""
    for name in names:
        real, seen = getattr(full, name), getattr(view, name)
        if real != seen:
            return f"{what}{name}: {real!r} in the game, {seen!r} in the view"
    return None


def players_disagreement(full: Any, view: Any, viewer: int, open_fields: Iterable[str] = ()) -> str | None:
    """How the players of a view (as `viewer` sees it) disagree with the real ones, or None: what every player
    sees of each (`open_fields`) the same, and each hand as `hand_disagreement` says."""
    for index, (real, seen) in enumerate(zip(full.players, view.players)):
        problem = differing(real, seen, open_fields, f"player {index}'s ")
        problem = problem or hand_disagreement(index, viewer, real, seen)
        if problem is not None:
            return problem
    return None


class ConformanceError(AssertionError):
    def __init__(self, subject: Subject, seed: Any, policy: str, history: list[dict], message: str):
        self.seed, self.policy, self.history = seed, policy, history
        super().__init__(f"[{subject.name} seed={seed!r} policy={policy}] after {len(history)} steps: {message}\n"
                         f"reproduce: new_game({seed!r}) then steps = {json.dumps(history)}")


# ---------------------------------------------------------------- policies (how a random game chooses)

Policy = Callable[[random.Random, Sequence[Any], Subject], Any]


def uniform(rng: random.Random, legal: Sequence[Any], subject: Subject) -> Any:
    """Every listed step equally likely (games end early: two passes in a row come soon)."""
    return rng.choice(legal)


def biased(pass_chance: float = 0.03) -> Policy:
    """Uniform over the non-pass steps; pass only now and then (or when nothing else is legal)."""
    def choose(rng: random.Random, legal: Sequence[Any], subject: Subject) -> Any:
        others = [s for s in legal if subject.step_type(s) != subject.pass_type]
        if others and rng.random() >= pass_chance:
            return rng.choice(others)
        return rng.choice(legal)
    choose.__name__ = f"biased{pass_chance}"
    return choose


def by_type(pass_chance: float = 0.03) -> Policy:
    """A step type first (uniform over the types listed), then a step of it: rare kinds of step are not drowned
    by numerous ones (many exchanges, few builds), so games build more."""
    def choose(rng: random.Random, legal: Sequence[Any], subject: Subject) -> Any:
        groups: dict[str, list] = {}
        for step in legal:
            groups.setdefault(subject.step_type(step), []).append(step)
        if len(groups) > 1 and subject.pass_type in groups and rng.random() >= pass_chance:
            del groups[subject.pass_type]
        return rng.choice(groups[rng.choice(sorted(groups))])
    choose.__name__ = f"by_type{pass_chance}"
    return choose


def preferring(name: str, liked: Callable[[Any], bool], chance: float = 1.0, otherwise: Policy = uniform) -> Policy:
    """A policy called `name` (the name seeds its games): a step it likes when one is listed (with `chance`, drawn
    only when below 1), `otherwise`'s choice else."""
    def choose(rng: random.Random, legal: Sequence[Any], subject: Subject) -> Any:
        favourites = [s for s in legal if liked(s)]
        if favourites and (chance >= 1 or rng.random() < chance):
            return rng.choice(favourites)
        return otherwise(rng, legal, subject)
    choose.__name__ = name
    return choose


# ---------------------------------------------------------------- candidates

def random_candidate(subject: Subject, state: Any, rng: random.Random, pool: list[str] | None = None) -> dict:
    """A fresh step of a random type, its fields filled from the schema (optional ones now and then)."""
    schema = subject.knows.step_schema
    step_type = rng.choice(sorted(schema))
    out: dict[str, Any] = {"type": step_type}
    if pool is None:
        pool = _pool(subject, state)
    for name, kind in schema[step_type].items():
        if rng.random() < 0.85:
            out[name] = _random_value(subject, state, kind, pool, rng)
    return out


def _pool(subject: Subject, state: Any) -> list[str]:
    return list(subject.knows.card_pool(state)) or list(subject.knows.card_names)


def _random_value(subject: Subject, state: Any, kind: FieldKind, pool: list[str], rng: random.Random) -> Any:
    names = list(subject.knows.card_names) or pool or ["?"]  # (a game's tests without card names: any text)

    def card() -> str:
        return rng.choice(pool or names) if rng.random() < 0.85 else rng.choice(names)

    top = subject.knows.max_index(state) + 1
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


def near_misses(subject: Subject, step_json: dict, state: Any, rng: random.Random, count: int,
                pool: list[str] | None = None) -> list[dict]:
    """`count` mutations of a listed step: one card more or less, another card, another index, another choice,
    a field dropped or added, the order changed (another type, for a step with no fields, when the game gives
    a step schema)."""
    schemas = subject.knows.step_schema
    schema = schemas.get(step_json["type"], {})
    if pool is None:
        pool = _pool(subject, state)
    out = []
    for _ in range(count):
        d = {key: list(value) if isinstance(value, list) else value for key, value in step_json.items()}
        names = sorted(set(schema) | (set(d) - {"type"}))
        if not names:
            if schemas:
                out.append({"type": rng.choice(sorted(schemas)), **{k: v for k, v in d.items() if k != "type"}})
            continue
        name = rng.choice(names)
        kind = schema.get(name)
        value = d.get(name)
        if value is None:  # add an optional field that the listed step leaves out
            if kind is not None:
                d[name] = _random_value(subject, state, kind, pool, rng)
        elif rng.random() < 0.08:
            del d[name]
        elif isinstance(value, list):
            d[name] = _mutate_list(value, kind, subject, pool, rng)
        elif isinstance(value, bool):
            d[name] = not value
        elif isinstance(value, int):
            d[name] = max(0, value + rng.choice((-2, -1, 1, 1, 2)))
        elif kind is not None:
            d[name] = _random_value(subject, state, kind, pool, rng)
        out.append(d)
    return out


def _mutate_list(value: list, kind: FieldKind, subject: Subject, pool: list[str], rng: random.Random) -> list:
    value = list(value)
    if kind is None:
        kind = "cards" if any(isinstance(v, str) for v in value) else "indices"
    # card names: those the game's tests give, or else those in the list
    names = list(subject.knows.card_names) or pool or sorted({v for v in value if isinstance(v, str)}) or ["?"]
    element = (lambda: rng.choice(pool or names) if rng.random() < 0.8 else rng.choice(names)) \
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
    """Plays and checks games of one subject. Knobs: candidates per position (random and near misses), and
    whether views are checked."""

    def __init__(self, subject: Subject, *, random_candidates: int = 4, near_miss_candidates: int = 4,
                 view_candidates: int = 2, check_views: bool = True):
        self.subject, self.game = subject, subject.game
        # random candidates are made from the game's step schema: none without one
        self.random_candidates = random_candidates if subject.knows.step_schema else 0
        self.near_miss_candidates = near_miss_candidates
        self.view_candidates = view_candidates
        self.check_views = check_views
        self.stats = Stats()
        self.json_checked: set = set()  # listed steps whose JSON form was checked already (steps are values)
        self.said_checked: set = set()  # the catalogue entries whose words were checked already

    # -- one whole game
    def play(self, seed: Any, policy: Policy, *, check: bool = True) -> tuple[Any, list[dict]]:
        """Play a game from `seed` with `policy`, checking every position; returns (final state, steps)."""
        subject = self.subject
        rng = random.Random(f"{subject.name}:conformance:{seed}:{policy.__name__}")
        state = subject.new_game(seed)
        history: list[dict] = []
        self.where = (seed, policy.__name__, history)
        while True:
            legal = self.check_position(state, rng) if check else list(subject.legal_steps(state))
            if subject.is_over(state):
                break
            if len(history) >= subject.knows.max_steps:
                self.fail(f"the game has not ended after {subject.knows.max_steps} steps")
            step = policy(rng, legal, subject)
            self.stats.step_types[subject.step_type(step)] += 1
            history.append(subject.step_to_json(step))
            state, sentences = subject.apply_saying(state, step)
            for sentence in sentences:
                self.said(sentence, "an event: ")
            self.stats.steps += 1
        self.stats.games += 1
        self.stats.longest_game = max(self.stats.longest_game, len(history))
        return state, history

    def follow(self, seed: Any, policy: Policy, viewer: int, *, check: bool = True) -> tuple[Any, Any]:
        """A referee at a real table: play a game from `seed`, and alongside it keep the state as `viewer` sees it
        (the opponent's hand and the deck unknown), fed the same steps with the revealed cards named. Every full
        step must be legal in that view, the view must keep agreeing with the full state, and (with `check`)
        every view position passes the checks of `check_position`. Returns (full state, view state)."""
        subject, knows = self.subject, self.subject.knows
        rng = random.Random(f"{subject.name}:follow:{seed}:{policy.__name__}:{viewer}")
        full = subject.new_game(seed)
        view = self.game.player_view(full, viewer)
        history: list[dict] = []
        self.where = (seed, f"{policy.__name__}, followed by player {viewer}'s view", history)
        while True:
            problem = (knows.agree or self.is_the_view)(full, view, viewer)
            if problem:
                self.fail(f"the view no longer agrees with the full state: {problem}")
            view_legal = self.check_position(view, rng, full=False) if check else list(subject.legal_steps(view))
            if subject.is_over(full):
                break
            if len(history) >= knows.max_steps:
                self.fail(f"the game has not ended after {knows.max_steps} steps")
            step = policy(rng, list(subject.legal_steps(full)), subject)
            named = knows.reveal(full, view, step) if knows.reveal else step
            history.append(subject.step_to_json(step))
            if named not in set(view_legal):
                self.fail(f"the step {history[-1]} (in the view {subject.step_to_json(named)}) is not listed in the "
                          "view")
            full = subject.apply(full, step)
            view = self.accept(view, named, "followed")
            for _ in range(8):  # decisions only the view has
                extra = knows.resolve(full, view) if knows.resolve else None
                if extra is None:
                    break
                history.append({"view-only": subject.step_to_json(extra)})
                view = self.accept(view, extra, "view-only")
            self.stats.steps += 1
        self.stats.games += 1
        return full, view

    def is_the_view(self, full: Any, view: Any, viewer: int) -> str | None:
        """The default agreement: the followed view is the game's view of the full state (their JSON the same)."""
        expected = json.dumps(self.game.state_json(self.game.player_view(full, viewer)))
        seen = json.dumps(self.game.state_json(view))
        return None if seen == expected else f"the game's view is {expected}, the followed view {seen}"

    def fail(self, message: str) -> None:
        seed, policy, history = self.where
        raise ConformanceError(self.subject, seed, policy, list(history), message)

    # -- one position
    def check_position(self, state: Any, rng: random.Random, *, full: bool = True) -> list:
        """Every check of one position; `full` False for a state with unknown cards (a view): conservation then
        counts unknown slots, and no view of it is taken."""
        subject = self.subject
        self.stats.positions += 1
        self.check_conservation(state, full=full)
        self.check_invariants(state)
        before = self.check_json(state)
        legal = list(subject.legal_steps(state))
        if subject.is_over(state):
            if legal:
                self.fail(f"the game is over but steps are listed: {self.names(legal[:5])}")
            self.check_candidates(state, set(), rng, legal)
            return legal
        if not legal:
            self.fail("the game goes on but no step is listed")
        listed = set(legal)
        if len(listed) != len(legal):
            dupes = [subject.step_to_json(s) for s, n in Counter(legal).items() if n > 1]
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

    def check_conservation(self, state: Any, full: bool) -> None:
        conservation, expected = self.subject.knows.conservation, self.subject.full_set
        if conservation is None:
            return
        known, hidden = conservation.pieces(state)
        if full and (hidden or known != expected):
            self.fail(f"pieces not conserved: extra {dict(known - expected)}, missing {dict(expected - known)}, "
                      f"unknown slots {hidden}")
        if not full:
            extra = known - expected
            if extra or sum(known.values()) + hidden != sum(expected.values()):
                self.fail(f"pieces not conserved in a view: extra {dict(extra)}, known {sum(known.values())} + "
                          f"unknown {hidden} != {sum(expected.values())}")

    def check_invariants(self, state: Any) -> None:
        invariants = self.subject.knows.invariants
        if invariants is not None:
            problem = invariants(state)
            if problem:
                self.fail(f"the state breaks an invariant of the game: {problem}")

    def check_json(self, state: Any) -> Any:
        """The JSON round trip; returns the state read back (an independent copy)."""
        try:
            text = json.dumps(self.game.state_json(state))
            back = self.game.load_state(json.loads(text)).checked()
        except Exception as error:  # noqa: BLE001 - any exception here is the finding
            self.fail(f"the state does not survive JSON: {type(error).__name__}: {error}")
        if back != state:
            self.fail(f"the state read back from JSON differs:\n  {state!r}\n  {back!r}")
        again = json.dumps(self.game.state_json(back))
        if again != text:
            self.fail(f"the state's JSON is not stable:\n  {text}\n  {again}")
        return back

    def check_step_json(self, step: Any) -> None:
        data = json.loads(json.dumps(self.subject.step_to_json(step)))
        try:
            back = self.game.parse_step(data)
        except Exception as error:  # noqa: BLE001
            self.fail(f"a listed step's JSON {data} does not parse: {type(error).__name__}: {error}")
        if back != step:
            self.fail(f"a listed step's JSON {data} parses to another step: {back!r} != {step!r}")

    def said(self, text: Any, what: str) -> None:
        """Every sentence the game says (an event, a violation) is a catalogue entry said in every language
        (tests/words.py); each distinct sentence is checked once."""
        key = (str(text), getattr(text, "context", None))  # each distinct sentence (its parameters said too)
        if key in self.said_checked:
            return
        self.said_checked.add(key)
        found = unsaid(text, what)
        if found:
            self.fail("; ".join(found))

    def accept(self, state: Any, step: Any, what: str) -> Any:
        try:
            return self.subject.apply(state, step)
        except IllegalStepError as error:
            self.fail(f"a {what} step is rejected: {self.subject.step_to_json(step)}: {error}")
        except Exception as error:  # noqa: BLE001
            self.fail(f"a {what} step crashes apply: {self.subject.step_to_json(step)}: "
                      f"{type(error).__name__}: {error}")

    def check_candidates(self, state: Any, listed: set, rng: random.Random, legal: Sequence[Any],
                         random_count: int | None = None, near_count: int | None = None) -> None:
        subject, knows = self.subject, self.subject.knows
        random_count = self.random_candidates if random_count is None else random_count
        near_count = self.near_miss_candidates if near_count is None else near_count
        pool = _pool(subject, state)
        candidates = [random_candidate(subject, state, rng, pool) for _ in range(random_count)]
        if legal and near_count:
            for _ in range(near_count):
                base = subject.step_to_json(rng.choice(legal))
                candidates.extend(near_misses(subject, base, state, rng, 1, pool))
        if knows.extra_candidates is not None:
            candidates.extend(knows.extra_candidates(state, rng))
        for candidate in candidates:
            self.check_candidate(state, listed, candidate)

    def check_candidate(self, state: Any, listed: set, candidate: dict) -> None:
        subject, knows = self.subject, self.subject.knows
        self.stats.candidates += 1
        try:
            step = self.game.parse_step(candidate)  # candidates are built of plain JSON values
        except MalformedError as error:
            self.stats.candidates_malformed += 1
            for problem in error.problems:
                self.said(problem.message, "a malformed step: ")
            return
        except Exception as error:  # noqa: BLE001
            self.fail(f"parse_step crashes on {candidate}: {type(error).__name__}: {error}")
        if knows.known_bug is not None and knows.known_bug(state, candidate):
            self.stats.candidates_known_bug += 1
            return
        try:
            subject.apply(state, step)
            accepted = True
        except IllegalStepError as error:
            accepted = False
            for problem in error.problems:
                self.said(problem.message, f"the violation of {problem.rule}: ")
        except Exception as error:  # noqa: BLE001
            self.fail(f"apply crashes on the candidate {candidate}: {type(error).__name__}: {error}")
        if accepted:
            self.stats.candidates_accepted += 1
        if knows.canonical is not None:
            step = knows.canonical(state, step)
        if accepted != (step in listed):
            if accepted:
                self.fail(f"an unlisted step is accepted: {candidate}")
            self.fail(f"a listed step is rejected: {candidate}")

    def check_view(self, state: Any, legal: Sequence[Any], rng: random.Random) -> None:
        subject, reveal = self.subject, self.subject.knows.reveal
        player = self.game.to_act(state)
        if player is None:
            return
        view = self.game.player_view(state, player)
        self.check_conservation(view, full=False)
        self.check_invariants(view)
        self.check_json(view)
        view_legal = list(subject.legal_steps(view))
        view_listed = set(view_legal)
        if len(view_listed) != len(view_legal):
            self.fail("a view lists a step twice")
        for step in view_legal:
            self.accept(view, step, "view-listed")
        self.stats.view_steps_applied += len(view_legal)
        for step in legal:
            named = reveal(state, view, step) if reveal else step
            if named not in view_listed:
                self.fail(f"the full state's step {subject.step_to_json(step)} (in the view "
                          f"{subject.step_to_json(named)}) is not listed in player {player}'s view")
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
    """The seeded random games one subject plays in the registry-wide test (tests/test_games_conform.py). A game's
    tests package lists its plans in `conformance_plans()` of `tests/<game>/conformance.py`, one per subject (a
    player count, a variant).

    Each (policy name, seed) of `games` is one game, played and checked at every step by a `Checker` built with
    `knobs`. Every game must have listed and applied steps and accepted some candidates (no check was empty);
    `finished(state, history, stats)` then holds the finished game to the game's own assertions (it raises
    AssertionError), e.g. how it ended and which kinds of step the policy reached."""

    subject: Subject
    games: Sequence[tuple[str, Any]]
    policies: Mapping[str, Policy]
    knobs: Mapping[str, Any] = field(default_factory=dict)
    finished: Callable[[Any, list[dict], Stats], None] | None = None

    def play(self, policy: str, seed: Any) -> tuple[Any, list[dict], Stats]:
        checker = Checker(self.subject, **self.knobs)
        state, history = checker.play(seed, self.policies[policy])
        stats = checker.stats  # not checking an empty game: steps were listed and applied, candidates accepted
        assert stats.listed_applied > 0 and stats.candidates_accepted > 0, (self.subject.name, policy, seed, stats)
        if self.finished is not None:
            self.finished(state, history, stats)
        return state, history, stats


def in_turn(policies: Sequence[str], seeds: Iterable[Any], start: int = 0) -> list[tuple[str, Any]]:
    """(policy, seed) games: the seeds in order, the policies taking turns (from the one at `start`)."""
    return [(policies[(start + i) % len(policies)], seed) for i, seed in enumerate(seeds)]


# ---------------------------------------------------------------- JSON documents near real ones

def json_paths(node: Any, prefix: tuple = ()) -> Iterable[tuple]:
    """Every path into a JSON document (keys and indices), the document's own () first."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from json_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from json_paths(value, prefix + (index,))


def check_a_mutated_state(game: Game, doc: dict, data: st.DataObject, json_values: st.SearchStrategy) -> None:
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
        reading = game.load_state(doc)
    except MalformedError:
        return
    if reading.errors:
        with pytest.raises(InvalidStateError):
            reading.checked()
        return
    state = reading.checked()
    for step in game.legal_steps(state):
        game.apply_step(state, step)
    game.score_state(state)
