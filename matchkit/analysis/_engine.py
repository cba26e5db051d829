"""pandas or Dask: the few steps where the analyses' one implementation needs to know which.

Each analysis is written once, against what pandas and Dask DataFrames share (masks, merges,
``groupby(..., observed=True).agg(...)``). Its input is either in memory (:class:`MatchFrames`,
pandas) or an archive (an object whose tables are lazy Dask DataFrames); the steps below
differ between the two:

- :func:`by_partition` runs a function of whole matches on each partition's tables, and
  :func:`join` joins on a match's key. When the Dask tables are partitioned by match time
  with known divisions on the same index (:data:`PARTITION_INDEX`), a match's rows of every
  table lie in the same partition, so the work is done partition by partition, without a
  shuffle; otherwise ``by_partition`` computes the tables whole, and ``join`` shuffles;
- :func:`collect` computes what is lazy, once and together, at the point where the results are
  small; the same pandas code then finishes them (intervals, names, order);
- :func:`with_dtypes` gives the small results' columns the dtypes they have on pandas: text is
  kept as text in an archive (categoricals whose categories differ between partitions break
  groupbys), and becomes the MatchFrames categorical again in the result.

Dask is imported only when the input is a Dask object: pandas users do not need it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, TypeGuard

import numpy as np
import pandas as pd

__all__ = [
    "PARTITION_INDEX",
    "by_partition",
    "collect",
    "collect_rows",
    "concat",
    "is_lazy",
    "join",
    "map_values",
    "summed",
    "summed_counts",
    "with_dtypes",
]

#: The index of an archive's tables that, with known divisions shared by the tables, tells that
#: the rows of one match lie in one partition of each table (the archive's partition column).
PARTITION_INDEX = "month"


def is_lazy(value: object) -> TypeGuard[Any]:
    """True for a Dask collection (DataFrame, Series, scalar); never imports Dask."""
    dask = sys.modules.get("dask")
    return dask is not None and bool(dask.is_dask_collection(value))


def collect(*values: Any) -> tuple[Any, ...]:
    """The values with every Dask collection among them computed, in one pass over the data
    (what several of them read is read once)."""
    if not any(is_lazy(value) for value in values):
        return values
    import dask

    return tuple(dask.compute(*values))


def collect_rows(*frames: Any) -> tuple[Any, ...]:
    """Frames of rows (pandas, or Dask DataFrames or Series), computed a partition at a time
    and joined in this process.

    :func:`collect` would have Dask join each frame's partitions in one task on a worker: a
    large selection (the most active player's 339,408 matches in a 10M archive) took the worker
    past its memory limit, and never came, where each partition is small. For aggregated
    results (one partition) use :func:`collect`, which reads what the values share once.
    """
    if not any(is_lazy(frame) for frame in frames):
        return frames
    import dask

    pieces = dask.compute(*(frame.to_delayed() if is_lazy(frame) else frame for frame in frames))
    return tuple(
        (parts[0] if len(parts) == 1 else pd.concat(parts)) if is_lazy(frame) else parts
        for frame, parts in zip(frames, pieces, strict=True)
    )


def _partitioned(table: Any) -> bool:
    """True for a Dask table indexed by the archive's partition column, with known divisions."""
    return table.index.name == PARTITION_INDEX and table.known_divisions


def _aligned(*tables: Any) -> bool:
    """True when the Dask tables are partitioned by match time on the same divisions."""
    divisions = {tuple(table.divisions) for table in tables}
    return all(_partitioned(table) for table in tables) and len(divisions) == 1


def by_partition(function: Callable[[Any], Any], tables: Mapping[str, Any]) -> list[Any]:
    """``function`` of each partition's tables, computed in the workers: its argument has one
    attribute per table (a pandas DataFrame, a fresh index), its results come back in a list.

    By partition only when the Dask tables are partitioned by match time on the same divisions,
    so that each call sees whole matches (a match's rows of every table lie in the partition of
    the same number); otherwise the tables are computed here, each whole, and ``function`` runs
    once on them. For per-match work whose results are small (the caller combines them, with
    :func:`summed` and :func:`summed_counts`): no table is ever joined whole, in a worker or here.

    Each partition is one task: its tables are read and ``function`` runs on them in the same
    task (a map of partitions, which Dask fuses with the reads; each result travels in a frame
    of one row). As a read task and a task of its own, a partition's tables waited in the
    worker's memory between the two: 585 MiB a worker at the most against 515 MiB, on the
    telemetry analyses of 1M matches.
    """
    if not _aligned(*tables.values()):
        return [_with_tables(function, list(tables), *collect_rows(*tables.values()))]
    import dask.dataframe as dd

    results = dd.map_partitions(
        _partition_result,
        function,
        list(tables),
        *tables.values(),
        meta=_RESULT,
        align_dataframes=False,
        enforce_metadata=False,
    )
    return [frame["result"].iloc[0] for frame in _each_computed(results.to_delayed())]


def summed(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Counts of several partitions, indexed by their groups, summed group by group."""
    table = pd.concat(frames)
    levels = list(range(table.index.nlevels))
    return table.groupby(level=levels, observed=True, dropna=False).sum()


def summed_counts(counts: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """Counts by reason (of what was left out) of several partitions, summed, in the reasons'
    order."""
    return {reason: sum(count[reason] for count in counts) for reason in counts[0]}


def _each_computed(calls: list[Any]) -> list[Any]:
    """The results of delayed ``calls``, in order. On a distributed cluster each one is fetched
    as soon as it is ready and released there, so that the workers never hold them all: at 10M
    matches the results of a partition-by-partition analysis held to the end (``dask.compute``)
    took both 1 GiB workers past their memory."""
    import dask
    from dask.base import get_scheduler

    distributed = sys.modules.get("distributed")
    client = getattr(get_scheduler(), "__self__", None)
    if distributed is None or not isinstance(client, distributed.Client):
        return list(dask.compute(*calls))
    futures = client.compute(calls)
    positions = {future.key: position for position, future in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    for future in distributed.as_completed(futures):
        results[positions[future.key]] = future.result()
        future.release()
    return results


_RESULT = pd.DataFrame({"result": pd.Series(dtype=object)})
"""What :func:`by_partition` makes of each partition: its result, in a frame of one row."""


def _partition_result(
    function: Callable[[Any], Any], names: list[str], *parts: pd.DataFrame
) -> pd.DataFrame:
    """``function`` of one partition's tables, by name, in a frame of one row."""
    result = np.empty(1, dtype=object)
    result[0] = _with_tables(function, names, *parts)
    return pd.DataFrame({"result": result})


def _with_tables(function: Callable[[Any], Any], names: list[str], *parts: pd.DataFrame) -> Any:
    """``function`` of tables, by name, each with a fresh index."""
    frames = {name: part.reset_index(drop=True) for name, part in zip(names, parts, strict=True)}
    return function(SimpleNamespace(**frames))


def join(left: Any, right: Any, *, on: str, how: str = "inner", validate: str | None = None) -> Any:
    """``left.merge(right, on=on, how=how)``: partition by partition when aligned on Dask.

    ``validate`` (pandas' check of the keys' uniqueness) applies on pandas; on Dask the same
    guarantee comes from the tables' keys (the archive is insert-only, keyed by match id).
    """
    if not is_lazy(left):
        return left.merge(right, on=on, how=how, validate=validate)
    if _aligned(left, right):
        import dask.dataframe as dd

        return dd.map_partitions(_merge_partition, left, right, on, how, align_dataframes=False)
    return left.merge(right, on=on, how=how)


def _merge_partition(left: pd.DataFrame, right: pd.DataFrame, on: str, how: str):
    """One partition's merge; the rows keep the partition's index value (its month)."""
    merged = left.reset_index(drop=True).merge(right.reset_index(drop=True), on=on, how=how)
    return _with_index_of(merged, left, right)


def _with_index_of(rows: pd.DataFrame, left: pd.DataFrame, right: pd.DataFrame) -> pd.DataFrame:
    """``rows`` indexed by the partition value of ``left`` (else of ``right``)."""
    source = left.index if len(left) else right.index
    if len(source):
        rows.index = source[:1].repeat(len(rows))
    else:
        rows.index = pd.Index([None] * len(rows), name=left.index.name, dtype=left.index.dtype)
    return rows


def concat(parts: Sequence[Any]) -> Any:
    """The rows of ``parts`` one after the other (pandas: a fresh index)."""
    if not any(is_lazy(part) for part in parts):
        return pd.concat(parts, ignore_index=True)
    import dask.dataframe as dd

    return dd.concat(list(parts), ignore_unknown_divisions=True)


def map_values(series: Any, function: Callable[[pd.Series], pd.Series], name: str) -> Any:
    """``function(series)`` for an elementwise function of a pandas Series, on pandas or Dask."""
    if not is_lazy(series):
        return function(series)
    meta = function(series._meta).rename(name)
    return series.map_partitions(function, meta=meta).rename(name)


def with_dtypes(
    table: pd.DataFrame, dtypes: Mapping[str, Any], categories: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """``table`` (computed, small) with the given columns in the given dtypes.

    Args:
        table: a result computed from an archive.
        dtypes: column -> the dtype it has when the analysis runs on MatchFrames.
        categories: column -> the values of the source column, for a categorical without a
            fixed vocabulary (its categories are the sorted values, as MatchFrames has them).
    """
    from matchkit.model.schema import category_dtype

    changes = {}
    for name, dtype in dtypes.items():
        if name not in table.columns:
            continue
        if isinstance(dtype, pd.CategoricalDtype) and categories and name in categories:
            values = pd.Series(categories[name]).dropna()
            dtype = category_dtype(sorted({str(value) for value in values}))
        current = table[name].dtype
        if isinstance(current, pd.CategoricalDtype) and isinstance(dtype, pd.CategoricalDtype):
            # Categoricals of the same categories in another order compare equal, and
            # ``astype`` leaves them in that order (one per partition's first values).
            if dtype.categories is not None and not current.categories.equals(dtype.categories):
                table = table.assign(**{name: table[name].cat.set_categories(dtype.categories)})
        elif current != dtype:
            changes[name] = dtype
    return table.astype(changes) if changes else table
