"""States to and from JSON, with every problem reported at once.

`read_state` checks the shape (MalformedError, each problem with rule None) and then the rules a real position
obeys (InvalidStateError, each problem with its rule id). `state_json` writes the canonical form (S-SVC-FORM): every
field, keys in a fixed order, hexagons sorted by coordinates with rotation 0 or 1, hands sorted, so equal states are
equal bytes.
"""
from __future__ import annotations

from typing import Any

from ..core.errors import InvalidStateError, MalformedError, Problem
from .geometry import (
    SIDES,
    Coord,
    Guilds,
    Placed,
    buildable_from_start,
    canonical_turn,
    hexagon_kind,
    layout,
    neighbour,
    opposite,
)
from .model import (
    BUILD,
    HEX,
    HEXAGONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PHASES,
    PLAY,
    SETUP,
    START,
    TOKEN,
    TOKENS,
    TOWERS,
    Player,
    State,
)
from .steps import read_coord, read_guilds

GAME_ID = "sangimignano"
MAX_NAME = 100
MAX_PLAYER_LIST = 8  # more than the game has; the count itself is a rule (S-SETUP-1)
MAX_BOARD = 64  # more than the 16 hexagons; the count itself is a rule (S-COMP-4)
STATE_FIELDS = ("game", "variant", "phase", "turn", "step", "players", "board", "box")
PLAYER_FIELDS = ("name", "hexes", "tokens", "towers")
HEX_FIELDS = ("at", "rotation", "guilds", "tokens", "towers")


