"""The connection layer of the service: bounded requests, and JSON:API answers below the app.

uvicorn's HTTP/1.1 protocol (h11) answers what it cannot parse (raw non-ASCII bytes in the
request line or a header name, a request head over its size limit, bytes that are not HTTP) with
a plain-text 400 without CORS headers, and it closes a connection only after a response: one that
never finishes its request stays open for good. :class:`ServiceProtocol` keeps uvicorn's
protocol and changes three things:

- what uvicorn would answer in plain text is a JSON:API error document with the CORS headers:
  400 for a request that is not HTTP/1.1, 414 for a request line over the head limit, 431 for a
  head over it, then the connection is closed;
- a request must be complete within :attr:`ConnectionLimits.request_timeout` seconds of the
  connection's start or of the previous response; a connection that sent part of a request head
  by then gets a JSON:API 408, any other is closed;
- above :attr:`ConnectionLimits.max_connections` open connections, a new connection's requests
  get a JSON:API 503 with ``Retry-After`` and ``Connection: close`` (uvicorn's own
  ``limit_concurrency`` answers in plain text, so it is left off).

Idle keep-alive connections are closed after :attr:`ConnectionLimits.keep_alive` seconds
(uvicorn's ``timeout_keep_alive``). :func:`uvicorn_config` builds the uvicorn configuration that
``serve``, ``running`` and the benchmark share.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from matchkit.rules.checks import checked_positive_number
from matchkit.service.documents import error_body
from matchkit.service.responses import CORS_HEADERS, JSON, respond

__all__ = ["ConnectionLimits", "EmbeddedServer", "ServiceProtocol", "uvicorn_config"]

_HEAD_END = re.compile(rb"\r?\n\r?\n")


@dataclass(frozen=True)
class ConnectionLimits:
    """How much a connection may hold of the service.

    Attributes:
        max_head_bytes: the largest request head (request line and headers) read; uvicorn's
            ``h11_max_incomplete_event_size``.
        request_timeout: seconds a connection has to complete a request, counted from its
            start or from the end of the previous response.
        keep_alive: seconds an idle connection is kept after a response (uvicorn's
            ``timeout_keep_alive``).
        max_connections: open connections above which new ones are answered 503.

    Raises:
        InvalidArgumentError: a limit that is not a positive number.
    """

    max_head_bytes: int = 32 * 1024
    request_timeout: float = 10.0
    keep_alive: float = 5.0
    max_connections: int = 1000

    def __post_init__(self) -> None:
        for name in ("max_head_bytes", "request_timeout", "keep_alive", "max_connections"):
            value = getattr(self, name)
            whole = name in ("max_head_bytes", "max_connections")
            kind = "a whole number" if whole else "a number of seconds"
            message = f"{name}={value!r} must be {kind} > 0"
            checked_positive_number(value, parameter=f"limits.{name}", message=message, whole=whole)


class _EmbeddedConfig(uvicorn.Config):
    """A uvicorn configuration that leaves the process's logging as it is.

    ``uvicorn.Config`` configures logging for the whole process: it applies its
    ``LOGGING_CONFIG`` (handlers on standard error, the ``uvicorn.error`` level at INFO) and then
    sets the levels of the ``uvicorn.*`` loggers. A service embedded in someone else's process
    (a notebook, a test) must not: two servers started together (the PUBG double and its
    telemetry host) raced on those loggers, and uvicorn's INFO start-up lines reached a
    notebook's standard error. Its lines go to the ``uvicorn.error`` logger, configured (or
    not) by the process that embeds it, and its access log is off.
    """

    def configure_logging(self) -> None:
        return None


class EmbeddedServer(uvicorn.Server):
    """A uvicorn server of ``app`` inside another program (a test, a notebook): it leaves the
    process's logging as it is (:class:`_EmbeddedConfig`), logs no access, and stops when
    :meth:`stop` asks, not at its next tick. ``options`` are uvicorn's, as for
    :func:`uvicorn_config`.

    uvicorn looks at ``should_exit`` every 0.1 s; a service embedded in a test or a notebook is
    started and stopped hundreds of times a run, and each stop waited for that tick.
    """

    def __init__(self, app: Any, *, limits: ConnectionLimits | None = None, **options: Any) -> None:
        super().__init__(_config(_EmbeddedConfig, app, limits, access_log=False, **options))
        self._awake: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    async def main_loop(self) -> None:
        """uvicorn's loop (a tick every 0.1 s), woken at once by :meth:`stop`."""
        wake = asyncio.Event()
        self._awake = (asyncio.get_running_loop(), wake)
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):  # the tick: nobody woke it
                await asyncio.wait_for(wake.wait(), timeout=0.1)

    def stop(self) -> None:
        """Ask the server to shut down now (from any thread)."""
        self.should_exit = True
        if self._awake is not None:
            loop, wake = self._awake
            with contextlib.suppress(RuntimeError):  # its loop has already closed
                loop.call_soon_threadsafe(wake.set)


