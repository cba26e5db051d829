"""Issue 11, item 19: ``matchkit fetch`` aborted with exit 134 after writing its output.

"terminate called without an active exception", no Python frame, in about 1 run of 10 (3 of
10 here, under load). The cause, from a core caught under gdb: ``write_frames`` wrote each
partitioned table with ``pyarrow.dataset.write_dataset``, which runs the write as an Acero plan
on Arrow's thread pools. The plan reports completion before its last task closure is destroyed,
so a pool worker could drop the last reference to a buffer wrapping pandas' (NumPy) memory
*after* the call returned. Releasing such a buffer takes the GIL; when the interpreter was
already finalizing (``fetch`` exits right after writing), ``PyGILState_Ensure`` ends the thread
with ``pthread_exit``, whose forced unwind through that (noexcept) destructor calls
``std::terminate``.

The fix writes every file on the calling thread (``pyarrow.parquet.write_table``), so no Arrow
thread exists to outlive the call. The first test checks that property directly (it fails on
the old code every time); the second runs the path that crashed many times in a row (4 in
``make test``, 100 in ``make test-deep``: :mod:`tests.depth`).
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import depth

REPO = Path(__file__).resolve().parents[2]

# Normalize a few matches over several days, then write them: the code path of `matchkit
# fetch` after its requests. It exits right after writing, as `fetch` does.
_WRITE = """
import os, sys
from matchkit import to_frames
from tests.builders.resources import arena, page

def threads():
    return sorted(os.listdir("/proc/self/task"))

frames = to_frames(page(*(
    arena(f"m{n}", created_at=f"2026-10-{10 + n % 7:02d}T12:00:00Z") for n in range(20)
)))
before = threads()
frames.to_parquet(sys.argv[1])
after = threads()
print(len(before), len(after))
"""


def _write(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _WRITE, str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_writing_parquet_starts_no_thread_that_outlives_the_call(tmp_path: Path) -> None:
    """No Arrow worker (nor any other thread) is started by the write in a fresh process."""
    done = _write(tmp_path / "out")
    assert done.returncode == 0, done.stderr
    before, after = map(int, done.stdout.split())
    assert before >= 1
    assert after == before, f"the write started {after - before} threads"
    assert (tmp_path / "out" / "_matchkit.json").is_file()


RUNS = depth.count("MATCHKIT_EXIT_RUNS", brief=4, deep=100)


@pytest.mark.slow
@pytest.mark.timeout(1200)  # 100 interpreters (deep): about a minute on two quiet cores
def test_many_writes_in_a_row_exit_cleanly(tmp_path: Path) -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(_write, [tmp_path / f"out{n}" for n in range(RUNS)]))
    failed = [
        (n, run.returncode, run.stderr[-300:]) for n, run in enumerate(runs) if run.returncode
    ]
    assert failed == []
    assert not any("terminate called" in run.stderr for run in runs)
    assert all((tmp_path / f"out{n}" / "_matchkit.json").is_file() for n in range(RUNS))
