"""Torri's sentences: entries of this folder's catalogues (service.games.core.language), and the small pieces its
sentences share: a list of alternatives as the service has always written it (`a or b or c`), a tower's ordinal
(`second`) and a list of cards (`9, 9 and 9`, or `no card`)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.language import Catalogues, Listed

tr, tr_n, tr_p = Catalogues.of(__file__).makers()


def either(items: Iterable[Any]) -> Any:
    """Alternatives, each joined to the next by `or` (`deck or noble_deck or market`): the items as they are (ids
    mostly), the `or` said in the language."""
    said: Any = None
    for item in items:
        # Translators: alternatives, chained: "deck or market", "build or extend or stop" (ids stay as they are)
        said = item if said is None else tr("{first} or {second}", first=said, second=item)
    return "" if said is None else said


def comma_listed(items: Iterable[Any]) -> Any:
    """Items one after another, separated by commas (`a, b, c`), as the service has always written such lists."""
    said: Any = None
    for item in items:
        # Translators: a list's items one after another ("player 0 tower 1, player 1 tower 3")
        said = item if said is None else tr("{first}, {second}", first=said, second=item)
    return "" if said is None else said


# Translators: a tower's place in the order its owner built it, said before the word "tower" ("their second
# tower"): agree it with "tower" (fr: deuxième; it: seconda; de: written "2.", which every case of "Turm" takes)
ORDINALS = (tr_p("tower", "first"), tr_p("tower", "second"), tr_p("tower", "third"), tr_p("tower", "fourth"),
            tr_p("tower", "fifth"), tr_p("tower", "sixth"), tr_p("tower", "seventh"), tr_p("tower", "eighth"),
            tr_p("tower", "ninth"), tr_p("tower", "tenth"), tr_p("tower", "eleventh"), tr_p("tower", "twelfth"))


def ordinal(index: int) -> Any:
    """A tower's place in the order its owner built it, as a word (`first` for index 0), beyond the twelfth as a
    number (`13th`); it stands before the word "tower"."""
    if 0 <= index < len(ORDINALS):
        return ORDINALS[index]
    number = index + 1
    if 10 <= number % 100 <= 20 or number % 10 not in (1, 2, 3):
        # Translators: a tower's place beyond the twelfth, as a number ("their 13th tower")
        return tr_p("tower", "{number}th", number=number)
    if number % 10 == 1:
        return tr_p("tower", "{number}st", number=number)
    if number % 10 == 2:
        return tr_p("tower", "{number}nd", number=number)
    return tr_p("tower", "{number}rd", number=number)


def card_list(names: Sequence[Any]) -> Any:
    """Cards as said at the table, in a list the language's way (`9, 9 and 9`); `no card` for none."""
    if not names:
        return tr("no card")
    return Listed(names)


__all__ = ["card_list", "comma_listed", "either", "ordinal", "tr", "tr_n", "tr_p"]
