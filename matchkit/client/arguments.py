"""The checks of the client's own arguments, made before any request; errors name the argument.

The query's arguments are checked by :class:`matchkit.rules.query.MatchQuery`; these are the
client's: its constructor's (``base_url``, ``api_key``, ``timeout``), ``max_matches``, and the
match ids of :meth:`matchkit.client.Client.get_match` and its kin. No message ever shows an API
key.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_positive_number, checked_whole_number

__all__ = [
    "checked_api_key",
    "checked_base_url",
    "checked_match_ids",
    "checked_max_matches",
    "checked_timeout",
    "match_path_segment",
]


def checked_timeout(timeout: object) -> float:
    """A positive, finite number of seconds."""
    message = f"timeout={timeout!r} must be a positive, finite number of seconds"
    return float(checked_positive_number(timeout, parameter="timeout", message=message))


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
