"""The San Gimignano rules: which steps are legal, and what each one does.

`apply_step` and `legal_steps` are two readings of the same rules and must agree exactly (the conformance tests
hold them to it). A turn is three phases (S-TURN-1..3); a phase in which the player to act has no choice passes by
itself with a `skipped` event (S-SVC-SKIP, S-SVC-NOFIT), so the state's `step` is always a phase with a choice.
"""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from typing import NamedTuple

from ..core.errors import illegal
from ..core.events import Event
from ..core.memo import memo, remember
from ..core.turns import Events, Stage, Turns, finished
from .geometry import (
    ALL_GUILDS,
    GUILDS,
    KINDS,
    MAX_COORD,
    Coord,
    Guilds,
    Layout,
    Placed,
    canonical_turn,
    components,
    distinct_quartets,
    group_sets,
    group_within,
    last_by_identity,
    layout,
    on_table,
    side_guilds,
    spaces_of,
)
from .messages import tr, tr_n
from .model import BUILD, HEX, MAX_PLAYERS, OVER, TOKEN, Player, State, evolve
from .steps import Step, made_step

END = Step("end")


def _replace_at(items: tuple, index: int, item) -> tuple:
    return items[:index] + (item,) + items[index + 1:]


def place(at: Coord) -> str:
    """A place as the messages write it: [q, r]."""
    return f"[{at[0]}, {at[1]}]"


def where(lay: Layout, space: int) -> dict[str, str]:
    """A space as the messages name it: its guild's letter and its hexagon's place (the parameters `guild_letter`
    and `place`)."""
    at, guild = lay.name(space)
    return {"guild_letter": guild, "place": place(at)}


# ---------------------------------------------------------------- what the rules look at

# The searches here look only at the board, the pieces on it and a supply: a turn that changes none of these (a
# declined tower, every phase a player skips, the S-END-2 check after each turn) asks them again with the same
# question, so their answers are kept per position. A request of a thousand `end` steps then searches once, not
# four times a step. Those repeats come within a few steps of each other, so a few hundred positions keep every hit
# a request has; each entry also keeps its board's Layout alive, so a larger bound mostly holds boards of requests
# long gone.
SEARCH_CACHE = 256


class Pieces(NamedTuple):
    """Where the pieces lie, read once per position; a set of spaces is one number, space s its bit s."""

    own: tuple[int, ...]  # per player: the set of spaces without a tower holding one of their tokens
    room: tuple[int, ...]  # the spaces with room for a token: no tower (S-BUILD-3), fewer than two tokens (S-TOKEN-1)
    room_set: int  # the same as a set

    def with_token(self, space: int, player: int, full: bool) -> Pieces:
        """The pieces once `player` has put a token on `space`, which had room: one of theirs now, and no room
        left there if it is `full` (two tokens, S-TOKEN-1)."""
        own = _replace_at(self.own, player, self.own[player] | 1 << space)
        if not full:
            return Pieces(own, self.room, self.room_set)
        at = bisect_left(self.room, space)
        return Pieces(own, self.room[:at] + self.room[at + 1:], self.room_set & ~(1 << space))

    def with_hexagon(self, position: int) -> Pieces:
        """The pieces once a hexagon is laid at `position` of the board (its order): the spaces from 3 * position
        on are numbered three further on, and the new hexagon's three spaces, empty, have room."""
        first = 3 * position
        at = bisect_left(self.room, first)
        room = self.room[:at] + (first, first + 1, first + 2) + tuple(space + 3 for space in self.room[at:])
        return Pieces(tuple(_moved_on(spaces, first) for spaces in self.own), room,
                      _moved_on(self.room_set, first) | 0b111 << first)


def _moved_on(spaces: int, first: int) -> int:
    """The set of spaces `spaces` once three new spaces come in at `first`: those from `first` on move on by
    three."""
    before = (1 << first) - 1
    return spaces & before | (spaces & ~before) << 3


