"""The Torri rules: which steps are legal, and what each one does.

`apply_step` and `legal_steps` are two readings of the same rules and must agree exactly; the conformance
tests hold them to it. Rule ids name the rule each check enforces.
"""
from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from functools import lru_cache
from itertools import combinations, product
from typing import Callable

from ..core.errors import IllegalStepError, InvalidStateError, Problem, illegal
from ..core.turns import Handler, Stage, Turns
from .cards import (
    BUONA_PIETRA,
    CAPPELLA,
    CONSPIRACY,
    CONTRACT,
    GIOSTRA,
    GUARD,
    INCOME,
    MONUMENTO,
    MURA,
    NOBLE_COUNTS,
    PALAZZO,
    RANKS,
    TOWER_COUNTS,
    TRADE,
    VIA_FRANCIGENA,
    card_name,
    is_tower_card,
    names,
)
from .model import ENDING, MAIN, OVER, PLAIN, Pending, Player, PlayerDraft, State, Tower
from .steps import Step
from .towers import (
    LOWEST_STANDIN,
    MIN_HEIGHT,
    contradicted_field,
    extended,
    extension_fits,
    interpretations,
    read_tower,
    shape_rule,
)

MARKET_SIZE = 4  # T-MKT-1
PURCHASE_DRAWS = 2  # T-ACT-PURCHASE-1
CLOSE_MIN_COMPLETE = 4  # T-ACT-CLOSE-1
TOWER_SOURCES = ("deck", "market")
NOBLE_SOURCES = ("deck", "noble_deck", "market")  # T-NOB-DRAW: Purchase and Exchange only
ACTION_NOBLES = (VIA_FRANCIGENA, MONUMENTO, CAPPELLA, PALAZZO, MURA)  # T-NOB-PLAY
DECK_NOBLES = (VIA_FRANCIGENA, PALAZZO)  # T-END-3: they touch a deck
PALAZZO_COST = 2  # T-NOB-PC

Events = list[dict]


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