class _Reader:
    """Collects shape problems (rule None) and rule problems while reading a document."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.rules: list[Problem] = []

    def bad(self, pointer: str, message: str) -> None:
        self.problems.append(Problem(None, pointer, message))

    def rule(self, rule: str, pointer: str, message: str) -> None:
        self.rules.append(Problem(rule, pointer, message))

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

    def name(self, value: Any, pointer: str) -> str:
        if isinstance(value, str) and 0 < len(value) <= MAX_NAME:
            return value
        self.bad(pointer, f"Must be a text of 1 to {MAX_NAME} characters.")
        return ""


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


# ---------------------------------------------------------------- reading

def read_variant(reader: _Reader, value: Any, pointer: str) -> bool:
    variant = reader.obj(value, pointer, ("large_groups",))
    if variant is None:
        return False
    return reader.boolean(variant.get("large_groups", False), f"{pointer}/large_groups")


def _hand(reader: _Reader, value: Any, pointer: str) -> tuple[tuple[Guilds, ...], int]:
    """A hand: a list of hexagons, or {"count": n} when they are unknown (S-SVC-UNKNOWN)."""
    if isinstance(value, list):
        if len(value) > HEXAGONS:
            reader.bad(pointer, f"Lists more than {HEXAGONS} hexagons.")
            return (), 0
        kinds = []
        for i, item in enumerate(value):
            guilds = read_guilds(item, f"{pointer}/{i}", reader.problems, reader.rules)
            if guilds is not None:
                kinds.append(hexagon_kind(guilds))
        return tuple(sorted(kinds)), 0
    data = reader.obj(value, pointer, ("count",), ("count",))
    if data is None or "count" not in data:
        return (), 0
    count = reader.integer(data["count"], f"{pointer}/count", 0, HEXAGONS)
    return (), count or 0


def _players(reader: _Reader, value: Any) -> list[tuple[Player, bool, bool]]:
    """The players, each with whether its tokens and towers in supply were given."""
    if not isinstance(value, list):
        reader.bad("/players", "Must be a list of the players, 2 to 4.")
        return []
    if len(value) > MAX_PLAYER_LIST:
        reader.bad("/players", f"Lists more than {MAX_PLAYER_LIST} players.")
        return []
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        reader.rule("S-SETUP-1", "/players", f"San Gimignano is for 2 to 4 players; {len(value)} given.")
    out = []
    for i, item in enumerate(value):
        pointer = f"/players/{i}"
        data = reader.obj(item, pointer, PLAYER_FIELDS, ("hexes",))
        if data is None:
            continue
        name = reader.name(data.get("name", f"Player {i + 1}"), f"{pointer}/name")
        hexes, hidden = _hand(reader, data.get("hexes", []), f"{pointer}/hexes")
        tokens = reader.integer(data["tokens"], f"{pointer}/tokens", 0, TOKENS) if "tokens" in data else None
        towers = reader.integer(data["towers"], f"{pointer}/towers", 0, TOWERS) if "towers" in data else None
        out.append((Player(name, hexes, hidden, tokens or 0, towers or 0), "tokens" in data, "towers" in data))
    return out


def _owner_list(reader: _Reader, value: Any, pointer: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > 8:
        reader.bad(pointer, "Must be the list of players whose tokens lie on the space (at most two, S-TOKEN-1).")
        return ()
    owners = [reader.integer(v, f"{pointer}/{i}", 0, MAX_PLAYERS - 1) for i, v in enumerate(value)]
    return tuple(sorted(o for o in owners if o is not None))


def _board(reader: _Reader, value: Any) -> list[tuple[int, Placed, list, list, list]]:
    """(index in the document, the hexagon in canonical form, tokens per space, towers per space, the document's
    index of each space, for pointers)."""
    if not isinstance(value, list):
        reader.bad("/board", "Must be a list of the hexagons on the table.")
        return []
    if len(value) > MAX_BOARD:
        reader.bad("/board", f"Lists more than {MAX_BOARD} hexagons.")
        return []
    out = []
    for h, item in enumerate(value):
        pointer = f"/board/{h}"
        data = reader.obj(item, pointer, HEX_FIELDS, ("at", "guilds"))
        if data is None or "at" not in data or "guilds" not in data:
            continue
        at = read_coord(data["at"], f"{pointer}/at", reader.problems)
        guilds = read_guilds(data["guilds"], f"{pointer}/guilds", reader.problems, reader.rules)
        rotation = reader.integer(data.get("rotation", 0), f"{pointer}/rotation", 0, SIDES - 1)
        tokens_data = data.get("tokens", [[], [], []])
        tokens: list[tuple[int, ...]] = [(), (), ()]
        if not isinstance(tokens_data, list) or len(tokens_data) != 3:
            reader.bad(f"{pointer}/tokens", "Must be three lists, the players with tokens on guild space 0, 1, 2.")
        else:
            tokens = [_owner_list(reader, v, f"{pointer}/tokens/{i}") for i, v in enumerate(tokens_data)]
        towers_data = data.get("towers", [None, None, None])
        towers: list[int | None] = [None, None, None]
        if not isinstance(towers_data, list) or len(towers_data) != 3:
            reader.bad(f"{pointer}/towers", "Must be three entries, whose tower stands on guild space 0, 1, 2 (or "
                                            "null).")
        else:
            towers = [None if v is None else reader.integer(v, f"{pointer}/towers/{i}", 0, MAX_PLAYERS - 1)
                      for i, v in enumerate(towers_data)]
        if at is None or guilds is None or rotation is None:
            continue
        turned, canonical = canonical_turn(rotation, guilds)
        shift = rotation // 2  # canonical space j is given space j - shift (S-GEO-2)
        given = [(j - shift) % 3 for j in range(3)]
        out.append((h, Placed(at, turned, canonical), [tokens[g] for g in given], [towers[g] for g in given], given))
    return out


def read_state(data: Any, *, check: bool = True) -> State:
    """A State from its JSON form. Raises MalformedError or, with `check`, InvalidStateError."""
    state, problems = _read_state(data)
    if state is None or (check and problems):
        raise InvalidStateError(problems)
    return state


def validate_state(data: Any) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) of a state document; raises MalformedError only for a wrong shape."""
    _, problems = _read_state(data)
    return problems, []


