"""A Campanile position from what its schema loaded (service/games/campanile/schemas.py), the rules a real
position obeys, and its JSON form.

`build_state` and `build_table` take a document whose shape the schema has checked and give a `Reading`: the model
objects, every rule the position breaks (each with its rule id and a pointer) and its warnings. `state_json` writes
the canonical form: every field, keys in a fixed order, hands and removed cards sorted, so equal states are equal
bytes.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..core.errors import Problem
from ..core.reading import Reading
from .cards import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILES,
    STYLES,
    TOKEN_VALUES,
    TOKENS,
    cards_in_play,
    full_deck,
    leftover,
    pile_size,
)
from .messages import tr, tr_n
from .model import BET, DRAW, FULL_SUPPLY, OVER, PLAY, LastPlay, Pile, Player, State, Table, Token, Tower

GAME_ID = "campanile"
SUPPLY_KEYS = ("one", "two", "three")  # the loaded names of the supply's "1", "2" and "3"


# ---------------------------------------------------------------- building

def _counted(loaded: Any) -> tuple[tuple[str, ...], int]:
    """A hand or the removed cards, as loaded: a list, or {"count": n, "known": [...]}. Returns (known, hidden)."""
    if isinstance(loaded, list):
        return tuple(loaded), 0
    known = tuple(loaded.get("known", ()))
    return known, loaded["count"] - len(known)


def _pile(loaded: Any, pointer: str, rules: list[Problem]) -> Pile:
    """A Finito pile: a list (top first), or {"count": n, "top": card} when the cards under the top are unknown."""
    if isinstance(loaded, list):
        return Pile(tuple(loaded), 0)
    count = loaded["count"]
    if count == 0:
        return Pile()
    if "top" not in loaded:
        # Translators: "top" is a field of the state, kept in English.
        rules.append(Problem("C-SETUP-3", f"{pointer}/top", tr("The top card of a pile lies face up: name it "
                                                               "(\"top\").")))
        return Pile((), count)
    return Pile((loaded["top"],), count - 1)


def _player(loaded: dict, index: int) -> Player:
    name = loaded.get("name", f"Player {index + 1}")
    if "hand" not in loaded:  # a table's player
        return Player(name)
    hand, hidden = _counted(loaded["hand"])
    supply = tuple(loaded["supply"][key] for key in SUPPLY_KEYS) if "supply" in loaded else FULL_SUPPLY
    return Player(name, tuple(sorted(hand)), hidden, supply)  # type: ignore[arg-type]


def _players(loaded: list, rules: list[Problem]) -> list[Player]:
    if not MIN_PLAYERS <= len(loaded) <= MAX_PLAYERS:
        rules.append(Problem("C-SETUP-1", "/players", tr("Campanile is for 2 to 5 players; {given} given.",
                                                         given=len(loaded))))
    return [_player(item, i) for i, item in enumerate(loaded)]


def _towers(loaded: list, rules: list[Problem]) -> list[Tower]:
    if len(loaded) != len(STYLES):
        rules.append(Problem("C-COMP-1", "/towers", tr("There are five towers, one per style; {given} given.",
                                                       given=len(loaded))))
    towers = []
    for t, item in enumerate(loaded):
        style = item.get("style", STYLES[t] if t < len(STYLES) else "")
        if t < len(STYLES) and style != STYLES[t]:
            # Translators: {style} and {given} are style letters A to E.
            rules.append(Problem("C-COMP-1", f"/towers/{t}/style", tr("The tower at position {position} is style "
                                                                      "{style} (A nearest the piles), not {given}.",
                                                                      position=t, style=STYLES[t], given=style)))
        tokens = tuple(Token(token["player"], token["value"]) for token in item.get("tokens", ()))
        towers.append(Tower(style, tuple(item.get("plays", ())), tokens))
    return towers


def _piles(loaded: list, rules: list[Problem]) -> list[Pile]:
    if len(loaded) != PILES:
        rules.append(Problem("C-COMP-2", "/piles", tr("There are three Finito piles (1, 2, 3); {given} given.",
                                                      given=len(loaded))))
    return [_pile(item, f"/piles/{k}", rules) for k, item in enumerate(loaded)]


def _bet_on_played(loaded: dict) -> bool:
    return loaded.get("variant", {}).get("bet_on_played", False)


def build_state(loaded: dict) -> Reading[State]:
    """The State a loaded state document describes, with the rules it breaks and its warnings."""
    rules: list[Problem] = []
    players = _players(loaded["players"], rules)
    towers = _towers(loaded["towers"], rules)
    piles = _piles(loaded["piles"], rules)
    if rules:  # no player count, five towers or three piles to check the rest against
        return Reading(None, tuple(rules))
    removed, removed_hidden = _counted(loaded.get("removed", []))
    last = loaded.get("last_play")
    state = State(_bet_on_played(loaded), tuple(players), tuple(towers), tuple(piles), tuple(sorted(removed)),
                  removed_hidden, loaded.get("turn", 0), loaded.get("step", PLAY),
                  None if last is None else LastPlay(last["tower"], last["stories"]))
    warnings: list[Problem] = []
    rules.extend(check_state(state, warnings))
    return Reading(state, tuple(rules), tuple(warnings))


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


def _known_cards(state: State) -> Counter:
    """How many of each style are known, wherever they lie (as `_places` lists them, without the pointers)."""
    known = Counter(state.removed)
    for player in state.players:
        known.update(player.hand)
    for pile in state.piles:
        known.update(pile.cards)
    for tower in state.towers:
        known[tower.style] += len(tower.plays)
    return known


def _conservation(n: int, known: Counter, places: Callable[[], Iterable[tuple[str, str]]],
                  hidden: int | None) -> list[Problem]:
    """C-COMP-5: no style more often than the game has it in play; with `hidden`, every card in play somewhere.
    `known` counts the cards of each style known; `places()` lists them with pointers, walked only to point at a
    card too many."""
    problems: list[Problem] = []
    full = full_deck(n)
    total = sum(known.values())
    if any(count > full[card] for card, count in known.items()):
        seen: Counter = Counter()
        for card, pointer in places():
            seen[card] += 1
            if seen[card] == full[card] + 1:
                # Translators: {card} is a style letter A to E (a card of that style).
                problems.append(Problem("C-COMP-5", pointer, tr_n(
                    "One {card} too many: with {players} players the game has {count} card of each style in play "
                    "(C-SETUP-1).",
                    "One {card} too many: with {players} players the game has {count} cards of each style in play "
                    "(C-SETUP-1).", full[card], card=card, players=n)))
    if hidden is not None and total + hidden != cards_in_play(n):
        problems.append(Problem("C-COMP-5", "", tr_n(
            "The state holds {count} card in all (hands, piles, towers and removed together); with {players} players "
            "the game has {in_play} in play.",
            "The state holds {count} cards in all (hands, piles, towers and removed together); with {players} "
            "players the game has {in_play} in play.", total + hidden, players=n, in_play=cards_in_play(n))))
    return problems


def _token_problems(n: int, towers: tuple[Tower, ...], supplies: list[tuple[int, int, int]] | None) -> list[Problem]:
    """C-COMP-4 and C-COMP-5: each token is in its owner's supply or under exactly one tower."""
    problems: list[Problem] = []
    placed = [[0, 0, 0] for _ in range(n)]
    for t, tower in enumerate(towers):
        for i, token in enumerate(tower.tokens):
            if token.player >= n:
                # Translators: {player} is a player's number (0 to 4).
                problems.append(Problem("C-COMP-4", f"/towers/{t}/tokens/{i}/player", tr(
                    "A token of player {player}, but the game has {players} players.", player=token.player,
                    players=n)))
            else:
                placed[token.player][token.value - 1] += 1
    for p in range(n):
        for value in TOKEN_VALUES:
            owned = TOKENS[value]
            under = placed[p][value - 1]
            if supplies is None:
                if under > owned:
                    # Translators: {player} is a player's number (0 to 4); {owned}: the tokens of that value each
                    # player has.
                    problems.append(Problem("C-COMP-4", "/towers", tr_n(
                        "Player {player} has {count} token of value {value} under the towers; each player has "
                        "{owned}.",
                        "Player {player} has {count} tokens of value {value} under the towers; each player has "
                        "{owned}.", under, player=p, value=value, owned=owned)))
            elif supplies[p][value - 1] + under != owned:
                # Translators: {player} is a player's number (0 to 4); {count}: the tokens of that value each player
                # has; {supply} + {under} = {made}.
                problems.append(Problem("C-COMP-5", f"/players/{p}/supply/{value}", tr_n(
                    "Player {player} has {count} token of value {value} (C-COMP-4): {supply} in supply and {under} "
                    "under the towers make {made}.",
                    "Player {player} has {count} tokens of value {value} (C-COMP-4): {supply} in supply and {under} "
                    "under the towers make {made}.", owned, player=p, value=value, supply=supplies[p][value - 1],
                    under=under, made=supplies[p][value - 1] + under)))
    return problems