def read_pieces(tokens: tuple[tuple[int, ...], ...], towers: tuple[int | None, ...]) -> Pieces:
    own = [0] * MAX_PLAYERS
    room: list[int] = []
    room_set = 0
    for s, (owners, tower) in enumerate(zip(tokens, towers)):
        if tower is not None:
            continue
        bit = 1 << s
        for owner in owners:
            own[owner] |= bit
        if len(owners) < 2:
            room.append(s)
            room_set |= bit
    return Pieces(tuple(own), tuple(room), room_set)


# the last position's pieces are found by identity; the cache behind is for an equal position made anew
_pieces = remember(last_by_identity(lru_cache(maxsize=SEARCH_CACHE // 4)(read_pieces)))


def pieces(state: State) -> Pieces:
    return _pieces(state.tokens, state.towers)


def know_pieces(state: State, where: Pieces) -> None:
    """Take `where` as the pieces of `state`, worked out by the caller as `read_pieces` would (a read counts the
    pieces in the same pass)."""
    _pieces.remember((state.tokens, state.towers), where)


def token_spaces(state: State) -> tuple[int, ...]:
    """The spaces the player to act may put a token on: none without a token in supply; else every space with
    room."""
    if state.players[state.turn].tokens <= 0:
        return ()
    return pieces(state).room


def hand_kinds(player: Player) -> tuple[Guilds, ...]:
    """The hexagons a player may lay: their own, or any kind at all when their hand is unknown (S-SVC-UNKNOWN)."""
    if player.hidden:
        return KINDS
    return tuple(sorted(set(player.hexes)))


def turnings(kinds: tuple[Guilds, ...]) -> list[tuple[Guilds, int, int]]:
    """Each of `kinds` turned each way: (kind, rotation, the guild it shows on each side, as `side_guilds`)."""
    return [(kind, rotation, shown) for kind in kinds for rotation, shown in enumerate(turned(kind))]


def turned(kind: Guilds) -> tuple[int, ...]:
    """Per rotation 0 to 5, the guild a hexagon of `kind` shows on each side (`side_guilds`)."""
    shown = TURNED.get(kind)
    return shown if shown is not None else tuple(side_guilds(rotation, kind) for rotation in range(6))


# `turned` for every kind, worked out once: the S-HEX-3 checks of a hand ask it of each kind in hand
TURNED = {kind: tuple(side_guilds(rotation, kind) for rotation in range(6)) for kind in KINDS}


def placements(lay: Layout, kinds: tuple[Guilds, ...]) -> list[Step]:
    """Every legal way to lay one of `kinds` (S-HEX-1..3): on a free cell touching two hexagons, turned any way, no
    two spaces of one guild sharing a side."""
    ways = turnings(kinds)
    return [made_step(("hex", at, None, kind, rotation))
            for at, facing in lay.facing.items() for kind, rotation, shown in ways if not facing & shown]


def any_fits(lay: Layout, kinds: tuple[Guilds, ...]) -> bool:
    return _any_fits(lay, kinds)


@memo(SEARCH_CACHE)
def _any_fits(lay: Layout, kinds: tuple[Guilds, ...]) -> bool:
    ways = [shown for kind in kinds for shown in turned(kind)]
    return any(not facing & shown for facing in lay.shown.values() for shown in ways)


def own_spaces(state: State, player: int) -> list[int]:
    """The spaces without a tower holding one of the player's tokens: what their groups are made of."""
    return spaces_of(pieces(state).own[player])


def buildable(state: State, player: int) -> list[int]:
    """S-BUILD-1, S-BUILD-2 (S-VAR-1): every space a tower of `player` may go on now, in space order."""
    return list(_buildable(layout(state.board), pieces(state).own[player], state.large_groups))


@memo(SEARCH_CACHE)
def _buildable(lay: Layout, own: int, large_groups: bool) -> tuple[int, ...]:
    out = 0
    if large_groups:  # the whole connected group qualifies, and a tower may go on any of its spaces
        for group in group_sets(lay, own):
            if lay.guilds_of(group) == ALL_GUILDS:
                out |= group
    else:
        for quartet in distinct_quartets(lay, own):
            out |= quartet
            if out == own:
                break  # every space is in some quartet: no more are needed
    return tuple(spaces_of(out))


def possible_group(state: State, player: int) -> bool:
    """S-SVC-STUCK: whether `player` still has a possible group: one meeting S-BUILD-1 (or S-VAR-1) whose every
    space holds one of their tokens or has room for one, needing no more tokens than they hold."""
    where = pieces(state)
    return _possible_group(layout(state.board), where.own[player], where.room_set, state.large_groups,
                           state.players[player].tokens)


@memo(SEARCH_CACHE)
def _possible_group(lay: Layout, own: int, room: int, large_groups: bool, supply: int) -> bool:
    return group_within(lay, own | room, own, large_groups, supply)  # a token more on each space not yet `own`


def hexagon_fits(state: State, player: int, unknown_fits: bool = True) -> bool:
    """Whether the player holds a hexagon that fits somewhere; an unknown hand fits when some kind would, unless
    `unknown_fits` is False (then it is taken not to)."""
    hand = state.players[player]
    if hand.hidden and not unknown_fits:
        return False
    return hand.hand_size > 0 and any_fits(layout(state.board), hand_kinds(hand))


def stuck(state: State, unknown_fits: bool = True) -> bool:
    """S-END-2, S-SVC-STUCK: no player holds a hexagon that fits and no player has a possible group."""
    players = range(len(state.players))
    # the groups first: a possible group is found without working out where a hexagon could go (`Layout.shown`)
    return not any(possible_group(state, p) for p in players) \
        and not any(hexagon_fits(state, p, unknown_fits) for p in players)


# ---------------------------------------------------------------- the flow of a turn

def has_choice(state: State, phase: str) -> bool:
    """Whether the player to act has a choice in `phase` (else it passes by itself, S-SVC-STEP)."""
    p = state.turn
    if phase == TOKEN:
        return bool(token_spaces(state))
    if phase == HEX:
        return hexagon_fits(state, p)
    return bool(buildable(state, p))


def _skip_reason(state: State, phase: str) -> str:
    player = state.players[state.turn]
    if phase == TOKEN:
        return "no_token" if player.tokens <= 0 else "no_room"  # S-SVC-SKIP
    if phase == HEX:
        return "no_hexagon" if player.hand_size == 0 else "no_fit"  # S-TURN-2, S-SVC-NOFIT
    return "no_group"  # S-TURN-3


_NEXT = {TOKEN: HEX, HEX: BUILD}


def settle(state: State, phase: str, events: Events) -> State:
    """The state with `phase` of the current turn due, moved on past every phase without a choice (each with a
    `skipped` event), through turn ends and the end of the game."""
    idle_turns = 0
    while True:
        if has_choice(state, phase):
            return evolve(state, step=phase)
        events.append(Event({"type": "skipped", "player": state.turn, "phase": phase, "reason": _skip_reason(state, phase)}))
        if phase != BUILD:
            phase = _NEXT[phase]
            continue
        idle_turns += 1
        state = end_turn(state, events)
        if state.over:
            return state
        # A whole round without a choice means no player can act, so S-END-2 has ended the game (a guard only).
        assert idle_turns <= 2 * len(state.players), "no player can act, yet the game goes on"
        phase = TOKEN


def end_turn(state: State, events: Events) -> State:
    """S-END-2 is checked after every turn; otherwise play passes to the next player (S-SETUP-3)."""
    if stuck(state):
        return game_over(state, "no_possible_group", events)
    turn = (state.turn + 1) % len(state.players)
    events.append(Event({"type": "turn", "player": turn}))
    return evolve(state, turn=turn, step=TOKEN)


def game_over(state: State, reason: str, events: Events) -> State:
    from .scoring import score_state
    over = evolve(state, phase=OVER, step=None)
    events.append(Event({"type": "game_over", "reason": reason, "winners": list(score_state(over).winners)}))
    return over


# ---------------------------------------------------------------- apply

def _do_no_fit(s: State, step: Step, events: Events) -> State:
    events.append(Event({"type": "no_fit", "player": s.turn}))  # S-SVC-UNKNOWN: declared by the caller
    return settle(s, BUILD, events)


def _do_decline(s: State, step: Step, events: Events) -> State:
    events.append(Event({"type": "declined", "player": s.turn}))  # S-TURN-3: building is optional
    s = end_turn(s, events)
    return s if s.over else settle(s, TOKEN, events)


def _space(state: State, at: Coord, guild: str) -> tuple[Layout, int]:
    lay = layout(state.board)
    h = lay.index.get(at)
    if h is None:
        raise illegal("S-GEO-2", "/at", tr("No hexagon lies at {place}.", place=place(at)))
    space = lay.space(at, guild)
    if space is None:
        # Translators: {shown} is the hexagon's three guild letters (A, B, C); {guild_letter} is the letter asked for.
        raise illegal("S-GEO-2", "/guild", tr("The hexagon at {place} shows {shown}, not {guild_letter}.",
                                              place=place(at), shown=", ".join(state.board[h].guilds),
                                              guild_letter=guild))
    return lay, space


def _do_token(s: State, step: Step, events: Events) -> State:
    assert step.at is not None and step.guild is not None
    player = s.players[s.turn]
    lay, space = _space(s, step.at, step.guild)
    if player.tokens <= 0:
        raise illegal("S-SVC-SKIP", "/type", tr("{player} has no token left in supply.", player=player.name))
    if s.towers[space] is not None:
        # Translators: the space is named by its guild's letter and its hexagon's place: "B at [1, 0]".
        raise illegal("S-BUILD-3", "/at", tr("A tower already stands on {guild_letter} at {place}: no token may go "
                                             "there.", **where(lay, space)))
    if len(s.tokens[space]) >= 2:
        # Translators: the space is named by its guild's letter and its hexagon's place: "B at [1, 0]".
        raise illegal("S-TOKEN-1", "/at", tr("{guild_letter} at {place} already holds two tokens, the most a space "
                                             "takes.", **where(lay, space)))
    before = pieces(s)
    tokens = _replace_at(s.tokens, space, tuple(sorted(s.tokens[space] + (s.turn,))))
    s = evolve(s, tokens=tokens, players=_replace_at(s.players, s.turn, evolve(player, tokens=player.tokens - 1)))
    # what the rest of the step asks about: the pieces as they were, and the one token more
    _pieces.remember((s.tokens, s.towers), before.with_token(space, s.turn, len(tokens[space]) == 2))
    events.append(Event({"type": "token", "player": s.turn, "at": list(step.at), "guild": step.guild}))
    return settle(s, HEX, events)


def _do_hex(s: State, step: Step, events: Events) -> State:
    assert step.at is not None and step.hex is not None and step.rotation is not None
    player = s.players[s.turn]
    kind, at = step.hex, step.at
    if player.hidden:
        player = evolve(player, hidden=player.hidden - 1)
    elif kind in player.hexes:
        rest = list(player.hexes)
        rest.remove(kind)
        player = evolve(player, hexes=tuple(rest))
    else:
        # Translators: a hexagon is written as its three guild letters, counter-clockwise: ABC; {held}, the
        # hexagons the player holds, so written: ABC; ABD.
        said = (tr("{player} holds no hexagon {hexagon} (counter-clockwise); they hold {held}.", player=player.name,
                   hexagon="".join(kind), held="; ".join("".join(h) for h in player.hexes)) if player.hexes else
                tr("{player} holds no hexagon {hexagon} (counter-clockwise); they hold none.", player=player.name,
                   hexagon="".join(kind)))
        raise illegal("S-HEX-1", "/hex", said)
    lay = layout(s.board)
    if not on_table(at):
        raise illegal("S-SVC-EDGE", "/at",
                      tr("{place} is beyond the table's edge: both coordinates of a place run from -{most} to "
                         "{most}.", place=place(at), most=MAX_COORD))
    if at in lay.index:
        raise illegal("S-HEX-2", "/at", tr("A hexagon already lies at {place}.", place=place(at)))
    touching = lay.touching(at)
    if touching < 2:
        raise illegal("S-HEX-2", "/at",
                      tr_n("A hexagon at {place} would touch {count} hexagon in play; it must touch at least two by "
                           "a side.",
                           "A hexagon at {place} would touch {count} hexagons in play; it must touch at least two by "
                           "a side.", touching, place=place(at)))
    rotation, guilds = canonical_turn(step.rotation, kind)
    clashes = lay.clashes(at, rotation, guilds)
    if clashes:
        side, other, guild = clashes[0]
        # Translators: {guild_letter} is a guild's letter; {side}, a side of the hexagon laid (0 to 5, S-GEO-1).
        raise illegal("S-HEX-3", "/rotation",
                      tr("Laid so, its {guild_letter} space would share side {side} with the {guild_letter} space of "
                         "the hexagon at {place}: two spaces of one guild may never share a side.",
                         guild_letter=guild, side=side, place=place(other)))
    position = bisect_left([h.at for h in s.board], at)
    board = s.board[:position] + (Placed(at, rotation, guilds),) + s.board[position:]
    tokens = s.tokens[:3 * position] + ((), (), ()) + s.tokens[3 * position:]
    towers = s.towers[:3 * position] + (None, None, None) + s.towers[3 * position:]
    before = pieces(s)
    s = evolve(s, board=board, tokens=tokens, towers=towers, players=_replace_at(s.players, s.turn, player))
    _pieces.remember((s.tokens, s.towers), before.with_hexagon(position))  # the tower phase next asks it
    events.append(Event({"type": "hex", "player": s.turn, "hex": list(kind), "at": list(at), "rotation": step.rotation}))
    return settle(s, BUILD, events)


def either(guilds: list[str]) -> str:
    """Guild letters as alternatives: "B", "B or C", "B or C or D"."""
    if len(guilds) == 1:
        return guilds[0]
    # Translators: alternatives among guilds' letters: "B or C"; for three, nested: "B or C" or "D".
    return tr("{guild_letters} or {guild_letter}", guild_letters=either(guilds[:-1]), guild_letter=guilds[-1])


def explain_no_build(state: State, space: int) -> str:
    """Why the player to act may not build on `space`, in a player's words (S-BUILD-1, S-VAR-1)."""
    lay = layout(state.board)
    name = state.players[state.turn].name
    if state.turn not in state.tokens[space]:
        # Translators: the space is named by its guild's letter and its hexagon's place: "B at [1, 0]".
        return tr("{player} has no token on {guild_letter} at {place}: a tower goes on a space of a group holding "
                  "their tokens.", player=name, **where(lay, space))
    group = next(g for g in components(lay, own_spaces(state, state.turn)) if space in g)
    shown = sorted({lay.guild[s] for s in group})
    missing = [g for g in GUILDS if g not in shown]
    if missing:
        # Translators: {shown} lists guilds' letters (A, B, C); {missing}, the others as alternatives (D, or C or D).
        return tr("The connected group of {player}'s tokens through {guild_letter} at {place} reaches {shown} but has "
                  "none of their tokens on {missing}: a tower needs all four guilds.", player=name,
                  **where(lay, space), shown=", ".join(shown), missing=either(missing))
    return tr("{player}'s tokens through {guild_letter} at {place} touch all four guilds, but no four connected spaces "
              "of four different guilds among them include this space (S-VAR-1's larger groups are not in play).",
              player=name, **where(lay, space))


def _do_build(s: State, step: Step, events: Events) -> State:
    assert step.at is not None and step.guild is not None
    lay, space = _space(s, step.at, step.guild)
    if s.towers[space] is not None:
        raise illegal("S-BUILD-3", "/at", tr("A tower already stands on {guild_letter} at {place}.",
                                             **where(lay, space)))
    if space not in buildable(s, s.turn):
        raise illegal("S-VAR-1" if s.large_groups else "S-BUILD-1", "/at", explain_no_build(s, space))
    returned = s.tokens[space]  # S-BUILD-2: the tokens on the tower's space go back to their owners
    players = list(s.players)
    for owner in returned:
        players[owner] = evolve(players[owner], tokens=players[owner].tokens + 1)
    players[s.turn] = evolve(players[s.turn], towers=players[s.turn].towers - 1)
    s = evolve(s, players=tuple(players), tokens=_replace_at(s.tokens, space, ()),
                towers=_replace_at(s.towers, space, s.turn))
    events.append(Event({"type": "built", "player": s.turn, "at": list(step.at), "guild": step.guild,
                         "returned": list(returned), "towers_left": players[s.turn].towers}))
    if players[s.turn].towers == 0:  # S-END-1: the tenth tower ends the game at once
        return game_over(s, "tenth_tower", events)
    s = end_turn(s, events)  # S-BUILD-4: one tower per turn
    return s if s.over else settle(s, TOKEN, events)


HEX_UNKNOWN = "hex, the hexagons unknown"  # the hexagon phase of a player whose hexagons the caller does not know


TENTH_TOWER, STUCK = "over: a tenth tower", "over: no one can build"  # S-END-1, S-END-2


def _stage_of(state: State) -> str:
    if state.over:
        return TENTH_TOWER if any(p.towers == 0 for p in state.players) else STUCK
    return HEX_UNKNOWN if state.step == HEX and state.players[state.turn].hidden else state.step


# The refusals of a step of another phase: "token", "hex", "build" and "end" are the types of steps, as the requests
# write them.
def _token_refusal(state: State, step: Step) -> str:
    # Translators: "token" is the type of step, as requests write it; {step}, the type of the step given.
    return tr("It is {player}'s token phase: expected a token step, not \"{step}\" (a turn is token, then hexagon, "
              "then tower).", player=state.players[state.turn].name, step=step.type)


def _hex_refusal(state: State, step: Step) -> str:
    # Translators: "hex" is the type of step, as requests write it; {step}, the type of the step given.
    return tr("It is {player}'s hex phase: expected a hex step, not \"{step}\" (a turn is token, then hexagon, then "
              "tower).", player=state.players[state.turn].name, step=step.type)


def _build_refusal(state: State, step: Step) -> str:
    # Translators: "build" and "end" are types of steps, as requests write them; {step}, the type of the step given.
    return tr("It is {player}'s build phase: expected a build or end step, not \"{step}\" (a turn is token, then "
              "hexagon, then tower).", player=state.players[state.turn].name, step=step.type)


OVER_REFUSAL = tr("The game is over: no move is possible.")

TURNS = Turns(stage_of=_stage_of, stages={  # S-TURN-1..3: token, then hexagon, then tower
    TOKEN: Stage({"token": _do_token}, "S-TURN-1", _token_refusal),
    HEX: Stage({"hex": _do_hex}, "S-TURN-2", _hex_refusal),
    HEX_UNKNOWN: Stage({"hex": _do_hex, "end": _do_no_fit}, "S-TURN-2", _hex_refusal),
    BUILD: Stage({"build": _do_build, "end": _do_decline}, "S-TURN-3", _build_refusal),
    TENTH_TOWER: finished("S-END-1", OVER_REFUSAL),
    STUCK: finished("S-END-2", OVER_REFUSAL),
})
apply_step = TURNS.apply_step  # the state after one step, and what happened; IllegalStepError naming the rule broken


# ---------------------------------------------------------------- legal steps

@memo(128)  # a board's 48 steps at most: about 8 kB a board
def token_steps(lay: Layout) -> tuple[Step, ...]:
    """Per space, the token step onto it: a board's are made once, not at every token phase."""
    return tuple(made_step(("token", at, guild, None, None)) for at, _, guilds in lay.board for guild in guilds)


def legal_steps(state: State) -> list[Step]:
    """Every step `apply_step` accepts in `state`, each once, in a stable order."""
    if state.over:
        return []
    lay = layout(state.board)
    if state.step == TOKEN:
        steps = token_steps(lay)
        return [steps[s] for s in token_spaces(state)]
    player = state.players[state.turn]
    if state.step == HEX:
        steps = placements(lay, hand_kinds(player))
        return steps + [END] if player.hidden else steps
    board, guild = lay.board, lay.guild
    return [made_step(("build", board[s // 3].at, guild[s], None, None)) for s in buildable(state, state.turn)] + [END]


__all__ = ["apply_step", "buildable", "legal_steps", "possible_group", "settle", "stuck"]
