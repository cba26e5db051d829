"""Match and round durations per group: their distribution (the count of each duration) and
its summary (mean and exact quantiles, in seconds or minutes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from types import SimpleNamespace
from typing import Any, Literal

import numpy as np
import pandas as pd

from matchkit.analysis._archive import key_dtypes
from matchkit.analysis._common import (
    Level,
    checked_level,
    group_keys,
    in_version_order,
    with_group_columns,
)
from matchkit.analysis._engine import by_partition, collect, is_lazy, join, summed, with_dtypes
from matchkit.analysis._groups import counted
from matchkit.analysis.inputs import TableSource, checked_table_source, text_as_categories
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names, with_names

__all__ = ["DURATION_STATISTICS", "duration_counts", "duration_summary"]

#: The columns of :func:`duration_summary` after the group keys.
DURATION_STATISTICS = ("count", "mean", "median", "q1", "q3", "p90")
#: Seconds per unit of :func:`duration_summary`'s ``unit``.
UNITS = {"seconds": 1.0, "minutes": 60.0}


def duration_counts(
    data: TableSource | pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    level: Level = "match",
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """How many matches (or rounds) lasted each number of seconds, per group: the distribution
    of durations, whole.

    Durations are whole seconds, so this table is small even for an archive of millions of
    matches; :func:`duration_summary` computes its exact quantiles from it, and
    :func:`matchkit.plots.plot_duration_distribution` draws it.

    Args:
        data: the normalized matches (or, at match level, their ``matches`` table), or an
            archive (:func:`matchkit.archive.open`): the same table, computed by Dask.
        by: grouping keys, as in :func:`duration_summary`; None for one group.
        level: ``"match"`` counts ``matches.duration``; ``"round"`` counts ``rounds.duration``.
        names: display names (:mod:`matchkit.names`) for id columns among the groups;
            None: no names, each id is its own name (as text).

    Returns:
        One row per group and duration, shortest first in each group: the ``by`` columns,
        ``duration`` (seconds), ``count`` (int), and the named id columns last.
        ``attrs["excluded"]`` maps ``missing_duration`` to the number of matches (or rounds)
        without a duration.
    """
    keys = group_keys(by)
    counts, missing = _counts(data, keys, checked_level(level))
    table = counts[[*keys, "duration", "count"]].sort_values(
        [*keys, "duration"], kind="stable", ignore_index=True
    )
    table = with_names(in_version_order(table, keys), names, ids="last")
    table.attrs["excluded"] = {"missing_duration": missing}
    table.attrs["level"] = level
    return table


def duration_summary(
    data: TableSource | pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    level: Level = "match",
    unit: Literal["seconds", "minutes"] = "seconds",
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Count, mean, median, quartiles and 90th percentile of durations, per group.

    Quantiles interpolate linearly between observations (pandas' default); they are exact,
    computed from the count of each duration per group (:func:`duration_counts`). Missing
    durations are left out and counted in ``attrs["excluded"]``.

    Args:
        data: the normalized matches (or, at match level, their ``matches`` table), or an
            archive (:func:`matchkit.archive.open`): the same table, computed by Dask.
        by: grouping keys: columns of the matches table (``"server_type"``, ``"patch_version"``,
            ...) or a period of ``created_at`` (``"date"``, ``"week"``, ``"month"``); None for
            one group.
        level: ``"match"`` summarizes ``matches.duration``; ``"round"`` summarizes
            ``rounds.duration`` (Arena only: Royale matches have no rounds), grouped by the
            round's match.
        unit: ``"seconds"`` (as on the wire) or ``"minutes"`` for the statistics; the table's
            ``attrs["unit"]`` says which.
        names: display names (:mod:`matchkit.names`) for id columns among the groups
            (``map_id`` gets ``map``); None: no names, each id is its own name (as text).

    Returns:
        One row per group: the ``by`` columns (a name in the place of each id column that has
        one: ``map`` for ``map_id``), then ``count`` (int), ``mean``, ``median``, ``q1``,
        ``q3``, ``p90`` (float, in ``unit``), and the named id columns last.
        ``attrs["excluded"]`` maps ``missing_duration`` to the number of matches (or rounds)
        without a duration.

    Example:
        >>> duration_summary(frames, by="server_type")  # doctest: +SKIP
    """
    keys = group_keys(by)
    level = checked_level(level)
    if unit not in UNITS:
        raise InvalidArgumentError(f"unit={unit!r}: use 'seconds' or 'minutes'", parameter="unit")
    counts, missing = _counts(data, keys, level)
    table = _summarize(counts, keys, UNITS[unit])
    table = with_names(in_version_order(table, keys), names, ids="last")
    table.attrs["excluded"] = {"missing_duration": missing}
    table.attrs["level"] = level
    table.attrs["unit"] = unit
    return table


