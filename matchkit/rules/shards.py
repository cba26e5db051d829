"""The shards of the service and their rules: page sizes, default lookback, filters.

Example:
    >>> get_shard("na").max_limit
    50
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from matchkit.errors import InvalidArgumentError
from matchkit.rules.filters import wire_filters
from matchkit.rules.windows import MAX_SPAN, TimeWindow, resolve_window

__all__ = ["SHARDS", "Shard", "ShardName", "get_shard"]

ShardName = Literal["global", "na"]


@dataclass(frozen=True)
class Shard:
    """The rules of one shard of the service.

    Attributes:
        name: ``"global"`` (the current shape) or ``"na"`` (the older variant).
        max_limit: the largest ``page[limit]``; also its default.
        default_lookback: how far a missing start lies before now (or before the end).
        lookback_from_end: whether the default start counts back from the end (``na``).
        filters: python argument name -> wire filter name, for the filters the shard accepts
            (from :data:`matchkit.rules.filters.FILTERS`).
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
        filters=wire_filters("global"),
    ),
    "na": Shard(
        name="na",
        max_limit=50,
        default_lookback=timedelta(hours=3),
        lookback_from_end=True,
        filters=wire_filters("na"),
    ),
}


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
