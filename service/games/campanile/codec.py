"""States and tables to and from JSON, with every problem reported at once.

`read_state` checks the shape (MalformedError, each problem with rule None) and then the rules a real position
obeys (InvalidStateError, each problem with its rule id). `state_json` writes the canonical form: every field,
keys in a fixed order, hands and removed cards sorted, so equal states are equal bytes.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from ..core.errors import InvalidStateError, MalformedError, Problem
from .cards import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILES,
    STORIES,
    STYLE_INDEX,
    STYLES,
    TOKEN_VALUES,
    TOKENS,
    cards_in_play,
    full_deck,
    leftover,
    pile_size,
)
from .model import BET, DRAW, OVER, PLAY, STEPS, LastPlay, Pile, Player, State, Table, Token, Tower

GAME_ID = "campanile"
MAX_LIST = 128  # no legal list is longer; bounds the work a hostile document can cause
MAX_NAME = 100
MAX_PLAYER_LIST = 8  # more than any game has; the count itself is a rule (C-SETUP-1)


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

    def card(self, value: Any, pointer: str) -> str | None:
        if isinstance(value, str) and value in STYLE_INDEX:
            return value
        self.bad(pointer, f"{value!r:.40} is not a card: a card is its style, \"A\" to \"E\".")
        return None

    def cards(self, value: Any, pointer: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.bad(pointer, "Must be a list of cards (\"A\" to \"E\").")
            return ()
        if len(value) > MAX_LIST:
            self.bad(pointer, f"Lists more than {MAX_LIST} cards.")
            return ()
        out = [self.card(item, f"{pointer}/{i}") for i, item in enumerate(value)]
        return tuple(card for card in out if card is not None)

    def name(self, value: Any, pointer: str) -> str:
        if isinstance(value, str) and 0 < len(value) <= MAX_NAME:
            return value
        self.bad(pointer, f"Must be a text of 1 to {MAX_NAME} characters.")
        return ""


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


# ---------------------------------------------------------------- reading

STATE_FIELDS = ("game", "variant", "players", "towers", "piles", "removed", "turn", "step", "last_play")
TABLE_FIELDS = ("variant", "players", "towers")


def read_variant(reader: _Reader, value: Any, pointer: str) -> bool:
    variant = reader.obj(value, pointer, ("bet_on_played",))
    if variant is None:
        return False
    return reader.boolean(variant.get("bet_on_played", False), f"{pointer}/bet_on_played")


def _counted(reader: _Reader, value: Any, pointer: str) -> tuple[tuple[str, ...], int]:
    """A hand or the removed cards: a list, or {"count": n, "known": [...]}. Returns (known, hidden)."""
    if isinstance(value, list):
        return reader.cards(value, pointer), 0
    data = reader.obj(value, pointer, ("count", "known"), ("count",))
    if data is None:
        return (), 0
    count = reader.integer(data.get("count"), f"{pointer}/count", 0, MAX_LIST)
    known = reader.cards(data.get("known", []), f"{pointer}/known")
    if count is None:
        return known, 0
    if count < len(known):
        reader.bad(f"{pointer}/count", f"\"count\" is the number of cards: at least the {len(known)} known ones.")
        return known, 0
    return known, count - len(known)


def _pile(reader: _Reader, value: Any, pointer: str, rules: list[Problem]) -> Pile:
    """A Finito pile: a list (top first), or {"count": n, "top": card} when the cards under the top are unknown."""
    if isinstance(value, list):
        return Pile(reader.cards(value, pointer), 0)
    data = reader.obj(value, pointer, ("count", "top"), ("count",))
    if data is None:
        return Pile()
    count = reader.integer(data.get("count"), f"{pointer}/count", 0, MAX_LIST)
    top = reader.card(data["top"], f"{pointer}/top") if "top" in data else None
    if count is None:
        return Pile()
    if count == 0:
        if "top" in data:
            reader.bad(f"{pointer}/top", "An empty pile has no top card.")
        return Pile()
    if top is None:
        if "top" not in data:
            rules.append(Problem("C-SETUP-3", f"{pointer}/top", "The top card of a pile lies face up: name it "
                                                                "(\"top\")."))
        return Pile((), count)
    return Pile((top,), count - 1)


def _supply(reader: _Reader, value: Any, pointer: str) -> tuple[int, int, int]:
    data = reader.obj(value, pointer, tuple(str(v) for v in TOKEN_VALUES), tuple(str(v) for v in TOKEN_VALUES))
    if data is None:
        return (0, 0, 0)
    counts = [reader.integer(data.get(str(v), 0), f"{pointer}/{v}", 0, MAX_LIST) for v in TOKEN_VALUES]
    return tuple(c or 0 for c in counts)  # type: ignore[return-value]


def _players(reader: _Reader, value: Any, in_state: bool, rules: list[Problem]) -> list[Player]:
    if not isinstance(value, list):
        reader.bad("/players", "Must be a list of the players, 2 to 5.")
        return []
    if len(value) > MAX_PLAYER_LIST:
        reader.bad("/players", f"Lists more than {MAX_PLAYER_LIST} players.")
        return []
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        rules.append(Problem("C-SETUP-1", "/players", f"Campanile is for 2 to 5 players; {len(value)} given."))
    players = []
    for i, item in enumerate(value):
        pointer = f"/players/{i}"
        fields = ("name", "hand", "supply") if in_state else ("name",)
        data = reader.obj(item, pointer, fields, ("hand",) if in_state else ())
        if data is None:
            continue
        name = reader.name(data.get("name", f"Player {i + 1}"), f"{pointer}/name")
        hand, hidden = _counted(reader, data.get("hand"), f"{pointer}/hand") if in_state else ((), 0)
        supply = _supply(reader, data["supply"], f"{pointer}/supply") if "supply" in data else \
            tuple(TOKENS[v] for v in TOKEN_VALUES)
        players.append(Player(name, tuple(sorted(hand)), hidden, supply))  # type: ignore[arg-type]
    return players


def _towers(reader: _Reader, value: Any, rules: list[Problem]) -> list[Tower]:
    if not isinstance(value, list):
        reader.bad("/towers", "Must be a list of the five towers.")
        return []
    if len(value) > MAX_LIST:
        reader.bad("/towers", f"Lists more than {MAX_LIST} towers.")
        return []
    if len(value) != len(STYLES):
        rules.append(Problem("C-COMP-1", "/towers", f"There are five towers, one per style; {len(value)} given."))
    towers = []
    for t, item in enumerate(value):
        pointer = f"/towers/{t}"
        data = reader.obj(item, pointer, ("style", "plays", "tokens"))
        if data is None:
            continue
        default = STYLES[t] if t < len(STYLES) else None
        style = reader.card(data["style"], f"{pointer}/style") if "style" in data else default
        if style is not None and t < len(STYLES) and style != STYLES[t]:
            rules.append(Problem("C-COMP-1", f"{pointer}/style", f"The tower at position {t} is style {STYLES[t]} "
                                                                 f"(A nearest the piles), not {style}."))
        plays_data = data.get("plays", [])
        plays: list[int] = []
        if not isinstance(plays_data, list) or len(plays_data) > MAX_LIST:
            reader.bad(f"{pointer}/plays", f"Must be a list of at most {MAX_LIST} stories (1, 2 or 3 each).")
        else:
            for i, stories in enumerate(plays_data):
                if isinstance(stories, int) and not isinstance(stories, bool) and stories in STORIES:
                    plays.append(stories)
                else:
                    reader.bad(f"{pointer}/plays/{i}", "A card raises its tower by 1, 2 or 3 stories (C-TURN-PLAY).")
        tokens_data = data.get("tokens", [])
        tokens: list[Token] = []
        if not isinstance(tokens_data, list) or len(tokens_data) > MAX_LIST:
            reader.bad(f"{pointer}/tokens", f"Must be a list of at most {MAX_LIST} tokens.")
        else:
            for i, token in enumerate(tokens_data):
                tp = f"{pointer}/tokens/{i}"
                tok = reader.obj(token, tp, ("player", "value"), ("player", "value"))
                if tok is None:
                    continue
                player = reader.integer(tok.get("player"), f"{tp}/player", 0, MAX_PLAYERS - 1)
                value_ = reader.integer(tok.get("value"), f"{tp}/value", 1, 3)
                if player is not None and value_ is not None:
                    tokens.append(Token(player, value_))
        towers.append(Tower(style or "", tuple(plays), tuple(tokens)))
    return towers


def _piles(reader: _Reader, value: Any, rules: list[Problem]) -> list[Pile]:
    if not isinstance(value, list):
        reader.bad("/piles", "Must be a list of the three Finito piles, each top first.")
        return []
    if len(value) > MAX_LIST:
        reader.bad("/piles", f"Lists more than {MAX_LIST} piles.")
        return []
    if len(value) != PILES:
        rules.append(Problem("C-COMP-2", "/piles", f"There are three Finito piles (1, 2, 3); {len(value)} given."))
    return [_pile(reader, item, f"/piles/{k}", rules) for k, item in enumerate(value)]


def read_state(data: Any, *, check: bool = True) -> State:
    """A State from its JSON form. Raises MalformedError or, with `check`, InvalidStateError."""
    state, problems, _ = _read_state(data)
    if state is None or (check and problems):
        raise InvalidStateError(problems)
    return state


def read_state_warned(data: Any) -> tuple[State, list[Problem]]:
    """A checked State and the warnings of reading it, in one pass (what /score reports beside the score)."""
    state, problems, warnings = _read_state(data)
    if state is None or problems:
        raise InvalidStateError(problems)
    return state, warnings


def validate_state(data: Any) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) of a state document; raises MalformedError only for a wrong shape."""
    _, problems, warnings = _read_state(data)
    return problems, warnings


