"""Match-list queries: the shards' rules, filters, sort and paging, to and from query parameters.

One implementation of each rule, used by both halves: the client builds a :class:`MatchQuery`
from keyword arguments (:meth:`MatchQuery.create`) and sends :meth:`MatchQuery.to_params`; the
service reads the wire parameters back with :meth:`MatchQuery.from_params`. Both raise
:class:`matchkit.errors.InvalidArgumentError` naming the argument (client) or the wire
parameter (service) at fault.

The filters are declared once, in :mod:`matchkit.rules.filters` (:class:`MatchFilters`, a
``TypedDict``, and :data:`~matchkit.rules.filters.FILTERS`, each filter's facts): the client's
calls take them within ``**options: Unpack[FetchOptions]``
(:class:`matchkit.client.arguments.FetchOptions` adds ``max_matches`` and ``page_limit``) and
hand them on as they are.

Decision 3: a well-formed ``serverType`` the interface does not list (letters, digits, ``_``, as
the real service's LEAGUE2V2 or PRIVATE) is accepted (:func:`unlisted_server_types` names them,
for the client's warning), and ``playerIds``, ``playerNames`` and ``teamNames`` take at most
:data:`MAX_LIST_VALUES` values per request: the service refuses more, the client sends
:meth:`MatchQuery.batches`.

Example:
    >>> query = MatchQuery.create(server_types=["quick3v3"], limit=5)
    >>> query.to_params()["filter[serverType]"]
    'QUICK3V3'
    >>> len(MatchQuery.create(player_ids=[str(n) for n in range(8)]).batches())
    2
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from types import MappingProxyType
from typing import Any, Literal, Unpack

from matchkit.errors import InvalidArgumentError
from matchkit.rules.checks import checked_whole_number
from matchkit.rules.filters import (
    FILTERS,
    LIMITED_FILTERS,
    MAX_LIST_VALUES,
    RANKING_TYPES,
    MatchFilters,
)
from matchkit.rules.shards import SHARDS, Shard, ShardName, get_shard
from matchkit.rules.windows import MAX_SPAN, TimeWindow, format_time, parse_time

__all__ = [
    "LIMITED_FILTERS",
    "MAX_LIST_VALUES",
    "RANKING_TYPES",
    "SERVER_TYPES",
    "SERVER_TYPE_NAMES",
    "SHARDS",
    "SORTS",
    "MatchFilters",
    "MatchQuery",
    "Shard",
    "get_shard",
    "unlisted_server_types",
]

SERVER_TYPES = ("QUICK2V2", "QUICK3V3", "ROYALRUMBLESOLO", "ROYALRUMBLEDUO")
"""The server types the interface lists; others that are well formed pass (decision 3)."""
SERVER_TYPE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "QUICK2V2": "Quick 2v2",
        "QUICK3V3": "Quick 3v3",
        "ROYALRUMBLESOLO": "Royal Rumble solo",
        "ROYALRUMBLEDUO": "Royal Rumble duo",
    }
)
"""How an analyst writes each listed server type (labels, legends, the sample catalogue)."""
SORTS = ("createdAt", "-createdAt")
Sort = Literal["createdAt", "-createdAt"]
_SPECS = {spec.argument: spec for spec in FILTERS}
_WELL_FORMED = re.compile(r"^[A-Za-z0-9_]+$")


_TIME_PARAMETERS = {"start": "filter[createdAt-start]", "end": "filter[createdAt-end]"}


@dataclass(frozen=True)
class MatchQuery:
    """One request of the match list: shard, time bounds, filters, sort and paging.

    Build it with :meth:`create` (python arguments) or :meth:`from_params` (wire parameters);
    both validate. ``start`` and ``end`` stay ``None`` until the time rules are applied with
    :meth:`window`, since their defaults depend on now.
    """

    shard: ShardName = "global"
    start: datetime | None = None
    end: datetime | None = None
    player_ids: tuple[str, ...] = ()
    patch_versions: tuple[str, ...] = ()
    server_types: tuple[str, ...] = ()
    ranking_type: str | None = None
    player_names: tuple[str, ...] = ()
    team_names: tuple[str, ...] = ()
    game_modes: tuple[str, ...] = ()
    sort: Sort = "createdAt"
    limit: int = 5
    offset: int = 0
    _names: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def create(
        cls,
        shard: str = "global",
        *,
        start: str | date | None = None,
        end: str | date | None = None,
        limit: int | None = None,
        offset: int = 0,
        **filters: Unpack[MatchFilters],
    ) -> MatchQuery:
        """Validate python arguments into a query; errors name the argument at fault.

        A filter left out or given as ``None`` is no filter. ``player_ids``, ``player_names`` and
        ``team_names`` may hold more than :data:`MAX_LIST_VALUES` values here: send
        :meth:`batches`.

        Raises:
            InvalidArgumentError: a value is not allowed.
            TypeError: an argument that is not a filter.
        """
        unknown = sorted(set(filters) - set(MatchFilters.__annotations__))
        if unknown:
            raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
        sort = filters.pop("sort", "createdAt")
        values = {spec.argument: filters.get(spec.argument) for spec in FILTERS}
        return cls._build(shard, start, end, values, sort, limit, offset, names={})

    @classmethod
    def from_params(cls, shard: str, params: Mapping[str, str]) -> MatchQuery:
        """Read the wire parameters of a list request; errors name the wire parameter.

        Raises:
            InvalidArgumentError: an unknown parameter, a value that does not parse or is not
                allowed; ``parameter`` is the wire name, e.g. ``"page[limit]"``.
        """
        rules = get_shard(shard)
        wire_to_arg = {f"filter[{wire}]": arg for arg, wire in rules.filters.items()}
        names = {arg: wire for wire, arg in wire_to_arg.items()}
        names.update(_TIME_PARAMETERS, sort="sort", limit="page[limit]", offset="page[offset]")
        known = (
            set(wire_to_arg)
            | set(_TIME_PARAMETERS.values())
            | {"sort", "page[limit]", "page[offset]"}
        )
        for key in params:
            if key not in known:
                raise InvalidArgumentError(
                    f"unknown query parameter {key!r}; shard {shard} accepts "
                    f"{', '.join(sorted(known))}",
                    parameter=key,
                )
        values: dict[str, Any] = {
            arg: params[wire].split(",") if wire in params else None
            for wire, arg in wire_to_arg.items()
        }
        for spec in FILTERS:
            if not spec.many and values.get(spec.argument) is not None:
                values[spec.argument] = params[f"filter[{spec.wire}]"]
        limit = _wire_int(params, "page[limit]")
        offset = _wire_int(params, "page[offset]")
        return cls._build(
            shard,
            params.get("filter[createdAt-start]"),
            params.get("filter[createdAt-end]"),
            values,
            params.get("sort", "createdAt"),
            limit,
            0 if offset is None else offset,
            names=names,
        )

    @classmethod
    def _build(cls, shard, start, end, values, sort, limit, offset, *, names) -> MatchQuery:
        rules = get_shard(shard)

        def name(arg: str) -> str:
            return names.get(arg, arg)

        checked: dict[str, Any] = {}
        for arg, value in values.items():
            if value is None:
                continue
            if arg not in rules.filters:
                accepted = ", ".join(rules.filters)
                raise InvalidArgumentError(
                    f"{name(arg)} is not a filter of shard {shard}; it accepts {accepted}",
                    parameter=name(arg),
                )
            if _SPECS[arg].choices:
                checked[arg] = _vocabulary_value(value, _SPECS[arg].choices, name(arg))
                continue
            items = _text_list(value, name(arg))
            if arg == "server_types":
                items = tuple(_server_type(item, name(arg)) for item in items)
            if names and arg in LIMITED_FILTERS:
                _check_count(items, name(arg))
            checked[arg] = items
        if sort not in SORTS:
            raise InvalidArgumentError(
                f"{name('sort')}={sort!r} is not supported; use createdAt (ascending) or "
                "-createdAt (descending)",
                parameter=name("sort"),
            )
        if limit is None:
            limit = rules.max_limit
        message = (
            f"{name('limit')}={limit!r} is out of range; shard {shard} serves pages of "
            f"1 to {rules.max_limit} matches"
        )
        checked_whole_number(
            limit, low=1, high=rules.max_limit, parameter=name("limit"), message=message
        )
        message = f"{name('offset')}={offset!r} must be a whole number >= 0"
        checked_whole_number(offset, low=0, parameter=name("offset"), message=message)
        return cls(
            shard=rules.name,
            start=None if start is None else parse_time(start, parameter=name("start")),
            end=None if end is None else parse_time(end, parameter=name("end")),
            sort=sort,
            limit=limit,
            offset=offset,
            _names=dict(names),
            **checked,
        )

    @property
    def rules(self) -> Shard:
        return SHARDS[self.shard]

    @property
    def descending(self) -> bool:
        return self.sort.startswith("-")

    def window(self, *, now: str | datetime, max_span: timedelta | None = MAX_SPAN) -> TimeWindow:
        """The time window this query covers under the shard's time rules at ``now``."""
        return self.rules.resolve_window(
            self.start,
            self.end,
            now=now,
            max_span=max_span,
            start_parameter=self._names.get("start", "start"),
            end_parameter=self._names.get("end", "end"),
        )

    def with_window(self, window: TimeWindow) -> MatchQuery:
        """The same query restricted to ``window``, from its first page."""
        return replace(self, start=window.start, end=window.end, offset=0)

    def with_offset(self, offset: int) -> MatchQuery:
        return replace(self, offset=offset)

    def batches(self) -> list[MatchQuery]:
        """This query as requests the service takes: at most :data:`MAX_LIST_VALUES` values
        of each limited filter per request (decision 3).

        Different filters all apply to a match, a list's values any of them; so every
        combination of one slice of each limited filter is a request, and a match is in the
        union of their answers exactly when it is in the answer to the whole query (it may come
        back from several: merge by match id). A query within the limit is its own batch.
        """
        slices = {
            arg: [
                values[index : index + MAX_LIST_VALUES]
                for index in range(0, len(values), MAX_LIST_VALUES)
            ]
            for arg in LIMITED_FILTERS
            if len(values := getattr(self, arg)) > MAX_LIST_VALUES
        }
        if not slices:
            return [self]
        return [
            replace(self, **dict(zip(slices, combination, strict=True)))
            for combination in itertools.product(*slices.values())
        ]

    def to_params(self) -> dict[str, str]:
        """The wire query parameters, in a stable order (cache keys depend on it).

        Raises:
            InvalidArgumentError: a limited filter holds more values than one request takes
                (send :meth:`batches` instead).
        """
        params: dict[str, str] = {}
        if self.start is not None:
            params["filter[createdAt-start]"] = format_time(self.start)
        if self.end is not None:
            params["filter[createdAt-end]"] = format_time(self.end)
        for arg, wire in self.rules.filters.items():
            value = getattr(self, arg)
            if arg in LIMITED_FILTERS:
                _check_count(value, arg)
            if value:
                params[f"filter[{wire}]"] = value if isinstance(value, str) else ",".join(value)
        params["sort"] = self.sort
        params["page[limit]"] = str(self.limit)
        params["page[offset]"] = str(self.offset)
        return params


