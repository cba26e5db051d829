"""The Delta tables an archive holds, opened at a version, with damage as an ArchiveError.

Every archive command and reader opens its tables here: :func:`open_table` turns deltalake's
errors (a damaged or missing commit of the log) into an
:class:`~matchkit.errors.ArchiveError` naming the damaged file, and :func:`checked_files` lists
a version's data files after checking that each is there with the size its log gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pyarrow as pa

from matchkit.archive.layout import PARTITION
from matchkit.errors import ArchiveError
from matchkit.model.schema import TABLE_NAMES

if TYPE_CHECKING:
    from deltalake import DeltaTable

__all__ = [
    "DataFile",
    "checked_files",
    "damaged_log_file",
    "is_table",
    "open_table",
    "pinned_tables",
    "read_match_ids",
    "require_whole",
    "table_labels",
    "table_versions",
]

_LOG = "_delta_log"


@dataclass(frozen=True)
class DataFile:
    """One data file of a table's version: its path, its partition value and its rows."""

    path: Path
    partition: str | None
    rows: int
    size: int


def table_labels(folder: Path) -> list[str]:
    """The tables present, as labels: ``matches``, ... then ``telemetry/<name>`` (or PUBG's
    ``pubg-telemetry/<name>``)."""
    from matchkit.archive.telemetry_tables import telemetry_labels

    labels = [name for name in TABLE_NAMES if is_table(folder / name)]
    labels.extend(label for label in telemetry_labels() if is_table(folder / label))
    return labels


def is_table(path: Path) -> bool:
    """Whether ``path`` holds a Delta table: its log has a commit (or a checkpoint). A log
    folder without one is a first commit cut short (a killed sync): no table yet, and the
    files beside it are no table's."""
    log = path / _LOG
    if not log.is_dir():
        return False
    return bool(_commits(log)) or any(log.glob("*.checkpoint*.parquet"))


def table_versions(folder: Path) -> dict[str, int]:
    """Each present table's latest version.

    Raises:
        ArchiveError: a table's log is damaged (naming the file).
    """
    return {label: open_table(folder / label).version() for label in table_labels(folder)}


def read_match_ids(path: Path, columns: list[str], where: Any, *, unwritten: str) -> pa.Table:
    """The ``columns`` (``match_id`` and any others) of the rows of the matches table at
    ``path`` that pass the pyarrow expression ``where``.

    Raises:
        ArchiveError: a data file of the table cannot be read (damaged); the message ends with
            ``unwritten``, what the caller therefore did not do.
    """
    from deltalake.exceptions import DeltaError

    dataset = open_table(path).to_pyarrow_dataset()
    try:
        return dataset.to_table(columns=columns, filter=where)
    except (DeltaError, OSError, pa.ArrowException) as error:  # a damaged data file
        raise ArchiveError(
            f"could not read the match ids of {path}: {error}; a data file of it is damaged "
            f"(restore it from a backup); {unwritten}",
            path=getattr(error, "filename", None) or path,
        ) from error


def open_table(path: Path, version: int | None = None) -> DeltaTable:
    """The Delta table in ``path`` at ``version`` (default: its latest).

    Raises:
        ArchiveError: its log is damaged or lacks the version (naming the file at fault).
    """
    from deltalake import DeltaTable
    from deltalake.exceptions import DeltaError

    empty = _empty_commit(path, version)
    if empty is not None:
        raise ArchiveError(
            f"{empty} is damaged (an empty commit of {path}'s Delta log); restore it from a backup",
            path=empty,
        )
    try:
        table = DeltaTable(str(path), version=version)
    except (DeltaError, OSError) as error:
        culprit = damaged_log_file(path)
        raise ArchiveError(
            f"{culprit} is damaged or missing, and the Delta log of {path} cannot be read "
            f"({_first_line(error)}); restore it from a backup",
            path=culprit,
        ) from None
    _require_plain_reads(path, table)
    return table


