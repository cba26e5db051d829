"""A bare HTTP server on loopback whose handler writes the raw answer itself.

For answers pytest-httpserver cannot give: a body that trickles in byte by byte, a gzip body
that inflates to far more than it weighs, a redirect to a URL that cannot be parsed.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Handler = Callable[[BaseHTTPRequestHandler], None]
"""Answers one GET: writes the status line, headers and body to the handler's ``wfile``."""


@contextmanager
def raw_server(answer: Handler) -> Iterator[tuple[str, list[str]]]:
    """Serve ``answer`` on 127.0.0.1; yields the base URL and the paths requested so far."""
    seen: list[str] = []

    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            seen.append(self.path)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                answer(self)  # a broken pipe: the client gave up, what the tests want

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def send(handler: BaseHTTPRequestHandler, status: int, body: bytes = b"", **headers: str) -> None:
    """Write a whole answer: the status, ``headers`` (``Content_Type`` -> ``Content-Type``),
    a Content-Length, and ``body``."""
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
