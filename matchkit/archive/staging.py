"""The staged copy of a batch: its stored tables, written before any table is committed.

A sync writes a batch's tables (as :func:`matchkit.archive.writer.prepare_batch` gives them)
to ``DIR/_staging/batch-N/``, one Parquet file per table, each written atomically and flushed to
the disk, then ``order.json`` (the tables in commit order) last: a staged batch is complete when
its ``order.json`` is there. Only then does the sync record the batch as pending. A sync that
finds a pending batch commits exactly these tables: the rows of a batch never depend on when it
is completed.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from matchkit.archive.layout import STAGING
from matchkit.errors import ArchiveError
from matchkit.model.atomic import atomic_write

__all__ = ["clear_staging", "read_staged", "stage"]

_ORDER = "order.json"


def _folder(folder: Path, batch: int) -> Path:
    return folder / STAGING / f"batch-{batch}"


def stage(folder: Path, batch: int, prepared: Mapping[str, pa.Table]) -> None:
    """Write the batch's tables to its staging folder, ``order.json`` last.

    Raises:
        ArchiveError: the file system refused a write.
    """
    target = _folder(folder, batch)
    shutil.rmtree(target, ignore_errors=True)
    try:
        target.mkdir(parents=True)
    except OSError as error:
        raise ArchiveError(
            f"cannot create {target}: {error.strerror or error}", path=target
        ) from None
    names = [[label, f"{index:02d}.parquet"] for index, label in enumerate(prepared)]

    def write(entry: list[str]) -> None:
        label, name = entry
        atomic_write(target / name, partial(pq.write_table, prepared[label]), error=ArchiveError)

    # Most of a file's time is the wait for the disk to flush it (two flushes a file, about
    # 30 files a PUBG batch): written side by side, the flushes overlap. order.json follows
    # only once every table is on the disk.
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(write, names))
    atomic_write(target / _ORDER, orjson.dumps(names), error=ArchiveError)


def read_staged(folder: Path, batch: int) -> dict[str, pa.Table]:
    """The staged tables of a pending batch, in commit order.

    Raises:
        ArchiveError: they are missing or damaged.
    """
    source = _folder(folder, batch)
    try:
        names = orjson.loads((source / _ORDER).read_bytes())
        return {label: pq.read_table(source / name) for label, name in names}
    except (OSError, orjson.JSONDecodeError, pa.ArrowException, TypeError, ValueError) as error:
        raise ArchiveError(
            f"batch {batch} was left pending by an interrupted sync, and its staged tables in "
            f"{source} cannot be read ({error}); restore the archive from a backup",
            path=source,
        ) from None


def clear_staging(folder: Path) -> None:
    """Remove every staged batch (when none is pending, they are leftovers)."""
    shutil.rmtree(folder / STAGING, ignore_errors=True)
