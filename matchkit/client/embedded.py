"""The embedded reference service: what a client with no base URL reads (the sample data set).

An online client starts the service on loopback for its own lifetime; an offline one never
starts it and addresses it by a placeholder. Either way its cache keys name the data set (a
digest of its manifest), not the address: the service listens on a new port each run.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from matchkit.rules.windows import format_time

__all__ = ["EMBEDDED_PLACEHOLDER", "Embedded", "start_embedded"]

logger = logging.getLogger(__name__)

EMBEDDED_PLACEHOLDER = "http://embedded.matchkit.invalid"
"""The address of the embedded service for an offline client, which never starts it."""


@dataclass(frozen=True)
class Embedded:
    """Where a client reads the embedded service, and as whom."""

    base_url: str
    api_key: str | None
    now: datetime | None
    cache_origin: str
    service: Any  # matchkit.service.RunningService, None offline


def start_embedded(
    resources: contextlib.ExitStack,
    *,
    offline: bool,
    api_key: str | None,
    fixed_now: datetime | None,
) -> Embedded:
    """The embedded service, started (online) until ``resources`` close; ``now`` pinned to
    ``fixed_now``, else the service's own (the data set's as-of offline)."""
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
