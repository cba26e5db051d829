"""CI, session 4: ``test_files_of_other_sources_are_not_made_up`` failed with a connection reset.

The service tests share one ``requests.Session``; its previous request had been sent about 5 s
earlier, when the service closes an idle keep-alive connection, and the next request went out on
the connection as it was being closed. A bare session does not send such a request again; the
tests' ``pooled_session`` does, once. The server here resets the reused connection on purpose,
so the race happens on every run.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator

import pytest
import requests

from tests.sessions import pooled_session

_OK = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"


def _read_head(connection: socket.socket) -> bytes:
    head = b""
    while b"\r\n\r\n" not in head:
        try:
            chunk = connection.recv(4096)
        except TimeoutError:  # an idle client: the connection is done
            return b""
        if not chunk:
            return head
        head += chunk
    return head


def _serve(listener: socket.socket) -> None:
    """Every connection: one answer kept alive, then a reset instead of the second answer."""
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:  # the listener was closed
            return
        with connection:
            connection.settimeout(0.5)
            if _read_head(connection):
                connection.sendall(_OK)
            if _read_head(connection):  # a reused connection: closed as if idle too long
                linger = struct.pack("ii", 1, 0)  # close with RST, as a busy server does
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)


@pytest.fixture
def url() -> Iterator[str]:
    listener = socket.create_server(("127.0.0.1", 0))
    thread = threading.Thread(target=_serve, args=(listener,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
    listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() of the server thread
    listener.close()
    thread.join(timeout=5)


def test_a_bare_session_fails_on_the_raced_connection(url):
    with requests.Session() as session:
        assert session.get(url, timeout=5).text == "ok"
        with pytest.raises(requests.ConnectionError):
            session.get(url, timeout=5)


def test_the_tests_pooled_session_sends_the_request_again(url):
    with pooled_session() as session:
        answers = [session.get(url, timeout=5).text for _ in range(3)]
    assert answers == ["ok", "ok", "ok"]
