"""A table's columns as they are read, a batch of events at a time, and the table they make.

Both readers (:mod:`matchkit.telemetry.pubg.typed`, :mod:`matchkit.telemetry.pubg.general`) give
a batch's columns as Python sequences by column name; each becomes one Arrow chunk here
(:func:`arrow_values`). At the end a column's chunks are cast to one type
(:func:`matchkit.normalize.unify`) and converted once to its kind by the normalizer's
:func:`matchkit.normalize.convert`, which reports a value that does not fit (it is missing, and
a line in ``problems``), so that both readers, and any batch size, give identical tables. A
column already of its kind's Arrow type, or all missing, cannot fail to fit: it is made straight
from Arrow's buffers (:func:`pandas_column`, the same array ``convert`` makes), and a table's
frame from its columns' blocks (:func:`frame_of`): for files of a MB, these per-column costs
were most of a file's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.api.internals import create_dataframe_from_blocks

from matchkit.model.schema import Kind, TableSchema, empty_frame
from matchkit.normalize import ARROW_POOL, Problems, convert, nulls, to_arrow, unify
from matchkit.telemetry.columns import utc_micros
from matchkit.telemetry.pubg.objects import LeafKind

__all__ = [
    "TableChunks",
    "arrow_values",
    "constant_text",
    "empty_table",
    "frame_of",
    "pandas_column",
]

_ARROW_TYPES: dict[str, pa.DataType] = {
    "string": pa.large_string(),  # pandas holds text as large_string: no cast at the end
    "json": pa.large_string(),
    "Int64": pa.int64(),
    "float64": pa.float64(),
    "boolean": pa.bool_(),
}


def arrow_values(values: Sequence[Any], kind: LeafKind | None) -> pa.Array:
    """One chunk of a column: values the typed reader checked to be of ``kind`` (or ``None``)
    converted directly; anything else (``kind=None``: the general reader's values, or an integer
    beyond 64 bits) by the normalizer's :func:`matchkit.normalize.to_arrow`, which infers."""
    if kind is not None:
        try:
            return pa.array(values, _ARROW_TYPES[kind], memory_pool=ARROW_POOL)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
            pass
    return to_arrow(values)


def constant_text(value: str, count: int) -> pd.arrays.ArrowStringArray:
    """A text column of one value (a match id), made in Arrow."""
    one = pa.array([value], pa.large_string(), memory_pool=ARROW_POOL)
    array = pc.take(one, pa.array(np.zeros(count, dtype=np.int64)), memory_pool=ARROW_POOL)
    return pd.arrays.ArrowStringArray(array)


class TableChunks:
    """The chunks of one table's columns, batch by batch.

    Columns ``event_index`` and ``time`` (microseconds) are given with every batch; declared
    columns a batch lacks are missing there; members no column declares (extras) keep their
    chunks by batch and become extra columns after the declared ones, sorted by name.
    """

    def __init__(self, schema: TableSchema) -> None:
        self.schema = schema
        self._arrays: dict[str, list[pa.Array]] = {name: [] for name in schema.column_names}
        self._extras: dict[str, dict[int, pa.Array]] = {}
        self._sizes: list[int] = []

    @property
    def rows(self) -> int:
        return sum(self._sizes)

    def add(
        self, rows: int, columns: Mapping[str, pa.Array], extras: Mapping[str, pa.Array]
    ) -> None:
        """Add one batch: its declared columns' chunks by name, and its extras' chunks."""
        batch = len(self._sizes)
        self._sizes.append(rows)
        for name, chunks in self._arrays.items():
            chunk = columns.get(name)
            chunks.append(nulls(rows) if chunk is None else chunk)
        for name, chunk in extras.items():
            self._extras.setdefault(name, {})[batch] = chunk

    def frame(self, match_id: str, problems: Problems) -> pd.DataFrame:
        """The table: ``match_id``, then every column converted once, over all its chunks (the
        chunks are let go: call once)."""
        if not self.rows:
            return empty_table(self.schema)
        return frame_of(self.columns(match_id, problems))

    def columns(self, match_id: str, problems: Problems) -> dict[str, Any]:
        """The table's columns as :meth:`frame` holds them, by name, in its order (the chunks
        are let go: call once, instead of :meth:`frame`)."""
        schema = self.schema
        rows = self.rows
        data: dict[str, Any] = {}
        for column in schema.columns:
            label = f"{schema.name}.{column.name}"
            if column.name == "match_id":
                data[column.name] = constant_text(match_id, rows)
            elif column.name == "time":
                micros = _joined(self._arrays.pop("time"))
                data["time"] = utc_micros(
                    pc.coalesce(micros, 0, memory_pool=ARROW_POOL).to_numpy(),
                    missing=pc.is_null(micros, memory_pool=ARROW_POOL).to_numpy(False),
                )
            else:  # each column's chunks let go as it is converted
                array = _joined(self._arrays.pop(column.name))
                data[column.name] = pandas_column(
                    array, column.kind, label=label, problems=problems
                )
        for name in sorted(self._extras):
            chunks = self._extras.pop(name)
            array = _joined(
                [chunks.get(batch, nulls(size)) for batch, size in enumerate(self._sizes)]
            )
            data[name] = convert(array, None, label=f"{schema.name}.{name}", problems=problems)
        return data


