"""A San Gimignano position from what its schema loaded (service/games/sangimignano/schemas.py), the rules a real
position obeys, and its JSON form.

`build_state` takes a state document whose shape the schema has checked and gives a `Reading`: the State, or None
when the position breaks a rule, with every rule it breaks (each with its rule id and a pointer). `state_json`
writes the canonical form (S-SVC-FORM): every field, keys in a fixed order, hexagons sorted by coordinates with
rotation 0 or 1, hands sorted, so equal states are equal bytes.
"""
from __future__ import annotations

from itertools import chain, permutations, product
from operator import itemgetter
from typing import Any

from ..core.errors import Problem
from ..core.records import from_fields
from ..core.reading import Reading
from .engine import Pieces, has_choice, know_pieces, stuck
from .geometry import (
    CANONICAL_SPACES,
    GUILDS,
    KIND_OF,
    Coord,
    Guilds,
    Placed,
    buildable_from_start,
    canonical_turn,
    layout,
    neighbour,
    opposite,
    place_key,
)
from .messages import tr, tr_n
from .model import (
    BUILD,
    HEX,
    HEXAGONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PLAY,
    SETUP,
    START,
    TOKEN,
    TOKENS,
    TOWERS,
    Player,
    State,
)
from .steps import distinct_guilds

GAME_ID = "sangimignano"

_placed = from_fields(Placed)  # from (at, rotation, guilds): a read makes one a hexagon

# A hexagon of the board as built: (its place as one number, `geometry.place_key`, by which the board
# is sorted; its index in the document, for pointers; the hexagon in canonical form; per canonical space, the
# players whose tokens lie there and whose tower stands there, as the document gives them)
Entry = tuple[int, int, Placed, tuple[list[int], ...], tuple[int | None, ...]]

# Per way to write a hexagon on the board (its rotation, its guilds as given): its canonical rotation and guilds, and
# what takes a hexagon's three given spaces in canonical order (S-GEO-2, `canonical_turn`); a hexagon repeating a
# guild (S-COMP-1) is not among them.
_CANONICAL_FORM = {(rotation, written): (*canonical_turn(rotation, written), itemgetter(*CANONICAL_SPACES[rotation]))
                   for rotation in range(6) for written in permutations(GUILDS, 3)}
_NO_TOKENS, _NO_TOWERS = ([], [], []), (None, None, None)


class _Sorted(dict):
    """The owners of a space's tokens as given, to the same sorted: the usual ones (two at most, S-TOKEN-1) looked
    up, cheaper than sorting each, any other sorted."""

    def __missing__(self, given: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(given))


_SORTED = _Sorted({given: tuple(sorted(given))
                   for count in range(3) for given in product(range(MAX_PLAYERS), repeat=count)})
START_CELLS = {n: frozenset(cells) for n, cells in START.items()}  # S-SVC-START, as `buildable_from_start` takes it


# ---------------------------------------------------------------- building

def place(at: tuple[int, int]) -> str:
    """A place as the messages write it: [q, r]."""
    return f"[{at[0]}, {at[1]}]"


def _hand(loaded: Any, player: int, rules: list[Problem]) -> tuple[tuple[Guilds, ...], int]:
    """A hand as loaded: a list of hexagons (each written as its kind, sorted; one that repeats a guild is
    S-COMP-1's and left out), or {"count": n} when they are unknown (S-SVC-UNKNOWN). Returns (known, hidden)."""
    if isinstance(loaded, list):
        kinds = []
        for i, guilds in enumerate(loaded):
            kind = KIND_OF.get(tuple(guilds))
            if kind is None:  # a guild repeats
                distinct_guilds(guilds, f"/players/{player}/hexes/{i}", rules)
            else:
                kinds.append(kind)
        return tuple(sorted(kinds)), 0
    return (), loaded["count"]


