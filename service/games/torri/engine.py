"""The Torri rules: which steps are legal, and what each one does.

`apply_step` and `legal_steps` are two readings of the same rules and must agree exactly; the conformance
tests hold them to it. Rule ids name the rule each check enforces.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from .cards import (CONSPIRACY, CONTRACT, GUARD, INCOME, NOBLE_COUNTS, RANKS, TOWER_COUNTS, TRADE,
                    card_name, is_tower_card, names)
from .errors import IllegalStepError, Problem
from .model import ENDING, MAIN, OVER, PLAIN, Pending, Player, State, Tower
from .steps import Step
from .towers import MIN_HEIGHT, extended, extension_fits, interpretations, read_tower

MARKET_SIZE = 4  # T-MKT-1
PURCHASE_DRAWS = 2  # T-ACT-PURCHASE-1
CLOSE_MIN_COMPLETE = 4  # T-ACT-CLOSE-1
TOWER_SOURCES = ("deck", "market")

Events = list[dict]


def _fail(rule: str, message: str, pointer: str = "") -> IllegalStepError:
    return IllegalStepError(Problem(rule, pointer, message))


# ---------------------------------------------------------------- what is where (T-COMP-4, unknown cards)

def missing_cards(state: State) -> Counter:
    """Cards not seen in any known place: what the unknown slots (hidden deck, hidden hands) hold."""
    seen = Counter(state.deck)
    seen.update(state.deck_bottom)
    seen.update(state.market)
    seen.update(state.noble_deck)
    seen.update(state.noble_bottom)
    seen.update(state.removed)
    for player in state.players:
        seen.update(player.hand)
        seen.update(player.played)
        for tower in player.towers:
            seen.update(tower.cards)
    full = Counter(TOWER_COUNTS)
    if state.nobles:
        full.update(NOBLE_COUNTS)
    full.subtract(seen)
    return full


def _remaining(hand: tuple[int, ...], cards) -> tuple[int, ...] | None:
    """The hand without `cards`, or None if the hand does not hold them all."""
    rest = list(hand)
    try:
        for card in cards:
            rest.remove(card)
    except ValueError:
        return None
    return tuple(rest)


def _from_hand(state: State, player: Player, cards) -> tuple[tuple[int, ...], int] | None:
    """(known hand, hidden count) after playing `cards`: known cards first, then unknown ones that could be
    those cards (T-COMP-4). None if the hand cannot hold them."""
    if not player.hidden:
        rest = _remaining(player.hand, cards)
        return None if rest is None else (rest, 0)
    rest = list(player.hand)
    unknown: Counter = Counter()
    for card in cards:
        if card in rest:
            rest.remove(card)
        else:
            unknown[card] += 1
    used = sum(unknown.values())
    if used > player.hidden:
        return None
    if used:
        missing = missing_cards(state)
        if any(count > missing[card] for card, count in unknown.items()):
            return None
    return tuple(rest), player.hidden - used


def _hand_capacity(state: State, player: Player) -> tuple[Counter, int, Counter]:
    """(known counts, hidden slots, how many of each card the hidden slots could hold)."""
    known = Counter(player.hand)
    if not player.hidden:
        return known, 0, Counter()
    missing = missing_cards(state)
    return known, player.hidden, Counter({card: min(n, player.hidden) for card, n in missing.items() if n > 0})


def _fits(need: Counter, known: Counter, hidden: int, could: Counter) -> bool:
    extra = 0
    for card, count in need.items():
        over = count - known[card]
        if over > 0:
            if over > could[card]:
                return False
            extra += over
    return extra <= hidden


def _with_player(state: State, index: int) -> Player:
    """Replace player `index` of `state` (a working copy) by a copy, and return it for changing."""
    player = state.players[index].copy()
    state.players = (player, state.players[1]) if index == 0 else (state.players[0], player)
    return player


def _sorted_add(hand: tuple[int, ...], cards) -> tuple[int, ...]:
    return tuple(sorted(hand + tuple(cards)))


# ---------------------------------------------------------------- deck

def _deck_top_known(state: State, count: int) -> bool:
    """Whether the top `count` cards of the deck are known."""
    if count <= len(state.deck):
        return True
    return state.deck_hidden == 0


def _pop_deck(state: State, named: int | None) -> int:
    if state.deck:
        card = state.deck[0]
        state.deck = state.deck[1:]
    elif state.deck_hidden:
        card = named  # checked by the caller
        state.deck_hidden -= 1
        if not state.deck_hidden:
            state.deck, state.deck_bottom = state.deck_bottom, ()
    else:
        card = state.deck_bottom[0]
        state.deck_bottom = state.deck_bottom[1:]
    return card  # type: ignore[return-value]


def _deck_to_bottom(state: State, card: int) -> None:
    if state.deck_hidden:
        state.deck_bottom = state.deck_bottom + (card,)
    else:
        state.deck = state.deck + (card,)


# ---------------------------------------------------------------- apply

def apply_step(state: State, step: Step) -> tuple[State, Events]:
    """The state after one step, and what happened; raises IllegalStepError naming the rule broken."""
    if state.phase == OVER:
        raise _fail("T-TURN-3", "The game is over: both players passed in a row, so no move is possible.")
    pending = state.pending
    s = state.copy()
    events: Events = []
    if pending is None:
        handler = _ACTIONS.get(step.type)
        if handler is None:
            raise _fail("T-TURN-1", f"No decision is pending, so a \"{step.type}\" step cannot be played: "
                                    "the player must choose an action.", "/type")
        if step.type != "pass":
            s.passes = 0
        handler(s, step, events)
    else:
        allowed = _PENDING_STEPS[pending.type]
        if step.type not in allowed:
            raise _fail("T-TURN-2", f"The {pending.action} is waiting for {_describe_pending(pending)}; "
                                    f"expected a {' or '.join(allowed)} step, not \"{step.type}\".", "/type")
        allowed[step.type](s, step, events)
    return s, events


def _describe_pending(pending: Pending) -> str:
    return {
        "draw": f"{pending.left} more draw{'s' if pending.left != 1 else ''}",
        "guard": f"player {pending.target[0] if pending.target else 1 - pending.player} to guard or decline",
        "target": "the Conspiracy's target",
        "take": f"the {pending.left} card{'s' if pending.left != 1 else ''} the Trade takes",
        "give": f"the {pending.left} card{'s' if pending.left != 1 else ''} the Trade gives back",
        "refill": f"the {pending.left} card{'s' if pending.left != 1 else ''} turned up to refill the market",
    }[pending.type]


def _end_turn(s: State, events: Events) -> None:
    """The action is over: T-END-1 check, then the other player's turn."""
    s.pending = None
    if s.phase == MAIN and s.deck_size == 0:
        s.phase = ENDING
        events.append({"type": "phase", "phase": ENDING, "reason": "deck_empty"})
    s.turn = 1 - s.turn
    s.to_act = s.turn
    events.append({"type": "turn", "player": s.turn})


