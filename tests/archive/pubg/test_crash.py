"""PUBG syncs killed with SIGKILL at random points: the next sync completes the archive into
the one a sync in one go writes, every sampled match exactly once (the harness of
``tests/archive/test_crash.py``, with day batches)."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import matchkit.archive as archive
from matchkit.archive.manifest import read_manifest
from tests import depth
from tests.archive.conftest import assert_same_archive
from tests.archive.forks import ForkServer
from tests.archive.pubg.conftest import SHARD, archived_ids, client_at, sampled, set_now

NOW = "2026-11-12T00:00:00Z"
START = "2026-11-09T00:00:00Z"  # three day batches: 11-09, 11-10 and 11-11 (open)
TRIALS = depth.count("MATCHKIT_PUBG_KILL_TRIALS", brief=3, deep=30)


@pytest.fixture(scope="module")
def forks(pubg_double) -> Iterator[ForkServer]:
    server = ForkServer(pubg_double)
    yield server
    server.close()


def start(forks: ForkServer, folder: Path, cache: Path) -> int:
    """This module's sync of ``folder`` in a process of its own; its pid."""
    return forks.start(
        folder, cache, now=NOW, start=START, window_hours=None, profile="pubg", shard=SHARD
    )


@pytest.fixture(scope="module")
def reference(pubg_double, forks, tmp_path_factory) -> tuple[Path, Path, float]:
    """An archive synced in one go, the cache it filled, and how long the sync took."""
    set_now(pubg_double, NOW)
    root = tmp_path_factory.mktemp("reference")
    cache = root / "cache"
    assert forks.wait(start(forks, root / "warm", cache)) == 0  # fills the cache
    began = time.monotonic()
    assert forks.wait(start(forks, root / "archive", cache)) == 0
    return root / "archive", cache, time.monotonic() - began


def test_killed_syncs_are_completed_by_the_next_into_an_identical_archive(
    pubg_double, forks, reference, tmp_path: Path
) -> None:
    expected, cache, seconds = reference
    assert read_manifest(expected).batch == 3  # type: ignore[union-attr]
    truth = sampled(pubg_double, START, "2026-11-11T00:00:00Z", now=NOW)
    assert sorted(archived_ids(expected)) == sorted(truth)
    rng = random.Random(35)
    killed = 0
    for trial in range(TRIALS):
        set_now(pubg_double, NOW)
        folder = tmp_path / str(trial)
        pid = start(forks, folder, cache)
        time.sleep(rng.uniform(0.1 * seconds, 0.9 * seconds))
        os.kill(pid, signal.SIGKILL)
        code = forks.wait(pid)
        manifest = read_manifest(folder)
        if code == -signal.SIGKILL and (manifest is None or manifest.batch < 3):
            killed += 1
        with client_at(pubg_double, NOW, cache) as client:
            archive.sync(client, folder, start=START)
        assert_same_archive(folder, expected)
        manifest = read_manifest(folder)
        assert manifest is not None
        assert manifest.pending is None
        assert not (folder / "_staging").exists()
        ids = archived_ids(folder)
        assert len(ids) == len(set(ids))
        assert set(ids) == truth
    assert killed >= 1, killed  # the test tests something
