"""Sync: append to an archive what the service has and the archive lacks.

A sync runs from the archive's watermark (on the first run: ``start``, else the oldest day the
service keeps) to now, one window (a batch) at a time, through the client: its cache, rate limit
and checks. Each batch goes through these steps, so that a sync killed at any point leaves an
archive the next sync completes with every match exactly once:

1. fetch the window (matches, and telemetry if the scope has it);
2. stage the batch's tables, as they will be stored, under ``DIR/_staging/batch-N`` (an
   atomic write, :mod:`.staging`);
3. record ``pending = N`` (with its window) in ``archive.json``;
4. commit every table, each in one Delta commit carrying the application transaction
   ``(matchkit-archive, N)``, insert-only by key, ``matches`` last (:mod:`.writer`);
5. record the watermark (the window's end), the batch and the tables' versions, clear
   ``pending``, remove the staging folder.

A sync that finds a pending batch commits it from its staging folder first: tables that carry
its transaction already are skipped, the others get it. A staging folder without a pending
batch (killed before step 3) is removed and its window fetched again (from the HTTP cache).
One sync at a time holds the archive's lock; the scope (shard, filters, telemetry) is kept in
``archive.json`` and another is refused unless ``allow_scope_change=True``.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matchkit.archive.layout import FORMAT, locked, read_manifest, write_manifest
from matchkit.archive.staging import clear_staging, read_staged, stage
from matchkit.archive.versions import table_versions
from matchkit.archive.writer import BatchResult, commit_batch, prepare_batch
from matchkit.errors import ArchiveScopeError, InvalidArgumentError
from matchkit.rules.windows import RETENTION, format_time, parse_time

if TYPE_CHECKING:
    from matchkit.client.client import Client

__all__ = ["SyncResult", "check_buckets", "sync"]

DEFAULT_WINDOW = timedelta(days=7)
_FILTERS = ("player_ids", "patch_versions", "server_types", "ranking_type", "player_names",
            "team_names", "game_modes")  # fmt: skip


@dataclass
class SyncResult:
    """What a sync did.

    Attributes:
        path: the archive folder.
        batches: batches committed (a completed pending batch included).
        added: rows added per table over all batches.
        start, end: the range synced (``None`` when there was nothing to sync).
        new_columns: ``table.column`` of each column added to a table (schema evolution).
        absent_columns: ``table.column`` of each column the service no longer sent (kept).
        gaps: ``(start, end)`` ranges the service had already forgotten, never archived.
        resumed: the batch a killed sync had left pending, completed by this one.
        problems: what the normalizer noted in the batches (kept in ``archive.json``).
        notes: what the sync did other than asked (an ignored ``start``).
    """

    path: Path
    batches: int = 0
    added: dict[str, int] = field(default_factory=dict)
    start: datetime | None = None
    end: datetime | None = None
    new_columns: list[str] = field(default_factory=list)
    absent_columns: list[str] = field(default_factory=list)
    gaps: list[tuple[datetime, datetime]] = field(default_factory=list)
    resumed: int | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def _add(self, batch: BatchResult) -> None:
        self.batches += 1
        for name, rows in batch.added.items():
            self.added[name] = self.added.get(name, 0) + rows
        self.new_columns.extend(c for c in batch.new_columns if c not in self.new_columns)
        self.absent_columns.extend(c for c in batch.absent_columns if c not in self.absent_columns)
        self.problems.extend(batch.problems)

    def __str__(self) -> str:
        lines = []
        if self.resumed is not None:
            lines.append(f"completed batch {self.resumed}, left pending by an interrupted sync")
        lines.extend(self.notes)
        if self.start is None or self.end is None:
            lines.append(f"{self.path}: already up to date, nothing added")
        else:
            lines.append(
                f"{self.path}: added {self.added.get('matches', 0):,} matches from "
                f"{format_time(self.start)} to {format_time(self.end)} in {self.batches} batches"
            )
        lines.extend(f"  {name:<30} +{rows:,} rows" for name, rows in self.added.items() if rows)
        lines.extend(f"  new column {c} (added to the table)" for c in self.new_columns)
        lines.extend(
            f"  column {c} not sent by the service any more (kept; empty in new rows)"
            for c in self.absent_columns
        )
        lines.extend(
            f"  gap: matches from {format_time(a)} to {format_time(b)} were no longer served "
            "and are not in the archive"
            for a, b in self.gaps
        )
        if self.problems:
            lines.append(
                f"  {len(self.problems)} notes of the normalizer, kept in archive.json "
                f"(problems), e.g. {self.problems[0]}"
            )
        return "\n".join(lines)


def sync(
    client: Client,
    path: str | Path,
    *,
    start: str | datetime | None = None,
    now: str | datetime | None = None,
    shard: str | None = None,
    telemetry: bool = False,
    window: timedelta = DEFAULT_WINDOW,
    allow_scope_change: bool = False,
    wait: float = 0.0,
    progress: bool | None = None,
    buckets: int | None = None,
    **filters: Any,
) -> SyncResult:
    """Append to the archive in ``path`` what the service has and the archive lacks.

    Args:
        client: the client to fetch through (its shard, cache, rate limit and checks).
        path: the archive folder (created on the first sync).
        start: where a new archive starts (default: the oldest day the service keeps);
            ignored once the archive has a watermark.
        now: where the sync ends (default: the client's now); not later than it.
        shard: the client's shard, when given as a check.
        telemetry: archive each match's telemetry too (part of the scope).
        window: the span of one batch (default 7 days).
        allow_scope_change: sync even though the archive holds another scope.
        wait: seconds to wait for another sync of this archive to finish.
        progress: print a line per batch to standard error (default: the client's setting).
        buckets: how many buckets a new archive splits each month into (default 1; fixed
            when the archive is created, so that a match never moves). Give more for a
            service of more than about 100,000 matches a month, so that a partition, and a
            Dask worker's memory, keeps its size.
        **filters: the filters of :meth:`matchkit.Client.matches` (``server_types``, ...).

    Returns:
        What was added (printable).

    Raises:
        InvalidArgumentError: an argument is invalid (before any request).
        ArchiveScopeError: the archive holds another scope.
        ArchiveBusyError: another sync holds the archive past ``wait`` seconds.
        ArchiveError: the archive cannot be read or written.
        ServiceError and its kin: the service failed (the batches before stay committed).
    """
    folder = Path(path)
    scope = _scope(client, shard, telemetry, filters)
    check_buckets(folder, buckets)
    if not isinstance(window, timedelta) or window <= timedelta(0):
        raise InvalidArgumentError(
            f"window={window!r} must be a positive timedelta", parameter="window"
        )
    client_now = client.now()
    end = client_now if now is None else parse_time(now, parameter="now")
    if end > client_now:
        raise InvalidArgumentError(
            f"now={format_time(end)} is later than the client's now ({format_time(client_now)})",
            parameter="now",
        )
    first = None if start is None else parse_time(start, parameter="start")
    with warnings.catch_warnings():  # the arguments checked as the fetch will check them
        warnings.simplefilter("ignore")
        client.plan(end - timedelta(days=1), end, **scope["filters"])
    if progress is None:
        progress = client.progress
    if folder.exists() and not folder.is_dir():
        raise InvalidArgumentError(f"{folder} is a file, not an archive folder", parameter="path")
    folder.mkdir(parents=True, exist_ok=True)
    with locked(folder, wait=wait):
        check_buckets(folder, buckets)
        return _sync_locked(
            client, folder, scope, first, end, client_now, window, allow_scope_change, progress,
            buckets or 1,
        )  # fmt: skip


def check_buckets(folder: Path, buckets: int | None) -> None:
    """``buckets`` is a whole number >= 1, and the archive's own when it has one."""
    if buckets is None:
        return
    if isinstance(buckets, bool) or not isinstance(buckets, int) or not 1 <= buckets <= 1024:
        raise InvalidArgumentError(
            f"buckets={buckets!r} must be a whole number from 1 to 1024", parameter="buckets"
        )
    manifest = read_manifest(folder) if folder.is_dir() else None
    if manifest is not None and manifest.get("buckets", 1) != buckets:
        raise InvalidArgumentError(
            f"{folder} splits each month into {manifest.get('buckets', 1)} bucket(s), fixed when "
            f"it was created; leave buckets out (--buckets) or give {manifest.get('buckets', 1)}",
            parameter="buckets",
        )


def _scope(client: Client, shard: str | None, telemetry: bool, filters: dict[str, Any]) -> dict:
    if shard is not None and shard != client.shard:
        raise InvalidArgumentError(
            f"shard={shard!r} but the client fetches from {client.shard!r}; build the client "
            f"with shard={shard!r}",
            parameter="shard",
        )
    unknown = sorted(set(filters) - set(_FILTERS))
    if unknown:
        raise InvalidArgumentError(
            f"sync takes the filters {', '.join(_FILTERS)}; not {', '.join(unknown)}",
            parameter=unknown[0],
        )
    kept = {}
    for name, value in sorted(filters.items()):
        if value is None:
            continue
        kept[name] = value if isinstance(value, str) else sorted(str(v) for v in value)
    return {"shard": client.shard, "filters": kept, "telemetry": bool(telemetry)}


def _sync_locked(client, folder, scope, first, end, client_now, window, allow_change, progress,
                 buckets):  # fmt: skip
    manifest = read_manifest(folder)
    source = "embedded sample service" if client.embedded else client.base_url
    if manifest is None:
        manifest = {"format": FORMAT, "scope": scope, "source": source, "batch": 0,
                    "watermark": None, "pending": None, "versions": {}, "gaps": [],
                    "scopes": [], "buckets": buckets}  # fmt: skip
    elif manifest["scope"] != scope:
        if not allow_change:
            raise ArchiveScopeError(
                f"{folder} holds the scope {_shown(manifest['scope'])}; this sync asks for "
                f"{_shown(scope)}. Sync with the archive's scope, or pass "
                "allow_scope_change=True (--change-scope) to continue with the new one from "
                "the watermark",
                path=folder / "archive.json",
                stored=manifest["scope"],
                asked=scope,
            )
        manifest["scopes"].append({"scope": manifest["scope"], "until": manifest["watermark"]})
        manifest["scope"] = scope
    manifest["source"] = source
    result = SyncResult(folder)
    if manifest.get("pending") is not None:
        result.resumed = manifest["pending"]["batch"]
        _resume(folder, manifest, result, progress)
    else:
        clear_staging(folder)
    retention_start = _next_midnight(client_now - RETENTION)
    if manifest["watermark"] is None:
        begin = max(first, client_now - RETENTION) if first is not None else retention_start
    else:
        begin = parse_time(manifest["watermark"])
        if first is not None and first != begin:
            result.notes.append(
                f"start {format_time(first)} ignored: the archive continues from its watermark "
                f"{manifest['watermark']}"
            )
        if begin < client_now - RETENTION:
            gap = (begin, retention_start)
            result.gaps.append(gap)
            manifest["gaps"].append([format_time(gap[0]), format_time(gap[1])])
            begin = retention_start
    if begin >= end:
        write_manifest(folder, manifest)
        return result
    result.start, result.end = begin, end
    moment = begin
    while moment < end:
        stop = min(moment + window, end)
        _batch(client, folder, manifest, scope, moment, stop, result, progress)
        moment = stop
    return result


def _batch(client, folder, manifest, scope, begin, stop, result, progress) -> None:
    batch = manifest["batch"] + 1
    frames = client.matches(begin, stop, **scope["filters"])
    telemetry = None
    if scope["telemetry"] and len(frames):
        telemetry = client.telemetry(frames)
    if len(frames) == 0:
        _finish(folder, manifest, batch, stop, BatchResult(), result, progress, begin)
        return
    prepared = prepare_batch(
        frames.tables,
        telemetry.tables if telemetry is not None else None,
        buckets=manifest.get("buckets", 1),  # fixed when the archive was created
    )
    stage(folder, batch, prepared)
    problems = [*frames.problems, *(telemetry.problems if telemetry is not None else ())]
    manifest["pending"] = {"batch": batch, "start": format_time(begin), "end": format_time(stop),
                           "problems": problems}  # fmt: skip
    write_manifest(folder, manifest)
    done = commit_batch(folder, batch, prepared)
    done.problems = problems
    _finish(folder, manifest, batch, stop, done, result, progress, begin)


def _resume(folder: Path, manifest: dict, result: SyncResult, progress: bool) -> None:
    pending = manifest["pending"]
    done = commit_batch(folder, pending["batch"], read_staged(folder, pending["batch"]))
    done.problems = list(pending.get("problems", ()))
    start, stop = parse_time(pending["start"]), parse_time(pending["end"])
    _finish(folder, manifest, pending["batch"], stop, done, result, progress, start)


def _finish(folder, manifest, batch, stop, done, result, progress, begin) -> None:
    manifest["batch"] = batch
    manifest["watermark"] = format_time(stop)
    manifest["pending"] = None
    manifest["versions"][str(batch)] = table_versions(folder)
    if done.problems:  # what the normalizer noted, kept with the batch (never dropped)
        manifest.setdefault("problems", {})[str(batch)] = done.problems
    write_manifest(folder, manifest)
    clear_staging(folder)
    result._add(done)
    if progress:
        print(
            f"batch {batch}: {format_time(begin)} to {format_time(stop)}: "
            f"+{done.added.get('matches', 0):,} matches",
            file=sys.stderr,
            flush=True,
        )


def _next_midnight(moment: datetime) -> datetime:
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight if midnight == moment else midnight + timedelta(days=1)


def _shown(scope: dict) -> str:
    filters = ", ".join(f"{k}={v}" for k, v in scope["filters"].items()) or "no filters"
    telemetry = "with telemetry" if scope["telemetry"] else "without telemetry"
    return f"[shard {scope['shard']}, {filters}, {telemetry}]"