def _finish_drawing(s: State, events: Events) -> None:
    """T-MKT-1: after an action that drew, an empty market takes 4 cards from the deck."""
    if not s.market and s.deck_size:
        count = min(MARKET_SIZE, s.deck_size)
        if not _deck_top_known(s, count):
            # The cards turned up are not known to the service: the caller names them (a `refill` step).
            action = s.pending.action if s.pending else "draw"
            s.pending = Pending("refill", action, s.turn, left=count)
            s.to_act = s.turn
            return
        cards = tuple(_pop_deck(s, None) for _ in range(count))
        s.market = tuple(sorted(cards))
        events.append({"type": "refilled", "cards": names(s.market)})
    _end_turn(s, events)


def _check_main_phase(s: State, rule: str, what: str) -> None:
    if s.phase != MAIN:
        raise _fail(rule, f"{what} is not allowed in the Ending phase.", "/type")


def _purchase_draws(s: State) -> int:
    if s.deck_size == 1:
        return 1  # T-ACT-PURCHASE-3
    return min(PURCHASE_DRAWS, s.deck_size + len(s.market))


def _do_purchase(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-PURCHASE-4", "Purchase")
    player = s.players[s.turn]
    draws = _purchase_draws(s)
    if player.hand_size + draws > player.hand_limit:
        raise _fail("T-ACT-PURCHASE-2", f"Purchase would leave {player.hand_size + draws} cards in hand, "
                                        f"over the limit of {player.hand_limit}.")
    sources = ("deck",) if s.deck_size == 1 else TOWER_SOURCES
    s.pending = Pending("draw", "purchase", s.turn, left=draws, sources=sources)
    events.append({"type": "purchase", "player": s.turn, "draws": draws})


def _exchange_available(s: State, excluded) -> int:
    return s.deck_size + sum(1 for card in s.market if card not in excluded)


def _do_exchange(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-EXCHANGE-4", "Exchange")
    cards = step.cards
    if len(cards) < 2:
        raise _fail("T-ACT-EXCHANGE-1", "An Exchange puts 2 or more cards onto the market.", "/cards")
    player = s.players[s.turn]
    after = _from_hand(s, player, cards)
    if after is None:
        raise _fail("T-ACT-EXCHANGE-1", f"The hand does not hold {', '.join(names(cards))}.", "/cards")
    excluded = tuple(sorted(set(cards)))
    if _exchange_available(s, excluded) < len(cards):
        raise _fail("T-ACT-EXCHANGE-3", f"Only {_exchange_available(s, excluded)} cards could be drawn back "
                                        f"(deck, and market cards of other ranks); {len(cards)} are needed.")
    player = _with_player(s, s.turn)
    player.hand, player.hidden = after
    s.market = _sorted_add(s.market, cards)
    s.pending = Pending("draw", "exchange", s.turn, left=len(cards), sources=TOWER_SOURCES, excluded=excluded)
    events.append({"type": "exchange", "player": s.turn, "cards": names(cards)})


def _do_draw(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    source = step.source
    if source not in pending.sources:
        rule = "T-ACT-PURCHASE-3" if pending.sources == ("deck",) else "T-NOB-DRAW"
        raise _fail(rule, f"This draw may come from {' or '.join(pending.sources)} only.", "/from")
    if source == "deck":
        if not s.deck_size:
            raise _fail("T-DRAW-SHORT", "The deck is empty.", "/from")
        if s.deck:
            top = s.deck[0]
            if step.card is not None and step.card != top:
                raise _fail("T-COMP-4", f"The top card of the deck is {card_name(top)}, not "
                                        f"{card_name(step.card)}.", "/card")
        else:
            if step.card is None:
                raise _fail("T-TURN-4", "The deck is unknown here: name the card drawn from it.", "/card")
            if not is_tower_card(step.card) or missing_cards(s)[step.card] <= 0:
                raise _fail("T-COMP-4", f"No {card_name(step.card)} can be left in the deck: every one is "
                                        "accounted for elsewhere.", "/card")
        card = _pop_deck(s, step.card)
    else:  # market
        if step.card is None:
            raise _fail("T-TURN-4", "Name the market card drawn.", "/card")
        if step.card not in s.market:
            raise _fail("T-TURN-4", f"There is no {card_name(step.card)} in the market.", "/card")
        if step.card in pending.excluded:
            raise _fail("T-ACT-EXCHANGE-2", f"This Exchange put down a {card_name(step.card)}, so it cannot "
                                            "draw one from the market.", "/card")
        card = step.card
        s.market = _remaining(s.market, (card,))  # type: ignore[assignment]
    player = _with_player(s, pending.player)
    player.hand = _sorted_add(player.hand, (card,))
    events.append({"type": "drew", "player": pending.player, "from": source, "card": card_name(card)})
    if pending.left > 1:
        s.pending = Pending("draw", pending.action, pending.player, pending.left - 1, pending.sources,
                            pending.excluded)
    else:
        _finish_drawing(s, events)


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
        raise _fail("T-MKT-1", problem, "/cards")
    known, _ = _refill_known(s, pending.left)
    unknown = list(_remaining(step.cards, known))  # type: ignore[arg-type]
    for _ in range(pending.left):
        _pop_deck(s, unknown.pop() if (not s.deck and s.deck_hidden) else None)
    s.market = tuple(sorted(step.cards))
    events.append({"type": "refilled", "cards": names(s.market)})
    _end_turn(s, events)


def _refill_problem(s: State, cards: tuple[int, ...], count: int) -> str | None:
    if len(cards) != count:
        return f"The market takes {count} cards from the deck; {len(cards)} were named."
    known, _ = _refill_known(s, count)
    rest = _remaining(cards, known)
    if rest is None:
        return f"The deck's known cards {', '.join(names(known))} must be among the cards named."
    missing = missing_cards(s)
    for card, n in Counter(rest).items():
        if not is_tower_card(card) or n > missing[card]:
            return f"The deck cannot hold {n} more {card_name(card)}: the rest are accounted for elsewhere."
    return None


def _tower_problem(s: State, player: Player, step: Step) -> tuple[Tower, tuple[int, ...], int]:
    """The tower a build makes and the hand after it; raises on an illegal build."""
    cards = step.cards
    if len(cards) < MIN_HEIGHT:
        raise _fail("T-ACT-BUILD-1", f"A new tower needs 3 or more cards; {len(cards)} given.", "/cards")
    after = _from_hand(s, player, cards)
    if after is None:
        raise _fail("T-ACT-BUILD-1", f"The hand does not hold {', '.join(names(cards))}.", "/cards")
    options = interpretations(cards)
    if not options:
        if len(set(cards)) == len(cards):
            raise _fail("T-ACT-BUILD-3", f"{'-'.join(names(cards))} is not colorful: stories must descend one "
                                         "rank at a time from the bottom.", "/cards")
        raise _fail("T-ACT-BUILD-2", f"{'-'.join(names(cards))} is neither plain (one rank) nor colorful.",
                    "/cards")
    tower = read_tower(cards, False, step.kind, step.rank)
    if tower is None:
        if len(options) > 1 and step.kind is None and step.rank is None:
            raise _fail("T-NOB-BP", "These cards make more than one tower: say which with \"kind\" and "
                                    "\"rank\".", "/cards")
        raise _fail("T-ACT-BUILD-2", "\"kind\"/\"rank\" do not match the cards.", "/kind")
    if len(options) == 1 and (step.kind is not None or step.rank is not None):
        # Only an ambiguous stack takes kind/rank; a plain one is spelled one way (the legal list's way).
        raise _fail("T-ACT-BUILD-2", "\"kind\" and \"rank\" are given only when the cards alone are ambiguous.",
                    "/kind")
    return tower, after[0], after[1]


def _do_build(s: State, step: Step, events: Events) -> None:
    builder = s.turn
    tower, hand, hidden = _tower_problem(s, s.players[builder], step)
    player = _with_player(s, builder)
    player.hand, player.hidden = hand, hidden
    player.towers = player.towers + (tower,)
    index = len(player.towers) - 1
    events.append({"type": "built", "player": builder, "tower": index, "cards": names(tower.cards),
                   "kind": tower.kind, "rank": tower.rank})
    _update_marker(s, builder, events)  # T-ACT-BUILD-5: marker first, then Donazione
    if s.phase != MAIN or tower.kind != PLAIN or tower.rank not in (INCOME, TRADE, CONSPIRACY):
        _end_turn(s, events)  # T-ACT-BUILD-4, T-END-2: no Donazione
        return
    height = tower.height
    if tower.rank == INCOME:  # T-DON-8
        draws = min(height, s.deck_size + len(s.market))  # T-DRAW-SHORT
        events.append({"type": "donazione", "effect": "income", "player": builder, "draws": draws})
        if draws:
            s.pending = Pending("draw", "income", builder, left=draws, sources=TOWER_SOURCES)
        else:
            _end_turn(s, events)
    elif tower.rank == TRADE:  # T-DON-9
        events.append({"type": "donazione", "effect": "trade", "player": builder})
        _start_trade(s, builder, height, events)
    else:  # T-DON-10
        events.append({"type": "donazione", "effect": "conspiracy", "player": builder})
        _start_conspiracy(s, builder, index, height, events)


def _could_guard(s: State, player: Player) -> bool:
    """T-DON-5: a Guard window opens only if the player holds a 5 or may hold one unseen."""
    if GUARD in player.hand:
        return True
    return bool(player.hidden) and missing_cards(s)[GUARD] > 0


def _start_trade(s: State, builder: int, height: int, events: Events) -> None:
    opponent = 1 - builder
    if _could_guard(s, s.players[opponent]):
        s.pending = Pending("guard", "trade", builder, left=height, target=(opponent, -1))
        s.to_act = opponent
        return
    _trade_take(s, builder, height, events)


def _trade_take(s: State, builder: int, height: int, events: Events) -> None:
    taken = min(height, s.players[1 - builder].hand_size)
    if taken:
        s.pending = Pending("take", "trade", builder, left=taken, give=height - 1)
        s.to_act = builder
    else:
        _trade_give(s, builder, height - 1, events)


def _trade_give(s: State, builder: int, owed: int, events: Events) -> None:
    give = min(owed, s.players[builder].hand_size)  # T-DON-9 ruling: all of them if fewer
    if give:
        s.pending = Pending("give", "trade", builder, left=give)
        s.to_act = builder
    else:
        _end_turn(s, events)


def conspiracy_candidates(s: State, builder: int, built: int, height: int) -> list[tuple[int, int]]:
    """T-DON-10: the tallest incomplete towers no taller than the new one, bar plain 6s and the new one."""
    best = -1
    found: list[tuple[int, int]] = []
    for owner, player in enumerate(s.players):
        for index, tower in enumerate(player.towers):
            if tower.complete or (owner == builder and index == built):
                continue
            if tower.kind == PLAIN and tower.rank == CONTRACT:  # T-DON-6
                continue
            h = tower.height
            if h > height or h < best:
                continue
            if h > best:
                best, found = h, []
            found.append((owner, index))
    return found


def _start_conspiracy(s: State, builder: int, built: int, height: int, events: Events) -> None:
    candidates = conspiracy_candidates(s, builder, built, height)
    if not candidates:
        events.append({"type": "no_target"})
        _end_turn(s, events)
    elif len(candidates) > 1:
        s.pending = Pending("target", "conspiracy", builder, left=height, built=built)
        s.to_act = builder
    else:
        _aim_conspiracy(s, builder, candidates[0], events)


def _aim_conspiracy(s: State, builder: int, target: tuple[int, int], events: Events) -> None:
    events.append({"type": "targeted", "player": target[0], "tower": target[1]})
    if _could_guard(s, s.players[target[0]]):
        s.pending = Pending("guard", "conspiracy", builder, target=target)
        s.to_act = target[0]
    else:
        _destroy(s, target, events)


def _destroy(s: State, target: tuple[int, int], events: Events) -> None:
    owner, index = target
    player = _with_player(s, owner)
    tower = player.towers[index]
    player.towers = player.towers[:index] + player.towers[index + 1:]
    # T-DON-10: face up on top of the deck, the lowest rank on top; T-NOB-BP ruling for Buona Pietra.
    tower_cards = tuple(sorted(card for card in tower.cards if is_tower_card(card)))
    nobles = tuple(card for card in tower.cards if not is_tower_card(card))
    s.deck = tower_cards + s.deck
    if nobles:
        s.noble_deck = nobles + s.noble_deck
    events.append({"type": "destroyed", "player": owner, "tower": index, "cards": names(tower.cards)})
    _end_turn(s, events)  # T-HIGH-3: the marker stays where it is


def _do_target(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.built is not None
    candidates = conspiracy_candidates(s, pending.player, pending.built, pending.left)
    target = (step.player, step.tower)
    if target not in candidates:
        listed = ", ".join(f"player {p} tower {t}" for p, t in candidates)
        raise _fail("T-DON-10", f"The Conspiracy may target only the tallest eligible towers: {listed}.", "/tower")
    _aim_conspiracy(s, pending.player, target, events)  # type: ignore[arg-type]


def _do_guard(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.target is not None
    guarder = pending.target[0]
    after = _from_hand(s, s.players[guarder], (GUARD,))
    if after is None:
        raise _fail("T-DON-5", "Guarding takes a 5 from hand, and this hand holds none.", "/type")
    player = _with_player(s, guarder)
    player.hand, player.hidden = after
    _deck_to_bottom(s, GUARD)  # T-DON-5: the 5 goes to the bottom of the deck
    events.append({"type": "guarded", "player": guarder, "effect": pending.action})
    s.to_act = s.turn
    _end_turn(s, events)


def _do_decline(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.target is not None
    events.append({"type": "declined", "player": pending.target[0]})
    s.to_act = s.turn
    if pending.action == "trade":
        _trade_take(s, pending.player, pending.left, events)
    else:
        _destroy(s, pending.target, events)


def _do_take(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    builder, victim_index = pending.player, 1 - pending.player
    victim = s.players[victim_index]
    if victim.hidden:
        if step.positions is not None:
            raise _fail("T-DON-9", "The opponent's hand is not known here: name the cards taken.", "/positions")
        if len(step.cards) != pending.left:
            raise _fail("T-DON-9", f"The Trade takes {pending.left} cards; {len(step.cards)} named.", "/cards")
        after = _from_hand(s, victim, step.cards)
        if after is None:
            raise _fail("T-COMP-4", f"The opponent's hand cannot hold {', '.join(names(step.cards))}.", "/cards")
        taken = step.cards
        hand, hidden = after
    else:
        if step.positions is None:
            raise _fail("T-DON-9", "The Trade takes cards at random: give their \"positions\" in the "
                                   "opponent's hand.", "/cards")
        if len(step.positions) != pending.left:
            raise _fail("T-DON-9", f"The Trade takes {pending.left} cards; {len(step.positions)} positions "
                                   "given.", "/positions")
        if step.positions and step.positions[-1] >= len(victim.hand):
            raise _fail("T-DON-9", f"The opponent's hand has positions 0 to {len(victim.hand) - 1}.",
                        "/positions")
        chosen = set(step.positions)
        taken = tuple(card for i, card in enumerate(victim.hand) if i in chosen)
        hand = tuple(card for i, card in enumerate(victim.hand) if i not in chosen)
        hidden = 0
    loser = _with_player(s, victim_index)
    loser.hand, loser.hidden = hand, hidden
    winner = _with_player(s, builder)
    winner.hand = _sorted_add(winner.hand, taken)
    events.append({"type": "took", "player": builder, "from": victim_index, "cards": names(taken)})
    _trade_give(s, builder, pending.give, events)


def _do_give(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    builder = pending.player
    if len(step.cards) != pending.left:
        raise _fail("T-DON-9", f"The Trade gives back {pending.left} cards; {len(step.cards)} named.", "/cards")
    after = _from_hand(s, s.players[builder], step.cards)
    if after is None:
        raise _fail("T-DON-9", f"The hand does not hold {', '.join(names(step.cards))}.", "/cards")
    giver = _with_player(s, builder)
    giver.hand, giver.hidden = after
    taker = _with_player(s, 1 - builder)
    taker.hand = _sorted_add(taker.hand, step.cards)
    events.append({"type": "gave", "player": builder, "to": 1 - builder, "cards": names(step.cards)})
    _end_turn(s, events)


def _own_incomplete(s: State, index: int | None, rule: str, pointer: str) -> Tower:
    towers = s.players[s.turn].towers
    if index is None or index >= len(towers):
        raise _fail(rule, f"Player {s.turn} has no tower {index} (towers 0 to {len(towers) - 1}).", pointer)
    tower = towers[index]
    if tower.complete:
        raise _fail("T-ACT-COMPLETE-1", f"Tower {index} is complete: it cannot be extended or completed again.",
                    pointer)
    return tower


def _do_extend(s: State, step: Step, events: Events) -> None:
    tower = _own_incomplete(s, step.tower, "T-ACT-EXTEND-1", "/tower")
    cards = step.cards
    if not cards:
        raise _fail("T-ACT-EXTEND-1", "An extension adds 1 or more cards.", "/cards")
    after = _from_hand(s, s.players[s.turn], cards)
    if after is None:
        raise _fail("T-ACT-EXTEND-1", f"The hand does not hold {', '.join(names(cards))}.", "/cards")
    if not extension_fits(tower, cards):
        wanted = f"more {tower.rank}s" if tower.kind == PLAIN else f"{tower.top - 1} and below, in order"
        raise _fail("T-ACT-EXTEND-1", f"Tower {step.tower} takes {wanted}; {'-'.join(names(cards))} does not fit.",
                    "/cards")
    player = _with_player(s, s.turn)
    player.hand, player.hidden = after
    towers = list(player.towers)
    towers[step.tower] = extended(tower, cards)  # type: ignore[index]
    player.towers = tuple(towers)
    events.append({"type": "extended", "player": s.turn, "tower": step.tower, "cards": names(cards)})
    _update_marker(s, s.turn, events)  # T-ACT-EXTEND-3
    draws = min(len(cards), s.deck_size + len(s.market)) if s.phase == MAIN else 0  # T-ACT-EXTEND-2, T-END-2
    if draws:
        s.pending = Pending("draw", "extend", s.turn, left=draws, sources=TOWER_SOURCES)
    else:
        _end_turn(s, events)


def _do_complete(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-COMPLETE-2", "Completing towers")
    if not step.towers:
        raise _fail("T-ACT-COMPLETE-1", "Name one or more towers to complete.", "/towers")
    for i, index in enumerate(step.towers):
        _own_incomplete(s, index, "T-ACT-COMPLETE-1", f"/towers/{i}")
    player = _with_player(s, s.turn)
    chosen = set(step.towers)
    player.towers = tuple(Tower(t.cards, True, t.kind, t.rank) if i in chosen else t
                          for i, t in enumerate(player.towers))
    events.append({"type": "completed", "player": s.turn, "towers": list(step.towers)})
    _end_turn(s, events)


def _do_close(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-CLOSE-1", "Close")
    complete = sum(1 for t in s.players[s.turn].towers if t.complete)
    if complete < CLOSE_MIN_COMPLETE:
        raise _fail("T-ACT-CLOSE-1", f"Close needs at least {CLOSE_MIN_COMPLETE} complete towers; player "
                                     f"{s.turn} has {complete}.")
    s.phase = ENDING
    events.append({"type": "closed", "player": s.turn})
    events.append({"type": "phase", "phase": ENDING, "reason": "close"})
    _end_turn(s, events)


def _do_pass(s: State, step: Step, events: Events) -> None:
    s.passes += 1
    events.append({"type": "passed", "player": s.turn})
    if s.passes >= 2:  # T-TURN-3, T-END-4
        s.phase = OVER
        s.to_act = None
        events.append({"type": "game_over"})
        return
    _end_turn(s, events)


def _update_marker(s: State, player: int, events: Events) -> None:
    """T-HIGH-2: a tower of the acting player strictly taller than every other tower takes the marker."""
    tallest = max(tower.height for tower in s.players[player].towers)
    at_least = sum(1 for p in s.players for tower in p.towers if tower.height >= tallest)
    if at_least == 1 and s.highest != player:  # T-HIGH-4: a tie never moves it
        s.highest = player
        events.append({"type": "marker", "player": player, "height": tallest})


_ACTIONS = {
    "purchase": _do_purchase,
    "exchange": _do_exchange,
    "build": _do_build,
    "extend": _do_extend,
    "complete": _do_complete,
    "close": _do_close,
    "pass": _do_pass,
}
_PENDING_STEPS = {
    "draw": {"draw": _do_draw},
    "guard": {"guard": _do_guard, "decline": _do_decline},
    "target": {"target": _do_target},
    "take": {"take": _do_take},
    "give": {"give": _do_give},
    "refill": {"refill": _do_refill},
}


# ---------------------------------------------------------------- legal steps

def legal_steps(state: State) -> list[Step]:
    """Every step `apply_step` accepts in `state`, each once, in a stable order."""
    if state.phase == OVER:
        return []
    pending = state.pending
    if pending is None:
        return _legal_actions(state)
    return _LEGAL_PENDING[pending.type](state, pending)


def _legal_actions(s: State) -> list[Step]:
    player = s.players[s.turn]
    known, hidden, could = _hand_capacity(s, player)
    steps: list[Step] = []
    main = s.phase == MAIN
    if main and player.hand_size + _purchase_draws(s) <= player.hand_limit:
        steps.append(Step("purchase"))
    if main:
        steps.extend(_legal_exchanges(s, known, hidden, could))
    steps.extend(_legal_builds(known, hidden, could))
    steps.extend(_legal_extensions(player, known, hidden, could))
    incomplete = [i for i, tower in enumerate(player.towers) if not tower.complete]
    if main:
        for size in range(1, len(incomplete) + 1):
            for chosen in combinations(incomplete, size):
                steps.append(Step("complete", towers=chosen))
        if len(player.towers) - len(incomplete) >= CLOSE_MIN_COMPLETE:
            steps.append(Step("close"))
    steps.append(Step("pass"))
    return steps


def _capacity(known: Counter, hidden: int, could: Counter, card: int) -> int:
    return known[card] + (min(hidden, could[card]) if hidden else 0)


def _legal_builds(known: Counter, hidden: int, could: Counter) -> list[Step]:
    steps: list[Step] = []
    caps = {rank: _capacity(known, hidden, could, rank) for rank in RANKS}
    for rank in RANKS:  # T-ACT-BUILD-2
        for height in range(MIN_HEIGHT, caps[rank] + 1):
            if hidden and not _fits(Counter({rank: height}), known, hidden, could):
                break
            steps.append(Step("build", cards=(rank,) * height))
    for bottom in RANKS[MIN_HEIGHT - 1:]:  # T-ACT-BUILD-3: bottom rank down, one rank a story
        run: list[int] = []
        for rank in range(bottom, RANKS[0] - 1, -1):
            if not caps[rank]:
                break
            run.append(rank)
            if len(run) >= MIN_HEIGHT and (not hidden or _fits(Counter(run), known, hidden, could)):
                steps.append(Step("build", cards=tuple(run)))
    return steps


def _legal_extensions(player: Player, known: Counter, hidden: int, could: Counter) -> list[Step]:
    steps: list[Step] = []
    for index, tower in enumerate(player.towers):
        if tower.complete:
            continue
        added: list[int] = []
        wanted = tower.rank if tower.kind == PLAIN else tower.top - 1
        while wanted >= RANKS[0]:
            added.append(wanted)
            if known[wanted] + (could[wanted] if hidden else 0) < added.count(wanted) or (
                    hidden and not _fits(Counter(added), known, hidden, could)):
                break
            steps.append(Step("extend", tower=index, cards=tuple(added)))
            if tower.kind != PLAIN:
                wanted -= 1
    return steps


def _multisets(caps: list[tuple[int, int]], size: int):
    """Every multiset of `size` cards with card c at most caps[c] times, as sorted tuples."""
    if size == 0:
        yield ()
        return
    if not caps:
        return
    (card, cap), rest = caps[0], caps[1:]
    for n in range(min(cap, size), -1, -1):
        for tail in _multisets(rest, size - n):
            yield (card,) * n + tail


def _legal_exchanges(s: State, known: Counter, hidden: int, could: Counter) -> list[Step]:
    caps = sorted((card, _capacity(known, hidden, could, card)) for card in set(known) | set(could))
    caps = [(card, cap) for card, cap in caps if cap > 0]
    total = sum(known.values()) + hidden
    steps: list[Step] = []
    for size in range(2, total + 1):  # T-ACT-EXCHANGE-1
        for cards in _multisets(caps, size):
            if hidden and not _fits(Counter(cards), known, hidden, could):
                continue
            if _exchange_available(s, set(cards)) >= size:  # T-ACT-EXCHANGE-3
                steps.append(Step("exchange", cards=cards))
    return steps


def _legal_draws(s: State, pending: Pending) -> list[Step]:
    steps: list[Step] = []
    if "deck" in pending.sources and s.deck_size:
        if s.deck or not s.deck_hidden:
            steps.append(Step("draw", source="deck"))
        else:
            missing = missing_cards(s)
            steps.extend(Step("draw", source="deck", card=rank) for rank in RANKS if missing[rank] > 0)
    if "market" in pending.sources:
        for card in sorted(set(s.market)):
            if card not in pending.excluded:
                steps.append(Step("draw", source="market", card=card))
    return steps


def _legal_guard(s: State, pending: Pending) -> list[Step]:
    assert pending.target is not None
    steps = [Step("decline")]
    if _from_hand(s, s.players[pending.target[0]], (GUARD,)) is not None:
        steps.insert(0, Step("guard"))
    return steps


def _legal_targets(s: State, pending: Pending) -> list[Step]:
    assert pending.built is not None
    return [Step("target", player=owner, tower=index)
            for owner, index in conspiracy_candidates(s, pending.player, pending.built, pending.left)]


def _legal_takes(s: State, pending: Pending) -> list[Step]:
    victim = s.players[1 - pending.player]
    if not victim.hidden:
        return [Step("take", positions=chosen) for chosen in combinations(range(len(victim.hand)), pending.left)]
    return [Step("take", cards=cards) for cards in _hand_multisets(s, victim, pending.left)]


def _legal_gives(s: State, pending: Pending) -> list[Step]:
    return [Step("give", cards=cards) for cards in _hand_multisets(s, s.players[pending.player], pending.left)]


def _hand_multisets(s: State, player: Player, size: int) -> list[tuple[int, ...]]:
    known, hidden, could = _hand_capacity(s, player)
    caps = [(card, _capacity(known, hidden, could, card)) for card in sorted(set(known) | set(could))]
    return [cards for cards in _multisets([c for c in caps if c[1] > 0], size)
            if not hidden or _fits(Counter(cards), known, hidden, could)]


def _legal_refills(s: State, pending: Pending) -> list[Step]:
    known, unknown = _refill_known(s, pending.left)
    missing = missing_cards(s)
    caps = [(rank, missing[rank]) for rank in RANKS if missing[rank] > 0]
    return [Step("refill", cards=tuple(sorted(known + rest))) for rest in _multisets(caps, unknown)]


_LEGAL_PENDING = {
    "draw": _legal_draws,
    "guard": _legal_guard,
    "target": _legal_targets,
    "take": _legal_takes,
    "give": _legal_gives,
    "refill": _legal_refills,
}
