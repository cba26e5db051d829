"""The archive: matches (and telemetry) kept past the service's 120 days, on Delta Lake.

:func:`sync` appends what the service has and the archive lacks (crash-safe, idempotent, one
sync at a time); :func:`open` gives an :class:`Archive` of lazy Dask DataFrames named like the
tables of MatchFrames; :func:`info` and :func:`compact` look after it. ``docs/archive.md``
describes the layout and the protocol. Needs the optional extra ``matchkit[archive]``
(deltalake, dask, distributed); ``matchkit.archive.cluster`` starts the Dask cluster.

Example:
    >>> import matchkit, matchkit.archive  # doctest: +SKIP
    >>> with matchkit.Client() as client:  # doctest: +SKIP
    ...     print(matchkit.archive.sync(client, "archive"))
    >>> archive = matchkit.archive.open("archive")  # doctest: +SKIP
    >>> archive.matches.groupby("server_type").size().compute()  # doctest: +SKIP
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from matchkit.lazy import lazy_getattr

__all__ = [
    "Archive",
    "ArchiveInfo",
    "Gap",
    "Scope",
    "ScopePeriod",
    "SyncResult",
    "compact",
    "info",
    "open",
    "sync",
]

if TYPE_CHECKING:
    from matchkit.archive.maintenance import ArchiveInfo, compact, info
    from matchkit.archive.reader import Archive
    from matchkit.archive.reader import open_archive as open
    from matchkit.archive.result import SyncResult
    from matchkit.archive.state import Gap, Scope, ScopePeriod
    from matchkit.archive.syncing import sync


def _require_archive_packages() -> None:
    """Refuse an archive without its packages, found without importing them: a sync never
    computes with Dask, and ``import dask.dataframe`` costs about 2 CPU-s a process."""
    missing = [name for name in ("deltalake", "dask") if not _installed(name)]
    if missing:
        raise ImportError(
            f"the matchkit archive needs deltalake and dask ({', '.join(missing)} not found): "
            "pip install 'matchkit[archive]'"
        )


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # ValueError: blocked (``sys.modules[name] = None``)
        return False


_lazy = lazy_getattr(
    __name__,
    {
        "matchkit.archive.syncing": ("sync",),
        "matchkit.archive.result": ("SyncResult",),
        "matchkit.archive.state": ("Gap", "Scope", "ScopePeriod"),
        "matchkit.archive.reader": ("Archive", "open_archive"),
        "matchkit.archive.maintenance": ("info", "compact", "ArchiveInfo"),
    },
    before=_require_archive_packages,
)


def __getattr__(name: str) -> object:
    if name == "open":
        return _lazy("open_archive")
    return _lazy(name)
