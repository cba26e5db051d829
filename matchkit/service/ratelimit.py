"""Rate limiting of the service: a token bucket per API key (decision 14), clock injected.

The rate itself is the one :class:`matchkit.rules.ratelimit.RateLimit` of
:mod:`matchkit.rules.ratelimit` (the grammar the client reads too); a bucket holds
``limit.capacity`` tokens and earns one back every ``limit.refill_seconds``.

Example:
    >>> limits = RateLimiter(RateLimit.parse("10/minute"), clock=lambda: 0.0)
    >>> limits.take("key").allowed
    True
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from matchkit.rules.ratelimit import DEFAULT_RATE_LIMIT, RateLimit

__all__ = ["DEFAULT_RATE_LIMIT", "Decision", "RateLimit", "RateLimiter"]


@dataclass(frozen=True)
class Decision:
    """The outcome of one request against a bucket, with the values of its headers.

    Attributes:
        allowed: whether the request may proceed.
        limit: the bucket's capacity (``X-RateLimit-Limit``).
        remaining: whole tokens left (``X-RateLimit-Remaining``).
        reset_nanoseconds: time until the bucket is full again (``X-RateLimit-Reset``).
        retry_after_seconds: whole seconds until a token is available (``Retry-After``), 0 if
            one is.
    """

    allowed: bool
    limit: int
    remaining: int
    reset_nanoseconds: int
    retry_after_seconds: int

    def headers(self) -> list[tuple[bytes, bytes]]:
        headers = [
            (b"x-ratelimit-limit", str(self.limit).encode()),
            (b"x-ratelimit-remaining", str(self.remaining).encode()),
            (b"x-ratelimit-reset", str(self.reset_nanoseconds).encode()),
        ]
        if not self.allowed:
            headers.append((b"retry-after", str(self.retry_after_seconds).encode()))
        return headers


class RateLimiter:
    """Token buckets keyed by API key; thread-safe.

    Args:
        limit: the rate each key gets.
        clock: monotonic seconds (injected so tests never sleep); default ``time.monotonic``.
    """

    def __init__(self, limit: RateLimit, *, clock: Callable[[], float] | None = None) -> None:
        self.limit = limit
        self._clock = clock or time.monotonic
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> Decision:
        """Spend one token of ``key``'s bucket if it has one."""
        capacity = float(self.limit.capacity)
        refill = self.limit.refill_seconds
        with self._lock:
            moment = self._clock()
            tokens, last = self._buckets.get(key, (capacity, moment))
            tokens = min(capacity, tokens + max(0.0, moment - last) / refill)
            allowed = tokens >= 1.0
            if allowed:
                tokens -= 1.0
            self._buckets[key] = (tokens, moment)
        missing = capacity - tokens
        return Decision(
            allowed=allowed,
            limit=self.limit.capacity,
            remaining=math.floor(tokens + 1e-9),
            reset_nanoseconds=round(missing * refill * 1e9),
            retry_after_seconds=0 if allowed else max(1, math.ceil((1.0 - tokens) * refill)),
        )
