"""Run many seeds of the chaos suite and sort what fails: ``python -m tests.chaos.run``.

    PYTHONPATH=. python -m tests.chaos.run --seeds 1000 [--first 0] [--only gzip_bomb,drop]

Prints every failing seed (its mix, the faults served, what failed), then a table: for each
catalogue entry, the seeds that drew it and how many of them failed each part of the
invariant. The pytest suite (tests/chaos/test_chaos.py) runs the same seeds.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from tests.chaos.catalogue import CATALOGUE
from tests.chaos.harness import SeedResult, open_world, run_seed


def summary(results: list[SeedResult]) -> str:
    """Per catalogue entry: the seeds that drew it, and how many failed each part."""
    drawn: Counter[str] = Counter()
    failed: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        parts = {re.sub(r"^\((\d)\) (\w+).*", r"(\1) \2", f) for f in result.failures}
        for entry in result.mix.entries:
            drawn[entry] += 1
            failed[entry].update(parts)
    lines = [f"{'entry':<28} seeds  failures by part (stage)"]
    for entry in sorted(CATALOGUE):
        counts = ", ".join(f"{part}: {n}" for part, n in sorted(failed[entry].items()))
        lines.append(f"{entry:<28} {drawn[entry]:>5}  {counts or '-'}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--only", default="", help="catalogue entries to force, comma-separated")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    options = parser.parse_args()
    only = tuple(filter(None, options.only.split(","))) or None
    results = []
    with (
        tempfile.TemporaryDirectory(prefix="matchkit-chaos-") as root,
        open_world(Path(root)) as world,
    ):
        started = time.monotonic()
        for seed in range(options.first, options.first + options.seeds):
            result = run_seed(world, seed, only=only)
            results.append(result)
            if result.failures and not options.quiet:
                print(result.describe(), flush=True)
        seconds = time.monotonic() - started
    failing = [r for r in results if r.failures]
    outcomes = Counter(o for r in results for o in r.outcomes.values())
    print(
        f"\n{len(results)} seeds in {seconds:.1f} s ({seconds / len(results):.2f} s a seed); "
        f"{len(failing)} failed; stage outcomes: {dict(outcomes)}"
    )
    slowest = sorted(results, key=lambda r: -r.seconds)[:5]
    print("slowest: " + ", ".join(f"{r.seed} ({r.seconds:.1f} s)" for r in slowest))
    print(summary(results))


if __name__ == "__main__":
    main()