def _counts(
    data: TableSource | pd.DataFrame, keys: list[str], level: Level
) -> tuple[pd.DataFrame, int]:
    """The count of each (group, duration) as columns, in the groups' MatchFrames dtypes, and
    the number of observations without a duration."""
    source: TableSource | _MatchesOnly
    if isinstance(data, pd.DataFrame) and level == "match":
        source = _MatchesOnly(data)
    else:
        # Each partition's groups are counted on their own: text keys read as categories.
        source = text_as_categories(checked_table_source(data), keys)
    matches = with_group_columns(source.matches, keys, source="the matches table")
    if level == "match":
        observations = matches[[*keys, "duration"]]
    else:
        assert not isinstance(source, _MatchesOnly)  # a table stands in at match level only
        rounds = source.rounds[["match_id", "duration"]]
        observations = join(
            rounds, matches[["match_id", *keys]], on="match_id", validate="many_to_one"
        )
    # One pass: the observations without a duration are groups of their own (dropna=False),
    # counted as missing once computed.
    group = [*keys, "duration"]
    frame = observations[group]
    count = partial(_duration_counts, group=group)
    lazy = is_lazy(frame)
    tables = {"observations": frame}
    histogram = summed(by_partition(count, tables)) if lazy else count(SimpleNamespace(**tables))
    dtypes: dict[str, Any] = {}
    categories: dict[str, Any] = {}
    if lazy and not isinstance(source, _MatchesOnly):  # an archive
        # At match level every match is in a group: the groups' keys are every value the
        # matches hold, and need no pass of their own.
        seen = histogram.reset_index() if level == "match" else None
        dtypes, categories = key_dtypes(source, "matches", keys, seen=seen)
    histogram, categories = collect(histogram, categories)
    histogram = histogram.reset_index()
    unknown = histogram["duration"].isna().to_numpy()
    missing = int(histogram.loc[unknown, "count"].sum())
    histogram = with_dtypes(histogram.loc[~unknown].reset_index(drop=True), dtypes, categories)
    return histogram.astype({"count": "int64"}), missing


def _duration_counts(tables: Any, group: list[str]) -> pd.DataFrame:
    """The count of each (group, duration) of ``tables.observations`` (whole matches),
    indexed by ``group`` (the keys, then ``duration``)."""
    return counted(tables.observations, group, size="count")


class _MatchesOnly:
    """A matches table standing in for MatchFrames where only ``matches`` is read."""

    def __init__(self, matches: pd.DataFrame) -> None:
        missing = [name for name in ("created_at", "duration") if name not in matches.columns]
        if missing:
            raise InvalidArgumentError(
                f"data: the DataFrame given lacks {', '.join(missing)}; pass MatchFrames or "
                "their matches table",
                parameter="data",
            )
        self.matches = matches


def _summarize(histogram: pd.DataFrame, keys: list[str], seconds: float) -> pd.DataFrame:
    """The statistics per group from the counts of each (group, duration): exact quantiles,
    interpolated linearly between observations as pandas does."""
    if not keys:
        values = histogram.sort_values("duration", kind="stable")
        row = _statistics(values["duration"], values["count"], seconds)
        return pd.DataFrame({name: [value] for name, value in row.items()}).astype(
            {"count": "int64"}
        )
    grouped = histogram.sort_values("duration", kind="stable").groupby(
        keys, observed=True, dropna=False, sort=True
    )
    table = grouped.agg(count=("count", "sum"))
    rows = [_statistics(part["duration"], part["count"], seconds) for _, part in grouped]
    for name in DURATION_STATISTICS[1:]:
        table[name] = [row[name] for row in rows]
    return table.reset_index().astype({"count": "int64"})[[*keys, *DURATION_STATISTICS]]


def _statistics(durations: pd.Series, counts: pd.Series, seconds: float) -> dict[str, float]:
    """Count, mean and quantiles of the durations (ascending) seen ``counts`` times each."""
    values = durations.to_numpy(dtype="float64") / seconds
    weights = counts.to_numpy(dtype="int64")
    total = int(weights.sum())
    if total == 0:
        nan = float("nan")
        return {"count": 0, "mean": nan, "median": nan, "q1": nan, "q3": nan, "p90": nan}
    ends = np.cumsum(weights)

    def quantile(fraction: float) -> float:
        position = (total - 1) * fraction
        below = int(np.floor(position))
        low = values[np.searchsorted(ends, below, side="right")]
        high = values[np.searchsorted(ends, min(below + 1, total - 1), side="right")]
        return float(low + (high - low) * (position - below))

    return {
        "count": total,
        "mean": float((values * weights).sum() / total),
        "median": quantile(0.5),
        "q1": quantile(0.25),
        "q3": quantile(0.75),
        "p90": quantile(0.9),
    }
