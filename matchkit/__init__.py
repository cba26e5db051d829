"""matchkit: fetch, normalize and analyse multiplayer match records from JSON:API services.

The one entry point per job: :func:`to_frames` normalizes documents into :class:`MatchFrames`.
"""

from __future__ import annotations

from matchkit.errors import (
    AuthError,
    CacheMissError,
    DocumentError,
    InvalidArgumentError,
    MatchkitError,
    NotFoundError,
    RateLimitError,
    ServiceError,
)
from matchkit.frames import MatchFrames
from matchkit.normalize import to_frames

__all__ = [
    "AuthError",
    "CacheMissError",
    "DocumentError",
    "InvalidArgumentError",
    "MatchFrames",
    "MatchkitError",
    "NotFoundError",
    "RateLimitError",
    "ServiceError",
    "to_frames",
]
