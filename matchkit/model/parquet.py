"""MatchFrames on disk: one Parquet data set per table, Hive-partitioned by match date.

Layout under the folder you name::

    _matchkit.json                   the manifest: format, tables, columns, dtypes, row counts,
                                     problems; written last, so it marks a complete write
    matches/date=2026-10-30/part-0.parquet
    rosters/date=2026-10-30/part-0.parquet      (every match-bound table, by its match's date;
    ...                                           rows whose match is unknown go to the null
                                                  partition, date=__HIVE_DEFAULT_PARTITION__)
    players/part-0.parquet                       (players and teams are not partitioned)
    teams/part-0.parquet

Each table folder is a data set that Dask (``dd.read_parquet("out/participants")``), Spark and
DuckDB (``read_parquet('out/participants/*/*.parquet', hive_partitioning = true)``) read
directly. A write goes to a hidden folder beside the target and is renamed into place at the
end, so an interrupted write never leaves a folder that :func:`read_frames` accepts.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.model.schema import TABLE_NAMES, TABLES, category_dtype, empty_frame

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["FORMAT", "MANIFEST", "read_frames", "write_frames"]

FORMAT = "matchkit-frames/1"
MANIFEST = "_matchkit.json"
PARTITION = "date"

# Arrow types read back as pandas' nullable dtypes (never through float64, which would round
# integers beyond 2**53); the manifest's dtypes are applied on top.
_TYPES_MAPPER = {
    pa.int64(): pd.Int64Dtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.string(): pd.StringDtype(),
    pa.large_string(): pd.StringDtype(),
}.get


def write_frames(
    frames: MatchFrames, path: str | os.PathLike[str], *, overwrite: bool = False
) -> Path:
    """Write every table of ``frames`` under ``path`` (see the module docs for the layout).

    Args:
        frames: what to write.
        path: the folder to create.
        overwrite: replace an existing folder that holds a matchkit data set (an empty folder
            is always fine).

    Returns:
        The folder.

    Raises:
        InvalidArgumentError: ``path`` is a non-empty folder and ``overwrite`` is false, or it
            holds something other than a matchkit data set, or it is a file.
    """
    target = Path(path)
    if target.exists():
        if not target.is_dir():
            raise InvalidArgumentError(f"{target} exists and is not a folder", parameter="path")
        if any(target.iterdir()):
            if not overwrite:
                raise InvalidArgumentError(
                    f"{target} already exists and is not empty; pass overwrite=True to replace "
                    "it or choose a new folder",
                    parameter="path",
                )
            if not (target / MANIFEST).exists():
                raise InvalidArgumentError(
                    f"{target} exists and is not a matchkit Parquet data set; refusing to "
                    "replace it",
                    parameter="path",
                )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.writing-{uuid.uuid4().hex}"
    staging.mkdir()
    try:
        dates = _match_dates(frames.matches)
        tables = {}
        for name in TABLE_NAMES:
            frame = frames.tables[name]
            schema = TABLES[name]
            tables[name] = {
                "rows": len(frame),
                "partitioned": schema.match_bound,
                "columns": list(frame.columns),
                "dtypes": {column: _dtype_spec(frame[column].dtype) for column in frame},
            }
            _write_table(frame, staging / name, dates if schema.match_bound else None)
        manifest = {"format": FORMAT, "tables": tables, "problems": list(frames.problems)}
        (staging / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def read_frames(path: str | os.PathLike[str]) -> MatchFrames:
    """Read what :func:`write_frames` wrote, with the dtypes it had.

    Rows come back partition by partition (in date order), in their original order within a
    partition.

    Raises:
        MatchkitError: the folder has no manifest (not a matchkit data set, or a write that did
            not finish) or a manifest of another format.
    """
    from matchkit.model.frames import MatchFrames

    folder = Path(path)
    try:
        manifest = orjson.loads((folder / MANIFEST).read_bytes())
    except FileNotFoundError:
        raise MatchkitError(
            f"{folder} is not a complete matchkit Parquet data set: {MANIFEST} is missing "
            "(write one with MatchFrames.to_parquet; an interrupted write leaves none)"
        ) from None
    if manifest.get("format") != FORMAT:
        raise MatchkitError(
            f"{folder / MANIFEST} has format {manifest.get('format')!r}, not {FORMAT}"
        )
    tables = {}
    for name in TABLE_NAMES:
        spec = manifest["tables"].get(name)
        if spec is None:
            tables[name] = empty_frame(TABLES[name])
            continue
        tables[name] = _read_table(folder / name, spec)
    return MatchFrames(**tables, problems=tuple(manifest.get("problems", ())))


def _match_dates(matches: pd.DataFrame) -> pd.Series:
    """match_id -> ``YYYY-MM-DD`` of its created_at (first row per id)."""
    created = matches["created_at"]
    dates = pd.Series(created.dt.strftime("%Y-%m-%d").array, index=matches["match_id"].array)
    return dates[~dates.index.duplicated()]


def _write_table(frame: pd.DataFrame, folder: Path, dates: pd.Series | None) -> None:
    folder.mkdir()
    if dates is None:
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), folder / "part-0.parquet")
        return
    if frame.empty:
        return
    partition = pd.Series(frame["match_id"].map(dates).array, dtype=pd.StringDtype())
    table = pa.Table.from_pandas(frame.assign(**{PARTITION: partition.array}), preserve_index=False)
    ds.write_dataset(
        table,
        folder,
        format="parquet",
        partitioning=_partitioning(),
        basename_template="part-{i}.parquet",
        existing_data_behavior="overwrite_or_ignore",
        preserve_order=True,
    )


def _partitioning() -> ds.Partitioning:
    """``date=YYYY-MM-DD`` folders; declared, since a set with only the null partition (rows
    of unknown matches) gives Arrow nothing to infer the type from."""
    return ds.partitioning(pa.schema([(PARTITION, pa.string())]), flavor="hive")


def _read_table(folder: Path, spec: dict[str, Any]) -> pd.DataFrame:
    columns = spec["columns"]
    dtypes = {column: _dtype_of(value) for column, value in spec["dtypes"].items()}
    if not spec["rows"] or not folder.exists():
        return pd.DataFrame({column: pd.Series([], dtype=dtypes[column]) for column in columns})
    if spec["partitioned"]:
        dataset = ds.dataset(folder, format="parquet", partitioning=_partitioning())
        table = dataset.to_table(columns=columns)
    else:
        table = pq.read_table(folder, columns=columns)
    frame = table.to_pandas(types_mapper=_TYPES_MAPPER)
    return pd.DataFrame({column: _restored(frame[column], dtypes[column]) for column in columns})


def _restored(series: pd.Series, dtype: Any) -> pd.Series:
    if series.dtype == dtype:
        return series
    if isinstance(dtype, pd.CategoricalDtype):
        return series.astype(object).astype(dtype)
    return series.astype(dtype)


def _dtype_spec(dtype: Any) -> Any:
    """A dtype as JSON: its name, or the categories of a categorical."""
    if isinstance(dtype, pd.CategoricalDtype):
        return {"categories": [str(c) for c in dtype.categories], "ordered": bool(dtype.ordered)}
    if isinstance(dtype, pd.StringDtype):
        return "string"
    return str(dtype)


def _dtype_of(spec: Any) -> Any:
    if isinstance(spec, dict):
        dtype = category_dtype(spec["categories"])
        return pd.CategoricalDtype(dtype.categories, ordered=spec.get("ordered", False))
    if spec == "string":
        return pd.StringDtype()
    return pd.api.types.pandas_dtype(spec)


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename the finished folder to its name, replacing an old one."""
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        staging.rename(target)
        return
    retired = target.parent / f".{target.name}.replaced-{uuid.uuid4().hex}"
    target.rename(retired)
    try:
        staging.rename(target)
    except BaseException:
        retired.rename(target)
        raise
    shutil.rmtree(retired, ignore_errors=True)
