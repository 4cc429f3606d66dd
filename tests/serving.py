"""The app served for real on a loopback port (werkzeug, threaded), for tests that drive it as a client would: a
generated client, a browser."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from werkzeug.serving import WSGIRequestHandler, make_server

from service.api import create_app
from tests.settings import AS_DEPLOYED

CONFIG = AS_DEPLOYED


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any) -> None:  # hundreds of calls: the access log would drown a failure
        pass


@contextmanager
def served(name: str, config: dict[str, Any] | None = None) -> Iterator[str]:
    """The app (with `config`, default: no rate limit, no Redis) in a thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, create_app(config or CONFIG), threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