def nobles_used(player: Player) -> int:
    """T-NOB-LIMIT: nobles in the played row plus every Buona Pietra standing in a tower."""
    return len(player.played) + sum(tower.cards.count(BUONA_PIETRA) for tower in player.towers)


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
    those cards (T-COMP-4, T-SVC-UNKNOWN). None if the hand cannot hold them."""
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
    """Player `index` of `state` (a working copy) as a working copy too, for changing."""
    player = state.players[index]
    if type(player) is not PlayerDraft:
        player = player.draft()
        state.players = (player, state.players[1]) if index == 0 else (state.players[0], player)
    return player


def _sorted_add(hand: tuple[int, ...], cards) -> tuple[int, ...]:
    return tuple(sorted(hand + tuple(cards)))


# ---------------------------------------------------------------- decks

def _deck_top_known(state: State, count: int) -> bool:
    """Whether the top `count` cards of the tower deck are known."""
    return count <= len(state.deck) or state.deck_hidden == 0


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


def _pop_noble_deck(state: State, named: int | None) -> int:
    if state.noble_deck:
        card = state.noble_deck[0]
        state.noble_deck = state.noble_deck[1:]
    elif state.noble_hidden:
        card = named
        state.noble_hidden -= 1
        if not state.noble_hidden:
            state.noble_deck, state.noble_bottom = state.noble_bottom, ()
    else:
        card = state.noble_bottom[0]
        state.noble_bottom = state.noble_bottom[1:]
    return card  # type: ignore[return-value]


def _to_bottom(state: State, card: int) -> None:
    """A card to the bottom of its own deck (the Guard's 5, T-DON-5; Palazzo's cost, T-NOB-PC)."""
    if is_tower_card(card):
        if state.deck_hidden:
            state.deck_bottom = state.deck_bottom + (card,)
        else:
            state.deck = state.deck + (card,)
    elif state.noble_hidden:
        state.noble_bottom = state.noble_bottom + (card,)
    else:
        state.noble_deck = state.noble_deck + (card,)


# ---------------------------------------------------------------- apply

def apply_step(state: State, step: Step) -> tuple[State, Events]:
    """The state after one step, and what happened; raises IllegalStepError naming the rule broken."""
    if (step.card is not None and step.type == "draw") or step.kind is not None or step.rank is not None:
        step = canonical_step(state, step)
    return TURNS.apply_step(state, step)


def canonical_step(state: State, step: Step) -> Step:
    """The one spelling of a step that legal_steps lists. A step may say what the state or its cards already say,
    and is then the same step without it (a wrong value still makes it illegal):
    - a draw may name the card it expects on top of a known deck (a referee confirming it);
    - a build may give `kind`/`rank` that its cards alone settle (they are listed only when Buona Pietra makes
      the cards ambiguous), and an extension those of the tower it extends (T-ACT-BUILD-2, T-ACT-EXTEND-1)."""
    if step.type == "draw" and step.card is not None:
        top = state.deck[:1] if step.source == "deck" else state.noble_deck[:1] if step.source == "noble_deck" else ()
        if top and top[0] == step.card:
            return step._replace(card=None)
    elif step.type == "build" and (step.kind is not None or step.rank is not None):
        readings = interpretations(step.cards)
        if len(readings) == 1 and contradicted_field(readings, step.kind, step.rank) is None:
            return step._replace(kind=None, rank=None)
    elif step.type == "extend" and (step.kind is not None or step.rank is not None):
        towers = state.players[state.turn].towers
        tower = towers[step.tower] if step.tower is not None and step.tower < len(towers) else None
        if tower is not None and contradicted_field(((tower.kind, tower.rank),), step.kind, step.rank) is None:
            return step._replace(kind=None, rank=None)
    return step


def _describe_pending(pending: Pending) -> str:
    plural = "s" if pending.left != 1 else ""
    return {
        "draw": f"{pending.left} more draw{plural}",
        "guard": f"player {pending.target[0] if pending.target else 1 - pending.player} to guard or decline",
        "target": "the Conspiracy's target",
        "take": f"the {pending.left} card{plural} the Trade takes",
        "give": f"the {pending.left} card{plural} the Trade gives back",
        "refill": f"the {pending.left} card{plural} turned up to refill the market",
        "giostra": f"player {1 - pending.player} to play Giostra or decline",
        "rebuild": "the builder to play the remaining cards or stop",
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
        events.append({"type": "refilled", "cards": names(s.market)})
    _end_turn(s, events)


def _check_main_phase(s: State, rule: str, what: str) -> None:
    if s.phase != MAIN:
        raise illegal(rule, "/type", f"{what} is not allowed in the Ending phase.")


def _draw_sources(s: State, action: str) -> tuple[str, ...]:
    if s.nobles and action in ("purchase", "exchange"):
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
    if s.deck_size == 1:
        return 1  # T-ACT-PURCHASE-3
    return min(PURCHASE_DRAWS, _drawable(s, _draw_sources(s, "purchase")))


def _do_purchase(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-PURCHASE-4", "Purchase")
    player = s.players[s.turn]
    draws = _purchase_draws(s)
    if player.hand_size + draws > player.hand_limit:
        raise illegal("T-ACT-PURCHASE-2", "", f"Purchase would leave {player.hand_size + draws} cards in hand, "
                                              f"over the limit of {player.hand_limit}.")
    sources = ("deck",) if s.deck_size == 1 else _draw_sources(s, "purchase")
    s.pending = Pending("draw", "purchase", s.turn, left=draws, sources=sources)
    events.append({"type": "purchase", "player": s.turn, "draws": draws})


def _do_exchange(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-EXCHANGE-4", "Exchange")
    cards = step.cards
    if len(cards) < 2:
        raise illegal("T-ACT-EXCHANGE-1", "/cards", "An Exchange puts 2 or more cards onto the market.")
    after = _from_hand(s, s.players[s.turn], cards)
    if after is None:
        raise illegal("T-ACT-EXCHANGE-1", "/cards", f"The hand does not hold {', '.join(names(cards))}.")
    excluded = tuple(sorted(set(cards)))
    sources = _draw_sources(s, "exchange")
    available = s.deck_size
    if available < len(cards):  # (the deck alone usually suffices: no need to count the market)
        available = _drawable(s, sources, excluded)
    if available < len(cards):
        raise illegal("T-ACT-EXCHANGE-3", "", f"Only {available} cards could be drawn back (deck, and market cards of "
                                              f"other ranks); {len(cards)} are needed.")
    player = _with_player(s, s.turn)
    player.hand, player.hidden = after
    s.market = _sorted_add(s.market, cards)
    s.pending = Pending("draw", "exchange", s.turn, left=len(cards), sources=sources, excluded=excluded)
    events.append({"type": "exchange", "player": s.turn, "cards": names(cards)})


def _do_draw(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    source = step.source
    if source not in pending.sources:
        rule = "T-ACT-PURCHASE-3" if pending.sources == ("deck",) else (
            "T-NOB-VF" if pending.action == "via_francigena" else "T-NOB-DRAW")
        raise illegal(rule, "/from", f"This draw may come from {' or '.join(pending.sources)} only.")
    if source == "deck":
        card = _draw_from_deck(s, step.card, tower=True)
    elif source == "noble_deck":
        card = _draw_from_deck(s, step.card, tower=False)
    else:
        if step.card is None:
            raise illegal("T-TURN-4", "/card", "Name the market card drawn.")
        if step.card not in s.market:
            raise illegal("T-TURN-4", "/card", f"There is no {card_name(step.card)} in the market.")
        if step.card in pending.excluded:
            raise illegal("T-ACT-EXCHANGE-2", "/card", f"This Exchange put down a {card_name(step.card)}, so it cannot "
                                                       "draw one from the market.")
        if not is_tower_card(step.card) and pending.action not in ("purchase", "exchange"):
            raise illegal("T-NOB-DRAW", "/card", "Only a Purchase or an Exchange may draw a noble.")
        card = step.card
        s.market = _remaining(s.market, (card,))  # type: ignore[assignment]
    player = _with_player(s, pending.player)
    player.hand = _sorted_add(player.hand, (card,))
    events.append({"type": "drew", "player": pending.player, "from": source, "card": card_name(card)})
    if pending.left > 1:
        s.pending = Pending(pending.type, pending.action, pending.player, pending.left - 1, pending.sources,
                            pending.excluded)
    else:
        _finish_drawing(s, events, pending.action)


def _draw_from_deck(s: State, named: int | None, *, tower: bool) -> int:
    size, known, hidden = ((s.deck_size, s.deck, s.deck_hidden) if tower
                           else (s.noble_deck_size, s.noble_deck, s.noble_hidden))
    what = "deck" if tower else "noble deck"
    pointer = "/from"
    if not size:
        raise illegal("T-DRAW-SHORT" if tower else "T-NOB-DRAW", pointer, f"The {what} is empty.")
    if known:
        if named is not None and named != known[0]:
            raise illegal("T-COMP-4", "/card", f"The top card of the {what} is {card_name(known[0])}, not "
                                               f"{card_name(named)}.")
    elif hidden:
        if named is None:
            raise illegal("T-SVC-UNKNOWN", "/card", f"The {what} is unknown here: name the card drawn from it.")
        if is_tower_card(named) != tower or missing_cards(s)[named] <= 0:
            raise illegal("T-SVC-UNKNOWN", "/card", f"No {card_name(named)} can be left in the {what}: every one is "
                                                    "accounted for elsewhere.")
    return _pop_deck(s, named) if tower else _pop_noble_deck(s, named)


def _do_stop(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    if pending.type == "rebuild":  # T-NOB-GIOSTRA: the remaining cards stay in hand
        events.append({"type": "took_back", "player": pending.player, "cards": names(pending.cards)})
        _end_turn(s, events)
        return
    events.append({"type": "stopped", "player": pending.player})  # T-NOB-VF
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


# ---------------------------------------------------------------- building

def _check_tower_play(s: State, player_index: int, cards: tuple[int, ...], height: int) -> None:
    """Rules every build or extension obeys beyond its shape: the noble limit for Buona Pietra (T-NOB-LIMIT)
    and an opponent's Palazzo Comunale (T-NOB-PC)."""
    stones = cards.count(BUONA_PIETRA)
    if stones:
        me, other = s.players[player_index], s.players[1 - player_index]
        if nobles_used(me) + stones > nobles_used(other) + 1:
            raise illegal("T-NOB-LIMIT", "/cards",
                          f"Playing {stones} Buona Pietra would make {nobles_used(me) + stones} "
                          f"nobles used against the opponent's {nobles_used(other)}: at most one "
                          "more is allowed.")
    if s.palazzo is not None and s.palazzo != player_index:
        cap = max((t.height for t in s.players[s.palazzo].towers), default=0)
        if height > cap:
            raise illegal("T-NOB-PC", "/cards", f"The opponent's Palazzo Comunale caps towers at {cap} stories (their "
                                                f"tallest); this one would have {height}.")