def _read_state(data: Any) -> tuple[State | None, list[Problem], list[Problem]]:
    reader = _Reader()
    rules: list[Problem] = []
    doc = reader.obj(data, "", STATE_FIELDS, ("players", "towers", "piles"))
    if doc is None:
        raise MalformedError(reader.problems)
    if "game" in doc and doc["game"] != GAME_ID:
        reader.bad("/game", "This is the Campanile referee: \"game\" must be \"campanile\".")
    bet_on_played = read_variant(reader, doc.get("variant", {}), "/variant")
    players = _players(reader, doc.get("players"), True, rules)
    towers = _towers(reader, doc.get("towers"), rules)
    piles = _piles(reader, doc.get("piles"), rules)
    removed, removed_hidden = _counted(reader, doc.get("removed", []), "/removed")
    turn = reader.integer(doc.get("turn", 0), "/turn", 0, MAX_PLAYERS - 1)
    step = doc.get("step", PLAY)
    if step not in STEPS:
        reader.bad("/step", f"Must be one of {', '.join(STEPS)}.")
    last_play = None
    if doc.get("last_play") is not None:
        lp = reader.obj(doc["last_play"], "/last_play", ("tower", "stories"), ("tower", "stories"))
        if lp is not None:
            tower = reader.integer(lp.get("tower"), "/last_play/tower", 0, len(STYLES) - 1)
            stories = reader.integer(lp.get("stories"), "/last_play/stories", 1, 3)
            if tower is not None and stories is not None:
                last_play = LastPlay(tower, stories)
    if reader.problems:
        raise MalformedError(reader.problems)
    if rules:  # no player count, five towers or three piles to check the rest against
        return None, rules, []
    state = State(bet_on_played, tuple(players), tuple(towers), tuple(piles), tuple(sorted(removed)), removed_hidden,
                  turn or 0, step, last_play)
    warnings: list[Problem] = []
    rules.extend(check_state(state, warnings))
    return state, rules, warnings