def uvicorn_config(app: Any, *, limits: ConnectionLimits | None = None, **options: Any) -> Any:
    """A ``uvicorn.Config`` serving ``app`` with :class:`ServiceProtocol` under ``limits``, for
    a process of its own (``matchkit serve``: uvicorn configures its logging; an embedded
    service is an :class:`EmbeddedServer`).

    Other options are uvicorn's (``log_level``, ``access_log``, ...); ``lifespan`` is off.
    """
    return _config(uvicorn.Config, app, limits, **options)


def _config(
    config_class: type[uvicorn.Config],
    app: Any,
    limits: ConnectionLimits | None,
    **options: Any,
) -> uvicorn.Config:
    limits = limits or ConnectionLimits()
    return config_class(
        app,
        # uvicorn calls ``http`` as a factory and hands timeout_keep_alive to loop.call_later,
        # so a partial and fractional seconds work; its annotations ask for a class and an int.
        http=functools.partial(ServiceProtocol, limits=limits),  # type: ignore[arg-type]
        h11_max_incomplete_event_size=limits.max_head_bytes,
        timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        # No WebSocket endpoint: an Upgrade request is served as plain HTTP even where a
        # WebSocket library is installed.
        ws="none",
        lifespan="off",
        # The service writes its own Date (its now, matchkit.service.clock), not the machine's.
        date_header=False,
        **options,
    )


def error_bytes(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 response: a JSON:API error with the CORS headers, then close."""
    body = error_body(status, detail)
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode(),
        b"content-type: " + JSON.encode(),
        *(name + b": " + value for name, value in CORS_HEADERS),
        b"connection: close",
        b"content-length: " + str(len(body)).encode(),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


async def _over_capacity(scope: Any, receive: Any, send: Any) -> None:
    """The app of a connection opened above the limit: every request a 503, then close."""
    detail = "the service has too many open connections; retry in a few seconds"
    response = respond(
        503,
        error_body(503, detail),
        content_type=JSON,
        gzip=False,
        extra_headers=[(b"retry-after", b"1"), (b"connection", b"close")],
    )
    await response(scope, receive, send)


class ServiceProtocol(H11Protocol):
    """uvicorn's h11 protocol with bounded requests and JSON:API answers (see the module)."""

    def __init__(self, *args: Any, limits: ConnectionLimits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn logs access when the access logger has handlers anywhere up to the root; an
        # embedded service (access_log=False) is asked for none, whatever the process set up.
        self.access_log = self.access_log and self.config.access_log
        self.limits = limits
        self._request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        open_connections = len(self.connections)
        if open_connections > self.limits.max_connections:
            if open_connections == self.limits.max_connections + 1:  # once per crossing
                self.logger.warning(
                    "more than %d open connections: answering 503 to new ones",
                    self.limits.max_connections,
                )
            self.app = _over_capacity
        self._watch_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_request_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # h11 bounds only a head that arrives in parts; one that arrives whole is parsed at any
        # size, so the head is measured here before h11 reads it.
        if self.conn.their_state is h11.IDLE:
            buffered = self.conn.trailing_data[0] + data
            end = _HEAD_END.search(buffered)
            if (end.end() if end else len(buffered)) > self.limits.max_head_bytes:
                self._answer(*self._too_large(buffered))
                return
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        self._watch_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_request()

    def send_400_response(self, msg: str) -> None:
        buffered = self.conn.trailing_data[0]
        if len(buffered) > self.limits.max_head_bytes:  # h11 stopped at its size limit
            self._answer(*self._too_large(buffered))
        else:
            self._answer(
                400,
                "the request is not valid HTTP/1.1 (the request line and header names must be "
                "ASCII; percent-encode other bytes)",
            )

    def _too_large(self, buffered: bytes) -> tuple[int, str]:
        limit = self.limits.max_head_bytes
        if b"\n" not in buffered[: limit + 1]:
            return 414, f"the request line is longer than {limit} bytes"
        return 431, f"the request line and headers are longer than {limit} bytes"

    def _answer(self, status: int, detail: str) -> None:
        """Write a JSON:API error and close; only close if a response has begun already."""
        self._stop_request_timer()
        if self.transport.is_closing():
            return
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            self.transport.write(error_bytes(status, detail))
        self.transport.close()

    def _watch_request(self) -> None:
        """Run the request timer while the connection waits for (the rest of) a request."""
        waiting = self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not (
            self.transport is None or self.transport.is_closing()
        )
        if not waiting:
            self._stop_request_timer()
        elif self._request_timer is None:
            self._request_timer = self.loop.call_later(
                self.limits.request_timeout, self._request_timed_out
            )

    def _stop_request_timer(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _request_timed_out(self) -> None:
        self._request_timer = None
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            seconds = f"{self.limits.request_timeout:g}"
            self._answer(408, f"the request head was not complete within {seconds} s")
        else:
            # Nothing sent, or a body still trickling in after its request was read (a response
            # may be on its way already): no answer fits, the connection is closed.
            self._unset_keepalive_if_required()
            self.transport.close()
