"""A folder served over HTTP on 127.0.0.1, as a web site serves it (used by tests)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path


@contextlib.contextmanager
def serve(folder: Path):
    """Serve ``folder`` on a free port; yield its URL (ending in ``/``) and the list of
    paths requested so far. Requests are recorded, not printed."""
    requested: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            requested.append(self.path)

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/", requested
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
