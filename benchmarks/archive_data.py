"""Big archives for the archive benchmark, and the ways each engine reads them.

Until ``matchkit synth --archive DIR --matches N`` is on this branch, :func:`build` writes the two
tables the benchmark's query reads (``matches`` and ``rosters``) itself, laid out as the archive
contract says: one Delta Lake table per MatchFrames table in ``DIR/<table>/``, partitioned by
``month`` ("YYYY-MM" of ``created_at`` in UTC), the MatchFrames columns with text as text. The rows
are the sample set's matches and rosters repeated with new ids (``<id>-<copy>``), each copy moved
into one month of a span of ``months`` (its times of day and spread over 28 days kept); a month
is written in one commit, so each month is one Parquet file per table. ``granularity="day"``
partitions by ``day`` ("YYYY-MM-DD") instead, to measure the cost of many small files.

Readers: :func:`dask_tables` gives lazy Dask DataFrames indexed by the partition value, one
Dask partition per partition of the table, with known divisions (a match's rows share a
partition in every table: the analyses join and group without a shuffle); :func:`file_lists`
gives the Parquet files of the tables' current versions, for DuckDB (its delta extension would
need the internet).
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

TABLES = ("matches", "rosters")
SPAN_DAYS = 28


def sample_tables() -> dict[str, pa.Table]:
    """The sample set's (global shard) matches and rosters as Arrow tables, text as text."""
    from matchkit import to_frames
    from matchkit.synth.dataset import open_dataset

    frames = to_frames(list(open_dataset().iter_documents("global")))
    tables = {}
    for name in TABLES:
        table = frames.tables[name]
        categorical = [c for c, t in table.dtypes.items() if isinstance(t, pd.CategoricalDtype)]
        table = table.astype(dict.fromkeys(categorical, "string"))
        tables[name] = pa.Table.from_pandas(table, preserve_index=False).replace_schema_metadata()
    return tables


def _suffixed(column: pa.ChunkedArray, suffix: str) -> pa.ChunkedArray:
    separator = pa.scalar("", pa.large_string())
    return pc.binary_join_element_wise(column, pa.scalar(suffix, pa.large_string()), separator)


def _copy(
    sample: dict[str, pa.Table], copy: int, start: pd.Timestamp, granularity: str, bucket: str = ""
):
    """One copy of the sample tables moved to start at ``start``, with new ids; its partition
    value is the month (or day) of each match, followed by ``bucket``."""
    suffix = f"-{copy}"
    matches = sample["matches"]
    created = matches["created_at"].to_pandas()
    first = created.min().floor("D")
    offset = (created - first) % pd.Timedelta(days=SPAN_DAYS)
    moved = (start + offset).dt.as_unit("us")
    fmt = "%Y-%m" if granularity == "month" else "%Y-%m-%d"
    partition = moved.dt.strftime(fmt) + bucket
    key = pa.array(partition, pa.large_string())
    months = dict(zip(matches["match_id"].to_pylist(), partition, strict=True))
    matches = matches.set_column(
        matches.schema.get_field_index("created_at"),
        "created_at",
        pa.array(moved, pa.timestamp("us", tz="UTC")),
    )
    matches = matches.set_column(0, "match_id", _suffixed(matches["match_id"], suffix))
    matches = matches.append_column(granularity, key)
    rosters = sample["rosters"]
    roster_key = pa.array(
        [months.get(match) for match in rosters["match_id"].to_pylist()], pa.large_string()
    )
    for name in ("roster_id", "match_id"):
        index = rosters.schema.get_field_index(name)
        rosters = rosters.set_column(index, name, _suffixed(rosters[name], suffix))
    rosters = rosters.append_column(granularity, roster_key)
    return {"matches": matches, "rosters": rosters}


