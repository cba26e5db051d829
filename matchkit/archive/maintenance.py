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
from datetime import datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from matchkit.archive.batches import complete_pending, require_no_stray_batch
from matchkit.archive.days import days_between, format_days, latest_per_day
from matchkit.archive.layout import locked
from matchkit.archive.manifest import write_manifest
from matchkit.archive.reader import existing_manifest
from matchkit.archive.staging import clear_staging
from matchkit.archive.state import DayRecord, Gap, PendingBatch, Scope, ScopePeriod
from matchkit.archive.versions import checked_files, open_table, pinned_tables, table_versions
from matchkit.archive.writer import writer_properties
from matchkit.errors import ArchiveError, InvalidArgumentError
from matchkit.rules.profiles import DEFAULT_PROFILE, PROFILES
from matchkit.rules.windows import format_time

__all__ = ["ArchiveInfo", "CompactResult", "TableInfo", "compact", "info"]


@dataclass(frozen=True)
class TableInfo:
    """One table as the archive's last completed batch left it.

    Attributes:
        rows: its rows (what :func:`matchkit.archive.open` reads).
        files: its data files.
        version: its Delta version.
        bytes: the size of its data files.
    """

    rows: int
    files: int
    version: int
    bytes: int


@dataclass(frozen=True)
class ArchiveInfo:
    """What an archive holds: its tables as the last completed batch left them (what
    :func:`matchkit.archive.open` reads), and its state.

    Attributes:
        path: the folder.
        scopes: every scope of its syncs, oldest first, with the range of match times each one
            covered; the last is the current one (:attr:`scope`).
        source: the service it was synced from (never a key).
        watermark: the archive is final up to this moment (the next sync starts there).
        synced_to: the end of the last batch (matches after the watermark are provisional).
        batch: the last completed batch (the version :func:`matchkit.archive.open` opens).
        pending: the batch an interrupted sync left pending (not counted in ``tables``; the
            next sync or compaction completes it), or ``None``.
        tables: per table label, its rows, files, version and bytes.
        first_match, last_match: the range of match times.
        gaps: ranges the service had forgotten before a sync reached them.
        buckets: the buckets each month is split in (1: partitions are months).
        days: of a profile without a match list, each day batch's record (what its day
            listed and added, and the now of the sync that fetched it).
    """

    path: Path
    scopes: tuple[ScopePeriod, ...]
    source: str | None
    watermark: datetime | None
    synced_to: datetime | None
    batch: int
    pending: PendingBatch | None = None
    tables: dict[str, TableInfo] = field(default_factory=dict)
    first_match: datetime | None = None
    last_match: datetime | None = None
    gaps: tuple[Gap, ...] = ()
    buckets: int = 1
    days: tuple[DayRecord, ...] = ()

    @property
    def scope(self) -> Scope:
        """The scope of its syncs now."""
        return self.scopes[-1].scope

    def __str__(self) -> str:
        scope = self.scope
        filters = ", ".join(f"{k}={v}" for k, v in scope.filter_arguments().items()) or "none"
        lines = [
            f"archive {self.path}",
            f"scope: {_profile_of(scope)}shard {scope.shard}; filters: {filters}; telemetry: "
            f"{'yes' if scope.telemetry else 'no'}",
        ]
        if len(self.scopes) > 1:
            lines.append("scopes, oldest first (the match times each one was synced for):")
            lines.extend(f"  {period}" for period in self.scopes)
        lines.append(f"source: {self.source}")
        if self.watermark is None:
            lines.append("final up to: (never synced)")
        else:
            lines.append(
                f"final up to: {format_time(self.watermark)} (the next sync starts there); "
                f"synced to {format_time(self.synced_to or self.watermark)}"
            )
        lines.append(f"batch {self.batch}")
        if self.pending is not None:
            lines.append(
                f"batch {self.pending.batch} is pending (from {format_time(self.pending.start)} "
                f"to {format_time(self.pending.end)}): an interrupted sync left it; it is not "
                "counted below, and the next sync or compaction completes it"
            )
        lines.append(
            "partitions: by month"
            + (f", {self.buckets} buckets a month" if self.buckets > 1 else "")
        )
        if self.first_match is not None and self.last_match is not None:
            lines.append(
                f"matches from {self.first_match:%Y-%m-%d %H:%M} to "
                f"{self.last_match:%Y-%m-%d %H:%M} UTC"
            )
        lines.append(f"{'table':<32} {'rows':>12} {'files':>6} {'version':>8} {'MB':>9}")
        for name, table in self.tables.items():
            lines.append(
                f"{name:<32} {table.rows:>12,} {table.files:>6} {table.version:>8} "
                f"{table.bytes / 1e6:>9.2f}"
            )
        lines.extend(
            f"gap: matches created from {gap} may be missing (the service no longer served "
            "them when a sync came)"
            for gap in self.gaps
        )
        lines.extend(self._day_lines())
        return "\n".join(lines)

    def _day_lines(self) -> list[str]:
        """With day batches (a profile without a match list): what each sync added, the days
        that listed no match, and the days gaps lost."""
        span = _day_span(self.scope)
        if span is None:
            return []
        lines = ["syncs (at the service's now): the days each read, the matches it added"]
        by_sync: dict[int, list[DayRecord]] = {}
        for record in self.days:
            by_sync.setdefault(record.sync, []).append(record)
        for records in by_sync.values():
            added = sum(record.added for record in records)
            listed = sum(record.listed for record in records)
            read = format_days([record.day for record in records], span)
            lines.append(
                f"  {format_time(records[0].synced_at)}: {read}: +{added:,} matches of "
                f"{listed:,} listed"
            )
        empty = [record.day for record in latest_per_day(self.days) if record.listed == 0]
        lines.append(f"days with no sample (nothing listed): {format_days(empty, span) or 'none'}")
        lost = [day for gap in self.gaps for day in days_between(gap.start, gap.end, span)]
        if lost:
            lines.append(
                f"days lost (the service no longer served them): {format_days(lost, span)}"
            )
        return lines


