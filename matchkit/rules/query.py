"""Match-list queries: the shards' rules, filters, sort and paging, to and from query parameters.

One implementation of each rule, used by both halves: the client builds a :class:`MatchQuery`
from keyword arguments (:meth:`MatchQuery.create`) and sends :meth:`MatchQuery.to_params`; the
service reads the wire parameters back with :meth:`MatchQuery.from_params`. Both raise
:class:`~matchkit.errors.InvalidArgumentError` naming the argument (client) or the wire
parameter (service) at fault.

Example:
    >>> query = MatchQuery.create(server_types=["quick3v3"], limit=5)
    >>> query.to_params()["filter[serverType]"]
    'QUICK3V3'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import MAX_SPAN, TimeWindow, format_time, parse_time, resolve_window

__all__ = [
    "RANKING_TYPES",
    "SERVER_TYPES",
    "SHARDS",
    "SORTS",
    "MatchQuery",
    "Shard",
    "get_shard",
]

SERVER_TYPES = ("QUICK2V2", "QUICK3V3", "ROYALRUMBLESOLO", "ROYALRUMBLEDUO")
RANKING_TYPES = ("RANKED", "UNRANKED")
SORTS = ("createdAt", "-createdAt")
ShardName = Literal["global", "na"]
Sort = Literal["createdAt", "-createdAt"]


@dataclass(frozen=True)
class Shard:
    """The rules of one shard of the service.

    Attributes:
        name: ``"global"`` (the current shape) or ``"na"`` (the older variant).
        max_limit: the largest ``page[limit]``; also its default.
        default_lookback: how far a missing start lies before now (or before the end).
        lookback_from_end: whether the default start counts back from the end (``na``).
        filters: python argument name -> wire filter name, for the filters the shard accepts.
    """

    name: ShardName
    max_limit: int
    default_lookback: timedelta
    lookback_from_end: bool
    filters: Mapping[str, str]

    def resolve_window(
        self,
        start: str | datetime | None,
        end: str | datetime | None,
        *,
        now: str | datetime,
        max_span: timedelta | None = MAX_SPAN,
        start_parameter: str = "start",
        end_parameter: str = "end",
    ) -> TimeWindow:
        """Apply the time rules with this shard's default start (see
        :mod:`matchkit.rules.windows`)."""
        return resolve_window(
            start,
            end,
            now=now,
            default_lookback=self.default_lookback,
            lookback_from_end=self.lookback_from_end,
            max_span=max_span,
            start_parameter=start_parameter,
            end_parameter=end_parameter,
        )


SHARDS: Mapping[str, Shard] = {
    "global": Shard(
        name="global",
        max_limit=5,
        default_lookback=MAX_SPAN,
        lookback_from_end=False,
        filters={
            "player_ids": "playerIds",
            "patch_versions": "patchVersion",
            "server_types": "serverType",
            "ranking_type": "rankingType",
        },
    ),
    "na": Shard(
        name="na",
        max_limit=50,
        default_lookback=timedelta(hours=3),
        lookback_from_end=True,
        filters={
            "player_names": "playerNames",
            "player_ids": "playerIds",
            "team_names": "teamNames",
            "game_modes": "gameMode",
        },
    ),
}

_TIME_PARAMETERS = {"start": "filter[createdAt-start]", "end": "filter[createdAt-end]"}


def get_shard(name: str) -> Shard:
    """The rules of shard ``name``.

    Raises:
        InvalidArgumentError: the shard is neither ``global`` nor ``na``.
    """
    try:
        return SHARDS[name]
    except (KeyError, TypeError):
        raise InvalidArgumentError(
            f"shard={name!r} is not served; use one of {', '.join(SHARDS)}", parameter="shard"
        ) from None


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
        start: str | datetime | None = None,
        end: str | datetime | None = None,
        player_ids: Iterable[str] | str | None = None,
        patch_versions: Iterable[str] | str | None = None,
        server_types: Iterable[str] | str | None = None,
        ranking_type: str | None = None,
        player_names: Iterable[str] | str | None = None,
        team_names: Iterable[str] | str | None = None,
        game_modes: Iterable[str] | str | None = None,
        sort: str = "createdAt",
        limit: int | None = None,
        offset: int = 0,
    ) -> MatchQuery:
        """Validate python arguments into a query; errors name the argument at fault."""
        values = {
            "player_ids": player_ids,
            "patch_versions": patch_versions,
            "server_types": server_types,
            "ranking_type": ranking_type,
            "player_names": player_names,
            "team_names": team_names,
            "game_modes": game_modes,
        }
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
        if values.get("ranking_type") is not None:
            values["ranking_type"] = params["filter[rankingType]"]
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
            if arg == "ranking_type":
                checked[arg] = _vocabulary_value(value, RANKING_TYPES, name(arg))
            else:
                items = _text_list(value, name(arg))
                if arg == "server_types":
                    items = tuple(
                        _vocabulary_value(item, SERVER_TYPES, name(arg)) for item in items
                    )
                checked[arg] = items
        if sort not in SORTS:
            raise InvalidArgumentError(
                f"{name('sort')}={sort!r} is not supported; use createdAt (ascending) or "
                "-createdAt (descending)",
                parameter=name("sort"),
            )
        if limit is None:
            limit = rules.max_limit
        if (
            isinstance(limit, bool)
            or not isinstance(limit, int)
            or not 1 <= limit <= rules.max_limit
        ):
            raise InvalidArgumentError(
                f"{name('limit')}={limit!r} is out of range; shard {shard} serves pages of "
                f"1 to {rules.max_limit} matches",
                parameter=name("limit"),
            )
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidArgumentError(
                f"{name('offset')}={offset!r} must be a whole number >= 0",
                parameter=name("offset"),
            )
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

    def to_params(self) -> dict[str, str]:
        """The wire query parameters, in a stable order (cache keys depend on it)."""
        params: dict[str, str] = {}
        if self.start is not None:
            params["filter[createdAt-start]"] = format_time(self.start)
        if self.end is not None:
            params["filter[createdAt-end]"] = format_time(self.end)
        for arg, wire in self.rules.filters.items():
            value = getattr(self, arg)
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
