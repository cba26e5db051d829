"""Serving the app: ``serve`` (blocking, for ``matchkit serve``) and ``running`` (a background
server on a free loopback port, for tests, notebooks and the report).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Unpack

import uvicorn

from matchkit.errors import InvalidArgumentError, ServiceError
from matchkit.rules.checks import checked_whole_number
from matchkit.rules.profiles import Profile
from matchkit.service.app import DataOptions, create_app
from matchkit.service.auth import resolve_api_keys
from matchkit.service.doubles import double_for, require_known_options
from matchkit.service.protocol import ConnectionLimits, EmbeddedServer, uvicorn_config
from matchkit.service.ratelimit import DEFAULT_RATE_LIMIT, RateLimit
from matchkit.service.requestlog import RequestLog

__all__ = ["RunningService", "running", "serve"]

_START_TIMEOUT_SECONDS = 30.0


def serve(
    *,
    profile: str | Profile | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    api_keys: list[str] | tuple[str, ...] | None = None,
    api_key_file: str | Path | None = None,
    limits: ConnectionLimits | None = None,
    environ: Mapping[str, str] | None = None,
    announce: Callable[[str], None] | None = None,
    announce_key: Callable[[str], None] | None = None,
    **options: Unpack[DataOptions],
) -> None:
    """Run the service with uvicorn until interrupted; announces the base URL and the key.

    The keys accepted are ``api_keys`` and those in ``api_key_file`` (one per line); without
    either, ``MATCHKIT_API_KEY`` from ``environ`` (default: the process environment); without
    that, one generated key. A generated key is shown once, on its own line through
    ``announce_key`` (default: standard error), apart from the other lines and from uvicorn's
    access log (standard output); it never reaches a log. ``options`` (``data``,
    ``now``, ``rate_limit``, ``faults``, ``store_dir``) go to :func:`matchkit.service.create_app`
    as they are; ``limits`` bounds connections (see
    :class:`matchkit.service.protocol.ConnectionLimits`); ``port=0`` picks a free port.
    ``announce`` receives the other lines (default: standard output).

    ``profile`` chooses the service (:mod:`matchkit.service.doubles`): the Gamelocker one by
    default, ``"pubg"`` the PUBG double (:func:`matchkit.service.pubg.serve`, which takes the
    same keys, host and port and its own options).

    Raises:
        MatchkitError: the key file cannot be read, the data cannot be loaded, or the address
            is taken.
        InvalidArgumentError: an unknown profile, or an option its service does not take.
    """
    double = double_for(profile)
    if double is not None:
        given = {
            "host": host,
            "port": port,
            "api_keys": api_keys,
            "api_key_file": api_key_file,
            "limits": limits,
            "environ": environ,
            "announce": announce,
            "announce_key": announce_key,
            **options,
        }
        require_known_options(given, double.serve, double.create_app, profile=profile)
        double.serve(**given)
        return
    _check_port(port)
    announce = announce or _print
    announce_key = announce_key or _print_to_stderr
    keys, source = resolve_api_keys(
        api_keys, api_key_file=api_key_file, environ=os.environ if environ is None else environ
    )
    app = create_app(api_keys=keys, **options)
    service = app.state.service
    listener = _listen(host, port)
    announce(f"matchkit service on {_base_url(host, listener.getsockname()[1])}")
    if keys is None:
        announce_key(f"API key: {service.api_keys.first}")
    else:
        announce_key(f"accepting the {len(keys)} API key(s) {source}")
    now_text = "wall clock" if service.fixed_now is None else service.fixed_now.isoformat()
    rate_limit = options.get("rate_limit", DEFAULT_RATE_LIMIT)
    announce(
        f"now: {now_text}; rate limit: {rate_limit or 'off'}; a match is listed {service.ingestion}"
    )
    if app.state.fault_injector is not None:
        announce(f"injecting faults: {app.state.fault_injector.faults}")
    config = uvicorn_config(app, limits=limits, log_level="info")
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
        service.store.close()


def _print(line: str) -> None:
    print(line, flush=True)


def _print_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _check_port(port: object) -> None:
    """Refuse a port no socket can have before any data is loaded."""
    checked_whole_number(
        port,
        parameter="port",
        message=f"port={port!r} must be a whole number from 0 to 65535 (0: a free port)",
        low=0,
        high=65535,
    )


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0: a free port)."""
    # IPPROTO_TCP given explicitly: asyncio turns Nagle off (TCP_NODELAY) only for sockets whose
    # proto says TCP; without it every response would wait ~40 ms for a delayed ACK.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise InvalidArgumentError(
            f"cannot listen on {host}:{port} ({error.strerror}); choose another --port",
            parameter="port",
        ) from None
    listener.listen(1024)
    return listener


