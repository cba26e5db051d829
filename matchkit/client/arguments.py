"""The checks of the client's own arguments, made before any request; errors name the argument.

A fetch's keyword arguments are declared once (:class:`FetchOptions`) and its query is checked
by :class:`matchkit.rules.query.MatchQuery` (:func:`checked_query`); the rest are the
client's own: its constructor's (``base_url``, ``api_key``, ``timeout``), ``max_matches``, and the
match ids of :meth:`matchkit.client.Client.get_match` and its kin. No message ever shows an API
key.
"""

from __future__ import annotations

import urllib.parse
from datetime import date
from typing import Any, cast

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_positive_number, checked_whole_number
from matchkit.rules.query import MatchFilters, MatchQuery
from matchkit.rules.shards import ShardName

__all__ = [
    "FetchOptions",
    "checked_api_key",
    "checked_base_url",
    "checked_match_ids",
    "checked_max_body_bytes",
    "checked_max_matches",
    "checked_query",
    "checked_timeout",
    "match_path_segment",
]


class FetchOptions(MatchFilters, total=False):
    """The keyword arguments of :meth:`matchkit.Client.plan`, :meth:`matchkit.Client.iter_pages`
    and :meth:`matchkit.Client.matches`, declared once: the query's filters and sort
    (:class:`matchkit.rules.query.MatchFilters`), and the fetch's own ``max_matches`` and
    ``page_limit``. :meth:`matchkit.Client.matches` says what each does.
    """

    max_matches: int | None
    page_limit: int | None


_FETCH_ONLY = FetchOptions.__optional_keys__ - MatchFilters.__optional_keys__
"""The fetch's own options: the rest of :class:`FetchOptions` are the query's filters."""


def checked_query(
    shard: ShardName, start: str | date | None, end: str | date | None, options: FetchOptions
) -> MatchQuery:
    """The query of a fetch's arguments on ``shard``, checked (``page_limit`` is its limit)."""
    # Filters left out or given as None are not filters, so that a shard's unknown filter is
    # only an error when it is used. Anything else, a misspelt filter too, goes to the query,
    # which names it.
    given = {
        name: value
        for name, value in options.items()
        if value is not None and name not in _FETCH_ONLY
    }
    # The options left are the filters (or a misspelt name, which create names): MatchFilters.
    filters = cast("MatchFilters", given)
    try:
        return MatchQuery.create(
            shard, start=start, end=end, limit=options.get("page_limit"), **filters
        )
    except InvalidArgumentError as error:
        if error.parameter != "limit":
            raise
        raise InvalidArgumentError(f"page_{error}", parameter="page_limit") from None


def checked_timeout(timeout: object) -> float:
    """A positive, finite number of seconds."""
    message = f"timeout={timeout!r} must be a positive, finite number of seconds"
    return float(checked_positive_number(timeout, parameter="timeout", message=message))


def checked_max_body_bytes(value: object) -> int:
    """A whole number of bytes >= 1024 (``None``: the default cap)."""
    from matchkit.client.request import DEFAULT_MAX_BODY_BYTES

    if value is None:
        return DEFAULT_MAX_BODY_BYTES
    message = f"max_body_bytes={value!r} must be a whole number of bytes >= 1024, or None"
    return checked_whole_number(value, low=1024, parameter="max_body_bytes", message=message)


def checked_max_matches(value: object) -> int | None:
    if value is None:
        return None
    message = f"max_matches={value!r} must be a whole number >= 1, or None for all"
    return checked_whole_number(value, low=1, parameter="max_matches", message=message)


def checked_base_url(base_url: object) -> str | None:
    if base_url is None:
        return None
    if not isinstance(base_url, str):
        raise InvalidArgumentError(
            f"base_url must be a string such as 'https://api.example.com', "
            f"not {type(base_url).__name__}",
            parameter="base_url",
        )
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise InvalidArgumentError(
            f"base_url={base_url!r} must be an http:// or https:// URL with a host, "
            "such as 'https://api.example.com'",
            parameter="base_url",
        )
    return base_url


def checked_api_key(api_key: object) -> str | None:
    # The message never shows the value: it may be a real key with a typo.
    if api_key is None:
        return None
    # Checked without encoding it: an encoding error would hold the key (in .object).
    if (
        not isinstance(api_key, str)
        or not api_key.strip()
        or api_key != api_key.strip()
        or not api_key.isprintable()
        or any(ord(character) > 0xFF for character in api_key)
    ):
        raise InvalidArgumentError(
            "api_key must be a non-empty string of printable Latin-1 characters on one line, "
            "without surrounding spaces (an HTTP header carries it) "
            f"(got a {type(api_key).__name__}; its value is not shown)",
            parameter="api_key",
        )
    return api_key


def match_path_segment(match_id: object) -> str:
    """``match_id`` percent-encoded as one path segment, or an error naming why it cannot be."""
    if (
        not isinstance(match_id, str)
        or not match_id.strip()
        or match_id != match_id.strip()
        or match_id in {".", ".."}
        or "/" in match_id
        or "\\" in match_id
        or not match_id.isprintable()
    ):
        raise InvalidArgumentError(
            f"match_id={match_id!r} must be a non-empty string without '/', '\\', control "
            "characters or surrounding spaces, and not '.' or '..'",
            parameter="match_id",
        )
    return urllib.parse.quote(match_id, safe="")


def checked_match_ids(
    match_ids: Any, *, parameter: str = "match_ids", expected: str = "a list of match ids"
) -> dict[str, str]:
    """Each id of ``match_ids`` once, in the order first given -> its path segment
    (:func:`match_path_segment`): every id checked, so that a bad one fails before any request.

    Raises:
        InvalidArgumentError: ``match_ids`` is one string or not iterable (the message says it
            must be ``expected``), or an id cannot be a path segment.
    """
    if isinstance(match_ids, str | bytes):
        raise InvalidArgumentError(
            f"{parameter}={match_ids!r} must be {expected}, not one string",
            parameter=parameter,
        )
    try:
        given = list(match_ids)
    except TypeError:
        raise InvalidArgumentError(
            f"{parameter} must be {expected}, not {type(match_ids).__name__}",
            parameter=parameter,
        ) from None
    return {match_id: match_path_segment(match_id) for match_id in given}
