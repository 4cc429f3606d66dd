"""Write every registered game's golden playthroughs and perft counts (tests/<game>/data), which
tests/test_golden.py replays.

    python tools/make_golden.py                    # every game of service.games.registry.GAMES
    python tools/make_golden.py torri carcassonne  # only these
    python tools/make_golden.py --check [GAME ...] # compare with the files instead (exit 1 on a difference)

Golden playthroughs: seeded games played by a directed random policy (random, but weighted towards the rare
paths of the rules), chosen among many seeds so that together the recorded games exercise every feature the game
names: a game's rare rules get played without anyone writing those games by hand, and a new seed search finds them
again after a change. Each file holds the seed, the names (where the game's deals name them), the variant, the
features its game shows, the steps as JSON, the events (each at the index of the step that made it), checkpoints
where the game records them (the exact legal list at the first position of a rare feature, and steps that are
refused there with the rule refusing them), the final state and the score; tests/test_golden.py replays them at
once and one step at a time through JSON and compares exactly.

Perft: perft(s, 1) = len(legal_steps(s)); perft(s, d) = sum over legal steps of perft(apply(s, step), d - 1), from
seeded deals (each player count) and mid-game positions (cut from a directed game), each to a fixed depth, so that
the file does not depend on the machine (from well under a second to a few seconds a position). A count that changes
means that what is legal changed somewhere in the tree.

Run this only when a rules change is meant to change the outcome; review the diff of tests/<game>/data.

Each game's choices are its own, in its tests' data module tests/<game>/golden.py; a registered game without one,
or without a recipe for a set, fails here. `FEATURES` (which tests/test_golden.py reads too) says what each
recorded set must cover, keyed by the set's folder: "golden" (tests/<game>/data/golden/*.json with
data/perft.json) and a variant's own set beside it ("golden_nobles", with data/perft_nobles.json). `RECORDING`,
keyed the same way, says how each set is played and chosen, one dict each:

    deals      the kinds of game played: {"players": n, "variant": {...}}, either left out for the fewest players
               and the variants' defaults (every variant's value is recorded)
    names      the players' names a deal seats (the first n); left out: the game's unnamed players, not recorded
    seeds      the seeds searched for each kind
    choose     "each": for each kind, the seed whose game adds most of the features still missing (`rank` orders
               them, the first seed winning a tie; by default more missing features, then more features, then a
               shorter game); "cover": among the kind's finished games, a greedy cover of the features, the game
               adding most of the missing ones first (a shorter game on a tie), `games` of them, filled up with
               the games richest in `rare` features (shorter first)
    rng        the name of a game's random stream, formatted with `seed`, `players` and each variant by its name
    max_steps  a game is cut after this many steps
    directed   directed(rng, legal, state) -> the step played
    features   features(played) -> the features a finished game shows (a `Played`)
    watch      watch(before, legal, step, after, events, played), after each step is applied (before it is
               recorded): notes features and checkpoints as they happen; a set that watches records checkpoints
    file       file(played) -> the name of its file
    perft      {"definition": text, "variant": {...} (the file's, if it has one), "positions": [...],
               "describe": describe(state) -> facts added to each position (optional)}; a position is what the
               file records of it ({"name", "seed", "players", a variant's value by its name}) with "depth", and
               for a mid-game position "midgame": midgame(game, played) -> the steps that lead to it, cut from the
               directed game of the position's seed, player count and variant; every position starts from the deal
               tests/golden.py's perft_start makes of it, as the test's does

Each game's module says why its games are the ones they are (its policy, the features it looks for, its perft
positions).
"""
# (no `from __future__ import annotations`: the dataclasses below must build when this file is loaded by its path,
# outside sys.modules, as tests/torri/test_golden_nobles.py loads it)
import argparse
import importlib
import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.games.core.events import Event  # noqa: E402
from service.games.core.game import Game  # noqa: E402
from service.games.core.perft import perft  # noqa: E402
from service.games.registry import GAMES  # noqa: E402
from tests.golden import data, perft_file, perft_start  # noqa: E402

Json = dict[str, Any]
CHOICES = ("each", "cover")


@dataclass
class Played:
    """One directed game: its deal, what was played and what happened, and what it shows."""

    seed: int
    names: tuple[str, ...] | None  # None: the game's unnamed players (not recorded)
    variant: dict[str, Any]  # every variant's value
    players: int
    start: Any  # the deal
    steps: list[Json] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    state: Any = None  # where it ended
    features: set[str] = field(default_factory=set)
    checkpoints: list[Json] = field(default_factory=list)


