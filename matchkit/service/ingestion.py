"""When the reference service lists a match: once it has ended and been ingested (decision 20).

A real service lists a match, and serves it by id, only once the match has ended and the
service has ingested it; its ``createdAt`` stays the moment it was created (its start). The
reference service models this: a match becomes visible at ``createdAt + duration + delay``,
where the delay is drawn per match, deterministically, from a distribution given by its
quantiles (:class:`IngestionDelay`). Before then a list for its window leaves it out and a get
by id is a 404. So the newest hours of any window are not final.

The default (:data:`DEFAULT_DELAY`): half of the matches within 2 minutes of their end, 90 %
within 10 minutes, 99 % within an hour, and the last 1 % spread up to 5 hours (the long tail:
an ingestion backlog). With matches of up to an hour, every match is listed within
:data:`matchkit.rules.windows.SETTLE` (6 hours) of its ``createdAt``.

Each match's draw is a number in [0, 1) derived from its shard and id (SHA-256), so a match is
late by the same delay in every run and on every service serving it; the delay is the
distribution's quantile function at that draw, linear between the given quantiles.

The setting (``create_app(ingestion_delay=...)``, ``matchkit serve --ingestion-delay``):

- ``None`` or ``"default"``: :data:`DEFAULT_DELAY`;
- ``"off"``: every match listed from its ``createdAt``, as before decision 20 (the test double's
  default: ``running()``, and so the embedded service of the sample set, whose matches all ended
  before its as-of);
- ``0``: listed as soon as it has ended;
- a fixed delay: seconds (``90``), or ``"90s"``, ``"10m"``, ``"2h"``;
- an :class:`IngestionDelay`.

Example:
    >>> IngestionDelay.parse("10m").delay(0.3)
    datetime.timedelta(seconds=600)
    >>> DEFAULT_DELAY.delay(0.5)
    datetime.timedelta(seconds=120)
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

from matchkit.errors import InvalidArgumentError

__all__ = ["DEFAULT_DELAY", "OFF", "IngestionDelay", "Listing", "match_draw"]

_UNITS = {"s": 1, "m": 60, "h": 3600}
_FIXED = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$")


def match_draw(shard: str, match_id: str) -> float:
    """The match's draw: a number in [0, 1), the same for the same shard and id everywhere."""
    digest = hashlib.sha256(f"{shard}\x1f{match_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@dataclass(frozen=True)
class IngestionDelay:
    """How long after its end a match is listed: a distribution by its quantiles.

    Attributes:
        quantiles: ``(share, delay)`` pairs, shares rising from 0 to 1, delays never falling:
            a share of the matches is listed within that delay of its end. ``()`` with
            ``from_creation`` is "off".
        from_creation: list every match from its ``createdAt`` (no lateness at all: the
            service before decision 20).

    Raises:
        InvalidArgumentError: the quantiles are not as described.
    """

    quantiles: tuple[tuple[float, timedelta], ...] = ((0.0, timedelta(0)), (1.0, timedelta(0)))
    from_creation: bool = False

    def __post_init__(self) -> None:
        if self.from_creation:
            return
        shares = [share for share, _ in self.quantiles]
        delays = [delay for _, delay in self.quantiles]
        if (
            len(self.quantiles) < 2
            or shares[0] != 0.0
            or shares[-1] != 1.0
            or any(b <= a for a, b in pairwise(shares))
            or any(b < a for a, b in pairwise(delays))
            or delays[0] < timedelta(0)
        ):
            raise InvalidArgumentError(
                "ingestion_delay: quantiles must run from share 0 to share 1, shares rising and "
                f"delays never falling, none negative; got {self.quantiles!r}",
                parameter="ingestion_delay",
            )

    @classmethod
    def fixed(cls, delay: timedelta) -> IngestionDelay:
        """Every match listed ``delay`` after its end."""
        return cls(((0.0, delay), (1.0, delay)))

    @classmethod
    def parse(cls, spec: str | float | timedelta | IngestionDelay | None) -> IngestionDelay:
        """Read the ``ingestion_delay`` setting (see the module).

        Raises:
            InvalidArgumentError: the setting is none of the forms the module lists.
        """
        if spec is None:
            return DEFAULT_DELAY
        if isinstance(spec, IngestionDelay):
            return spec
        if isinstance(spec, timedelta):
            seconds = spec.total_seconds()
        elif isinstance(spec, int | float) and not isinstance(spec, bool):
            seconds = float(spec)
        elif isinstance(spec, str):
            text = spec.strip().lower()
            if text == "default":
                return DEFAULT_DELAY
            if text == "off":
                return OFF
            match = _FIXED.match(text)
            if match is None:
                raise InvalidArgumentError(
                    f"ingestion_delay={spec!r} is not 'default', 'off' or a delay such as "
                    "'90s', '10m', '2h' or a number of seconds",
                    parameter="ingestion_delay",
                )
            seconds = float(match.group(1)) * _UNITS[match.group(2) or "s"]
        else:
            raise InvalidArgumentError(
                f"ingestion_delay must be 'default', 'off', a delay or None, "
                f"not {type(spec).__name__}",
                parameter="ingestion_delay",
            )
        if not math.isfinite(seconds) or seconds < 0:
            raise InvalidArgumentError(
                f"ingestion_delay={spec!r} must be a delay of zero or more",
                parameter="ingestion_delay",
            )
        return cls.fixed(timedelta(seconds=seconds))

    @property
    def longest(self) -> timedelta:
        """The longest delay (zero when off)."""
        return timedelta(0) if self.from_creation else self.quantiles[-1][1]

    def delay(self, draw: float) -> timedelta:
        """The delay of a match whose draw is ``draw`` (the quantile function at it)."""
        if self.from_creation:
            return timedelta(0)
        for (low, low_delay), (high, high_delay) in pairwise(self.quantiles):
            if draw < high:
                return low_delay + (high_delay - low_delay) * ((draw - low) / (high - low))
        return self.quantiles[-1][1]

    def sql(self, draw: str) -> str:
        """The delay in microseconds as an SQL expression of the column ``draw`` (the numbers
        are this value's own, never text from a request)."""
        pieces = []
        for (low, low_delay), (high, high_delay) in pairwise(self.quantiles):
            start, end = _micros(low_delay), _micros(high_delay)
            slope = (end - start) / (high - low)
            pieces.append(f"WHEN {draw} < {high!r} THEN {start} + ({draw} - {low!r}) * {slope!r}")
        return f"(CASE {' '.join(pieces)} ELSE {_micros(self.quantiles[-1][1])} END)"

    def __str__(self) -> str:
        """When a match is listed, as "a match is listed ..." goes on."""
        if self.from_creation:
            return "from its createdAt (ingestion delay off)"
        if self.quantiles[0][1] == self.quantiles[-1][1]:
            return f"{_shown(self.quantiles[0][1])} after its end"
        shown = ", ".join(f"{share:.0%} within {_shown(delay)}" for share, delay in self.quantiles)
        return f"after its end: {shown}"


@dataclass(frozen=True)
class Listing:
    """What a service lists at ``now``: the matches whose ``delay`` has let them through.

    Attributes:
        delay: the service's ingestion delay.
        now: the service's now.
    """

    delay: IngestionDelay
    now: datetime


def _micros(delay: timedelta) -> int:
    return delay // timedelta(microseconds=1)


def _shown(delay: timedelta) -> str:
    seconds = delay.total_seconds()
    if seconds < 120:
        return f"{seconds:g} s"
    if seconds < 7200:
        return f"{seconds / 60:g} min"
    return f"{seconds / 3600:g} h"


DEFAULT_DELAY = IngestionDelay(
    (
        (0.0, timedelta(seconds=30)),
        (0.5, timedelta(minutes=2)),
        (0.9, timedelta(minutes=10)),
        (0.99, timedelta(hours=1)),
        (1.0, timedelta(hours=5)),
    )
)
"""The reference service's ingestion delay: minutes for most matches, a long tail of hours."""

OFF = IngestionDelay((), from_creation=True)
"""Every match listed from its ``createdAt`` (the service before decision 20)."""
