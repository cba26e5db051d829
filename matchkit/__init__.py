"""matchkit: fetch, normalize and analyse multiplayer match records from JSON:API services.

The one entry point per job: :class:`Client` fetches (cached, paged, rate-limited),
:func:`to_frames` normalizes documents into :class:`MatchFrames`, :func:`to_telemetry_frames`
turns telemetry files into :class:`TelemetryFrames`, and :func:`serve` /
:func:`create_app` / :func:`running` run the reference service. The analysis, plots and widgets
live in :mod:`matchkit.analysis`, :mod:`matchkit.plots` and :mod:`matchkit.widgets`. Every
error matchkit raises is a :class:`MatchkitError`, every warning it issues a
:class:`MatchkitWarning`.

What you may rely on (``tests/test_public_surface.py`` holds each rule):

- The names of ``matchkit.__all__``, and of each subsystem package's ``__all__`` (the
  ``__init__.py`` of ``matchkit.client``, ``matchkit.analysis``, ...); each one is documented.
- A subsystem's modules are its implementation, internal whether or not their names start with
  ``_``: import their names from the package. A module or name starting with ``_`` is private to
  its subsystem: no module of another subsystem imports it (what two subsystems share is named
  without ``_``, and what a user may share is in the package's ``__all__``).
- The package ships ``py.typed``: the annotations are checked by mypy (``make lint``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matchkit.errors import (
    ArchiveBusyError,
    ArchiveError,
    ArchiveScopeError,
    AuthError,
    CacheError,
    CacheMissError,
    ClusterError,
    DocumentError,
    InvalidArgumentError,
    MatchkitError,
    MatchkitWarning,
    NotFoundError,
    RateLimitError,
    ReportError,
    ServiceError,
    StorageError,
)
from matchkit.lazy import lazy_getattr
from matchkit.model.frames import MatchFrames
from matchkit.normalize.pipeline import to_frames

if TYPE_CHECKING:
    from matchkit.client.client import Client
    from matchkit.service import create_app, running, serve
    from matchkit.telemetry import TelemetryFrames, to_telemetry_frames

__all__ = [
    "ArchiveBusyError",
    "ArchiveError",
    "ArchiveScopeError",
    "AuthError",
    "CacheError",
    "CacheMissError",
    "Client",
    "ClusterError",
    "DocumentError",
    "InvalidArgumentError",
    "MatchFrames",
    "MatchkitError",
    "MatchkitWarning",
    "NotFoundError",
    "RateLimitError",
    "ReportError",
    "ServiceError",
    "StorageError",
    "TelemetryFrames",
    "create_app",
    "running",
    "serve",
    "to_frames",
    "to_telemetry_frames",
]

# Loaded on first use: the client (requests-cache, the rate limiter, tqdm), the service
# (starlette, uvicorn) and telemetry cost import time a notebook that only normalizes need not pay.
__getattr__ = lazy_getattr(
    __name__,
    {
        "matchkit.client": ("Client",),
        "matchkit.service": ("create_app", "running", "serve"),
        "matchkit.telemetry": ("TelemetryFrames", "to_telemetry_frames"),
    },
)