def _planned_build(s: State, player: Player, step: Step) -> tuple[Tower, tuple[int, ...], int]:
    """The tower a build makes and the hand after it; raises on an illegal build."""
    cards = step.cards
    if len(cards) < MIN_HEIGHT:
        raise illegal("T-ACT-BUILD-1", "/cards", f"A new tower needs 3 or more cards; {len(cards)} given.")
    after = _from_hand(s, player, cards)
    if after is None:
        raise illegal("T-ACT-BUILD-1", "/cards", f"The hand does not hold {', '.join(names(cards))}.")
    options = interpretations(cards)
    if not options:
        rule = shape_rule(cards)
        message = {"T-NOB-BP": "A tower needs at least one tower card (5 to 10).",
                   "T-ACT-BUILD-3": f"{'-'.join(names(cards))} is not colorful: stories must descend one rank at "
                                    "a time from the bottom.",
                   }.get(rule, f"{'-'.join(names(cards))} is neither plain (one rank) nor colorful.")
        raise illegal(rule, "/cards", message)
    if len(options) > 1 and (step.kind is None or step.rank is None):
        raise illegal("T-NOB-BP", "/cards",
                      "These cards make more than one tower: say which with \"kind\" and \"rank\" ("
          + ", ".join(f"{k} {r}" for k, r in options) + ").")
    tower = read_tower(cards, False, step.kind, step.rank)  # kind/rank may always be given, if they agree
    if tower is None:
        wrong = contradicted_field(options, step.kind, step.rank) or "kind"
        readings = " or ".join(f"{kind} {rank}" for kind, rank in options)
        raise illegal("T-ACT-BUILD-2", f"/{wrong}",
                      f"\"{wrong}\" does not match the cards {'-'.join(names(cards))}: they make "
                      f"a {readings}.")
    _check_tower_play(s, s.turn, cards, tower.height)
    return tower, after[0], after[1]


def _do_build(s: State, step: Step, events: Events) -> None:
    tower, hand, hidden = _planned_build(s, s.players[s.turn], step)
    stones = step.cards.count(BUONA_PIETRA)
    if stones and _offer_giostra(s, s.turn, stones, events):
        s.pending = Pending("giostra", "build", s.turn, cards=step.cards, kind=step.kind, rank=step.rank)
        return
    _build(s, tower, hand, hidden, events)


def _build(s: State, tower: Tower, hand: tuple[int, ...], hidden: int, events: Events) -> None:
    builder = s.turn
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
    height = tower.height  # T-NOB-BP: a Buona Pietra counts as the tower's rank
    if tower.rank == INCOME:  # T-DON-8
        draws = min(height, _drawable(s, TOWER_SOURCES, towers_only=True))  # T-DRAW-SHORT
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


def _own_incomplete(s: State, index: int | None, rule: str, pointer: str) -> Tower:
    towers = s.players[s.turn].towers
    if index is None or index >= len(towers):
        raise illegal(rule, pointer, f"Player {s.turn} has no tower {index} (towers 0 to {len(towers) - 1}).")
    tower = towers[index]
    if tower.complete:
        raise illegal("T-ACT-COMPLETE-1", pointer,
                      f"Tower {index} is complete: it cannot be extended or completed again.")
    return tower


def _planned_extension(s: State, step: Step) -> tuple[Tower, tuple[int, ...], int]:
    tower = _own_incomplete(s, step.tower, "T-ACT-EXTEND-1", "/tower")
    wrong = contradicted_field(((tower.kind, tower.rank),), step.kind, step.rank)  # an extension keeps both
    if wrong is not None:
        raise illegal("T-ACT-EXTEND-1", f"/{wrong}",
                      f"Tower {step.tower} is {tower.kind} {tower.rank}; the extension names its "
                      f"\"{wrong}\" as {getattr(step, wrong)}.")
    cards = step.cards
    if not cards:
        raise illegal("T-ACT-EXTEND-1", "/cards", "An extension adds 1 or more cards.")
    after = _from_hand(s, s.players[s.turn], cards)
    if after is None:
        raise illegal("T-ACT-EXTEND-1", "/cards", f"The hand does not hold {', '.join(names(cards))}.")
    if not extension_fits(tower, cards):
        wanted = f"more {tower.rank}s" if tower.kind == PLAIN else f"{tower.top - 1} and below, in order"
        raise illegal("T-ACT-EXTEND-1", "/cards",
                      f"Tower {step.tower} takes {wanted}; {'-'.join(names(cards))} does not fit.")
    _check_tower_play(s, s.turn, cards, tower.height + len(cards))
    return extended(tower, cards), after[0], after[1]


def _do_extend(s: State, step: Step, events: Events) -> None:
    tower, hand, hidden = _planned_extension(s, step)
    stones = step.cards.count(BUONA_PIETRA)
    if stones and _offer_giostra(s, s.turn, stones, events):
        s.pending = Pending("giostra", "extend", s.turn, cards=step.cards, tower=step.tower)
        return
    _extend(s, step.tower, tower, hand, hidden, step.cards, events)  # type: ignore[arg-type]


def _extend(s: State, index: int, tower: Tower, hand: tuple[int, ...], hidden: int, cards: tuple[int, ...],
            events: Events) -> None:
    player = _with_player(s, s.turn)
    player.hand, player.hidden = hand, hidden
    towers = list(player.towers)
    towers[index] = tower
    player.towers = tuple(towers)
    events.append({"type": "extended", "player": s.turn, "tower": index, "cards": names(cards)})
    _update_marker(s, s.turn, events)  # T-ACT-EXTEND-3
    draws = 0
    if s.phase == MAIN:  # T-ACT-EXTEND-2, T-END-2, T-DRAW-SHORT
        draws = min(len(cards), _drawable(s, TOWER_SOURCES, towers_only=True))
    if draws:
        s.pending = Pending("draw", "extend", s.turn, left=draws, sources=TOWER_SOURCES)
    else:
        _end_turn(s, events)