def _board(loaded: list, rules: list[Problem]) -> list[Entry]:
    """The board's hexagons in canonical form, sorted by place (entries at one place in the document's order): a
    hexagon that repeats a guild is S-COMP-1's (in `rules`) and left out."""
    board: list[Entry] = []
    for h, item in enumerate(loaded):
        guilds = item["guilds"]
        form = _CANONICAL_FORM.get((item.get("rotation", 0), tuple(guilds)))
        if form is None:
            distinct_guilds(guilds, f"/board/{h}/guilds", rules)  # S-COMP-1, and the hexagon left out
            continue
        turned, canonical, in_canonical_order = form
        at = tuple(item["at"])
        tokens, towers = item.get("tokens"), item.get("towers")
        board.append((place_key(at), h, _placed((at, turned, canonical)),
                      in_canonical_order(tokens) if tokens else _NO_TOKENS,
                      in_canonical_order(towers) if towers else _NO_TOWERS))
    board.sort()  # by place, then by index in the document: no two entries are equal
    return board


def _count_pieces(loaded: list, board: list[Entry], tokens: tuple[tuple[int, ...], ...],
                  towers: tuple[int | None, ...], n: int, pieces: list[Problem], placed_tokens: list[int],
                  built: list[int]) -> Pieces | None:
    """What lies on the spaces of the `board` read from `loaded` (`tokens` and `towers`, per space, in board
    order), checked against the `n` players (in `pieces`) and counted in `placed_tokens` and `built`, per player.
    The usual board is counted in one pass over the spaces: at most two tokens a space (S-TOKEN-1), none with a
    tower (S-BUILD-3), every piece a player's in the game (S-COMP-4); that pass also notes where the pieces lie as
    the engine sees them (`read_pieces`), returned. At the first space that is not usual the board is walked again
    hexagon by hexagon in the document's order, each problem where it lies, and None is returned."""
    own = [0] * MAX_PLAYERS
    room: list[int] = []
    room_set = 0
    for space, (on_space, tower) in enumerate(zip(tokens, towers)):
        if on_space:
            if tower is not None or len(on_space) > 2 or on_space[-1] >= n:  # owners sorted: the last is the highest
                break
            bit = 1 << space
            for owner in on_space:
                placed_tokens[owner] += 1
                own[owner] |= bit
            if len(on_space) < 2:
                room.append(space)
                room_set |= bit
        elif tower is not None:
            if tower >= n:
                break
            built[tower] += 1
        else:
            room.append(space)
            room_set |= 1 << space
    else:
        return Pieces(tuple(own), tuple(room), room_set)
    placed_tokens[:], built[:] = [0] * n, [0] * n
    for at in sorted(range(len(board)), key=lambda at: board[at][1]):  # board positions, in the document's order
        h, first = board[at][1], 3 * at
        given_spaces = CANONICAL_SPACES[loaded[h].get("rotation", 0)]
        for owners, tower, given in zip(tokens[first:first + 3], towers[first:first + 3], given_spaces):
            if tower is None and len(owners) <= 2 and (not owners or owners[-1] < n):
                for owner in owners:  # the usual space: no tower, at most two tokens of players in the game
                    placed_tokens[owner] += 1
            else:
                _check_space(h, given, owners, tower, n, pieces, placed_tokens, built)
    return None


def _check_space(h: int, given: int, owners: tuple[int, ...], tower: int | None, n: int, pieces: list[Problem],
                 placed_tokens: list[int], built: list[int]) -> None:
    """What lies on one space (given space `given` of board entry `h`), checked against the `n` players and counted
    in `placed_tokens` and `built`, per player."""
    for owner in owners:
        if owner < n:
            placed_tokens[owner] += 1
        else:
            pieces.append(Problem("S-COMP-4", f"/board/{h}/tokens/{given}",
                                  tr_n("A token of player {owner}, but the game has {count} player.",
                                       "A token of player {owner}, but the game has {count} players.", n,
                                       owner=owner)))
    if tower is not None:
        if tower < n:
            built[tower] += 1
        else:
            pieces.append(Problem("S-COMP-4", f"/board/{h}/towers/{given}",
                                  tr_n("A tower of player {owner}, but the game has {count} player.",
                                       "A tower of player {owner}, but the game has {count} players.", n,
                                       owner=tower)))
    if len(owners) > 2:
        pieces.append(Problem("S-TOKEN-1", f"/board/{h}/tokens/{given}",
                              tr_n("{count} token on one space; a space holds at most two.",
                                   "{count} tokens on one space; a space holds at most two.", len(owners))))
    if tower is not None and owners:
        pieces.append(Problem("S-BUILD-3", f"/board/{h}/tokens/{given}",
                              tr("A space with a tower holds no token: the tokens there went back when it was built "
                                 "(S-BUILD-2).")))


