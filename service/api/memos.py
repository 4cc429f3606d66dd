"""A worker empties the game engines' memos every ENGINE_MEMO_REQUESTS requests (service/games/core/memo.py says
why: they serve a search, and across requests they would only fill)."""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..games.core import memo


class ForgettingMemos:
    """WSGI middleware: counts the requests and calls `memo.forget()` at every `every`-th."""

    def __init__(self, wsgi_app: Callable, every: int) -> None:
        self.wsgi_app = wsgi_app
        self.every = every
        self.count = 0  # (two threads may count one request as one: the next emptying comes a request late)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        self.count += 1
        if self.count >= self.every:
            self.count = 0
            memo.forget()
        return self.wsgi_app(environ, start_response)


def forget_memos_every(app: Any, every: int) -> None:
    """Put the middleware in front of the app (0: the memos are never emptied)."""
    if every:
        app.wsgi_app = ForgettingMemos(app.wsgi_app, every)