@dataclass(frozen=True)
class RunningService:
    """A service running in the background.

    Attributes:
        base_url: e.g. ``"http://127.0.0.1:54321"``.
        api_key: a key it accepts (hidden from the repr).
        now: the moment it takes as now, or ``None`` when it follows the wall clock.
        requests: the log of the requests it received.
        app: the ASGI app (its ``state.service`` holds the store and settings).
        telemetry_url: the base URL of a telemetry host of its own (the PUBG double's second
            listener), or ``None`` (the Gamelocker service serves telemetry itself).
    """

    base_url: str
    api_key: str = field(repr=False)
    now: datetime | None
    requests: RequestLog = field(repr=False)
    app: Any = field(repr=False)
    telemetry_url: str | None = None


def _base_url(host: str, port: int) -> str:
    shown_host = f"[{host}]" if ":" in host else host  # an IPv6 address in brackets
    return f"http://{shown_host}:{port}"


def running(
    *,
    profile: str | Profile | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    rate_limit: str | RateLimit | None = "off",
    limits: ConnectionLimits | None = None,
    **options: Any,
) -> contextlib.AbstractContextManager[RunningService]:
    """Serve the reference service of ``profile`` in the background while in the block.

    The Gamelocker service by default (:func:`_running`'s options below); ``profile="pubg"``
    runs the PUBG double and its telemetry host (:func:`matchkit.service.pubg.running`).

    Raises:
        InvalidArgumentError: an unknown profile, or an option its service does not take.
    """
    double = double_for(profile)
    given = {
        "host": host,
        "port": port,
        "rate_limit": rate_limit,
        "limits": limits,
        **options,
    }
    if double is None:
        require_known_options(given, _running, create_app, profile=profile)
        return _running(**given)
    require_known_options(given, double.running, double.create_app, profile=profile)
    result: contextlib.AbstractContextManager[RunningService] = double.running(**given)
    return result


@contextlib.contextmanager
def _running(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    rate_limit: str | RateLimit | None = "off",
    ingestion_delay: Any = "off",
    limits: ConnectionLimits | None = None,
    **options: Any,
) -> Iterator[RunningService]:
    """Serve in a background thread on a free loopback port (or ``port``) while in the block.

    The embedded test double: rate limiting is off unless ``rate_limit="N/minute"`` is given,
    and every match is listed from its ``createdAt`` unless ``ingestion_delay`` is given
    (decision 20: ``"default"``, ``0``, ``"10m"``, ...; :mod:`matchkit.service.ingestion`).
    ``limits`` bounds connections (see :class:`matchkit.service.protocol.ConnectionLimits`).
    Other options as for :func:`matchkit.service.create_app` (``data``, ``api_keys``, ``now``,
    ``store_dir``, ``clock``, ...); ``MATCHKIT_API_KEY`` is not read: the key is generated
    unless ``api_keys`` is given. The process's logging is left as it is: the service's lines
    go to the ``uvicorn.error`` logger, and there is no access log.

    Example:
        >>> with running() as service:  # doctest: +SKIP
        ...     requests.get(f"{service.base_url}/status").status_code
        200
    """
    _check_port(port)
    requests = RequestLog()
    app = create_app(
        rate_limit=rate_limit, ingestion_delay=ingestion_delay, request_log=requests, **options
    )
    listener = _listen(host, port)
    bound_port = listener.getsockname()[1]
    server = EmbeddedServer(app, limits=limits, timeout_graceful_shutdown=5)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [listener]}, name="matchkit-service", daemon=True
    )
    thread.start()
    try:
        deadline = time.monotonic() + _START_TIMEOUT_SECONDS
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise ServiceError("the embedded matchkit service did not start; see the log")
            time.sleep(0.005)  # waiting for startup, not for a result
        service = app.state.service
        yield RunningService(
            base_url=_base_url(host, bound_port),
            api_key=service.api_keys.first,
            now=service.fixed_now,
            requests=requests,
            app=app,
        )
    finally:
        server.stop()
        thread.join(timeout=_START_TIMEOUT_SECONDS)
        listener.close()
        app.state.service.store.close()
        logging.getLogger(__name__).debug("embedded service on port %d stopped", bound_port)
