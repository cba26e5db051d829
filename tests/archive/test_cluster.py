"""matchkit.archive.cluster.client: a LocalCluster of worker processes with bounded memory, or
the scheduler given by address; what it started it closes, what it did not it leaves running."""

from __future__ import annotations

import os
import socket

import dask
import pytest
from distributed import LocalCluster

from matchkit.archive.cluster import SCHEDULER_VARIABLE, WORKER_ALLOCATOR, client, local_workers
from matchkit.errors import ClusterError, InvalidArgumentError


def _pid() -> int:
    return os.getpid()


def test_the_local_cluster_has_worker_processes_with_bounded_memory(dask_client):
    workers = dask_client.scheduler_info(n_workers=-1)["workers"].values()
    assert [worker["memory_limit"] for worker in workers] == [2**30, 2**30]
    assert [worker["nthreads"] for worker in workers] == [1, 1]
    pids = dask_client.run(_pid)
    assert len(set(pids.values())) == 2
    assert os.getpid() not in pids.values()
    assert dask_client.submit(sum, [1, 2, 3]).result() == 6


def test_a_scheduler_address_is_used_and_left_running(dask_client):
    address = dask_client.scheduler.address
    with client(scheduler=address) as other:
        assert other.scheduler.address == address
        assert other.cluster is None
        assert other.submit(max, [4, 9, 2]).result() == 9
    assert dask_client.submit(min, [4, 9, 2]).result() == 2


def test_the_environment_names_the_scheduler(dask_client, monkeypatch):
    monkeypatch.setenv(SCHEDULER_VARIABLE, dask_client.scheduler.address)
    with client() as other:
        assert other.scheduler.address == dask_client.scheduler.address
        assert other.cluster is None


def test_a_cluster_started_is_closed_on_leaving(monkeypatch):
    monkeypatch.delenv(SCHEDULER_VARIABLE, raising=False)
    with LocalCluster(n_workers=1, processes=False, dashboard_address="127.0.0.1:0") as outside:
        with client(n_workers=1, memory_limit="256MiB") as started:
            cluster = started.cluster
            address = started.scheduler.address
            assert isinstance(cluster, LocalCluster)
            assert address != outside.scheduler_address
            assert started.submit(len, "abc").result() == 3
        assert cluster.status.name == "closed"
        with (
            pytest.raises(ClusterError, match="did not answer") as caught,
            client(scheduler=address, timeout=1),
        ):
            pass
        assert caught.value.address == address


def test_a_scheduler_that_does_not_answer_is_a_typed_error():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    expected = f"{address}.*did not answer.*{SCHEDULER_VARIABLE}"
    with pytest.raises(ClusterError, match=expected), client(scheduler=address, timeout=1):
        pass


@pytest.mark.parametrize("scheduler", ["", "   ", 8786])
def test_a_scheduler_that_is_not_an_address_is_refused(scheduler):
    with (
        pytest.raises(InvalidArgumentError, match="must be an address") as caught,
        client(scheduler=scheduler),
    ):
        pass
    assert caught.value.parameter == "scheduler"


@pytest.mark.parametrize("n_workers", [0, -1, 1.5, True])
def test_a_worker_count_that_is_not_positive_is_refused(n_workers, monkeypatch):
    monkeypatch.delenv(SCHEDULER_VARIABLE, raising=False)
    with pytest.raises(InvalidArgumentError, match="positive integer"), client(n_workers=n_workers):
        pass


def test_the_dashboard_is_on_a_loopback_port_when_asked(monkeypatch):
    monkeypatch.delenv(SCHEDULER_VARIABLE, raising=False)
    with client(n_workers=1, memory_limit="256MiB", dashboard=True) as started:
        link = started.dashboard_link
        assert link.startswith("http://127.0.0.1:")
        assert not link.startswith("http://127.0.0.1:8787/")


def test_one_worker_per_usable_core():
    assert local_workers() == len(os.sched_getaffinity(0))


def _allocator() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in WORKER_ALLOCATOR}


def test_the_workers_allocator_keeps_arrays_on_its_heap(dask_client):
    expected = {name: str(value) for name, value in WORKER_ALLOCATOR.items()}
    assert list(dask_client.run(_allocator).values()) == [expected, expected]


def test_starting_workers_leaves_this_process_environment_and_a_users_allocator(monkeypatch):
    monkeypatch.delenv(SCHEDULER_VARIABLE, raising=False)
    for name in [*WORKER_ALLOCATOR, "PYTHONHASHSEED"]:
        monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    with (
        dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": 0}),
        client(n_workers=1, memory_limit="256MiB") as started,
    ):
        assert dict(os.environ) == before
        worker = next(iter(started.run(_allocator).values()))
    assert worker == {"MALLOC_MMAP_THRESHOLD_": None, "MALLOC_TRIM_THRESHOLD_": "0"}
    assert dask.config.get("distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_") == 65536
