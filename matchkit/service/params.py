"""Reading a request's query string into checked parameters (decisions 1, 3 and 6).

The rules of a match query live in :mod:`matchkit.rules.query` and are shared with the client;
this module does what only the service needs before handing the wire parameters to
:meth:`matchkit.rules.query.MatchQuery.from_params` (which holds decision 3: six values per player
or team filter, well-formed server types the interface does not list accepted): it refuses
repeated parameters and bounds ``page[limit]`` and ``page[offset]`` to what the store can hold.
Every refusal is an :class:`matchkit.errors.InvalidArgumentError` naming the wire parameter,
which the app answers as a JSON:API 400.

Example:
    >>> list_query("global", [("page[offset]", "--5")])
    Traceback (most recent call last):
    ...
    matchkit.errors.InvalidArgumentError: page[offset]='--5' is not a whole number
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import parse_qsl

from matchkit.errors import InvalidArgumentError
from matchkit.rules.query import MatchQuery

__all__ = [
    "MAX_PAGING_VALUE",
    "bounded_paging",
    "list_query",
    "query_items",
]

MAX_PAGING_VALUE = 2**63 - 1
"""The largest ``page[offset]`` (and ``page[limit]``) read: SQLite's largest integer."""
_PAGING = ("page[limit]", "page[offset]")
# A minus sign or none, then ASCII digits: the grammar rules/query.py reads. The digits are
# counted before int() sees them, so Python's int-str limit (4,300 digits) is never reached.
_WHOLE_NUMBER = re.compile(r"(-?)([0-9]+)", re.ASCII)
_MAX_DIGITS = len(str(MAX_PAGING_VALUE))
_SHOWN_CHARACTERS = 40


def query_items(query_string: bytes) -> list[tuple[str, str]]:
    """The parameters of a raw query string, in order.

    Raises:
        InvalidArgumentError: a parameter is given more than once.
    """
    items = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
    seen: set[str] = set()
    for key, _value in items:
        if key in seen:
            raise InvalidArgumentError(
                f"query parameter {_shown(key)} is given more than once; give it once, with "
                "comma-separated values where it takes several",
                parameter=key,
            )
        seen.add(key)
    return items


def bounded_paging(items: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The parameters of a list request with paging values bounded.

    Paging values come back in canonical form (``"007"`` as ``"7"``), so the shared rules never
    convert a text that could fail to convert.

    Raises:
        InvalidArgumentError: a paging value that is not a whole number or is above
            :data:`MAX_PAGING_VALUE`.
    """
    params = dict(items)
    for key in _PAGING:
        if key in params:
            params[key] = str(_paging_value(key, params[key]))
    return params


def list_query(shard: str, items: Sequence[tuple[str, str]]) -> MatchQuery:
    """The :class:`MatchQuery` of a list request on a known ``shard``.

    Raises:
        InvalidArgumentError: any parameter at fault, named by its wire name.
    """
    return MatchQuery.from_params(shard, bounded_paging(items))


def _paging_value(key: str, text: str) -> int:
    found = _WHOLE_NUMBER.fullmatch(text.strip())
    if found is None:
        raise InvalidArgumentError(f"{key}={_shown(text)} is not a whole number", parameter=key)
    sign, digits = found.groups()
    if len(digits) > _MAX_DIGITS:
        problem = f"has more than {_MAX_DIGITS} digits"
    elif int(digits) > MAX_PAGING_VALUE:
        problem = "is too large"
    else:
        return -int(digits) if sign else int(digits)
    raise InvalidArgumentError(
        f"{key}={_shown(text)} {problem}; the largest value read is {MAX_PAGING_VALUE}",
        parameter=key,
    )


def _shown(text: str) -> str:
    """``repr`` of a sent text, cut short: an error message never echoes kilobytes."""
    if len(text) <= _SHOWN_CHARACTERS:
        return repr(text)
    return f"{text[:_SHOWN_CHARACTERS]!r}... ({len(text)} characters)"
