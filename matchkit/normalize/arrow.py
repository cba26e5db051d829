"""Arrow calls of the normalizer and the telemetry reader, all allocating from one pool.

Every Arrow allocation of :mod:`matchkit.normalize` and :mod:`matchkit.telemetry` comes from
:data:`ARROW_POOL`: through the helpers here, or by passing it to the call. Arrow's default
pool is never set: that would change the whole process.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "ARROW_POOL",
    "compared",
    "filled",
    "filtered",
    "missing",
    "nulls",
    "string_array",
    "take",
]

ARROW_POOL = pa.system_memory_pool()
"""The C library's allocator. Arrow's default pool (mimalloc) returns freed memory to the
system soon after it is freed, so each batch's arrays, each join of chunks and each conversion
would fault fresh pages in again (huge pages the kernel zeroes): system time and peak memory
both grow. With the C library's allocator the freed pages are reused (the figures, measured on
``make bench``'s normalizer pages, are in ``docs/benchmarks.md``)."""


def nulls(count: int, arrow_type: pa.DataType | None = None) -> pa.Array:
    """``count`` missing values (of Arrow's null type unless ``arrow_type`` is given)."""
    return pa.nulls(count, arrow_type, memory_pool=ARROW_POOL)


def filtered(array: pa.Array, mask: pa.Array) -> pa.Array:
    """The values where ``mask`` is true."""
    return pc.filter(array, mask, memory_pool=ARROW_POOL)


def take(array: pa.Array, positions: pa.Array | np.ndarray) -> pa.Array:
    """The values at ``positions`` (integers; null where a position is null)."""
    if isinstance(positions, np.ndarray):
        positions = pa.array(positions, type=pa.int64())  # numpy's memory, not copied
    return pc.take(array, positions, memory_pool=ARROW_POOL)


def compared(comparison: Any, left: Any, right: Any) -> pa.Array:
    """An Arrow comparison (``pc.equal``, ``pc.not_equal``, ...) of ``left`` and ``right``, a
    missing result as false."""
    result = comparison(left, right, memory_pool=ARROW_POOL)
    return pc.coalesce(result, False, memory_pool=ARROW_POOL)


def missing(array: pa.Array) -> np.ndarray:
    """Where the values are missing, as numpy."""
    return pc.is_null(array, memory_pool=ARROW_POOL).to_numpy(zero_copy_only=False)


def filled(array: pa.Array, value: Any) -> np.ndarray:
    """The values as numpy, a missing one as ``value``."""
    whole = pc.coalesce(array, pa.scalar(value, array.type), memory_pool=ARROW_POOL)
    return whole.to_numpy(zero_copy_only=False)


def string_array(text: pa.Array) -> pd.arrays.ArrowStringArray:
    """pandas' text array of an Arrow text array (pandas holds text as ``large_string``: cast
    here, in :data:`ARROW_POOL`)."""
    return pd.arrays.ArrowStringArray(text.cast(pa.large_string(), memory_pool=ARROW_POOL))
