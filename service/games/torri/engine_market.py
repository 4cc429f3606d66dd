"""The market's actions and every draw: Purchase (T-ACT-PURCHASE-1..4) and Exchange (T-ACT-EXCHANGE-1..4), a
draw from a deck or the market (T-TURN-4, T-NOB-DRAW), the early stop of Via Francigena's draws, and the market
refilled after an action that drew (T-MKT-1), with the cards the caller names when the deck is unknown
(T-SVC-REFILL)."""
from __future__ import annotations

from collections import Counter

from ..core.errors import illegal
from ..core.events import Event
from ..core.memo import memo
from ..core.turns import Events
from .cards import CARD_NAMES, card_name, is_tower_card, names
from .engine_ending import _check_main_phase, _end_turn
from .engine_whereabouts import (
    MEMO_ENTRIES,
    _deck_top_known,
    _from_hand,
    _pop_deck,
    _pop_noble_deck,
    _remaining,
    _sorted_add,
    _with_player,
    missing_cards,
)
from .messages import either, tr, tr_n
from .model import Pending, Player, State, pending_draws
from .steps import Step

MARKET_SIZE = 4  # T-MKT-1
PURCHASE_DRAWS = 2  # T-ACT-PURCHASE-1
TOWER_SOURCES = ("deck", "market")
NOBLE_DRAWERS = ("purchase", "exchange")  # T-NOB-DRAW: the only actions whose draws may take a noble
NOBLE_SOURCES = ("deck", "noble_deck", "market")  # T-NOB-DRAW: where their draws may come from


def _finish_drawing(s: State, events: Events, action: str) -> None:
    """T-MKT-1: after an action that drew, an empty market takes 4 cards from the tower deck."""
    if not s.market and s.deck_size:
        count = min(MARKET_SIZE, s.deck_size)
        if not _deck_top_known(s, count):
            # The cards turned up are not known to the service: the caller names them (T-SVC-REFILL).
            s.pending = Pending("refill", action, s.turn, left=count)
            s.to_act = s.turn
            return
        cards = tuple(_pop_deck(s, None) for _ in range(count))
        s.market = tuple(sorted(cards))
        events.append(Event({"type": "refilled", "cards": names(s.market)}))
    _end_turn(s, events)


def _draw_sources(s: State, action: str) -> tuple[str, ...]:
    if s.nobles and action in NOBLE_DRAWERS:
        return NOBLE_SOURCES  # T-NOB-DRAW
    return TOWER_SOURCES


def _drawable(s: State, sources: tuple[str, ...], excluded=(), towers_only: bool = False) -> int:
    """How many cards these sources can still give."""
    total = s.deck_size if "deck" in sources else 0
    if "noble_deck" in sources:
        total += s.noble_deck_size
    if "market" in sources:
        total += sum(1 for card in s.market
                     if card not in excluded and (not towers_only or is_tower_card(card)))
    return total


def _purchase_draws(s: State) -> int:
    deck = s.deck_size
    if deck == 1:
        return 1  # T-ACT-PURCHASE-3
    if deck >= PURCHASE_DRAWS:
        return PURCHASE_DRAWS  # (the deck alone gives them: no need to count the other sources)
    return min(PURCHASE_DRAWS, _drawable(s, _draw_sources(s, "purchase")))


