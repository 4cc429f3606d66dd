"""A Carcassonne position from what its schema loaded (service/games/carcassonne/schemas.py), the rules a real
position obeys, and its JSON form.

`build_state` takes a state document whose shape the schema has checked and gives a `Reading`: the State and every
rule the position breaks (K-COMP, K-SETUP, K-PLACE, K-TILE-4, K-MEEPLE-1, K-SCORE-RETURN, K-SVC-STEP, K-END-1,
K-TOW-*), each with its rule id and a pointer from the state. `state_json` writes the canonical form: every field,
keys in a fixed order, feature names canonical (K-TILE-4), meeples, towers and prisoners sorted, so equal states
are equal bytes. The board keeps the order given (the order the tiles were placed in).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import chain, repeat
from operator import attrgetter, itemgetter, le
from typing import Any

from ..core.errors import Problem
from ..core.records import from_fields
from ..core.reading import Reading
from .board import BoardIndex
from .messages import tr, tr_n, tr_p
from .model import (
    FLOORS,
    MAX_PLAYERS,
    MEEPLES,
    MIN_PLAYERS,
    Bag,
    Meeple,
    Phase,
    Placement,
    Player,
    Square,
    State,
    StepDue,
    Tower,
)
from .tiles import FACE_OF, START_TILE, Face, Kind, Segment, features_named, tile_counts

GAME_ID = "carcassonne"

Bad = Callable[[str, str, str], None]  # (rule, pointer, message): one problem of the position

# Placement from (tile, at, rotation) and Meeple from (at, feature, player): a read makes one a tile and one a meeple
_placement = from_fields(Placement)
_meeple = from_fields(Meeple)
_TILE = attrgetter("tile")
_TILE_ID, _AT_LISTED = itemgetter("tile"), itemgetter("at")  # of a placement as loaded
# The kinds as module globals: `Kind.FIELD` goes through the enum class at each use (several times a global's cost),
# and a read asks it for every meeple.
_FIELD, _TOWER = Kind.FIELD, Kind.TOWER
# by value, as Phase(value) and StepDue(value) find them, at a tenth of the cost of the enum's call
_PHASES, _STEPS_DUE = {p.value: p for p in Phase}, {s.value: s for s in StepDue}


def _xy(square: Square | None) -> list[int] | None:
    return None if square is None else [square[0], square[1]]


def _square(loaded: list[int] | None) -> Square | None:
    return None if loaded is None else (loaded[0], loaded[1])


def _said(square: Square) -> str:
    """A square as the messages say it, as the wire writes it: `[x, y]`."""
    return f"[{square[0]}, {square[1]}]"


def _no_player(number: Any) -> str:
    # Translators: {number} is a player's number (0 for the first player).
    return tr("There is no player {number}.", number=number)


# the kind of each side of an edge that does not match (K-PLACE-2)
_EDGE_KINDS = {
    # Translators: the kind of an edge, in "(city to road)": an edge that does not match its neighbour's.
    Kind.CITY: tr_p("edge", "city"),
    Kind.ROAD: tr_p("edge", "road"),
    Kind.FIELD: tr_p("edge", "field"),
}
# K-SCORE-RETURN: a complete road, city or cloister that still holds a meeple, by its kind
_COMPLETE = {
    Kind.ROAD: lambda **said: tr("The road at {square} is complete: it was scored and its meeples went home.",
                                 **said),
    Kind.CITY: lambda **said: tr("The city at {square} is complete: it was scored and its meeples went home.",
                                 **said),
    Kind.CLOISTER: lambda **said: tr("The cloister at {square} is complete: it was scored and its meeples went "
                                     "home.", **said),
}


# ---------------------------------------------------------------- building, and the rules a position obeys

def build_state(loaded: dict) -> Reading[State]:
    """The State a loaded state document describes, with every rule it breaks (K-COMP, K-SETUP, K-PLACE, K-TILE-4,
    K-TOW-*); a Carcassonne state has no warnings."""
    problems: list[Problem] = []

    def bad(rule: str, pointer: str, message: str) -> None:
        problems.append(Problem(rule, pointer, message))

    tower = loaded.get("variant", {}).get("tower", False)
    counts = tile_counts(tower)
    listed_players = loaded["players"]
    n = len(listed_players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        bad("K-SETUP-2", "/players", tr_n("Carcassonne is for 2 to 5 players; {count} given.",
                                          "Carcassonne is for 2 to 5 players; {count} given.", n))
    board, listed, faces, squares = _board(loaded["board"], counts, bad)
    shared: list[tuple[int, int, int]] = []
    # the grid (square -> placement number) is `listed` itself when every tile listed was kept
    grid = listed if len(board) == len(loaded["board"]) else dict(zip(squares, range(len(squares))))
    index = BoardIndex.of_parts(faces, squares, grid, shared)
    _joined(index, board, listed, shared, bad)
    bag_loaded = loaded["bag"]
    bag = Bag(None, bag_loaded["count"]) if isinstance(bag_loaded, dict) else Bag.known(tuple(bag_loaded))
    discarded = tuple(loaded.get("discarded", ()))
    _tiles(board, discarded, bag, counts, bad)
    meeples, pointers, scored = _meeples(loaded.get("meeples", ()), n, index, board, bad)
    # every tower listed, each with its index (a variant without towers lists none that count)
    listed_towers = [(i, Tower(_square(item["at"]), item["height"], item.get("top")))
                     for i, item in enumerate(loaded.get("towers", ()))] if tower else []
    if loaded.get("towers") and not tower:
        bad("K-TOW-TILE-1", "/towers", tr("Towers are played only with The Tower (variant tower)."))
    towers = _towers(listed_towers, n, index, bad)
    players = _players(listed_players, tower, sum(t.height for _, t in listed_towers), meeples, towers, bad)
    # where the turn stands (K-SVC-STEP, K-END-1)
    phase, step = _PHASES[loaded.get("phase", "play")], _STEPS_DUE[loaded.get("step", "place")]
    turn, ransomed = loaded.get("turn", 0), loaded.get("ransomed", False)
    last, raised = _square(loaded.get("last")), _square(loaded.get("raised"))
    _turn(n, turn, phase, step, bag, last, raised, index.grid, meeples, pointers, listed_towers, towers, bad)
    if ransomed and (not tower or phase is Phase.OVER):
        bad("K-TOW-RANSOM", "/ransomed", tr("Only a turn of The Tower can have a ransom paid."))
    _finished_features_hold_no_meeple(index, scored, last if step is not StepDue.PLACE else None, bad)
    state = State(tower, phase, turn, step, bag, discarded, board, last, raised, tuple(sorted(meeples)),
                  tuple(sorted(towers)), tuple(players), ransomed)
    return Reading(state.with_index(index), tuple(problems))


def _board(loaded: list[dict], counts: dict[str, int],
           bad: Bad) -> tuple[tuple[Placement, ...], dict[Square, int], list[Face], list[Square]]:
    """The placements kept, in the board's order, where each is in the board listed (square -> index), and the
    face and square of each placement kept (for its BoardIndex): tiles of the game (K-TOW-TILE-1), each square
    once (K-PLACE-1)."""
    tiles = list(map(_TILE_ID, loaded))
    squares = list(map(tuple, map(_AT_LISTED, loaded)))  # the schema checked that each is two numbers
    listed = dict(zip(squares, range(len(squares))))
    if len(listed) == len(squares) and counts.keys() >= set(tiles):  # the usual board: every tile kept
        rotations = [item.get("rotation", 0) for item in loaded]
        faces = [FACE_OF[tile][rotation] for tile, rotation in zip(tiles, rotations)]
        placements = tuple(map(tuple.__new__, repeat(Placement), zip(tiles, squares, rotations)))  # as _placement
        return placements, listed, faces, squares
    return _board_kept(loaded, counts, bad)


def _board_kept(loaded: list[dict], counts: dict[str, int],
                bad: Bad) -> tuple[tuple[Placement, ...], dict[Square, int], list[Face], list[Square]]:
    """As `_board`, tile by tile, for a board with a tile to leave out."""
    placements: list[Placement] = []
    faces: list[Face] = []
    squares: list[Square] = []
    listed: dict[Square, int] = {}
    for i, item in enumerate(loaded):
        tile, at = item["tile"], item["at"]
        square = (at[0], at[1])
        if tile not in counts:
            bad("K-TOW-TILE-1", f"/board/{i}/tile", tr("{tile_id} is a tile of The Tower: variant tower only.",
                                                       tile_id=tile))
            continue
        if square in listed:
            # Translators: {index} is the place in the state's board list (/board/{index}) of the tile already there.
            bad("K-PLACE-1", f"/board/{i}/at", tr("{square} already holds a tile (board {index}).",
                                                  square=_said(square), index=listed[square]))
            continue
        listed[square] = i
        rotation = item.get("rotation", 0)
        placements.append(_placement((tile, square, rotation)))
        faces.append(FACE_OF[tile][rotation])
        squares.append(square)
    return tuple(placements), listed, faces, squares


def _joined(index: BoardIndex, board: tuple[Placement, ...], listed: dict[Square, int],
            shared: list[tuple[int, int, int]], bad: Bad) -> None:
    """The start tile, every tile joined to it by edges, every `shared` edge matching (K-SETUP-1, K-PLACE-1,
    K-PLACE-2)."""
    grid, faces = index.grid, index.faces
    start = grid.get((0, 0))
    if start is None or board[start].tile != START_TILE or board[start].rotation != 0:
        bad("K-SETUP-1", "/board", tr("The start tile, a {tile_id} at rotation 0, is at [0, 0].", tile_id=START_TILE))
    # A board listed from the start tile in the order its tiles were placed is joined if each tile touches one
    # listed before it (found edge by edge below); any other board is walked from the start tile.
    touches_earlier = [False] * len(board)
    mismatched: list[tuple[int, int, int]] = []  # (tile, neighbour, edge of the tile)
    for number, neighbour, d in shared:  # d ^ 2: the opposite edge
        touches_earlier[number if number > neighbour else neighbour] = True
        if faces[number].edges[d] is not faces[neighbour].edges[d ^ 2]:
            mismatched.append((number, neighbour, d))
    unreached: set[Square] = set()
    if start is not None and not (start == 0 and all(touches_earlier[1:])):
        reached = {(0, 0)}
        todo = [(0, 0)]
        while todo:
            x, y = todo.pop()
            for nb in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if nb in grid and nb not in reached:
                    reached.add(nb)
                    todo.append(nb)
        unreached = grid.keys() - reached
    if not unreached and not mismatched:
        return
    for number, placement in enumerate(board):  # the problems in the board's order, a tile's own first
        square = placement.at
        if square in unreached:
            bad("K-PLACE-1", f"/board/{listed[square]}/at", tr("{square} is not joined to the start tile by edges.",
                                                               square=_said(square)))
        for tile, nb, d in mismatched:
            if tile == number:
                here, there, neighbour = faces[tile].edges[d], faces[nb].edges[d ^ 2], board[nb]  # d ^ 2: opposite
                # Translators: {here} and {there} are the kinds of the two sides of the edge (city, road, field).
                bad("K-PLACE-2", f"/board/{listed[neighbour.at]}", tr(
                    "{tile_id} at {square} and {other_id} at {other_square} share an edge that does not match ({here} "
                    "to {there}).", tile_id=placement.tile, square=_said(square), other_id=neighbour.tile,
                    other_square=_said(neighbour.at), here=_EDGE_KINDS[here], there=_EDGE_KINDS[there]))


def _tiles(board: tuple[Placement, ...], discarded: tuple[str, ...], bag: Bag, counts: dict[str, int],
           bad: Bad) -> None:
    """K-COMP-3: every tile in the bag, on the board or discarded, never more than the set has."""
    used = Counter(chain(map(_TILE, board), discarded, bag.tiles or ()))
    if bag.tiles is not None and used == counts:
        return  # the usual listed bag: every tile of the set, as often as the set has it (the total too, then)
    # each count within the set's (compared in one pass at C speed), else the tiles over it
    within = all(map(le, used.values(), map(counts.get, used, repeat(0))))
    too_many = [] if within else [(tile, k) for tile, k in used.items() if k > counts.get(tile, 0)]
    if too_many:
        on_board, thrown = Counter(p.tile for p in board), Counter(discarded)
    for tile, k in too_many:
        if tile not in counts:
            where = "/board" if on_board[tile] else "/discarded" if thrown[tile] else "/bag"
            bad("K-TOW-TILE-1", where, tr("{tile_id} is a tile of The Tower: variant tower only.", tile_id=tile))
        elif k > counts[tile]:
            # point where the copy too many is: the board first, then the discards, then the bag
            where = "/board" if on_board[tile] > counts[tile] else \
                "/discarded" if on_board[tile] + thrown[tile] > counts[tile] else "/bag"
            bad("K-COMP-3", where, tr_n("{count} tile {tile_id} is in the state; the game has {most}.",
                                        "{count} tiles {tile_id} are in the state; the game has {most}.", k,
                                        tile_id=tile, most=counts[tile]))
    total = sum(counts.values())
    if len(board) + len(discarded) + bag.count != total:
        # Translators: the tiles of the state: {count} on the board, {discarded} discarded and {in_bag} in the
        # bag, {used} in all; the game has {total}.
        bad("K-COMP-3", "/bag", tr_n("{count} tile on the board, {discarded} discarded and {in_bag} in the bag make "
                                     "{used}; the game has {total}.",
                                     "{count} tiles on the board, {discarded} discarded and {in_bag} in the bag make "
                                     "{used}; the game has {total}.", len(board), discarded=len(discarded),
                                     in_bag=bag.count, used=len(board) + len(discarded) + bag.count, total=total))


def _meeples(loaded: Any, n: int, index: BoardIndex, board: tuple[Placement, ...],
             bad: Bad) -> tuple[list[Meeple], list[int], list[tuple[Meeple, Segment, int]]]:
    """The meeples kept, by their canonical feature names; where each is in the list given, in the same order (its
    pointer is /meeples/<that>, written only for a problem); and those on a road, city or cloister with their
    segment and that place (what K-SCORE-RETURN looks at): on features that exist, one per segment (K-TILE-4,
    K-MEEPLE-1)."""
    meeples: list[Meeple] = []
    pointers: list[int] = []
    scored: list[tuple[Meeple, Segment, int]] = []
    seen: set[tuple[Square, str]] = set()
    grid, faces = index.grid, index.faces
    for i, item in enumerate(loaded):
        player, at, feature = item["player"], item["at"], item["feature"]
        square = (at[0], at[1])
        if player >= n:
            bad("K-SETUP-2", f"/meeples/{i}/player", _no_player(player))
            continue
        number = grid.get(square)
        if number is None:
            bad("K-TILE-4", f"/meeples/{i}/at", tr("{square} holds no tile.", square=_said(square)))
            continue
        segment = faces[number].by_name.get(feature)
        kind = None if segment is None else segment.kind
        if kind is None or kind is _TOWER:
            placement = board[number]
            # Translators: {name} is the feature asked for; {features} lists the tile's features by their names.
            bad("K-TILE-4", f"/meeples/{i}/feature", tr("{tile_id} at {square}, rotation {rotation}, has no feature "
                                                        "\"{name}\" a meeple can stand on. {features}",
                                                        tile_id=placement.tile, square=_said(square),
                                                        rotation=placement.rotation, name=feature,
                                                        features=features_named(faces[number], feature)))
            continue
        on = (square, segment.name)
        if on in seen:
            bad("K-MEEPLE-1", f"/meeples/{i}", tr("Two meeples on \"{name}\" at {square}.", name=segment.name,
                                                  square=_said(square)))
            continue
        seen.add(on)
        meeple = _meeple((square, segment.name, player))
        meeples.append(meeple)
        pointers.append(i)
        if kind is not _FIELD:
            scored.append((meeple, segment, i))
    return meeples, pointers, scored


def _towers(listed: list[tuple[int, Tower]], n: int, index: BoardIndex, bad: Bad) -> list[Tower]:
    """The towers kept: on foundations, one a square (K-TOW-ACT-1), a top of a player of the game."""
    towers: list[Tower] = []
    kept: set[Square] = set()  # the squares of `towers`: a look-up a tower, not a pass over those kept
    grid, faces = index.grid, index.faces
    for i, item in listed:
        number = grid.get(item.at)
        if number is None or not faces[number].tower:
            bad("K-TOW-ACT-1", f"/towers/{i}/at", tr("{square} holds no tower foundation.", square=_said(item.at)))
            continue
        if item.at in kept:
            bad("K-TOW-ACT-1", f"/towers/{i}/at", tr("Two towers at {square}.", square=_said(item.at)))
            continue
        if item.top is not None and item.top >= n:
            bad("K-SETUP-2", f"/towers/{i}/top", _no_player(item.top))
            continue
        towers.append(item)
        kept.add(item.at)
    return towers


def _players(loaded: list[dict], tower: bool, tower_floors: int, meeples: list[Meeple], towers: list[Tower],
             bad: Bad) -> list[Player]:
    """The players: floors (K-TOW-TILE-1), prisoners (K-TOW-CAP-2, K-TOW-SWAP), meeples (K-COMP-2, K-COMP-3).
    `tower_floors` are the floors of every tower listed, even one refused: one wrong tower is one problem, not
    two."""
    n = len(loaded)
    prisoners = [tuple(sorted(item.get("prisoners", ()))) for item in loaded]
    floors_total = FLOORS.get(n, 0) * n if tower else 0
    floors_used = tower_floors + sum(item.get("floors", 0) for item in loaded)
    if n and floors_used != floors_total:
        bad("K-TOW-TILE-1", "/players", tr_n("Floors in supply and in towers make {used}; {count} player has "
                                             "{total}.",
                                             "Floors in supply and in towers make {used}; {count} players have "
                                             "{total}.", n, used=floors_used, total=floors_total))
    placed = [0] * n  # each player's meeples out of the supply: on the board, on a tower, held by another player
    for i, held in enumerate(prisoners):
        if held and not tower:
            bad("K-TOW-CAP-2", f"/players/{i}/prisoners", tr("Prisoners are taken only with The Tower (variant "
                                                             "tower)."))
        for owner in held:
            if owner >= n or owner == i:
                # Translators: {owner} is a player's number (0 for the first player).
                bad("K-TOW-CAP-2", f"/players/{i}/prisoners", tr("A player holds prisoners of the other players only "
                                                                 "(found {owner}).", owner=owner))
            else:
                placed[owner] += 1
        for j in range(i + 1, n):
            if j in held and i in prisoners[j]:
                # Translators: {one} and {other} are players' numbers (0 for the first player).
                bad("K-TOW-SWAP", f"/players/{i}/prisoners", tr("Players {one} and {other} each hold a prisoner of "
                                                                "the other: they are exchanged at once.", one=i,
                                                                other=j))
    for meeple in meeples:
        placed[meeple.player] += 1
    for built in towers:
        if built.top is not None:
            placed[built.top] += 1
    players = []
    for i, item in enumerate(loaded):
        supply = item.get("supply")
        if supply is None:
            supply = max(0, MEEPLES - placed[i])
        if supply + placed[i] != MEEPLES:
            # Translators: {number} is a player's number (0 for the first player).
            bad("K-COMP-3", f"/players/{i}", tr("Player {number}'s meeples: {supply} in supply, {placed} on the "
                                                "board, on towers or held; a player has {meeples}.", number=i,
                                                supply=supply, placed=placed[i], meeples=MEEPLES))
        players.append(Player(item.get("name", f"Player {i + 1}"), item.get("score", 0), supply,
                              item.get("floors", 0), prisoners[i]))
    return players


def _turn(n: int, turn: int, phase: Phase, step: StepDue, bag: Bag, last: Square | None, raised: Square | None,
          grid: dict[Square, int], meeples: list[Meeple], pointers: list[int],
          listed_towers: list[tuple[int, Tower]], towers: list[Tower], bad: Bad) -> None:
    """Where the turn stands: whose turn, the phase, the step due, the tile just placed and the tower just raised
    tell one story (K-SETUP-2, K-END-1, K-SVC-STEP, K-MEEPLE-1, K-TOW-ACT-1, K-TOW-ACT-2)."""
    if n and turn >= n:
        bad("K-SETUP-2", "/turn", _no_player(turn))
    if phase is Phase.OVER:
        if bag.count:
            bad("K-END-1", "/phase", tr("The game ends only once the bag is empty."))
        if step is not StepDue.PLACE or last is not None or raised is not None:
            # Translators: step, place, last, raised and null are the state's JSON words, said as they are.
            bad("K-SVC-STEP", "/step", tr("A game over has no step due: step place, last and raised null."))
        return
    if step is StepDue.PLACE:
        if bag.count == 0:
            bad("K-END-1", "/bag", tr("The bag is empty: the game is over."))
        if last is not None:
            bad("K-SVC-STEP", "/last", tr("\"last\" is the tile placed this turn: null before the place step."))
    elif last is None or last not in grid or last == (0, 0):
        # Translators: {step} is the step due by its JSON code (action or capture); "last" is the state's field.
        bad("K-SVC-STEP", "/last", tr("During the {step} step, \"last\" is the square of the tile just placed "
                                      "(never the start tile).", step=step.value))
    if step is StepDue.CAPTURE:
        if raised is None or not any(t.at == raised for t in towers):
            bad("K-SVC-STEP", "/raised", tr("During the capture step, \"raised\" is the tower a floor was just "
                                            "put on."))
        for i, item in listed_towers:
            if item.at == raised and item.top is not None:
                # a floor goes only on a tower with no meeple on top, so the tower just raised has none
                bad("K-TOW-ACT-2", f"/towers/{i}/top", tr("The tower at {square} has just been raised, so it has "
                                                          "no meeple on top: no floor goes on a tower with one.",
                                                          square=_said(raised)))
    elif raised is not None:
        bad("K-SVC-STEP", "/raised", tr("\"raised\" is set only during the capture step."))
    if step is not StepDue.PLACE and last is not None:
        # the action is what puts a meeple on the new tile and ends the action step; the capture step follows
        # a floor, which was the action
        for meeple, i in zip(meeples, pointers):
            if meeple.at == last:
                bad("K-MEEPLE-1", f"/meeples/{i}", tr("A meeple stands on the tile placed this turn at {square}, "
                                                      "but the turn's action is still to come.", square=_said(last)))
        if step is StepDue.ACTION:
            for i, item in listed_towers:
                if item.at == last:
                    bad("K-TOW-ACT-1", f"/towers/{i}", tr("A tower stands on the tile placed this turn at {square}, "
                                                          "but the turn's action is still to come.",
                                                          square=_said(last)))


def _finished_features_hold_no_meeple(index: BoardIndex, scored: list[tuple[Meeple, Segment, int]],
                                      last: Square | None, bad: Bad) -> None:
    """K-SCORE-RETURN: a road, city or cloister is scored at the end of the turn that completes it and its meeples
    go home, so only a feature the tile placed this turn (`last`, action and capture steps) completed may still
    hold one. `scored`: the meeples on roads, cities and cloisters, each with its segment and place in the list."""
    for meeple, segment, i in scored:
        covered = index.complete_squares(meeple.at, segment)
        if covered is not None and (last is None or last not in covered):
            bad("K-SCORE-RETURN", f"/meeples/{i}", _COMPLETE[segment.kind](square=_said(meeple.at)))


# ---------------------------------------------------------------- writing

def state_json(state: State) -> dict[str, Any]:
    bag: Any = list(state.bag.tiles) if state.bag.tiles is not None else {"count": state.bag.count}
    return {
        "game": GAME_ID,
        "variant": {"tower": state.tower},
        "phase": state.phase.value,
        "turn": state.turn,
        "step": state.step.value,
        "bag": bag,
        "discarded": list(state.discarded),
        "board": [{"tile": tile, "at": [x, y], "rotation": rotation} for tile, (x, y), rotation in state.board],
        "last": _xy(state.last),
        "raised": _xy(state.raised),
        "meeples": [{"player": player, "at": [x, y], "feature": feature}
                    for (x, y), feature, player in state.meeples],
        "towers": [{"at": [x, y], "height": height, "top": top} for (x, y), height, top in state.towers],
        "players": [{"name": p.name, "score": p.score, "supply": p.supply, "floors": p.floors,
                     "prisoners": list(p.prisoners)} for p in state.players],
        "ransomed": state.ransomed,
    }


__all__ = ["GAME_ID", "build_state", "state_json"]
