"""The paging rules of the match list (decision 8): the service's links, and how a client walks a
window so that a match that leaves or arrives while it pages cannot cost it another match.

The service fills every page while more matches remain and links ``first``, ``next`` (always,
even after the last match), ``self`` and, past the first page, ``previous``:
:func:`link_offsets`. A client cannot rely on full pages: the real Vainglory service returned
short pages mid-window (5 of 50, 48 of 50) while more matches existed. So a client stops only
on an empty page or a page without ``next``, and moves on by the number of matches it received:
:func:`next_offset` (the rule by position, which a client that ignores shifts would follow).

:class:`WindowCursor` is how the client walks a window: by time, not by position. Each page
after the first asks for the window from the last match received on (ascending: from the start
of its second; descending: up to the end of its second), skipping the matches of that second it
already holds but the last, so that each page must begin with the last match of the page before.
A match that leaves or arrives elsewhere in the window moves no later page (the bound is a time,
not a count), and a change within the boundary second shows as a page that does not begin with
it: the cursor then asks the same bound again from its first match (a resync), which holds every
match from that time on. Retention trimming the start of a window only moves the service's start
later; the next page still holds every match that remains. A page with no new match ends the
window only once the page past it is empty too (decision 8: a short page does not end a window,
and a page of the last match alone may be one). A service whose pages are not
in ``createdAt`` order cannot be walked by time: the cursor then walks it by position, each page
still beginning with the last match received, and a shift costs paging the window again from its
start (at most :data:`MAX_RESTARTS` times, then ``"stuck"``). A service that ignores ``sort``
while each of its pages happens to look sorted is indistinguishable from one that sorts.

The cost: each page of ``limit`` matches brings ``limit - 1`` new ones (the first repeats the
last one received), and a window ends on two pages: the last match alone, then an empty one. With
pages of 1 no overlap is possible: those pages skip every match of the boundary second already
held (by position: every match held), and a change there is not detected.

Example:
    >>> next_offset(offset=0, received=3, next_link="...?page[offset]=5")
    3
    >>> next_offset(offset=3, received=0, next_link="...?page[offset]=8") is None
    True
    >>> link_offsets(offset=10, limit=5)
    {'first': 0, 'next': 15, 'self': 10, 'previous': 5}
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from matchkit.rules.windows import TimeWindow

__all__ = [
    "MAX_RESTARTS",
    "PageRequest",
    "WindowCursor",
    "link_offset",
    "link_offsets",
    "next_offset",
]

_SECOND = timedelta(seconds=1)

MAX_RESTARTS = 3
"""How often a window walked by position is paged again from its start after a shift."""
_MAX_IDLE_RESYNCS = 3
"""Resyncs in a row that bring no new match before the paging counts as stuck."""

Step = Literal["more", "resync", "done", "stuck"]


def link_offsets(*, offset: int, limit: int) -> dict[str, int]:
    """The ``page[offset]`` of each paging link of the page at ``offset`` (the service's side)."""
    offsets = {"first": 0, "next": offset + limit, "self": offset}
    if offset > 0:
        offsets["previous"] = max(0, offset - limit)
    return offsets


def next_offset(*, offset: int, received: int, next_link: str | None) -> int | None:
    """The offset of the page after one that held ``received`` matches, or ``None`` to stop.

    A window ends on an empty page or on a page without a ``next`` link, never on a short page.
    The next request is rebuilt from the query at ``offset + received`` rather than taken from
    the link: real links lost the query's filters, and a page's cache key must not depend on how
    the service writes its links (:func:`link_offset` reads the link's offset, to log a
    disagreement).
    """
    if received <= 0 or not next_link:
        return None
    return offset + received


def link_offset(link: str | None) -> int | None:
    """The ``page[offset]`` of a paging link, when it has a whole-number one."""
    if not link:
        return None
    values = parse_qs(urlsplit(link).query).get("page[offset]")
    if not values or not values[0].isascii() or not values[0].isdigit():
        return None
    return int(values[0])


@dataclass(frozen=True)
class PageRequest:
    """One page to ask for: the window narrowed to the part still to page, and the offset."""

    window: TimeWindow
    offset: int


@dataclass
class WindowCursor:
    """Walks one window, each page beginning with the last match of the page before.

    By time while the service keeps the order it was asked for (the pages come sorted by
    ``createdAt``); by position, from offset 0 again, once a page shows it does not (the real
    Vainglory service's pages were not in ``createdAt`` order). By position a shift is still
    detected (the page does not begin with the last match received), but it costs paging the
    window again from its start, at most :data:`MAX_RESTARTS` times.

    Args:
        window: the window to page.
        descending: newest first (``sort=-createdAt``).
        limit: ``page[limit]``.

    Attributes:
        seen: the ids received so far, with their ``createdAt``.
        by_time: whether the window is still walked by time.
        resyncs: how many pages did not begin with the last match received (a shift, asked
            again from the bound, or by position from the start).
    """

    window: TimeWindow
    descending: bool
    limit: int
    seen: dict[Hashable, datetime] = field(default_factory=dict)
    by_time: bool = True
    resyncs: int = 0
    _bound: datetime | None = None
    _skip: int = 0
    _last: Hashable | None = None
    _idle: int = 0
    _restarts: int = 0
    _past_last: bool = False

    def request(self) -> PageRequest:
        """The page to ask for next."""
        window = self.window
        if self._bound is not None:
            if self.descending:
                window = TimeWindow(window.start, self._bound)
            else:
                window = TimeWindow(self._bound, window.end)
        return PageRequest(window, self._skip)

    def take(self, ids: Sequence[Hashable], times: Sequence[datetime], *, has_next: bool) -> Step:
        """Read the page answering :meth:`request`: its match ids and ``createdAt`` times, in
        its order (each checked to lie in the request's window).

        Returns:
            ``"more"``: ask :meth:`request` next; ``"resync"``: the page did not begin with the
            last match received, so it is not used (ask :meth:`request` again: from the bound's
            first match, or by position from the window's start); ``"done"``: the window is
            complete; ``"stuck"``: the paging makes no progress (a service that ignores it, or
            one whose list keeps moving).
        """
        past_last, self._past_last = self._past_last, False
        overlapping = (
            not past_last
            and self._last is not None
            and self.limit > 1
            and (self._skip > 0 or not self.by_time)
        )
        if overlapping and (not ids or ids[0] != self._last):
            self.resyncs += 1
            if self.by_time:
                self._idle += 1
                self._skip = 0
                return "stuck" if self._idle > _MAX_IDLE_RESYNCS else "resync"
            self._restarts += 1
            self._skip, self._last = 0, None
            return "stuck" if self._restarts > MAX_RESTARTS else "resync"
        new = 0
        for match_id, moment in zip(ids, times, strict=True):
            if match_id not in self.seen:
                self.seen[match_id] = moment
                new += 1
        if new:
            self._idle = 0
        if not has_next or not ids:
            return "done"  # an empty page, or no next link
        if not new:
            if past_last:
                return "stuck"  # past the last match received, only matches received
            if len(ids) < self.limit and self._last is not None:
                # Only the last match again: the window's end, or a short page, which does
                # not end a window (decision 8). Asked once more past it: empty, it ends.
                self._skip += 1
                self._past_last = True
                return "more"
        if self.by_time and not _in_order(times, descending=self.descending):
            self.by_time, self._bound, self._skip = False, None, 0  # by position, from 0 again
            self._last = None
            return "more"
        before = (self._bound, self._skip)
        self._last = ids[-1]
        if not self.by_time:
            self._skip += len(ids) - (1 if self.limit > 1 else 0)
            return "more"
        floor = times[-1].replace(microsecond=0)
        if self.descending:
            self._bound = min(floor + _SECOND, self.window.end)
            inside = [moment < self._bound for moment in times]
        else:
            self._bound = max(floor, self.window.start)
            inside = [moment >= self._bound for moment in times]
        # The last match's place in the next request's answer: the page's matches inside it
        # before the last, and the matches skipped before this page when the bound stays.
        tied = list(itertools.takewhile(bool, reversed(inside)))
        earlier = before[1] if before[0] == self._bound else 0
        self._skip = earlier + len(tied) - (1 if self.limit > 1 else 0)
        if not new and (self._bound, self._skip) == before:
            return "stuck"
        return "more"


def _in_order(times: Sequence[datetime], *, descending: bool) -> bool:
    pairs = itertools.pairwise(times)
    return all(a >= b for a, b in pairs) if descending else all(a <= b for a, b in pairs)
