"""Running a plan: the pages of each window and batch in order, and which matches a cap keeps.

:class:`Pager` pages each window (and each batch of a long id or name list) by time, each page
after the first asking from the last match received on and beginning with it
(:class:`matchkit.rules.paging.WindowCursor`), so that a match leaving or arriving while the
window is paged (retention moving on, a deletion) cannot cost another match; a page with no new
match, an empty page or a page without ``next`` ends the window (decision 8); a 404 on a list is
an empty window. Every page is checked against its request before it is used or cached
(:func:`matchkit.client.checks.list_page_check`: its window and the filters its matches show).
It yields the pages as the service sent them (:class:`matchkit.client.transport.Fetched`: the raw
body and its data and links), with a progress bar over the pages and matches that names the
window and shows rate-limit waits (:class:`matchkit.client.progress.FetchProgress`).

With ``max_matches`` the pager is the one place that decides which matches a call keeps: the
first ``max_matches`` distinct matches in sort order (:attr:`Pager.kept`). It stops fetching
after the page (or, with several batches, the window) that completes them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from matchkit.client.cache import page_expiry
from matchkit.client.checks import created_at, list_page_check
from matchkit.client.plan import FetchPlan, list_path
from matchkit.client.progress import FetchProgress
from matchkit.client.transport import Fetched, Transport
from matchkit.errors import ServiceError
from matchkit.rules.jsonapi import primary_resources
from matchkit.rules.paging import WindowCursor
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["Pager", "ordered_frames"]

logger = logging.getLogger(__name__)


class Pager:
    """Fetches the pages of a plan through a transport.

    Args:
        transport: the cached, retrying transport.
        progress: show a progress bar over the pages and matches.

    Attributes:
        kept: after a run with ``max_matches``, the ids of the matches the call keeps (the
            first ``max_matches`` in sort order); ``None`` when every match is kept.
    """

    def __init__(self, transport: Transport, *, progress: bool) -> None:
        self.transport = transport
        self.progress = progress
        self.kept: list[Any] | None = None

    def iter_pages(self, plan: FetchPlan) -> Iterator[Fetched]:
        """Yield every page of ``plan``'s windows and batches, in the plan's order.

        Raises:
            ServiceError: a page is not a list document, or the service repeats a page.
        """
        batches = plan.query.batches()
        cap = plan.max_matches
        kept: dict[Any, None] = {}
        self.kept = None if cap is None else []
        bar = FetchProgress(shard=plan.shard, windows=plan.windows, enabled=self.progress)
        pages = 0
        hits_before = self.transport.cache_hits
        started = time.perf_counter()
        self._listen_to_waits(bar.wait)
        try:
            for index, window in enumerate(plan.windows):
                bar.window(index)
                found: dict[Any, str] = {}
                for batch in batches:
                    for page in self._iter_window(batch, window, plan):
                        pages += 1
                        for resource in primary_resources(page.head or {}):
                            if resource.get("id") not in kept:  # new to this call
                                found.setdefault(resource.get("id"), _created_at(resource))
                        bar.page(len(kept) + len(found))
                        yield page
                        if cap is not None and len(batches) == 1 and len(kept) + len(found) >= cap:
                            self._keep(kept, found, cap, descending=False, sort=False)
                            logger.info("stopped at max_matches=%d", cap)
                            return
                if cap is not None:
                    self._keep(
                        kept, found, cap, descending=plan.query.descending, sort=len(batches) > 1
                    )
                    if len(kept) >= cap:
                        logger.info("stopped at max_matches=%d", cap)
                        return
                else:
                    kept.update(dict.fromkeys(found))
        finally:
            self._listen_to_waits(None)
            bar.close()
            logger.debug(
                "%d page(s), %d match(es), %d from the cache, in %.2f s",
                pages,
                len(kept),
                self.transport.cache_hits - hits_before,
                time.perf_counter() - started,
            )

    def _listen_to_waits(self, listener: Callable[[float, str], None] | None) -> None:
        """Tell ``listener`` of each rate-limit wait: the service's (429) and the client's own."""
        self.transport.on_wait = listener

    def _keep(
        self,
        kept: dict[Any, None],
        found: dict[Any, str],
        cap: int,
        *,
        descending: bool,
        sort: bool,
    ) -> None:
        """Add a window's new matches to ``kept`` in sort order, up to ``cap``.

        One batch comes in sort order already; the matches of several batches are put in order
        by ``createdAt``, then id, as the service sorts.
        """
        new = list(found)
        if sort:
            new.sort(key=lambda match_id: (found[match_id], str(match_id)), reverse=descending)
        kept.update(dict.fromkeys(new[: max(0, cap - len(kept))]))
        self.kept = list(kept)

    def _iter_window(
        self, query: MatchQuery, window: TimeWindow, plan: FetchPlan
    ) -> Iterator[Fetched]:
        """The pages of one window and batch, walked by time (:class:`WindowCursor`): all from
        the cache, or all from the service.

        A window is one answer of the list: its pages are read from the cache only when the
        cache holds it whole and consistent (each page beginning with the last match of the
        page before); otherwise every page is asked of the service. Cached pages and new ones
        are never mixed: they would be two answers of the list, whose shared match may differ
        (the list moved in between, or another fetch was storing the same window), and an
        interrupted fetch resumes at the window it stopped in.

        Every page is checked against its request before it is used or cached
        (:func:`matchkit.client.checks.list_page_check`); a page that does not begin with the
        last match of the page before (a match left or arrived at the boundary) is not
        yielded, and asked again from the boundary's first match (by position: from the
        window's start).

        Raises:
            ServiceError: a page disagrees with its request after the retries, or the paging
                makes no progress (a service that ignores it, a list that keeps moving).
        """
        cached = self._cached_window(query, window)
        if cached is not None:
            yield from cached
            return
        path = list_path(query.shard)
        expire_after = page_expiry(window.end, now=plan.now, settle=plan.settle)
        cursor = WindowCursor(window, descending=query.descending, limit=query.limit)
        while True:
            request = cursor.request()
            asked = query.with_window(request.window).with_offset(request.offset)
            fetched = self.transport.get(
                path,
                asked.to_params(),
                kind="list",
                expire_after=expire_after,
                parse=list_page_check(asked),
                fresh=True,  # the cache does not hold the window whole (offline: read it)
            )
            if fetched.head is None:  # a 404 on a list (decision 11): empty, if the window's first
                if not cursor.seen and cursor.resyncs == 0:
                    return
                raise ServiceError(
                    f"404 from GET {fetched.url} in the middle of a window, after "
                    f"{len(cursor.seen)} match(es): not an empty window; try again later",
                    status=fetched.status,
                    url=fetched.url,
                )
            by_time = cursor.by_time
            ids, times, has_next = _page_of(fetched)
            step = cursor.take(ids, times, has_next=has_next)
            if by_time and not cursor.by_time:
                logger.info(
                    "GET %s is not in createdAt order: paging the window by position, from "
                    "its start again",
                    fetched.url,
                )
            if step == "resync":
                logger.info(
                    "GET %s did not begin with the last match received: a match left or "
                    "arrived at the boundary; asking again from the boundary",
                    fetched.url,
                )
                continue
            if step == "stuck":
                raise ServiceError(
                    f"GET {fetched.url} brought no match not already received, after "
                    f"{cursor.resyncs} page(s) that did not begin with the last one received: "
                    "the service ignores page[offset] or the time filters, or its list keeps "
                    "moving while the window is paged; the window cannot be paged whole, "
                    "try again later",
                    status=fetched.status,
                    url=fetched.url,
                )
            yield fetched
            if step == "done":
                return

    def _cached_window(self, query: MatchQuery, window: TimeWindow) -> list[Fetched] | None:
        """The window's pages from the cache alone, if it holds them whole and consistent."""
        path = list_path(query.shard)
        cursor = WindowCursor(window, descending=query.descending, limit=query.limit)
        pages: list[Fetched] = []
        last: dict[str, Any] = {}
        while True:
            request = cursor.request()
            asked = query.with_window(request.window).with_offset(request.offset)
            fetched = self.transport.cached(
                path, asked.to_params(), kind="list", parse=list_page_check(asked)
            )
            if fetched is None or fetched.head is None:
                return None
            ids, times, has_next = _page_of(fetched)
            step = cursor.take(ids, times, has_next=has_next)
            if step in ("resync", "stuck") or (pages and not _one_answer(last, fetched.head)):
                return None  # cached pages of two answers of the list: ask the service
            pages.append(fetched)
            last = fetched.head
            if step == "done":
                return pages