def build_state(loaded: dict) -> Reading[State]:
    """The State a loaded state document describes, or None with every rule it breaks."""
    rules: list[Problem] = []
    players = loaded["players"]
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        # Translators: {given} is the number of players the state lists.
        rules.append(Problem("S-SETUP-1", "/players", tr("San Gimignano is for 2 to 4 players; {given} given.",
                                                         given=n)))
    hands = [_hand(item["hexes"], i, rules) for i, item in enumerate(players)]
    board = _board(loaded["board"], rules)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return Reading(None, tuple(rules))  # no player count to check the rest against
    # per space, in board order: the owners of its tokens, sorted; whose tower stands there
    tokens = tuple(map(_SORTED.__getitem__, map(tuple, chain.from_iterable(map(itemgetter(3), board)))))
    towers = tuple(chain.from_iterable(map(itemgetter(4), board)))
    pieces: list[Problem] = []
    placed_tokens, built = [0] * n, [0] * n
    where = _count_pieces(loaded["board"], board, tokens, towers, n, pieces, placed_tokens, built)
    problems = rules + pieces
    starting, hand_size, boxed = SETUP[n]
    box = loaded.get("box", boxed)
    full: list[Player] = []
    for i, (item, (hexes, hidden)) in enumerate(zip(players, hands)):  # S-COMP-4: the supply is what is not placed
        player = Player(item["name"] if "name" in item else f"Player {i + 1}", hexes, hidden,
                        item["tokens"] if "tokens" in item else max(0, TOKENS - placed_tokens[i]),
                        item["towers"] if "towers" in item else max(0, TOWERS - built[i]))
        full.append(player)
        if player.tokens + placed_tokens[i] != TOKENS:
            # Translators: {in_supply} + {on_board} = {made}, which should be {tokens} (every token of the player).
            problems.append(Problem("S-COMP-4", f"/players/{i}/tokens",
                                    tr("{player} has {tokens} tokens: {in_supply} in supply and {on_board} on the "
                                       "board make {made}.", player=player.name, tokens=TOKENS,
                                       in_supply=player.tokens, on_board=placed_tokens[i],
                                       made=player.tokens + placed_tokens[i])))
        if player.towers + built[i] != TOWERS:
            # Translators: {in_supply} + {on_board} = {made}, which should be {towers} (every tower of the player).
            problems.append(Problem("S-COMP-4", f"/players/{i}/towers",
                                    tr("{player} has {towers} towers: {in_supply} in supply and {on_board} on the "
                                       "board make {made}.", player=player.name, towers=TOWERS,
                                       in_supply=player.towers, on_board=built[i], made=player.towers + built[i])))
        if player.hand_size > hand_size:
            problems.append(Problem("S-SETUP-1", f"/players/{i}/hexes",
                                    tr_n("{player} holds {count} hexagon; with {players} players each is dealt "
                                         "{dealt}.",
                                         "{player} holds {count} hexagons; with {players} players each is dealt "
                                         "{dealt}.", player.hand_size, player=player.name, players=n,
                                         dealt=hand_size)))
    in_hands = sum(p.hand_size for p in full)
    total = in_hands + len(board) + box
    if total != HEXAGONS:
        problems.append(Problem("S-COMP-4", "/board",
                                tr_n("The state holds {count} hexagon (hands {in_hands}, board {on_board}, box "
                                     "{in_box}); the game has {hexagons}.",
                                     "The state holds {count} hexagons (hands {in_hands}, board {on_board}, box "
                                     "{in_box}); the game has {hexagons}.", total, in_hands=in_hands,
                                     on_board=len(board), in_box=box, hexagons=HEXAGONS)))
    if box != boxed:
        # Translators: {given} is the number of hexagons in the box the state gives.
        problems.append(Problem("S-SETUP-1", "/box", tr_n("With {players} players {count} hexagon goes back to the "
                                                          "box; {given} given.",
                                                          "With {players} players {count} hexagons go back to the "
                                                          "box; {given} given.", boxed, players=n, given=box)))
    if len(board) < starting:
        problems.append(Problem("S-SETUP-1", "/board", tr_n("With {players} players {count} hexagon starts on the "
                                                            "table; the board shows {shown}.",
                                                            "With {players} players {count} hexagons start on the "
                                                            "table; the board shows {shown}.", starting, players=n,
                                                            shown=len(board))))
    turn = loaded.get("turn", 0)
    if turn >= n:
        problems.append(Problem("S-SETUP-3", "/turn", tr("\"turn\" names a player: 0 to {last}.", last=n - 1)))
    phase = loaded.get("phase", PLAY)
    step = loaded.get("step", TOKEN if phase == PLAY else None)
    if (phase == OVER) != (step is None):
        problems.append(Problem("S-SVC-STEP", "/step", tr("\"step\" is null exactly when the game is over.")))
    placed = tuple(map(itemgetter(2), board))
    _check_board(board, placed, starting, n, problems)
    if problems:
        return Reading(None, tuple(problems))
    state = State(loaded.get("variant", {}).get("large_groups", False), tuple(full), placed, tokens, towers, box,
                  turn, step, phase)
    if where is not None:
        know_pieces(state, where)  # the flow checks below and the steps after ask it: read once, above
    problems.extend(_check_flow(state))
    return Reading(None if problems else state, tuple(problems))


