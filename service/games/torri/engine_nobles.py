"""Playing nobles: an action noble (T-NOB-PLAY), with Palazzo Comunale's cost (T-NOB-PC), and its effect (Via
Francigena's draws, T-NOB-VF); Giostra's answer to a noble or to a Buona Pietra (T-NOB-GIOSTRA), and the move
that answer leaves: cancelled, or rebuilt with the remaining cards (T-SVC-REBUILD)."""
from __future__ import annotations

from ..core.errors import illegal
from ..core.events import Event
from ..core.turns import Events
from .cards import BUONA_PIETRA, CAPPELLA, GIOSTRA, MONUMENTO, MURA, PALAZZO, VIA_FRANCIGENA, card_name, names
from .engine_building import _build, _extend, _planned_build, _planned_extension
from .engine_ending import _end_turn
from .engine_market import _finish_drawing
from .engine_noble_limits import (
    _giostra_allowed,
    _offer_giostra,
    _palazzo_fizzles,
    _window_counted,
    _within_noble_limit,
    nobles_used,
)
from .engine_whereabouts import _from_hand, _to_bottom, _with_player
from .messages import tr
from .model import MAIN, Pending, State
from .steps import Step

ACTION_NOBLES = (VIA_FRANCIGENA, MONUMENTO, CAPPELLA, PALAZZO, MURA)  # T-NOB-PLAY
DECK_NOBLES = (VIA_FRANCIGENA, PALAZZO)  # T-END-3: they touch a deck
PALAZZO_COST = 2  # T-NOB-PC


def _planned_noble(s: State, step: Step) -> tuple[tuple[tuple[int, ...], int], tuple[int, ...], bool]:
    """What playing an action noble leaves: the (known hand, hidden count) after it and its cost, and whether a
    Palazzo fizzles; raises on an illegal play. (Listing asks here too: every check, nothing changed.)"""
    card = step.card
    me = s.turn
    if not s.nobles:
        raise illegal("T-COMP-2", "/card", tr("Nobles are only in the advanced game (variant.nobles)."))
    if card not in ACTION_NOBLES:
        rule = "T-NOB-BP" if card == BUONA_PIETRA else "T-NOB-GIOSTRA" if card == GIOSTRA else "T-NOB-PLAY"
        raise illegal(rule, "/card", tr("{card} is not played as an action (Buona Pietra is a story of a build or "
                                        "extension; Giostra answers the opponent's noble).", card=card_name(card))
                      if card in (BUONA_PIETRA, GIOSTRA) else
                      tr("{card} is not played as an action.", card=card_name(card)))
    if s.phase != MAIN and card in DECK_NOBLES:
        raise illegal("T-END-3", "/card",
                      tr("{card} touches a deck, so it cannot be played in the Ending phase.", card=card_name(card)))
    after = _from_hand(s, s.players[me], (card,))
    if after is None:
        raise illegal("T-NOB-PLAY", "/card", tr("The hand does not hold {cards}.", cards=card_name(card)))
    cost = step.cost or ()
    fizzles = card == PALAZZO and _palazzo_fizzles(s, me)
    if card == PALAZZO:
        if len(cost) not in ((0, PALAZZO_COST) if fizzles else (PALAZZO_COST,)):
            raise illegal("T-NOB-PC", "/cost", tr("Palazzo Comunale costs 2 cards from hand (optional here, 0 or 2: "
                                                  "it will have no lasting effect).") if fizzles else
                          tr("Palazzo Comunale costs 2 cards from hand."))
        # Card and cost are taken from the hand together, so an unknown hand cannot pay with the Palazzo itself.
        after_cost = _from_hand(s, s.players[me], (card, *cost))
        if after_cost is None:
            raise illegal("T-NOB-PC", "/cost", tr("The hand does not hold {cards} besides the Palazzo.",
                                                  cards=", ".join(names(cost))))
        after = after_cost
    elif cost:
        raise illegal("T-NOB-PLAY", "/cost", tr("Only Palazzo Comunale has a cost; {card} takes none.",
                                                card=card_name(card)))
    used, theirs = nobles_used(s.players[me]), nobles_used(s.players[1 - me])
    if not fizzles and not _within_noble_limit(used + 1, theirs):
        raise illegal("T-NOB-LIMIT", "/card", tr("Player {player} has used {used} nobles and the opponent {theirs}: "
                                                 "another would be more than one ahead.", player=me, used=used,
                                                 theirs=theirs))
    return after, cost, fizzles


