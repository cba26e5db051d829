"""The paging rule of the match list (decision 8), shared by the client and the service.

The service fills every page while more matches remain and links ``first``, ``next`` (always,
even after the last match), ``self`` and, past the first page, ``previous``:
:func:`link_offsets`. A client cannot rely on full pages: the real Vainglory service returned
short pages mid-window (5 of 50, 48 of 50) while more matches existed. So a client stops only
on an empty page or a page without ``next``, and moves on by the number of matches it received:
:func:`next_offset`.

Example:
    >>> next_offset(offset=0, received=3, next_link="...?page[offset]=5")
    3
    >>> next_offset(offset=3, received=0, next_link="...?page[offset]=8") is None
    True
    >>> link_offsets(offset=10, limit=5)
    {'first': 0, 'next': 15, 'self': 10, 'previous': 5}
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

__all__ = ["link_offset", "link_offsets", "next_offset"]


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
