"""What is where, as the engine sees it: the cards no known place shows (what an unknown deck or hand may hold,
T-COMP-4, T-SVC-UNKNOWN), whether a hand can give up some cards, and the decks' tops and bottoms."""
from __future__ import annotations

from collections import Counter

from ..core.memo import memo
from .cards import NOBLE_COUNTS, TOWER_COUNTS, is_tower_card
from .model import Player, PlayerDraft, State


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


def _remaining(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...] | None:
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


# Entries per memo of the engine (hands, draws, exchanges): a game tree's repeats lie close together, so a recent
# window holds them. The two memos asked at nearly every node (a hand after a draw, the draws of a pending draw) keep
# DRAW_MEMO_ENTRIES: the six-step trees of three deals meet 8,000 to 10,000 of each, which then all stay. At about 450
# bytes an entry, all of the engine's memos together stay under 26 MB (16 MB with 4,096 for every memo); a server
# empties them every so many requests (core/memo.py), so a worker holds what a few hundred requests left.
MEMO_ENTRIES = 4096
DRAW_MEMO_ENTRIES = 4 * MEMO_ENTRIES


@memo(DRAW_MEMO_ENTRIES)  # (the same hands and draws recur all over a game tree)
def _sorted_add(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(hand + cards))


def _deck_top_known(state: State, count: int) -> bool:
    """Whether the top `count` cards of the tower deck are known."""
    return count <= len(state.deck) or state.deck_hidden == 0


_PILES = {"deck": ("deck", "deck_hidden", "deck_bottom"),
          "noble_deck": ("noble_deck", "noble_hidden", "noble_bottom")}  # a deck's known top, unknown, known bottom


def _pop(state: State, deck: str, named: int | None) -> int:
    """Take the top card of `deck` ("deck" or "noble_deck") from a working copy: its first known card, else
    `named` (an unknown card, checked by the caller; once none is unknown the known bottom becomes the top), else
    the first of the known bottom."""
    top_field, hidden_field, bottom_field = _PILES[deck]
    top, hidden = getattr(state, top_field), getattr(state, hidden_field)
    if top:
        setattr(state, top_field, top[1:])
        return top[0]
    if hidden:
        setattr(state, hidden_field, hidden - 1)
        if hidden == 1:
            setattr(state, top_field, getattr(state, bottom_field))
            setattr(state, bottom_field, ())
        return named  # type: ignore[return-value]
    bottom = getattr(state, bottom_field)
    setattr(state, bottom_field, bottom[1:])
    return bottom[0]


def _pop_deck(state: State, named: int | None) -> int:
    top = state.deck
    if top:  # (the common case, written out)
        state.deck = top[1:]
        return top[0]
    return _pop(state, "deck", named)


def _pop_noble_deck(state: State, named: int | None) -> int:
    return _pop(state, "noble_deck", named)


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
