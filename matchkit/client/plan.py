"""Planning a match-list fetch: time windows x pages, and what the pages cost under a rate limit.

Pure: nothing here makes a request, reads the cache or knows the rate limiter. The client turns
a :class:`matchkit.rules.query.MatchQuery` into consecutive windows of at most 28 days
(:func:`plan_windows`), each asked in batches the service takes (:meth:`MatchQuery.batches`),
and pages each by time with the shard's largest page, each page after the first beginning with
the last match received, until a page with no new match, an empty page or a page without
``next`` (:class:`matchkit.rules.paging.WindowCursor`).

Example:
    >>> from matchkit.rules.query import MatchQuery
    >>> query = MatchQuery.create(start="2026-07-03T00:00:00Z")
    >>> [w.span.days for w in plan_windows(query, now="2026-10-31T00:00:00Z")]
    [28, 28, 28, 28, 8]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from matchkit.rules.query import MatchQuery
from matchkit.rules.ratelimit import RateLimit
from matchkit.rules.shards import ShardName
from matchkit.rules.windows import MAX_SPAN, SETTLE, TimeWindow, format_time, split_window

__all__ = [
    "FetchPlan",
    "PlannedRequest",
    "list_path",
    "make_plan",
    "plan_windows",
]


def list_path(shard: ShardName) -> str:
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


def make_plan(
    query: MatchQuery,
    *,
    now: datetime,
    max_matches: int | None,
    rate_limit: RateLimit | None,
    is_cached: Callable[[str, Mapping[str, str]], bool] = lambda path, params: False,
    settle: timedelta = SETTLE,
) -> FetchPlan:
    """The plan of ``query`` at ``now``: its windows, and the first request of each window and
    batch (``is_cached(path, params)`` marks those the cache answers); the last ``settle``
    before now is provisional (decision 20).

    Raises:
        InvalidArgumentError: a time does not parse, or start >= end after the rules.
    """
    windows = plan_windows(query, now=now)
    path = list_path(query.shard)
    requests = tuple(
        PlannedRequest(
            window=window,
            path=path,
            params=(params := batch.with_window(window).to_params()),
            cached=is_cached(path, params),
        )
        for window in windows
        for batch in query.batches()
    )
    return FetchPlan(
        query=query,
        now=now,
        shard=query.shard,
        windows=tuple(windows),
        requests=requests,
        page_limit=query.limit,
        max_matches=max_matches,
        rate_limit=rate_limit,
        seconds_per_page=0.0 if rate_limit is None else rate_limit.seconds_per_request,
        settle=settle,
    )


@dataclass(frozen=True)
class PlannedRequest:
    """The first request of one window and batch (further pages follow until one brings no new
    match).

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
    matches takes at least ``ceil(n / (page_limit - 1)) + 1`` requests (each page after the
    first begins with the last match received; the page of that match alone ends it).

    Attributes:
        query: the validated query (its time bounds as the caller gave them).
        now: the present moment the windows were planned at.
        shard: the shard.
        windows: the windows, in fetch order.
        requests: the first request of each window and batch.
        page_limit: matches per page.
        max_matches: the cap on matches, or ``None``.
        rate_limit: the client-side rate, or ``None`` when off.
        seconds_per_page: the time each page fetched from the network costs under the rate
            limit once its allowance is used up (0 when off); cached pages cost nothing.
        settle: how far before ``now`` the record is provisional (decision 20: the service
            lists a match once it has ended and been ingested).
    """

    query: MatchQuery
    now: datetime
    shard: ShardName
    windows: tuple[TimeWindow, ...]
    requests: tuple[PlannedRequest, ...]
    page_limit: int
    max_matches: int | None
    rate_limit: RateLimit | None
    seconds_per_page: float
    settle: timedelta = SETTLE

    @property
    def whole(self) -> TimeWindow:
        """The whole range the plan fetches."""
        return TimeWindow(
            min(window.start for window in self.windows), max(window.end for window in self.windows)
        )

    @property
    def provisional(self) -> TimeWindow | None:
        """The part of the range the service may still fill (the last ``settle`` before now:
        matches are listed once ended and ingested, decision 20), or ``None`` when the whole
        range is final. Fetch it again once it has settled for the final record."""
        whole = self.whole
        final_until = self.now - self.settle
        if whole.end <= final_until:
            return None
        return TimeWindow(max(whole.start, final_until), whole.end)

    @property
    def uncached_requests(self) -> int:
        return sum(not request.cached for request in self.requests)

    def seconds_for(self, matches: int) -> float:
        """The rate-limit time of fetching ``matches`` matches from the network, at least."""
        new_per_page = max(1, self.page_limit - 1)  # each page repeats the last match received
        pages = -(-matches // new_per_page) + len(self.requests)
        return pages * self.seconds_per_page

    def __str__(self) -> str:
        rate = "no rate limit" if self.rate_limit is None else f"rate limit {self.rate_limit}"
        lines = [
            f"{len(self.windows)} window(s) on shard {self.shard} in {len(self.requests)} "
            f"request(s), pages of {self.page_limit} matches, {rate} "
            f"({self.seconds_per_page:g} s per uncached page)"
        ]
        for request in self.requests:
            window = request.window
            state = "cached" if request.cached else "to fetch"
            lines.append(
                f"  [{format_time(window.start)}, {format_time(window.end)}) "
                f"{window.span.total_seconds() / 86400:g} days: first page {state}"
            )
        return "\n".join(lines)