# ---------------------------------------------------------------- the rules a position obeys

def _places(state: State) -> Iterator[tuple[str, str]]:
    """Every known card with a pointer to where it lies."""
    for p, player in enumerate(state.players):
        where = "hand/known" if player.hidden else "hand"
        for i, card in enumerate(player.hand):
            yield card, f"/players/{p}/{where}/{i}"
    for k, pile in enumerate(state.piles):
        for i, card in enumerate(pile.cards):
            yield card, f"/piles/{k}/top" if pile.hidden else f"/piles/{k}/{i}"
    for t, tower in enumerate(state.towers):
        for i in range(len(tower.plays)):
            yield tower.style, f"/towers/{t}/plays/{i}"
    where = "removed/known" if state.removed_hidden else "removed"
    for i, card in enumerate(state.removed):
        yield card, f"/{where}/{i}"


def _conservation(n: int, places, hidden: int | None) -> list[Problem]:
    """C-COMP-5: no style more often than the game has it in play; with `hidden`, every card in play somewhere."""
    problems: list[Problem] = []
    full = full_deck(n)
    seen: Counter = Counter()
    total = 0
    for card, pointer in places:
        seen[card] += 1
        total += 1
        if seen[card] == full[card] + 1:
            problems.append(Problem("C-COMP-5", pointer, f"One {card} too many: with {n} players the game has "
                                                         f"{full[card]} cards of each style in play (C-SETUP-1)."))
    if hidden is not None and total + hidden != cards_in_play(n):
        problems.append(Problem("C-COMP-5", "", f"The state holds {total + hidden} cards in all (hands, piles, towers "
                                                f"and removed together); with {n} players the game has "
                                                f"{cards_in_play(n)} in play."))
    return problems


