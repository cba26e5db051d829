"""An archive folder on disk: where each table lives, its manifest, and its lock.

Layout of an archive folder ``DIR``::

    DIR/archive.json              matchkit's manifest: format, scope (shard, filters,
                                  telemetry), the service it came from (never a key), the
                                  watermark, the last batch and each batch's table versions,
                                  a pending batch, the gaps the service had already forgotten
    DIR/<table>/                  one Delta Lake table per MatchFrames table, partitioned by
                                  ``month`` (``YYYY-MM`` of the match's created_at, UTC, or
                                  ``YYYY-MM.b``: bucket b of the month, see :func:`partitions`)
    DIR/telemetry/<table>/        one per TelemetryFrames table, when telemetry is archived
    DIR/pubg-telemetry/<table>/   one per PubgTelemetryFrames table (a PUBG archive's)
    DIR/_staging/batch-N/         the batch being committed (removed once it is)
    DIR/.lock                     held by the one sync or compaction at work

The manifest is :mod:`matchkit.archive.manifest`'s.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.archive.telemetry_tables import TELEMETRY_FOLDERS
from matchkit.errors import ArchiveBusyError, ArchiveError

__all__ = [
    "APP_ID",
    "PARTITION",
    "ROW_GROUP_ROWS",
    "STAGING",
    "bucket_of",
    "locked",
    "partitions",
    "sort_column",
    "table_path",
]

PARTITION = "month"
"""The partition column of every table: ``YYYY-MM`` of the match's created_at (UTC), followed by
``.b`` (the match's bucket) when the archive's months are split in buckets."""
APP_ID = "matchkit-archive"
"""The Delta application-transaction id whose version is the batch number of a commit."""
STAGING = "_staging"
LOCK = ".lock"

ROW_GROUP_ROWS = 16_384
"""The most rows a row group of a data file holds. A reader skips a row group whose statistics
rule out the rows it looks for (:func:`matchkit.archive.reader.read_arrow`), and reads every
column of one that may hold one: a player's rows among a partition's 564,000 participants
were 140 ms a file read as one row group, 7 ms sorted in row groups of this size (20 ms at
65,536); ``docs/archive.md``."""

_LOOKUP_COLUMNS = {
    "matches": "match_id",
    "rosters": "match_id",
    "participants": "player_id",
    "players": "player_id",
}


def sort_column(label: str) -> str | None:
    """The column whose order a table's rows are written in within a data file, so that its
    row groups' statistics of it are narrow: the one its rows are looked up by. A player's
    history looks up their participants and snapshots by ``player_id``, then their matches and
    rosters by ``match_id``; a match's telemetry is looked up by ``match_id``. The other tables
    are only scanned, and are written as they come (``None``): sorting them cost more than it
    could save (``docs/archive.md``)."""
    if label.startswith(tuple(f"{folder}/" for folder in TELEMETRY_FOLDERS.values())):
        return "match_id"
    return _LOOKUP_COLUMNS.get(label)


def bucket_of(match_ids: pa.Array | pa.ChunkedArray, buckets: int) -> npt.NDArray[np.int64]:
    """Each match's bucket, ``0 <= b < buckets``: the 32-bit FNV-1a hash of its id's UTF-8
    bytes, modulo ``buckets`` (stable across processes, versions and machines; vectorized)."""
    ids = pa.chunked_array([match_ids]) if isinstance(match_ids, pa.Array) else match_ids
    ids = ids.cast(pa.large_string()).combine_chunks()
    n = len(ids)
    if buckets <= 1 or n == 0:
        return np.zeros(n, dtype=np.int64)
    _, offsets_buffer, data_buffer = ids.buffers()
    offsets = np.frombuffer(offsets_buffer, dtype=np.int64, count=n + 1, offset=ids.offset * 8)
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer else np.zeros(1, np.uint8)
    starts, lengths = offsets[:-1], np.diff(offsets)
    hashed = np.full(n, 2166136261, dtype=np.uint64)
    for position in range(int(lengths.max(initial=0))):
        live = lengths > position
        byte = data[np.where(live, starts + position, 0)].astype(np.uint64)
        stepped = ((hashed ^ byte) * np.uint64(16777619)) & np.uint64(0xFFFFFFFF)
        hashed = np.where(live, stepped, hashed)
    return (hashed % np.uint64(buckets)).astype(np.int64)


def partitions(
    months: npt.NDArray[np.object_], buckets: npt.NDArray[np.integer] | None, count: int
) -> npt.NDArray[np.object_]:
    """The partition value of each row: its month (``YYYY-MM``; None stays None), followed by
    ``.b`` (zero-padded to the width of ``count - 1``) when the archive has ``count > 1``
    buckets a month. Sorting the values as text sorts them by month, then bucket."""
    values = np.asarray(months, dtype=object)
    if count <= 1 or buckets is None:
        return values
    width = len(str(count - 1))
    missing = np.array([value is None for value in values], dtype=bool)
    suffixes = np.char.zfill(np.asarray(buckets).astype(str), width).astype(object)
    out: npt.NDArray[np.object_] = np.where(missing, "", values).astype(object) + "." + suffixes
    out[missing] = None
    return out


def table_path(folder: Path, name: str, *, telemetry: bool = False) -> Path:
    """The folder of one Delta table of the archive."""
    return folder / "telemetry" / name if telemetry else folder / name


@contextlib.contextmanager
def locked(folder: Path, *, wait: float = 0.0) -> Iterator[None]:
    """Hold the archive's lock (an advisory ``flock`` on ``DIR/.lock``) for the block.

    The kernel releases it when its process ends, however it ends (a SIGKILL too), so a killed
    sync never leaves the archive locked.

    Args:
        wait: seconds to wait for another holder to finish (0: do not wait).

    Raises:
        ArchiveBusyError: another process still holds it after ``wait`` seconds.
    """
    path = folder / LOCK
    handle = open(path, "a+b")  # noqa: SIM115 (held for the block)
    try:
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise ArchiveError(
                        f"cannot lock {path}: {error.strerror or error}", path=path
                    ) from None
                if time.monotonic() >= deadline:
                    raise ArchiveBusyError(
                        f"{folder} is being written by another process (a sync or a compaction "
                        f"holds {path}); wait for it to finish, or pass a longer wait "
                        "(wait=SECONDS, --wait SECONDS)",
                        path=path,
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        handle.close()
