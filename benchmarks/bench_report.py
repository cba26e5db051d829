"""The whole report on the sample set: wall time of `build_report`, cold and warm HTTP cache.

Target (issue 5): under a minute on 2 cores. The cold run starts from an empty HTTP cache and
an empty service store, as a new user's first `make report` does; the warm run is the second.
Each notebook runs in a fresh kernel, so kernel start-up and imports are part of the figure;
two kernels run at a time (`build_report`'s default), so the per-notebook times overlap and add
up to more than the total.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from pathlib import Path

from matchkit.report import ReportPage, build_report

TARGET_SECONDS = 60.0


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for page in sorted(path for path in folder.rglob("*") if path.is_file()):
        digest.update(page.relative_to(folder).as_posix().encode() + page.read_bytes())
    return digest.hexdigest()[:16]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="matchkit-bench-report-") as folder:
        root = Path(folder)
        os.environ["MATCHKIT_CACHE_DIR"] = str(root / "cache")  # kernels inherit it
        os.environ.pop("MATCHKIT_BASE_URL", None)
        figures = []
        for run in ("cold", "warm"):
            pages: list[ReportPage] = []
            started = time.perf_counter()
            index = build_report(out=root / run, on_page=pages.append)
            seconds = time.perf_counter() - started
            figures.append((run, seconds, _digest(index.parent), pages))
        for run, seconds, digest, pages in figures:
            verdict = "ok" if seconds < TARGET_SECONDS else "OVER TARGET"
            each = " / ".join(f"{page.seconds:.1f}" for page in pages)
            print(
                f"report {run:4}: {seconds:6.1f} s for {len(pages)} notebooks "
                f"(target < {TARGET_SECONDS:.0f} s: {verdict}); per notebook {each} s; "
                f"pages sha256 {digest}"
            )
        same = figures[0][2] == figures[1][2]
        print(f"report cold and warm runs byte-identical: {same}")


if __name__ == "__main__":
    main()