# ---------------------------------------------------------------- the rules a position obeys

def _check_board(board: list[Entry], placed: tuple[Placed, ...], starting: int, n: int,
                 problems: list[Problem]) -> None:
    """S-GEO-1 (one hexagon a place), S-HEX-3 (no guild meets itself), S-HEX-2 and S-SETUP-2 (a connected board
    that could have been laid by the rules from a starting layout, S-SVC-LAYOUT). `board` is sorted by place, and
    `placed` is its hexagons."""
    lay = layout(placed)  # a board asked about before keeps its Layout, and what was worked out from it
    if len(lay.index) != len(placed):  # the Layout's index holds each place once
        _two_on_a_place(board, problems)
        return
    if lay.guild_meets_itself:
        _clashes(board, starting, problems)
    if not board or len(board) > HEXAGONS:
        return  # too many hexagons is S-COMP-4's problem; searching their starts would only cost time
    if not buildable_from_start(lay, min(starting, len(board)), START_CELLS[n]):
        # Translators: {starting} is the number of hexagons the game starts with on the table.
        problems.append(Problem("S-HEX-2", "/board", tr("These hexagons cannot have been laid by the rules: from no "
                                                        "connected start of {starting} can each later hexagon touch "
                                                        "at least two already in play (S-SVC-LAYOUT).",
                                                        starting=starting)))


def _two_on_a_place(board: list[Entry], problems: list[Problem]) -> None:
    """S-GEO-1, for each hexagon at a place taken by an earlier one (in the document's order)."""
    at_index: dict[Coord, int] = {}
    for _, h, placed, _, _ in sorted(board, key=itemgetter(1)):
        if placed.at in at_index:
            # Translators: {place} is a place's coordinates, [q, r]; {first} and {second} count the document's
            # board entries from 0.
            problems.append(Problem("S-GEO-1", f"/board/{h}/at",
                                    tr("Two hexagons lie at {place} (board entries {first} and {second}).",
                                       place=place(placed.at), first=at_index[placed.at], second=h)))
        else:
            at_index[placed.at] = h


