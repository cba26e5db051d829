"""The archive's chaos (issue 34, item 8): seeded plans of syncs, kills of syncs and compactions,
compactions, pauses past the retention, scope changes and damaged files, under each seed's client
clock skew (up to 12 h either way, the client given no now=) and the service's ingestion delay
(decision 20), one invariant (see
``tests/chaos/archive_harness.py``): after a last clean sync, the archive holds the truth of its
scope history that the service listed up to its final-up-to, once each, except what a recorded
gap names, late-listed matches included; a ClockSkewWarning when the skew is over a minute; every
view of it is whole after
every stage; a damaged file is an ArchiveError naming it.

Seeds: ``MATCHKIT_ARCHIVE_CHAOS_SEEDS`` (:data:`BRIEF_SEEDS` in ``make test``, about a minute of
CPU; :data:`DEEP_SEEDS` in ``make test-deep``, :mod:`tests.depth`),
from ``MATCHKIT_ARCHIVE_CHAOS_FIRST`` (default 0); ``MATCHKIT_ARCHIVE_CHAOS_SEED=N`` replays seed
N alone. The longer run: ``PYTHONPATH=. python -m tests.chaos.archive_run --seeds 1000``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import depth
from tests.chaos.archive_harness import ArchiveWorld, open_archive_world, run_archive_seed

BRIEF_SEEDS = 4
DEEP_SEEDS = 300


@pytest.fixture(scope="module")
def archive_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ArchiveWorld]:
    with open_archive_world(tmp_path_factory.mktemp("archive-chaos")) as world:
        yield world


def _seeds() -> list[int]:
    replay = os.environ.get("MATCHKIT_ARCHIVE_CHAOS_SEED", "").strip()
    if replay:
        return [int(replay)]
    count = depth.count("MATCHKIT_ARCHIVE_CHAOS_SEEDS", brief=BRIEF_SEEDS, deep=DEEP_SEEDS)
    first = int(os.environ.get("MATCHKIT_ARCHIVE_CHAOS_FIRST", "") or 0)
    return list(range(first, first + count))


@pytest.mark.slow
@pytest.mark.parametrize("seed", _seeds())
def test_an_archive_keeps_the_truth_through_chaos(archive_world: ArchiveWorld, seed: int) -> None:
    result = run_archive_seed(archive_world, seed)
    print("\n" + result.describe())
    if result.failures:
        pytest.fail(
            f"{result.describe()}\n\nreplay it with MATCHKIT_ARCHIVE_CHAOS_SEED={seed} pytest "
            "tests/chaos/test_archive_chaos.py -s",
            pytrace=False,
        )
    assert result.matches > 0  # not vacuous: the archive holds matches