def _do_purchase(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-PURCHASE-4", "purchase")
    player = s.players[s.turn]
    draws = _purchase_draws(s)
    if player.hand_size + draws > player.hand_limit:
        raise illegal("T-ACT-PURCHASE-2", "", tr("Purchase would leave {cards} cards in hand, over the limit of "
                                                 "{limit}.", cards=player.hand_size + draws, limit=player.hand_limit))
    sources = ("deck",) if s.deck_size == 1 else _draw_sources(s, "purchase")
    s.pending = pending_draws("purchase", s.turn, draws, sources)
    events.append(Event({"type": "purchase", "player": s.turn, "draws": draws}))


def _do_exchange(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-EXCHANGE-4", "exchange")
    cards = step.cards
    if len(cards) < 2:
        raise illegal("T-ACT-EXCHANGE-1", "/cards", tr("An Exchange puts 2 or more cards onto the market."))
    after, excluded, put = _exchanged(s, s.players[s.turn], cards)
    if after is None:
        raise illegal("T-ACT-EXCHANGE-1", "/cards", tr("The hand does not hold {cards}.",
                                                       cards=", ".join(names(cards))))
    sources = _draw_sources(s, "exchange")
    available = len(s.deck)
    if available < len(cards):  # (the deck's known top alone usually suffices: no need to count the rest)
        available = _drawable(s, sources, excluded)
    if available < len(cards):
        raise illegal("T-ACT-EXCHANGE-3", "", tr_n("Only {count} card could be drawn back (deck, and market cards of "
                                                   "other ranks); {needed} are needed.",
                                                   "Only {count} cards could be drawn back (deck, and market cards of "
                                                   "other ranks); {needed} are needed.", available,
                                                   needed=len(cards)))
    player = _with_player(s, s.turn)
    player.hand, player.hidden = after
    s.market = _sorted_add(s.market, cards)
    s.pending = pending_draws("exchange", s.turn, len(cards), sources, excluded)
    events.append(Event({"type": "exchange", "player": s.turn, "cards": list(put)}))


_Exchanged = tuple[tuple[tuple[int, ...], int] | None, tuple[int, ...], tuple[str, ...]]


def _exchanged(s: State, player: Player, cards: tuple[int, ...]) -> _Exchanged:
    """What an Exchange of `cards` leaves: the (known hand, hidden count) after it, or None if the hand cannot hold
    them; the cards it may not draw back (T-ACT-EXCHANGE-2); and the cards' names."""
    if not player.hidden:
        return _known_exchange(player.hand, cards)
    return _from_hand(s, player, cards), tuple(sorted(set(cards))), tuple(names(cards))


@memo(MEMO_ENTRIES)  # (the same Exchange from the same hand recurs all over a game tree)
def _known_exchange(hand: tuple[int, ...], cards: tuple[int, ...]) -> _Exchanged:
    rest = _remaining(hand, cards)
    return (None if rest is None else (rest, 0)), tuple(sorted(set(cards))), tuple(names(cards))


def _do_draw(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    source, sources, drawer = step.source, pending.sources, pending.player  # (each read once)
    if source not in sources:
        rule = "T-ACT-PURCHASE-3" if sources == ("deck",) else (
            "T-NOB-VF" if pending.action == "via_francigena" else "T-NOB-DRAW")
        raise illegal(rule, "/from", tr("This draw may come from {sources} only.", sources=either(sources)))
    if source == "deck":
        top = s.deck
        if top and step.card is None:  # the usual draw: the deck's known top card (written out)
            card, s.deck = top[0], top[1:]
        else:
            card = _draw_from_deck(s, step.card, tower=True)
    elif source == "noble_deck":
        card = _draw_from_deck(s, step.card, tower=False)
    else:
        if step.card is None:
            raise illegal("T-TURN-4", "/card", tr("Name the market card drawn."))
        if step.card not in s.market:
            raise illegal("T-TURN-4", "/card", tr("There is no {card} in the market.", card=card_name(step.card)))
        if step.card in pending.excluded:
            raise illegal("T-ACT-EXCHANGE-2", "/card", tr("This Exchange put down a {card}, so it cannot draw one from "
                                                          "the market.", card=card_name(step.card)))
        if not is_tower_card(step.card) and pending.action not in NOBLE_DRAWERS:
            raise illegal("T-NOB-DRAW", "/card", tr("Only a Purchase or an Exchange may draw a noble."))
        card = step.card
        s.market = _remaining(s.market, (card,))  # type: ignore[assignment]
    player = _with_player(s, drawer)
    player.hand = _sorted_add(player.hand, (card,))
    events.append(Event({"type": "drew", "player": drawer, "from": source, "card": CARD_NAMES[card]}))
    left = pending.left
    if left > 1:
        s.pending = pending_draws(pending.action, drawer, left - 1, sources, pending.excluded)
    else:
        _finish_drawing(s, events, pending.action)


def _draw_from_deck(s: State, named: int | None, *, tower: bool) -> int:
    known, hidden, bottom = ((s.deck, s.deck_hidden, s.deck_bottom) if tower
                             else (s.noble_deck, s.noble_hidden, s.noble_bottom))
    if not (known or hidden or bottom):
        raise illegal("T-DRAW-SHORT" if tower else "T-NOB-DRAW", "/from",
                      tr("The deck is empty.") if tower else tr("The noble deck is empty."))
    if known:
        if named is not None and named != known[0]:
            said = {"top": card_name(known[0]), "named": card_name(named)}
            raise illegal("T-COMP-4", "/card", tr("The top card of the deck is {top}, not {named}.", **said) if tower
                          else tr("The top card of the noble deck is {top}, not {named}.", **said))
    elif hidden:
        if named is None:
            raise illegal("T-SVC-UNKNOWN", "/card",
                          tr("The deck is unknown here: name the card drawn from it.") if tower
                          else tr("The noble deck is unknown here: name the card drawn from it."))
        if is_tower_card(named) != tower or missing_cards(s)[named] <= 0:
            said = {"card": card_name(named)}
            raise illegal("T-SVC-UNKNOWN", "/card",
                          tr("No {card} can be left in the deck: every one is accounted for elsewhere.", **said)
                          if tower else
                          tr("No {card} can be left in the noble deck: every one is accounted for elsewhere.", **said))
    return _pop_deck(s, named) if tower else _pop_noble_deck(s, named)


def _stop_drawing(s: State, step: Step, events: Events) -> None:
    """T-NOB-VF: Via Francigena's draws may stop before the hand is full."""
    pending = s.pending
    assert pending is not None
    events.append(Event({"type": "stopped", "player": pending.player}))
    _finish_drawing(s, events, pending.action)


def _refill_known(s: State, count: int) -> tuple[tuple[int, ...], int]:
    """The known cards among the top `count` of the deck, and how many unknown ones lie between them."""
    unknown = min(s.deck_hidden, max(0, count - len(s.deck)))
    below = max(0, count - len(s.deck) - unknown)
    return s.deck[:count] + s.deck_bottom[:below], unknown


def _do_refill(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    problem = _refill_problem(s, step.cards, pending.left)
    if problem:
        raise illegal("T-SVC-REFILL", "/cards", problem)
    known, _ = _refill_known(s, pending.left)
    unknown = list(_remaining(step.cards, known))  # type: ignore[arg-type]
    for _ in range(pending.left):
        _pop_deck(s, unknown.pop() if (not s.deck and s.deck_hidden) else None)
    s.market = tuple(sorted(step.cards))
    events.append(Event({"type": "refilled", "cards": names(s.market)}))
    _end_turn(s, events)


def _refill_problem(s: State, cards: tuple[int, ...], count: int) -> str | None:
    if len(cards) != count:
        return tr_n("The market takes {count} card from the deck; {named} were named.",
                    "The market takes {count} cards from the deck; {named} were named.", count, named=len(cards))
    known, _ = _refill_known(s, count)
    rest = _remaining(cards, known)
    if rest is None:
        return tr("The deck's known cards {cards} must be among the cards named.", cards=", ".join(names(known)))
    missing = missing_cards(s)
    for card, n in Counter(rest).items():
        if not is_tower_card(card) or n > missing[card]:
            return tr("The deck cannot hold {number} more {card}: the rest are accounted for elsewhere.", number=n,
                      card=card_name(card))
    return None
