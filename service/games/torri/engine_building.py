"""Building: Build (T-ACT-BUILD-1..6), Extend (T-ACT-EXTEND-1..3) and Complete (T-ACT-COMPLETE-1..2), what every
build or extension owes the nobles (T-NOB-LIMIT, T-NOB-PC), the Highest marker it may move (T-HIGH-2), and the
Donazione a plain 8, 9 or 10 brings (T-DON-8; Trade and Conspiracy are engine_donazione's)."""
from __future__ import annotations

from ..core.errors import illegal
from ..core.events import Event
from ..core.turns import Events
from .cards import BUONA_PIETRA, CONSPIRACY, INCOME, TRADE, names
from .engine_donazione import _start_conspiracy, _start_trade
from .engine_ending import _check_main_phase, _end_turn
from .engine_market import TOWER_SOURCES, _drawable
from .engine_noble_limits import _offer_giostra, _within_noble_limit, nobles_used, palazzo_cap
from .engine_whereabouts import _from_hand, _with_player
from .messages import tr, tr_n
from .model import MAIN, PLAIN, Pending, Player, State, Tower
from .steps import Step
from .towers import (
    MIN_HEIGHT,
    contradicted_field,
    extended,
    extension_fits,
    interpretations,
    mismatch,
    read_tower,
    shape_rule,
)


def _check_tower_play(s: State, player_index: int, cards: tuple[int, ...], height: int) -> None:
    """Rules every build or extension obeys beyond its shape: the noble limit for Buona Pietra (T-NOB-LIMIT)
    and an opponent's Palazzo Comunale (T-NOB-PC)."""
    stones = cards.count(BUONA_PIETRA)
    if stones:
        me, other = s.players[player_index], s.players[1 - player_index]
        if not _within_noble_limit(nobles_used(me) + stones, nobles_used(other)):
            raise illegal("T-NOB-LIMIT", "/cards",
                          tr("Playing {stones} Buona Pietra would make {used} nobles used against the opponent's "
                             "{theirs}: at most one more is allowed.", stones=stones, used=nobles_used(me) + stones,
                             theirs=nobles_used(other)))
    cap = palazzo_cap(s, player_index)
    if cap is not None and height > cap:
        raise illegal("T-NOB-PC", "/cards", tr_n("The opponent's Palazzo Comunale caps towers at {count} story (their "
                                                 "tallest); this one would have {height}.",
                                                 "The opponent's Palazzo Comunale caps towers at {count} stories "
                                                 "(their tallest); this one would have {height}.", cap,
                                                 height=height))


def _extension_mismatch(index: int | None, tower: Tower, wrong: str, value) -> str:
    """An extension's `kind` or `rank` (`wrong`, given as `value`) that is not its tower's (T-ACT-EXTEND-1)."""
    said = {"index": index, "rank": tower.rank, "field": wrong, "value": str(value)}
    if tower.kind == PLAIN:
        # Translators: {field} is "kind" or "rank" (a field of the move), {value} the value the move gives it
        return tr("Tower {index} is plain {rank}; the extension names its \"{field}\" as {value}.", **said)
    return tr("Tower {index} is colorful {rank}; the extension names its \"{field}\" as {value}.", **said)


