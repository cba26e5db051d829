"""Run many seeds of the archive's chaos and sort what happened (``tests.chaos.archive_run``).

    PYTHONPATH=. python -m tests.chaos.archive_run --seeds 1000 [--first 0] [--quiet]

Prints every failing seed (its plan, each stage's outcome, what failed), then the figures: seeds,
stages run by kind, the seeds' conditions (clock skew, ingestion delay), the matches listed late
and the syncs that warned of the skew, the seeds that ended in the exact truth (with and without
recorded gaps), the typed errors the damaged files gave, and the failures. The pytest suite
(``tests/chaos/test_archive_chaos.py``) runs the first seeds of the same plans.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.chaos.archive_catalogue import STAGES
from tests.chaos.archive_harness import ArchiveSeedResult, open_archive_world, run_archive_seed


def summary(results: list[ArchiveSeedResult], seconds: float) -> str:
    """The figures of a run."""
    stages: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    skews: Counter[str] = Counter(result.conditions.skew_kind for result in results)
    delays: Counter[str] = Counter(result.conditions.ingestion_delay for result in results)
    for result in results:
        stages.update(stage.kind for stage in result.plan[: len(result.outcomes)])
        outcomes[result.outcome] += 1
    typed = sum(
        1
        for result in results
        for stage, outcome in zip(result.plan, result.outcomes, strict=False)
        if stage.kind == "damage" and "ArchiveError" in outcome
    )
    cpu = sum(result.cpu_seconds for result in results)
    lines = [
        f"{len(results)} seeds in {seconds:.0f} s wall, {cpu:.0f} CPU-s "
        f"({cpu / max(1, len(results)):.1f} CPU-s a seed)",
        f"stages run: {sum(stages.values())} "
        + "("
        + ", ".join(f"{kind} {stages[kind]}" for kind in STAGES if stages[kind])
        + ")",
        "clock skew: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(skews.items()))
        + f" seeds ({sum(r.skew_warnings for r in results)} clean syncs warned of it); "
        "ingestion delay: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(delays.items()))
        + f" seeds; {sum(r.late for r in results)} matches listed late, each archived",
        f"exact truth: {outcomes['exact']} seeds; exact but the recorded gaps: "
        f"{outcomes['exact but the gaps']}; failed: {outcomes['failed']}",
        f"typed errors: {typed} damaged files, each an ArchiveError naming it from open, info, "
        "compact and sync",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="only the failures and the summary")
    options = parser.parse_args()
    results = []
    with (
        tempfile.TemporaryDirectory(prefix="matchkit-archive-chaos-") as root,
        open_archive_world(Path(root)) as world,
    ):
        started = time.monotonic()
        for seed in range(options.first, options.first + options.seeds):
            result = run_archive_seed(world, seed)
            results.append(result)
            if result.failures or not options.quiet:
                print(result.describe(), flush=True)
        seconds = time.monotonic() - started
    print()
    print(summary(results, seconds))


if __name__ == "__main__":
    main()
