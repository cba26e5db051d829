"""Executing the report's notebooks two at a time: pages in the given order, failures named."""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.report import NOTEBOOKS
from matchkit.report._execute import RUN_FIRST, _start_order, default_jobs, execute_all


def notebook(path: Path, *sources: str) -> Path:
    node = new_notebook()
    node.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    node.cells = [new_markdown_cell(f"# {path.stem}")] + [new_code_cell(s) for s in sources]
    nbformat.write(node, path)
    return path


def timed(path: Path, log: Path, seconds: float, *, until: Path | None = None) -> Path:
    """A notebook that records when it ran (monotonic clock, shared by the kernels): it sleeps
    ``seconds``, or, with ``until``, waits for that file to exist (at most a minute)."""
    if until is None:
        wait = f"time.sleep({seconds})\n"
    else:
        wait = (
            "import os\n"
            "deadline = started + 60\n"
            f"while not os.path.exists({str(until)!r}) and time.monotonic() < deadline:\n"
            "    time.sleep(0.05)\n"
        )
    record = (
        f"with open({str(log)!r}, 'a') as out:\n"
        f"    out.write(json.dumps([{path.stem!r}, started, time.monotonic()]) + '\\n')\n"
        f"print({path.stem!r})"
    )
    source = "import json, time\nstarted = time.monotonic()\n" + wait + record
    return notebook(path, source)


def read_runs(log: Path) -> dict[str, tuple[float, float]]:
    """Notebook name -> (start, end) as the timed notebooks wrote them."""
    return {
        name: (start, end) for name, start, end in map(json.loads, log.read_text().splitlines())
    }


def test_two_kernels_run_at_once_and_pages_come_back_in_order(tmp_path: Path) -> None:
    log = tmp_path / "ran.jsonl"
    paths = [timed(tmp_path / "slow.ipynb", log, 4), timed(tmp_path / "quick.ipynb", log, 0)]
    executed = list(execute_all(paths, dict(os.environ), jobs=2))
    assert [item.path for item in executed] == paths
    assert [item.notebook.cells[1].outputs[0]["text"] for item in executed] == ["slow\n", "quick\n"]
    assert all(item.seconds > 0 for item in executed)
    assert executed[0].seconds > 4
    runs = read_runs(log)
    slow, quick = runs["slow"], runs["quick"]
    assert quick[0] < slow[1]  # the quick notebook ran while the slow one slept
    assert quick[1] < slow[1]


def test_one_job_runs_one_kernel_at_a_time(tmp_path: Path) -> None:
    log = tmp_path / "ran.jsonl"
    paths = [timed(tmp_path / "first.ipynb", log, 1), timed(tmp_path / "second.ipynb", log, 0)]
    executed = list(execute_all(paths, dict(os.environ), jobs=1))
    assert [item.path for item in executed] == paths
    runs = read_runs(log)
    assert runs["first"][1] <= runs["second"][0]


def test_a_failing_notebook_is_named_and_the_rest_are_cancelled(tmp_path: Path) -> None:
    log = tmp_path / "ran.jsonl"
    paths = [
        notebook(tmp_path / "broken.ipynb", "raise ValueError('planted failure')"),
        timed(tmp_path / "after1.ipynb", log, 0),
        timed(tmp_path / "after2.ipynb", log, 0),
        timed(tmp_path / "after3.ipynb", log, 0),
    ]
    with pytest.raises(MatchkitError, match=r"(?s)broken\.ipynb failed: .*planted failure"):
        list(execute_all(paths, dict(os.environ), jobs=1))
    ran = [json.loads(line)[0] for line in log.read_text().splitlines()] if log.exists() else []
    # With one kernel, at most the notebook it took up as the failure came in ran after it.
    assert set(ran) <= {"after1"}


def test_the_longest_notebooks_start_first_and_jobs_are_checked() -> None:
    # In the report's order (RUN_FIRST's last first), started in RUN_FIRST's order.
    paths = [Path(name) for name in ("01-a.ipynb", "02-b.ipynb", *reversed(RUN_FIRST))]
    assert _start_order(paths) == [4, 3, 2, 0, 1]
    assert set(RUN_FIRST) <= set(NOTEBOOKS)  # a renamed notebook would no longer start first
    assert default_jobs() == (1 if (os.cpu_count() or 1) < 2 else 3)
    for jobs in (0, -1, 1.5, True):
        with pytest.raises(InvalidArgumentError, match="jobs="):
            list(execute_all(paths, {}, jobs=jobs))  # type: ignore[arg-type]


def test_then_takes_a_free_slot_once_every_notebook_has_started(tmp_path: Path) -> None:
    """The API reference waits for a free kernel slot: with two slots and three notebooks, it
    starts only after the third notebook started, and the iterator ends when it is done."""
    import time

    log = tmp_path / "ran.jsonl"
    signal = tmp_path / "then-ran"  # the first notebook runs until `then` has run (a minute at
    # most): it ends before `then` starts only if `then` waited for it, however slow the machine
    paths = [
        timed(tmp_path / "first.ipynb", log, 0, until=signal),
        timed(tmp_path / "second.ipynb", log, 0),
        timed(tmp_path / "third.ipynb", log, 0),
    ]
    then_ran: list[tuple[float, float]] = []

    def then() -> None:
        started = time.monotonic()
        signal.touch()
        then_ran.append((started, time.monotonic()))

    executed = list(execute_all(paths, dict(os.environ), jobs=2, then=then))
    finished = time.monotonic()
    assert [item.path for item in executed] == paths
    runs = read_runs(log)
    [(then_start, then_end)] = then_ran
    assert then_end <= finished
    assert then_start >= runs["third"][0]  # not a third process beside two kernels
    assert then_start < runs["first"][1]  # but in the slot the short notebooks freed


def test_a_failing_then_is_raised_after_the_notebooks(tmp_path: Path) -> None:
    paths = [notebook(tmp_path / "only.ipynb", "print(1)")]

    def then() -> None:
        raise MatchkitError("planted pdoc failure")

    results = execute_all(paths, dict(os.environ), jobs=2, then=then)
    assert next(results).path == paths[0]
    with pytest.raises(MatchkitError, match="planted pdoc failure"):
        next(results)
