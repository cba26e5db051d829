"""Sync: append to an archive what the service has and the archive lacks.

A sync runs from the archive's watermark (on the first run: ``start``, else where the service's
retention begins) to now, one window (a batch) at a time, through the client: its cache, rate
limit and checks. Each batch follows the protocol of :mod:`.batches` (staged, recorded as
pending, committed table by table with ``matches`` last, then recorded as completed), so that a
sync killed at any point leaves an archive the next sync completes with every match exactly
once.

**Late matches.** A service lists a match only once it has ended and been ingested, while its
``created_at`` is its start, so the newest hours are never final. A sync therefore sets the
watermark only where everything before it is final: ``end - settle`` (``settle``, default
:data:`DEFAULT_SETTLE`); the next sync reads the settle period again. Matches are insert-only by
id, so the overlap costs requests, never a duplicate row.

**Gaps.** A sync that reaches the archive after the service has forgotten the days past its
watermark records a gap, from the watermark to where the service's retention begins (the
client's now minus 120 days, to the second), and continues from there.

One sync at a time holds the archive's lock; the scope (profile, shard, filters, telemetry) is
kept in ``archive.json`` and another is refused unless ``allow_scope_change=True``, which starts
a new period of the archive's scope history at its watermark (never another profile: an archive
holds one profile's matches).

**A service without a match list** (the client's profile says so: PUBG) is synced one day of
its clock a batch, from its samples or from players' recent matches (:mod:`.days`).
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from matchkit.archive.batches import (
    commit_new_batch,
    complete_pending,
    finish_batch,
    require_no_stray_batch,
)
from matchkit.archive.days import (
    DayListing,
    DayRange,
    PlayerDays,
    SampleDays,
    day_floor,
    first_whole_day,
)
from matchkit.archive.defaults import DEFAULT_SETTLE, DEFAULT_WINDOW
from matchkit.archive.layout import locked
from matchkit.archive.manifest import ArchiveManifest, read_manifest, write_manifest
from matchkit.archive.result import SyncResult
from matchkit.archive.staging import clear_staging
from matchkit.archive.state import DayRecord, Gap, PendingBatch, Scope
from matchkit.archive.versions import require_whole
from matchkit.archive.writer import BatchResult, OpenTables, prepare_batch
from matchkit.errors import ArchiveScopeError, InvalidArgumentError
from matchkit.rules.profiles import Profile, SamplesRule
from matchkit.rules.windows import RETENTION, format_time, parse_time

if TYPE_CHECKING:
    from matchkit.client.client import Client
    from matchkit.model.frames import MatchFrames

__all__ = [
    "DEFAULT_SETTLE",
    "DEFAULT_WINDOW",
    "SyncRequest",
    "SyncResult",
    "SyncRun",
    "require_buckets",
    "sync",
]

FILTERS = (
    "player_ids",
    "patch_versions",
    "server_types",
    "ranking_type",
    "player_names",
    "team_names",
    "game_modes",
)
"""The filters of :meth:`matchkit.Client.matches` a sync takes (its scope)."""
DAY_FILTERS = ("player_names",)
"""The filters a sync of a service without a match list takes: a player-centred scope."""


@dataclass(frozen=True)
class SyncRequest:
    """What one sync asks, checked before it takes the archive's lock.

    Attributes:
        scope: what it fetches.
        start: where a new archive starts (``None``: where the service's retention begins).
        end: where the sync ends (the client's now, or an earlier ``now=``).
        now: the client's now, from which the service's retention is measured.
        window: the span of one batch.
        settle: the span before ``end`` that is not final yet.
        allow_scope_change: continue with ``scope`` though the archive holds another.
        buckets: how many buckets a new archive splits its months into (``None``: 1).
        progress: print a line per batch to standard error.
        retention: how long the service keeps a match (the client's profile's).
        days: the samples rule whose days are the batches, for a service without a match
            list (:mod:`.days`); ``None``: windows of the match list.
    """

    scope: Scope
    start: datetime | None
    end: datetime
    now: datetime
    window: timedelta = DEFAULT_WINDOW
    settle: timedelta = DEFAULT_SETTLE
    allow_scope_change: bool = False
    buckets: int | None = None
    progress: bool = False
    retention: timedelta = RETENTION
    days: SamplesRule | None = None

    @property
    def retention_start(self) -> datetime:
        """The oldest moment the service still serves (with day batches: the start of the
        oldest day it keeps whole, and whose sample it still lists)."""
        if self.days is None:
            return self.now - self.retention
        oldest = max(self.now - self.retention, self.now - self.days.max_age)
        return first_whole_day(oldest, self.days.refresh)


def sync(
    client: Client,
    path: str | Path,
    *,
    start: str | datetime | None = None,
    now: str | datetime | None = None,
    shard: str | None = None,
    telemetry: bool = False,
    window: timedelta = DEFAULT_WINDOW,
    settle: timedelta = DEFAULT_SETTLE,
    allow_scope_change: bool = False,
    wait: float = 0.0,
    progress: bool | None = None,
    buckets: int | None = None,
    **filters: object,
) -> SyncResult:
    """Append to the archive in ``path`` what the service has and the archive lacks.

    Args:
        client: the client to fetch through (its shard, cache, rate limit, checks and now).
        path: the archive folder (created on the first sync).
        start: where a new archive starts (default: where the service's retention begins);
            ignored once the archive has a watermark. With day batches: its day.
        now: where the sync ends (default: the client's now); not later than it. With day
            batches: the days whose sample may be asked at ``now``, final by ``now``.
        shard: the client's shard, when given as a check.
        telemetry: archive each match's telemetry too (part of the scope).
        window: the span of one batch (default 7 days). A profile without a match list
            (PUBG) has a batch a day of its samples rule (:mod:`.days`) and refuses another.
        settle: how long before ``now`` matches may still be listed late (default 6 hours):
            the watermark stops that far before ``now``, and the next sync reads that span
            again (which costs requests, never a duplicate). A profile without a match list
            has its samples rule's instead (a day is final once its end is 24 hours old).
        allow_scope_change: sync even though the archive holds another scope.
        wait: seconds to wait for another sync of this archive to finish.
        progress: print a line per batch to standard error (default: the client's setting).
        buckets: how many buckets a new archive splits each month into (default 1; fixed
            when the archive is created, so that a match never moves). Give more for a
            service of more than about 100,000 matches a month, so that a partition, and a
            Dask worker's memory, keeps its size.
        **filters: the filters of :meth:`matchkit.Client.matches` (``server_types``, ...);
            on a profile without a match list only ``player_names`` (at most the profile's
            ``player_batch``): a batch is then those players' recent matches of its day.

    Returns:
        What was added (printable).

    Raises:
        InvalidArgumentError: an argument is invalid (before any request).
        ArchiveScopeError: the archive holds another scope, or another profile's matches.
        ArchiveBusyError: another sync holds the archive past ``wait`` seconds.
        ArchiveError: the archive cannot be read or written, or is damaged (naming the file).
        ServiceError and its kin: the service failed (the batches before stay committed).
    """
    folder = Path(path)
    request = checked_request(
        client,
        folder,
        start=start,
        now=now,
        shard=shard,
        telemetry=telemetry,
        window=window,
        settle=settle,
        allow_scope_change=allow_scope_change,
        progress=progress,
        buckets=buckets,
        filters=filters,
    )
    if folder.exists() and not folder.is_dir():
        raise InvalidArgumentError(f"{folder} is a file, not an archive folder", parameter="path")
    folder.mkdir(parents=True, exist_ok=True)
    with locked(folder, wait=wait):
        require_buckets(folder, buckets)
        return SyncRun(client, folder, request).run()


def checked_request(
    client: Client,
    folder: Path,
    *,
    start: str | datetime | None,
    now: str | datetime | None,
    shard: str | None,
    telemetry: bool,
    window: timedelta,
    settle: timedelta,
    allow_scope_change: bool,
    progress: bool | None,
    buckets: int | None,
    filters: dict[str, object],
) -> SyncRequest:
    """The sync's arguments checked, before any request or write."""
    profile = client.profile
    scope = _scope(client, shard, telemetry, filters)
    days = _day_rule(profile, window=window, settle=settle)
    require_buckets(folder, buckets)
    for name, span, least in (("window", window, "positive"), ("settle", settle, "zero or more")):
        if (
            not isinstance(span, timedelta)
            or span < timedelta(0)
            or (name == "window" and span == timedelta(0))
        ):
            raise InvalidArgumentError(
                f"{name}={span!r} must be a {least} timedelta", parameter=name
            )
    client_now = client.now()
    end = client_now if now is None else parse_time(now, parameter="now")
    if end > client_now:
        raise InvalidArgumentError(
            f"now={format_time(end)} is later than the client's now ({format_time(client_now)})",
            parameter="now",
        )
    first = None if start is None else parse_time(start, parameter="start")
    if days is None:
        with warnings.catch_warnings():  # the arguments checked as the fetch will check them
            warnings.simplefilter("ignore")
            client.plan(end - timedelta(days=1), end, **scope.filter_arguments())
    elif first is not None:
        first = day_floor(first, days.refresh)  # a batch is a whole day
    return SyncRequest(
        scope=scope,
        start=first,
        end=end,
        now=client_now,
        window=window,
        settle=settle,
        allow_scope_change=allow_scope_change,
        buckets=buckets,
        progress=client.progress if progress is None else progress,
        retention=profile.retention,
        days=days,
    )


def _day_rule(profile: Profile, *, window: timedelta, settle: timedelta) -> SamplesRule | None:
    """The samples rule whose days are a sync's batches, when ``profile`` has no match list
    (``None`` when it has one: windows of it are the batches).

    Raises:
        InvalidArgumentError: a window or settle period given for day batches, or a profile
            with neither a match list nor samples.
    """
    if profile.match_list:
        return None
    rule = profile.samples
    if rule is None:
        raise InvalidArgumentError(
            f"the {profile.name} profile has neither a match list nor samples: a sync has "
            "nothing to read",
            parameter="profile",
        )
    for name, span, default in (
        ("window", window, DEFAULT_WINDOW),
        ("settle", settle, DEFAULT_SETTLE),
    ):
        if span != default:
            hours = rule.min_age / timedelta(hours=1)
            raise InvalidArgumentError(
                f"{name}={span!r}: on the {profile.name} profile a batch is one day of its "
                f"samples, final once the day's end is {hours:g} hours in the past; leave "
                f"{name} out (--{'window-days' if name == 'window' else 'settle'})",
                parameter=name,
            )
    return rule


def require_buckets(folder: Path, buckets: int | None) -> None:
    """``buckets`` is a whole number >= 1, and the archive's own when it has one.

    Raises:
        InvalidArgumentError: it is not.
    """
    if buckets is None:
        return
    if isinstance(buckets, bool) or not isinstance(buckets, int) or not 1 <= buckets <= 1024:
        raise InvalidArgumentError(
            f"buckets={buckets!r} must be a whole number from 1 to 1024", parameter="buckets"
        )
    manifest = read_manifest(folder) if folder.is_dir() else None
    if manifest is not None and manifest.buckets != buckets:
        raise InvalidArgumentError(
            f"{folder} splits each month into {manifest.buckets} bucket(s), fixed when it was "
            f"created; leave buckets out (--buckets) or give {manifest.buckets}",
            parameter="buckets",
        )


def _scope(client: Client, shard: str | None, telemetry: bool, filters: dict[str, object]) -> Scope:
    if shard is not None and shard != client.shard:
        raise InvalidArgumentError(
            f"shard={shard!r} but the client fetches from {client.shard!r}; build the client "
            f"with shard={shard!r}",
            parameter="shard",
        )
    profile = client.profile
    taken = FILTERS if profile.match_list else DAY_FILTERS
    unknown = sorted(
        name
        for name in filters
        if name not in taken and (name not in FILTERS or filters[name] is not None)
    )
    if unknown:
        raise InvalidArgumentError(
            f"sync takes the filters {', '.join(taken)} on the {profile.name} profile; not "
            f"{', '.join(unknown)}",
            parameter=unknown[0],
        )
    if not profile.match_list and filters.get("player_names") is not None:
        from matchkit.client.players import checked_players

        _, names = checked_players(filters["player_names"], None)
        profile.checked_batch(names, parameter="player_names")
    return Scope.of(client.shard, filters, telemetry=telemetry, profile=profile.name)


class SyncRun:
    """One sync of one archive, under its lock: completes a pending batch, records a gap, then
    fetches and commits its windows one batch at a time.

    Attributes:
        manifest: the archive's state as the run has left it so far.
        result: what it did so far.
    """

    def __init__(self, client: Client, folder: Path, request: SyncRequest) -> None:
        self.client = client
        self.folder = folder
        self.request = request
        self.result = SyncResult(
            folder, day_span=None if request.days is None else request.days.refresh
        )
        self.manifest = self._opened()
        self.tables = OpenTables(folder)  # opened once for all the run's batches

    def run(self) -> SyncResult:
        """Sync to the request's end; what it added."""
        pending = self.manifest.pending
        if pending is not None:  # fetched under the scope it was recorded in: completed first
            self.result.resumed = pending.batch
            self.manifest, done = complete_pending(self.folder, self.manifest, tables=self.tables)
            self._count(pending, done, fetched=None)
        else:
            require_no_stray_batch(self.folder, self.manifest)
            clear_staging(self.folder)  # a batch staged by a sync killed before recording it
        require_whole(self.folder, self.manifest.pinned())  # damage named before any request
        if self.manifest.scope != self.request.scope:  # allowed: checked when it was opened
            self.manifest = self.manifest.with_scope(
                self.request.scope, start=self.manifest.watermark
            )
        begin = self._begin()
        rule = self.request.days
        days = None if rule is None else DayRange.of(rule, begin, self.request.end)
        end = self.request.end if days is None else days.end
        if begin >= end:
            write_manifest(self.folder, self.manifest)
            self.result.watermark = self.manifest.watermark
            return self.result
        self.result.start, self.result.end = begin, end
        self.result.reread_from = self.manifest.synced_to
        if days is not None:
            self._days(days)
        else:
            final = end - self.request.settle
            moment = begin
            while moment < end:
                stop = min(moment + self.request.window, end)
                self._batch(moment, stop, watermark=max(begin, min(stop, final)))
                moment = stop
        self.result.watermark = self.manifest.watermark
        return self.result

    def _opened(self) -> ArchiveManifest:
        """The archive's manifest (a new one for a new archive), whose scope the request may
        continue (its own, or another with ``allow_scope_change``)."""
        request = self.request
        source = "embedded sample service" if self.client.embedded else self.client.base_url
        manifest = read_manifest(self.folder)
        if manifest is None:
            return ArchiveManifest.new(request.scope, source=source, buckets=request.buckets or 1)
        if manifest.scope.profile != request.scope.profile:
            raise ArchiveScopeError(
                f"{self.folder} holds matches of the {manifest.scope.profile} profile; this "
                f"sync is of the {request.scope.profile} profile, whose tables differ. Sync it "
                "into another folder",
                path=self.folder / "archive.json",
                stored=manifest.scope,
                asked=request.scope,
            )
        if manifest.scope != request.scope and not request.allow_scope_change:
            raise ArchiveScopeError(
                f"{self.folder} holds the scope {manifest.scope}; this sync asks for "
                f"{request.scope}. Sync with the archive's scope, or pass "
                "allow_scope_change=True (--change-scope) to continue with the new one from "
                "the watermark",
                path=self.folder / "archive.json",
                stored=manifest.scope,
                asked=request.scope,
            )
        return manifest.with_source(source)

    def _begin(self) -> datetime:
        """Where this sync starts: the watermark (past a gap the service has forgotten), or for
        a new archive its start."""
        request = self.request
        retention_start = request.retention_start
        watermark = self.manifest.watermark
        if watermark is None:
            begin = (
                retention_start if request.start is None else max(request.start, retention_start)
            )
            self.manifest = self.manifest.with_start(begin)
            return begin
        if request.start is not None and request.start != watermark:
            self.result.notes.append(
                f"start {format_time(request.start)} ignored: the archive continues from its "
                f"watermark {format_time(watermark)}"
            )
        if watermark < retention_start:
            gap = Gap(watermark, retention_start)
            self.result.gaps.append(gap)
            self.manifest = self.manifest.with_gap(gap)
            return retention_start
        return watermark

    def _batch(self, begin: datetime, stop: datetime, *, watermark: datetime) -> None:
        """Fetch ``[begin, stop)`` and commit it as the next batch."""
        scope = self.request.scope
        frames = self.client.matches(begin, stop, **scope.filter_arguments())
        self._commit(frames, begin, stop, watermark=watermark)

    def _days(self, days: DayRange) -> None:
        """Fetch each day of ``days`` (its listing, then the matches the archive lacks) and
        commit it as the next batch; the watermark passes the final days only."""
        names = dict(self.request.scope.filters).get("player_names")
        source: DayListing = (
            SampleDays(self.client, self.folder)
            if names is None
            else PlayerDays(self.client, self.folder, [names] if isinstance(names, str) else names)
        )
        span = days.rule.refresh
        sync = self.manifest.batch + 1
        for day in days.days():
            listed, frames = source.fetch(day, span)
            final = days.is_final(day)
            record = DayRecord(
                batch=self.manifest.batch + 1,
                day=day,
                sync=sync,
                synced_at=self.request.now,
                listed=listed,
                added=len(frames),
                final=final,
            )
            self.result.reread += listed - len(frames)
            self._commit(
                frames, day, day + span, watermark=day + span if final else day, day=record
            )
        self.result.notes.extend(source.notes)

    def _commit(
        self,
        frames: MatchFrames,
        begin: datetime,
        stop: datetime,
        *,
        watermark: datetime,
        day: DayRecord | None = None,
    ) -> None:
        """Commit ``frames`` (with their telemetry, when the scope keeps it) as the next
        batch, of the matches of ``[begin, stop)``."""
        client, scope = self.client, self.request.scope
        telemetry = client.telemetry(frames) if scope.telemetry and len(frames) else None
        pending = PendingBatch(
            batch=self.manifest.batch + 1,
            start=begin,
            end=stop,
            watermark=watermark,
            problems=(*frames.problems, *(telemetry.problems if telemetry is not None else ())),
            day=day,
        )
        if len(frames) == 0:
            done = BatchResult()
            self.manifest = finish_batch(self.folder, self.manifest, pending, done)
        else:
            prepared = prepare_batch(
                frames.tables,
                telemetry.tables if telemetry is not None else None,
                buckets=self.manifest.buckets,  # fixed when the archive was created
                telemetry_format=client.profile.telemetry_format,
            )
            self.manifest, done = commit_new_batch(
                self.folder, self.manifest, pending, prepared, tables=self.tables
            )
        self._count(pending, done, fetched=None if day is not None else len(frames))

    def _count(self, pending: PendingBatch, done: BatchResult, *, fetched: int | None) -> None:
        self.result.add(done)
        if pending.day is not None:
            self.result.days.append(pending.day)
        if fetched is not None:
            self.result.reread += fetched - done.added.get("matches", 0)
        if self.request.progress:
            print(
                f"batch {pending.batch}: {format_time(pending.start)} to "
                f"{format_time(pending.end)}: +{done.added.get('matches', 0):,} matches",
                file=sys.stderr,
                flush=True,
            )
