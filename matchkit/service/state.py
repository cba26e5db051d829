"""What one app serves from: :class:`Service` (the store, the keys, the rate limiter, now).

:func:`matchkit.service.create_app` builds it; ``app.state.service`` holds it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from importlib import metadata

from matchkit.rules.windows import parse_time
from matchkit.service.auth import ApiKeys
from matchkit.service.ingestion import OFF, IngestionDelay, Listing
from matchkit.service.ratelimit import RateLimiter
from matchkit.service.store import MatchStore

__all__ = ["SERVICE_NAME", "Service", "resolve_now"]

SERVICE_NAME = "matchkit"


class Service:
    """The state one app serves from: store, keys, rate limiter, the notion of now and the
    ingestion delay (when a match is listed, decision 20).

    Build it with :func:`create_app`; ``app.state.service`` holds it.
    """

    def __init__(
        self,
        *,
        store: MatchStore,
        api_keys: ApiKeys,
        now: datetime | None,
        rate_limiter: RateLimiter | None,
        ingestion: IngestionDelay = OFF,
    ) -> None:
        self.store = store
        self.api_keys = api_keys
        self.fixed_now = now
        self.rate_limiter = rate_limiter
        self.ingestion = ingestion
        self.released_at = (
            store.as_of or store.latest_created_at() or datetime(1970, 1, 1, tzinfo=UTC)
        )
        try:
            self.version = metadata.version("matchkit")
        except metadata.PackageNotFoundError:
            self.version = "0+unknown"

    def now(self) -> datetime:
        """The moment the time rules apply at: the fixed now, else the wall clock."""
        return self.fixed_now if self.fixed_now is not None else datetime.now(UTC)

    def listing(self, now: datetime) -> Listing:
        """What the service lists at ``now``: the matches its ingestion delay has let through
        (decision 20)."""
        return Listing(self.ingestion, now)


def resolve_now(now: str | datetime | None, store: MatchStore) -> datetime | None:
    """The fixed now ``now`` asks for (``"wall"``, or ``None`` without an as-of: the clock)."""
    if isinstance(now, str) and now.strip().lower() == "wall":
        return None
    if now is not None:
        return parse_time(now, parameter="now")
    if store.as_of is not None:
        return store.as_of
    latest = store.latest_created_at()
    # A folder of fetched pages has no as_of: serve it as of just after its last match.
    return None if latest is None else latest + timedelta(seconds=1)
