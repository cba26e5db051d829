"""Syncs killed with SIGKILL at random points, and syncs running at once: the archive ends up
identical to one synced in one go, every match exactly once."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

import matchkit.archive as archive
from matchkit.archive.layout import locked
from matchkit.archive.manifest import read_manifest
from matchkit.errors import ArchiveBusyError
from matchkit.rules.windows import format_time, parse_time
from tests import depth
from tests.archive.conftest import NOW_A, assert_same_archive, client_of
from tests.archive.forks import ForkServer

START = format_time(parse_time(NOW_A) - timedelta(days=3))
WINDOW_HOURS = 24  # three batches
TRIALS = depth.count("MATCHKIT_KILL_TRIALS", brief=8, deep=100)
"""SIGKILL trials: 8 in ``make test`` (each about 2.5 s: a sync killed at a random moment of its
three batches, then the next), 100 in ``make test-deep`` (:mod:`tests.depth`)."""


@pytest.fixture(scope="module")
def forks(service_a) -> Iterator[ForkServer]:
    server = ForkServer(service_a)
    yield server
    server.close()


def start(forks: ForkServer, folder: Path, cache: Path, *, wait: float = 0) -> int:
    """Start this module's sync of ``folder`` in a process of its own; its pid."""
    return forks.start(folder, cache, now=NOW_A, start=START, window_hours=WINDOW_HOURS, wait=wait)


def sync_here(service, folder: Path, cache: Path) -> archive.SyncResult:
    with client_of(service, cache) as client:
        return archive.sync(client, folder, start=START, window=timedelta(hours=WINDOW_HOURS))


@pytest.fixture(scope="module")
def reference(forks, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, float]:
    """An archive synced in one go, the cache it filled, and how long the sync took."""
    root = tmp_path_factory.mktemp("reference")
    cache = root / "cache"
    forks.wait(start(forks, root / "warm", cache))  # fills the cache
    began = time.monotonic()
    assert forks.wait(start(forks, root / "archive", cache)) == 0
    return root / "archive", cache, time.monotonic() - began


def test_killed_syncs_are_completed_by_the_next_into_an_identical_archive(
    service_a, forks, reference, tmp_path: Path
) -> None:
    expected, cache, seconds = reference
    batches = read_manifest(expected).batch
    assert batches == 3
    rng = random.Random(27)
    killed = 0
    for trial in range(TRIALS):
        folder = tmp_path / str(trial)
        pid = start(forks, folder, cache)
        time.sleep(rng.uniform(0, seconds))
        os.kill(pid, signal.SIGKILL)
        code = forks.wait(pid)
        manifest = read_manifest(folder)
        if code == -signal.SIGKILL and (manifest is None or manifest.batch < batches):
            killed += 1
        sync_here(service_a, folder, cache)
        assert_same_archive(folder, expected)
        manifest = read_manifest(folder)
        # One batch more when the killed sync had finished: the next reads the settle period
        # again (adding nothing, as assert_same_archive shows).
        assert manifest.batch in (batches, batches + 1)
        assert manifest.pending is None
        assert not (folder / "_staging").exists()
        assert archive.open(folder).matches["match_id"].compute().is_unique
    # Most kills landed before the sync had finished (the test tests something).
    assert killed >= TRIALS // 2, killed


def test_two_syncs_at_once_one_waits_and_nothing_is_duplicated(
    forks, reference, tmp_path: Path
) -> None:
    expected, cache, _ = reference
    folder = tmp_path / "archive"
    pids = [start(forks, folder, cache, wait=120) for _ in range(2)]
    assert [forks.wait(pid) for pid in pids] == [0, 0]
    assert_same_archive(folder, expected)
    assert archive.open(folder).matches["match_id"].compute().is_unique


def test_a_sync_while_another_holds_the_archive_is_refused(service_a, reference, tmp_path):
    _, cache, _ = reference
    folder = tmp_path / "archive"
    folder.mkdir()
    with locked(folder), pytest.raises(ArchiveBusyError, match="another process"):
        sync_here(service_a, folder, cache)
    assert read_manifest(folder) is None  # nothing was written
    sync_here(service_a, folder, cache)  # once the lock is free
    with locked(folder), pytest.raises(ArchiveBusyError):
        archive.compact(folder)