def _clashes(board: list[Entry], starting: int, problems: list[Problem]) -> None:
    """S-HEX-3 (S-SETUP-2 on a starting layout), for each side where two hexagons show the same guild: in the
    document's order, each shared side once."""
    by_at = {placed.at: (h, placed) for _, h, placed, _, _ in board}
    for _, h, placed, _, _ in sorted(board, key=itemgetter(1)):
        for side in range(3):  # each shared side once: the other three are seen from the other hexagon
            other = by_at.get(neighbour(placed.at, side))
            if other is None:
                continue
            mine, theirs = placed.guild_on_side(side), other[1].guild_on_side(opposite(side))
            if mine == theirs:
                rule = "S-HEX-3" if len(board) > starting else "S-SETUP-2"
                # Translators: {guild_letter} is a guild's letter (A to D); {place} and {other} are places, [q, r].
                problems.append(Problem(rule, f"/board/{h}",
                                        tr("The {guild_letter} spaces of the hexagons at {place} and {other} share "
                                           "a side.", guild_letter=mine, place=place(placed.at),
                                           other=place(other[1].at))))


def _check_flow(state: State) -> list[Problem]:
    """S-SVC-STEP, S-END-1, S-END-2: the phase due has a choice, and the game is over exactly when it should be."""
    problems: list[Problem] = []
    ended = [i for i, p in enumerate(state.players) if p.towers == 0]
    if state.over:
        if not ended and not stuck(state, unknown_fits=False):  # an unknown hand may hold none that fits
            problems.append(Problem("S-END-2", "/phase", tr("The game is not over: nobody has built ten towers "
                                                            "(S-END-1) and a player can still build (a hexagon fits "
                                                            "or a possible group remains, S-SVC-STUCK).")))
        return problems
    if ended:
        problems.append(Problem("S-END-1", f"/players/{ended[0]}/towers",
                                tr("{player} has built ten towers: the game is over.",
                                   player=state.players[ended[0]].name)))
        return problems
    if state.step == TOKEN and stuck(state):
        problems.append(Problem("S-END-2", "/phase", tr("No player holds a hexagon that fits and no player has a "
                                                        "possible group: the game is over (S-SVC-STUCK).")))
    elif not has_choice(state, state.step or TOKEN):
        name = state.players[state.turn].name
        if state.step == HEX:
            said = tr("{player} has no hexagon that fits (S-SVC-NOFIT): that phase passes by itself.", player=name)
        elif state.step == BUILD:
            said = tr("{player} has no tower to build: that phase passes by itself.", player=name)
        else:
            said = tr("{player} has no token to place or no space with room (S-SVC-SKIP): that phase passes by "
                      "itself.", player=name)
        problems.append(Problem("S-SVC-STEP", "/step", said))
    return problems


# ---------------------------------------------------------------- writing

def hand_json(player: Player) -> Any:
    if player.hidden:
        return {"count": player.hand_size}
    return [list(kind) for kind in player.hexes]


def player_json(player: Player) -> dict[str, Any]:
    return {"name": player.name, "hexes": hand_json(player), "tokens": player.tokens, "towers": player.towers}


def state_json(state: State) -> dict[str, Any]:
    tokens, towers = list(map(list, state.tokens)), list(state.towers)  # each space's once, sliced per hexagon
    board = [{"at": [*at], "rotation": rotation, "guilds": [*guilds], "tokens": tokens[first:first + 3],
              "towers": towers[first:first + 3]}
             for first, (at, rotation, guilds) in zip(range(0, len(tokens), 3), state.board)]  # spaces 3h to 3h + 2
    return {
        "game": GAME_ID,
        "variant": {"large_groups": state.large_groups},
        "phase": state.phase,
        "turn": state.turn,
        "step": state.step,
        "players": [player_json(p) for p in state.players],
        "board": board,
        "box": state.box,
    }


__all__ = ["build_state", "hand_json", "player_json", "state_json"]
