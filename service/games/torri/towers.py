"""What a stack of cards can be as a tower (T-ACT-BUILD-1..3, T-NOB-BP)."""
from __future__ import annotations

from ..core.memo import memo
from .cards import BUONA_PIETRA, is_tower_card, names
from .messages import either, tr, tr_p
from .model import COLORFUL, PLAIN, Tower

MIN_HEIGHT = 3  # T-ACT-BUILD-1
LOWEST_STANDIN, HIGHEST_STANDIN = 4, 11  # T-NOB-BP: a Buona Pietra above a 5, or below a 10


@memo(8192)
def interpretations(cards: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """Every (kind, rank) the stack can be read as; empty if it is neither plain nor colorful."""
    tower_cards = [card for card in cards if card != BUONA_PIETRA]
    if not tower_cards or not all(is_tower_card(card) for card in tower_cards):
        return ()  # T-NOB-BP: a tower needs a tower card, and Buona Pietra is the only noble that is a story
    found: list[tuple[str, int]] = []
    first = tower_cards[0]
    if all(card == first for card in tower_cards):  # T-ACT-BUILD-2
        found.append((PLAIN, first))
    if len(set(tower_cards)) == len(tower_cards):  # T-ACT-BUILD-3: each rank at most once
        for bottom in range(HIGHEST_STANDIN, LOWEST_STANDIN - 1, -1):
            if _colorful_fits(cards, bottom):
                found.append((COLORFUL, bottom))
    return tuple(found)


def _colorful_fits(cards: tuple[int, ...], bottom: int) -> bool:
    if bottom - len(cards) + 1 < LOWEST_STANDIN:
        return False
    for position, card in enumerate(cards):
        wanted = bottom - position
        if card == BUONA_PIETRA:
            continue
        if card != wanted:
            return False
    # 11 and 4 exist only as stand-ins (the loop already rejected tower cards there)
    return True


def shape_rule(cards: tuple[int, ...]) -> str:
    """The rule a stack that is neither plain nor colorful breaks."""
    tower_cards = [card for card in cards if card != BUONA_PIETRA]
    if not tower_cards or not all(is_tower_card(card) for card in tower_cards):
        return "T-NOB-BP"  # a tower needs a tower card; no other noble is a story
    return "T-ACT-BUILD-3" if len(set(tower_cards)) == len(tower_cards) else "T-ACT-BUILD-2"


def read_tower(cards: tuple[int, ...], complete: bool, kind: str | None = None,
               rank: int | None = None) -> Tower | None:
    """The one tower these cards make (with `kind`/`rank` to settle ambiguity), or None."""
    options = [
        option for option in interpretations(cards)
        if (kind is None or option[0] == kind) and (rank is None or option[1] == rank)
    ]
    if len(options) != 1:
        return None
    return Tower(tuple(cards), complete, options[0][0], options[0][1])


def contradicted_field(readings: tuple[tuple[str, int], ...], kind: str | None, rank: int | None) -> str | None:
    """Which given field names what none of the readings is: "kind", "rank", or None when one agrees with both.
    A tower's kind and rank may always be given; they must agree with its cards (T-ACT-BUILD-2)."""
    if kind is not None and all(option_kind != kind for option_kind, _ in readings):
        return "kind"
    if not any((kind is None or option_kind == kind) and (rank is None or option_rank == rank)
               for option_kind, option_rank in readings):
        return "rank"
    return None


def reading(kind: str, rank: int) -> str:
    """What a stack makes as a tower, said: its kind and rank (`plain 9`, `colorful 10`: by its bottom rank)."""
    if kind == PLAIN:
        # Translators: a tower some cards make, in "they make a plain 10 or colorful 10" (a colorful tower by its
        # bottom rank)
        return tr_p("reading", "plain {rank}", rank=rank)
    return tr_p("reading", "colorful {rank}", rank=rank)


def mismatch(wrong: str, cards: tuple[int, ...], readings: tuple[tuple[str, int], ...]) -> str:
    """The problem of a tower's (or a build's) `kind` or `rank` (`wrong`) that none of its cards' `readings` has
    (T-ACT-BUILD-2)."""
    # Translators: {field} is "kind" or "rank" (a field of the document); {stack} the cards, bottom first
    # ("10-BP-BP"); {readings} what they make, like "plain 10 or colorful 10"
    return tr("\"{field}\" does not match the cards {stack}: they make a {readings}.", field=wrong,
              stack="-".join(names(cards)), readings=either(reading(kind, rank) for kind, rank in readings))


def extension_fits(tower: Tower, added: tuple[int, ...]) -> bool:
    """T-ACT-EXTEND-1: same rank on a plain tower; the next lower ranks in order on a colorful one."""
    if tower.kind == PLAIN:
        return all(card == tower.rank or card == BUONA_PIETRA for card in added)
    wanted = tower.top - 1
    for card in added:
        if wanted < LOWEST_STANDIN or (card != BUONA_PIETRA and card != wanted):
            return False
        wanted -= 1
    return True


def extended(tower: Tower, added: tuple[int, ...]) -> Tower:
    return Tower(tower.cards + tuple(added), tower.complete, tower.kind, tower.rank)