def build(
    folder: Path,
    matches: int,
    *,
    months: int = 24,
    granularity: str = "month",
    bucket_matches: int | None = None,
) -> dict[str, Any]:
    """Write an archive of at least ``matches`` matches (whole copies of the sample set).

    With ``bucket_matches``, a month holding more matches is split into buckets of at most
    about that many (each whole copy of the sample in one bucket, so a match's rows share a
    bucket in every table): the partition value is then ``2025-01.3``, and partitions keep
    their size whatever the size of the archive.

    Returns:
        What was written: ``matches``, ``rosters`` (rows), ``files`` per table.
    """
    from deltalake import write_deltalake

    sample = sample_tables()
    copies = math.ceil(matches / sample["matches"].num_rows)
    origin = pd.Timestamp("2025-01-01", tz="UTC")
    starts = [origin + pd.DateOffset(months=m) for m in range(months)]
    rows = {name: 0 for name in TABLES}
    per_copy = sample["matches"].num_rows
    for month in range(months):
        parts: dict[str, list[pa.Table]] = defaultdict(list)
        month_copies = list(range(month, copies, months))
        buckets = 1
        if bucket_matches:
            buckets = max(1, math.ceil(len(month_copies) * per_copy / bucket_matches))
        for position, copy in enumerate(month_copies):
            bucket = f".{position % buckets}" if buckets > 1 else ""
            for name, table in _copy(sample, copy, starts[month], granularity, bucket).items():
                parts[name].append(table)
        for name in TABLES:
            if not parts[name]:
                continue
            table = pa.concat_tables(parts[name])
            rows[name] += table.num_rows
            write_deltalake(str(folder / name), table, mode="append", partition_by=[granularity])
    files = {name: len(file_lists(folder)[name]) for name in TABLES}
    return {"matches": rows["matches"], "rosters": rows["rosters"], "files": files}


def _partitions(folder: Path, table: str) -> dict[str, list[str]]:
    """The partition value -> the Parquet files of the table's current version."""
    from deltalake import DeltaTable

    delta = DeltaTable(str(folder / table))
    actions = pa.table(delta.get_add_actions(flatten=True)).to_pydict()
    column = next(name for name in actions if name.startswith("partition."))
    files: dict[str, list[str]] = defaultdict(list)
    for path, value in zip(actions["path"], actions[column], strict=True):
        files[value].append(str(folder / table / path))
    return dict(sorted(files.items()))


def file_lists(folder: Path) -> dict[str, list[str]]:
    """Each table's Parquet files (its current version's), for DuckDB."""
    return {
        name: [path for paths in _partitions(folder, name).values() for path in paths]
        for name in TABLES
    }


_DTYPES = {
    pa.large_string(): pd.StringDtype(),
    pa.string(): pd.StringDtype(),
    pa.int64(): pd.Int64Dtype(),
    pa.bool_(): pd.BooleanDtype(),
}


def read_partition(paths: list[str], value: str, columns: list[str] | None = None):
    """One partition of a table as pandas, MatchFrames dtypes, indexed by its partition value
    (``columns``: those to read, as Dask's column projection asks)."""
    table = pa.concat_tables(pq.read_table(path, columns=columns) for path in paths)
    frame = table.to_pandas(types_mapper=_DTYPES.get)
    frame.index = pd.Index([value], name="month", dtype=pd.StringDtype()).repeat(len(frame))
    return frame


def dask_tables(folder: Path) -> Any:
    """The tables as lazy Dask DataFrames aligned on the partition index (named ``month``);
    Dask reads only the columns a query uses."""
    import dask.dataframe as dd

    class Tables:
        pass

    tables = Tables()
    for name in TABLES:
        partitions = _partitions(folder, name)
        values = list(partitions)
        meta = read_partition(partitions[values[0]][:1], values[0]).iloc[:0]
        frame = dd.from_map(
            read_partition,
            list(partitions.values()),
            values,
            meta=meta,
            divisions=[*values, values[-1]],
            enforce_metadata=False,
        )
        setattr(tables, name, frame)
    return tables
