"""Carcassonne as the service plays it (service.games.core.game.Game): deal, view, score, the computer players'
sampling, on top of the engine; pictures of the board, and the contract's examples."""
from __future__ import annotations

import copy
import random
from dataclasses import replace
from functools import cached_property
from typing import Any, Iterable, Mapping, Sequence

from ..core.game import Capability, Game, GameInfo, Json, Outcome, Proposal, Variant
from ..core.language import DEFAULT
from ..core.players import shuffled_rest
from ..core.seating import player_names, to_act
from . import picture as board_picture
from . import schemas as wire_schemas
from .board import BoardIndex
from .catalogue import RULES, RULES_VERSION
from .engine import apply_step, legal_moves, legal_steps, unplaced
from .messages import tr
from .model import FLOORS, MAX_PLAYERS, MIN_PLAYERS, Bag, Phase, Placement, Player, State, StepDue
from .narration import narrate
from .position import state_json
from .scoring import score_state
from .steps import Step
from .tiles import HALF_NAMES, INNER, START_TILE, full_set

GAME_ID = "carcassonne"


def new_game(seed: int | str, *, players: int | None = None, names: Iterable[str] | None = None,
             tower: bool = False) -> State:
    """K-SETUP-1/2 (K-TOW-TILE-1 with The Tower): the start tile at [0, 0], the other tiles shuffled into the bag,
    7 meeples (and the floors) for each of 2 to 5 players. The same seed, player count and variant always deal
    the same bag."""
    names = player_names(names, players, fewest=MIN_PLAYERS, most=MAX_PLAYERS, game="Carcassonne", rule="K-SETUP-2")
    n = len(names)
    tiles = full_set(tower)
    tiles.remove(START_TILE)
    # a str seed is hashed with SHA-512: the same bag on every machine
    random.Random(f"{GAME_ID}:{n}:{'tower' if tower else 'base'}:{seed}").shuffle(tiles)
    board = (Placement(START_TILE, (0, 0), 0),)
    floors = FLOORS[n] if tower else 0
    state = State(tower, Phase.PLAY, 0, StepDue.PLACE, Bag.known(tuple(tiles)), (), board, None, None, (), (),
                  tuple(Player(name, floors=floors) for name in names), False)
    return state.with_index(BoardIndex.of(board))


def played_game(seed: int, names: list[str], tower: bool) -> State:
    """A whole game played by a fixed policy (a meeple where one may go, else a floor, else nothing), for the
    contract's examples of a finished board."""
    rng = random.Random(seed)
    state = new_game(seed, names=names, tower=tower)
    while not state.over:
        steps = legal_steps(state)
        preferred = [s for s in steps if s.type in ("meeple", "capture")] or \
                    [s for s in steps if s.type == "floor"] or [s for s in steps if s.type != "ransom"]
        state = apply_step(state, rng.choice(preferred))[0]
    return state


EXAMPLE_SEED = 14
EXAMPLE_NAMES = ["Ada", "Bea", "Cy"]


def _gain(state: State, place: Step, me: int) -> int:
    """What placing a tile (and no meeple) scores for `me`, less what it scores for the others."""
    after = apply_step(apply_step(state, place)[0], Step("skip"))[0]
    return sum((1 if p == me else -1) * (a.score - b.score) for p, (a, b) in enumerate(zip(after.players,
                                                                                        state.players)))


def example_game(seed: int = EXAMPLE_SEED, names: list[str] | None = None) -> State:
    """A whole seeded base game played somewhat as people play it, for the referee page's example of a finished
    table: each tile where it scores most for its player, a knight, thief or monk on about half the tiles while
    three meeples are in supply, now and then a farmer; so that features complete, meeples come home and every
    category of the end scoring appears."""
    rng = random.Random(f"carcassonne-example:{seed}")
    state = new_game(seed, names=names or EXAMPLE_NAMES, tower=False)
    while not state.over:
        steps = legal_steps(state)
        me = state.turn
        if state.step is StepDue.ACTION:
            meeples = [s for s in steps if s.type == "meeple"]
            farmers = [s for s in meeples if s.feature in HALF_NAMES or s.feature == INNER]
            others = [s for s in meeples if s not in farmers]
            supply, chance = state.players[me].supply, rng.random()
            step = (rng.choice(others) if others and supply > 2 and chance < 0.6 else
                    rng.choice(farmers) if farmers and supply > 3 and chance > 0.9 else Step("skip"))
        else:
            places = [s for s in steps if s.type == "place"]
            step = max(places, key=lambda s: (_gain(state, s, me), rng.random())) if places else steps[0]
        state = apply_step(state, step)[0]
    return state


# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("tower", tr("The Tower: 18 tiles with tower foundations, floors, captures, prisoners and "
                                "ransom (K-TOW).")),)


