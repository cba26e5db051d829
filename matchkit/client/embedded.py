"""The embedded reference service: what a client with no base URL reads (the sample data set).

An online client starts the service of its profile on loopback for its own lifetime (the
Gamelocker service on the committed sample data set; the PUBG double on its drawn sample set,
with its telemetry host); an offline one never starts it and addresses it by a placeholder.
Either way its cache keys name the data set (a digest of its manifest, or of the drawn set's
parameters), not the address: the service listens on a new port each run.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

import orjson

from matchkit.rules.profiles import GAMELOCKER, PUBG, Profile
from matchkit.rules.windows import format_time

__all__ = ["EMBEDDED_PLACEHOLDER", "Embedded", "start_embedded"]

logger = logging.getLogger(__name__)

EMBEDDED_PLACEHOLDER = "http://embedded.matchkit.invalid"
"""The address of the embedded service for an offline client, which never starts it."""


@dataclass(frozen=True)
class Embedded:
    """Where a client reads the embedded service, and as whom.

    Attributes:
        telemetry_url: the service's own host of telemetry files (the PUBG double's second
            listener), ``None`` when the service serves them itself or is not started.
    """

    base_url: str
    api_key: str | None
    now: datetime | None
    cache_origin: str
    service: Any  # matchkit.service.RunningService, None offline
    telemetry_url: str | None = None


def start_embedded(
    resources: contextlib.ExitStack,
    *,
    profile: Profile = GAMELOCKER,
    offline: bool,
    api_key: str | None,
    fixed_now: datetime | None,
) -> Embedded:
    """The embedded service of ``profile``, started (online) until ``resources`` close; ``now``
    pinned to ``fixed_now``, else the service's own (the data set's as-of offline)."""
    start = _STARTERS[profile.name]
    return start(resources, offline=offline, api_key=api_key, fixed_now=fixed_now)


def _start_gamelocker(
    resources: contextlib.ExitStack,
    *,
    offline: bool,
    api_key: str | None,
    fixed_now: datetime | None,
) -> Embedded:
    """The Gamelocker reference service on the committed sample data set."""
    from matchkit.sampledata.dataset import open_dataset

    dataset = open_dataset()
    manifest = orjson.dumps(dataset.manifest, option=orjson.OPT_SORT_KEYS)
    origin = f"http://embedded-{hashlib.sha256(manifest).hexdigest()[:16]}"
    if offline:
        return Embedded(EMBEDDED_PLACEHOLDER, api_key, fixed_now or dataset.as_of, origin, None)
    from matchkit.service import running

    # The sample set is a finished record: every match ended before its as-of, and is listed
    # from its createdAt (no ingestion delay), so the notebooks and the report read it whole.
    options: dict[str, Any] = {"ingestion_delay": "off"}
    if fixed_now is not None:
        options["now"] = fixed_now
    service = resources.enter_context(running(**options))
    service_now = service.now  # None when the service follows the wall clock
    logger.info(
        "no base URL configured (MATCHKIT_BASE_URL): serving the sample data set from an "
        "embedded reference service at %s, now = %s",
        service.base_url,
        "the clock" if service_now is None else format_time(service_now),
    )
    return Embedded(service.base_url, service.api_key, fixed_now or service_now, origin, service)


def _start_pubg(
    resources: contextlib.ExitStack,
    *,
    offline: bool,
    api_key: str | None,
    fixed_now: datetime | None,
) -> Embedded:
    """The PUBG double on its drawn sample set, and its telemetry host. Its now is the set's
    as-of unless pinned (the set is drawn up to it, and its 14 days of retention run back from
    it); its matches need no key, and its players, samples and seasons take the key it made."""
    from matchkit.sampledata.pubg import parameters

    drawn = orjson.dumps(
        {"seed": parameters.SEED, "as_of": parameters.AS_OF, "days": parameters.DAYS}
    )
    origin = f"http://embedded-{PUBG.name}-{hashlib.sha256(drawn).hexdigest()[:16]}"
    as_of = fixed_now or datetime.fromisoformat(parameters.AS_OF.replace("Z", "+00:00"))
    if offline:
        return Embedded(EMBEDDED_PLACEHOLDER, api_key, as_of, origin, None)
    from matchkit.service import running

    options: dict[str, Any] = {} if fixed_now is None else {"now": fixed_now}
    service = resources.enter_context(running(profile=PUBG, **options))
    logger.info(
        "no base URL configured (MATCHKIT_BASE_URL): serving the PUBG sample set from an "
        "embedded PUBG service at %s (telemetry files at %s), now = %s",
        service.base_url,
        service.telemetry_url,
        "the clock" if service.now is None else format_time(service.now),
    )
    return Embedded(
        service.base_url,
        service.api_key,
        fixed_now or service.now,
        origin,
        service,
        telemetry_url=service.telemetry_url,
    )


_STARTERS: Mapping[str, Callable[..., Embedded]] = MappingProxyType(
    {GAMELOCKER.name: _start_gamelocker, PUBG.name: _start_pubg}
)
"""How each profile's embedded service starts (its own service, data set and cache origin)."""
