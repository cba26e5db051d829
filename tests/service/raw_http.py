"""Raw HTTP/1.1 over a loopback socket: requests no client library would send, read as bytes.

Every read has a timeout, every loop a bound, so a server that never answers fails the test
instead of hanging it.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import orjson

READ_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True)
class RawResponse:
    """A response read off the wire: status, lower-cased headers, body, and whether the server
    closed the connection after it."""

    status: int
    headers: dict[str, str]
    body: bytes
    closed: bool

    def error(self) -> dict:
        """The single JSON:API error of the body."""
        (error,) = orjson.loads(self.body)["errors"]
        return error


def connect(base_url: str) -> socket.socket:
    parts = urlsplit(base_url)
    connection = socket.create_connection((parts.hostname, parts.port), timeout=5)
    connection.settimeout(READ_TIMEOUT_SECONDS)
    return connection


def read_response(connection: socket.socket) -> RawResponse:
    """One response; raises ``TimeoutError`` when none arrives in time."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before a whole response head: {data[:200]!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return RawResponse(
        status=int(status_line.split()[1]),
        headers=headers,
        body=body[:length],
        closed=closed_by_server(connection, within=0.5)
        if headers.get("connection") == "close"
        else False,
    )


def closed_by_server(connection: socket.socket, *, within: float) -> bool:
    """Whether the server closes the connection (EOF or reset) within ``within`` seconds,
    discarding anything else it sends."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        connection.settimeout(left)
        try:
            if not connection.recv(65536):
                return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
    return False


def exchange(base_url: str, payload: bytes) -> RawResponse:
    """Send ``payload`` on a new connection and read one response."""
    with connect(base_url) as connection:
        connection.sendall(payload)
        return read_response(connection)