def _bets_problem(towers: tuple[Tower, ...]) -> list[Problem]:
    tokens = sum(len(t.tokens) for t in towers)
    plays = sum(len(t.plays) for t in towers)
    if tokens > plays:
        # Translators: {played} is "only 1 card was played" or "only 3 cards were played".
        played = tr_n("only {count} card was played", "only {count} cards were played", plays)
        return [Problem("C-TURN-BET", "/towers", tr_n(
            "{count} token lies under the towers, but {played}: at most one token is placed per turn, after its play.",
            "{count} tokens lie under the towers, but {played}: at most one token is placed per turn, after its "
            "play.", tokens, played=played))]
    return []


def check_state(state: State, warnings: list[Problem]) -> list[Problem]:
    n = len(state.players)
    problems: list[Problem] = []
    hidden = state.removed_hidden + sum(p.hidden for p in state.players) + sum(p.hidden for p in state.piles)
    problems.extend(_conservation(n, _known_cards(state), lambda: _places(state), hidden))
    size = pile_size(n)
    for k, pile in enumerate(state.piles):
        if pile.size > size:
            problems.append(Problem("C-SETUP-2", f"/piles/{k}", tr_n(
                "Pile {pile} holds {count} card; with {players} players each pile starts with {size}.",
                "Pile {pile} holds {count} cards; with {players} players each pile starts with {size}.", pile.size,
                pile=k + 1, players=n, size=size)))
    removed = len(state.removed) + state.removed_hidden
    if removed != leftover(n):
        # Translators: {removed}: how many removed cards the state lists.
        problems.append(Problem("C-SETUP-2", "/removed", tr_n(
            "With {players} players {count} card is removed after the deal (C-SVC-REMOVED); {removed} listed.",
            "With {players} players {count} cards are removed after the deal (C-SVC-REMOVED); {removed} listed.",
            leftover(n), players=n, removed=removed)))
    problems.extend(_token_problems(n, state.towers, [p.supply for p in state.players]))
    problems.extend(_bets_problem(state.towers))
    if state.turn >= n:
        # Translators: "turn" is a field of the state, kept in English.
        problems.append(Problem("C-SETUP-3", "/turn", tr("\"turn\" names a player: 0 to {last}.", last=n - 1)))
    mid_turn = state.step in (BET, DRAW)
    for p, player in enumerate(state.players):
        limit = HAND_SIZE - 1 if mid_turn and p == state.turn else HAND_SIZE
        pointer = f"/players/{p}/hand"
        if player.hand_size > limit:
            rule = "C-TURN-PLAY" if limit < HAND_SIZE and player.hand_size == HAND_SIZE else "C-TURN-DRAW"
            if limit < HAND_SIZE:
                said = tr_n("{player} holds {count} card; the most is {limit} after playing this turn (C-SVC-HANDS).",
                            "{player} holds {count} cards; the most is {limit} after playing this turn "
                            "(C-SVC-HANDS).", player.hand_size, player=player.name, limit=limit)
            else:
                said = tr_n("{player} holds {count} card; the most is {limit} (C-SVC-HANDS).",
                            "{player} holds {count} cards; the most is {limit} (C-SVC-HANDS).", player.hand_size,
                            player=player.name, limit=limit)
            problems.append(Problem(rule, pointer, said))
        elif player.hand_size < limit:
            warnings.append(Problem("C-SVC-HANDS", pointer, tr_n(
                "{player} holds {count} card; normal play keeps {limit} (C-TURN-END).",
                "{player} holds {count} cards; normal play keeps {limit} (C-TURN-END).", player.hand_size,
                player=player.name, limit=limit)))
    problems.extend(_flow_problems(state))
    return problems


