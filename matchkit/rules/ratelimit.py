"""The one rate-limit grammar and the one :class:`RateLimit` value, for the client and the service.

A rate is ``requests`` per ``period_seconds``: ``"10/minute"``, ``"3/second"``, ``"100/hour"``
(plural units and any letter case accepted), a decimal where it is meaningful (``"0.5/second"``:
one request every two seconds), or, where a number is accepted, requests per minute. The client
throttles itself with it (:mod:`matchkit.client.throttle`); the service runs a token bucket of
``capacity`` tokens refilled one every ``refill_seconds`` (:mod:`matchkit.service.ratelimit`).

Example:
    >>> RateLimit.parse("10/minute")
    RateLimit(requests=10, period_seconds=60)
    >>> RateLimit.parse("0.5/second").refill_seconds
    2.0
    >>> str(RateLimit(30))
    '30/minute'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_positive_number

__all__ = ["DEFAULT_RATE_LIMIT", "PERIODS", "RateLimit"]

DEFAULT_RATE_LIMIT = "10/minute"
"""The real services' development-key default (decision 14)."""

PERIODS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}
_UNITS = {seconds: unit for unit, seconds in PERIODS.items()}
_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*/\s*(second|minute|hour)s?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class RateLimit:
    """``requests`` per ``period_seconds`` (``requests`` may be fractional).

    Attributes:
        requests: how many requests the period allows; also the service's bucket size.
        period_seconds: the period, in seconds (default a minute).
    """

    requests: float
    period_seconds: float = 60.0

    def __post_init__(self) -> None:
        for name in ("requests", "period_seconds"):
            value = getattr(self, name)
            message = (
                f"rate_limit: {name}={value!r} must be a positive, finite number; "
                "use 'off' to turn limiting off"
            )
            checked_positive_number(value, parameter="rate_limit", message=message)
            # Whole numbers stay ints (headers such as X-RateLimit-Limit show "10", not "10.0").
            whole = float(value).is_integer()
            object.__setattr__(self, name, int(value) if whole else float(value))

    @classmethod
    def parse(cls, spec: str | float | RateLimit | None) -> RateLimit | None:
        """Read a rate: ``None`` or ``"off"`` (no limit), ``"N/minute"`` (also ``/second``,
        ``/hour``, N may be a decimal), a :class:`RateLimit`, or a number of requests a minute.

        Raises:
            InvalidArgumentError: the value is none of these, or not a positive, finite rate.
        """
        if spec is None or isinstance(spec, RateLimit):
            return spec
        if isinstance(spec, str):
            if spec.strip().lower() == "off":
                return None
            found = _TEXT.match(spec)
            if found is None:
                raise InvalidArgumentError(
                    f"rate_limit={spec!r} is not understood; use 'off', 'N/minute' (or /second, "
                    f"/hour; N may be a decimal such as 0.5) or a number of requests a minute, "
                    f"e.g. {DEFAULT_RATE_LIMIT!r}",
                    parameter="rate_limit",
                )
            requests, period = float(found.group(1)), PERIODS[found.group(2).lower()]
        elif isinstance(spec, int | float) and not isinstance(spec, bool):
            requests, period = float(spec), PERIODS["minute"]
        else:
            raise InvalidArgumentError(
                f"rate_limit must be None, 'off', 'N/minute' or a number of requests a minute, "
                f"not {type(spec).__name__}",
                parameter="rate_limit",
            )
        if not (math.isfinite(requests) and requests > 0):
            raise InvalidArgumentError(
                f"rate_limit={spec!r} must be a positive, finite rate; use 'off' to turn it off",
                parameter="rate_limit",
            )
        return cls(requests, period)

    @property
    def per_minute(self) -> float:
        """Requests a minute."""
        return self.requests * 60.0 / self.period_seconds

    @property
    def refill_seconds(self) -> float:
        """Seconds to earn back one request (what one request costs once the allowance is spent)."""
        return self.period_seconds / self.requests

    @property
    def seconds_per_request(self) -> float:
        """The client's name for :attr:`refill_seconds`."""
        return self.refill_seconds

    @property
    def capacity(self) -> int:
        """Whole requests a full bucket holds: ``requests``, at least one."""
        return max(1, math.floor(self.requests))

    def __str__(self) -> str:
        unit = _UNITS.get(self.period_seconds)
        if unit is None:
            return f"{self.requests:g}/{self.period_seconds:g}s"
        return f"{self.requests:g}/{unit}"
