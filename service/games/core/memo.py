"""The engines' memos: `functools.lru_cache`, each registered here, so that a server can let go of them all.

An engine memoises what a game tree repeats (a hand after a draw, a board's layout, the groups a board allows):
within a search (perft, a computer player's playouts) the same questions come back thousands of times, and a memo
of a few thousand entries pays for itself many times over. Across a server's requests they come back rarely (each
request is another table), so a worker's memos would fill a few entries a request for tens of thousands of
requests, its memory creeping up long after every other bound was reached. A server therefore calls `forget()`
every so many requests (service/api: ENGINE_MEMO_REQUESTS): what a search memoises lives as long as the search,
and what nearby requests share (the same table asked twice in a row) still meets its memo.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_MEMOS: list[Any] = []  # every memo made or registered here, each with cache_clear() and cache_info()


def memo(maxsize: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)`, registered so that `forget()` empties it."""
    def decorate(function: F) -> F:
        return remember(lru_cache(maxsize=maxsize)(function))
    return decorate


def remember(cached: F) -> F:
    """Register a memo made otherwise (anything with `cache_clear()`); returns it."""
    _MEMOS.append(cached)
    return cached


def forget() -> None:
    """Empty every registered memo."""
    for cached in _MEMOS:
        cached.cache_clear()


def entries() -> int:
    """What the registered memos hold now, in entries (those that say: `cache_info()`)."""
    return sum(cached.cache_info().currsize for cached in _MEMOS if hasattr(cached, "cache_info"))


__all__ = ["entries", "forget", "memo", "remember"]
