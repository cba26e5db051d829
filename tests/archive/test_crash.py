"""Syncs killed with SIGKILL at random points, and syncs running at once: the archive ends up
identical to one synced in one go, every match exactly once."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
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
from tests.archive.conftest import NOW_A, assert_same_archive, client_of

REPO = Path(__file__).resolve().parents[2]
START = format_time(parse_time(NOW_A) - timedelta(days=3))
WINDOW_HOURS = 24  # three batches
TRIALS = 20


class ForkServer:
    """tests/archive/sync_child.py running: starts syncs at once, each in a process of its own."""

    def __init__(self, service) -> None:
        env = {**os.environ, "MATCHKIT_API_KEY": service.api_key, "PYTHONPATH": str(REPO)}
        self.service = service
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.archive.sync_child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env,
        )
        assert self._ask(None) == "ready"

    def _ask(self, command: str | None) -> str:
        if command is not None:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def start(self, folder: Path, cache: Path, *, wait: float = 0) -> int:
        """Start a sync of ``folder``; its pid."""
        spec = {"folder": str(folder), "base_url": self.service.base_url, "now": NOW_A,
                "start": START, "window_hours": WINDOW_HOURS, "cache_dir": str(cache),
                "wait": wait}  # fmt: skip
        return int(self._ask("run " + json.dumps(spec)))

    def wait(self, pid: int) -> int:
        """The exit code of sync ``pid`` once it has ended (-9: killed)."""
        return int(self._ask(f"wait {pid}"))

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def forks(service_a) -> Iterator[ForkServer]:
    server = ForkServer(service_a)
    yield server
    server.close()


def sync_here(service, folder: Path, cache: Path) -> archive.SyncResult:
    with client_of(service, cache) as client:
        return archive.sync(client, folder, start=START, window=timedelta(hours=WINDOW_HOURS))


@pytest.fixture(scope="module")
def reference(forks, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, float]:
    """An archive synced in one go, the cache it filled, and how long the sync took."""
    root = tmp_path_factory.mktemp("reference")
    cache = root / "cache"
    forks.wait(forks.start(root / "warm", cache))  # fills the cache
    began = time.monotonic()
    assert forks.wait(forks.start(root / "archive", cache)) == 0
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
        pid = forks.start(folder, cache)
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
    pids = [forks.start(folder, cache, wait=120) for _ in range(2)]
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