class CarcassonneGame(Game[State, Step]):
    info = GameInfo(id="carcassonne", title="Carcassonne", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    rules_version=RULES_VERSION, variants=VARIANTS)
    rule_book = RULES
    wire = wire_schemas.FORMS  # the requests and answers on the wire (openapi.yaml is made from them)
    step_type = Step
    capabilities = frozenset({Capability.PICTURE, Capability.EDITOR})
    editor = "referee"
    # the search's playouts: the player's turn and the next, then judged by the points were the game to end there
    # (K-SVC-SCORE), a lead of 8 points a 73 % chance; longer random playouts lost to greedy (bench/players.py)
    playout_turns, lead_scale = 1, 8.0

    legal_steps = staticmethod(legal_steps)
    legal_moves_of = staticmethod(legal_moves)  # the engine writes them straight
    apply_step = staticmethod(apply_step)
    narrate = staticmethod(narrate)
    state_json = staticmethod(state_json)
    score_state = staticmethod(score_state)

    def player_view(self, state: State, player: int) -> State:
        """The state as a player may see it: the bag's order becomes a count (K-SVC-BAG); the rest is public."""
        del player  # every player sees the same
        if state.bag.tiles is None:
            return state
        view = replace(state, bag=Bag(None, state.bag.count))
        return view.with_index(state.index) if state.index is not None else view

    def seen_by(self, state: State, player: int) -> State:
        """What the player to act knows: its view, and the tile it has drawn (K-PLACE: draw a tile, then place it),
        the bag's first while a placement is due; the rest of a listed bag in a fixed order (its content is public,
        K-COMP-3; its order is not)."""
        if state.bag.tiles is None or state.step is not StepDue.PLACE or state.over:
            return self.player_view(state, player)
        drawn, rest = state.bag.tiles[:1], tuple(sorted(state.bag.tiles[1:]))
        view = replace(state, bag=Bag.known(drawn + rest))
        return view.with_index(state.index) if state.index is not None else view

    def sample_unseen(self, seen: State, seat: int, rng: random.Random) -> State:
        """A whole state `seat` cannot tell from `seen` (what it knows, `seen_by`): the bag's order dealt afresh from
        the tiles neither placed nor discarded (K-COMP-3), the tile drawn kept first."""
        del seat  # every player sees the same
        if seen.bag.tiles is not None:
            drawn = seen.bag.tiles[:1] if seen.step is StepDue.PLACE else ()
            rest = list(seen.bag.tiles[len(drawn):])
            rng.shuffle(rest)
            tiles = drawn + tuple(rest)
        else:
            tiles = tuple(shuffled_rest(unplaced(seen), {}, rng)[:seen.bag.count])
        state = replace(seen, bag=Bag.known(tiles))
        return state.with_index(seen.index) if seen.index is not None else state

    def evaluate(self, state: State) -> tuple[int, ...]:
        """Each player's points as if the game ended now (K-SVC-SCORE): the greedy player's evaluation."""
        return tuple(score_state(state).totals)

    def deal(self, seed: int | str, *, names: Sequence[str] | None, variant: Mapping[str, Any]) -> State:
        return new_game(seed, names=names, tower=variant["tower"])

    def draw(self, subject: State, language: str = DEFAULT, proposal: Proposal | None = None) -> str:
        """An SVG picture of the board of a {"state"} request: tiles, meeples, towers, scores and prisoners."""
        # With a `proposal` (Game.picture with `moves`): its step drawn faded where it was tried on this state, marked
        # legal or refused, and its verdict below the players (picture._proposed). The docstring is the endpoint's
        # description.
        return board_picture.svg(subject, language, proposal)

    @cached_property
    def examples(self) -> dict[str, Json]:
        """Request bodies for the contract's examples: a deal with The Tower, its first turn, a finished game to
        score and draw, and an impossible state (a tile added to the board by hand, a meeple too few in a supply)."""
        new = {"seed": 42, "names": ["Ada", "Bea", "Cy"], "variant": {"tower": True}}
        start = new_game(42, names=new["names"], tower=True)
        first = legal_steps(start)[0]
        finished = state_json(played_game(7, ["Ada", "Bea"], tower=True))
        broken = copy.deepcopy(state_json(start))
        broken["board"].append({"tile": "BA/Cccc+", "at": [0, 1], "rotation": 0})
        broken["players"][0]["supply"] = 6
        return {"new": new, "apply": {"moves": [first.to_json(), {"type": "skip"}]}, "score": {"state": finished},
                "picture": {"state": finished}, "validate": {"state": broken}}


GAME = CarcassonneGame()
player_view, seen_by, sample_unseen, standing = GAME.player_view, GAME.seen_by, GAME.sample_unseen, GAME.evaluate
score = GAME.score_state
as_step = GAME.as_step  # (step, index=0) -> Step
apply_steps = GAME.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step


__all__ = ["GAME", "GAME_ID", "CarcassonneGame", "Outcome", "apply_steps", "as_step", "example_game", "legal_moves",
           "new_game", "played_game", "player_view", "sample_unseen", "score", "seen_by", "standing", "to_act"]
