"""The turn: legal steps and applying one step (K-PLACE, K-MEEPLE, K-SCORE, K-END-1, K-TOW-*).

A turn is explicit steps (K-SVC-STEP): `place` (or `discard` for a tile that fits nowhere, then `place` again),
then one action (`meeple`, `floor`, `tower_meeple` or `skip`), then after a floor `capture` or `skip`. Every
feature the tile completed is scored when the turn ends; `ransom` may come before the tile or before the action.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from operator import attrgetter
from typing import Any

from ..core.errors import illegal
from ..core.events import Event
from ..core.records import from_fields
from ..core.turns import Events, Stage, Turns, finished
from .messages import tr, tr_n
from .model import RANSOM, Bag, Meeple, Phase, Placement, Player, Square, State, StepDue, Tower
from .scoring import completed_by, describe, index_of, majority, occupancy, score_state, value
from .steps import Step
from .tiles import DIRECTIONS, TOWER, Kind, face, features_named, tile_counts


def _xy(square: Square) -> list[int]:
    return [square[0], square[1]]


def _said(square: Square) -> str:
    """A square as the messages say it, as the wire writes it: `[x, y]`."""
    return f"[{square[0]}, {square[1]}]"


# K-MEEPLE-2: a feature that already holds a meeple, by its kind ({name}: the feature's name on the tile, K-TILE-4)
_HELD = {
    Kind.ROAD: lambda **said: tr("The road at \"{name}\" already holds a meeple, joined across the board.", **said),
    Kind.CITY: lambda **said: tr("The city at \"{name}\" already holds a meeple, joined across the board.", **said),
    Kind.FIELD: lambda **said: tr("The field at \"{name}\" already holds a meeple, joined across the board.",
                                  **said),
    Kind.CLOISTER: lambda **said: tr("The cloister at \"{name}\" already holds a meeple, joined across the board.",
                                     **said),
}


# ---------------------------------------------------------------------------------------------- what is where

def unplaced(state: State) -> Counter:
    """The tiles neither on the board nor discarded: the bag's content, whether listed or counted (K-COMP-3)."""
    left = Counter(tile_counts(state.tower))
    left.subtract(p.tile for p in state.board)
    left.subtract(state.discarded)
    return +left


def drawable(state: State) -> list[str]:
    """The tiles the player may have drawn: the bag's first, or with a counted bag any tile still unplaced."""
    if state.bag.tiles is not None:
        return list(state.bag.tiles[:1])
    left = unplaced(state)
    return [tile for tile in tile_counts(state.tower) if left[tile] > 0]


def tower_at(state: State, square: Square) -> Tower | None:
    for tower in state.towers:
        if tower.at == square:
            return tower
    return None


def foundations(state: State) -> list[Square]:
    """K-TOW-ACT-1: the tiles with an empty tower foundation."""
    raised = {t.at for t in state.towers}
    index = index_of(state)
    return sorted((s for s, n in index.grid.items() if index.faces[n].tower and s not in raised),
                  key=lambda s: (s[1], s[0]))


def reach(tower: Tower) -> set[Square]:
    """K-TOW-CAP-1: the tower's square and `height` squares in each straight line, over gaps and towers."""
    x, y = tower.at
    return {tower.at} | {(x + dx * k, y + dy * k) for dx, dy in DIRECTIONS for k in range(1, tower.height + 1)}


def free_features(state: State) -> list[str]:
    """K-MEEPLE-1/2: the features of the tile just placed whose whole feature holds no meeple. Each feature is
    walked (BoardIndex.holds_any), which on a board read for one request costs less than the union-find."""
    index = index_of(state)
    assert state.last is not None
    taken = _taken(state)
    return [seg.name for seg in index.faces[index.grid[state.last]].segments
            if seg.kind is not Kind.TOWER and not index.holds_any(state.last, seg, taken)]


def _taken(state: State) -> set[tuple[Square, int]]:
    """The segments meeples stand on, each as its square and index (what BoardIndex.holds_any looks for)."""
    index = index_of(state)
    grid, faces = index.grid, index.faces
    return {(m.at, faces[grid[m.at]].by_name[m.feature].index) for m in state.meeples}


def captures(state: State) -> list[Step]:
    """K-TOW-CAP-1/2: every meeple in reach of the tower just raised, tower tops included."""
    assert state.raised is not None
    tower = tower_at(state, state.raised)
    assert tower is not None
    squares = reach(tower)
    found = [Step("capture", at=m.at, feature=m.feature, player=m.player) for m in state.meeples if m.at in squares]
    found += [Step("capture", at=t.at, feature=TOWER, player=t.top) for t in state.towers
              if t.top is not None and t.at in squares]
    return sorted(found, key=lambda s: (s.at[1], s.at[0], s.feature, s.player))


