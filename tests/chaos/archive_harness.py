"""The archive's chaos harness: a seed's plan (:mod:`tests.chaos.archive_catalogue`) run against
the reference service, and the invariant checked after a last clean sync.

**The world** (one per session): a data set of two 120-day periods back to back (480 matches
over 240 days, so that a pause can outlast the retention), the reference service started at
each moment a plan's clock reaches (its store built once), the fork server that runs the syncs
and compactions a stage kills (``tests/archive/sync_child.py``), and the truth: every match of
the data set, normalized from its documents.

**The conditions** of a seed (:func:`tests.chaos.archive_catalogue.draw_conditions`): the
service runs with the seed's ingestion delay, and every client (in this process and in the
forked syncs) is given no ``now=`` but a machine clock skewed from the service's by the seed's
skew; it must take the service's now from its answers. Every clean sync in this process records
the :class:`ClockSkewWarning`: one is given when the skew is over a minute, none otherwise.

**The invariant.** After every stage the archive's current view is whole (no row of a lazy
table whose match is not in ``matches``). After the plan and a last clean sync at the plan's
final moment, every version the archive records is whole (or, compacted away, a typed error
naming the missing file), and the archive holds, exactly once each, the matches of its scope
history: every match created since its start and before the archive's ``final up to`` (the
last sync's now minus its settle period) that the service listed at the last sync's moment (the
service's own rule: :mod:`matchkit.service.ingestion`) and that passes the scope of the last
scope period covering it is there, a match listed late (after an earlier sync had passed its
``createdAt``) too, except those a recorded gap names (the service no longer held them), and
no match is there that passes no scope covering it or that the service did not list. Each
match-owned table (rosters, participants, rounds, round participants, assets) holds exactly
the truth's rows of those matches; every player of its participants has a snapshot. A damaged
file is an ArchiveError naming it, from open, info, compact and sync alike.
Anything else is a failure of the seed.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import resource
import shutil
import signal
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import dask
import orjson
import pandas as pd

import matchkit
import matchkit.archive as archive
from matchkit.archive.manifest import read_manifest
from matchkit.client.client import Client
from matchkit.client.warnings import ClockSkewWarning
from matchkit.errors import ArchiveError, MatchkitError
from matchkit.model.frames import MatchFrames
from matchkit.rules.windows import format_time, parse_time
from matchkit.service import RunningService, running
from matchkit.service.ingestion import IngestionDelay, match_draw
from tests.archive.forks import ForkServer
from tests.archive.states import every_version_whole, orphans_in_files
from tests.chaos.archive_catalogue import (
    SCOPES,
    Conditions,
    Stage,
    draw_conditions,
    draw_plan,
)

__all__ = ["ArchiveSeedResult", "ArchiveWorld", "open_archive_world", "run_archive_seed"]

PERIODS = (("a", 21, "2026-11-01T00:00:00Z"), ("b", 22, "2027-03-01T00:00:00Z"))
MATCHES_PER_PERIOD = 240
FIRST_NOW = parse_time("2026-07-24T00:00:00Z")
"""The plan's clock starts here (20 days into the first period); the archive starts 3 days
before."""
OWNED = {
    "rosters": ["roster_id", "match_id", "side", "won", "score"],
    "participants": ["participant_id", "match_id", "roster_id", "player_id", "actor", "kills"],
    "rounds": ["round_id", "match_id", "ordinal", "duration", "winning_team"],
    "round_participants": ["round_id", "participant_id", "match_id"],
    "assets": ["asset_id", "match_id"],
}
"""The match-owned tables compared with the truth, by the columns every service renders alike
(an asset's URL names the host that served it)."""


@dataclass
class ArchiveWorld:
    """What every seed shares."""

    root: Path
    documents: Path
    stores: Path
    forks: ForkServer
    truth: MatchFrames

    @contextlib.contextmanager
    def service_at(
        self, moment: datetime, *, ingestion_delay: str = "off"
    ) -> Iterator[RunningService]:
        """The reference service, its clock at ``moment``, listing matches late by
        ``ingestion_delay`` (decision 20)."""
        with running(
            data=self.documents,
            now=moment,
            store_dir=self.stores,
            ingestion_delay=ingestion_delay,
        ) as service:
            yield service


@contextlib.contextmanager
def open_archive_world(root: Path) -> Iterator[ArchiveWorld]:
    """Write the data set, read the truth from its documents, start the fork server."""
    from matchkit.synth import write_dataset

    documents = root / "documents"
    documents.mkdir(parents=True)
    lines: list[bytes] = []
    for name, seed, as_of in PERIODS:
        options = {"matches": MATCHES_PER_PERIOD, "na_matches": 1, "as_of": as_of, "days": 120}
        write_dataset(root / name, seed=seed, **options)
        shutil.copy(root / name / "global.jsonl.gz", documents / f"{name}.jsonl.gz")
        with gzip.open(root / name / "global.jsonl.gz", "rb") as handle:
            lines.extend(line for line in handle if line.strip())
    truth = matchkit.to_frames([orjson.loads(line) for line in lines])
    forks = ForkServer()
    try:
        yield ArchiveWorld(root, documents, root / "stores", forks, truth)
    finally:
        forks.close()


@dataclass
class ArchiveSeedResult:
    """What one seed did and found."""

    seed: int
    plan: list[Stage]
    conditions: Conditions = field(default_factory=Conditions)
    outcomes: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    gaps: int = 0
    matches: int = 0
    late: int = 0
    """Matches in the archive that the service listed late: after an earlier sync had passed
    their ``createdAt``."""
    skew_warnings: int = 0
    """The clean syncs in this process that gave a ClockSkewWarning."""
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def outcome(self) -> str:
        """``failed``, ``exact`` (the truth, every match), or ``exact but the gaps``."""
        if self.failures:
            return "failed"
        return "exact but the gaps" if self.gaps else "exact"

    def describe(self) -> str:
        lines = [
            f"seed {self.seed}: {self.outcome} ({self.seconds:.1f} s, {self.matches} matches, "
            f"{self.late} listed late, {self.gaps} gaps; {self.conditions}, "
            f"{self.skew_warnings} syncs warned of it)"
        ]
        outcomes = [*self.outcomes, *["not run"] * (len(self.plan) - len(self.outcomes))]
        lines.extend(
            f"  {stage}: {outcome}" for stage, outcome in zip(self.plan, outcomes, strict=True)
        )
        lines.extend(f"  FAILED {failure}" for failure in self.failures)
        return "\n".join(lines)


class _Seed:
    """One seed's run: its clock, its archive, its scope, and the stages."""

    def __init__(self, world: ArchiveWorld, seed: int, root: Path) -> None:
        self.world = world
        self.root = root
        self.folder = root / "archive"
        self.cache = root / "cache"
        self.now = FIRST_NOW
        self.start = FIRST_NOW - timedelta(days=3)
        self.scope = 0
        self.result = ArchiveSeedResult(seed, draw_plan(seed), draw_conditions(seed))
        self.conditions = self.result.conditions
        self.synced_at: list[datetime] = []
        """The moments of the syncs run so far (clean or killed)."""

    def run(self) -> ArchiveSeedResult:
        for number, stage in enumerate(self.result.plan):
            try:
                self.result.outcomes.append(self._stage(stage))
            except Exception as error:  # a failure of the seed, reported
                self.result.outcomes.append(f"raised {type(error).__name__}")
                self.result.failures.append(f"stage {number} {stage}: {_shown(error)}")
                return self.result
            if (self.folder / "archive.json").exists():
                found = orphans_in_files(self.folder)
                if found:
                    self.result.failures.append(f"stage {number} {stage}: orphan rows {found}")
                    return self.result
        try:
            self.now += timedelta(days=1)
            self._sync(window_hours=48)
            self._check()
        except Exception as error:  # a failure of the seed, reported
            self.result.failures.append(f"the last clean sync or its check: {_shown(error)}")
        return self.result

    # -- stages ---------------------------------------------------------------------------

    def _stage(self, stage: Stage) -> str:
        if stage.kind in ("sync", "pause", "scope_change"):
            self.now += stage.advance
            if stage.kind == "scope_change":
                self.scope = stage.scope
            result = self._sync(
                window_hours=stage.window_hours, change=stage.kind == "scope_change"
            )
            return f"+{result.added.get('matches', 0)} matches" + (
                f", gap {result.gaps[0]}" if result.gaps else ""
            )
        if stage.kind == "killed_sync":
            self.now += stage.advance
            self.synced_at.append(self.now)
            with self._service() as service:
                pid = self.world.forks.start(
                    self.folder,
                    self.cache,
                    now=None,
                    machine_clock=self._machine_clock(),
                    start=self._start(),
                    window_hours=stage.window_hours,
                    base_url=service.base_url,
                    api_key=service.api_key,
                    filters=SCOPES[self.scope],
                )
                return self._kill(pid, stage.kill_after)
        if stage.kind in ("compact", "killed_compact"):
            if not (self.folder / "archive.json").exists():
                return "no archive yet"
            if stage.kind == "compact":
                archive.compact(self.folder, retention_hours=stage.retention_hours)
                return "compacted"
            pid = self.world.forks.compact(self.folder, retention_hours=stage.retention_hours)
            return self._kill(pid, stage.kill_after)
        if stage.kind == "damage":
            return self._damage(stage.damage)
        raise AssertionError(f"stage {stage.kind} is not switched on in this harness")

    def _start(self) -> str:
        return format_time(self.start)

    def _service(self) -> contextlib.AbstractContextManager[RunningService]:
        return self.world.service_at(self.now, ingestion_delay=self.conditions.ingestion_delay)

    def _machine_clock(self) -> float:
        """The client machine's clock: the service's now plus the seed's skew, stopped there
        (the service's clock is pinned too, so that the two differ by the skew exactly)."""
        return (self.now + self.conditions.skew).timestamp()

    def _sync(
        self, *, window_hours: int, change: bool = False, damaged: bool = False
    ) -> archive.SyncResult:
        self.synced_at.append(self.now)
        machine_clock = self._machine_clock()
        with (
            self._service() as service,
            Client(
                service.base_url,
                api_key=service.api_key,
                cache_dir=self.cache,
                rate_limit="off",
                progress=False,
                clock=lambda: machine_clock,
            ) as client,
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always", ClockSkewWarning)
            result = archive.sync(
                client,
                self.folder,
                start=self.start,
                window=timedelta(hours=window_hours),
                allow_scope_change=change,
                **SCOPES[self.scope],
            )
        if not damaged:  # a sync of a damaged archive raises before it asks anything
            self._check_warned([w for w in caught if issubclass(w.category, ClockSkewWarning)])
        return result

    def _check_warned(self, given: list[warnings.WarningMessage]) -> None:
        skewed = abs(self.conditions.skew) > timedelta(minutes=1)
        if skewed and not given:
            raise AssertionError(f"no ClockSkewWarning for a skew of {self.conditions.skew}")
        if not skewed and given:
            raise AssertionError(
                f"a ClockSkewWarning for a skew of {self.conditions.skew}: {given[0].message}"
            )
        self.result.skew_warnings += bool(given)

    def _kill(self, pid: int, after: float) -> str:
        time.sleep(after)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        code = self.world.forks.wait(pid)
        if code not in (0, -signal.SIGKILL):
            raise AssertionError(f"the process ended with {code} (see its traceback above)")
        return "killed" if code == -signal.SIGKILL else "finished before the kill"

    def _damage(self, kind: str) -> str:
        if not (self.folder / "archive.json").exists():
            return "no archive yet"
        backup = self.root / "backup"
        shutil.rmtree(backup, ignore_errors=True)
        shutil.copytree(self.folder, backup)
        damaged = DAMAGE[kind](self.folder)
        try:
            for action, run in self._readers_and_writers().items():
                try:
                    run()
                except ArchiveError as error:
                    if Path(str(error.path)) != damaged or str(damaged) not in str(error):
                        raise AssertionError(
                            f"{action} named {error.path}, not the damaged {damaged}: {error}"
                        ) from None
                else:
                    raise AssertionError(f"{action} of an archive with {kind} did not raise")
        finally:
            shutil.rmtree(self.folder)
            shutil.copytree(backup, self.folder)
        return f"{damaged.relative_to(self.folder)}: ArchiveError naming it x4, restored"

    def _readers_and_writers(self) -> dict[str, Callable[[], object]]:
        return {
            "open": lambda: archive.open(self.folder),
            "info": lambda: archive.info(self.folder),
            "compact": lambda: archive.compact(self.folder),
            "sync": lambda: self._sync(window_hours=24, damaged=True),
        }

    # -- the invariant --------------------------------------------------------------------

    def _check(self) -> None:
        failures = self.result.failures
        found = every_version_whole(self.folder, lazy=False)
        if found:
            failures.append(f"versions with orphan rows: {found}")
        manifest = read_manifest(self.folder)
        assert manifest is not None
        self.result.gaps = len(manifest.gaps)
        opened = archive.open(self.folder)
        frames = opened.to_frames()
        ids = frames.matches["match_id"]
        self.result.matches = len(ids)
        if not ids.is_unique:
            failures.append(f"{int(ids.duplicated().sum())} matches twice")
        truth = self.world.truth.matches
        created = truth["created_at"]
        final = manifest.watermark
        assert final is not None
        assert final <= self.now
        delay = IngestionDelay.parse(self.conditions.ingestion_delay)
        in_range = truth[(created >= self.start) & (created < self.now)]
        required, allowed, late = set(), set(), set()
        for row in in_range.itertuples():
            listed_at = _listed_at(row, delay)
            if listed_at > self.now:  # not listed yet: the service never showed it
                continue
            if any(row.created_at < moment < listed_at for moment in self.synced_at[:-1]):
                late.add(row.match_id)
            if row.created_at >= final:  # not final yet: may be there, need not be
                for period in manifest.scopes:
                    if _passes(row, period.scope.filter_arguments()):
                        allowed.add(row.match_id)
                continue
            covering = [
                period
                for period in manifest.scopes
                if (period.start or self.start) <= row.created_at
                and (period.end is None or row.created_at < period.end)
            ]
            gone = any(gap.start <= row.created_at < gap.end for gap in manifest.gaps)
            if covering and _passes(row, covering[-1].scope.filter_arguments()) and not gone:
                required.add(row.match_id)
            if any(_passes(row, period.scope.filter_arguments()) for period in covering):
                allowed.add(row.match_id)
        have = set(ids)
        self.result.late = len(late & have)
        if late & required - have:
            failures.append(f"{len(late & required - have)} matches listed late missing")
        if required - have:
            failures.append(f"{len(required - have)} matches missing, e.g. {min(required - have)}")
        if have - allowed:
            failures.append(
                f"{len(have - allowed)} matches not of the scope: {min(have - allowed)}"
            )
        for name, columns in OWNED.items():
            got = _rows(frames.tables[name], columns)
            want = _rows(self.world.truth.tables[name], columns, ids=have)
            if not got.equals(want):
                failures.append(f"{name}: {len(got)} rows, the truth has {len(want)} of them")
        # In this process, and by tasks: a LocalCluster another test left as Dask's default
        # would otherwise plan a P2P shuffle that the synchronous scheduler cannot run.
        with dask.config.set({"scheduler": "sync", "dataframe.shuffle.method": "tasks"}):
            players = set(opened.players["player_id"].compute())
        linked = set(frames.participants["player_id"].dropna())
        if players != linked:
            failures.append(f"players: {len(players ^ linked)} without their snapshot or extra")


def _listed_at(row: Any, delay: IngestionDelay) -> datetime:
    """When the service lists the match of ``row``: the service's own rule (decision 20,
    :mod:`matchkit.service.ingestion`): from its ``createdAt`` when the delay is off, else its
    end (``createdAt`` plus its duration) plus the delay its draw gives."""
    created: datetime = row.created_at
    if delay.from_creation:
        return created
    duration = 0 if pd.isna(row.duration) else int(row.duration)
    return created + timedelta(seconds=duration) + delay.delay(match_draw("global", row.match_id))


def _passes(row: object, filters: dict[str, object]) -> bool:
    for name, value in filters.items():
        column = {"server_types": "server_type", "ranking_type": "ranking_type"}[name]
        values = [value] if isinstance(value, str) else list(value)  # type: ignore[arg-type]
        if str(getattr(row, column)) not in values:
            return False
    return True


def _rows(frame: pd.DataFrame, columns: list[str], ids: set[str] | None = None) -> pd.DataFrame:
    if ids is not None:
        frame = frame[frame["match_id"].isin(ids).to_numpy()]
    rows = frame[columns].astype(str)
    return rows.sort_values(columns).reset_index(drop=True)


def _shown(error: BaseException) -> str:
    if isinstance(error, MatchkitError | AssertionError):
        return f"{type(error).__name__}: {error}"
    return "".join(traceback.format_exception(error)).strip()[-1500:]


# -- damages --------------------------------------------------------------------------------


def _pinned_table(folder: Path) -> tuple[str, int] | None:
    manifest = read_manifest(folder)
    pinned = manifest.pinned() if manifest else {}
    for label in ("participants", "rosters", "matches"):
        if label in pinned:
            return label, pinned[label]
    return None


def _commit(folder: Path, action: Callable[[Path], None]) -> Path:
    found = _pinned_table(folder)
    if found is None:
        return _manifest_not_json(folder)
    label, version = found
    path = folder / label / "_delta_log" / f"{version:020d}.json"
    action(path)
    return path


def _data_file(folder: Path, action: Callable[[Path], None]) -> Path:
    found = _pinned_table(folder)
    files = archive.open(folder).files(found[0]) if found else []
    if not files:
        return _manifest_not_json(folder)
    path = Path(files[-1])
    action(path)
    return path


def _manifest_not_json(folder: Path) -> Path:
    (folder / "archive.json").write_bytes(b'{"format": "matchkit-arch')
    return folder / "archive.json"


def _missing_first_commit(folder: Path) -> Path:
    found = _pinned_table(folder)
    if found is None:
        return _manifest_not_json(folder)
    path = folder / found[0] / "_delta_log" / f"{0:020d}.json"
    path.unlink()
    return path


DAMAGE: dict[str, Callable[[Path], Path]] = {
    "garbage_commit": lambda folder: _commit(folder, lambda p: p.write_bytes(b"garbage{")),
    "emptied_commit": lambda folder: _commit(folder, lambda p: p.write_bytes(b"")),
    "missing_commit": _missing_first_commit,
    "missing_data_file": lambda folder: _data_file(folder, Path.unlink),
    "truncated_data_file": lambda folder: _data_file(
        folder, lambda p: p.write_bytes(p.read_bytes()[:100])
    ),
    "manifest_not_json": _manifest_not_json,
}


def run_archive_seed(world: ArchiveWorld, seed: int) -> ArchiveSeedResult:
    """Run seed ``seed`` in a folder of its own (removed after), and check the invariant."""
    root = world.root / f"seed-{seed}"
    began, cpu = time.monotonic(), _cpu(world)
    try:
        result = _Seed(world, seed, root).run()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result.seconds = time.monotonic() - began
    result.cpu_seconds = _cpu(world) - cpu
    return result


def _cpu(world: ArchiveWorld) -> float:
    """CPU seconds of this process (the service's threads too) and of the forked syncs and
    compactions so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + world.forks.cpu_seconds
