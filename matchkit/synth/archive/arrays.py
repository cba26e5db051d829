"""Arrow arrays built straight from numpy for the synthetic archive: ids, picks, constants, and
the stored schema of each table (the known columns of MatchFrames, text as ``string``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.archive.convert import SNAPSHOT_LINKS
from matchkit.model.schema import TABLES

__all__ = ["ARROW_TYPES", "const", "hex_ids", "pick", "ragged_arange", "stored_schema"]

ARROW_TYPES = {
    "string": pa.string(),
    "category": pa.string(),
    "Int64": pa.int64(),
    "boolean": pa.bool_(),
    "float64": pa.float64(),
    "datetime": pa.timestamp("us", tz="UTC"),
}
"""The stored Arrow type of each column kind of the model."""


def _pairs(digits: bytes) -> npt.NDArray[np.uint16]:
    """Byte value -> its two hex digits, as one uint16 (in memory order)."""
    pairs = [digits[b >> 4 : (b >> 4) + 1] + digits[b & 15 : (b & 15) + 1] for b in range(256)]
    return np.frombuffer(b"".join(pairs), dtype=np.uint16).copy()


_PAIRS_UPPER = _pairs(b"0123456789ABCDEF")
_PAIRS_LOWER = _pairs(b"0123456789abcdef")


def stored_schema(name: str) -> pa.Schema:
    """The stored Arrow schema of a MatchFrames table with its known columns only."""
    fields = [pa.field(c.name, ARROW_TYPES[c.kind]) for c in TABLES[name].columns]
    if name in SNAPSHOT_LINKS:
        fields += [
            pa.field("match_id", pa.string()),
            pa.field("match_created_at", pa.timestamp("us", tz="UTC")),
        ]
    return pa.schema([*fields, pa.field("month", pa.string())])


def hex_ids(rng: np.random.Generator, n: int, *, lower: bool = False) -> pa.Array:
    """``n`` random 32-digit hex ids, built straight into an Arrow string array."""
    table = _PAIRS_LOWER if lower else _PAIRS_UPPER
    data = table[np.frombuffer(rng.bytes(16 * n), dtype=np.uint8)]
    offsets = np.arange(0, (n + 1) * 32, 32, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data.tobytes()))


def ragged_arange(counts: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """``0..c-1`` for each count ``c``, concatenated."""
    total = int(counts.sum())
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    ranged: npt.NDArray[np.int64] = np.arange(total) - starts
    return ranged


def const(value: str, n: int) -> pa.Array:
    """``n`` times ``value``, as a string array."""
    return pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), pa.array([value])).cast(pa.string())


def pick(
    values: Sequence[str] | npt.NDArray[np.generic], index: npt.NDArray[np.integer]
) -> pa.Array:
    """``values[index]`` as a string array, through a dictionary (no Python strings per row)."""
    dictionary = pa.array(list(values), pa.string())
    return pa.DictionaryArray.from_arrays(pa.array(index, pa.int32()), dictionary).cast(pa.string())