def _require_plain_reads(path: Path, table: DeltaTable) -> None:
    """Refuse a table that needs more of a reader than its data files as they are: matchkit
    reads the files a version lists, so deletion vectors or column mapping (written by another
    writer) would give other rows or columns than the table holds."""
    protocol = table.protocol()
    features = sorted(protocol.reader_features or ())
    if protocol.min_reader_version > 1 or features:
        needs = ", ".join(features) or f"reader version {protocol.min_reader_version}"
        raise ArchiveError(
            f"{path} needs Delta reader features matchkit does not apply ({needs}): another "
            "writer changed it, and reading its data files as they are would give other rows; "
            "keep an archive's tables to matchkit's writes (restore it from a backup)",
            path=path,
        )


def checked_files(path: Path, table: DeltaTable) -> list[DataFile]:
    """The data files of ``table``'s version, each checked to be there with its log's size.

    Raises:
        ArchiveError: a file is missing or of another size (naming it).
    """
    from deltalake.exceptions import DeltaError

    try:
        actions = pa.table(table.get_add_actions(flatten=True))
    except (DeltaError, OSError) as error:
        culprit = damaged_log_file(path)
        raise ArchiveError(
            f"{culprit} is damaged, and the files of {path} cannot be listed "
            f"({_first_line(error)}); restore it from a backup",
            path=culprit,
        ) from None
    column = f"partition.{PARTITION}"
    partitions = (
        actions.column(column).to_pylist()
        if column in actions.column_names
        else [None] * actions.num_rows
    )
    files = []
    for relative, size, rows, partition in zip(
        actions.column("path").to_pylist(),
        actions.column("size_bytes").to_pylist(),
        actions.column("num_records").to_pylist(),
        partitions,
        strict=True,
    ):
        file = path / relative
        try:
            actual = file.stat().st_size
        except FileNotFoundError:
            raise ArchiveError(
                f"{file} is missing, and version {table.version()} of {path} lists it; restore "
                "it from a backup (or open an earlier version with version=)",
                path=file,
            ) from None
        if actual != size:
            raise ArchiveError(
                f"{file} is damaged: {actual} bytes, the table's log says {size}; restore it "
                "from a backup",
                path=file,
            )
        files.append(DataFile(file, partition, int(rows or 0), int(size)))
    return files


def damaged_log_file(path: Path) -> Path:
    """The first file of ``path``'s Delta log that is empty or not JSON lines, or the first
    missing commit; else the log's folder (the damage is elsewhere in it)."""
    log = path / _LOG
    commits = _commits(log)
    for _, file in commits:
        try:
            lines = file.read_bytes().splitlines()
            if not lines:
                return file
            for line in lines:
                orjson.loads(line)
        except (OSError, orjson.JSONDecodeError):
            return file
    checkpointed = any(log.glob("*.checkpoint*.parquet")) or (log / "_last_checkpoint").exists()
    if not checkpointed:
        for expected, (version, _) in enumerate(commits):
            if version != expected:
                return log / f"{expected:020d}.json"
        if not commits:
            return log / f"{0:020d}.json"
    return log


def _commits(log: Path) -> list[tuple[int, Path]]:
    found = []
    for file in log.glob("*.json"):
        if file.stem.isdigit():
            found.append((int(file.stem), file))
    return sorted(found)


def _empty_commit(path: Path, version: int | None) -> Path | None:
    """An empty commit file up to ``version``: deltalake reads it as a commit of nothing, which
    would drop that commit's rows without a word."""
    for number, file in _commits(path / _LOG):
        if version is not None and number > version:
            break
        try:
            if file.stat().st_size == 0:
                return file
        except OSError:
            return file
    return None


def _first_line(error: BaseException) -> str:
    """deltalake's message without the backtrace it appends."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def pinned_tables(folder: Path, pinned: Mapping[str, int]) -> dict[str, DeltaTable]:
    """Each table of ``pinned`` opened at its version.

    Raises:
        ArchiveError: a table's log is damaged (naming the file).
    """
    return {label: open_table(folder / label, version) for label, version in pinned.items()}


def require_whole(folder: Path, pinned: Mapping[str, int]) -> None:
    """Every table of ``pinned`` opens at its version, and every data file of it is there
    with the size its log gives.

    Raises:
        ArchiveError: a log or a data file is damaged or missing (naming the file).
    """
    for label, table in pinned_tables(folder, pinned).items():
        checked_files(folder / label, table)