# ---------------------------------------------------------------------------------------------- legal steps

# Step from (type, tile, at, rotation, feature, player): a listing makes one for every square and rotation where the
# tile fits
_place_step = from_fields(Step)


def _ransoms(state: State) -> list[Step]:
    if not state.tower or state.ransomed or state.players[state.turn].score < RANSOM:
        return []
    me = state.turn
    return [Step("ransom", player=p) for p, player in enumerate(state.players) if me in player.prisoners]


def _spots(state: State) -> list[tuple[str, list[tuple[Square, int]]]]:
    """At the place step: each tile the player may have drawn, with every square and rotation where it fits
    (K-PLACE-1, K-PLACE-2); a tile that fits nowhere is discarded (K-PLACE-3)."""
    index = index_of(state)
    return [(tile, index.placements(tile)) for tile in drawable(state)]


def legal_steps(state: State) -> list[Step]:
    """Every legal next step, in a fixed order."""
    if state.over:
        return []
    me = state.players[state.turn]
    steps: list[Step] = []
    if state.step is StepDue.PLACE:
        for tile, spots in _spots(state):
            steps += [_place_step(("place", tile, at, r, None, None)) for at, r in spots] or \
                [Step("discard", tile=tile)]
        return steps + _ransoms(state)
    if state.step is StepDue.ACTION:
        if me.supply > 0:
            steps += [Step("meeple", feature=name) for name in free_features(state)]
        if state.tower:
            if me.floors > 0:
                steps += [Step("floor", at=at) for at in foundations(state)]
                steps += [Step("floor", at=t.at) for t in state.towers if t.top is None]
            if me.supply > 0:
                steps += [Step("tower_meeple", at=t.at) for t in state.towers if t.top is None]
        return steps + [Step("skip")] + _ransoms(state)
    return captures(state) + [Step("skip")]


def legal_moves(state: State) -> list[dict[str, Any]]:
    """Every legal next step in its JSON form (what /legal-moves lists), in legal_steps' order. At the place step
    each square and rotation is written as Step.to_json writes it, without a Step: a listing has dozens."""
    if state.over or state.step is not StepDue.PLACE:
        return [step.to_json() for step in legal_steps(state)]
    moves: list[dict[str, Any]] = []
    for tile, spots in _spots(state):
        moves += [{"type": "place", "tile": tile, "at": [x, y], "rotation": r} for (x, y), r in spots] or \
            [Step("discard", tile=tile).to_json()]
    return moves + [step.to_json() for step in _ransoms(state)]


# ---------------------------------------------------------------------------------------------- applying

def _same_board(state: State, **changes: Any) -> State:
    """The state with `changes` on the same board: the board's feature index is handed on, not rebuilt."""
    return state.but(**changes).with_index(index_of(state))


def _player(state: State, who: int, **changes: Any) -> tuple[Player, ...]:
    players = list(state.players)
    players[who] = replace(players[who], **changes)
    return tuple(players)


def _drawn_tile(state: State, step: Step) -> str:
    if state.bag.tiles is not None:
        drawn = state.bag.tiles[0]
        if step.tile is not None and step.tile != drawn:
            raise illegal("K-SVC-BAG", "/tile", tr("The tile drawn is the bag's first, {drawn}, not {asked}.",
                                                   drawn=drawn, asked=step.tile))
        return drawn
    if step.tile is None:
        raise illegal("K-SVC-BAG", "/tile", tr("The bag is only counted: name the tile drawn."))
    if unplaced(state)[step.tile] == 0:
        raise illegal("K-COMP-3", "/tile", tr("No {tile_id} is left to draw: every one is on the board or "
                                               "discarded.", tile_id=step.tile))
    return step.tile


def _bag_after(state: State, tile: str) -> Bag:
    if state.bag.tiles is not None:
        return Bag.known(state.bag.tiles[1:])
    return Bag(None, state.bag.count - 1)


