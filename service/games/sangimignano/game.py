"""San Gimignano as the service plays it (service.games.core.game.Game): deal, view, score, the computer
players' sampling, on top of the engine; pictures of the board, and the contract's examples."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import cached_property
from itertools import product
from typing import Any, Iterable, Mapping, Sequence

from ..core.errors import InvalidStateError, MalformedError, Problem
from ..core.game import Capability, Game, GameInfo, Json, Outcome, Proposal, Variant
from ..core.language import DEFAULT, said
from ..core.players import shuffled_rest
from ..core.seating import player_names, to_act
from . import picture as board_picture
from . import schemas as wire_schemas
from .catalogue import RULES, RULES_VERSION
from .engine import apply_step, buildable, legal_steps, settle
from .geometry import GUILDS, Guilds, Placed, canonical_turn, hexagon_kind, layout
from .messages import tr
from .model import HEXAGONS, MAX_PLAYERS, MIN_PLAYERS, SETUP, START, TOKEN, Player, State
from .narration import narrate
from .picture import counted_tokens, counted_towers
from .position import state_json
from .scoring import Score, score_state
from .steps import Step, read_guilds


def default_hexes() -> list[Guilds]:
    """S-SVC-TILES: every way to leave one guild out (4), in both cyclic orders (2), twice: 16 hexagons."""
    kinds = []
    for left_out in GUILDS:
        rest = tuple(g for g in GUILDS if g != left_out)
        kinds.extend([rest, rest[::-1]])
    return [hexagon_kind(k) for k in kinds] * 2


def read_hexes(data: Any) -> list[Guilds]:
    """The caller's 16 hexagons for /new (S-SVC-TILES); MalformedError for a wrong shape, InvalidStateError when a
    hexagon repeats a guild (S-COMP-1)."""
    if not isinstance(data, list):
        raise MalformedError(Problem(None, "/hexes", tr("Must be a list of the {hexagons} hexagons, each three "
                                                        "guilds.", hexagons=HEXAGONS)))
    if len(data) != HEXAGONS:
        # Translators: {given} is the number of hexagons the request lists.
        raise InvalidStateError(Problem("S-COMP-1", "/hexes", tr("The game has {hexagons} hexagons; {given} given.",
                                                                 hexagons=HEXAGONS, given=len(data))))
    problems: list[Problem] = []
    rules: list[Problem] = []
    out = [read_guilds(item, f"/hexes/{i}", problems, rules) for i, item in enumerate(data)]
    if problems:
        raise MalformedError(problems)
    if rules:
        raise InvalidStateError(rules)
    return [g for g in out if g is not None]


def new_game(seed: int | str, *, players: int | None = None, names: Iterable[str] | None = None,
             large_groups: bool = False, hexes: Any = None) -> State:
    """S-SETUP-1..3, S-SVC-START: a fresh deal for 2 to 4 players (`names`, or `players` unnamed ones; 2 by
    default). The same seed, player count and hexagons always deal the same; the variant does not change the
    deal."""
    names = player_names(names, players, fewest=MIN_PLAYERS, most=MAX_PLAYERS, game="San Gimignano", rule="S-SETUP-1")
    n = len(names)
    pool = default_hexes() if hexes is None else read_hexes(hexes)
    rng = random.Random(f"sangimignano:{n}:{seed}")  # a str seed is hashed with SHA-512: stable across machines
    rng.shuffle(pool)
    starting, hand_size, boxed = SETUP[n]
    table = _lay_start(pool[:starting], START[n], rng)
    hands = [tuple(sorted(hexagon_kind(h) for h in pool[starting + i * hand_size:starting + (i + 1) * hand_size]))
             for i in range(n)]
    board = tuple(sorted(table, key=lambda placed: placed.at))
    state = State(large_groups, tuple(Player(name, hand) for name, hand in zip(names, hands)), board,
                  tuple(() for _ in range(3 * len(board))), tuple(None for _ in range(3 * len(board))), boxed)
    return settle(state, TOKEN, [])


def _lay_start(hexes: list[Guilds], cells: tuple, rng: random.Random) -> list[Placed]:
    """S-SVC-START: the starting hexagons at their places, turned by the seed so that no two spaces of one guild
    share a side (S-SETUP-2): the turnings are tried in a seeded order."""
    turnings = list(product(range(6), repeat=len(hexes)))
    rng.shuffle(turnings)
    for turning in turnings:
        placed = [Placed(at, *canonical_turn(k, tuple(h))) for at, k, h in zip(cells, turning, hexes)]
        if _apart(placed):
            return placed
    raise InvalidStateError(Problem("S-SETUP-2", "/hexes", tr("The starting hexagons cannot be laid so that no two "
                                                              "spaces of one guild share a side.")))


def _apart(placed: list[Placed]) -> bool:
    for i, one in enumerate(placed):
        others = tuple(sorted(placed[:i] + placed[i + 1:], key=lambda p: p.at))
        if not layout(others).fits(one.at, one.rotation, one.guilds):
            return False
    return True


READY = 0.5  # a group ready to build on (S-BUILD-1), in towers: a tower next turn, unless someone takes a space


EXAMPLE_NAMES = ["Ada", "Bea", "Cy"]


def example_game(seed: int = 42, names: list[str] | None = None, large_groups: bool = False) -> tuple[State, list]:
    """A whole seeded game played by a fixed random policy that builds whenever it can: (final state, steps)."""
    state = new_game(seed, names=names or EXAMPLE_NAMES, large_groups=large_groups)
    rng = random.Random(f"sangimignano-example:{seed}")
    steps = []
    while not state.over:
        legal = legal_steps(state)
        builds = [s for s in legal if s.type == "build"]
        step = rng.choice(builds or legal)
        steps.append(step.to_json())
        state = apply_step(state, step)[0]
    return state, steps


# what /v1/games lists and /new's `variant` switches on
VARIANTS = (Variant("large_groups", tr("A player may build on a connected group of four or more spaces among which "
                                       "all four guilds appear (S-VAR-1).")),)


class SanGimignanoGame(Game[State, Step]):
    info = GameInfo(id="sangimignano", title="San Gimignano", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    rules_version=RULES_VERSION, variants=VARIANTS)
    rule_book = RULES
    wire = wire_schemas.FORMS  # the requests and answers on the wire (openapi.yaml is made from them)
    step_type = Step
    capabilities = frozenset({Capability.PICTURE, Capability.EDITOR})
    editor = "referee"
    deal_options = ("hexes",)  # the caller's set of hexagons (S-SVC-TILES)
    playout_turns = 2  # the search's playouts: two turns, then the leader on points wins (bench/players.py)

    legal_steps = staticmethod(legal_steps)
    apply_step = staticmethod(apply_step)
    narrate = staticmethod(narrate)
    state_json = staticmethod(state_json)
    score_state = staticmethod(score_state)

    def player_view(self, state: State, player: int) -> State:
        """The state as `player` may see it (S-SVC-UNKNOWN): the other players' hexagons in hand become counts; the
        board, tokens, towers and supplies are public."""
        players = tuple(p if i == player or not p.hexes else replace(p, hexes=(), hidden=p.hand_size)
                        for i, p in enumerate(state.players))
        return replace(state, players=players)

    def sample_unseen(self, seen: State, seat: int, rng: random.Random) -> State:
        """A whole state `seat` cannot tell from `seen` (its view): the other players' hexagons dealt afresh from the
        hexagons it cannot account for (S-SVC-TILES, the board and its own hand known). A game dealt from the caller's
        own hexagons may run out of them: then any kind."""
        if not seen.has_hidden:
            return seen
        known = Counter(hexagon_kind(placed.guilds) for placed in seen.board)
        for player in seen.players:
            known.update(player.hexes)
        rest = shuffled_rest(Counter(default_hexes()), known, rng)
        kinds = sorted(set(default_hexes()))
        players = []
        for player in seen.players:
            dealt = [rest.pop() if rest else rng.choice(kinds) for _ in range(player.hidden)]
            players.append(replace(player, hexes=tuple(sorted(player.hexes + tuple(dealt))), hidden=0))
        return replace(seen, players=tuple(players))

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Each player's towers built (S-END-3), half a tower more with a group ready to build on, a token on a space a
        hundredth (tokens break a tie): the greedy player's evaluation. Towers alone would leave every token placement
        equal, and greedy placing them at random."""
        scores = score_state(state).players
        return tuple(p.towers + READY * bool(buildable(state, i)) + p.tokens / 100 for i, p in enumerate(scores))

    def deal(self, seed: int | str, *, names: Sequence[str] | None, variant: Mapping[str, Any],
             hexes: Any = None) -> State:
        return new_game(seed, names=names, large_groups=variant["large_groups"], hexes=hexes)

    def score_text(self, score: Score, warnings: Sequence[Problem] = (), language: str = DEFAULT) -> list[str]:
        """Towers, then tokens: what decides (S-END-3); who wins; the warnings (in `language`)."""
        # Translators: a player's line of the score: their towers and tokens on the board ("2 towers, 5 tokens").
        towers = ["  " + said(tr("{name}: {tower_count}, {token_count}", name=p.name,
                                 tower_count=counted_towers(p.towers), token_count=counted_tokens(p.tokens)),
                              language) for p in score.players]
        return towers + super().score_text(score, warnings, language)

    def draw(self, subject: State, language: str = DEFAULT, proposal: Proposal | None = None) -> str:
        """An SVG picture of the board of a {"state"} request: hexagons cut into their guild spaces, tokens and
        towers in the players' colours, coordinates as labels, and who leads."""
        # With a `proposal` (Game.picture with `moves`): its step drawn faded where it was tried on this state (a token
        # or tower on its space, a hexagon on its place, an end by its player's row), marked legal or refused, and its
        # verdict below the board (picture._proposed). The docstring is the endpoint's description.
        return board_picture.svg(subject, language=language, proposal=proposal)

    @cached_property
    def examples(self) -> dict[str, Json]:
        """Request bodies for the contract's examples: a deal, its first turn, a finished game to score and draw,
        and an impossible state (three tokens and a tower on one space)."""
        new_request = {"seed": 42, "names": EXAMPLE_NAMES}
        state = new_game(42, names=EXAMPLE_NAMES)
        moves = []
        while True:  # the first player's whole turn: token, hexagon, and a tower or the end
            step = legal_steps(state)[0]
            moves.append(step.to_json())
            state = apply_step(state, step)[0]
            if state.turn != 0 or state.over:
                break
        finished, _ = example_game()
        broken = state_json(new_game(42, names=EXAMPLE_NAMES))
        broken["board"][0]["tokens"][0] = [0, 1, 2]
        broken["board"][0]["towers"][0] = 1
        return {"new": new_request, "apply": {"moves": moves}, "score": {"state": state_json(finished)},
                "picture": {"state": state_json(finished)}, "validate": {"state": broken}}


GAME = SanGimignanoGame()
player_view, sample_unseen, standing, score = GAME.player_view, GAME.sample_unseen, GAME.evaluate, GAME.score_state
as_step = GAME.as_step  # (step, index=0) -> Step
apply_steps = GAME.apply_steps  # (state, steps, *, keep_states=False) -> Outcome: stops at the first illegal step
legal_moves = GAME.legal_moves_of  # (state) -> every legal step's JSON form


__all__ = ["GAME", "Outcome", "SanGimignanoGame", "apply_steps", "as_step", "default_hexes", "example_game",
           "legal_moves", "new_game", "player_view", "sample_unseen", "score", "standing", "to_act"]
