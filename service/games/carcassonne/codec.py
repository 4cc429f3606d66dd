"""States to and from JSON, with every problem reported at once.

`read_state` checks the shape (MalformedError, each problem with rule None) and then the rules a real position
obeys (InvalidStateError, each problem with its rule id). `state_json` writes the canonical form: every field,
keys in a fixed order, feature names canonical (K-TILE-4), meeples, towers and prisoners sorted, so equal states
are equal bytes. The board keeps the order given (the order the tiles were placed in).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.errors import InvalidStateError, MalformedError, Problem
from .board import BoardIndex
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
from .steps import SQUARE_MESSAGE, read_square
from .tiles import DIRECTIONS, ROTATIONS, START_TILE, TILES, TOWER, Face, Kind, face, tile_counts

GAME_ID = "carcassonne"
MAX_TILES = 128  # more than the game has (90 with The Tower); bounds the work a hostile document can cause
MAX_NAME = 100
MAX_SCORE = 10_000
MAX_HEIGHT = 64
PLACEMENT_FIELDS = {"tile", "at", "rotation"}
STATE_FIELDS = ("game", "variant", "phase", "turn", "step", "bag", "discarded", "board", "last", "raised",
                "meeples", "towers", "players", "ransomed")


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _xy(square: Square | None) -> list[int] | None:
    return None if square is None else [square[0], square[1]]


class _Reader:
    """Collects shape problems while reading a document."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, pointer: str, message: str) -> None:
        self.problems.append(Problem(None, pointer, message))

    def obj(self, value: Any, pointer: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict | None:
        if not isinstance(value, dict):
            self.bad(pointer, "Must be an object.")
            return None
        for key in value:
            if key not in allowed:
                self.bad(f"{pointer}/{_escape(key)}", f"Unknown field \"{str(key):.40}\".")
        for key in required:
            if key not in value:
                self.bad(f"{pointer}/{key}", f"\"{key}\" is required.")
        return value

    def lst(self, value: Any, pointer: str, longest: int = MAX_TILES) -> list:
        if not isinstance(value, list):
            self.bad(pointer, "Must be a list.")
            return []
        if len(value) > longest:
            self.bad(pointer, f"At most {longest} items.")
            return []
        return value

    def integer(self, value: Any, pointer: str, low: int, high: int) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        self.bad(pointer, f"Must be a whole number from {low} to {high}.")
        return None

    def boolean(self, value: Any, pointer: str) -> bool:
        if isinstance(value, bool):
            return value
        self.bad(pointer, "Must be true or false.")
        return False

    def tile(self, value: Any, pointer: str) -> str | None:
        if isinstance(value, str) and value in TILES:
            return value
        self.bad(pointer, f"{value!r:.40} is not a tile id of the game (K-COMP-1, K-TOW-TILE-1), e.g. \"BA/RFr\".")
        return None

    def square(self, value: Any, pointer: str) -> Square | None:
        square = read_square(value)
        if square is None:
            self.bad(pointer, SQUARE_MESSAGE)
        return square

    def choice(self, value: Any, pointer: str, choices: tuple[str, ...]) -> str | None:
        if isinstance(value, str) and value in choices:
            return value
        self.bad(pointer, f"Must be one of {', '.join(choices)}.")
        return None


def _shape(data: Any) -> tuple[dict, list[Problem]]:
    """The document read into plain Python values, and its shape problems (rule None)."""
    r = _Reader()
    doc = r.obj(data, "", STATE_FIELDS, ("board", "bag", "players"))
    if doc is None:
        return {}, r.problems
    out: dict[str, Any] = {}
    if "game" in doc and doc["game"] != GAME_ID:
        r.bad("/game", f"This is the {GAME_ID} referee: \"game\" is \"{GAME_ID}\" or left out.")
    tower = False
    if "variant" in doc:
        variant = r.obj(doc["variant"], "/variant", ("tower",))
        if variant is not None and "tower" in variant:
            tower = r.boolean(variant["tower"], "/variant/tower")
    out["tower"] = tower
    out["phase"] = r.choice(doc.get("phase", "play"), "/phase", ("play", "over")) or "play"
    out["turn"] = r.integer(doc.get("turn", 0), "/turn", 0, MAX_PLAYERS - 1) or 0
    out["step"] = r.choice(doc.get("step", "place"), "/step", ("place", "action", "capture")) or "place"
    out["ransomed"] = r.boolean(doc.get("ransomed", False), "/ransomed")
    bag = doc.get("bag")
    if isinstance(bag, dict):
        counted = r.obj(bag, "/bag", ("count",), ("count",))
        count = r.integer(counted.get("count"), "/bag/count", 0, MAX_TILES) if counted and "count" in counted else 0
        out["bag"] = Bag(None, count or 0)
    elif isinstance(bag, list):
        tiles = [r.tile(t, f"/bag/{i}") for i, t in enumerate(r.lst(bag, "/bag"))]
        out["bag"] = Bag.known(tuple(t for t in tiles if t))
    else:
        if "bag" in doc:
            r.bad("/bag", "The bag is a list of tile ids (next first) or {\"count\": n}.")
        out["bag"] = Bag(None, 0)
    out["discarded"] = tuple(t for t in (r.tile(t, f"/discarded/{i}")
                                         for i, t in enumerate(r.lst(doc.get("discarded", []), "/discarded"))) if t)
    board = []
    for i, item in enumerate(r.lst(doc.get("board", []), "/board")):
        if type(item) is dict and item.keys() <= PLACEMENT_FIELDS:  # the usual case, read without messages
            tile, at, rotation = item.get("tile"), read_square(item.get("at")), item.get("rotation", 0)
            if type(tile) is str and tile in TILES and at is not None and type(rotation) is int \
                    and rotation in ROTATIONS:
                board.append((i, Placement(tile, at, rotation)))
                continue
        entry = r.obj(item, f"/board/{i}", ("tile", "at", "rotation"), ("tile", "at"))
        if entry is None:
            continue
        tile = r.tile(entry.get("tile"), f"/board/{i}/tile") if "tile" in entry else None
        at = r.square(entry.get("at"), f"/board/{i}/at") if "at" in entry else None
        rotation = entry.get("rotation", 0)
        if rotation not in ROTATIONS or isinstance(rotation, bool):
            r.bad(f"/board/{i}/rotation", "\"rotation\" is 0, 90, 180 or 270 (K-TILE-1).")
            rotation = 0
        board.append((i, Placement(tile, at, rotation) if tile and at else None))
    out["board"] = board
    for key in ("last", "raised"):
        value = doc.get(key)
        out[key] = None if value is None else r.square(value, f"/{key}")
    meeples = []
    for i, item in enumerate(r.lst(doc.get("meeples", []), "/meeples")):
        entry = r.obj(item, f"/meeples/{i}", ("player", "at", "feature"), ("player", "at", "feature"))
        if entry is None or not {"player", "at", "feature"} <= set(entry):
            continue
        player = r.integer(entry["player"], f"/meeples/{i}/player", 0, MAX_PLAYERS - 1)
        at = r.square(entry["at"], f"/meeples/{i}/at")
        feature = entry["feature"]
        if not isinstance(feature, str) or not 0 < len(feature) <= 16:
            r.bad(f"/meeples/{i}/feature", "\"feature\" names a feature of the tile (K-TILE-4).")
            feature = None
        if player is not None and at is not None and feature is not None:
            meeples.append((i, Meeple(at, feature, player)))
    out["meeples"] = meeples
    towers = []
    for i, item in enumerate(r.lst(doc.get("towers", []), "/towers")):
        entry = r.obj(item, f"/towers/{i}", ("at", "height", "top"), ("at", "height"))
        if entry is None or not {"at", "height"} <= set(entry):
            continue
        at = r.square(entry["at"], f"/towers/{i}/at")
        height = r.integer(entry["height"], f"/towers/{i}/height", 1, MAX_HEIGHT)
        top = entry.get("top")
        if top is not None:
            top = r.integer(top, f"/towers/{i}/top", 0, MAX_PLAYERS - 1)
        if at is not None and height is not None:
            towers.append((i, Tower(at, height, top)))
    out["towers"] = towers
    players = []
    for i, item in enumerate(r.lst(doc.get("players", []), "/players", longest=MAX_PLAYERS + 3)):
        entry = r.obj(item, f"/players/{i}", ("name", "score", "supply", "floors", "prisoners"))
        if entry is None:
            continue
        name = entry.get("name", f"Player {i + 1}")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            r.bad(f"/players/{i}/name", f"A name is a text of 1 to {MAX_NAME} characters.")
            name = f"Player {i + 1}"
        score = r.integer(entry.get("score", 0), f"/players/{i}/score", 0, MAX_SCORE) or 0
        supply = r.integer(entry["supply"], f"/players/{i}/supply", 0, MEEPLES) if "supply" in entry else None
        floors = r.integer(entry.get("floors", 0), f"/players/{i}/floors", 0, 10) or 0
        held = [r.integer(p, f"/players/{i}/prisoners/{k}", 0, MAX_PLAYERS - 1)
                for k, p in enumerate(r.lst(entry.get("prisoners", []), f"/players/{i}/prisoners", 4 * MEEPLES))]
        players.append({"name": name, "score": score, "supply": supply, "floors": floors,
                        "prisoners": tuple(sorted(p for p in held if p is not None))})
    out["players"] = players
    return out, r.problems


def _check(doc: dict) -> tuple[State, list[Problem]]:
    """The rules a real position obeys (K-COMP, K-SETUP, K-PLACE, K-TILE-4, K-TOW-*), every problem at once."""
    problems: list[Problem] = []

    def bad(rule: str, pointer: str, message: str) -> None:
        problems.append(Problem(rule, pointer, message))

    tower = doc["tower"]
    counts = tile_counts(tower)
    n = len(doc["players"])
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        bad("K-SETUP-2", "/players", f"Carcassonne is for 2 to 5 players; {n} given.")
    # the board: tiles of the game, each square once, the start tile, touching and matching (K-PLACE-1, K-PLACE-2)
    grid: dict[Square, tuple[int, Placement]] = {}
    faces: dict[Square, Face] = {}
    for i, placement in doc["board"]:
        if placement is None:
            continue
        if placement.tile not in counts:
            bad("K-TOW-TILE-1", f"/board/{i}/tile", f"{placement.tile} is a tile of The Tower: variant tower only.")
            continue
        if placement.at in grid:
            bad("K-PLACE-1", f"/board/{i}/at", f"{_xy(placement.at)} already holds a tile "
                                               f"(board {grid[placement.at][0]}).")
            continue
        grid[placement.at] = (i, placement)
        faces[placement.at] = face(placement.tile, placement.rotation)
    start = grid.get((0, 0))
    if start is None or start[1].tile != START_TILE or start[1].rotation != 0:
        bad("K-SETUP-1", "/board", f"The start tile, a {START_TILE} at rotation 0, is at [0, 0].")
    reached: set[Square] = set()
    if (0, 0) in grid:
        todo = [(0, 0)]
        reached.add((0, 0))
        while todo:
            x, y = todo.pop()
            for dx, dy in DIRECTIONS:
                nb = (x + dx, y + dy)
                if nb in grid and nb not in reached:
                    reached.add(nb)
                    todo.append(nb)
    for square, (i, placement) in grid.items():
        if square not in reached and (0, 0) in grid:
            bad("K-PLACE-1", f"/board/{i}/at", f"{_xy(square)} is not joined to the start tile by edges.")
        tile_face = faces[square]
        for d in (1, 2):  # each shared edge once: with the east and the south neighbour
            dx, dy = DIRECTIONS[d]
            nb = grid.get((square[0] + dx, square[1] + dy))
            if nb is None:
                continue
            other = faces[nb[1].at]
            if tile_face.edges[d] is not other.edges[(d + 2) % 4]:
                bad("K-PLACE-2", f"/board/{nb[0]}", f"{placement.tile} at {_xy(square)} and {nb[1].tile} at "
                                                    f"{_xy(nb[1].at)} share an edge that does not match "
                                                    f"({tile_face.edges[d].value} to "
                                                    f"{other.edges[(d + 2) % 4].value}).")
    board = tuple(p for _, p in sorted(grid.values(), key=lambda item: item[0]))
    # K-COMP-3: every tile in the bag, on the board or discarded, never more than the set has
    on_board, discarded = Counter(p.tile for p in board), Counter(doc["discarded"])
    used = on_board + discarded
    bag: Bag = doc["bag"]
    if bag.tiles is not None:
        used += Counter(bag.tiles)
    for tile, k in used.items():
        if tile not in counts:
            where = "/board" if on_board[tile] else "/discarded" if discarded[tile] else "/bag"
            bad("K-TOW-TILE-1", where, f"{tile} is a tile of The Tower: variant tower only.")
        elif k > counts[tile]:
            # point where the copy too many is: the board first, then the discards, then the bag
            where = "/board" if on_board[tile] > counts[tile] else \
                "/discarded" if on_board[tile] + discarded[tile] > counts[tile] else "/bag"
            bad("K-COMP-3", where, f"{k} tiles {tile} are in the state; the game has {counts[tile]}.")
    total = sum(counts.values())
    if len(board) + len(doc["discarded"]) + bag.count != total:
        bad("K-COMP-3", "/bag", f"{len(board)} tiles on the board, {len(doc['discarded'])} discarded and "
                                f"{bag.count} in the bag make {len(board) + len(doc['discarded']) + bag.count}; "
                                f"the game has {total}.")
    # meeples on features that exist, one per segment (K-TILE-4, K-MEEPLE-1)
    meeples: list[Meeple] = []
    pointers: dict[Meeple, str] = {}
    seen: set[tuple[Square, str]] = set()
    for i, meeple in doc["meeples"]:
        if meeple.player >= n:
            bad("K-SETUP-2", f"/meeples/{i}/player", f"There is no player {meeple.player}.")
            continue
        if meeple.at not in grid:
            bad("K-TILE-4", f"/meeples/{i}/at", f"{_xy(meeple.at)} holds no tile.")
            continue
        placement = grid[meeple.at][1]
        segment = faces[meeple.at].segment(meeple.feature)
        if segment is None or segment.kind is Kind.TOWER:
            bad("K-TILE-4", f"/meeples/{i}/feature", f"{placement.tile} at {_xy(meeple.at)}, rotation "
                                                     f"{placement.rotation}, has no feature \"{meeple.feature}\" a "
                                                     "meeple can stand on.")
            continue
        if (meeple.at, segment.name) in seen:
            bad("K-MEEPLE-1", f"/meeples/{i}", f"Two meeples on \"{segment.name}\" at {_xy(meeple.at)}.")
            continue
        seen.add((meeple.at, segment.name))
        meeples.append(Meeple(meeple.at, segment.name, meeple.player))
        pointers[meeples[-1]] = f"/meeples/{i}"
    # towers only on foundations (K-TOW-ACT-1), tops only with the variant
    towers: list[Tower] = []
    if doc["towers"] and not tower:
        bad("K-TOW-TILE-1", "/towers", "Towers are played only with The Tower (variant tower).")
    for i, item in doc["towers"] if tower else []:
        if item.at not in grid or not faces[item.at].tower:
            bad("K-TOW-ACT-1", f"/towers/{i}/at", f"{_xy(item.at)} holds no tower foundation.")
            continue
        if any(t.at == item.at for t in towers):
            bad("K-TOW-ACT-1", f"/towers/{i}/at", f"Two towers at {_xy(item.at)}.")
            continue
        if item.top is not None and item.top >= n:
            bad("K-SETUP-2", f"/towers/{i}/top", f"There is no player {item.top}.")
            continue
        towers.append(item)
    # players: floors (K-TOW-TILE-1), prisoners (K-TOW-CAP-2, K-TOW-SWAP), meeples (K-COMP-2, K-COMP-3)
    floors_total = FLOORS.get(n, 0) * n if tower else 0
    # every tower listed counts, even one refused above: one wrong tower is one problem, not two
    floors_used = sum(t.height for _, t in doc["towers"]) * tower + sum(p["floors"] for p in doc["players"])
    if n and floors_used != floors_total:
        bad("K-TOW-TILE-1", "/players", f"Floors in supply and in towers make {floors_used}; {n} players have "
                                        f"{floors_total}.")
    held_by_others = Counter()
    for i, player in enumerate(doc["players"]):
        if player["prisoners"] and not tower:
            bad("K-TOW-CAP-2", f"/players/{i}/prisoners", "Prisoners are taken only with The Tower (variant tower).")
        for owner in player["prisoners"]:
            if owner >= n or owner == i:
                bad("K-TOW-CAP-2", f"/players/{i}/prisoners", f"A player holds prisoners of the other players only "
                                                              f"(found {owner}).")
            else:
                held_by_others[owner] += 1
        for j in range(i + 1, n):
            if j in player["prisoners"] and i in doc["players"][j]["prisoners"]:
                bad("K-TOW-SWAP", f"/players/{i}/prisoners", f"Players {i} and {j} each hold a prisoner of the "
                                                             "other: they are exchanged at once.")
    players = []
    on_board = Counter(m.player for m in meeples) + Counter(t.top for t in towers if t.top is not None)
    for i, player in enumerate(doc["players"]):
        placed = on_board[i] + held_by_others[i]
        supply = player["supply"] if player["supply"] is not None else max(0, MEEPLES - placed)
        if supply + placed != MEEPLES:
            bad("K-COMP-3", f"/players/{i}", f"Player {i}'s meeples: {supply} in supply, {placed} on the board, on "
                                             f"towers or held; a player has {MEEPLES}.")
        players.append(Player(player["name"], player["score"], supply, player["floors"], player["prisoners"]))
    # where the turn stands (K-SVC-STEP, K-END-1)
    phase, step = Phase(doc["phase"]), StepDue(doc["step"])
    last, raised = doc["last"], doc["raised"]
    if n and doc["turn"] >= n:
        bad("K-SETUP-2", "/turn", f"There is no player {doc['turn']}.")
    if phase is Phase.OVER:
        if bag.count:
            bad("K-END-1", "/phase", "The game ends only once the bag is empty.")
        if step is not StepDue.PLACE or last is not None or raised is not None:
            bad("K-SVC-STEP", "/step", "A game over has no step due: step place, last and raised null.")
    else:
        if step is StepDue.PLACE:
            if bag.count == 0:
                bad("K-END-1", "/bag", "The bag is empty: the game is over.")
            if last is not None:
                bad("K-SVC-STEP", "/last", "\"last\" is the tile placed this turn: null before the place step.")
        elif last is None or last not in grid or last == (0, 0):
            bad("K-SVC-STEP", "/last", f"During the {step.value} step, \"last\" is the square of the tile just "
                                       "placed (never the start tile).")
        if step is StepDue.CAPTURE:
            if raised is None or not any(t.at == raised for t in towers):
                bad("K-SVC-STEP", "/raised", "During the capture step, \"raised\" is the tower a floor was just put "
                                             "on.")
            for i, item in doc["towers"] if tower else []:
                if item.at == raised and item.top is not None:
                    # a floor goes only on a tower with no meeple on top, so the tower just raised has none
                    bad("K-TOW-ACT-2", f"/towers/{i}/top", f"The tower at {_xy(raised)} has just been raised, so "
                                                           "it has no meeple on top: no floor goes on a tower "
                                                           "with one.")
        elif raised is not None:
            bad("K-SVC-STEP", "/raised", "\"raised\" is set only during the capture step.")
        if step is not StepDue.PLACE and last is not None:
            # the action is what puts a meeple on the new tile and ends the action step; the capture step follows
            # a floor, which was the action
            for meeple in meeples:
                if meeple.at == last:
                    bad("K-MEEPLE-1", pointers[meeple], f"A meeple stands on the tile placed this turn at "
                                                        f"{_xy(last)}, but the turn's action is still to come.")
            if step is StepDue.ACTION:
                for i, item in doc["towers"] if tower else []:
                    if item.at == last:
                        bad("K-TOW-ACT-1", f"/towers/{i}", f"A tower stands on the tile placed this turn at "
                                                           f"{_xy(last)}, but the turn's action is still to come.")
    if doc["ransomed"] and (not tower or phase is Phase.OVER):
        bad("K-TOW-RANSOM", "/ransomed", "Only a turn of The Tower can have a ransom paid.")
    index = BoardIndex.of(board)
    _finished_features_hold_no_meeple(index, meeples, pointers, last if step is not StepDue.PLACE else None, bad)
    state = State(tower, phase, doc["turn"], step, bag, doc["discarded"], board, last, raised,
                  tuple(sorted(meeples)), tuple(sorted(towers)), tuple(players), doc["ransomed"])
    return state.with_index(index), problems


def _finished_features_hold_no_meeple(index: BoardIndex, meeples: list[Meeple], pointers: dict[Meeple, str],
                                      last: Square | None, bad: Any) -> None:
    """K-SCORE-RETURN: a road, city or cloister is scored at the end of the turn that completes it and its meeples
    go home, so only a feature the tile placed this turn (`last`, action and capture steps) completed may still
    hold one."""
    for meeple in meeples:
        tile_face = index.faces[index.grid[meeple.at]]
        segment = tile_face.by_name[meeple.feature]
        if segment.kind not in (Kind.ROAD, Kind.CITY, Kind.CLOISTER):
            continue
        root = index.find(index.node(meeple.at, segment.index))
        if index.complete(root) and (last is None or last not in index.tiles_of(root)):
            bad("K-SCORE-RETURN", pointers[meeple], f"The {segment.kind.value} at {_xy(meeple.at)} is complete: it "
                                                    "was scored and its meeples went home.")


def validate_state(data: Any) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) of a state document; MalformedError if its shape is wrong."""
    doc, shape = _shape(data)
    if shape:
        raise MalformedError(shape)
    _, problems = _check(doc)
    return problems, []


def read_state(data: Any) -> State:
    doc, shape = _shape(data)
    if shape:
        raise MalformedError(shape)
    state, problems = _check(doc)
    if problems:
        raise InvalidStateError(problems)
    return state


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
        "board": [{"tile": p.tile, "at": _xy(p.at), "rotation": p.rotation} for p in state.board],
        "last": _xy(state.last),
        "raised": _xy(state.raised),
        "meeples": [{"player": m.player, "at": _xy(m.at), "feature": m.feature} for m in state.meeples],
        "towers": [{"at": _xy(t.at), "height": t.height, "top": t.top} for t in state.towers],
        "players": [{"name": p.name, "score": p.score, "supply": p.supply, "floors": p.floors,
                     "prisoners": list(p.prisoners)} for p in state.players],
        "ransomed": state.ransomed,
    }


__all__ = ["GAME_ID", "TOWER", "read_state", "state_json", "validate_state"]
