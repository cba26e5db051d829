"""matchkit: fetch, normalize and analyse multiplayer match records from JSON:API services.

The one entry point per job: :class:`Client` fetches (cached, paged, rate-limited) and
:func:`to_frames` normalizes documents into :class:`MatchFrames`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from matchkit.client import Client

__all__ = [
    "AuthError",
    "CacheMissError",
    "Client",
    "DocumentError",
    "InvalidArgumentError",
    "MatchFrames",
    "MatchkitError",
    "NotFoundError",
    "RateLimitError",
    "ServiceError",
    "to_frames",
]


def __getattr__(name: str) -> Any:
    # The client (requests-cache, the rate limiter, tqdm) loads on first use.
    if name == "Client":
        from matchkit.client import Client

        return Client
    raise AttributeError(f"module 'matchkit' has no attribute {name!r}")
