"""What every game's whole-game operations share: the players a deal seats (`player_names`) and whose turn it is
(`to_act`)."""
from __future__ import annotations

from typing import Any, Iterable

from .errors import MalformedError, Problem
from .messages import tr, tr_n


def player_names(names: Iterable[str] | None, players: int | None, *, fewest: int, most: int, game: str,
                 rule: str) -> tuple[str, ...]:
    """The names a deal seats (`names`, or `players` unnamed ones, `fewest` by default), checked: as many as
    `players` says, `fewest` to `most` of them (the game's `rule`), each a text of 1 to 100 characters."""
    seated = tuple(names) if names is not None else tuple(f"Player {i + 1}" for i in range(players or fewest))
    if players is not None and players != len(seated):
        raise MalformedError(Problem(None, "/names", tr_n("{count} name for {players} players.",
                                                          "{count} names for {players} players.", len(seated),
                                                          players=players)))
    if not fewest <= len(seated) <= most:
        given = len(seated)
        said = (tr("{game} is for {fewest} players ({rule}); {given} given.", game=game, fewest=fewest, rule=rule,
                   given=given) if fewest == most else
                tr("{game} is for {fewest} to {most} players ({rule}); {given} given.", game=game, fewest=fewest,
                   most=most, rule=rule, given=given))
        raise MalformedError(Problem(None, "/names", said))
    for i, name in enumerate(seated):
        if not isinstance(name, str) or not 0 < len(name) <= 100:
            raise MalformedError(Problem(None, f"/names/{i}", tr("A name is a text of 1 to 100 characters.")))
    return seated


def to_act(state: Any) -> int | None:
    """Whose turn it is in a game whose state has `turn` and `over`; None once the game is over."""
    return None if state.over else state.turn


__all__ = ["player_names", "to_act"]
