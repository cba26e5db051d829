"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MATCHKIT_SHARED", REPO.parent / "shared"))


def pytest_configure(config: pytest.Config) -> None:
    """Run the suite, and the notebook kernels it starts, on a cache folder of its own.

    The HTTP cache and the service's stores then never mix with the user's (``~/.cache``), and
    every run starts cold as CI does. Tests that need another folder still set their own.
    """
    folder = tempfile.mkdtemp(prefix="matchkit-tests-")
    os.environ["MATCHKIT_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def shared_path(*parts: str) -> Path:
    """A path in ../shared; fails under CI (CI=true) when it is missing, skips elsewhere."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"{path} is missing: clone the project with ../shared beside it"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The recorded real responses in ../shared/samples (never copied into the project)."""
    return shared_path("samples")


@pytest.fixture(scope="module")
def dask_client():
    """A real Dask LocalCluster for the module: 2 worker processes of 1 thread and 1 GiB each
    (matchkit.archive.cluster.client), Dask's default scheduler while it runs.

    Module-scoped, not session-scoped: an idle LocalCluster still spends about 0.18 CPU-seconds
    a second on its heartbeats and system monitors, so one kept open from the first module that
    needs it to the end of the run cost each worker about 150 CPU-seconds, far more than the four
    seconds a start and stop cost each of the two modules that use it (the tests of the cluster
    itself; the other Dask tests run on Dask's threads, where a cluster adds nothing they test)."""
    from matchkit.archive.cluster import SCHEDULER_VARIABLE, client

    if os.environ.get(SCHEDULER_VARIABLE):
        pytest.fail(f"unset {SCHEDULER_VARIABLE}: the tests start their own LocalCluster")
    with client(n_workers=2, memory_limit="1GiB") as started:
        yield started