def _read_state(data: Any) -> tuple[State | None, list[Problem]]:
    reader = _Reader()
    doc = reader.obj(data, "", STATE_FIELDS, ("players", "board"))
    if doc is None:
        raise MalformedError(reader.problems)
    if "game" in doc and doc["game"] != GAME_ID:
        reader.bad("/game", "This is the San Gimignano referee: \"game\" must be \"sangimignano\".")
    large = read_variant(reader, doc.get("variant", {}), "/variant")
    players = _players(reader, doc.get("players"))
    n = len(players)
    board = _board(reader, doc.get("board"))
    box = reader.integer(doc["box"], "/box", 0, HEXAGONS) if "box" in doc else None
    turn = reader.integer(doc.get("turn", 0), "/turn", 0, MAX_PLAYERS - 1)
    phase = doc.get("phase", PLAY)
    if phase not in (PLAY, OVER):
        reader.bad("/phase", "Must be \"play\" or \"over\".")
    step = doc.get("step", TOKEN if phase == PLAY else None)
    if step is not None and step not in PHASES:
        reader.bad("/step", f"Must be one of {', '.join(PHASES)}, or null once the game is over.")
    if reader.problems:
        raise MalformedError(reader.problems)
    if any(p.rule == "S-SETUP-1" for p in reader.rules) or not players:
        return None, reader.rules  # no player count to check the rest against
    problems = reader.rules
    _check_pieces(players, board, problems)
    starting, hand_size, boxed = SETUP[n]
    if box is None:
        box = boxed
    placed_tokens = [0] * n
    built = [0] * n
    for _, _, tokens, towers, _ in board:
        for owners in tokens:
            for owner in owners:
                if owner < n:
                    placed_tokens[owner] += 1
        for owner in towers:
            if owner is not None and owner < n:
                built[owner] += 1
    full: list[Player] = []
    for i, (player, has_tokens, has_towers) in enumerate(players):
        full.append(Player(player.name, player.hexes, player.hidden,
                           player.tokens if has_tokens else max(0, TOKENS - placed_tokens[i]),
                           player.towers if has_towers else max(0, TOWERS - built[i])))
    for i, player in enumerate(full):  # S-COMP-4
        if player.tokens + placed_tokens[i] != TOKENS:
            problems.append(Problem("S-COMP-4", f"/players/{i}/tokens", f"{player.name} has {TOKENS} tokens: "
                                                                        f"{player.tokens} in supply and "
                                                                        f"{placed_tokens[i]} on the board make "
                                                                        f"{player.tokens + placed_tokens[i]}."))
        if player.towers + built[i] != TOWERS:
            problems.append(Problem("S-COMP-4", f"/players/{i}/towers", f"{player.name} has {TOWERS} towers: "
                                                                        f"{player.towers} in supply and {built[i]} "
                                                                        f"on the board make "
                                                                        f"{player.towers + built[i]}."))
        if player.hand_size > hand_size:
            problems.append(Problem("S-SETUP-1", f"/players/{i}/hexes", f"{player.name} holds {player.hand_size} "
                                                                        f"hexagons; with {n} players each is dealt "
                                                                        f"{hand_size}."))
    in_hands = sum(p.hand_size for p in full)
    total = in_hands + len(board) + box
    if total != HEXAGONS:
        problems.append(Problem("S-COMP-4", "/board", f"The state holds {total} hexagons (hands {in_hands}, board "
                                                      f"{len(board)}, box {box}); the game has {HEXAGONS}."))
    if box != boxed:
        problems.append(Problem("S-SETUP-1", "/box", f"With {n} players {boxed} hexagons go back to the box; "
                                                     f"{box} given."))
    if len(board) < starting:
        problems.append(Problem("S-SETUP-1", "/board", f"With {n} players {starting} hexagons start on the table; "
                                                       f"the board shows {len(board)}."))
    if turn is not None and turn >= n:
        problems.append(Problem("S-SETUP-3", "/turn", f"\"turn\" names a player: 0 to {n - 1}."))
    if (phase == OVER) != (step is None):
        problems.append(Problem("S-SVC-STEP", "/step", "\"step\" is null exactly when the game is over."))
    _check_board(board, starting, n, problems)
    if problems:
        return None, problems
    board.sort(key=lambda entry: entry[1].at)
    state = State(large, tuple(full), tuple(entry[1] for entry in board),
                  tuple(t for entry in board for t in entry[2]), tuple(t for entry in board for t in entry[3]),
                  box, turn or 0, step, phase)
    problems.extend(_check_flow(state))
    return (None if problems else state), problems


def _check_pieces(players: list, board: list, problems: list[Problem]) -> None:
    n = len(players)
    for h, _, tokens, towers, given in board:
        for i in range(3):
            space_tokens, space_tower = f"/board/{h}/tokens/{given[i]}", f"/board/{h}/towers/{given[i]}"
            for owner in tokens[i]:
                if owner >= n:
                    problems.append(Problem("S-COMP-4", space_tokens, f"A token of player {owner}, but the game has "
                                                                      f"{n} players."))
            if towers[i] is not None and towers[i] >= n:
                problems.append(Problem("S-COMP-4", space_tower, f"A tower of player {towers[i]}, but the game has "
                                                                 f"{n} players."))
            if len(tokens[i]) > 2:
                problems.append(Problem("S-TOKEN-1", space_tokens, f"{len(tokens[i])} tokens on one space; a space "
                                                                   "holds at most two."))
            if towers[i] is not None and tokens[i]:
                problems.append(Problem("S-BUILD-3", space_tokens, "A space with a tower holds no token: the tokens "
                                                                   "there went back when it was built (S-BUILD-2)."))