def _planned_build(s: State, player: Player, step: Step) -> tuple[Tower, tuple[int, ...], int]:
    """The tower a build makes and the hand after it; raises on an illegal build."""
    cards = step.cards
    if len(cards) < MIN_HEIGHT:
        raise illegal("T-ACT-BUILD-1", "/cards", tr("A new tower needs 3 or more cards; {given} given.",
                                                    given=len(cards)))
    after = _from_hand(s, player, cards)
    if after is None:
        raise illegal("T-ACT-BUILD-1", "/cards", tr("The hand does not hold {cards}.", cards=", ".join(names(cards))))
    options = interpretations(cards)
    if not options:
        rule = shape_rule(cards)
        stack = "-".join(names(cards))
        if rule == "T-NOB-BP":
            message = tr("A tower needs at least one tower card (5 to 10).")
        elif rule == "T-ACT-BUILD-3":
            # Translators: {stack} is the cards as written in a move, bottom first ("9-7-6")
            message = tr("{stack} is not colorful: stories must descend one rank at a time from the bottom.",
                         stack=stack)
        else:
            message = tr("{stack} is neither plain (one rank) nor colorful.", stack=stack)
        raise illegal(rule, "/cards", message)
    if len(options) > 1 and (step.kind is None or step.rank is None):
        raise illegal("T-NOB-BP", "/cards",
                      tr("These cards make more than one tower: say which with \"kind\" and \"rank\" ({readings}).",
                         readings=", ".join(f"{k} {r}" for k, r in options)))
    tower = read_tower(cards, False, step.kind, step.rank)  # kind/rank may always be given, if they agree
    if tower is None:
        wrong = contradicted_field(options, step.kind, step.rank) or "kind"
        raise illegal("T-ACT-BUILD-2", f"/{wrong}", mismatch(wrong, cards, options))
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
    events.append(Event({"type": "built", "player": builder, "tower": index, "cards": names(tower.cards),
                         "kind": tower.kind, "rank": tower.rank}))
    _update_marker(s, builder, events)  # T-ACT-BUILD-5: marker first, then Donazione
    if s.phase != MAIN or tower.kind != PLAIN or tower.rank not in (INCOME, TRADE, CONSPIRACY):
        _end_turn(s, events)  # T-ACT-BUILD-4, T-END-2: no Donazione
        return
    height = tower.height  # T-NOB-BP: a Buona Pietra counts as the tower's rank
    if tower.rank == INCOME:  # T-DON-8
        draws = min(height, _drawable(s, TOWER_SOURCES, towers_only=True))  # T-DRAW-SHORT
        events.append(Event({"type": "donazione", "effect": "income", "player": builder, "draws": draws}))
        if draws:
            s.pending = Pending("draw", "income", builder, left=draws, sources=TOWER_SOURCES)
        else:
            _end_turn(s, events)
    elif tower.rank == TRADE:  # T-DON-9
        events.append(Event({"type": "donazione", "effect": "trade", "player": builder}))
        _start_trade(s, builder, height, events)
    else:  # T-DON-10
        events.append(Event({"type": "donazione", "effect": "conspiracy", "player": builder}))
        _start_conspiracy(s, builder, index, height, events)


def _own_incomplete(s: State, index: int | None, rule: str, pointer: str) -> Tower:
    towers = s.players[s.turn].towers
    if index is None or index >= len(towers):
        raise illegal(rule, pointer, tr("Player {player} has no tower {index} (towers 0 to {last}).", player=s.turn,
                                        index=index, last=len(towers) - 1))
    tower = towers[index]
    if tower.complete:
        raise illegal("T-ACT-COMPLETE-1", pointer,
                      tr("Tower {index} is complete: it cannot be extended or completed again.", index=index))
    return tower


def _planned_extension(s: State, step: Step) -> tuple[Tower, tuple[int, ...], int]:
    tower = _own_incomplete(s, step.tower, "T-ACT-EXTEND-1", "/tower")
    wrong = contradicted_field(((tower.kind, tower.rank),), step.kind, step.rank)  # an extension keeps both
    if wrong is not None:
        raise illegal("T-ACT-EXTEND-1", f"/{wrong}",
                      _extension_mismatch(step.tower, tower, wrong, getattr(step, wrong)))
    cards = step.cards
    if not cards:
        raise illegal("T-ACT-EXTEND-1", "/cards", tr("An extension adds 1 or more cards."))
    after = _from_hand(s, s.players[s.turn], cards)
    if after is None:
        raise illegal("T-ACT-EXTEND-1", "/cards", tr("The hand does not hold {cards}.",
                                                     cards=", ".join(names(cards))))
    if not extension_fits(tower, cards):
        said = {"index": step.tower, "stack": "-".join(names(cards))}
        raise illegal("T-ACT-EXTEND-1", "/cards",
                      tr("Tower {index} takes more {rank}s; {stack} does not fit.", rank=tower.rank, **said)
                      if tower.kind == PLAIN else
                      tr("Tower {index} takes {rank} and below, in order; {stack} does not fit.", rank=tower.top - 1,
                         **said))
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
    events.append(Event({"type": "extended", "player": s.turn, "tower": index, "cards": names(cards)}))
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
        events.append(Event({"type": "marker", "player": player, "height": tallest}))


def _do_complete(s: State, step: Step, events: Events) -> None:
    _check_main_phase(s, "T-ACT-COMPLETE-2", "complete")
    if not step.towers:
        raise illegal("T-ACT-COMPLETE-1", "/towers", tr("Name one or more towers to complete."))
    for i, index in enumerate(step.towers):
        _own_incomplete(s, index, "T-ACT-COMPLETE-1", f"/towers/{i}")
    player = _with_player(s, s.turn)
    chosen = set(step.towers)
    player.towers = tuple(Tower(t.cards, True, t.kind, t.rank) if i in chosen else t
                          for i, t in enumerate(player.towers))
    events.append(Event({"type": "completed", "player": s.turn, "towers": list(step.towers)}))
    _end_turn(s, events)
