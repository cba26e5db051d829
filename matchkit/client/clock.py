"""The client's "now": the service's clock, learned from its answers (decision 20).

Windows, clamps, cache expiry and watermarks all depend on now. A client whose own clock runs
ahead of the service's would ask for matches of a future the service has not reached, and
take a window as closed while the service is still filling it; one that runs behind would
miss the newest hours. So the client takes now from the service:

- every answer the service sends carries its time in the ``Date`` header; the client keeps the
  offset between that time and its own clock at the moment the answer arrived
  (:meth:`ServiceClock.observe`), and its now is its own clock plus that offset, to the second;
- before any answer has arrived, :meth:`ServiceClock.now` asks ``GET /status`` once (the
  ``ask`` the client gives it), which every service answers without a key;
- a cached answer's ``Date`` is the moment it was served, not now: only answers that came over
  the network are observed (the request path observes them, never the cache);
- when the two clocks differ by more than :data:`TOLERANCE`, a
  :class:`matchkit.client.warnings.ClockSkewWarning` says so, once per client;
- ``Client(now=...)`` pins now (:class:`PinnedClock`): tests, and the embedded service,
  whose now is its data set's as-of.

Offline, with no service to ask, the clock is the client's own.

Example:
    >>> clock = ServiceClock(wall_clock=lambda: 1_800_000_000.0)
    >>> clock.observe("Sat, 15 Jan 2027 02:40:00 GMT")
    >>> clock.now().isoformat()
    '2027-01-15T02:40:00+00:00'
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Protocol

from matchkit.client.warnings import ClockSkewWarning
from matchkit.rules.windows import format_time

__all__ = ["TOLERANCE", "Clock", "PinnedClock", "ServiceClock", "read_date"]

TOLERANCE = timedelta(minutes=1)
"""How far the client's clock may be from the service's before a warning says so."""


class Clock(Protocol):
    """What the client asks of a clock: now, and the ``Date`` of each answer that arrives."""

    def now(self) -> datetime: ...

    def observe(self, date: str | None) -> None: ...


def read_date(header: str | None) -> datetime | None:
    """An HTTP ``Date`` header as a UTC datetime, or ``None`` when there is none or it does not
    parse (an answer without a readable date tells no time; it is not an error)."""
    if not header:
        return None
    try:
        moment = parsedate_to_datetime(header)
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class PinnedClock:
    """A now that never moves: ``Client(now=...)``, and the embedded service's as-of."""

    def __init__(self, now: datetime) -> None:
        self._now = now

    def __repr__(self) -> str:
        return f"PinnedClock({format_time(self._now)})"

    def now(self) -> datetime:
        return self._now

    def observe(self, date: str | None) -> None:
        """A pinned now learns nothing from answers."""


class ServiceClock:
    """The service's clock, as its answers tell it (see the module).

    Args:
        wall_clock: the client's own clock, seconds since the epoch (injected in tests).
        ask: sends a request whose answer the request path observes (``GET /status``), for a
            now wanted before any answer arrived; ``None`` (offline) uses the client's clock.
        tolerance: how far the clocks may differ before a :class:`ClockSkewWarning`.

    Attributes:
        offset: the service's time minus the client's, in seconds, as of the last answer
            observed; ``None`` until one was.
    """

    def __init__(
        self,
        *,
        wall_clock: Callable[[], float] = time.time,
        ask: Callable[[], None] | None = None,
        tolerance: timedelta = TOLERANCE,
    ) -> None:
        self.wall_clock = wall_clock
        self.ask = ask
        self.tolerance = tolerance
        self.offset: float | None = None
        self._warned = False
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        offset = "unknown" if self.offset is None else f"{self.offset:+.0f} s"
        return f"ServiceClock(offset={offset})"

    def observe(self, date: str | None) -> None:
        """Learn the service's time from the ``Date`` of an answer that just arrived."""
        moment = read_date(date)
        if moment is None:
            return
        own = self.wall_clock()
        offset = moment.timestamp() - own
        with self._lock:
            self.offset = offset
            warn = abs(offset) > self.tolerance.total_seconds() and not self._warned
            self._warned = self._warned or warn
        if warn:
            mine = datetime.fromtimestamp(own, UTC).replace(microsecond=0)
            warnings.warn(
                f"this machine's clock ({format_time(mine)}) and the service's "
                f"({format_time(moment)}) differ by {_span(offset)}; matchkit takes now, "
                "windows and retention from the service's clock (set this machine's clock, or "
                "pass now= to pin it)",
                ClockSkewWarning,
                stacklevel=2,
            )

    def now(self) -> datetime:
        """The service's now, to the second (whole seconds: repeated calls send the same
        window bounds, and so the same cache keys)."""
        if self.offset is None and self.ask is not None:
            self.ask()
        offset = self.offset or 0.0
        moment = datetime.fromtimestamp(self.wall_clock() + offset, UTC)
        return moment.replace(microsecond=0)


def _span(seconds: float) -> str:
    seconds = abs(seconds)
    if seconds < 3600:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"
