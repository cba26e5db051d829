"""The sample set's MatchFrames as an archive would give them: lazy Dask tables, text as text.

A stand-in for ``matchkit.archive.open`` in the analysis tests: each table of MatchFrames
becomes a Dask DataFrame of ``npartitions`` partitions (``dask.dataframe.from_pandas``), with
categoricals cast to ``text`` ("string" or object). With ``by_month``, the tables are instead
indexed by the month of their match, one partition per month, with known divisions: the
layout of an archive partitioned by month, where a match's rows share a partition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dask.dataframe as dd
import pandas as pd

from matchkit.model.schema import TABLE_NAMES

__all__ = ["LazyTables", "lazy_tables", "text_of"]


@dataclass(frozen=True)
class LazyTables:
    """One lazy Dask DataFrame per MatchFrames table (the shape of an archive)."""

    matches: Any
    rosters: Any
    participants: Any
    rounds: Any
    round_participants: Any
    players: Any
    teams: Any
    assets: Any
    spectators: Any


def text_of(table: pd.DataFrame, text: str = "string") -> pd.DataFrame:
    """``table`` with its categorical columns as ``text`` ("string" or "object")."""
    categorical = [
        name for name, dtype in table.dtypes.items() if isinstance(dtype, pd.CategoricalDtype)
    ]
    return table.astype(dict.fromkeys(categorical, text))


def _by_month(table: pd.DataFrame, months: pd.Series) -> Any:
    """``table`` indexed by its match's month, one partition per month (known divisions)."""
    month = table["match_id"].map(months) if "match_id" in table.columns else None
    if month is None:
        return dd.from_pandas(table, npartitions=1, sort=False)
    indexed = table.set_index(pd.Index(month.to_numpy(), name="month")).sort_index(kind="stable")
    values = sorted(months.unique())
    return dd.from_pandas(indexed, npartitions=len(values), sort=True).repartition(
        divisions=[*values, values[-1]]
    )


def lazy_tables(
    frames: Any, *, npartitions: int = 1, text: str = "string", by_month: bool = False
) -> LazyTables:
    """The tables of ``frames`` as lazy Dask DataFrames (see the module notes)."""
    tables = {name: text_of(frames.tables[name], text) for name in TABLE_NAMES}
    if by_month:
        matches = tables["matches"]
        months = pd.Series(
            matches["created_at"].dt.strftime("%Y-%m").to_numpy(), index=matches["match_id"]
        )
        return LazyTables(**{name: _by_month(table, months) for name, table in tables.items()})
    return LazyTables(
        **{
            name: dd.from_pandas(table, npartitions=npartitions, sort=False)
            for name, table in tables.items()
        }
    )
