"""The normalizer's Arrow memory comes from ``ARROW_POOL``, not from Arrow's default pool.

The default pool (mimalloc) returned freed memory to the system soon after it was freed, and
every run faulted it back in (see ``ARROW_POOL`` in ``matchkit/normalize/arrow.py``). What is
left in the default pool is pandas' own work on the finished columns (a few kilobytes per
table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchkit import to_frames
from matchkit.normalize.arrow import (
    ARROW_POOL,
    compared,
    filled,
    filtered,
    missing,
    nulls,
    string_array,
    take,
)
from tests.contract.sample_pages import build_pages, sample_documents

DEFAULT_SHARE = 0.05
"""At most this share of the Arrow bytes of a normalization may come from the default pool
(3.3% on the pages below, 100% before)."""


def default_pool_share(run: Callable[[], Any]) -> float:
    """The share of the Arrow bytes allocated while ``run`` runs that the default pool gave."""
    default = pa.default_memory_pool()
    before = default.total_bytes_allocated(), ARROW_POOL.total_bytes_allocated()
    run()
    from_default = default.total_bytes_allocated() - before[0]
    from_ours = ARROW_POOL.total_bytes_allocated() - before[1]
    assert from_default + from_ours > 1_000_000, "too little work to measure"
    return from_default / (from_default + from_ours)


def test_to_frames_allocates_its_arrow_memory_from_its_own_pool() -> None:
    pages = build_pages(sample_documents("global")[:400])
    dicts = [msgspec.json.decode(page) for page in pages]
    for documents in (pages, dicts):  # the typed reader, then the general one
        assert default_pool_share(lambda documents=documents: to_frames(documents)) < DEFAULT_SHARE


def test_the_pool_helpers_read_missing_values_as_they_say() -> None:
    text = pa.array(["a", None, "b"])
    assert compared(pc.equal, text, "a").to_pylist() == [True, False, False]
    assert compared(pc.not_equal, text, "a").to_pylist() == [False, False, True]
    assert take(text, np.array([2, 0])).to_pylist() == ["b", "a"]
    assert take(text, pa.array([1, None], pa.int64())).to_pylist() == [None, None]
    assert filtered(text, pa.array([True, False, True])).to_pylist() == ["a", "b"]
    assert filled(pa.array([4, None]), 0).tolist() == [4, 0]
    assert missing(text).tolist() == [False, True, False]
    empty = nulls(3, pa.string())
    assert (empty.type, empty.null_count) == (pa.string(), 3)
    strings = string_array(text)
    assert strings.dtype == "string"
    assert strings.isna().tolist() == [False, True, False]