def _check_board(board: list, starting: int, n: int, problems: list[Problem]) -> None:
    """S-GEO-1 (one hexagon a place), S-HEX-3 (no guild meets itself), S-HEX-2 and S-SETUP-2 (a connected board
    that could have been laid by the rules from a starting layout, S-SVC-LAYOUT)."""
    at_index: dict[Coord, int] = {}
    for h, placed, _, _, _ in board:
        if placed.at in at_index:
            problems.append(Problem("S-GEO-1", f"/board/{h}/at", f"Two hexagons lie at [{placed.at[0]}, "
                                                                 f"{placed.at[1]}] (board entries "
                                                                 f"{at_index[placed.at]} and {h})."))
        else:
            at_index[placed.at] = h
    if len(at_index) != len(board):
        return
    by_at = {placed.at: (h, placed) for h, placed, _, _, _ in board}
    for h, placed, _, _, _ in board:
        for side in range(3):  # each shared side once: the other three are seen from the other hexagon
            other = by_at.get(neighbour(placed.at, side))
            if other is None:
                continue
            mine, theirs = placed.guild_on_side(side), other[1].guild_on_side(opposite(side))
            if mine == theirs:
                rule = "S-HEX-3" if len(board) > starting else "S-SETUP-2"
                problems.append(Problem(rule, f"/board/{h}", f"The {mine} spaces of the hexagons at "
                                                             f"[{placed.at[0]}, {placed.at[1]}] and [{other[1].at[0]}, "
                                                             f"{other[1].at[1]}] share a side."))
    if not board or len(board) > HEXAGONS:
        return  # too many hexagons is S-COMP-4's problem; searching their starts would only cost time
    cells = frozenset(at_index)
    if not buildable_from_start(cells, min(starting, len(cells)), frozenset(START[n])):
        problems.append(Problem("S-HEX-2", "/board", "These hexagons cannot have been laid by the rules: from no "
                                                     f"connected start of {starting} can each later hexagon touch at "
                                                     "least two already in play (S-SVC-LAYOUT)."))


def _check_flow(state: State) -> list[Problem]:
    """S-SVC-STEP, S-END-1, S-END-2: the phase due has a choice, and the game is over exactly when it should be."""
    from . import engine
    problems: list[Problem] = []
    ended = [i for i, p in enumerate(state.players) if p.towers == 0]
    if state.over:
        if not ended and not engine.stuck(state, unknown_fits=False):  # an unknown hand may hold none that fits
            problems.append(Problem("S-END-2", "/phase", "The game is not over: nobody has built ten towers "
                                                         "(S-END-1) and a player can still build (a hexagon fits or "
                                                         "a possible group remains, S-SVC-STUCK)."))
        return problems
    if ended:
        problems.append(Problem("S-END-1", f"/players/{ended[0]}/towers", f"{state.players[ended[0]].name} has "
                                                                          "built ten towers: the game is over."))
        return problems
    if state.step == TOKEN and engine.stuck(state):
        problems.append(Problem("S-END-2", "/phase", "No player holds a hexagon that fits and no player has a "
                                                     "possible group: the game is over (S-SVC-STUCK)."))
    elif not engine.has_choice(state, state.step or TOKEN):
        reasons = {TOKEN: "no token to place or no space with room (S-SVC-SKIP)",
                   HEX: "no hexagon that fits (S-SVC-NOFIT)", BUILD: "no tower to build"}
        problems.append(Problem("S-SVC-STEP", "/step", f"{state.players[state.turn].name} has "
                                                       f"{reasons[state.step or TOKEN]}: that phase passes by "
                                                       "itself."))
    return problems


# ---------------------------------------------------------------- writing

def hand_json(player: Player) -> Any:
    if player.hidden:
        return {"count": player.hand_size}
    return [list(kind) for kind in player.hexes]


def player_json(player: Player) -> dict[str, Any]:
    return {"name": player.name, "hexes": hand_json(player), "tokens": player.tokens, "towers": player.towers}


def state_json(state: State) -> dict[str, Any]:
    board = []
    for h, placed in enumerate(state.board):
        board.append({"at": list(placed.at), "rotation": placed.rotation, "guilds": list(placed.guilds),
                      "tokens": [list(state.tokens[3 * h + i]) for i in range(3)],
                      "towers": [state.towers[3 * h + i] for i in range(3)]})
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


__all__ = ["read_state", "state_json", "validate_state", "layout"]
