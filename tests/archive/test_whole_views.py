"""Every view of an archive is whole (issue 34, item 4), as a property over seeded sequences of
syncs, compactions, and kills of either (SIGKILL at a random moment, in a process of its own):
after every step, no lazy table of the archive holds a row whose match is not in ``matches``;
at the end, every version it records is whole too (or, compacted away, a typed error naming the
missing file); and a last clean sync gives the matches of a sync in one go.

``MATCHKIT_WHOLE_SEEDS=N`` runs N seeds (3 in ``make test``, 50 in ``make test-deep``:
:mod:`tests.depth`).
"""

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
from matchkit.rules.windows import format_time, parse_time
from tests import depth
from tests.archive.conftest import NOW_A, client_of
from tests.archive.forks import ForkServer
from tests.archive.states import every_version_whole, orphans

SEEDS = depth.count("MATCHKIT_WHOLE_SEEDS", brief=3, deep=50)
STEPS = 6
START = format_time(parse_time(NOW_A) - timedelta(days=4))
OPERATIONS = ("sync", "kill a sync", "compact", "kill a compaction", "compact to the latest")


@pytest.fixture(scope="module")
def forks(service_a) -> Iterator[ForkServer]:
    server = ForkServer(service_a)
    yield server
    server.close()


@pytest.fixture(scope="module")
def one_go(service_a, tmp_path_factory: pytest.TempPathFactory) -> tuple[set[str], Path]:
    """The match ids of a sync in one go to NOW_A, and the cache it filled."""
    root = tmp_path_factory.mktemp("one-go")
    with client_of(service_a, root / "cache") as client:
        archive.sync(client, root / "archive", start=START)
    return set(archive.open(root / "archive").matches["match_id"].compute()), root / "cache"


def run_step(forks: ForkServer, folder: Path, cache: Path, rng: random.Random, step: str) -> None:
    now = format_time(parse_time(NOW_A) - timedelta(hours=rng.choice([0, 6, 30, 60])))
    if step.startswith("compact"):
        hours = 0 if step == "compact to the latest" else 168
        code = forks.wait(forks.compact(folder, retention_hours=hours))
        assert code == 0 or not (folder / "archive.json").exists()  # nothing to compact yet
        return
    if step == "sync":
        assert forks.wait(forks.start(folder, cache, now=now, start=START, window_hours=24)) == 0
        return
    began = time.monotonic()
    pid = (
        forks.start(folder, cache, now=now, start=START, window_hours=24)
        if step == "kill a sync"
        else forks.compact(folder)
    )
    time.sleep(rng.uniform(0, 1.5))
    os.kill(pid, signal.SIGKILL)
    forks.wait(pid)
    assert time.monotonic() - began < 60


@pytest.mark.parametrize("seed", range(SEEDS))
def test_no_lazy_table_ever_holds_a_row_of_a_match_not_in_matches(
    service_a, forks: ForkServer, one_go, tmp_path: Path, seed: int
) -> None:
    expected, cache = one_go
    rng = random.Random(seed)
    folder = tmp_path / "archive"
    steps = [rng.choice(OPERATIONS) for _ in range(STEPS)]
    for number, step in enumerate(steps):
        run_step(forks, folder, cache, rng, step)
        if (folder / "archive.json").exists():
            assert orphans(archive.open(folder)) == {}, (seed, number, steps)
    with client_of(service_a, cache) as client:
        archive.sync(client, folder, start=START)
    assert every_version_whole(folder) == {}, (seed, steps)
    ids = archive.open(folder).matches["match_id"].compute()
    assert ids.is_unique
    assert set(ids) == expected, (seed, steps)
