"""The client's notices: warnings about what a call sends or fetches differently from what it asked.

Each is a :class:`matchkit.errors.MatchkitWarning` (the root of matchkit's warnings):

- :class:`UnlistedValueWarning`: a filter value the interface does not list is sent as given.
- :class:`PlayerNotFoundWarning`: a name or id :meth:`matchkit.Client.players` asked for that
  no player has (the frame has no row for it; the warning names each one).
- :class:`RangeClampedWarning`: the time rules moved a bound the caller gave (a start earlier
  than the retention period, an end later than now); the warning says what was asked and what
  is fetched. Nothing is said when the range is fetched as asked, or when a bound was left out
  (its default is not a clamp).
- :class:`ProvisionalRangeWarning`: the range reaches into the newest hours, which the service
  may still fill (it lists a match only once it has ended and been ingested: decision 20).
- :class:`ClockSkewWarning`: this machine's clock and the service's differ by more than a
  minute (matchkit takes now from the service's: :mod:`matchkit.client.clock`).

Example:
    >>> from matchkit.rules.query import MatchQuery
    >>> from matchkit.rules.windows import TimeWindow, parse_time
    >>> query = MatchQuery.create(start="2026-01-01", end="2026-12-01")
    >>> window = TimeWindow(parse_time("2026-07-03"), parse_time("2026-10-31"))
    >>> print(clamp_notice(query, window, now=parse_time("2026-10-31")))
    asked for 2026-01-01T00:00:00Z..2026-12-01T00:00:00Z (334 days); fetching \
2026-07-03T00:00:00Z..2026-10-31T00:00:00Z (120 days): start is before the 120-day retention \
period; end is after now (2026-10-31T00:00:00Z)
"""

from __future__ import annotations

from datetime import datetime, timedelta

from matchkit.errors import MatchkitWarning
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import RETENTION, TimeWindow, format_time

__all__ = [
    "ClockSkewWarning",
    "PlayerNotFoundWarning",
    "ProvisionalRangeWarning",
    "RangeClampedWarning",
    "UnlistedValueWarning",
    "clamp_notice",
    "provisional_notice",
]


class UnlistedValueWarning(MatchkitWarning):
    """A filter value the interface does not list (sent as given: it may be a typo)."""


class PlayerNotFoundWarning(MatchkitWarning):
    """Names or ids asked for that no player of the shard has (now): no row stands for them."""


class RangeClampedWarning(MatchkitWarning):
    """The range fetched is not the range asked: the time rules clamped a bound the caller gave
    (to the retention period, or to now)."""


class ProvisionalRangeWarning(MatchkitWarning):
    """The range reaches into the newest hours, which are not final yet: the service lists a
    match only once it has ended and been ingested, so matches of those hours may still
    appear (decision 20). Fetch them again later for the final record."""


class ClockSkewWarning(MatchkitWarning):
    """This machine's clock and the service's differ by more than a minute; matchkit takes now
    from the service's clock."""


def clamp_notice(
    query: MatchQuery, fetched: TimeWindow, *, now: datetime, retention: timedelta = RETENTION
) -> str | None:
    """What the time rules changed in the bounds ``query`` gives, or ``None`` when nothing.

    Args:
        query: the query as asked (``start``/``end`` ``None`` when left to their defaults).
        fetched: the whole range the call fetches (the time rules applied).
        now: the present moment the rules used.
        retention: the retention period the rules used.
    """
    reasons = []
    if query.start is not None and query.start < fetched.start:
        reasons.append(f"start is before the {retention.days}-day retention period")
    if query.end is not None and query.end > fetched.end:
        reasons.append(f"end is after now ({format_time(now)})")
    if not reasons:
        return None
    asked_start = query.start if query.start is not None else fetched.start
    asked_end = query.end if query.end is not None else fetched.end
    return (
        f"asked for {format_time(asked_start)}..{format_time(asked_end)} "
        f"({_days(asked_end - asked_start)}); fetching {format_time(fetched.start)}.."
        f"{format_time(fetched.end)} ({_days(fetched.span)}): {'; '.join(reasons)}"
    )


def _days(span: timedelta) -> str:
    return f"{span / timedelta(days=1):g} days"


def provisional_notice(provisional: TimeWindow, *, settle: timedelta) -> str:
    """What a fetch reaching into the newest hours is told: which part of it may still change,
    and when it is final.

    Example:
        >>> from matchkit.rules.windows import parse_time
        >>> window = TimeWindow(parse_time("2026-10-30T18:00:00Z"), parse_time("2026-10-31"))
        >>> print(provisional_notice(window, settle=timedelta(hours=6)))
        matches created 2026-10-30T18:00:00Z..2026-10-31T00:00:00Z may not all be listed yet: \
the service lists a match once it has ended and been ingested (minutes, sometimes hours); \
fetch this part again after 2026-10-31T00:00:00Z for the final record
    """
    return (
        f"matches created {format_time(provisional.start)}..{format_time(provisional.end)} may "
        "not all be listed yet: the service lists a match once it has ended and been ingested "
        "(minutes, sometimes hours); fetch this part again after "
        f"{format_time(provisional.end + settle)} for the final record"
    )