def _one_answer(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Two consecutive cached pages (their heads) are of one answer of the list: the match they
    share (the last of one, the first of the next) is the same in both, and both were answered
    by the same address. Two embedded services, on other ports, may store pages of one window at
    once: their asset URLs name their own port, and read together the pages would hold one
    asset twice, with different content."""
    last, first = primary_resources(before)[-1:], primary_resources(after)[:1]
    if last and first and last[0].get("id") == first[0].get("id") and last[0] != first[0]:
        return False
    return _answered_by(before) == _answered_by(after)


def _answered_by(head: dict[str, Any]) -> str | None:
    """The scheme and address a page's own link names (None when it has none)."""
    links = head.get("links")
    self_link = links.get("self") if isinstance(links, dict) else None
    if not isinstance(self_link, str):
        return None
    parts = urlsplit(self_link)
    return f"{parts.scheme}://{parts.netloc}"


def _page_of(fetched: Fetched) -> tuple[list[Any], list[datetime], bool]:
    """What the cursor reads of a page: its match ids and times, and whether it links next."""
    document = fetched.head or {}
    matches = primary_resources(document)
    ids = [resource.get("id") for resource in matches]
    times = [created_at(resource) for resource in matches]  # checked: none is None
    links = document.get("links")
    if not isinstance(links, dict):
        links = {}
    has_next = isinstance(links.get("next"), str) and bool(links.get("next"))
    return ids, times, has_next  # type: ignore[return-value]


def _created_at(resource: dict[str, Any]) -> str:
    """A match resource's ``createdAt`` as sent (the service's one format sorts as text)."""
    attributes = resource.get("attributes")
    created = attributes.get("createdAt") if isinstance(attributes, dict) else None
    return str(created or "")


def ordered_frames(frames: MatchFrames, *, descending: bool) -> MatchFrames:
    """Matches in sort order (``created_at``, then ``match_id``).

    Pages already come sorted and windows are walked in order, so this rarely moves a row; it
    makes the order a property of the result rather than of the service.
    """
    table = frames.matches
    order = table.sort_values(
        ["created_at", "match_id"], ascending=not descending, kind="stable", na_position="last"
    )
    if order.index.equals(table.index):
        return frames
    return replace(frames, matches=order.reset_index(drop=True))