def _update_marker(s: State, player: int, events: Events) -> None:
    """T-HIGH-2 (T-SVC-MARKER): a tower of the acting player taller than every other tower takes the marker."""
    tallest = max(tower.height for tower in s.players[player].towers)
    at_least = sum(1 for p in s.players for tower in p.towers if tower.height >= tallest)
    if at_least == 1 and s.highest != player:  # T-HIGH-4: a tie never moves it
        s.highest = player
        events.append({"type": "marker", "player": player, "height": tallest})


# ---------------------------------------------------------------- Donazione

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
        _trade_give(s, builder, height - 1, events)  # T-SVC-EMPTY


def _trade_give(s: State, builder: int, owed: int, events: Events) -> None:
    give = min(owed, s.players[builder].hand_size)  # T-DON-9 ruling: all of them if fewer
    if give:
        s.pending = Pending("give", "trade", builder, left=give)
        s.to_act = builder
    else:
        _end_turn(s, events)  # T-SVC-EMPTY


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
    # T-DON-10: face up on top of the deck, the lowest rank on top; Buona Pietra to the noble deck's top.
    tower_cards = tuple(sorted(card for card in tower.cards if is_tower_card(card)))
    stones = tuple(card for card in tower.cards if not is_tower_card(card))
    s.deck = tower_cards + s.deck
    if stones:
        s.noble_deck = stones + s.noble_deck
    events.append({"type": "destroyed", "player": owner, "tower": index, "cards": names(tower.cards)})
    _end_turn(s, events)  # T-HIGH-3: the marker stays where it is


