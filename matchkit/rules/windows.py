"""Pure time-window rules of the match-data service, shared by the client and the service.

Every rule that depends on "now" takes ``now`` as an argument. Times are tz-aware UTC datetimes;
naive datetimes and ISO 8601 strings without an offset are read as UTC, and a
:class:`datetime.date` as its midnight UTC.

The rules of the interface (with ``docs/decisions.md``, decision 2) in the order they apply:

1. a missing start defaults to ``now - 28 days`` (on ``na``: 3 hours before the end);
2. a missing end defaults to ``now``;
3. a time later than now is replaced by now;
4. a time earlier than the retention period (120 days) is replaced by ``now - 120 days``;
5. start >= end is an error; then a span over 28 days is an error (the service's rule; the
   client instead splits a longer range with :func:`split_window`).

Example:
    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 10, 31, tzinfo=timezone.utc)
    >>> resolve_window(None, None, now=now).start.isoformat()
    '2026-10-03T00:00:00+00:00'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from matchkit.errors import InvalidArgumentError

__all__ = [
    "MAX_SPAN",
    "RETENTION",
    "SETTLE",
    "TimeWindow",
    "format_time",
    "parse_time",
    "resolve_window",
    "split_window",
]

MAX_SPAN = timedelta(days=28)
RETENTION = timedelta(days=120)
SETTLE = timedelta(hours=6)
"""How long after its ``createdAt`` a match may still be listed for the first time (decision 20:
a service lists a match once it has ended and been ingested). The last ``SETTLE`` before now is
provisional: a window reaching into it may still gain matches, and is read again later."""

# A numeric offset whose "+" was decoded to a space, as in a real `next` link:
# "2017-12-03T15:23:53 0100".
_SPACE_OFFSET = re.compile(r"^(.*T\d\d:\d\d(?::\d\d(?:\.\d+)?)?) (\d\d:?\d\d)$")


@dataclass(frozen=True, order=True)
class TimeWindow:
    """A half-open time interval ``[start, end)`` in UTC."""

    start: datetime
    end: datetime

    @property
    def span(self) -> timedelta:
        return self.end - self.start

    def __contains__(self, moment: object) -> bool:
        return isinstance(moment, datetime) and self.start <= moment < self.end


def parse_time(value: str | date, *, parameter: str = "time") -> datetime:
    """Read a datetime, a date or an ISO 8601 string as a tz-aware UTC datetime.

    Accepts ``Z``, numeric offsets (``+01:00``, ``+0100``), an offset whose ``+`` was decoded
    to a space, and no offset at all (read as UTC). A :class:`datetime.date` (not a datetime)
    is its midnight UTC.

    Raises:
        InvalidArgumentError: the value is not a datetime or does not parse; ``parameter``
            names the argument at fault in the message and on the error.
    """
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime(value.year, value.month, value.day, tzinfo=UTC)
    elif isinstance(value, str):
        text = value.strip()
        spaced = _SPACE_OFFSET.match(text)
        if spaced:
            text = f"{spaced.group(1)}+{spaced.group(2)}"
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise InvalidArgumentError(
                f"{parameter}={value!r} is not an ISO 8601 timestamp; "
                "use a form such as 2026-10-31T00:00:00Z",
                parameter=parameter,
            ) from None
    else:
        raise InvalidArgumentError(
            f"{parameter} must be a datetime, a date or an ISO 8601 string, "
            f"not {type(value).__name__}",
            parameter=parameter,
        )
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        # 0001-01-01 east of UTC, or 9999-12-31 west of it: no such UTC moment.
        raise InvalidArgumentError(
            f"{parameter}={value!r} lies outside the years 1 to 9999 in UTC; "
            "use a time between them",
            parameter=parameter,
        ) from None


def format_time(moment: datetime) -> str:
    """Write a datetime as the service writes timestamps: ``YYYY-MM-DDTHH:MM:SSZ`` (UTC).

    Sub-second parts are kept (``.ffffff``) only when present, so that windows split at
    fractional seconds still meet without a gap.
    """
    moment = parse_time(moment)
    # isoformat, not strftime: the C library writes the year 1 as "1", not "0001".
    timespec = "microseconds" if moment.microsecond else "seconds"
    return moment.replace(tzinfo=None).isoformat(timespec=timespec) + "Z"


def resolve_window(
    start: str | date | None,
    end: str | date | None,
    *,
    now: str | date,
    default_lookback: timedelta = MAX_SPAN,
    lookback_from_end: bool = False,
    retention: timedelta = RETENTION,
    max_span: timedelta | None = MAX_SPAN,
    start_parameter: str = "start",
    end_parameter: str = "end",
) -> TimeWindow:
    """Apply the service's time rules to optional start and end.

    Args:
        start: inclusive start, or ``None`` for the default.
        end: exclusive end, or ``None`` for now.
        now: the present moment (injected; never read from the clock here).
        default_lookback: how far a missing start lies before now (``global``: 28 days) or,
            with ``lookback_from_end``, before the end (``na``: 3 hours).
        retention: how far back records are kept; earlier times are clamped to it.
        max_span: the longest allowed window, or ``None`` for no limit (the client splits).
        start_parameter, end_parameter: names used in error messages.

    Raises:
        InvalidArgumentError: a time does not parse, start is not before now (no match can
            exist yet), start >= end, or the span exceeds max_span.
    """
    now = parse_time(now, parameter="now")
    for name, span in (("default_lookback", default_lookback), ("retention", retention)):
        if not isinstance(span, timedelta) or span < timedelta(0):
            raise InvalidArgumentError(
                f"{name}={span!r} must be a timedelta of zero or more", parameter=name
            )
    retention_start = _earlier(now, retention)
    resolved_end = now if end is None else parse_time(end, parameter=end_parameter)
    if end is not None and resolved_end <= retention_start:
        raise InvalidArgumentError(
            f"{end_parameter} {format_time(resolved_end)} is not after the start of the "
            f"retention period: the service keeps {retention.days} days, from "
            f"{format_time(retention_start)} (now = {format_time(now)}); no match so old can "
            "be fetched",
            parameter=end_parameter,
        )
    resolved_end = min(resolved_end, now)
    if start is None:
        anchor = resolved_end if lookback_from_end else now
        resolved_start = _earlier(anchor, default_lookback)
    else:
        resolved_start = parse_time(start, parameter=start_parameter)
        if resolved_start >= now:
            raise InvalidArgumentError(
                f"{start_parameter} {format_time(resolved_start)} is not before now "
                f"({format_time(now)}): no match can exist yet; pick a start in the past "
                f"(within the last {retention.days} days)",
                parameter=start_parameter,
            )
    resolved_start = min(resolved_start, now)
    resolved_start = max(resolved_start, retention_start)
    resolved_end = max(resolved_end, retention_start)
    if resolved_start >= resolved_end:
        raise InvalidArgumentError(
            f"{start_parameter} ({format_time(resolved_start)}) must be earlier than "
            f"{end_parameter} ({format_time(resolved_end)}) after the time rules are applied "
            f"(times are clamped to [now - {retention.days} days, now], "
            f"now = {format_time(now)})",
            parameter=start_parameter,
        )
    if max_span is not None and resolved_end - resolved_start > max_span:
        raise InvalidArgumentError(
            f"the span from {start_parameter} to {end_parameter} is "
            f"{_days(resolved_end - resolved_start)}; at most {_days(max_span)} are allowed",
            parameter=start_parameter,
        )
    return TimeWindow(resolved_start, resolved_end)


def split_window(window: TimeWindow, *, max_span: timedelta = MAX_SPAN) -> list[TimeWindow]:
    """Split a window into consecutive windows of at most ``max_span``, no gap, no overlap.

    The pieces run from ``window.start``; only the last one may be shorter.
    """
    if not isinstance(max_span, timedelta) or max_span <= timedelta(0):
        raise InvalidArgumentError(
            f"max_span={max_span!r} must be a positive timedelta", parameter="max_span"
        )
    pieces = []
    cursor = window.start
    while cursor < window.end:
        # Compared as a span, so that cursor + max_span is only formed when it is in range.
        upper = window.end if window.end - cursor <= max_span else cursor + max_span
        pieces.append(TimeWindow(cursor, upper))
        cursor = upper
    return pieces


def _earlier(moment: datetime, span: timedelta) -> datetime:
    """``moment - span``, or the earliest representable moment when that lies before year 1."""
    try:
        return moment - span
    except OverflowError:
        return datetime.min.replace(tzinfo=UTC)


def _days(span: timedelta) -> str:
    days = span / timedelta(days=1)
    return f"{days:g} days"
