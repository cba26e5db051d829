"""Client-side rate limiting: the ``rate_limit`` setting and a limiter that composes with the cache.

The limiter is pyrate-limiter's, driven through requests-ratelimiter's :class:`LimiterMixin`.
The session class puts requests-cache's ``CacheMixin`` *before* the limiter in the MRO
(``CacheMixin, ThrottleMixin, Session``), so a response served from the cache never reaches
the limiter and costs no token.

Example:
    >>> parse_rate_limit("30/minute", remote=True).seconds_per_request
    2.0
    >>> parse_rate_limit(0.5, remote=True)
    RateLimit(requests=0.5, period_seconds=60)
    >>> parse_rate_limit(None, remote=False) is None
    True
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from pyrate_limiter import BucketFullException
from requests import PreparedRequest, Response
from requests_ratelimiter import LimiterMixin

from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT, RateLimit

__all__ = [
    "DEFAULT_REMOTE_RATE_LIMIT",
    "RateLimit",
    "ThrottleMixin",
    "parse_rate_limit",
]

logger = logging.getLogger(__name__)

DEFAULT_REMOTE_RATE_LIMIT = RateLimit.parse(DEFAULT_RATE_LIMIT)
"""The rate against a remote service: the real services' development-key default."""


def parse_rate_limit(value: str | float | RateLimit | None, *, remote: bool) -> RateLimit | None:
    """Read the ``rate_limit`` setting of a client (the grammar of :mod:`matchkit.rules.ratelimit`).

    Args:
        value: ``None`` for the default (10 a minute for a remote service, off for the embedded
            one), ``"off"``, ``"N/minute"`` (also ``/second``, ``/hour``; N may be a decimal), or
            a number of requests per minute.
        remote: whether the client talks to a remote service.

    Returns:
        The rate, or ``None`` when limiting is off.

    Raises:
        InvalidArgumentError: the value is none of the above, or not positive.
    """
    if value is None:
        return DEFAULT_REMOTE_RATE_LIMIT if remote else None
    return RateLimit.parse(value)


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
        # Told of each wait before it starts (seconds, what is waited for): a progress bar.
        self.on_wait: Callable[[float, str], None] | None = None

    def send(self, request: PreparedRequest, **kwargs: Any) -> Response:
        identity = self._bucket_name(request)
        while True:
            try:
                self.limiter.try_acquire(identity)
                break
            except BucketFullException as full:
                wait = float(full.meta_info["remaining_time"])
                logger.debug("client rate limit reached; waiting %.2f s", wait)
                if self.on_wait is not None:
                    self.on_wait(wait, "the rate limit")
                self._sleep(max(wait, 0.001))
        # Skip LimiterMixin.send: the token is already taken above.
        return super(LimiterMixin, self).send(request, **kwargs)
