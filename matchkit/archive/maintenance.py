"""Looking after an archive: what it holds (:func:`info`) and compaction (:func:`compact`).

Compaction rewrites each table's small files into larger ones (Delta ``optimize.compact``: a
new version with the same rows), then removes the data files that no version since the
retention uses any more. Delta's ``vacuum`` lists them (a dry run); of its list only data files
of the names Delta's writer gives (``part-NNNNN-<uuid>-c000.<codec>.parquet``) inside a table's
folder are removed: files of the log and anything a user put there are never touched. That
includes the files a killed sync wrote but never committed. An earlier batch whose files were
removed can no longer be opened with ``version=``: :func:`matchkit.archive.open` names the
missing file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from matchkit.archive.layout import locked, read_manifest, write_manifest
from matchkit.archive.versions import table_labels, table_versions
from matchkit.errors import ArchiveError, InvalidArgumentError

__all__ = ["ArchiveInfo", "CompactResult", "compact", "info"]


@dataclass
class ArchiveInfo:
    """What an archive holds.

    Attributes:
        path: the folder.
        scope: shard, filters, telemetry of its syncs.
        source: the service it was synced from (never a key).
        watermark: the end of what it holds.
        batch: the last batch (the version :func:`matchkit.archive.open` opens by default).
        tables: per table: ``rows``, ``files``, ``version``, ``bytes``.
        first_match, last_match: the range of match times.
        gaps: ranges the service had forgotten before a sync reached them.
        buckets: the buckets each month is split in (1: partitions are months).
    """

    path: Path
    scope: dict[str, Any]
    source: str | None
    watermark: str | None
    batch: int
    tables: dict[str, dict[str, int]] = field(default_factory=dict)
    first_match: datetime | None = None
    last_match: datetime | None = None
    gaps: list[list[str]] = field(default_factory=list)
    buckets: int = 1

    def __str__(self) -> str:
        scope = self.scope
        filters = ", ".join(f"{k}={v}" for k, v in scope["filters"].items()) or "none"
        lines = [
            f"archive {self.path}",
            f"scope: shard {scope['shard']}; filters: {filters}; telemetry: "
            f"{'yes' if scope['telemetry'] else 'no'}",
            f"source: {self.source}",
            f"watermark: {self.watermark or '(never synced)'}; batch {self.batch}",
            "partitions: by month"
            + (f", {self.buckets} buckets a month" if self.buckets > 1 else ""),
        ]
        if self.first_match is not None:
            lines.append(f"matches from {self.first_match:%Y-%m-%d %H:%M} to "
                         f"{self.last_match:%Y-%m-%d %H:%M} UTC")  # fmt: skip
        lines.append(f"{'table':<32} {'rows':>12} {'files':>6} {'version':>8} {'MB':>9}")
        for name, table in self.tables.items():
            lines.append(
                f"{name:<32} {table['rows']:>12,} {table['files']:>6} {table['version']:>8} "
                f"{table['bytes'] / 1e6:>9.2f}"
            )
        lines.extend(f"gap (never archived): {a} to {b}" for a, b in self.gaps)
        return "\n".join(lines)


def info(path: str | os.PathLike[str]) -> ArchiveInfo:
    """What the archive in ``path`` holds (from the tables' logs; no data file is read).

    Raises:
        ArchiveError: ``path`` holds no archive.
    """
    from deltalake import DeltaTable

    folder = _archive_folder(path)
    manifest = _manifest(folder)
    result = ArchiveInfo(
        folder,
        manifest["scope"],
        manifest.get("source"),
        manifest["watermark"],
        manifest["batch"],
        gaps=manifest.get("gaps", []),
        buckets=manifest.get("buckets", 1),
    )
    for label in table_labels(folder):
        table = DeltaTable(str(folder / label))
        actions = pa.table(table.get_add_actions(flatten=True))
        rows = pc.sum(actions.column("num_records")).as_py() or 0
        size = pc.sum(actions.column("size_bytes")).as_py() or 0
        result.tables[label] = {"rows": rows, "files": actions.num_rows,
                                "version": table.version(), "bytes": size}  # fmt: skip
        if label == "matches" and actions.num_rows:
            low = pc.min(actions.column("min.created_at")).as_py()
            high = pc.max(actions.column("max.created_at")).as_py()
            result.first_match, result.last_match = low, high
    return result


@dataclass
class CompactResult:
    """What a compaction did: per table, files rewritten and added, and files removed."""

    rewritten: dict[str, tuple[int, int]] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        lines = [
            f"{name:<32} {before} files compacted into {after}, {self.removed.get(name, 0)} "
            "unused files removed"
            for name, (before, after) in self.rewritten.items()
        ]
        return "\n".join(lines) or "nothing to compact"


def compact(
    path: str | os.PathLike[str], *, retention_hours: float = 168, wait: float = 0.0
) -> CompactResult:
    """Compact every table of the archive, then remove the files no version in the last
    ``retention_hours`` uses.

    Args:
        retention_hours: keep files that versions of this many hours back still use (default
            a week, Delta's default; 0 removes every file the latest version does not use).
        wait: seconds to wait for a sync of this archive to finish.

    Raises:
        ArchiveBusyError: a sync holds the archive past ``wait`` seconds.
    """
    from deltalake import DeltaTable

    if not retention_hours >= 0:
        raise InvalidArgumentError(
            f"retention_hours={retention_hours!r} must be >= 0", parameter="retention_hours"
        )
    folder = _archive_folder(path)
    result = CompactResult()
    with locked(folder, wait=wait):
        manifest = _manifest(folder)
        for label in table_labels(folder):
            table = DeltaTable(str(folder / label))
            metrics = table.optimize.compact()
            result.rewritten[label] = (metrics["numFilesRemoved"], metrics["numFilesAdded"])
            table = DeltaTable(str(folder / label))
            unused = table.vacuum(
                retention_hours=int(retention_hours),
                dry_run=True,
                full=True,  # also files no commit ever named (left by a killed sync)
                enforce_retention_duration=retention_hours >= 168,
            )
            result.removed[label] = _remove_data_files(folder / label, unused)
        # The latest batch now reads the compacted versions; earlier ones, their own.
        manifest["versions"][str(manifest["batch"])] = table_versions(folder)
        write_manifest(folder, manifest)
    return result


_DATA_FILE = re.compile(r"^part-\d{5}-[0-9a-f-]{36}-c\d{3}(\.[a-z0-9]+)?\.parquet$")


def _remove_data_files(root: Path, unused: list[str]) -> int:
    """Remove the listed files that are Delta data files inside ``root``; how many."""
    removed = 0
    base = root.resolve()
    for name in unused:
        path = (root / name).resolve()
        if base not in path.parents or not _DATA_FILE.match(path.name):
            continue
        if "_delta_log" in path.relative_to(base).parts:
            continue
        try:
            path.unlink()
            removed += 1
        except FileNotFoundError:
            pass
    return removed


def _archive_folder(path: str | os.PathLike[str]) -> Path:
    folder = Path(path)
    _manifest(folder)
    return folder


def _manifest(folder: Path) -> dict[str, Any]:
    """The archive's manifest, which must be there."""
    manifest = read_manifest(folder)
    if manifest is None:
        raise ArchiveError(
            f"{folder} is not an archive (no archive.json); create one with "
            "`matchkit archive sync`",
            path=folder,
        )
    return manifest