def _flow_problems(state: State) -> list[Problem]:
    """C-SVC-STEP and C-END-1: the step due, last_play and the piles must tell one story."""
    problems: list[Problem] = []
    empty = [k for k, pile in enumerate(state.piles) if pile.size == 0]
    if state.step == OVER:
        if not empty and any(p.hand_size for p in state.players):
            problems.append(Problem("C-END-1", "/step", tr("The game ends when a pile runs out; every pile still "
                                                           "holds cards (and a player holds a card: C-SVC-PASS).")))
    elif empty:
        # Translators: step and "over" are a field of the state and its value, kept in English.
        problems.append(Problem("C-END-1", f"/piles/{empty[0]}", tr("Pile {pile} is empty, so the game is over: step "
                                                                    "is \"over\".", pile=empty[0] + 1)))
    last = state.last_play
    if state.step in (BET, DRAW):
        if last is None:
            # Translators: {step} is a step of the turn, kept in English (bet or draw); last_play is a field of the
            # state, kept in English.
            problems.append(Problem("C-SVC-STEP", "/last_play", tr("During the {step} step, last_play names the "
                                                                   "tower just played and the stories added.",
                                                                   step=state.step)))
        else:
            plays = state.towers[last.tower].plays
            if not plays or plays[-1] != last.stories:
                if plays:
                    # Translators: last_play is a field of the state, kept in English; {tower} is the tower's
                    # position (0 to 4); {rise} and {last}: stories added by a card (1, 2 or 3).
                    said = tr("last_play says tower {tower} just rose by {rise}, but its last play is {last}.",
                              tower=last.tower, rise=last.stories, last=plays[-1])
                else:
                    # Translators: last_play is a field of the state, kept in English; {tower} is the tower's
                    # position (0 to 4); {rise}: stories added by a card (1, 2 or 3). The tower has no card.
                    said = tr("last_play says tower {tower} just rose by {rise}, but its last play is none.",
                              tower=last.tower, rise=last.stories)
                problems.append(Problem("C-SVC-STEP", "/last_play", said))
    elif last is not None:
        # Translators: last_play and null are a field of the state and its value, kept in English; {step} is a step
        # of the turn, kept in English (play or over).
        problems.append(Problem("C-SVC-STEP", "/last_play", tr("last_play is null at the {step} step: no card has "
                                                               "been played this turn.", step=state.step)))
    return problems


# ---------------------------------------------------------------- tables

def build_table(loaded: dict) -> Reading[Table]:
    """The Table a loaded table document describes, with the rules it breaks."""
    rules: list[Problem] = []
    players = _players(loaded["players"], rules)
    towers = tuple(_towers(loaded["towers"], rules))
    if rules:
        return Reading(None, tuple(rules))
    n = len(players)
    known: Counter = Counter()
    for tower in towers:
        known[tower.style] += len(tower.plays)
    rules.extend(_conservation(n, known, lambda: ((tower.style, f"/towers/{t}/plays/{i}")
                                                  for t, tower in enumerate(towers) for i in range(len(tower.plays))),
                               None))
    rules.extend(_token_problems(n, towers, None))
    rules.extend(_bets_problem(towers))
    return Reading(Table(_bet_on_played(loaded), tuple(p.name for p in players), towers), tuple(rules))


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
