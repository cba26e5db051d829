"""The normalizer's Arrow memory comes from ``ARROW_POOL``, not from Arrow's default pool.

The default pool (mimalloc) returned freed memory to the system soon after it was freed, and
every run faulted it back in (see ``ARROW_POOL`` in ``matchkit/normalize/columns.py``). What is
left in the default pool is pandas' own work on the finished columns (a few kilobytes per
table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pyarrow as pa

from matchkit import to_frames
from matchkit.normalize.columns import ARROW_POOL
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
