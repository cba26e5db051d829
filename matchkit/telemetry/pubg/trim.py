"""Freed memory handed back to the system while a file's tables are made.

A table's events' text and its Arrow chunks are let go once its frame is made; the C library's
allocator (also Arrow's pool for the tables, :data:`matchkit.normalize.ARROW_POOL`) keeps the
freed pages for reuse, but what is made next does not fit the holes the many small pieces leave,
so without a trim the process's memory grows by what was freed. ``malloc_trim`` (glibc) returns
the free pages; it changes no setting of the allocator. Elsewhere (no glibc) nothing is done.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

__all__ = ["trim_freed_memory"]


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _malloc_trim()


def trim_freed_memory() -> None:
    """Hand the allocator's free pages back to the system (glibc; elsewhere nothing)."""
    if _TRIM is not None:
        _TRIM(0)
