"""MatchFrames on disk: one Parquet data set per table, Hive-partitioned by match date.

Layout under the folder you name::

    _matchkit.json                   the manifest: format, tables, columns, dtypes, row counts,
                                     every data file with its row count and SHA-256, problems;
                                     written last, so it marks a complete write
    matches/date=2026-10-30/part-0.parquet
    rosters/date=2026-10-30/part-0.parquet      (every match-bound table, by its match's date;
    ...                                           rows whose match is unknown go to the null
                                                  partition, date=__HIVE_DEFAULT_PARTITION__)
    players/part-0.parquet                       (players and teams are not partitioned)
    teams/part-0.parquet

Each table folder is a data set that Dask (``dd.read_parquet("out/participants")``), Spark and
DuckDB (``read_parquet('out/participants/*/*.parquet', hive_partitioning = true)``) read
directly. A write goes to a hidden folder beside the target (``.NAME.writing-PID-HEX``) and is
moved into place at the end (:func:`matchkit.model.replace.replace_folder`: an overwrite
deletes exactly the files the old manifest lists, so a notes file or a telemetry data set in a
subfolder stays), so an interrupted write never leaves a folder that :func:`read_frames`
accepts; the next write removes what a killed one left behind.

Every file is written on the calling thread (``pyarrow.parquet.write_table``), never through
Arrow's dataset writer: that one hands the table to Arrow's thread pools, whose workers could
drop the last reference to pandas' memory after the call returned and, when that happened while
the interpreter was shutting down, abort the process ("terminate called without an active
exception", exit 134).

Reading checks the folder against the manifest (every file present, none extra, each with its
row count and its SHA-256) and refuses a data set that does not match it: a missing partition
must never read as fewer rows, and a damaged file never as other values.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from matchkit.errors import InvalidArgumentError, StorageError
from matchkit.model.listings import FRAME_TABLES
from matchkit.model.manifest import (
    TYPES_MAPPER,
    check_digest,
    check_target_folder,
    dtype_of,
    dtype_spec,
    file_digest,
    read_as_described,
    read_manifest,
    restored,
)
from matchkit.model.replace import files_under, replace_folder
from matchkit.model.schema import empty_frame

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["FORMAT", "MANIFEST", "read_frames", "write_frames"]

FORMAT = "matchkit-frames/3"
"""The format written and read: the manifest lists every data file with its row count and
SHA-256."""
MANIFEST = "_matchkit.json"
PARTITION = "date"
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
PART_FILE = "part-0.parquet"


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
            holds something other than a matchkit data set, or it is a file, or it is the
            current folder (or holds it).
        StorageError: the file system refused the write (the message says where and why);
            nothing is left half-written.
    """
    target = _checked_target(path, overwrite=overwrite)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InvalidArgumentError(
            f"{target.parent} is not a folder, so {target.name} cannot be written in it",
            parameter="path",
        ) from None
    except OSError as error:
        raise StorageError(
            f"cannot create {target.parent}: {error.strerror or error}", path=target.parent
        ) from None
    _remove_leftovers(target)
    staging = target.parent / f".{target.name}.writing-{os.getpid()}-{uuid.uuid4().hex}"
    try:
        staging.mkdir()
        dates = _match_dates(frames.matches)
        tables = {}
        for name, schema in FRAME_TABLES.items():
            frame = frames.tables[name]
            files = _write_table(frame, staging / name, dates if schema.match_bound else None)
            tables[name] = {
                "rows": len(frame),
                "partitioned": schema.match_bound,
                "columns": list(frame.columns),
                "dtypes": {column: dtype_spec(frame[column].dtype) for column in frame},
                "files": files,
                "sha256": {file: file_digest(staging / name / file) for file in files},
            }
        manifest = {"format": FORMAT, "tables": tables, "problems": list(frames.problems)}
        (staging / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
        replace_folder(staging, target, manifest=MANIFEST, listed=_listed)
    except BaseException as error:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(error, OSError):
            raise StorageError(
                f"could not write {target}: {error.strerror or error}"
                f"{f' ({error.filename})' if error.filename else ''}; nothing was changed",
                path=target,
            ) from error
        raise
    return target


def read_frames(path: str | os.PathLike[str]) -> MatchFrames:
    """Read what :func:`write_frames` wrote, with the dtypes it had, after checking it whole.

    Rows come back partition by partition (in date order), in their original order within a
    partition.

    Raises:
        StorageError: the folder has no manifest (not a matchkit data set, or a write that did
            not finish), a manifest of another format or one that cannot be read, or its files
            do not match the manifest: a file or table folder is missing, a file is extra (a
            stray partition, a copied part file), a row count differs, or a file is damaged.
            The message names what and where.
    """
    from matchkit.model.frames import MatchFrames

    folder = Path(path)
    manifest = read_manifest(
        folder,
        MANIFEST,
        format=FORMAT,
        missing=f"is not a complete matchkit Parquet data set: {MANIFEST} is missing (write one "
        "with MatchFrames.to_parquet; an interrupted write leaves none)",
        again="write the data set again",
    )
    tables = {}
    for name, schema in FRAME_TABLES.items():
        spec = manifest["tables"].get(name)
        if spec is None:  # a data set written before the listing tables: none listed
            tables[name] = empty_frame(schema)
            continue
        tables[name] = read_as_described(
            _read_table, folder / name, spec, again="write the data set again"
        )
    return MatchFrames(**tables, problems=tuple(manifest.get("problems", ())))


def _listed(manifest: Path) -> list[str]:
    """The files a manifest lists, itself included (a table without a file list: every file of
    its table folder, so that a damaged manifest leaves nothing of the data set behind)."""
    folder = manifest.parent
    tables = orjson.loads(manifest.read_bytes())["tables"]
    found = [MANIFEST]
    for name, spec in tables.items():
        if isinstance(spec.get("files"), dict):
            found += [f"{name}/{file}" for file in spec["files"]]
        else:
            found += files_under(folder, name)
    return found


def _checked_target(path: str | os.PathLike[str], *, overwrite: bool) -> Path:
    target = Path(path).absolute()
    here = Path.cwd()
    if target == here or target in here.parents:
        raise InvalidArgumentError(
            f"{path} is the current folder or holds it; write the data set to a folder of its "
            "own, such as ./matches",
            parameter="path",
        )
    check_target_folder(
        target,
        manifest=MANIFEST,
        overwrite=overwrite,
        foreign="exists and is not a matchkit Parquet data set; refusing to replace it",
    )
    return target


_LEFTOVER = r"^\.{name}\.(writing|replaced)-(?:(\d+)-)?[0-9a-f]{{32}}$"


def _remove_leftovers(target: Path) -> None:
    """Remove the staging and retired folders that killed writes of ``target`` left beside it.

    Only names this module creates are touched, and only those of processes that are gone. A
    retired folder (the previous data set) goes only once ``target`` holds a complete one.
    """
    pattern = re.compile(_LEFTOVER.format(name=re.escape(target.name)))
    complete = (target / MANIFEST).is_file()
    try:
        entries = list(target.parent.iterdir())
    except OSError:  # cleaning up is a courtesy; the write itself reports a real problem
        return
    for entry in entries:
        found = pattern.match(entry.name)
        if found is None or not entry.is_dir() or entry.is_symlink():
            continue
        kind, pid = found.group(1), found.group(2)
        if pid is not None and _alive(int(pid)):
            continue
        if kind == "replaced" and not complete:
            continue
        shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _match_dates(matches: pd.DataFrame) -> pd.Series:
    """match_id -> ``YYYY-MM-DD`` of its created_at (first row per id)."""
    created = matches["created_at"]
    dates = pd.Series(created.dt.strftime("%Y-%m-%d").array, index=matches["match_id"].array)
    return dates[~dates.index.duplicated()]


def _write_table(frame: pd.DataFrame, folder: Path, dates: pd.Series | None) -> dict[str, int]:
    """Write ``frame`` under ``folder``, by partition when ``dates`` is given.

    Returns:
        Each file written (its path under ``folder``, with ``/``) and its number of rows, in
        the order the rows are read back.
    """
    folder.mkdir()
    if dates is None:
        _write_file(pa.Table.from_pandas(frame, preserve_index=False), folder / PART_FILE)
        return {PART_FILE: len(frame)}
    if frame.empty:
        return {}
    # One conversion for the whole table (one schema for every partition), then the rows of
    # each partition, in their order, by ``take``: all on this thread.
    table = pa.Table.from_pandas(frame, preserve_index=False)
    partition = pd.Series(frame["match_id"].map(dates).array, dtype=pd.StringDtype())
    keys = np.asarray(partition.fillna(NULL_PARTITION), dtype=object)
    order = np.argsort(keys, kind="stable")
    values, starts = np.unique(keys[order], return_index=True)
    files = {}
    for value, begin, end in zip(values, starts, [*starts[1:], len(order)], strict=True):
        name = f"{PARTITION}={value}/{PART_FILE}"
        (folder / name).parent.mkdir()
        _write_file(table.take(pa.array(order[begin:end])), folder / name)
        files[name] = int(end - begin)
    return files


def _write_file(table: pa.Table, path: Path) -> None:
    pq.write_table(table, path)


def _data_files(folder: Path) -> Iterator[str]:
    """Every file under ``folder`` that a Parquet reader would take as data (with ``/``).

    Like Arrow's discovery, names starting with ``.`` or ``_`` are skipped.
    """
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        for name in sorted(names):
            if not name.startswith((".", "_")):
                yield Path(root, name).relative_to(folder).as_posix()


def _read_table(folder: Path, spec: dict[str, Any]) -> pd.DataFrame:
    """A table's rows from its files, refused when they do not match ``spec`` (the files, their
    row counts and their SHA-256)."""
    columns = spec["columns"]
    dtypes = {column: dtype_of(value) for column, value in spec["dtypes"].items()}
    rows = spec["rows"]
    listed = spec["files"]
    _check_files(folder, listed, rows)
    names = list(listed)
    if not names:
        frame = pd.DataFrame({column: pd.Series([], dtype=dtypes[column]) for column in columns})
    else:
        tables = []
        for name in names:
            check_digest(folder / name, (spec.get("sha256") or {}).get(name))
            table = pq.ParquetFile(folder / name).read(columns=columns)
            if table.num_rows != listed[name]:
                raise StorageError(
                    f"{folder / name} holds {table.num_rows} rows, the manifest says "
                    f"{listed[name]}; write the data set again",
                    path=folder / name,
                )
            tables.append(table)
        frame = pa.concat_tables(tables).to_pandas(types_mapper=TYPES_MAPPER)
    if len(frame) != rows:
        raise StorageError(
            f"{folder} holds {len(frame)} rows, the manifest says {rows}; a file is missing or "
            "extra: write the data set again",
            path=folder,
        )
    return pd.DataFrame({column: restored(frame[column], dtypes[column]) for column in columns})


def _check_files(folder: Path, listed: dict[str, int], rows: int) -> None:
    """Refuse a table folder whose files are not exactly those the manifest lists."""
    if sum(listed.values()) != rows:
        raise StorageError(
            f"the manifest of {folder.parent} is inconsistent: the files of {folder.name} hold "
            f"{sum(listed.values())} rows, its total says {rows}",
            path=folder.parent / MANIFEST,
        )
    if not folder.is_dir():
        if listed or rows:
            raise StorageError(
                f"{folder} is missing; the manifest lists {len(listed)} files with {rows} rows "
                "in it. Write the data set again (a partial copy would read as fewer rows)",
                path=folder,
            )
        return
    present = set(_data_files(folder))
    missing = sorted(set(listed) - present)
    extra = sorted(present - set(listed))
    if missing or extra:
        parts = []
        if missing:
            lost = sum(listed[name] for name in missing)
            parts.append(f"missing {_names(missing)} ({lost} of {rows} rows)")
        if extra:
            parts.append(f"not in the manifest {_names(extra)} (a stray or copied file)")
        raise StorageError(
            f"{folder} does not match its manifest: {'; '.join(parts)}. Write the data set "
            "again, or remove what does not belong",
            path=folder,
        )


def _names(names: list[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more