def _text_list(value: Iterable[str] | str, parameter: str) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    try:
        items = tuple(items)
    except TypeError:
        raise InvalidArgumentError(
            f"{parameter} must be a string or a list of strings, not {type(value).__name__}",
            parameter=parameter,
        ) from None
    if not items:
        raise InvalidArgumentError(
            f"{parameter} is empty; pass at least one value, or None for no filter",
            parameter=parameter,
        )
    for item in items:
        if not isinstance(item, str) or not item.strip() or "," in item:
            raise InvalidArgumentError(
                f"{parameter} holds {item!r}; each value must be a non-empty string without commas",
                parameter=parameter,
            )
    return tuple(item.strip() for item in items)


def unlisted_server_types(query: MatchQuery) -> tuple[str, ...]:
    """The query's server types that the interface does not list (sent as they are)."""
    return tuple(value for value in query.server_types if value not in SERVER_TYPES)


def _server_type(value: str, parameter: str) -> str:
    """A well-formed server type (letters, digits, ``_``), upper case (decision 3)."""
    if not _WELL_FORMED.match(value):
        raise InvalidArgumentError(
            f"{parameter} holds {value!r}; a server type is letters, digits and '_' only, "
            f"such as {', '.join(SERVER_TYPES)}",
            parameter=parameter,
        )
    return value.upper()


def _check_count(values: tuple[str, ...], parameter: str) -> None:
    if len(values) > MAX_LIST_VALUES:
        raise InvalidArgumentError(
            f"{parameter} holds {len(values)} values; one request takes at most "
            f"{MAX_LIST_VALUES} (the client splits longer lists into requests of "
            f"{MAX_LIST_VALUES})",
            parameter=parameter,
        )


def _vocabulary_value(value: object, vocabulary: tuple[str, ...], parameter: str) -> str:
    if isinstance(value, str) and value.strip().upper() in vocabulary:
        return value.strip().upper()
    raise InvalidArgumentError(
        f"{parameter}={value!r} is not known; use one of {', '.join(vocabulary)}",
        parameter=parameter,
    )


def _wire_int(params: Mapping[str, str], key: str) -> int | None:
    if key not in params:
        return None
    text = params[key].strip()
    if not (text.isascii() and text.lstrip("-").isdigit()):
        raise InvalidArgumentError(f"{key}={params[key]!r} is not a whole number", parameter=key)
    return int(text)