def _profile_of(scope: Scope) -> str:
    """How a scope's profile is shown: only when it is not the default's."""
    return "" if scope.profile == DEFAULT_PROFILE.name else f"profile {scope.profile}; "


def _day_span(scope: Scope) -> timedelta | None:
    """A day batch's span for the scope's profile, or ``None`` when it has a match list."""
    profile = PROFILES.get(scope.profile)
    if profile is None or profile.match_list or profile.samples is None:
        return None
    return profile.samples.refresh


def info(path: str | os.PathLike[str]) -> ArchiveInfo:
    """What the archive in ``path`` holds, as its last completed batch left it: the tables
    :func:`matchkit.archive.open` reads (a pending batch is left out, and named), from the
    tables' logs (each data file is checked to be there with its size; none is read).

    Raises:
        ArchiveError: ``path`` holds no archive, or the archive is damaged (naming the file).
    """
    folder = Path(path)
    manifest = existing_manifest(folder)
    tables: dict[str, TableInfo] = {}
    first_match = last_match = None
    for label, table in pinned_tables(folder, manifest.pinned()).items():
        files = checked_files(folder / label, table)
        tables[label] = TableInfo(
            rows=sum(file.rows for file in files),
            files=len(files),
            version=table.version(),
            bytes=sum(file.size for file in files),
        )
        if label == "matches" and files:
            actions = pa.table(table.get_add_actions(flatten=True))
            first_match = pc.min(actions.column("min.created_at")).as_py()
            last_match = pc.max(actions.column("max.created_at")).as_py()
    return ArchiveInfo(
        folder,
        scopes=manifest.scopes,
        source=manifest.source,
        watermark=manifest.watermark,
        synced_to=manifest.synced_to,
        batch=manifest.batch,
        pending=manifest.pending,
        tables=tables,
        first_match=first_match,
        last_match=last_match,
        gaps=manifest.gaps,
        buckets=manifest.buckets,
        days=manifest.days,
    )


@dataclass
class CompactResult:
    """What a compaction did: per table, files rewritten and added, and files removed.

    Attributes:
        rewritten: per table, (files compacted, files they became).
        removed: per table, the data files no version in the retention uses, removed.
        completed: the batch an interrupted sync had left pending, completed first.
    """

    rewritten: dict[str, tuple[int, int]] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    completed: int | None = None

    def __str__(self) -> str:
        lines = []
        if self.completed is not None:
            lines.append(
                f"completed batch {self.completed}, left pending by an interrupted sync, first"
            )
        lines.extend(
            f"{name:<32} {before} files compacted into {after}, {self.removed.get(name, 0)} "
            "unused files removed"
            for name, (before, after) in self.rewritten.items()
        )
        return "\n".join(lines) or "nothing to compact"


def compact(
    path: str | os.PathLike[str], *, retention_hours: float = 168, wait: float = 0.0
) -> CompactResult:
    """Compact every table of the archive, then remove the files no version in the last
    ``retention_hours`` uses. A batch an interrupted sync left pending is completed first
    (from its staged tables), so that what is compacted is whole batches only.

    Args:
        retention_hours: keep files that versions of this many hours back still use (default
            a week, Delta's default; 0 removes every file the latest version does not use).
        wait: seconds to wait for a sync of this archive to finish.

    Raises:
        ArchiveBusyError: a sync holds the archive past ``wait`` seconds.
        ArchiveError: ``path`` holds no archive, or the archive is damaged (naming the file).
    """
    from deltalake.exceptions import DeltaError

    if not retention_hours >= 0:
        raise InvalidArgumentError(
            f"retention_hours={retention_hours!r} must be >= 0", parameter="retention_hours"
        )
    folder = Path(path)
    existing_manifest(folder)
    result = CompactResult()
    with locked(folder, wait=wait):
        manifest = existing_manifest(folder)
        if manifest.pending is not None:
            result.completed = manifest.pending.batch
            manifest, _ = complete_pending(folder, manifest)
        else:
            require_no_stray_batch(folder, manifest)
            clear_staging(folder)
        labels = list(manifest.pinned())
        for label in labels:
            table = open_table(folder / label)
            checked_files(folder / label, table)  # damage named before anything is rewritten
            try:
                metrics = table.optimize.compact(writer_properties=writer_properties(label))
            except (DeltaError, OSError) as error:
                raise ArchiveError(
                    f"could not compact {folder / label}: {error}; a data file of it is "
                    "damaged: restore it from a backup",
                    path=folder / label,
                ) from None
            result.rewritten[label] = (metrics["numFilesRemoved"], metrics["numFilesAdded"])
        if labels:
            # The last batch now reads the compacted versions (the same rows); earlier ones,
            # their own. Recorded before any file is removed, so that a compaction killed at
            # any point leaves a manifest whose versions can all be read.
            manifest = manifest.with_versions(manifest.batch, table_versions(folder))
            write_manifest(folder, manifest)
        for label in labels:
            table = open_table(folder / label)
            try:
                unused = table.vacuum(
                    retention_hours=int(retention_hours),
                    dry_run=True,
                    full=True,  # also files no commit ever named (left by a killed sync)
                    enforce_retention_duration=retention_hours >= 168,
                )
            except (DeltaError, OSError) as error:
                raise ArchiveError(
                    f"could not list the unused files of {folder / label}: {error}; the "
                    "compacted tables are recorded, run the compaction again",
                    path=folder / label,
                ) from None
            result.removed[label] = _remove_data_files(folder / label, unused)
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
