"""Walking the plan: pages of each window in order, deduplicated counting, sorted results.

:class:`Pager` pages each window with the query's limit from offset 0, moving on by
:func:`~matchkit.client.plan.next_offset` until a page comes back shorter than the limit; a 404 on a
list is an empty window. It yields the pages as the service sent them (:class:`Fetched`: the raw
body and its data and links), with a progress bar over the windows.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tqdm.auto import tqdm

from matchkit.client.cache import page_expiry
from matchkit.client.plan import link_offset, list_path, next_offset
from matchkit.client.transport import Fetched, Transport
from matchkit.errors import ServiceError
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["Pager", "ordered_frames", "primary_resources"]

logger = logging.getLogger(__name__)


class Pager:
    """Fetches the pages of a plan through a transport.

    Args:
        transport: the cached, retrying transport.
        shard: the shard (names the progress bar).
        progress: show a progress bar over the windows.
    """

    def __init__(self, transport: Transport, *, shard: str, progress: bool) -> None:
        self.transport = transport
        self.shard = shard
        self.progress = progress

    def iter_pages(
        self,
        query: MatchQuery,
        windows: list[TimeWindow],
        *,
        now: datetime,
        max_matches: int | None,
    ) -> Iterator[Fetched]:
        """Yield every page of ``windows`` (walked in the given order) for ``query``.

        Stops after the page on which ``max_matches`` distinct matches have been seen.

        Raises:
            ServiceError: a page is not a list document, or the service repeats a page.
        """
        seen: set[Any] = set()
        bar = tqdm(
            total=len(windows),
            desc=f"matchkit {self.shard}",
            unit="window",
            disable=not self.progress,
        )
        pages = 0
        hits_before = self.transport.cache_hits
        started = time.perf_counter()
        try:
            for window in windows:
                for page in self._iter_window(query, window, now=now):
                    pages += 1
                    for resource in primary_resources(page.head or {}):
                        seen.add(resource.get("id"))
                    bar.set_postfix(pages=pages, matches=len(seen), refresh=False)
                    yield page
                    if max_matches is not None and len(seen) >= max_matches:
                        logger.info("stopped at max_matches=%d", max_matches)
                        return
                bar.update(1)
        finally:
            bar.close()
            logger.debug(
                "%d page(s), %d match(es), %d from the cache, in %.2f s",
                pages,
                len(seen),
                self.transport.cache_hits - hits_before,
                time.perf_counter() - started,
            )

    def _iter_window(
        self, query: MatchQuery, window: TimeWindow, *, now: datetime
    ) -> Iterator[Fetched]:
        path = list_path(query.shard)
        expire_after = page_expiry(window.end, now=now)
        offset = 0
        previous: list[Any] | None = None
        while True:
            params = query.with_window(window).with_offset(offset).to_params()
            fetched = self.transport.get(path, params, kind="list", expire_after=expire_after)
            document = fetched.head
            if document is None:
                return
            resources = primary_resources(document, url=fetched.url)
            ids = [resource.get("id") for resource in resources]
            if ids and ids == previous:
                raise ServiceError(
                    f"GET {fetched.url} repeated the previous page; the service ignores "
                    "page[offset], so the window cannot be paged",
                    status=fetched.status,
                    url=fetched.url,
                )
            previous = ids
            yield fetched
            links = document.get("links") if isinstance(document.get("links"), dict) else {}
            next_link = links.get("next") if isinstance(links.get("next"), str) else None
            following = next_offset(
                offset=offset, limit=query.limit, received=len(ids), next_link=next_link
            )
            if following is None:
                return
            hinted = link_offset(next_link)
            if hinted is not None and hinted != following:
                logger.debug("links.next offset %d disagrees; using offset %d", hinted, following)
            offset = following


def primary_resources(document: dict[str, Any], *, url: str | None = None) -> list[dict[str, Any]]:
    """The primary resources of a page: ``data`` as a list (an object counts as one)."""
    data = document.get("data")
    if data is None:
        return []
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list) and all(isinstance(item, dict) for item in data):
        return data
    raise ServiceError(
        f"GET {url} answered a page whose data is neither a list nor an object", url=url
    )


def ordered_frames(
    frames: MatchFrames, *, descending: bool, max_matches: int | None
) -> MatchFrames:
    """Matches in sort order (``created_at``, then ``match_id``), capped at ``max_matches``.

    Pages already come sorted and windows are walked in order, so this rarely moves a row; it
    makes the order a property of the result rather than of the service.
    """
    table = frames.matches
    order = table.sort_values(
        ["created_at", "match_id"], ascending=not descending, kind="stable", na_position="last"
    )
    if max_matches is not None and len(order) > max_matches:
        keep = set(order["match_id"].iloc[:max_matches])
        frames = frames.filter(table["match_id"].isin(keep))
        return ordered_frames(frames, descending=descending, max_matches=None)
    if order.index.equals(table.index):
        return frames
    return replace(frames, matches=order.reset_index(drop=True))
