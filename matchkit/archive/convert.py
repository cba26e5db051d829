"""Tables of MatchFrames / TelemetryFrames as the archive stores them, and back.

Stored columns are the table's own, in its order, with text kept as text (a pandas categorical
is stored as a string), then the partition column ``month``. Players and teams are snapshots
(decision 17): each row also carries the match it came with (``match_id``,
``match_created_at``: the latest match of that player or team in its batch), keyed by
``(player_id, match_id)``, so that every snapshot is kept and the latest one is the view.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from matchkit.model.manifest import TYPES_MAPPER
from matchkit.model.schema import DATETIME_DTYPE, TableSchema, pandas_dtype

__all__ = [
    "SNAPSHOT_COLUMNS",
    "SNAPSHOT_LINKS",
    "archive_dtype",
    "match_months",
    "month_strings",
    "snapshot_frame",
    "stored_key",
    "to_arrow",
    "to_pandas",
]

SNAPSHOT_LINKS: Mapping[str, tuple[str, str]] = {
    "players": ("participants", "player_id"),
    "teams": ("rosters", "team_id"),
}
"""Snapshot tables -> (the table that links them to a match, its column of their id)."""

SNAPSHOT_COLUMNS = ("match_id", "match_created_at")
"""The columns a snapshot row carries beyond its MatchFrames table's."""


def stored_key(name: str, schema: TableSchema) -> tuple[str, ...]:
    """The key of a table as stored: a snapshot table's rows are keyed by id and match."""
    if name in SNAPSHOT_LINKS:
        return (*schema.key, "match_id")
    return schema.key


def archive_dtype(kind: str) -> object:
    """The pandas dtype of a column kind in the archive (a category is text)."""
    return pd.StringDtype() if kind == "category" else pandas_dtype(kind)


def month_strings(created: pd.Series) -> npt.NDArray[np.object_]:
    """``YYYY-MM`` of each timestamp (object array; None where missing), vectorized."""
    values = created.to_numpy(dtype="datetime64[us]", na_value=np.datetime64("NaT"))
    months = values.astype("datetime64[M]")
    out: npt.NDArray[np.object_] = np.datetime_as_string(months, unit="M").astype(object)
    out[np.isnat(months)] = None
    return out


def match_months(matches: pd.DataFrame, buckets: int = 1) -> pd.Series:
    """match_id -> its partition value (first row per id): ``YYYY-MM``, or ``YYYY-MM.b`` when
    the archive splits its months in ``buckets`` (:func:`matchkit.archive.layout.partitions`)."""
    from matchkit.archive.layout import bucket_of, partitions

    values = month_strings(matches["created_at"])
    if buckets > 1:
        ids = pa.array(matches["match_id"].astype(object).to_numpy(), pa.string())
        values = partitions(values, bucket_of(ids, buckets), buckets)
    months = pd.Series(values, index=matches["match_id"].array)
    return months[~months.index.duplicated()]


def snapshot_frame(name: str, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """A players or teams table with the match each row came with: for each id, its latest
    match in these tables (by created_at, then match id), as decision 17 keeps it."""
    link_table, column = SNAPSHOT_LINKS[name]
    frame = tables[name]
    links = tables[link_table][[column, "match_id"]].dropna()
    matches = tables["matches"][["match_id", "created_at"]].drop_duplicates("match_id")
    links = links.merge(matches, on="match_id", how="left")
    links = links.sort_values(["created_at", "match_id"], kind="stable", na_position="first")
    latest = links.drop_duplicates(column, keep="last").set_index(column)
    ids = frame[column].array
    match_id = latest["match_id"].reindex(ids).array
    created = latest["created_at"].reindex(ids).array
    out = frame.copy()
    out["match_id"] = pd.array(match_id, dtype=pd.StringDtype())
    out["match_created_at"] = pd.Series(created, index=out.index).astype(DATETIME_DTYPE)
    return out


def to_arrow(frame: pd.DataFrame, months: np.ndarray) -> pa.Table:
    """A table as the archive stores it: text as ``string``, then ``month``."""
    columns = []
    fields = []
    for column in frame.columns:
        array = pa.Array.from_pandas(frame[column])
        array = _stored(array)
        columns.append(array)
        fields.append(pa.field(str(column), array.type))
    columns.append(pa.array(months, type=pa.string()))
    fields.append(pa.field("month", pa.string()))
    return pa.Table.from_arrays(columns, schema=pa.schema(fields))


def _stored(array: pa.Array) -> pa.Array:
    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = array.type
    if pa.types.is_large_string(kind) or pa.types.is_string_view(kind) or pa.types.is_null(kind):
        return array.cast(pa.string())
    if pa.types.is_timestamp(kind) and (kind.unit != "us" or kind.tz is None):
        return array.cast(pa.timestamp("us", tz="UTC"))
    return array


def to_pandas(table: pa.Table, dtypes: Mapping[str, object]) -> pd.DataFrame:
    """A stored table read back with the archive's dtypes (the columns of ``dtypes`` in their
    order; a column the data lacks is all missing)."""
    frame = table.to_pandas(types_mapper=_types_mapper)
    data = {}
    for column, dtype in dtypes.items():
        if column in frame:
            series = frame[column]
            data[column] = series if series.dtype == dtype else series.astype(dtype)
        else:
            data[column] = pd.Series(pd.NA, index=frame.index, dtype=dtype)
    return pd.DataFrame(data, index=pd.RangeIndex(len(frame)))


def _types_mapper(kind: pa.DataType) -> object:
    if pa.types.is_string_view(kind):
        return pd.StringDtype()
    return TYPES_MAPPER(kind)


def pandas_of_arrow(kind: pa.DataType) -> object:
    """The pandas dtype an extra column of Arrow type ``kind`` reads as."""
    mapped = _types_mapper(kind)
    if mapped is not None:
        return mapped
    if pa.types.is_timestamp(kind):
        return DATETIME_DTYPE
    return kind.to_pandas_dtype()
