"""The normalized model: the tables and their columns (schema), MatchFrames, and Parquet.

Its public name is :class:`MatchFrames` (also ``matchkit.MatchFrames``), loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matchkit.lazy import lazy_getattr

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["MatchFrames"]

# Lazy: the schema is read where pandas need not be imported yet (the service, the rules).
__getattr__ = lazy_getattr(__name__, {"matchkit.model.frames": ("MatchFrames",)})
