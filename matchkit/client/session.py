"""Client-side rate limiting: the ``rate_limit`` setting and a limiter that composes with the cache.

The limiter is pyrate-limiter's, driven through requests-ratelimiter's :class:`LimiterMixin`.
The session class puts requests-cache's ``CacheMixin`` *before* the limiter in the MRO
(``CacheMixin, ThrottleMixin, Session``), so a response served from the cache never reaches
the limiter and costs no token.

Example:
    >>> parse_rate_limit("30/minute", remote=True).seconds_per_request
    2.0
    >>> parse_rate_limit(None, remote=False) is None
    True
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pyrate_limiter import BucketFullException
from requests import PreparedRequest, Response
from requests_ratelimiter import LimiterMixin

from matchkit.errors import InvalidArgumentError

__all__ = [
    "DEFAULT_REMOTE_RATE_LIMIT",
    "RateLimit",
    "ThrottleMixin",
    "parse_rate_limit",
]

logger = logging.getLogger(__name__)

DEFAULT_REMOTE_RATE_LIMIT = 10.0
"""Requests a minute against a remote service: the real services' development-key default."""

_UNIT_SECONDS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}
_RATE_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*/\s*(second|minute|hour)s?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class RateLimit:
    """A client-side request rate.

    Attributes:
        per_minute: requests allowed per minute (may be fractional).
    """

    per_minute: float

    @property
    def seconds_per_request(self) -> float:
        """The time one request costs once the allowance is used up."""
        return 60.0 / self.per_minute

    def __str__(self) -> str:
        return f"{self.per_minute:g}/minute"


def parse_rate_limit(value: str | float | None, *, remote: bool) -> RateLimit | None:
    """Read the ``rate_limit`` setting.

    Args:
        value: ``None`` for the default (10 a minute for a remote service, off for the embedded
            one), ``"off"``, ``"N/minute"`` (also ``/second``, ``/hour``), or a number of
            requests per minute.
        remote: whether the client talks to a remote service.

    Returns:
        The rate, or ``None`` when limiting is off.

    Raises:
        InvalidArgumentError: the value is none of the above, or not positive.
    """
    if value is None:
        return RateLimit(DEFAULT_REMOTE_RATE_LIMIT) if remote else None
    if isinstance(value, str):
        if value.strip().lower() == "off":
            return None
        match = _RATE_TEXT.match(value)
        if match is None:
            raise InvalidArgumentError(
                f"rate_limit={value!r} is not understood; use 'off', 'N/minute' "
                "(or /second, /hour), or a number of requests per minute",
                parameter="rate_limit",
            )
        per_minute = float(match.group(1)) * 60.0 / _UNIT_SECONDS[match.group(2).lower()]
    elif isinstance(value, int | float) and not isinstance(value, bool):
        per_minute = float(value)
    else:
        raise InvalidArgumentError(
            f"rate_limit must be None, 'off', 'N/minute' or a number, not {type(value).__name__}",
            parameter="rate_limit",
        )
    if not per_minute > 0 or per_minute == float("inf"):
        raise InvalidArgumentError(
            f"rate_limit={value!r} must be a positive, finite rate; use 'off' to turn it off",
            parameter="rate_limit",
        )
    return RateLimit(per_minute)


class ThrottleMixin(LimiterMixin):
    """requests-ratelimiter's mixin, waiting through an injected ``sleep`` and clock.

    Two differences from :class:`LimiterMixin`: the wait uses ``sleep`` (so tests never really
    wait), and a 429 does not pad the bucket, because the client's retry loop already waits for
    exactly what the service asked (``Retry-After``).
    """

    # Named parameters (not **kwargs only): requests-cache passes a mixin only the keyword
    # arguments its signature names.
    def __init__(
        self,
        *,
        per_minute: float = 0,
        per_host: bool = True,
        time_function: Callable[[], float] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            per_minute=per_minute,
            per_host=per_host,
            time_function=time_function,
            limit_statuses=(),
            **kwargs,
        )
        self._sleep = sleep

    def send(self, request: PreparedRequest, **kwargs: Any) -> Response:
        identity = self._bucket_name(request)
        while True:
            try:
                self.limiter.try_acquire(identity)
                break
            except BucketFullException as full:
                wait = float(full.meta_info["remaining_time"])
                logger.debug("client rate limit reached; waiting %.2f s", wait)
                self._sleep(max(wait, 0.001))
        # Skip LimiterMixin.send: the token is already taken above.
        return super(LimiterMixin, self).send(request, **kwargs)
