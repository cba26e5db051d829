"""A client's settings, in one frozen value: :class:`ClientSettings` (``client.settings``).

Each setting is an argument of :class:`matchkit.Client`, else a ``MATCHKIT_*`` variable, else
the default; :meth:`ClientSettings.resolve` checks them all before anything is opened or sent
(:class:`matchkit.errors.InvalidArgumentError` naming the argument). The API key is not a
setting: it is a secret, held by the transport alone, never in a repr.

Example:
    >>> settings = ClientSettings.resolve("https://api.example.com", cache_dir="cache")
    >>> settings.shard, settings.rate_limit, settings.limits.timeout
    ('global', RateLimit(requests=10.0, period_seconds=60), 30.0)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from matchkit.client.arguments import (
    checked_base_url,
    checked_max_body_bytes,
    checked_timeout,
)
from matchkit.client.cache import resolve_cache_dir
from matchkit.client.sending import Limits
from matchkit.client.throttle import RateLimit, parse_rate_limit
from matchkit.rules.profiles import GAMELOCKER, Profile, get_profile
from matchkit.rules.shards import ShardName
from matchkit.rules.windows import SETTLE, format_time, parse_time

__all__ = ["ClientSettings"]


@dataclass(frozen=True)
class ClientSettings:
    """How a client fetches, decided once (requests-cache's ``CacheSettings`` in spirit).

    Attributes:
        base_url: the service; for the embedded one, the address it listens on (``None`` until
            it is started).
        embedded: whether the client serves the sample data set from its own reference service.
        shard: one of the profile's shards (``"global"`` or ``"na"``; PUBG's ``"steam"``, ...).
        cache_dir: the folder of the HTTP cache.
        offline: answer only from the cache.
        rate_limit: the client-side rate, or ``None`` when off.
        limits: the deadline, the cap on body size and the redirects of each request.
        progress: show progress bars.
        now: the pinned now, or ``None``: the service's clock
            (:mod:`matchkit.client.clock`).
        settle: how far before now the service may still list matches (decision 20): a fetch
            reaching into it warns that it is provisional, and its pages are kept a minute.
            :data:`matchkit.rules.windows.SETTLE` for a remote service; nothing for the
            embedded one, which lists every match of its data set from its ``createdAt``.
        profile: the service's rules (:class:`matchkit.rules.profiles.Profile`): its shards,
            retention, endpoints, batch sizes, the endpoints its rate limit applies to, its
            telemetry format. The client reads its fields; it never asks for it by name.
        telemetry_url: the embedded service's host of telemetry files when it has one of its
            own (the PUBG double's second listener), else ``None``.
    """

    base_url: str | None
    embedded: bool
    shard: ShardName
    cache_dir: Path
    offline: bool
    rate_limit: RateLimit | None
    limits: Limits
    progress: bool
    now: datetime | None
    settle: timedelta = SETTLE
    profile: Profile = GAMELOCKER
    telemetry_url: str | None = None

    @classmethod
    def resolve(
        cls,
        base_url: str | None = None,
        *,
        profile: str | Profile | None = None,
        shard: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        offline: bool = False,
        rate_limit: str | float | None = None,
        now: str | datetime | None = None,
        progress: bool = True,
        timeout: float = 30,
        max_body_bytes: int | None = None,
    ) -> ClientSettings:
        """The settings of :class:`matchkit.Client`'s arguments (which says what each means),
        with ``MATCHKIT_BASE_URL`` and ``MATCHKIT_CACHE_DIR`` where an argument is not given.

        Raises:
            InvalidArgumentError: a setting is invalid.
        """
        chosen = get_profile(profile)
        resolved_shard = chosen.checked_shard(chosen.shards[0] if shard is None else shard)
        limits = Limits(
            timeout=checked_timeout(timeout),
            max_body_bytes=checked_max_body_bytes(max_body_bytes),
        )
        pinned = None if now is None else parse_time(now, parameter="now")
        url = checked_base_url(base_url or os.environ.get("MATCHKIT_BASE_URL") or None)
        embedded = url is None
        return cls(
            base_url=None if url is None else url.rstrip("/"),
            embedded=embedded,
            shard=resolved_shard,  # type: ignore[arg-type]  # the profile's shard names
            cache_dir=resolve_cache_dir(cache_dir),
            offline=bool(offline),
            rate_limit=parse_rate_limit(rate_limit, remote=not embedded),
            limits=limits,
            progress=bool(progress),
            now=pinned,
            settle=timedelta(0) if embedded else SETTLE,
            profile=chosen,
        )

    def __repr__(self) -> str:
        where = "embedded" if self.embedded else self.base_url
        rate = "off" if self.rate_limit is None else str(self.rate_limit)
        now = "the service's clock" if self.now is None else format_time(self.now)
        return (
            f"ClientSettings({where!r}, profile={self.profile.name!r}, shard={self.shard!r}, "
            f"offline={self.offline}, "
            f"rate_limit={rate!r}, cache_dir={str(self.cache_dir)!r}, "
            f"timeout={self.limits.timeout:g}, now={now!r})"
        )