@dataclass(frozen=True)
class Recording:
    """How one recorded set of a game is played and chosen: a dict of RECORDING in tests/<game>/golden.py (its keys
    are the fields after `wanted`), with what the set must cover (FEATURES[folder])."""

    game_id: str
    folder: str
    wanted: frozenset[str]
    deals: Sequence[Mapping[str, Any]]
    seeds: Sequence[int]
    choose: str
    rng: str
    max_steps: int
    directed: Callable[[random.Random, list[Any], Any], Any]
    file: Callable[[Played], str]
    perft: Mapping[str, Any]
    names: Sequence[str] | None = None
    rank: Callable[[set[str], set[str], Played], Any] | None = None
    games: int | None = None
    rare: frozenset[str] | None = None
    features: Callable[[Played], set[str]] | None = None
    watch: Callable[..., None] | None = None

    @property
    def game(self) -> Game:
        return GAMES[self.game_id]

    def seat(self, players: int | None) -> tuple[str, ...] | None:
        """The names a deal of `players` seats (the fewest if None); None for the game's unnamed players."""
        if self.names is None:
            return None
        return tuple(self.names[:players or self.game.info.min_players])

    def variant(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every variant's value: the given ones, the others at their defaults."""
        return {v.name: given.get(v.name, v.default) for v in self.game.info.variants}

    def ranked(self, played: Played, missing: set[str]) -> Any:
        if self.rank is not None:
            return self.rank(played.features, missing, played)
        return len(played.features & missing), len(played.features), -len(played.steps)

    def fail(self, message: str) -> SystemExit:
        return SystemExit(f"tests/{self.game_id}/golden.py, RECORDING[{self.folder!r}]: {message}")


def module(game_id: str) -> ModuleType:
    """The game's golden data module, tests/<game>/golden.py; a game without one fails."""
    if game_id not in GAMES:
        raise SystemExit(f"{game_id}: not a registered game ({', '.join(GAMES)})")
    try:
        return importlib.import_module(f"tests.{game_id}.golden")
    except ModuleNotFoundError as error:
        if error.name not in (f"tests.{game_id}", f"tests.{game_id}.golden"):
            raise
        raise SystemExit(f"{game_id}: no tests/{game_id}/golden.py (FEATURES and RECORDING for its golden games)")


def recordings(game_id: str) -> list[Recording]:
    """The game's recorded sets, each with its recipe; missing or malformed data fails."""
    golden = module(game_id)
    features, recipes = getattr(golden, "FEATURES", None), getattr(golden, "RECORDING", None)
    if not features or not recipes:
        raise SystemExit(f"tests/{game_id}/golden.py: no {'FEATURES' if not features else 'RECORDING'}")
    if set(features) != set(recipes):
        raise SystemExit(f"tests/{game_id}/golden.py: FEATURES has the sets {sorted(features)}, RECORDING "
                         f"{sorted(recipes)}")
    out = []
    for folder in sorted(recipes):
        given, settable = recipes[folder], fields(Recording)[3:]  # (after game_id, folder, wanted)
        missing = [f.name for f in settable if f.default is MISSING and f.name not in given]
        unknown = sorted(set(given) - {f.name for f in settable})
        if missing or unknown:
            raise SystemExit(f"tests/{game_id}/golden.py, RECORDING[{folder!r}]: missing {missing}, unknown "
                             f"{unknown}")
        recording = Recording(game_id, folder, frozenset(features[folder]), **recipes[folder])
        if recording.choose not in CHOICES:
            raise recording.fail(f"choose is one of {CHOICES}")
        if recording.choose == "cover" and (recording.games is None or recording.rare is None
                                            or len(recording.deals) != 1):
            raise recording.fail('"cover" needs one kind of deal, games and rare')
        if recording.features is None and recording.watch is None:
            raise recording.fail("features or watch: nothing says what a game shows")
        out.append(recording)
    return out


def recording_of(game_id: str, folder: str) -> Recording:
    for found in recordings(game_id):
        if found.folder == folder:
            return found
    raise SystemExit(f"tests/{game_id}/golden.py: no set {folder}")


# ---------------------------------------------------------------- playing


def play(recording: Recording, seed: int, names: Sequence[str] | None, variant: Mapping[str, Any]) -> Played:
    """One directed game of the set's recipe from the deal of `seed`, `names` and `variant`."""
    game = recording.game
    variant = recording.variant(variant)
    start = game.new_game(seed, names=names, variant=variant)
    played = Played(seed, None if names is None else tuple(names), variant, game.players(start), start)
    rng = random.Random(recording.rng.format(seed=seed, players=played.players, **variant))
    directed, watch, state = recording.directed, recording.watch, start
    while game.to_act(state) is not None and len(played.steps) < recording.max_steps:
        legal = game.legal_steps(state)
        step = directed(rng, legal, state)
        after, happened = game.apply_step(state, step)
        if watch is not None:
            watch(state, legal, step, after, happened, played)
        played.events.extend(event.at(len(played.steps)) for event in happened)
        played.steps.append(step.to_json())
        state = after
    played.state = state
    if recording.features is not None:
        played.features |= recording.features(played)
    return played


def play_deal(recording: Recording, deal: Mapping[str, Any], seed: int) -> Played:
    return play(recording, seed, recording.seat(deal.get("players")), deal.get("variant", {}))


def play_recorded(game_id: str, folder: str, document: Json) -> Played:
    """The directed game a recorded file was played by (its seed, names and variant), played again."""
    return play(recording_of(game_id, folder), document["seed"], document.get("names"), document["variant"])


def is_over(game: Game, state: Any) -> bool:
    return game.to_act(state) is None


# ---------------------------------------------------------------- choosing


def choose_each(recording: Recording) -> list[Played]:
    """For each kind of deal, the seed whose game adds most of the features still missing."""
    chosen: list[Played] = []
    missing = set(recording.wanted)
    for deal in recording.deals:
        best = None
        for seed in recording.seeds:
            played = play_deal(recording, deal, seed)
            key = recording.ranked(played, missing)
            if best is None or key > best[0]:
                best = (key, played)
        assert best is not None
        chosen.append(best[1])
        missing -= best[1].features
    if missing:
        raise recording.fail(f"the chosen games do not cover {sorted(missing)}")
    return chosen


def choose_cover(recording: Recording) -> list[Played]:
    """A greedy cover of the features by the finished games of the searched seeds (short games preferred), filled
    up with the games richest in rare features."""
    (deal,) = recording.deals
    found = [played for played in (play_deal(recording, deal, seed) for seed in recording.seeds)
             if is_over(recording.game, played.state)]
    chosen: list[Played] = []
    missing = set(recording.wanted)
    while missing and len(chosen) < recording.games:
        best = max(found, key=lambda g: (len(g.features & missing), -len(g.steps)))
        if not best.features & missing:
            break
        chosen.append(best)
        missing -= best.features
    if missing:
        raise recording.fail(f"no {recording.games} games among {len(recording.seeds)} seeds cover "
                             f"{sorted(missing)}")
    for played in sorted(found, key=lambda g: (-len(g.features & recording.rare), len(g.steps))):
        if len(chosen) >= recording.games:
            break
        if played.seed not in [c.seed for c in chosen]:
            chosen.append(played)
    return chosen


# ---------------------------------------------------------------- the documents


def golden_documents(recording: Recording) -> dict[str, Json]:
    game = recording.game
    chosen = choose_each(recording) if recording.choose == "each" else choose_cover(recording)
    out = {}
    for played in chosen:
        document: Json = {"seed": played.seed}
        if played.names is not None:
            document["names"] = list(played.names)
        document.update(variant=played.variant, features=sorted(played.features), steps=played.steps,
                        events=played.events)
        if recording.watch is not None:
            document["checkpoints"] = played.checkpoints
        document.update(final_state=game.state_json(played.state), score=game.score_state(played.state).to_json())
        out[recording.file(played)] = document
    return out


def perft_document(recording: Recording) -> Json:
    game, spec = recording.game, recording.perft
    document: Json = {"definition": spec["definition"]}
    if "variant" in spec:
        document["variant"] = spec["variant"]
    document["positions"] = positions = []
    variants = {v.name for v in game.info.variants}
    for wanted in spec["positions"]:
        position = {key: value for key, value in wanted.items() if key not in ("depth", "midgame")}
        position["steps"] = []
        if "midgame" in wanted:
            variant = {**spec.get("variant", {}), **{k: v for k, v in wanted.items() if k in variants}}
            played = play_deal(recording, {"players": wanted.get("players"), "variant": variant}, wanted["seed"])
            position["steps"] = wanted["midgame"](game, played)
        outcome = game.apply_steps(perft_start(recording.game_id, document, position), position["steps"])
        if not outcome.legal:
            raise recording.fail(f"perft position {wanted['name']}: its steps are not legal")
        if "describe" in spec:
            position.update(spec["describe"](outcome.state))
        position["counts"] = {str(depth): perft(game, outcome.state, depth)
                              for depth in range(1, wanted["depth"] + 1)}
        positions.append(position)
    return document


def dump(document: Json) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_or_check(recording: Recording, check: bool) -> bool:
    """Write the set's files (removing recorded games it no longer holds), or with `check` say which differ from
    what the recipe plays now. True: nothing differs."""
    golden = data(recording.game_id) / recording.folder
    wanted = {golden / name: dump(document) for name, document in golden_documents(recording).items()}
    wanted[perft_file(recording.game_id, recording.folder)] = dump(perft_document(recording))
    if check:
        stale = [p for p, text in wanted.items() if not p.exists() or p.read_text() != text]
        extra = [p for p in golden.glob("*.json") if p not in wanted]
        for path in stale + extra:
            print(f"differs: {path.relative_to(ROOT)}")
        if not stale and not extra:
            print(f"as recorded: {golden.relative_to(ROOT)} ({len(wanted)} files with the perft counts)")
        return not stale and not extra
    golden.mkdir(parents=True, exist_ok=True)
    for old in golden.glob("*.json"):
        if old not in wanted:
            old.unlink()
    for path, text in wanted.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"the games (default: all: {', '.join(GAMES)})")
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = parser.parse_args(argv)
    sets = [r for game_id in args.games or GAMES for r in recordings(game_id)]  # every game's data read first
    same = [write_or_check(r, args.check) for r in sets]
    return 0 if all(same) else 1


__all__ = ["Played", "Recording", "main", "play", "play_recorded", "recording_of", "recordings"]

if __name__ == "__main__":
    raise SystemExit(main())
