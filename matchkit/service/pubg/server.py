"""Serving the PUBG double: the API and its telemetry host, each on its own loopback listener.

:func:`running` (tests, notebooks, the embedded client) and :func:`serve` (``matchkit serve
--profile pubg``) bind the telemetry listener first, so that the API's asset URLs name its
address, then the API's; both answer until the block ends or the command is interrupted.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import uvicorn

from matchkit.errors import ServiceError
from matchkit.service.auth import resolve_api_keys
from matchkit.service.protocol import ConnectionLimits, EmbeddedServer, uvicorn_config
from matchkit.service.pubg.app import create_app
from matchkit.service.pubg.cdn import create_telemetry_app
from matchkit.service.requestlog import RequestLog
from matchkit.service.server import RunningService, _base_url, _check_port, _listen

__all__ = ["running", "serve"]

_START_TIMEOUT_SECONDS = 30.0


@contextlib.contextmanager
def running(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    telemetry_port: int = 0,
    rate_limit: str | None = "off",
    limits: ConnectionLimits | None = None,
    **options: Any,
) -> Iterator[RunningService]:
    """The PUBG double in background threads on free loopback ports while in the block.

    Rate limiting is off unless ``rate_limit="N/minute"`` is given; other options as for
    :func:`matchkit.service.pubg.app.create_app` (``api_keys``, ``now``, ``seed``, ``clock``).
    The :class:`~matchkit.service.server.RunningService` has ``telemetry_url`` (the CDN).
    """
    _check_port(port)
    _check_port(telemetry_port)
    requests = RequestLog()
    cdn_listener = _listen(host, telemetry_port)
    telemetry_url = _base_url(host, cdn_listener.getsockname()[1])
    try:
        app = create_app(
            rate_limit=rate_limit, request_log=requests, telemetry_url=telemetry_url, **options
        )
        listener = _listen(host, port)
    except BaseException:
        cdn_listener.close()
        raise
    servers = []
    for served, socket_ in (
        (create_telemetry_app(app.state.service), cdn_listener),
        (app, listener),
    ):
        server = EmbeddedServer(served, limits=limits, timeout_graceful_shutdown=5)
        thread = threading.Thread(
            target=server.run, kwargs={"sockets": [socket_]}, name="matchkit-pubg", daemon=True
        )
        thread.start()
        servers.append((server, thread, socket_))
    try:
        deadline = time.monotonic() + _START_TIMEOUT_SECONDS
        for server, thread, _ in servers:
            while not server.started:
                if not thread.is_alive() or time.monotonic() > deadline:
                    raise ServiceError("the embedded PUBG service did not start; see the log")
                time.sleep(0.005)  # waiting for startup, not for a result
        service = app.state.service
        yield RunningService(
            base_url=_base_url(host, listener.getsockname()[1]),
            api_key=service.api_keys.first,
            now=service.fixed_now,
            requests=requests,
            app=app,
            telemetry_url=telemetry_url,
        )
    finally:
        for server, _, _ in servers:
            server.stop()
        for _, thread, socket_ in servers:
            thread.join(timeout=_START_TIMEOUT_SECONDS)
            socket_.close()
        logging.getLogger(__name__).debug("embedded PUBG service stopped")


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    telemetry_port: int | None = None,
    api_keys: list[str] | tuple[str, ...] | None = None,
    api_key_file: str | Path | None = None,
    limits: ConnectionLimits | None = None,
    environ: Mapping[str, str] | None = None,
    announce: Callable[[str], None] | None = None,
    announce_key: Callable[[str], None] | None = None,
    **options: Any,
) -> None:
    """Run the PUBG double until interrupted: the API on ``port``, the telemetry host on
    ``telemetry_port`` (default: the next port; 0: a free one). Keys as for
    :func:`matchkit.service.serve`; ``options`` go to
    :func:`matchkit.service.pubg.app.create_app`."""
    from matchkit.service.server import _print, _print_to_stderr

    _check_port(port)
    cdn_port = (port + 1 if port else 0) if telemetry_port is None else telemetry_port
    _check_port(cdn_port)
    announce = announce or _print
    announce_key = announce_key or _print_to_stderr
    keys, source = resolve_api_keys(
        api_keys, api_key_file=api_key_file, environ=os.environ if environ is None else environ
    )
    cdn_listener = _listen(host, cdn_port)
    telemetry_url = _base_url(host, cdn_listener.getsockname()[1])
    try:
        app = create_app(api_keys=keys, telemetry_url=telemetry_url, **options)
        listener = _listen(host, port)
    except BaseException:
        cdn_listener.close()
        raise
    service = app.state.service
    announce(f"matchkit PUBG service on {_base_url(host, listener.getsockname()[1])}")
    if keys is None:
        announce_key(f"API key: {service.api_keys.first}")
    else:
        announce_key(f"accepting the {len(keys)} API key(s) {source}")
    now_text = "wall clock" if service.fixed_now is None else service.fixed_now.isoformat()
    limit = service.rate_limiter.limit if service.rate_limiter is not None else "off"
    limited = ", ".join(sorted(service.profile.rate_limited))
    published = service.profile.name_dictionaries
    names = urlsplit(published.url).path if published is not None else "/"
    announce(
        f"now: {now_text}; rate limit: {limit} on {limited}; telemetry files on {telemetry_url}; "
        f"names at {telemetry_url}{names} (client.names(dictionaries=...))"
    )
    # Embedded: the API's configuration below sets up the process's logging, once.
    cdn = EmbeddedServer(create_telemetry_app(service), limits=limits)
    thread = threading.Thread(
        target=cdn.run, kwargs={"sockets": [cdn_listener]}, name="matchkit-pubg-cdn", daemon=True
    )
    thread.start()
    config = uvicorn_config(app, limits=limits, log_level="info")
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        cdn.stop()
        thread.join(timeout=_START_TIMEOUT_SECONDS)
        listener.close()
        cdn_listener.close()
