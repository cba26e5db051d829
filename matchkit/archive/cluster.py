"""Where Dask computes an archive's analyses: a distributed scheduler, or a local cluster.

:func:`client` gives a :class:`distributed.Client`. With ``scheduler=`` (or the environment
variable ``MATCHKIT_DASK_SCHEDULER``) it connects to that scheduler, so the same notebook runs
on a cluster; otherwise it starts a :class:`distributed.LocalCluster` of worker processes with
bounded memory each, and closes it on leaving. Its logs are quiet (warnings and errors only)
for as long as it runs; the process's logging is left as it was.

Example:
    >>> from matchkit.archive.cluster import client  # doctest: +SKIP
    >>> with client():  # doctest: +SKIP
    ...     side_win_rates(archive, by="server_type")
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from matchkit.errors import ClusterError, InvalidArgumentError

__all__ = ["DEFAULT_MEMORY_LIMIT", "SCHEDULER_VARIABLE", "client", "local_workers"]

#: The environment variable naming a scheduler's address (``tcp://host:8786``).
SCHEDULER_VARIABLE = "MATCHKIT_DASK_SCHEDULER"
#: The memory each local worker may use before Dask spills, pauses and restarts it.
DEFAULT_MEMORY_LIMIT = "1GiB"
#: Seconds to wait for a scheduler to answer.
CONNECT_TIMEOUT = 10.0
#: glibc's allocator in each local worker: arrays up to 32 MiB come from the heap, which keeps
#: up to 64 MiB free at its top (glibc's own limits when it tunes itself). Dask's nanny sets
#: ``MALLOC_TRIM_THRESHOLD_=65536`` instead, so that a worker's memory shrinks at once, and
#: setting any threshold stops glibc tuning the others: every array over 128 KiB was then
#: mapped afresh, its pages zeroed one by one, and unmapped when freed. That took a quarter to
#: a third of the telemetry analyses' time on an archive of 1M matches (queue_times 1.11 ->
#: 0.82 s, deciding_rounds 3.7 -> 2.6 s), for the same peak memory per worker.
WORKER_ALLOCATOR = {"MALLOC_MMAP_THRESHOLD_": 32 * 2**20, "MALLOC_TRIM_THRESHOLD_": 64 * 2**20}


def local_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def client(
    scheduler: str | None = None,
    *,
    n_workers: int | None = None,
    memory_limit: str | int = DEFAULT_MEMORY_LIMIT,
    dashboard: bool = False,
    timeout: float = CONNECT_TIMEOUT,
) -> Iterator[Any]:
    """A Dask client for the block: to ``scheduler``, else to a LocalCluster started for it.

    Args:
        scheduler: a scheduler's address (``"tcp://10.0.0.5:8786"``); None reads
            ``MATCHKIT_DASK_SCHEDULER``, and when that is unset or empty a LocalCluster starts.
        n_workers: the LocalCluster's worker processes (one thread each); default: one per
            core.
        memory_limit: the memory of each local worker (``"1GiB"``; Dask's units).
        dashboard: serve the LocalCluster's dashboard on a free loopback port
            (``client.dashboard_link``); off by default.
        timeout: seconds to wait for ``scheduler`` to answer.

    Yields:
        The :class:`distributed.Client`, also Dask's default scheduler inside the block.

    Raises:
        InvalidArgumentError: ``scheduler`` or ``n_workers`` is not usable.
        ClusterError: the scheduler did not answer within ``timeout`` seconds.
    """
    from distributed import Client

    address = _address(scheduler)
    if address is not None:
        try:
            connected = Client(address, timeout=timeout)
        except (OSError, TimeoutError) as error:
            source = "scheduler=" if scheduler else SCHEDULER_VARIABLE
            raise ClusterError(
                f"the Dask scheduler at {address} (from {source}) did not answer: {error}; "
                f"start it, or unset {SCHEDULER_VARIABLE} to compute on this machine",
                address=address,
            ) from error
        with connected:
            yield connected
        return
    with _local_cluster(n_workers, memory_limit, dashboard) as cluster, Client(cluster) as local:
        yield local


def _address(scheduler: str | None) -> str | None:
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise InvalidArgumentError(
            f"scheduler={scheduler!r} must be an address such as 'tcp://host:8786', or None "
            "for a local cluster",
            parameter="scheduler",
        )
    address = scheduler or os.environ.get(SCHEDULER_VARIABLE, "")
    return address.strip() or None


def _local_cluster(n_workers: int | None, memory_limit: str | int, dashboard: bool) -> Any:
    from distributed import LocalCluster

    workers = local_workers() if n_workers is None else n_workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgumentError(
            f"n_workers={n_workers!r} must be a positive integer", parameter="n_workers"
        )
    with _workers_environment():
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=memory_limit,
            host="127.0.0.1",
            # The scheduler's HTTP server (health checks; the dashboard when asked) listens on
            # a free loopback port, never on a fixed one that another cluster may hold.
            dashboard_address="127.0.0.1:0",
            scheduler_kwargs={"dashboard": dashboard},
            silence_logs=logging.WARNING,
        )


@contextmanager
def _workers_environment() -> Iterator[None]:
    """While the local workers start: they start with Dask's environment for them
    (``distributed.nanny.pre-spawn-environ``), with :data:`WORKER_ALLOCATOR` in place of Dask's
    default for the allocator (a user's own setting is kept). Each nanny sets that environment
    in this process to spawn its worker; this process's environment is put back as it was."""
    import dask

    key = "distributed.nanny.pre-spawn-environ"
    environment = dict(dask.config.get(key, default=None) or {})
    dask_default = str(environment.get("MALLOC_TRIM_THRESHOLD_")) == "65536"
    if dask_default and "MALLOC_MMAP_THRESHOLD_" not in environment:
        environment.update(WORKER_ALLOCATOR)
    before = dict(os.environ)
    try:
        with dask.config.set({key: environment}):
            yield
    finally:
        for name in set(os.environ) - set(before):
            del os.environ[name]
        os.environ.update(before)
