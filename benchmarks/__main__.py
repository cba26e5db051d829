"""Run every benchmark (benchmarks/bench_*.py), each in its own process, and print its figures.

Each benchmark module has a ``main()`` that prints its measurements, ratios side by side, as
lines of text. A separate process per benchmark keeps peak-memory figures apart. Every
``bench_*.py`` is found here (``bench_pubg_telemetry`` among them); words on the command line
choose those whose names hold one (``python -m benchmarks pubg``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    selected = sys.argv[1:]
    failures = 0
    for module in sorted(HERE.glob("bench_*.py")):
        name = module.stem
        if selected and not any(word in name for word in selected):
            continue
        print(f"== {name}", flush=True)
        result = subprocess.run(
            [sys.executable, "-c", f"from benchmarks.{name} import main; main()"],
            cwd=HERE.parent,
            check=False,
        )
        failures += result.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