def _token_problems(n: int, towers: tuple[Tower, ...], supplies: list[tuple[int, int, int]] | None) -> list[Problem]:
    """C-COMP-4 and C-COMP-5: each token is in its owner's supply or under exactly one tower."""
    problems: list[Problem] = []
    placed = [[0, 0, 0] for _ in range(n)]
    for t, tower in enumerate(towers):
        for i, token in enumerate(tower.tokens):
            if token.player >= n:
                problems.append(Problem("C-COMP-4", f"/towers/{t}/tokens/{i}/player", f"A token of player "
                                                                                      f"{token.player}, but the "
                                                                                      f"game has {n} players."))
            else:
                placed[token.player][token.value - 1] += 1
    for p in range(n):
        for value in TOKEN_VALUES:
            owned = TOKENS[value]
            under = placed[p][value - 1]
            if supplies is None:
                if under > owned:
                    problems.append(Problem("C-COMP-4", "/towers", f"Player {p} has {under} tokens of value {value} "
                                                                   f"under the towers; each player has {owned}."))
            elif supplies[p][value - 1] + under != owned:
                problems.append(Problem("C-COMP-5", f"/players/{p}/supply/{value}",
                                        f"Player {p} has {owned} tokens of value {value} (C-COMP-4): "
                                        f"{supplies[p][value - 1]} in supply and {under} under the towers make "
                                        f"{supplies[p][value - 1] + under}."))
    return problems


def _bets_problem(towers: tuple[Tower, ...]) -> list[Problem]:
    tokens = sum(len(t.tokens) for t in towers)
    plays = sum(len(t.plays) for t in towers)
    if tokens > plays:
        return [Problem("C-TURN-BET", "/towers", f"{tokens} tokens lie under the towers, but only {plays} cards were "
                                                 "played: at most one token is placed per turn, after its play.")]
    return []


def check_state(state: State, warnings: list[Problem]) -> list[Problem]:
    n = len(state.players)
    problems: list[Problem] = []
    hidden = state.removed_hidden + sum(p.hidden for p in state.players) + sum(p.hidden for p in state.piles)
    problems.extend(_conservation(n, _places(state), hidden))
    size = pile_size(n)
    for k, pile in enumerate(state.piles):
        if pile.size > size:
            problems.append(Problem("C-SETUP-2", f"/piles/{k}", f"Pile {k + 1} holds {pile.size} cards; with {n} "
                                                                f"players each pile starts with {size}."))
    removed = len(state.removed) + state.removed_hidden
    if removed != leftover(n):
        problems.append(Problem("C-SETUP-2", "/removed", f"With {n} players {leftover(n)} card"
                                                         f"{'s are' if leftover(n) != 1 else ' is'} removed after the "
                                                         f"deal (C-SVC-REMOVED); {removed} listed."))
    problems.extend(_token_problems(n, state.towers, [p.supply for p in state.players]))
    problems.extend(_bets_problem(state.towers))
    if state.turn >= n:
        problems.append(Problem("C-SETUP-3", "/turn", f"\"turn\" names a player: 0 to {n - 1}."))
    mid_turn = state.step in (BET, DRAW)
    for p, player in enumerate(state.players):
        limit = HAND_SIZE - 1 if mid_turn and p == state.turn else HAND_SIZE
        pointer = f"/players/{p}/hand"
        if player.hand_size > limit:
            rule = "C-TURN-PLAY" if limit < HAND_SIZE and player.hand_size == HAND_SIZE else "C-TURN-DRAW"
            problems.append(Problem(rule, pointer, f"{player.name} holds {player.hand_size} cards; the most is "
                                                   f"{limit}{' after playing this turn' if limit < HAND_SIZE else ''} "
                                                   "(C-SVC-HANDS)."))
        elif player.hand_size < limit:
            warnings.append(Problem("C-SVC-HANDS", pointer, f"{player.name} holds {player.hand_size} card"
                                                            f"{'s' if player.hand_size != 1 else ''}; normal play "
                                                            f"keeps {limit} (C-TURN-END)."))
    problems.extend(_flow_problems(state))
    return problems


