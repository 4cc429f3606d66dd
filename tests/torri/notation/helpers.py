"""Shared documents and strategies for the notation tests."""
from __future__ import annotations

from hypothesis import strategies as st

from service.games.torri.cards import (BUONA_PIETRA, CAPPELLA, GIOSTRA, MONUMENTO, MURA, PALAZZO, RANKS,
                                       TOWER_COUNTS, VIA_FRANCIGENA)
from service.games.torri.model import COLORFUL, PLAIN, Table
from service.games.torri.towers import read_tower

RULESHEET = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*\n"
PLAYABLE_NOBLES = (VIA_FRANCIGENA, VIA_FRANCIGENA, MONUMENTO, GIOSTRA, CAPPELLA, PALAZZO, MURA)

names = st.text(min_size=1, max_size=100)
plain_names = st.from_regex(r"[A-Z][a-z]{1,10}( [A-Z][a-z]{1,8})?", fullmatch=True)


@st.composite
def towers_of(draw, pool: dict[int, int], stand_ins: list[int]):
    """One valid tower drawn from the cards left in `pool` and the Buona Pietra left in stand_ins[0]."""
    complete = draw(st.booleans())
    if draw(st.booleans()):  # plain
        ranks = [r for r in RANKS if pool[r] >= 1]
        if not ranks:
            return None
        rank = draw(st.sampled_from(ranks))
        real = draw(st.integers(1, min(pool[rank], 7)))
        extra = draw(st.integers(0, stand_ins[0]))
        if real + extra < 3:
            return None
        cards = [rank] * real
        for _ in range(extra):
            cards.insert(draw(st.integers(0, len(cards))), BUONA_PIETRA)
        kind = PLAIN
    else:  # colorful, from 11 down to 4 with stand-ins at the ends
        bottom = draw(st.integers(4 + 2, 11))
        height = draw(st.integers(3, bottom - 3))
        cards = []
        for story in range(height):
            wanted = bottom - story
            real_ok = 5 <= wanted <= 10 and pool[wanted] - cards.count(wanted) >= 1
            bp_ok = cards.count(BUONA_PIETRA) < stand_ins[0]
            if real_ok and (not bp_ok or draw(st.integers(0, 3)) > 0):
                cards.append(wanted)
            elif bp_ok:
                cards.append(BUONA_PIETRA)
            else:
                return None
        if all(card == BUONA_PIETRA for card in cards):
            return None
        rank = bottom
        kind = COLORFUL
    tower = read_tower(tuple(cards), complete, kind, rank)
    assert tower is not None, (cards, kind, rank)
    for card in cards:
        if card == BUONA_PIETRA:
            stand_ins[0] -= 1
        else:
            pool[card] -= 1
    return tower


@st.composite
def tables(draw, name_strategy=names) -> Table:
    """A valid table: card counts within the game's, every tower plain or colorful and 3 stories or more."""
    nobles = draw(st.booleans())
    pool = dict(TOWER_COUNTS)
    stand_ins = [3 if nobles else 0]
    towers: tuple[list, list] = ([], [])
    for player in range(2):
        for _ in range(draw(st.integers(0, 7))):
            tower = draw(towers_of(pool, stand_ins))
            if tower is not None:
                towers[player].append(tower)
    played: tuple[list, list] = ([], [])
    if nobles:
        for card in PLAYABLE_NOBLES:
            owner = draw(st.sampled_from([None, 0, 1]))
            if owner is not None:
                played[owner].insert(draw(st.integers(0, len(played[owner]))), card)
    extra = {}
    if "closed_by" in Table.__dataclass_fields__:  # T-SCORE-DEALS: who closed, if anyone (4 complete towers)
        closers = [i for i in range(2) if sum(t.complete for t in towers[i]) >= 4]
        extra["closed_by"] = draw(st.sampled_from([None, *closers]))
    return Table(nobles, (draw(name_strategy), draw(name_strategy)), (tuple(towers[0]), tuple(towers[1])),
                 (tuple(played[0]), tuple(played[1])), draw(st.sampled_from([None, 0, 1])), **extra)
