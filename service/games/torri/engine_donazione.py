"""The Donazione of a plain 9 or 10, and the Guard that answers it: Trade takes cards from the opponent's hand and
gives some back (T-DON-9, T-SVC-EMPTY), Conspiracy destroys one of the tallest eligible towers (T-DON-10); a 5
from the hand of the player aimed at cancels either (T-DON-5). (Income, a plain 8's, is a build's draws.)"""
from __future__ import annotations

from ..core.errors import illegal
from ..core.events import Event
from ..core.turns import Events
from .cards import CONTRACT, GUARD, is_tower_card, names
from .engine_ending import _end_turn
from .engine_whereabouts import _from_hand, _sorted_add, _to_bottom, _with_player
from .messages import comma_listed, tr, tr_n
from .model import PLAIN, Pending, Player, State
from .steps import Step


def _could_guard(s: State, player: Player) -> bool:
    """T-DON-5: a Guard window opens only if the player holds a 5 or may hold one unseen: if guarding, which plays
    that 5 from hand, would be legal. Listing the guard asks here too."""
    return _from_hand(s, player, (GUARD,)) is not None


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
        events.append(Event({"type": "no_target"}))
        _end_turn(s, events)
    elif len(candidates) > 1:
        s.pending = Pending("target", "conspiracy", builder, left=height, built=built)
        s.to_act = builder
    else:
        _aim_conspiracy(s, builder, candidates[0], events)


def _aim_conspiracy(s: State, builder: int, target: tuple[int, int], events: Events) -> None:
    events.append(Event({"type": "targeted", "player": target[0], "tower": target[1]}))
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
    events.append(Event({"type": "destroyed", "player": owner, "tower": index, "cards": names(tower.cards)}))
    _end_turn(s, events)  # T-HIGH-3: the marker stays where it is


def _do_target(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.built is not None
    candidates = conspiracy_candidates(s, pending.player, pending.built, pending.left)
    target = (step.player, step.tower)
    if target not in candidates:
        # Translators: one of the towers a Conspiracy may target, by its owner's and its index
        listed = comma_listed(tr("player {player} tower {tower}", player=p, tower=t) for p, t in candidates)
        raise illegal("T-DON-10", "/tower", tr("The Conspiracy may target only the tallest eligible towers: {towers}.",
                                               towers=listed))
    _aim_conspiracy(s, pending.player, target, events)  # type: ignore[arg-type]


def _do_guard(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.target is not None
    guarder = pending.target[0]
    after = _from_hand(s, s.players[guarder], (GUARD,))
    if after is None:
        raise illegal("T-DON-5", "/type", tr("Guarding takes a 5 from hand, and this hand holds none."))
    player = _with_player(s, guarder)
    player.hand, player.hidden = after
    _to_bottom(s, GUARD)  # T-DON-5: the 5 goes to the bottom of the deck
    events.append(Event({"type": "guarded", "player": guarder, "effect": pending.action}))
    _end_turn(s, events)


def _decline_guard(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None and pending.target is not None
    s.to_act = s.turn
    events.append(Event({"type": "declined", "player": pending.target[0]}))
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
            raise illegal("T-DON-9", "/positions", tr("The opponent's hand is not known here: name the cards taken."))
        if len(step.cards) != pending.left:
            raise illegal("T-DON-9", "/cards", tr_n("The Trade takes {count} card; {named} named.",
                                                    "The Trade takes {count} cards; {named} named.", pending.left,
                                                    named=len(step.cards)))
        after = _from_hand(s, victim, step.cards)
        if after is None:
            raise illegal("T-SVC-UNKNOWN", "/cards", tr("The opponent's hand cannot hold {cards}.",
                                                        cards=", ".join(names(step.cards))))
        taken = step.cards
        hand, hidden = after
    else:
        if step.positions is None:
            raise illegal("T-DON-9", "/cards", tr("The Trade takes cards at random: give their \"positions\" in the "
                                                  "opponent's hand."))
        if len(step.positions) != pending.left:
            raise illegal("T-DON-9", "/positions",
                          tr_n("The Trade takes {count} card; {given} positions given.",
                               "The Trade takes {count} cards; {given} positions given.", pending.left,
                               given=len(step.positions)))
        if step.positions and step.positions[-1] >= len(victim.hand):
            raise illegal("T-SVC-HAND", "/positions", tr("The opponent's hand has positions 0 to {last}.",
                                                         last=len(victim.hand) - 1))
        chosen = set(step.positions)
        taken = tuple(card for i, card in enumerate(victim.hand) if i in chosen)
        hand = tuple(card for i, card in enumerate(victim.hand) if i not in chosen)
        hidden = 0
    loser = _with_player(s, victim_index)
    loser.hand, loser.hidden = hand, hidden
    winner = _with_player(s, builder)
    winner.hand = _sorted_add(winner.hand, taken)
    events.append(Event({"type": "took", "player": builder, "from": victim_index, "cards": names(taken)}))
    _trade_give(s, builder, pending.give, events)


def _do_give(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    builder = pending.player
    if len(step.cards) != pending.left:
        raise illegal("T-DON-9", "/cards", tr_n("The Trade gives back {count} card; {named} named.",
                                                "The Trade gives back {count} cards; {named} named.", pending.left,
                                                named=len(step.cards)))
    after = _from_hand(s, s.players[builder], step.cards)
    if after is None:
        raise illegal("T-DON-9", "/cards", tr("The hand does not hold {cards}.", cards=", ".join(names(step.cards))))
    giver = _with_player(s, builder)
    giver.hand, giver.hidden = after
    taker = _with_player(s, 1 - builder)
    taker.hand = _sorted_add(taker.hand, step.cards)
    events.append(Event({"type": "gave", "player": builder, "to": 1 - builder, "cards": names(step.cards)}))
    _end_turn(s, events)
