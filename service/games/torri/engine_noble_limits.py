"""What the nobles allow around any move: how many nobles a player has used (T-NOB-LIMIT), the cap an
opponent's Palazzo Comunale sets and when playing it has no lasting effect (T-NOB-PC), and the Giostra window:
whether the opponent may answer a noble with Giostra, and opening it (T-NOB-GIOSTRA)."""
from __future__ import annotations

from ..core.turns import Events
from .cards import BUONA_PIETRA, GIOSTRA
from .engine_whereabouts import _from_hand
from .model import Pending, Player, State


def nobles_used(player: Player) -> int:
    """T-NOB-LIMIT: nobles in the played row plus every Buona Pietra standing in a tower."""
    return len(player.played) + sum(tower.cards.count(BUONA_PIETRA) for tower in player.towers)


def _within_noble_limit(used: int, theirs: int) -> bool:
    """T-NOB-LIMIT: having used `used` nobles (those of the move counted) against the opponent's `theirs`, a
    player is at most one ahead. Every noble played asks here: Buona Pietra in a tower, an action noble, Giostra."""
    return used <= theirs + 1


def palazzo_cap(s: State, player: int) -> int | None:
    """T-NOB-PC: the most stories a tower of `player` may have while the opponent's Palazzo Comunale stands (as
    many as the opponent's tallest tower), or None when no opponent's Palazzo is in play. Applying a build or an
    extension and listing them both ask here."""
    if s.palazzo is None or s.palazzo == player:
        return None
    return max((t.height for t in s.players[s.palazzo].towers), default=0)


def _palazzo_fizzles(s: State, owner: int) -> bool:
    """T-NOB-PC: the opponent already has a tower taller than all of the owner's towers."""
    mine = max((t.height for t in s.players[owner].towers), default=0)
    return any(t.height > mine for t in s.players[1 - owner].towers)


def _offer_giostra(s: State, actor: int, counted: int, events: Events) -> bool:
    """T-NOB-GIOSTRA: the opponent may answer a noble with Giostra if they could hold it and T-NOB-LIMIT allows
    it, counting the actor's card(s) as used. Opens the window (to_act = the opponent) when so."""
    if not s.nobles or not _giostra_allowed(s, actor, counted):
        return False
    s.to_act = 1 - actor
    return True


def _giostra_allowed(s: State, actor: int, counted: int) -> bool:
    reactor = s.players[1 - actor]
    if _from_hand(s, reactor, (GIOSTRA,)) is None:
        return False
    return _within_noble_limit(nobles_used(reactor) + 1, nobles_used(s.players[actor]) + counted)


def _window_counted(pending: Pending) -> int:
    """Nobles of the answered move not yet counted as used: the Buona Pietra still in the builder's hand."""
    return pending.cards.count(BUONA_PIETRA) if pending.action in ("build", "extend") else 0