def _place(state: State, step: Step, events: Events) -> State:
    tile = _drawn_tile(state, step)
    index = index_of(state)
    at = step.at
    assert at is not None and step.rotation is not None
    if at in index.grid:
        raise illegal("K-PLACE-1", "/at", tr("{square} already holds a tile.", square=_said(at)))
    needs = index.needs(at)  # what its neighbours show it, once for both checks
    if needs is None:
        raise illegal("K-PLACE-1", "/at", tr("{square} touches no tile by an edge.", square=_said(at)))
    tile_face = face(tile, step.rotation)
    if not tile_face.meets(needs):
        raise illegal("K-PLACE-2", "/rotation", tr("{tile_id} at {square}, rotation {rotation}: an edge it shares "
                                                    "does not match (city to city, road to road, field to field).",
                                                    tile_id=tile, square=_said(at), rotation=step.rotation))
    placement = Placement(tile, at, step.rotation)
    new = state.but(bag=_bag_after(state, tile), board=state.board + (placement,), step=StepDue.ACTION,
                    last=at).with_index(index.with_tile(placement))
    events.append(Event({"type": "placed", "player": state.turn, "tile": tile, "at": _xy(at), "rotation": step.rotation}))
    return new


def _discard(state: State, step: Step, events: Events) -> State:
    tile = _drawn_tile(state, step)
    index = index_of(state)
    if index.placements(tile):
        raise illegal("K-PLACE-3", "/tile", tr("{tile_id} fits somewhere on the board: it must be placed.",
                                               tile_id=tile))
    new = _same_board(state, bag=_bag_after(state, tile), discarded=state.discarded + (tile,))
    events.append(Event({"type": "discarded", "player": state.turn, "tile": tile}))
    if new.bag.count == 0:  # K-END-1, K-SVC-DISCARD: the last tile discarded ends the game
        return _game_over(new, events)
    return new


def _meeple(state: State, step: Step, events: Events) -> State:
    me = state.players[state.turn]
    index = index_of(state)
    assert state.last is not None and step.feature is not None
    tile_face = index.faces[index.grid[state.last]]
    segment = tile_face.segment(step.feature)
    if segment is None:
        # Translators: {name} is what the step asked for; {features} lists the tile's features by their names.
        raise illegal("K-TILE-4", "/feature", tr("The tile just placed has no feature \"{name}\". {features}",
                                                  name=step.feature, features=features_named(tile_face,
                                                                                             step.feature)))
    if segment.kind is Kind.TOWER:
        raise illegal("K-MEEPLE", "/feature", tr("A meeple goes on a road, city, cloister or field, never on a "
                                                  "tower foundation."))
    if me.supply == 0:
        raise illegal("K-COMP-2", "", tr("The player has no meeple in supply."))
    # K-MEEPLE-2: as free_features finds it, the one feature asked walked alone
    if index.holds_any(state.last, segment, _taken(state)):
        raise illegal("K-MEEPLE-2", "/feature", _HELD[segment.kind](name=step.feature))
    meeple = Meeple(state.last, segment.name, state.turn)
    new = _same_board(state, meeples=tuple(sorted(state.meeples + (meeple,))),
                      players=_player(state, state.turn, supply=me.supply - 1))
    events.append(Event({"type": "meeple", "player": state.turn, "at": _xy(state.last), "feature": segment.name}))
    return _end_turn(new, events)


def _skip(state: State, step: Step, events: Events) -> State:
    events.append(Event({"type": "skipped", "player": state.turn, "during": state.step.value}))
    return _end_turn(state, events)


def _no_tower(state: State, step: Step, events: Events) -> State:
    raise illegal("K-TOW-ACT", "/type", tr("Towers are played only with The Tower (variant tower)."))


def _floor(state: State, step: Step, events: Events) -> State:
    me = state.players[state.turn]
    at = step.at
    assert at is not None
    index = index_of(state)
    tower = tower_at(state, at)
    if me.floors == 0:
        raise illegal("K-TOW-ACT-1", "", tr("The player has no floor left."))
    if tower is None:
        if at not in index.grid or not index.faces[index.grid[at]].tower:
            raise illegal("K-TOW-ACT-1", "/at", tr("{square} holds no tower foundation.", square=_said(at)))
        raised = Tower(at, 1, None)
    elif tower.top is not None:
        raise illegal("K-TOW-ACT-2", "/at", tr("The tower at {square} has a meeple on top: it is complete.",
                                               square=_said(at)))
    else:
        raised = Tower(at, tower.height + 1, None)
    towers = tuple(sorted([t for t in state.towers if t.at != at] + [raised]))
    new = _same_board(state, towers=towers, players=_player(state, state.turn, floors=me.floors - 1),
                      step=StepDue.CAPTURE, raised=at)
    events.append(Event({"type": "floor", "player": state.turn, "at": _xy(at), "height": raised.height}))
    return new


