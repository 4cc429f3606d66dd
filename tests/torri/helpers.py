"""Small builders for writing Torri states and steps tersely in the per-rule tests.

`state_dict(...)` takes the parts of a position a test cares about and fills in the rest so that the state is
a valid one: every one of the 45 tower cards (T-COMP-1) lies somewhere exactly once (T-COMP-4). Cards not
placed by the caller go, in a fixed order (ascending rank), to the bottom of the deck (`fill="deck"`, the
default; the caller chooses the deck's top with `deck_top`) or onto the market (`fill="market"`, for an
Ending-phase position whose deck is empty). In the advanced game the unplaced nobles go to the noble deck.

Unless the caller sets `market`, a main-phase position with nothing pending gets the 4 highest cards left over
as its market (a real one is never empty between turns: T-MKT-1); pass `market=[]` for none.

Towers may be written as in the notation of api.md: `"8x3"` (plain 8 of height 3), `"9-7"` (colorful 9-8-7),
a trailing `*` for a complete tower, a list of card names, or a full tower dict.

If `highest` is not given, the holder of the tallest tower (player 0 on a tie) holds the marker, or nobody if
no tower stands.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from service.games import torri

TOWER_SET = Counter({str(rank): rank for rank in range(5, 11)})  # T-COMP-1: 5x"5", 6x"6", ..., 10x"10"
NOBLE_SET = Counter({"buona_pietra": 3, "via_francigena": 2, "monumento": 1, "giostra": 1, "cappella": 1,
                     "palazzo": 1, "mura": 1})
_ORDER = [str(rank) for rank in range(5, 11)] + list(NOBLE_SET)
_UNSET: Any = object()


def cards(*items: Any) -> list[str]:
    """Card names from ints, names, or "8x3"-style runs: cards(5, "8x3") == ["5", "8", "8", "8"]."""
    out: list[str] = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.extend(cards(*item))
        elif isinstance(item, str) and "x" in item:
            rank, count = item.split("x")
            out.extend([rank] * int(count))
        else:
            out.append(str(item))
    return out


def tower(spec: Any) -> dict:
    """A tower dict from "8x3", "9-7", "10x3*", a list of cards, or a dict."""
    if isinstance(spec, dict):
        out = dict(spec)
        out["cards"] = cards(out["cards"])
        return out
    if isinstance(spec, (list, tuple)):
        return {"cards": cards(spec), "complete": False}
    complete = spec.endswith("*")
    spec = spec.rstrip("*")
    if "x" in spec:
        stack = cards(spec)
    elif "-" in spec:
        top, bottom = (int(part) for part in spec.split("-"))
        stack = [str(rank) for rank in range(top, bottom - 1, -1)]
    else:
        raise ValueError(f"not a tower: {spec!r}")
    return {"cards": stack, "complete": complete}


def _pile_cards(pile: Any) -> list[str]:
    if isinstance(pile, dict):
        return list(pile.get("known", [])) + list(pile.get("top", [])) + list(pile.get("bottom", []))
    return list(pile)


def state_dict(*, hands: Any = ([], []), towers: Any = ([], []), market: Iterable | None = None, deck: Any = None,
               deck_top: Iterable = (), fill: str = "deck", phase: str = "main", turn: int = 0,
               to_act: Any = _UNSET, passes: int = 0, highest: Any = _UNSET, pending: dict | None = None,
               nobles: bool = False, played: Any = ([], []), noble_deck: Any = None, removed: Iterable = (),
               palazzo: int | None = None, names: tuple[str, str] = ("Adso", "William")) -> dict:
    """A full state document; see the module docstring."""
    hands = [h if isinstance(h, dict) else cards(h) for h in hands]
    tower_dicts = [[tower(t) for t in ts] for ts in towers]
    default_market = market is None
    market = cards(list(market or []))
    deck_top = cards(list(deck_top))
    if isinstance(deck, (list, tuple)):
        deck = cards(list(deck))
    placed: Counter = Counter()
    for hand in hands:
        placed.update(_pile_cards(hand))
    for ts in tower_dicts:
        for t in ts:
            placed.update(t["cards"])
    for row in played:
        placed.update(row)
    placed.update(market)
    placed.update(removed)
    placed.update(deck_top)
    if deck is not None:
        placed.update(_pile_cards(deck))
    if noble_deck is not None:
        placed.update(_pile_cards(noble_deck))
    hidden = sum(p["count"] - len(_pile_cards(p)) for p in list(hands) + [deck]
                 if isinstance(p, dict))
    full = TOWER_SET + (NOBLE_SET if nobles else Counter())
    left = full - placed
    over = placed - full
    if not hidden:  # (a base-game state may hold a stray noble on purpose: the T-COMP-2 tests)
        assert all(c in NOBLE_SET and not nobles for c in over), f"more cards placed than the game has: {over}"
    rest_towers = [c for c in _ORDER[:6] for _ in range(left[c])]
    rest_nobles = [c for c in _ORDER[6:] for _ in range(left[c])]
    if hidden:  # unknown cards stand for some of the rest: the caller placed the deck or hands knowingly
        rest_towers = []
    if default_market and fill == "deck" and phase == "main" and not pending:
        # T-MKT-1: between turns of the main phase the market is never empty; take the 4 highest cards left
        market, rest_towers = rest_towers[-4:], rest_towers[:-4]
    if deck is None:
        deck_value: Any = deck_top + (rest_towers if fill == "deck" else [])
    else:
        assert not deck_top, "give deck or deck_top, not both"
        deck_value = deck
    if fill == "market":
        market = market + rest_towers
    elif deck is not None and rest_towers:
        raise AssertionError(f"cards left over with an explicit deck: {rest_towers}; use fill='market'")
    if highest is _UNSET:
        tallest = [max((len(t["cards"]) for t in ts), default=0) for ts in tower_dicts]
        highest = None if not any(tallest) else (0 if tallest[0] >= tallest[1] else 1)
    doc: dict = {
        "game": "torri",
        "variant": {"nobles": nobles},
        "phase": phase,
        "turn": turn,
        "to_act": (None if phase == "over" else (pending_to_act(pending) if pending else turn))
        if to_act is _UNSET else to_act,
        "passes": passes,
        "highest": highest,
        "deck": deck_value,
        "market": market,
        "players": [{"name": names[i], "hand": hands[i], "towers": tower_dicts[i], "played": list(played[i])}
                    for i in range(2)],
        "pending": pending,
    }
    if nobles:
        if noble_deck is None:
            doc["noble_deck"] = rest_nobles
        elif isinstance(noble_deck, list):
            doc["noble_deck"] = list(noble_deck) + rest_nobles
        else:
            doc["noble_deck"] = noble_deck
        doc["removed"] = list(removed)
        doc["palazzo"] = palazzo
    return doc


def pending_to_act(pending: dict) -> int:
    if pending["type"] == "guard":
        return pending["target"]["player"]
    if pending["type"] == "giostra":
        return 1 - pending["player"]
    return pending["player"]


def make(**kwargs: Any) -> torri.State:
    """A checked State (read_state raises if the position is impossible)."""
    return torri.read_state(state_dict(**kwargs))


def errors(doc: dict) -> list:
    """The validation errors of a state document."""
    return torri.validate_state(doc)[0]


def error_rules(doc: dict) -> set:
    return {p.rule for p in errors(doc)}


def play(state: torri.State, *steps: dict) -> torri.Outcome:
    """Apply steps that must all be legal; returns the Outcome."""
    outcome = torri.apply_steps(state, list(steps))
    assert outcome.legal, f"illegal at {outcome.failed_at}: {outcome.violations}"
    return outcome


def refused(state: torri.State, *steps: dict) -> torri.Outcome:
    """Apply steps whose last one must be illegal (the others legal); returns the Outcome."""
    outcome = torri.apply_steps(state, list(steps))
    assert not outcome.legal, "expected the last step to be illegal"
    assert outcome.failed_at == len(steps) - 1, f"failed early at {outcome.failed_at}: {outcome.violations}"
    return outcome


def rule_of(outcome: torri.Outcome) -> str:
    assert len(outcome.violations) == 1, outcome.violations
    return outcome.violations[0].rule


def js(state: torri.State) -> dict:
    return torri.state_json(state)


def hand(state: torri.State, player: int) -> list[str]:
    return js(state)["players"][player]["hand"]


def towers_of(state: torri.State, player: int) -> list[dict]:
    return js(state)["players"][player]["towers"]


def event_types(outcome: torri.Outcome) -> list[str]:
    return [event["type"] for event in outcome.events]


def events_of(outcome: torri.Outcome, kind: str) -> list[dict]:
    return [event for event in outcome.events if event["type"] == kind]


def moves(state: torri.State) -> list[dict]:
    return torri.legal_moves(state)


def move_types(state: torri.State) -> set[str]:
    return {move["type"] for move in torri.legal_moves(state)}


def conserved(state: torri.State) -> bool:
    """T-COMP-4 on a fully known base-game state: exactly the 45 tower cards."""
    doc = js(state)
    seen = Counter(doc["deck"]) + Counter(doc["market"])
    for player in doc["players"]:
        seen.update(player["hand"])
        for t in player["towers"]:
            seen.update(t["cards"])
    return seen == TOWER_SET


# Steps
PURCHASE = {"type": "purchase"}
PASS = {"type": "pass"}
CLOSE = {"type": "close"}
DECK = {"type": "draw", "from": "deck"}
GUARD = {"type": "guard"}
DECLINE = {"type": "decline"}
STOP = {"type": "stop"}


def market(card: Any) -> dict:
    return {"type": "draw", "from": "market", "card": str(card)}


def deck(card: Any) -> dict:
    """A draw naming the card that came off an unknown deck (T-SVC-UNKNOWN)."""
    return {"type": "draw", "from": "deck", "card": str(card)}


def build(*items: Any, **extra: Any) -> dict:
    return {"type": "build", "cards": cards(*items), **extra}


def extend(index: int, *items: Any, **extra: Any) -> dict:
    return {"type": "extend", "tower": index, "cards": cards(*items), **extra}


def exchange(*items: Any) -> dict:
    return {"type": "exchange", "cards": cards(*items)}


def complete(*indices: int) -> dict:
    return {"type": "complete", "towers": list(indices)}


def take(*positions: int) -> dict:
    return {"type": "take", "positions": list(positions)}


def take_cards(*items: Any) -> dict:
    return {"type": "take", "cards": cards(*items)}


def give(*items: Any) -> dict:
    return {"type": "give", "cards": cards(*items)}


def target(player: int, index: int) -> dict:
    return {"type": "target", "player": player, "tower": index}


def refill(*items: Any) -> dict:
    return {"type": "refill", "cards": cards(*items)}


def noble(card: str, cost: list | None = None) -> dict:
    step: dict = {"type": "noble", "card": card}
    if cost is not None:
        step["cost"] = cost
    return step


# ---------------------------------------------------------------- advanced game (nobles)

BP = "buona_pietra"
VF = "via_francigena"
GIOSTRA = {"type": "giostra"}
NOBLE_DECK = {"type": "draw", "from": "noble_deck"}
ALL_CARDS = TOWER_SET + NOBLE_SET  # T-COMP-1 and T-COMP-2: the 55 cards of the advanced game
NOBLE_PLACES = ("noble_deck", "market", "hands", "towers", "played", "removed")


def noble_deck(card: Any) -> dict:
    """A draw naming the noble that came off an unknown noble deck (T-SVC-UNKNOWN)."""
    return {"type": "draw", "from": "noble_deck", "card": str(card)}


def card_places(state: torri.State) -> dict[str, Counter]:
    """Where the known cards of a state lie, by place (T-COMP-4): deck, noble_deck, market, hands, towers, played,
    removed."""
    doc = js(state)

    def pile(value: Any) -> list[str]:
        return value if isinstance(value, list) else _pile_cards(value)

    places = {"deck": Counter(pile(doc["deck"])), "noble_deck": Counter(pile(doc.get("noble_deck", []))),
              "market": Counter(doc["market"]), "hands": Counter(), "towers": Counter(), "played": Counter(),
              "removed": Counter(doc.get("removed", []))}
    for player in doc["players"]:
        places["hands"].update(pile(player["hand"]))
        places["played"].update(player["played"])
        for t in player["towers"]:
            places["towers"].update(t["cards"])
    return places


def all_cards(state: torri.State) -> Counter:
    """Every known card of a state, wherever it lies."""
    total: Counter = Counter()
    for counts in card_places(state).values():
        total.update(counts)
    return total


def conserved_with_nobles(state: torri.State) -> bool:
    """T-COMP-4 on a fully known advanced-game state: exactly the 45 tower cards and the 10 nobles."""
    return all_cards(state) == ALL_CARDS


def noble_places(state: torri.State) -> dict[str, int]:
    """How many nobles lie in each place a noble may be (T-COMP-4): noble deck, market, hands, towers (Buona Pietra
    only), played rows, removed from the game."""
    places = card_places(state)
    return {place: sum(n for card, n in places[place].items() if card in NOBLE_SET) for place in NOBLE_PLACES}