def _do_target(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.built is not None
    candidates = conspiracy_candidates(s, pending.player, pending.built, pending.left)
    target = (step.player, step.tower)
    if target not in candidates:
        listed = ", ".join(f"player {p} tower {t}" for p, t in candidates)
        raise illegal("T-DON-10", "/tower", f"The Conspiracy may target only the tallest eligible towers: {listed}.")
    _aim_conspiracy(s, pending.player, target, events)  # type: ignore[arg-type]


def _do_guard(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.target is not None
    guarder = pending.target[0]
    after = _from_hand(s, s.players[guarder], (GUARD,))
    if after is None:
        raise illegal("T-DON-5", "/type", "Guarding takes a 5 from hand, and this hand holds none.")
    player = _with_player(s, guarder)
    player.hand, player.hidden = after
    _to_bottom(s, GUARD)  # T-DON-5: the 5 goes to the bottom of the deck
    events.append({"type": "guarded", "player": guarder, "effect": pending.action})
    _end_turn(s, events)


def _do_decline(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    s.to_act = s.turn
    if pending.type == "giostra":
        events.append({"type": "declined", "player": 1 - pending.player})
        _resolve_noble(s, pending, events)
        return
    assert pending.target is not None
    events.append({"type": "declined", "player": pending.target[0]})
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
            raise illegal("T-DON-9", "/positions", "The opponent's hand is not known here: name the cards taken.")
        if len(step.cards) != pending.left:
            raise illegal("T-DON-9", "/cards", f"The Trade takes {pending.left} cards; {len(step.cards)} named.")
        after = _from_hand(s, victim, step.cards)
        if after is None:
            raise illegal("T-SVC-UNKNOWN", "/cards", f"The opponent's hand cannot hold {', '.join(names(step.cards))}.")
        taken = step.cards
        hand, hidden = after
    else:
        if step.positions is None:
            raise illegal("T-DON-9", "/cards", "The Trade takes cards at random: give their \"positions\" in the "
                                               "opponent's hand.")
        if len(step.positions) != pending.left:
            raise illegal("T-DON-9", "/positions",
                          f"The Trade takes {pending.left} cards; {len(step.positions)} positions "
                          "given.")
        if step.positions and step.positions[-1] >= len(victim.hand):
            raise illegal("T-SVC-HAND", "/positions", f"The opponent's hand has positions 0 to {len(victim.hand) - 1}.")
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
        raise illegal("T-DON-9", "/cards", f"The Trade gives back {pending.left} cards; {len(step.cards)} named.")
    after = _from_hand(s, s.players[builder], step.cards)
    if after is None:
        raise illegal("T-DON-9", "/cards", f"The hand does not hold {', '.join(names(step.cards))}.")
    giver = _with_player(s, builder)
    giver.hand, giver.hidden = after
    taker = _with_player(s, 1 - builder)
    taker.hand = _sorted_add(taker.hand, step.cards)
    events.append({"type": "gave", "player": builder, "to": 1 - builder, "cards": names(step.cards)})
    _end_turn(s, events)


# ---------------------------------------------------------------- other actions

def _do_complete(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-COMPLETE-2", "Completing towers")
    if not step.towers:
        raise illegal("T-ACT-COMPLETE-1", "/towers", "Name one or more towers to complete.")
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
        raise illegal("T-ACT-CLOSE-1", "", f"Close needs at least {CLOSE_MIN_COMPLETE} complete towers; player "
                                           f"{s.turn} has {complete}.")
    s.phase = ENDING
    s.closed_by = s.turn
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


# ---------------------------------------------------------------- nobles (T-NOB)

def _palazzo_fizzles(s: State, owner: int) -> bool:
    """T-NOB-PC: the opponent already has a tower taller than all of the owner's towers."""
    mine = max((t.height for t in s.players[owner].towers), default=0)
    return any(t.height > mine for t in s.players[1 - owner].towers)


def _do_noble(s: State, step: Step, events: Events) -> None:
    card = step.card
    me = s.turn
    if not s.nobles:
        raise illegal("T-COMP-2", "/card", "Nobles are only in the advanced game (variant.nobles).")
    if card not in ACTION_NOBLES:
        rule = "T-NOB-BP" if card == BUONA_PIETRA else "T-NOB-GIOSTRA" if card == GIOSTRA else "T-NOB-PLAY"
        raise illegal(rule, "/card", f"{card_name(card)} is not played as an action" + (
                       " (Buona Pietra is a story of a build or extension; Giostra answers the opponent's noble)."
                       if card in (BUONA_PIETRA, GIOSTRA) else "."))
    if s.phase != MAIN and card in DECK_NOBLES:
        raise illegal("T-END-3", "/card",
                      f"{card_name(card)} touches a deck, so it cannot be played in the Ending phase.")
    after = _from_hand(s, s.players[me], (card,))
    if after is None:
        raise illegal("T-NOB-PLAY", "/card", f"The hand does not hold {card_name(card)}.")
    cost = step.cost or ()
    fizzles = card == PALAZZO and _palazzo_fizzles(s, me)
    if card == PALAZZO:
        if len(cost) not in ((0, PALAZZO_COST) if fizzles else (PALAZZO_COST,)):
            raise illegal("T-NOB-PC", "/cost", "Palazzo Comunale costs 2 cards from hand" + (
                           " (optional here, 0 or 2: it will have no lasting effect)." if fizzles else "."))
        # Card and cost are taken from the hand together, so an unknown hand cannot pay with the Palazzo itself.
        after_cost = _from_hand(s, s.players[me], (card, *cost))
        if after_cost is None:
            raise illegal("T-NOB-PC", "/cost", f"The hand does not hold {', '.join(names(cost))} besides the Palazzo.")
        after = after_cost
    elif cost:
        raise illegal("T-NOB-PLAY", "/cost", f"Only Palazzo Comunale has a cost; {card_name(card)} takes none.")
    used, theirs = nobles_used(s.players[me]), nobles_used(s.players[1 - me])
    if not fizzles and used + 1 > theirs + 1:
        raise illegal("T-NOB-LIMIT", "/card", f"Player {me} has used {used} nobles and the opponent {theirs}: another "
                                              "would be more than one ahead.")
    player = _with_player(s, me)
    player.hand, player.hidden = after
    for paid in cost:
        _to_bottom(s, paid)  # T-NOB-PC: each to the bottom of its own deck
    if fizzles:
        s.removed = s.removed + (PALAZZO,)
    else:
        player.played = player.played + (card,)
        if card == PALAZZO:
            s.palazzo = me  # T-NOB-PC (a Giostra may still cancel it)
    events.append({"type": "noble", "player": me, "card": card_name(card), "cost": names(cost),
                   **({"fizzled": True} if fizzles else {})})
    # The card is already in the played row (or, fizzled, out of the game): nothing more to count (T-NOB-LIMIT).
    if _offer_giostra(s, me, 0, events):
        s.pending = Pending("giostra", card_name(card), me, cards=(card,))
        return
    _resolve_noble(s, Pending("giostra", card_name(card), me, cards=(card,)), events)


def _offer_giostra(s: State, actor: int, counted: int, events: Events) -> bool:
    """T-NOB-GIOSTRA: the opponent may answer a noble with Giostra if they could hold it and T-NOB-LIMIT allows
    it, counting the actor's card(s) as used. Opens the window (to_act = the opponent) when so."""
    if not s.nobles or not _giostra_allowed(s, actor, counted):
        return False
    s.to_act = 1 - actor
    return True


def _giostra_allowed(s: State, actor: int, counted: int) -> bool:
    reactor = s.players[1 - actor]
    if _from_hand(s, reactor, (GIOSTRA,)) is None:
        return False
    return nobles_used(reactor) + 1 <= nobles_used(s.players[actor]) + counted + 1  # T-NOB-LIMIT


def _window_counted(pending: Pending) -> int:
    """Nobles of the answered move not yet counted as used: the Buona Pietra still in the builder's hand."""
    return pending.cards.count(BUONA_PIETRA) if pending.action in ("build", "extend") else 0


def _do_giostra(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    actor, reactor = pending.player, 1 - pending.player
    if not _giostra_allowed(s, actor, _window_counted(pending)):
        raise illegal("T-NOB-GIOSTRA", "/type", "Giostra must come from hand, within the noble limit (T-NOB-LIMIT).")
    after = _from_hand(s, s.players[reactor], (GIOSTRA,))
    assert after is not None
    answering = _with_player(s, reactor)
    answering.hand, answering.hidden = after
    answering.played = answering.played + (GIOSTRA,)
    s.to_act = actor
    events.append({"type": "giostra", "player": reactor, "against": pending.action})
    if pending.action in ("build", "extend"):
        # One Buona Pietra of the move is removed; the builder rebuilds with the rest or takes them back.
        owner = _with_player(s, actor)
        stone = _from_hand(s, owner, (BUONA_PIETRA,))
        assert stone is not None
        owner.hand, owner.hidden = stone
        s.removed = s.removed + (BUONA_PIETRA,)
        rest = list(pending.cards)
        rest.remove(BUONA_PIETRA)
        s.pending = Pending("rebuild", pending.action, actor, cards=tuple(sorted(rest)), tower=pending.tower)
        return
    card = pending.cards[0]
    owner = _with_player(s, actor)
    if owner.played and owner.played[-1] == card:  # (a fizzled Palazzo is already out of the game)
        owner.played = owner.played[:-1]
        s.removed = s.removed + (card,)
    if card == PALAZZO and s.palazzo == actor:
        s.palazzo = None
    events.append({"type": "cancelled", "player": actor, "card": card_name(card)})
    _end_turn(s, events)  # the noble was the turn's action


def _resolve_noble(s: State, pending: Pending, events: Events) -> None:
    """The noble's effect, once no Giostra answered it."""
    me = pending.player
    if pending.action == "build":
        tower, hand, hidden = _planned_build(s, s.players[me], Step("build", cards=pending.cards, kind=pending.kind,
                                                                    rank=pending.rank))
        _build(s, tower, hand, hidden, events)
        return
    if pending.action == "extend":
        step = Step("extend", cards=pending.cards, tower=pending.tower)
        tower, hand, hidden = _planned_extension(s, step)
        _extend(s, pending.tower, tower, hand, hidden, pending.cards, events)  # type: ignore[arg-type]
        return
    card = pending.cards[0]
    if card == VIA_FRANCIGENA:  # T-NOB-VF
        player = s.players[me]
        draws = min(player.hand_limit - player.hand_size, s.deck_size + s.noble_deck_size)
        if draws > 0:
            s.pending = Pending("draw", "via_francigena", me, left=draws, sources=("deck", "noble_deck"))
            s.to_act = me
            return
        _finish_drawing(s, events, "via_francigena")
        return
    # Palazzo is already active (set when played); Monumento, Cappella (scored at the end) and Mura (hand limit)
    # act through the played row.
    _end_turn(s, events)


def _do_rebuild(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    if step.type != pending.action:
        raise illegal("T-NOB-GIOSTRA", "/type",
                      f"After Giostra the builder may only {pending.action} with the remaining "
                      "cards, or stop.")
    if tuple(sorted(step.cards)) != pending.cards:
        raise illegal("T-NOB-GIOSTRA", "/cards", f"The remaining cards are {', '.join(names(pending.cards))}: the "
                                                 f"{pending.action} uses exactly those.")
    if step.type == "extend" and step.tower != pending.tower:
        raise illegal("T-NOB-GIOSTRA", "/tower", f"The extension goes on tower {pending.tower}.")
    s.pending = None
    if step.type == "build":
        tower, hand, hidden = _planned_build(s, s.players[s.turn], step)
        _build(s, tower, hand, hidden, events)
    else:
        tower, hand, hidden = _planned_extension(s, step)
        _extend(s, step.tower, tower, hand, hidden, step.cards, events)  # type: ignore[arg-type]


def _on_copy(handler: Callable[[State, Step, Events], None], *, action: bool = False) -> Handler:
    """A handler that writes a working copy of the state (model.Draft: Torri's rules are written as changes),
    frozen once the step is done. An action other than a pass ends a run of passes (T-TURN-3)."""
    def run(state: State, step: Step, events: Events) -> State:
        s = state.draft()
        if action and step.type != "pass":
            s.passes = 0
        handler(s, step, events)
        return s.freeze()
    return run


def _game_over(state: State) -> Problem | None:
    if state.phase == OVER:
        return Problem("T-TURN-3", "", "The game is over: both players passed in a row, so no move is possible.")
    return None


def _stage_of(state: State) -> str:
    """T-TURN-1: with nothing pending the player chooses an action; T-TURN-2: else the pending decision, by type
    (a Via Francigena's draws may stop early: T-NOB-VF)."""
    pending = state.pending
    if pending is None:
        return ACTION
    return VIA_DRAW if pending.type == "draw" and pending.action == "via_francigena" else pending.type


def _choose_an_action(state: State, step: Step) -> str:
    return f"No decision is pending, so a \"{step.type}\" step cannot be played: the player must choose an action."


def _decide(kinds: tuple[str, ...]) -> Callable[[State, Step], str]:
    def refusal(state: State, step: Step) -> str:
        pending = state.pending
        assert pending is not None
        return (f"The {pending.action} is waiting for {_describe_pending(pending)}; expected a {' or '.join(kinds)} "
                f"step, not \"{step.type}\".")
    return refusal


def _pending(**handlers: Callable[[State, Step, Events], None]) -> Stage:
    on_copy = {kind: _on_copy(handler) for kind, handler in handlers.items()}
    return Stage(on_copy, "T-TURN-2", _decide(tuple(handlers)))


ACTION, VIA_DRAW = "action", "draw, with Via Francigena"
TURNS = Turns(stage_of=_stage_of, game_over=_game_over, stages={
    ACTION: Stage({kind: _on_copy(handler, action=True) for kind, handler in {
        "purchase": _do_purchase, "exchange": _do_exchange, "build": _do_build, "extend": _do_extend,
        "complete": _do_complete, "close": _do_close, "pass": _do_pass, "noble": _do_noble}.items()},
        "T-TURN-1", _choose_an_action),
    "draw": _pending(draw=_do_draw),
    VIA_DRAW: _pending(draw=_do_draw, stop=_do_stop),
    "guard": _pending(guard=_do_guard, decline=_do_decline),
    "target": _pending(target=_do_target),
    "take": _pending(take=_do_take),
    "give": _pending(give=_do_give),
    "refill": _pending(refill=_do_refill),
    "giostra": _pending(giostra=_do_giostra, decline=_do_decline),
    "rebuild": _pending(build=_do_rebuild, extend=_do_rebuild, stop=_do_stop),
})


# ---------------------------------------------------------------- legal steps

_BUDGET: ContextVar[list[int] | None] = ContextVar("torri_legal_budget", default=None)


class TooManyStepsError(InvalidStateError):
    """The legal list would be longer than the caller allowed (T-SVC-LIST): with unknown hands the choices
    multiply."""


def legal_steps(state: State, *, limit: int | None = None) -> list[Step]:
    """Every step `apply_step` accepts in `state`, each once, in a stable order. With `limit`, raises
    TooManyStepsError as soon as more than `limit` candidates have been looked at or listed."""
    if limit is None and _BUDGET.get() is None:  # the common case: no budget to set up
        return _list_steps(state)
    token = _BUDGET.set([limit] if limit is not None else None)
    try:
        steps = _list_steps(state)
    finally:
        _BUDGET.reset(token)
    if limit is not None and len(steps) > limit:
        _too_many(limit)
    return steps


def _list_steps(state: State) -> list[Step]:
    if state.phase == OVER:
        return []
    if state.pending is None:
        return _legal_actions(state)
    return _LEGAL_PENDING[state.pending.type](state, state.pending)


def _spend(count: int = 1) -> None:
    """Counts enumeration work where unknown cards can make it explode."""
    budget = _BUDGET.get()
    if budget is not None:
        budget[0] -= count
        if budget[0] < 0:
            _too_many(None)


def _too_many(limit: int | None) -> None:
    raise TooManyStepsError(Problem("T-SVC-LIST", "/state", "This position has too many legal steps to list "
                                                           "(unknown hands multiply the choices); name more of "
                                                           "the cards, or ask with a player's view."))


def _accepted(state: State, candidates) -> list[Step]:
    """The candidates apply_step accepts (for the rarer noble decisions, where listing by rule would repeat
    every check)."""
    out = []
    for step in candidates:
        _spend()
        try:
            apply_step(state, step)
        except IllegalStepError:
            continue
        out.append(step)
    return out


_PURCHASE, _CLOSE, _PASS = Step("purchase"), Step("close"), Step("pass")


def _legal_actions(s: State) -> list[Step]:
    player = s.players[s.turn]
    steps: list[Step] = []
    main = s.phase == MAIN
    if main and player.hand_size + _purchase_draws(s) <= player.hand_limit:
        steps.append(_PURCHASE)
    if player.hidden:
        known, hidden, could = _hand_capacity(s, player)
        if main:
            steps.extend(_legal_exchanges(s, known, hidden, could))
    else:
        # A known hand (the common case): the options depend on few inputs, so they are memoised.
        known, hidden, could = Counter(player.hand), 0, Counter()
        if main:
            decks = s.deck_size + (s.noble_deck_size if s.nobles else 0)
            if decks >= len(player.hand):  # the decks alone can give back any Exchange: the market is moot
                steps.extend(_known_exchanges(player.hand, (), len(player.hand)))
            else:
                steps.extend(_known_exchanges(player.hand, s.market, decks))
    if known[BUONA_PIETRA] or could[BUONA_PIETRA]:
        steps.extend(_accepted(s, _tower_candidates(s, player, known, hidden, could)))
    else:
        if hidden:
            steps.extend(_legal_builds(known, hidden, could))
        else:
            steps.extend(_known_builds(tuple(card for card in player.hand if is_tower_card(card))))
        if player.towers:
            steps.extend(_legal_extensions(player, known, hidden, could))
    if s.nobles:
        steps.extend(_legal_nobles(s, player, known, hidden, could))
    if s.palazzo is not None and s.palazzo != s.turn:
        steps = [step for step in steps if step.type not in ("build", "extend") or _within_palazzo(s, step)]
    incomplete = [i for i, tower in enumerate(player.towers) if not tower.complete]
    if main:
        for size in range(1, len(incomplete) + 1):
            for chosen in combinations(incomplete, size):
                steps.append(Step("complete", towers=chosen))
        if len(player.towers) - len(incomplete) >= CLOSE_MIN_COMPLETE:
            steps.append(_CLOSE)
    steps.append(_PASS)
    return steps


def _within_palazzo(s: State, step: Step) -> bool:
    cap = max((t.height for t in s.players[s.palazzo].towers), default=0)  # type: ignore[index]
    height = len(step.cards)
    if step.type == "extend":
        height += s.players[s.turn].towers[step.tower].height  # type: ignore[index]
    return height <= cap


@lru_cache(maxsize=4096)
def _known_builds(hand: tuple[int, ...]) -> tuple[Step, ...]:
    return tuple(_legal_builds(Counter(hand), 0, Counter()))


@lru_cache(maxsize=65536)
def _known_exchanges(hand: tuple[int, ...], market: tuple[int, ...], deck: int) -> tuple[Step, ...]:
    """T-ACT-EXCHANGE-1..3 for a known hand; `deck` is the deck size capped at the hand size (all that matters)."""
    counts = Counter(hand)
    cards = sorted(counts)
    in_market = Counter(market)
    steps: list[tuple[int, tuple[int, ...]]] = []
    for chosen in product(*(range(counts[card] + 1) for card in cards)):
        size = sum(chosen)
        if size < 2:
            continue
        put = tuple(card for card, n in zip(cards, chosen) for _ in range(n))
        available = deck + len(market) - sum(in_market[card] for card, n in zip(cards, chosen) if n)
        if available >= size:
            steps.append((size, put))
    steps.sort()
    return tuple(Step("exchange", cards=put) for _, put in steps)


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


def _tower_candidates(s: State, player: Player, known: Counter, hidden: int, could: Counter) -> list[Step]:
    """Builds and extensions when Buona Pietra may be among the cards (T-NOB-BP): every arrangement of the
    cards the hand can supply, each spelled as apply_step wants it (kind/rank only when ambiguous)."""
    caps = {card: _capacity(known, hidden, could, card) for card in RANKS + (BUONA_PIETRA,)}
    steps = _build_steps(_build_candidates(caps))
    for index, tower in enumerate(player.towers):
        if not tower.complete:
            steps.extend(Step("extend", tower=index, cards=added) for added in _extension_candidates(tower, caps))
    return steps


def _build_steps(candidates) -> list[Step]:
    steps: list[Step] = []
    for cards in candidates:
        options = interpretations(cards)
        if len(options) == 1:
            steps.append(Step("build", cards=cards))
        else:
            steps.extend(Step("build", cards=cards, kind=kind, rank=rank) for kind, rank in options)
    return steps


def _build_candidates(caps: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    return _stacks(tuple(caps[card] for card in RANKS), caps[BUONA_PIETRA])


@lru_cache(maxsize=4096)
def _stacks(counts: tuple[int, ...], stones: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct stack of 3+ cards, with counts[i] cards of rank RANKS[i] and `stones` Buona Pietra at most,
    that is plain or colorful with Buona Pietra standing in (T-ACT-BUILD-2/3, T-NOB-BP)."""
    caps = dict(zip(RANKS, counts))
    found: dict[tuple[int, ...], None] = {}
    for rank in RANKS:  # plain: any mix of the rank and stones, at least one tower card
        if not caps[rank]:
            continue
        for height in range(MIN_HEIGHT, caps[rank] + stones + 1):
            for positions in _stone_positions(height, min(stones, height - 1)):
                if height - len(positions) <= caps[rank]:
                    found[tuple(BUONA_PIETRA if i in positions else rank for i in range(height))] = None

    def colorful(rank: int, stack: tuple[int, ...], stones_left: int, real: bool) -> None:
        if len(stack) >= MIN_HEIGHT and real:
            found[stack] = None
        if rank < LOWEST_STANDIN:
            return
        if 5 <= rank <= 10 and caps[rank]:
            colorful(rank - 1, stack + (rank,), stones_left, True)
        if stones_left:
            colorful(rank - 1, stack + (BUONA_PIETRA,), stones_left - 1, real)

    for bottom in range(11, LOWEST_STANDIN + MIN_HEIGHT - 2, -1):  # colorful: each story the card or a stone
        if bottom == 11:
            if stones:  # 11 exists only as a stand-in (T-NOB-BP)
                colorful(10, (BUONA_PIETRA,), stones - 1, False)
        else:
            if caps[bottom]:
                colorful(bottom - 1, (bottom,), stones, True)
            if stones:
                colorful(bottom - 1, (BUONA_PIETRA,), stones - 1, False)
    return tuple(found)


def _stone_positions(height: int, most: int):
    for count in range(0, most + 1):
        for positions in combinations(range(height), count):
            yield set(positions)


def _extension_candidates(tower: Tower, caps: dict[int, int]):
    stones = caps[BUONA_PIETRA]
    if tower.kind == PLAIN:
        for length in range(1, caps[tower.rank] + stones + 1):
            for choice in product((tower.rank, BUONA_PIETRA), repeat=length):
                if choice.count(BUONA_PIETRA) <= stones and choice.count(tower.rank) <= caps[tower.rank]:
                    yield choice
        return
    wanted = []
    rank = tower.top - 1
    while rank >= LOWEST_STANDIN:
        wanted.append(rank)
        rank -= 1
    for length in range(1, len(wanted) + 1):
        for choice in product((False, True), repeat=length):
            cards = tuple(BUONA_PIETRA if stone else r for r, stone in zip(wanted, choice))
            if any(not stone and not 5 <= r <= 10 for r, stone in zip(wanted, choice)):
                continue
            need = Counter(cards)
            if all(need[c] <= caps[c] for c in need):
                yield cards


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
    sources = _draw_sources(s, "exchange")
    steps: list[Step] = []
    for size in range(2, total + 1):  # T-ACT-EXCHANGE-1
        for cards in _multisets(caps, size):
            _spend()
            if hidden and not _fits(Counter(cards), known, hidden, could):
                continue
            if _drawable(s, sources, set(cards)) >= size:  # T-ACT-EXCHANGE-3
                steps.append(Step("exchange", cards=cards))
    return steps


def _legal_nobles(s: State, player: Player, known: Counter, hidden: int, could: Counter) -> list[Step]:
    candidates: list[Step] = []
    for card in ACTION_NOBLES:
        if not _capacity(known, hidden, could, card):
            continue
        if card != PALAZZO:
            candidates.append(Step("noble", card=card, cost=()))
            continue
        rest = known.copy()
        rest[PALAZZO] -= 1
        caps = [(c, _capacity(rest, hidden, could, c)) for c in sorted(set(rest) | set(could))]
        candidates.append(Step("noble", card=card, cost=()))
        for cost in _multisets([c for c in caps if c[1] > 0], PALAZZO_COST):
            candidates.append(Step("noble", card=card, cost=cost))
    return _accepted(s, candidates)


_DECK_DRAW = Step("draw", source="deck")
_NOBLE_DRAW = Step("draw", source="noble_deck")
_STOP = Step("stop")


def _legal_draws(s: State, pending: Pending) -> list[Step]:
    steps: list[Step] = []
    if "deck" in pending.sources and s.deck_size:
        if s.deck or not s.deck_hidden:
            steps.append(_DECK_DRAW)
        else:
            missing = missing_cards(s)
            steps.extend(Step("draw", source="deck", card=rank) for rank in RANKS if missing[rank] > 0)
    if "noble_deck" in pending.sources and s.noble_deck_size:
        if s.noble_deck or not s.noble_hidden:
            steps.append(_NOBLE_DRAW)
        else:
            missing = missing_cards(s)
            steps.extend(Step("draw", source="noble_deck", card=card) for card in sorted(NOBLE_COUNTS)
                         if missing[card] > 0)
    towers_only = pending.action not in ("purchase", "exchange")
    steps.extend(_market_draws(s.market, pending.excluded, "market" in pending.sources, towers_only))
    if pending.action == "via_francigena":
        steps.append(_STOP)
    return steps


@lru_cache(maxsize=8192)
def _market_draws(market: tuple[int, ...], excluded: tuple[int, ...], allowed: bool,
                  towers_only: bool) -> tuple[Step, ...]:
    if not allowed:
        return ()
    return tuple(Step("draw", source="market", card=card) for card in sorted(set(market))
                 if card not in excluded and (not towers_only or is_tower_card(card)))


def _legal_guard(s: State, pending: Pending) -> list[Step]:
    assert pending.target is not None
    steps = [Step("decline")]
    if _from_hand(s, s.players[pending.target[0]], (GUARD,)) is not None:
        steps.insert(0, Step("guard"))
    return steps


def _legal_giostra(s: State, pending: Pending) -> list[Step]:
    steps = [Step("decline")]
    if _giostra_allowed(s, pending.player, _window_counted(pending)):
        steps.insert(0, Step("giostra"))
    return steps


def _legal_rebuild(s: State, pending: Pending) -> list[Step]:
    player = s.players[pending.player]
    need = Counter(pending.cards)
    caps = {card: need[card] for card in RANKS + (BUONA_PIETRA,)}
    if pending.action == "extend":
        tower = player.towers[pending.tower]  # type: ignore[index]
        candidates = [Step("extend", tower=pending.tower, cards=cards) for cards in _extension_candidates(tower, caps)
                      if Counter(cards) == need]
    else:
        candidates = _build_steps(cards for cards in _build_candidates(caps) if Counter(cards) == need)
    return _accepted(s, candidates) + [_STOP]


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
    found = []
    for cards in _multisets([c for c in caps if c[1] > 0], size):
        _spend()
        if not hidden or _fits(Counter(cards), known, hidden, could):
            found.append(cards)
    return found


def _legal_refills(s: State, pending: Pending) -> list[Step]:
    known, unknown = _refill_known(s, pending.left)
    missing = missing_cards(s)
    caps = [(rank, missing[rank]) for rank in RANKS if missing[rank] > 0]
    steps = []
    for rest in _multisets(caps, unknown):
        _spend()
        steps.append(Step("refill", cards=tuple(sorted(known + rest))))
    return steps


_LEGAL_PENDING = {
    "draw": _legal_draws,
    "guard": _legal_guard,
    "target": _legal_targets,
    "take": _legal_takes,
    "give": _legal_gives,
    "refill": _legal_refills,
    "giostra": _legal_giostra,
    "rebuild": _legal_rebuild,
}