def _tower_meeple(state: State, step: Step, events: Events) -> State:
    me = state.players[state.turn]
    at = step.at
    assert at is not None
    tower = tower_at(state, at)
    if tower is None:
        raise illegal("K-TOW-ACT-3", "/at", tr("{square} has no tower with a floor.", square=_said(at)))
    if tower.top is not None:
        raise illegal("K-TOW-ACT-3", "/at", tr("The tower at {square} already has a meeple on top.",
                                               square=_said(at)))
    if me.supply == 0:
        raise illegal("K-COMP-2", "", tr("The player has no meeple in supply."))
    towers = tuple(sorted([t for t in state.towers if t.at != at] + [Tower(at, tower.height, state.turn)]))
    new = _same_board(state, towers=towers, players=_player(state, state.turn, supply=me.supply - 1))
    events.append(Event({"type": "tower_meeple", "player": state.turn, "at": _xy(at)}))
    return _end_turn(new, events)


def _capture(state: State, step: Step, events: Events) -> State:
    at, owner = step.at, step.player
    assert at is not None and step.feature is not None and owner is not None and state.raised is not None
    tower = tower_at(state, state.raised)
    assert tower is not None
    if at not in reach(tower):
        raise illegal("K-TOW-CAP-1", "/at", tr("{square} is out of reach of the tower at {tower_square} (height "
                                               "{height}).", square=_said(at), tower_square=_said(state.raised),
                                               height=tower.height))
    index = index_of(state)
    meeples, towers = state.meeples, state.towers
    if step.feature == TOWER:
        top = tower_at(state, at)
        if top is None or top.top is None:
            raise illegal("K-TOW-CAP-2", "/feature", tr("No meeple is on a tower at {square}.", square=_said(at)))
        if top.top != owner:
            # Translators: {holder} and {owner} are players' numbers (0 for the first player).
            raise illegal("K-TOW-CAP-2", "/player", tr("The meeple on the tower at {square} is player {holder}'s, "
                                                        "not player {owner}'s.", square=_said(at), holder=top.top,
                                                        owner=owner))
        towers = tuple(sorted([t for t in towers if t.at != at] + [Tower(at, top.height, None)]))
        feature = TOWER
    else:
        segment = index.faces[index.grid[at]].segment(step.feature) if at in index.grid else None
        target = Meeple(at, segment.name, owner) if segment is not None else None
        if target is None or target not in meeples:
            there = next((m for m in meeples if segment is not None and m.at == at and m.feature == segment.name),
                         None)
            if there is not None:
                # Translators: {name} is a feature's name on the tile (K-TILE-4); {holder} and {owner} are
                # players' numbers (0 for the first player).
                raise illegal("K-TOW-CAP-2", "/player", tr("The meeple on \"{name}\" at {square} is player "
                                                            "{holder}'s, not player {owner}'s.", name=step.feature,
                                                            square=_said(at), holder=there.player, owner=owner))
            raise illegal("K-TOW-CAP-2", "/feature", tr("No meeple is on \"{name}\" at {square}.", name=step.feature,
                                                         square=_said(at)))
        meeples = tuple(m for m in meeples if m != target)
        feature = target.feature
    me = state.turn
    players = list(state.players)
    if owner == me:
        players[me] = replace(players[me], supply=players[me].supply + 1)
    else:
        players[me] = replace(players[me], prisoners=tuple(sorted(players[me].prisoners + (owner,))))
    events.append(Event({"type": "captured", "player": me, "at": _xy(at), "feature": feature, "owner": owner,
                         "to": "supply" if owner == me else "prisoner"}))
    players = _exchange(players, me, owner, events)
    new = _same_board(state, meeples=meeples, towers=towers, players=tuple(players))
    return _end_turn(new, events)


def _exchange(players: list[Player], a: int, b: int, events: Events) -> list[Player]:
    """K-TOW-SWAP: while each of two players holds a prisoner of the other, they exchange one for one."""
    while a != b and b in players[a].prisoners and a in players[b].prisoners:
        for holder, owner in ((a, b), (b, a)):
            held = list(players[holder].prisoners)
            held.remove(owner)
            players[holder] = replace(players[holder], prisoners=tuple(held))
            players[owner] = replace(players[owner], supply=players[owner].supply + 1)
        events.append(Event({"type": "exchanged", "players": sorted((a, b))}))
    return players