def _flow_problems(state: State) -> list[Problem]:
    """C-SVC-STEP and C-END-1: the step due, last_play and the piles must tell one story."""
    problems: list[Problem] = []
    empty = [k for k, pile in enumerate(state.piles) if pile.size == 0]
    if state.step == OVER:
        if not empty and any(p.hand_size for p in state.players):
            problems.append(Problem("C-END-1", "/step", "The game ends when a pile runs out; every pile still holds "
                                                        "cards (and a player holds a card: C-SVC-PASS)."))
    elif empty:
        problems.append(Problem("C-END-1", f"/piles/{empty[0]}", f"Pile {empty[0] + 1} is empty, so the game is "
                                                                 "over: step is \"over\"."))
    last = state.last_play
    if state.step in (BET, DRAW):
        if last is None:
            problems.append(Problem("C-SVC-STEP", "/last_play", f"During the {state.step} step, last_play names the "
                                                                "tower just played and the stories added."))
        else:
            plays = state.towers[last.tower].plays
            if not plays or plays[-1] != last.stories:
                problems.append(Problem("C-SVC-STEP", "/last_play", f"last_play says tower {last.tower} just rose by "
                                                                    f"{last.stories}, but its last play is "
                                                                    f"{plays[-1] if plays else 'none'}."))
    elif last is not None:
        problems.append(Problem("C-SVC-STEP", "/last_play", f"last_play is null at the {state.step} step: no card "
                                                            "has been played this turn."))
    return problems


# ---------------------------------------------------------------- tables

def read_table(data: Any) -> tuple[Table, list[Problem]]:
    """A Table and its warnings; raises MalformedError or InvalidStateError."""
    reader = _Reader()
    rules: list[Problem] = []
    doc = reader.obj(data, "", TABLE_FIELDS, ("players", "towers"))
    if doc is None:
        raise MalformedError(reader.problems)
    bet_on_played = read_variant(reader, doc["variant"], "/variant") if "variant" in doc else False
    players = _players(reader, doc.get("players"), False, rules)
    towers = _towers(reader, doc.get("towers"), rules)
    if reader.problems:
        raise MalformedError(reader.problems)
    if rules:
        raise InvalidStateError(rules)
    n = len(players)
    towers_t = tuple(towers)
    places = ((tower.style, f"/towers/{t}/plays/{i}") for t, tower in enumerate(towers_t)
              for i in range(len(tower.plays)))
    rules.extend(_conservation(n, places, None))
    rules.extend(_token_problems(n, towers_t, None))
    rules.extend(_bets_problem(towers_t))
    if rules:
        raise InvalidStateError(rules)
    return Table(bet_on_played, tuple(p.name for p in players), towers_t), []


def table_of(state: State) -> Table:
    return Table(state.bet_on_played, tuple(p.name for p in state.players), state.towers)


# ---------------------------------------------------------------- writing

def _counted_json(known: tuple[str, ...], hidden: int) -> Any:
    if not hidden:
        return list(known)
    return {"count": len(known) + hidden, "known": list(known)}


def pile_json(pile: Pile) -> Any:
    if not pile.hidden:
        return list(pile.cards)
    return {"count": pile.size, "top": pile.top}


def tower_json(tower: Tower) -> dict[str, Any]:
    return {"style": tower.style, "plays": list(tower.plays),
            "tokens": [{"player": t.player, "value": t.value} for t in tower.tokens]}


def player_json(player: Player) -> dict[str, Any]:
    return {"name": player.name, "hand": _counted_json(player.hand, player.hidden),
            "supply": {str(v): player.supply[v - 1] for v in TOKEN_VALUES}}


def state_json(state: State) -> dict[str, Any]:
    return {
        "game": GAME_ID,
        "variant": {"bet_on_played": state.bet_on_played},
        "players": [player_json(p) for p in state.players],
        "towers": [tower_json(t) for t in state.towers],
        "piles": [pile_json(p) for p in state.piles],
        "removed": _counted_json(state.removed, state.removed_hidden),
        "turn": state.turn,
        "step": state.step,
        "last_play": None if state.last_play is None else {"tower": state.last_play.tower,
                                                           "stories": state.last_play.stories},
    }


def table_json(table: Table) -> dict[str, Any]:
    return {"variant": {"bet_on_played": table.bet_on_played}, "players": [{"name": n} for n in table.names],
            "towers": [tower_json(t) for t in table.towers]}
