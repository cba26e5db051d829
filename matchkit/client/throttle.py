"""Client-side rate limiting: the ``rate_limit`` setting and the limiter the request path takes
a token from.

The limiter is pyrate-limiter's, one bucket per host. It sits in the request path
(:class:`matchkit.client.request.RequestPath`), not in the session: the path asks it for a token
only for a request that reaches the network (a cache hit never gets that far, so it costs no
token) and only for a peer that is limited (the service; never the host of telemetry files,
which had no limit), all over the client's one session.

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
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from urllib.parse import urlsplit

from pyrate_limiter import BucketFullException, Duration, Limiter, RequestRate

from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT, RateLimit

__all__ = ["DEFAULT_REMOTE_RATE_LIMIT", "RateLimit", "Throttle", "parse_rate_limit"]

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


class Throttle:
    """Waits, before a request to a host, until the client's rate allows it (a bucket per host).

    Args:
        rate: the client-side rate.
        clock: the limiter's monotonic clock (injected in tests).
        sleep: how a wait is waited (injected in tests, so that they never really wait).

    Attributes:
        on_wait: told of each wait before it starts (seconds, what is waited for): a progress
            bar.
    """

    def __init__(
        self,
        rate: RateLimit,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.rate = rate
        # A fractional rate as a whole number of requests over a longer interval, as
        # requests-ratelimiter did (pyrate-limiter counts whole requests).
        fraction = Fraction(rate.per_minute).limit_denominator(1000)
        rate_of_limiter = RequestRate(fraction.numerator, Duration.MINUTE * fraction.denominator)
        if clock is None:
            self._limiter = Limiter(rate_of_limiter)
        else:
            self._limiter = Limiter(rate_of_limiter, time_function=clock)
        self._sleep = sleep
        self._lock = threading.Lock()
        self.on_wait: Callable[[float, str], None] | None = None

    def __repr__(self) -> str:
        return f"Throttle({self.rate})"

    def wait_for(self, url: str) -> None:
        """Return once a request to ``url``'s host may be sent, its token taken."""
        host = urlsplit(url).netloc.lower()
        while True:
            try:
                with self._lock:
                    self._limiter.try_acquire(host)
                return
            except BucketFullException as full:
                wait = float(full.meta_info["remaining_time"])
            logger.debug("client rate limit reached; waiting %.2f s", wait)
            if self.on_wait is not None:
                self.on_wait(wait, "the rate limit")
            self._sleep(max(wait, 0.001))
