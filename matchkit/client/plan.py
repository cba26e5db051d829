"""Planning a match-list fetch: time windows x pages, and what the pages cost under a rate limit.

Pure: nothing here makes a request. The client turns a :class:`~matchkit.rules.query.MatchQuery`
into consecutive windows of at most 28 days (:func:`plan_windows`), pages each window from offset 0
with the shard's largest page, and moves on by :func:`next_offset` until a page comes back
shorter than its limit.

Example:
    >>> from matchkit.rules.query import MatchQuery
    >>> query = MatchQuery.create(start="2026-07-03T00:00:00Z")
    >>> [w.span.days for w in plan_windows(query, now="2026-10-31T00:00:00Z")]
    [28, 28, 28, 28, 8]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

from matchkit.client.session import RateLimit
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import MAX_SPAN, TimeWindow, format_time, split_window

__all__ = [
    "FetchPlan",
    "PlannedRequest",
    "link_offset",
    "list_path",
    "next_offset",
    "plan_windows",
]


def list_path(shard: str) -> str:
    """The path of the match list of ``shard``."""
    return f"/shards/{shard}/matches"


def plan_windows(query: MatchQuery, *, now: str | datetime) -> list[TimeWindow]:
    """The windows a fetch walks, in the order of ``query.sort``.

    The time rules (defaults, clamping to now and the retention) apply to the whole range, with
    no span limit; the range is then split into consecutive windows of at most 28 days.

    Raises:
        InvalidArgumentError: a time does not parse, or start >= end after the rules.
    """
    windows = split_window(query.window(now=now, max_span=None), max_span=MAX_SPAN)
    return windows[::-1] if query.descending else windows


def next_offset(*, offset: int, limit: int, received: int, next_link: str | None) -> int | None:
    """The offset of the page after one that held ``received`` matches, or ``None`` to stop.

    A page shorter than its limit is the last, ``next`` link or not (the real service sent
    ``next`` even on an empty page). A page longer than the limit means the service pages by a
    larger limit of its own (the real one once served 50 with a player filter); then a missing
    ``next`` link marks the last page. Otherwise the next page starts at ``offset + received``.

    The request for that page is always rebuilt from the query rather than taken from the link:
    real links lost the query's filters, and a page's cache key must not depend on how the
    service writes its links. The client logs a link whose offset disagrees.
    """
    if received < limit:
        return None
    if received > limit and next_link is None:
        return None
    return offset + received


def link_offset(link: str | None) -> int | None:
    """The ``page[offset]`` of a paging link, when it has a whole-number one."""
    if not link:
        return None
    values = parse_qs(urlsplit(link).query).get("page[offset]")
    if not values or not values[0].isdigit():
        return None
    return int(values[0])


@dataclass(frozen=True)
class PlannedRequest:
    """The first request of one window (further pages follow while pages come back full).

    Attributes:
        window: the time window.
        path: the list path, relative to the base URL.
        params: the query parameters, in the stable order the cache keys use.
        cached: whether the cache already holds a fresh answer (it then costs no time).
    """

    window: TimeWindow
    path: str
    params: Mapping[str, str]
    cached: bool = False


@dataclass(frozen=True)
class FetchPlan:
    """The windows and requests a call would make, and what they cost under the rate limit.

    The number of pages per window is only known once the pages arrive: a window holding ``n``
    matches takes ``n // page_limit + 1`` requests.

    Attributes:
        shard: the shard.
        windows: the windows, in fetch order.
        requests: the first request of each window.
        page_limit: matches per page.
        max_matches: the cap on matches, or ``None``.
        rate_limit: the client-side rate, or ``None`` when off.
        seconds_per_page: the time each page fetched from the network costs under the rate
            limit once its allowance is used up (0 when off); cached pages cost nothing.
    """

    shard: str
    windows: tuple[TimeWindow, ...]
    requests: tuple[PlannedRequest, ...]
    page_limit: int
    max_matches: int | None
    rate_limit: RateLimit | None
    seconds_per_page: float

    @property
    def uncached_requests(self) -> int:
        return sum(not request.cached for request in self.requests)

    def seconds_for(self, matches: int) -> float:
        """The rate-limit time of fetching ``matches`` matches from the network, at least."""
        pages = matches // self.page_limit + len(self.windows)
        return pages * self.seconds_per_page

    def __str__(self) -> str:
        rate = "no rate limit" if self.rate_limit is None else f"rate limit {self.rate_limit}"
        lines = [
            f"{len(self.windows)} window(s) on shard {self.shard}, pages of {self.page_limit} "
            f"matches, {rate} ({self.seconds_per_page:g} s per uncached page)"
        ]
        for request in self.requests:
            window = request.window
            state = "cached" if request.cached else "to fetch"
            lines.append(
                f"  [{format_time(window.start)}, {format_time(window.end)}) "
                f"{window.span.total_seconds() / 86400:g} days: first page {state}"
            )
        return "\n".join(lines)