def _do_noble(s: State, step: Step, events: Events) -> None:
    after, cost, fizzles = _planned_noble(s, step)
    card = step.card
    me = s.turn
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
    events.append(Event({"type": "noble", "player": me, "card": card_name(card), "cost": names(cost),
                         **({"fizzled": True} if fizzles else {})}))
    # The card is already in the played row (or, fizzled, out of the game): nothing more to count (T-NOB-LIMIT).
    if _offer_giostra(s, me, 0, events):
        s.pending = Pending("giostra", card_name(card), me, cards=(card,))
        return
    _resolve_noble(s, Pending("giostra", card_name(card), me, cards=(card,)), events)


def _do_giostra(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    actor, reactor = pending.player, 1 - pending.player
    if not _giostra_allowed(s, actor, _window_counted(pending)):
        raise illegal("T-NOB-GIOSTRA", "/type", tr("Giostra must come from hand, within the noble limit "
                                                   "(T-NOB-LIMIT)."))
    after = _from_hand(s, s.players[reactor], (GIOSTRA,))
    assert after is not None
    answering = _with_player(s, reactor)
    answering.hand, answering.hidden = after
    answering.played = answering.played + (GIOSTRA,)
    s.to_act = actor
    events.append(Event({"type": "giostra", "player": reactor, "against": pending.action}))
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
    events.append(Event({"type": "cancelled", "player": actor, "card": card_name(card)}))
    _end_turn(s, events)  # the noble was the turn's action


def _decline_giostra(s: State, step: Step, events: Events) -> None:
    pending = s.pending
    assert pending is not None
    s.to_act = s.turn
    events.append(Event({"type": "declined", "player": 1 - pending.player}))
    _resolve_noble(s, pending, events)


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
                      tr("After Giostra the builder may only build with the remaining cards, or stop.")
                      if pending.action == "build" else
                      tr("After Giostra the builder may only extend with the remaining cards, or stop.")
                      if pending.action == "extend" else
                      tr("After Giostra the builder may only {action} with the remaining cards, or stop.",
                         action=pending.action))
    if tuple(sorted(step.cards)) != pending.cards:
        remaining = ", ".join(names(pending.cards))
        raise illegal("T-NOB-GIOSTRA", "/cards",
                      tr("The remaining cards are {cards}: the build uses exactly those.", cards=remaining)
                      if pending.action == "build" else
                      tr("The remaining cards are {cards}: the extend uses exactly those.", cards=remaining)
                      if pending.action == "extend" else
                      tr("The remaining cards are {cards}: the {action} uses exactly those.", cards=remaining,
                         action=pending.action))
    if step.type == "extend" and step.tower != pending.tower:
        raise illegal("T-NOB-GIOSTRA", "/tower", tr("The extension goes on tower {index}.", index=pending.tower))
    s.pending = None
    if step.type == "build":
        tower, hand, hidden = _planned_build(s, s.players[s.turn], step)
        _build(s, tower, hand, hidden, events)
    else:
        tower, hand, hidden = _planned_extension(s, step)
        _extend(s, step.tower, tower, hand, hidden, step.cards, events)  # type: ignore[arg-type]


def _take_back(s: State, step: Step, events: Events) -> None:
    """T-NOB-GIOSTRA: after Giostra the builder may stop; the remaining cards stay in hand."""
    pending = s.pending
    assert pending is not None
    events.append(Event({"type": "took_back", "player": pending.player, "cards": names(pending.cards)}))
    _end_turn(s, events)
