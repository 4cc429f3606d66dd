"""Small builders for writing Campanile states and steps tersely in the per-rule tests.

`state_dict(...)` takes the parts of a position a test cares about and fills in the rest so that the state is
valid: every card in play (C-SETUP-1: 9, 11, 13 or 14 of each style for 2 to 5 players) lies somewhere exactly once
(C-COMP-5). Cards the caller does not place go, in a fixed order, first to `removed` (the C-SETUP-2 leftovers),
then round-robin onto the piles that the caller did not give (after the `tops` the caller wants on them). Each
player's supply is the full supply minus the tokens under the towers, unless given.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from service.games import campanile
from service.games.campanile import STYLES

_UNSET: Any = object()


def default_hand(player: int) -> list[str]:
    return [STYLES[(player + k) % 5] for k in range(3)]


def state_dict(players: int = 2, *, hands: Any = None, plays: dict[int, list[int]] | None = None,
               tokens: dict[int, list[tuple[int, int]]] | None = None, piles: dict[int, list[str]] | None = None,
               tops: tuple[str, ...] = (), removed: list[str] | None = None, turn: int = 0, step: str = "play",
               last_play: dict | None = None, supplies: list[dict] | None = None, variant: bool = False,
               names: list[str] | None = None) -> dict:
    """A full, valid state document; see the module docstring."""
    plays = plays or {}
    tokens = tokens or {}
    piles = dict(piles or {})
    hands = [list(h) for h in hands] if hands is not None else [default_hand(p) for p in range(players)]
    hands += [default_hand(p) for p in range(len(hands), players)]
    left = Counter(campanile.full_deck(players))
    for hand in hands:
        left.subtract(hand)
    for position, stories in plays.items():
        left[STYLES[position]] -= len(stories)
    for pile in piles.values():
        left.subtract(pile)
    if removed is not None:
        left.subtract(removed)
    assert all(n >= 0 for n in left.values()), f"more cards placed than in play: {dict(-left)}"
    order = _interleave(left)  # one of each style in turn, so the filled piles mix the styles
    if removed is None:
        count = campanile.leftover(players)
        removed = order[:count]
        order = order[count:]
    for k, top in enumerate(tops):
        if top is not None and k not in piles:
            order.remove(top)
            piles[k] = [top]
    free = [k for k in range(3) if k not in piles or (k < len(tops) and tops[k] is not None)]
    for k in range(3):
        piles.setdefault(k, [])
    size = campanile.pile_size(players)
    i = 0
    while order:
        targets = [k for k in free if len(piles[k]) < size]
        assert targets, "the piles cannot hold the cards left over"
        k = targets[i % len(targets)]
        piles[k].append(order.pop(0))
        i += 1
    towers = [{"style": STYLES[t], "plays": list(plays.get(t, [])),
               "tokens": [{"player": p, "value": v} for p, v in tokens.get(t, [])]} for t in range(5)]
    if supplies is None:
        supplies = []
        for p in range(players):
            placed = Counter(v for t in tokens.values() for q, v in t if q == p)
            supplies.append({str(v): campanile.TOKENS[v] - placed[v] for v in (1, 2, 3)})
    names = names or [f"P{p}" for p in range(players)]
    return {"game": "campanile", "variant": {"bet_on_played": variant},
            "players": [{"name": names[p], "hand": hands[p], "supply": supplies[p]} for p in range(players)],
            "towers": towers, "piles": [piles[k] for k in range(3)], "removed": removed, "turn": turn,
            "step": step, "last_play": last_play}


def _interleave(left: Counter) -> list[str]:
    counts = {s: left[s] for s in STYLES}
    out = []
    while any(counts.values()):
        for style in STYLES:
            if counts[style] > 0:
                out.append(style)
                counts[style] -= 1
    return out


def make(players: int = 2, **kwargs: Any) -> campanile.State:
    return campanile.read_state(state_dict(players, **kwargs))


def js(state: campanile.State) -> dict:
    return campanile.state_json(state)


def play(state: campanile.State, *moves: dict) -> campanile.State:
    """Apply moves that must all be legal."""
    outcome = campanile.apply_steps(state, list(moves))
    assert outcome.legal, outcome.violations
    return outcome.state


def events_of(state: campanile.State, *moves: dict) -> list[dict]:
    outcome = campanile.apply_steps(state, list(moves))
    assert outcome.legal, outcome.violations
    return outcome.events


def refused(state: campanile.State, move: dict) -> campanile.Problem:
    """The one violation an illegal move gets."""
    outcome = campanile.apply_steps(state, [move])
    assert not outcome.legal, f"{move} was accepted"
    assert len(outcome.violations) == 1
    return outcome.violations[0]


def moves(state: campanile.State) -> list[dict]:
    return campanile.legal_moves(state)


def errors(doc: dict) -> list[campanile.Problem]:
    return campanile.validate_state(doc)[0]


def warnings(doc: dict) -> list[campanile.Problem]:
    return campanile.validate_state(doc)[1]


def error_rules(doc: dict) -> set[str | None]:
    return {p.rule for p in errors(doc)}


def PLAY(card: str, stories: int) -> dict:  # noqa: N802 - reads like the step it builds
    return {"type": "play", "card": card, "stories": stories}


def BET(tower: int, value: int) -> dict:  # noqa: N802
    return {"type": "bet", "tower": tower, "value": value}


NO_BET = {"type": "no_bet"}
DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def DRAW_REVEALS(card: str) -> dict:  # noqa: N802
    return {"type": "draw", "reveals": card}


def table_doc(players: int, towers: dict[int, tuple[list[int], list[tuple[int, int]]]]) -> dict:
    """A table: towers by position as (plays, tokens)."""
    return {"players": [{"name": f"P{p}"} for p in range(players)],
            "towers": [{"style": STYLES[t], "plays": towers.get(t, ([], []))[0],
                        "tokens": [{"player": p, "value": v} for p, v in towers.get(t, ([], []))[1]]}
                       for t in range(5)]}
