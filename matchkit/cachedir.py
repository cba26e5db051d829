"""Where matchkit keeps what it can make again: ``MATCHKIT_CACHE_DIR``, else the platform's user
cache folder (:func:`cache_root`).

Every cache lives under it: the client's HTTP cache (its own file), the reference service's
stores (``service/``) and the report's API reference (``api-reference/``). Open to every package,
as :mod:`matchkit.errors` is; it imports nothing of matchkit.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_root", "user_cache_root"]


def user_cache_root() -> Path:
    """The platform's user cache folder for matchkit."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("matchkit"))


def cache_root() -> Path:
    """``MATCHKIT_CACHE_DIR`` if set, else :func:`user_cache_root`."""
    configured = os.environ.get("MATCHKIT_CACHE_DIR")
    return Path(configured) if configured else user_cache_root()