def _joined(chunks: list[pa.Array]) -> pa.Array:
    if len(chunks) == 1:
        return chunks[0]
    return pa.concat_arrays(unify(chunks), ARROW_POOL)


@cache
def _empty(schema: TableSchema) -> pd.DataFrame:
    return empty_frame(schema)


def empty_table(schema: TableSchema) -> pd.DataFrame:
    """A table of no rows (:func:`matchkit.model.schema.empty_frame`), made once per schema and
    copied: a file without an event type pays a copy, not a column of pandas per column."""
    return _empty(schema).copy()


def pandas_column(array: pa.Array, kind: Kind | None, *, label: str, problems: Problems) -> Any:
    """:func:`matchkit.normalize.convert` of a column, the same array, with the usual cases made
    straight from Arrow's buffers: a column all missing, or already of its kind's Arrow type
    (what the typed reader gives), has no value that could fail to fit, so no cast is needed.
    Anything else is ``convert``'s."""
    arrow_type = array.type
    rows = len(array)
    all_missing = array.null_count == rows
    if kind == "Int64":
        if arrow_type == pa.int64():  # all missing too (convert's own path for the null type)
            absent = _absent(array)
            return pd.arrays.IntegerArray(_values(array, absent, 0), absent)
    elif kind == "float64":
        if arrow_type == pa.float64():
            return _values(array, _absent(array), np.nan)
        if pa.types.is_null(arrow_type):
            return np.full(rows, np.nan)
    elif kind == "boolean":
        if pa.types.is_null(arrow_type) or (all_missing and pa.types.is_boolean(arrow_type)):
            return pd.arrays.BooleanArray(np.zeros(rows, dtype=bool), np.ones(rows, dtype=bool))
        if pa.types.is_boolean(arrow_type):
            absent = _absent(array)
            values = _bits(array, 1) & ~absent  # False where missing, as convert fills them
            return pd.arrays.BooleanArray(values, absent)
    elif kind == "string":
        if pa.types.is_large_string(arrow_type):
            return pd.arrays.ArrowStringArray(array)
        if pa.types.is_string(arrow_type) or pa.types.is_null(arrow_type):
            return pd.arrays.ArrowStringArray(array.cast(pa.large_string(), memory_pool=ARROW_POOL))
    return convert(array, kind, label=label, problems=problems)


def _absent(array: pa.Array) -> np.ndarray:
    """Where a (non-null-typed) array's values are missing, read from its validity bitmap."""
    rows = len(array)
    if not array.null_count:
        return np.zeros(rows, dtype=bool)
    return ~_bits(array, 0)


def _bits(array: pa.Array, buffer: int) -> np.ndarray:
    """One of an array's bitmaps (0: validity; 1: a boolean array's values) as numpy booleans."""
    bitmap = np.frombuffer(array.buffers()[buffer], dtype=np.uint8)
    bits = np.unpackbits(bitmap, count=array.offset + len(array), bitorder="little")
    return bits[array.offset :].astype(bool)


def _values(array: pa.Array, absent: np.ndarray, fill: Any) -> np.ndarray:
    """A fixed-width array's values as numpy, ``fill`` where missing (Arrow leaves them
    undefined)."""
    if not absent.any():
        return array.to_numpy(zero_copy_only=False)
    raw = np.frombuffer(array.buffers()[1], dtype=array.type.to_pandas_dtype())
    values = raw[array.offset : array.offset + len(array)].copy()
    values[absent] = fill
    return values


def frame_of(data: Mapping[str, Any]) -> pd.DataFrame:
    """``pd.DataFrame(data, copy=False)`` of a table's columns (each a pandas array, or numpy),
    each column its own block, as that makes them, with its column labels made once per list
    of names: pandas' constructor checks and infers each column again and builds the labels
    (text, held in Arrow) anew, which cost more than converting the columns."""
    rows = len(next(iter(data.values()))) if data else 0
    blocks = [(_block(values), np.array([i])) for i, values in enumerate(data.values())]
    labels = _labels(tuple(data)).copy()  # a copy of its own: a frame's labels can be renamed
    return create_dataframe_from_blocks(blocks, pd.RangeIndex(rows), labels)


def _block(values: Any) -> Any:
    """A column as a block holds it: numpy as a row of a 2-D array (unwrapped, as the
    constructor unwraps a ``Series.array`` of numpy), an extension array as it is."""
    if isinstance(values, pd.arrays.NumpyExtensionArray):
        values = values.to_numpy()
    return values.reshape(1, -1) if isinstance(values, np.ndarray) else values


@lru_cache(maxsize=256)
def _labels(names: tuple[str, ...]) -> pd.Index:
    return pd.Index(list(names))
