"""What a client opens: the embedded service when it needs one, then its one session, one request
path and one transport.

:func:`connect` builds them in that order from the client's :class:`ClientSettings`. Every
request of the client, to the service or to the host of telemetry files, goes through the one
:class:`matchkit.client.transport.Transport` it returns, over the one cached session: there is
no second session on the cache file, and nothing is copied from the client to another sender.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from matchkit.client.cache import CacheKeys, CachingSession, create_session
from matchkit.client.clock import Clock, PinnedClock, ServiceClock
from matchkit.client.embedded import start_embedded
from matchkit.client.request import RequestPath
from matchkit.client.retrying import Scrubber
from matchkit.client.settings import ClientSettings
from matchkit.client.throttle import Throttle
from matchkit.client.transport import Transport
from matchkit.client.transport import logger as transport_logger
from matchkit.errors import InvalidArgumentError

__all__ = ["Connection", "connect"]


@dataclass(frozen=True)
class Connection:
    """A client's open resources.

    Attributes:
        settings: the client's settings, with the embedded service's address and now filled in.
        session: the one cached session.
        transport: the one transport (over the one request path).
        clock: the client's now: pinned, or the service's clock as its answers tell it.
        service: the embedded service (a :class:`matchkit.service.RunningService`), or ``None``.
    """

    settings: ClientSettings
    session: CachingSession
    transport: Transport
    clock: Clock
    service: Any


def connect(
    settings: ClientSettings,
    *,
    api_key: str | None,
    resources: contextlib.ExitStack,
    wall_clock: Callable[[], float] = time.time,
) -> Connection:
    """Open what ``settings`` ask for; each is closed when ``resources`` close.

    ``wall_clock`` is this machine's clock (seconds since the epoch), compared with the
    service's.

    Raises:
        InvalidArgumentError: the cache folder cannot hold the cache.
    """
    service = None
    cache_origin = None
    if settings.embedded:
        embedded = start_embedded(
            resources,
            profile=settings.profile,
            offline=settings.offline,
            api_key=api_key,
            fixed_now=settings.now,
        )
        service, api_key, cache_origin = embedded.service, embedded.api_key, embedded.cache_origin
        settings = replace(
            settings,
            base_url=embedded.base_url,
            now=embedded.now,
            telemetry_url=embedded.telemetry_url,
        )
    assert settings.base_url is not None  # given, or the embedded service's
    keys = CacheKeys(origin=cache_origin)
    try:
        session = create_session(settings.cache_dir, keys=keys, offline=settings.offline)
    except OSError as error:
        raise InvalidArgumentError(
            f"cache_dir={str(settings.cache_dir)!r} cannot hold the HTTP cache "
            f"({error.strerror or error}); pass a writable folder as cache_dir= or "
            "MATCHKIT_CACHE_DIR",
            parameter="cache_dir",
        ) from None
    resources.callback(session.close)
    if settings.embedded:
        # Loopback: no proxy from the environment applies (and looking one up per request
        # costs more than a cache hit).
        session.trust_env = False
    clock: Clock
    if settings.now is not None:
        clock = PinnedClock(settings.now)
    else:
        clock = ServiceClock(wall_clock=wall_clock)
    path = RequestPath(
        session,
        limits=settings.limits,
        scrub=Scrubber(api_key),
        throttle=None if settings.rate_limit is None else Throttle(settings.rate_limit),
        clock=clock,
        logger=transport_logger,  # what users (and the report's log) know requests by
    )
    transport = Transport(
        session,
        path,
        base_url=settings.base_url,
        api_key=api_key,
        offline=settings.offline,
        keys=keys,
        profile=settings.profile,
    )
    if isinstance(clock, ServiceClock) and not settings.offline:
        clock.ask = transport.confirm_service  # GET /status, when now is wanted before any answer
    return Connection(settings, session, transport, clock, service)
