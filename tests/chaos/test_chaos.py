"""The chaos differential suite: seeds of misbehaviour, one invariant.

For every seed (see tests/chaos/harness.py): the frames of a fetch through the faulty proxies
equal those of a fault-free fetch exactly, or a typed ``MatchkitError`` is raised; a fault-free
re-run over the same cache gives the exact truth; the API key never reaches another host; and
no slow, endless or inflating body outlives the client's deadline or fills its memory.

Seeds: ``MATCHKIT_CHAOS_SEEDS`` (default: :data:`BRIEF_SEEDS` in ``make test``, about a minute
on two cores; :data:`DEEP_SEEDS` in ``make test-deep``, see :mod:`tests.depth`), from
``MATCHKIT_CHAOS_FIRST`` (default 0); ``MATCHKIT_CHAOS_SEED=N`` replays seed N alone;
``MATCHKIT_CHAOS_ONLY=entry,entry`` forces the entries of every seed's mix. A failing seed is
listed with its mix and every fault it served.
"""

from __future__ import annotations

import os

import pytest

from tests import depth
from tests.chaos.catalogue import CATALOGUE
from tests.chaos.harness import SeedResult, World, run_seed

BRIEF_SEEDS = 60
DEEP_SEEDS = 5000
CHUNK = 10
"""Seeds per test: each test stays far below pytest's timeout, and -n/-k can split them."""


def _seeds() -> list[range]:
    replay = os.environ.get("MATCHKIT_CHAOS_SEED", "").strip()
    if replay:
        return [range(int(replay), int(replay) + 1)]
    count = depth.count("MATCHKIT_CHAOS_SEEDS", brief=BRIEF_SEEDS, deep=DEEP_SEEDS)
    first = int(os.environ.get("MATCHKIT_CHAOS_FIRST", "") or 0)
    return [range(s, min(s + CHUNK, first + count)) for s in range(first, first + count, CHUNK)]


def _only() -> tuple[str, ...] | None:
    only = tuple(filter(None, os.environ.get("MATCHKIT_CHAOS_ONLY", "").split(",")))
    unknown = sorted(set(only) - set(CATALOGUE))
    if unknown:
        raise pytest.UsageError(f"MATCHKIT_CHAOS_ONLY: {unknown} not in {sorted(CATALOGUE)}")
    return only or None


@pytest.mark.slow
# Each chunk of seeds is a unit of its own: make test spreads them over its workers
# (conftest.py's SPREAD).
@pytest.mark.parametrize("seeds", _seeds(), ids=lambda r: f"seeds-{r.start}-{r.stop - 1}")
def test_chaos_seeds_keep_the_invariant(chaos_world: World, seeds: range) -> None:
    results = [run_seed(chaos_world, seed, only=_only()) for seed in seeds]
    failed = [result for result in results if result.failures]
    if os.environ.get("MATCHKIT_CHAOS_SEED"):
        print("\n" + results[0].describe())  # a replay shows its faults even when it passes
    if failed:
        pytest.fail(_report(failed, len(results)), pytrace=False)
    # Not vacuous: most fetches through the proxies came back (a typed error is allowed, but a
    # client that raised on everything would pass the invariant by doing nothing).
    outcomes = [outcome for result in results for outcome in result.outcomes.values()]
    if len(outcomes) >= 30:
        assert outcomes.count("equal") >= len(outcomes) // 3, outcomes


def _report(failed: list[SeedResult], total: int) -> str:
    seeds = ",".join(str(result.seed) for result in failed)
    return (
        f"{len(failed)} of {total} seeds broke the invariant (failing seeds: {seeds}); replay "
        "one with MATCHKIT_CHAOS_SEED=N pytest tests/chaos/test_chaos.py -s\n\n"
        + "\n\n".join(result.describe() for result in failed)
    )
