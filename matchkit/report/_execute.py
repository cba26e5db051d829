"""Execute the report's notebooks: each in a fresh kernel, up to ``jobs`` kernels at a time.

Each kernel talks over local sockets (IPC), not TCP, so that ipykernel prints no warning about
unencrypted TCP. Several notebooks run at once (one kernel a core, two by default), the
longest first (:data:`RUN_FIRST`), and come back in the order they were given: the pages and
their outputs do not depend on which kernel finished first.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matchkit.errors import ReportError
from matchkit.rules.checks import checked_whole_number

__all__ = [
    "CELL_TIMEOUT",
    "RUN_FIRST",
    "Executed",
    "as_committed",
    "default_jobs",
    "execute",
    "execute_all",
]

#: Seconds one cell may take before the report gives up on its notebook.
CELL_TIMEOUT = 600

#: Notebooks (file names) started before the others, longest first (measured: ``make bench``'s
#: report section prints each notebook's time): the PUBG archive with every match's telemetry,
#: the year of two syncs, the telemetry notebook. Started first, each runs beside the rest
#: instead of alone at the end, when the other core has nothing left to do.
RUN_FIRST = (
    "10-pubg-a-match-and-all-of-them.ipynb",
    "08-a-year-of-matches.ipynb",
    "06-telemetry.ipynb",
)

# A logger of its own, outside the logging tree: no handler or level of the process changes.
QUIET_LOG = logging.Logger("matchkit.report.quiet", level=logging.ERROR)

_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Executed:
    """One executed notebook.

    Attributes:
        path: the notebook file.
        notebook: the executed notebook (an ``nbformat`` node).
        seconds: how long its kernel took, start to shutdown (reading it, when it was not
            executed: :func:`as_committed`).
    """

    path: Path
    notebook: Any
    seconds: float


def default_jobs() -> int:
    """Kernels at a time by default: three, or one on a single core.

    One more than the two cores of the machines measured: a kernel leaves its core idle while
    it starts (0.76 s for an empty notebook, 0.37 CPU-s) and while it waits on its service, and
    a third kernel takes up that time. On 2 cores, alternated: the report warm 26.5-28.5 s with
    three against 28.1-29.5 s with two, cold 37.3-38.6 s against 39.0-39.6 s."""
    cores = os.cpu_count() or 1
    return 1 if cores < 2 else 3


def execute(notebook: Any, path: Path, env: Mapping[str, str]) -> Any:
    """Run ``notebook`` (read from ``path``) in a fresh kernel in ``path``'s folder.

    Raises:
        ReportError: a cell failed (the message names the notebook and the cell's error).
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from traitlets.config import Config

    # The kernel manager nbclient creates (and shuts down) talks over IPC sockets, files in a
    # private temporary folder (an absolute path: the kernel runs in the notebook's folder; a
    # short one: socket names are length-bound).
    with tempfile.TemporaryDirectory(prefix="mk-kernel-") as sockets:
        transport = {"transport": "ipc", "ip": str(Path(sockets) / "kernel")}
        client = NotebookClient(
            notebook,
            timeout=CELL_TIMEOUT,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
            config=Config({"KernelManager": transport}),
        )
        client.log = QUIET_LOG  # nbclient narrates every step at INFO; keep its errors only
        try:
            client.execute(env=dict(env))
        except CellExecutionError as error:
            message = _ANSI_ESCAPE.sub("", str(error))
            raise ReportError(f"{path.name} failed: {message}") from None
    return notebook


def _timed(path: Path, env: Mapping[str, str]) -> Executed:
    import nbformat

    started = time.perf_counter()
    notebook = execute(nbformat.read(path, as_version=4), path, env)
    return Executed(path, notebook, time.perf_counter() - started)


def _start_order(paths: Sequence[Path]) -> list[int]:
    """The indexes of ``paths`` in the order to start them: :data:`RUN_FIRST`'s in its order,
    then the others in theirs."""
    first = sorted(
        (index for index, path in enumerate(paths) if path.name in RUN_FIRST),
        key=lambda index: RUN_FIRST.index(paths[index].name),
    )
    return first + [index for index in range(len(paths)) if index not in first]


def execute_all(
    paths: Sequence[Path],
    env: Mapping[str, str],
    *,
    jobs: int | None = None,
    then: Callable[[], object] | None = None,
) -> Iterator[Executed]:
    """Execute ``paths``, up to ``jobs`` at a time (default :func:`default_jobs`).

    Yields each executed notebook in the order of ``paths``, as soon as it and every one before
    it are done. Stopping early (a failed notebook, the caller breaking off) cancels the
    notebooks not started yet and waits for the running ones.

    ``then`` (the report's API reference) takes the first kernel slot free once every notebook
    has started, and the last notebook is yielded only when it has returned: run beside two
    kernels on two cores it slowed all three, while at the end one core waits for the last
    notebook. The iterator ends when it has returned, and raises its exception, if any.

    Raises:
        InvalidArgumentError: ``jobs`` is not a whole number >= 1.
        ReportError: a notebook failed (the first in ``paths`` order).
    """
    if jobs is None:
        jobs = default_jobs()
    jobs = checked_whole_number(
        jobs, parameter="jobs", message=f"jobs={jobs!r} must be a whole number >= 1", low=1
    )
    futures: dict[int, Future[Executed]] = {}
    after: Future[object] | None = None
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="matchkit-report") as pool:
        try:
            for index in _start_order(paths):
                futures[index] = pool.submit(_timed, paths[index], env)
            after = pool.submit(then) if then is not None else None
            for index in range(len(paths)):
                yield futures[index].result()
            if after is not None:
                after.result()
        finally:
            for future in futures.values():
                future.cancel()
            if after is not None:
                after.cancel()


def as_committed(
    paths: Sequence[Path], *, then: Callable[[], object] | None = None
) -> Iterator[Executed]:
    """The notebooks as committed, with the outputs saved in them; no kernel runs.

    The stand-in for :func:`execute_all` when the committed outputs are known to be what a run
    gives (the test suite's nbval runs every notebook of the report and compares its outputs
    with the committed ones). ``then`` runs after the last notebook is read, as there.
    """
    import nbformat

    for path in paths:
        started = time.perf_counter()
        notebook = nbformat.read(path, as_version=4)
        yield Executed(path, notebook, time.perf_counter() - started)
    if then is not None:
        then()
