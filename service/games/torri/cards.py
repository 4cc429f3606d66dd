"""Cards of Le Torri di San Gimignano: small ints inside, names on the wire.

Tower cards are their rank (5..10). Nobles are ints above every rank, so a sorted hand lists tower cards
first, then nobles, and a rank comparison never mistakes a noble for a tower card.
"""
from __future__ import annotations

RANKS: tuple[int, ...] = (5, 6, 7, 8, 9, 10)

BUONA_PIETRA = 20
VIA_FRANCIGENA = 21
MONUMENTO = 22
GIOSTRA = 23
CAPPELLA = 24
PALAZZO = 25
MURA = 26
NOBLES: tuple[int, ...] = (BUONA_PIETRA, VIA_FRANCIGENA, MONUMENTO, GIOSTRA, CAPPELLA, PALAZZO, MURA)

# T-COMP-1: r cards of rank r. T-COMP-2: the ten nobles.
TOWER_COUNTS: dict[int, int] = {rank: rank for rank in RANKS}
NOBLE_COUNTS: dict[int, int] = {
    BUONA_PIETRA: 3, VIA_FRANCIGENA: 2, MONUMENTO: 1, GIOSTRA: 1, CAPPELLA: 1, PALAZZO: 1, MURA: 1,
}
TOWER_CARDS = sum(TOWER_COUNTS.values())  # 45

NOBLE_NAMES: dict[int, str] = {
    BUONA_PIETRA: "buona_pietra", VIA_FRANCIGENA: "via_francigena", MONUMENTO: "monumento",
    GIOSTRA: "giostra", CAPPELLA: "cappella", PALAZZO: "palazzo", MURA: "mura",
}
CARD_NAMES: dict[int, str] = {**{rank: str(rank) for rank in RANKS}, **NOBLE_NAMES}
CARDS_BY_NAME: dict[str, int] = {name: card for card, name in CARD_NAMES.items()}

GUARD = 5  # T-DON-5: a 5 played from hand cancels a Trade or a Conspiracy
CONTRACT = 6  # T-DON-6
BLESSING = 7  # T-DON-7
INCOME = 8  # T-DON-8
TRADE = 9  # T-DON-9
CONSPIRACY = 10  # T-DON-10

HAND_LIMIT = 7  # T-SETUP-4
MURA_HAND_LIMIT = 9  # T-NOB-MURA


def is_tower_card(card: int) -> bool:
    return card <= 10


def card_name(card: int) -> str:
    return CARD_NAMES[card]


_name_of = CARD_NAMES.__getitem__  # (bound once: a state's JSON names a dozen piles)


def names(cards) -> list[str]:
    return list(map(_name_of, cards))