def _ransom(state: State, step: Step, events: Events) -> State:
    me, holder = state.turn, step.player
    assert holder is not None
    if state.ransomed:
        raise illegal("K-TOW-RANSOM", "/type", tr("A player frees at most one prisoner a turn."))
    if holder >= len(state.players) or holder == me or me not in state.players[holder].prisoners:
        # Translators: {holder} and {player} are players' numbers (0 for the first player).
        raise illegal("K-TOW-RANSOM", "/from", tr("Player {holder} holds no meeple of player {player}.",
                                                  holder=holder, player=me))
    if state.players[me].score < RANSOM:
        raise illegal("K-TOW-RANSOM", "", tr_n("A ransom costs {count} point; the player has {score}.",
                                              "A ransom costs {count} points; the player has {score}.", RANSOM,
                                              score=state.players[me].score))
    players = list(state.players)
    held = list(players[holder].prisoners)
    held.remove(me)
    players[holder] = replace(players[holder], prisoners=tuple(held), score=players[holder].score + RANSOM)
    players[me] = replace(players[me], score=players[me].score - RANSOM, supply=players[me].supply + 1)
    new = _same_board(state, players=tuple(players), ransomed=True)
    events.append(Event({"type": "ransom", "player": me, "from": holder, "points": RANSOM}))
    return new


def _end_turn(state: State, events: Events) -> State:
    """K-SCORE: score every feature the tile completed, return its meeples (K-SCORE-RETURN); next player; the game
    ends once the bag is empty (K-END-1)."""
    index = index_of(state)
    assert state.last is not None
    players = list(state.players)
    meeples = state.meeples
    completed = completed_by(index, state.last)
    occupied = occupancy(index, meeples) if completed else {}
    for root in completed:
        on_it = occupied.get(root, [])
        _, winners = majority(on_it, len(players))
        feature = index.feature(root)
        points = value(index, feature, True)
        for p in winners:
            players[p] = replace(players[p], score=players[p].score + points)
        for m in on_it:
            players[m.player] = replace(players[m.player], supply=players[m.player].supply + 1)
        returned = set(on_it)
        meeples = tuple(m for m in meeples if m not in returned)
        # points: what each scorer took; worth: what the feature was worth, taken or not (nobody holds it: 0 taken)
        events.append(Event({"type": "scored", "feature": describe(index, feature), "points": points if winners else 0,
                             "worth": points, "scorers": winners,
                             "returned": [{"player": m.player, "at": _xy(m.at), "feature": m.feature} for m in on_it]}))
    nxt = (state.turn + 1) % len(players)
    new = _same_board(state, players=tuple(players), meeples=meeples, turn=nxt, step=StepDue.PLACE, last=None,
                      raised=None, ransomed=False)
    if new.bag.count == 0:
        return _game_over(new, events)
    events.append(Event({"type": "turn", "player": nxt}))
    return new


def _game_over(state: State, events: Events) -> State:
    """K-END-1: no turn follows. The end scoring (K-END-2, K-END-3) is reported, not added to the score track
    (K-SVC-SCORE)."""
    new = _same_board(state, phase=Phase.OVER, step=StepDue.PLACE, last=None, raised=None, ransomed=False)
    final = score_state(new)
    events.append(Event({"type": "game_over", "totals": final.totals, "winners": list(final.winners)}))
    return new


def _due(state: State, step: Step) -> str:
    # Translators: {kind} and {due} are steps of the turn by their JSON codes (place, meeple, skip, capture, …).
    return tr("A {kind} step is not due: the {due} step is.", kind=step.type, due=state.step.value)


_TOWER_STEPS = ("floor", "tower_meeple", "capture", "ransom")
_WITHOUT_TOWER = dict.fromkeys(_TOWER_STEPS, _no_tower)  # K-TOW-ACT: refused at any step of the turn
_STAGES = {  # K-TURN: place (or discard) a tile, then a meeple, a floor or nothing; The Tower's capture after a floor
    StepDue.PLACE: {"place": _place, "discard": _discard, "ransom": _ransom},
    StepDue.ACTION: {"meeple": _meeple, "skip": _skip, "floor": _floor, "tower_meeple": _tower_meeple,
                     "ransom": _ransom},
    StepDue.CAPTURE: {"skip": _skip, "capture": _capture},
}
_STAGE_DUE = attrgetter("step", "tower")


def _stage_of(state: State) -> Any:
    return Phase.OVER if state.over else _STAGE_DUE(state)


TURNS = Turns(stage_of=_stage_of, stages={
    **{(due, True): Stage(handlers, "K-SVC-STEP", _due) for due, handlers in _STAGES.items()},
    **{(due, False): Stage({**{kind: h for kind, h in handlers.items() if kind not in _TOWER_STEPS},
                            **_WITHOUT_TOWER}, "K-SVC-STEP", _due) for due, handlers in _STAGES.items()},
    Phase.OVER: finished("K-END-1", tr("The game is over: no step is legal."), pointer=""),  # K-END-1
})
apply_step = TURNS.apply_step  # the state after one step, and what happened; IllegalStepError if it is illegal
