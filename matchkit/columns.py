"""Columns from JSON values: buffering rows, inferring types, converting to pandas dtypes.

The normalizer appends one row per resource. Dict-valued sections (attributes, stats, tags) are
buffered by :class:`SectionBuffer` as tuples grouped by their key set, so that the per-value work
happens in C (``tuple(mapping.values())``, pyarrow's type inference) rather than in a Python loop
per key. :func:`convert` turns an Arrow array into the pandas array of a column kind and reports
values that do not fit instead of failing.

Value forms (see docs/model.md): a column whose values are all integers is ``Int64``, integers
and floats ``float64``, booleans ``boolean``, strings ``string``; nested objects and lists become
compact JSON text with sorted keys; a column that mixes kinds becomes text (strings as they are,
other values as JSON text).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.schema import DATETIME_DTYPE, Kind, category_dtype

__all__ = [
    "convert",
    "text_value",
    "to_arrow",
    "unify",
]

_CONVERSION_ERRORS = (
    pa.ArrowInvalid,
    pa.ArrowTypeError,
    pa.ArrowNotImplementedError,
    OverflowError,
)


def text_value(value: Any) -> str | None:
    """A value as text: strings as they are, anything else as compact JSON (sorted keys)."""
    if value is None or type(value) is str:
        return value
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:
        # Integers beyond 64 bits, for one: keep their digits.
        return str(value)


def to_arrow(values: Sequence[Any]) -> pa.Array:
    """An Arrow array of JSON values: scalar types inferred, nested values and mixes as text."""
    try:
        array = pa.array(values)
    except _CONVERSION_ERRORS:
        return pa.array([text_value(value) for value in values], type=pa.string())
    kind = array.type
    if pa.types.is_nested(kind) or not (
        pa.types.is_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_boolean(kind)
        or pa.types.is_string(kind)
        or pa.types.is_null(kind)
    ):
        return pa.array([text_value(value) for value in values], type=pa.string())
    if pa.types.is_integer(kind) and kind != pa.int64():
        try:
            return array.cast(pa.int64())
        except _CONVERSION_ERRORS:
            return pa.array([text_value(value) for value in values], type=pa.string())
    return array


def unify(arrays: list[pa.Array]) -> list[pa.Array]:
    """Cast arrays of one column to a common type: int+float -> float, other mixes -> text."""
    types = {array.type for array in arrays} - {pa.null()}
    if not types:
        return arrays
    if len(types) == 1:
        target = types.pop()
    elif types <= {pa.int64(), pa.float64()}:
        target = pa.float64()
    else:
        target = pa.string()
    return [array if array.type == target else array.cast(target) for array in arrays]


def convert(array: pa.Array, kind: Kind | None, *, label: str, problems: list[str]) -> Any:
    """The pandas array of a column of ``kind`` (``None``: inferred from the Arrow type).

    Values that do not fit the kind become missing and are reported in ``problems``, naming
    ``label`` (``"table.column"``).
    """
    if kind is None:
        kind = _inferred_kind(array.type)
    if kind == "Int64":
        return _to_int64(array, label=label, problems=problems)
    if kind == "float64":
        return _to_float64(array, label=label, problems=problems)
    if kind == "boolean":
        return _to_boolean(array, label=label, problems=problems)
    if kind == "datetime":
        return _to_datetime(array, label=label, problems=problems)
    text = _to_string(array)
    if kind == "category":
        return _dictionary_to_categorical(text)
    return pd.arrays.ArrowStringArray(text)


def _inferred_kind(arrow_type: pa.DataType) -> Kind:
    if pa.types.is_integer(arrow_type):
        return "Int64"
    if pa.types.is_floating(arrow_type):
        return "float64"
    if pa.types.is_boolean(arrow_type):
        return "boolean"
    return "string"


def _to_string(array: pa.Array) -> pa.Array:
    if pa.types.is_string(array.type):
        return array
    if pa.types.is_large_string(array.type):
        return array.cast(pa.string())
    if pa.types.is_null(array.type):
        return pa.nulls(len(array), type=pa.string())
    try:
        return array.cast(pa.string())
    except _CONVERSION_ERRORS:
        return pa.array([text_value(value) for value in array.to_pylist()], type=pa.string())


def _dictionary_to_categorical(text: pa.Array) -> pd.Categorical:
    encoded = text.dictionary_encode()
    categories = encoded.dictionary.to_pylist()
    codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int32)
    order = sorted(range(len(categories)), key=categories.__getitem__)
    recode = np.empty(len(categories) + 1, dtype=np.int32)
    recode[order] = np.arange(len(categories), dtype=np.int32)
    recode[-1] = -1  # code -1 (missing) indexes the last slot
    return pd.Categorical.from_codes(
        recode[codes], dtype=category_dtype(categories[i] for i in order)
    )


def _mask(array: pa.Array) -> np.ndarray:
    return array.is_null().to_numpy(zero_copy_only=False)


def _to_int64(array: pa.Array, *, label: str, problems: list[str]) -> pd.arrays.IntegerArray:
    arrow_type = array.type
    if pa.types.is_null(arrow_type):
        return pd.array([None] * len(array), dtype="Int64")
    if pa.types.is_floating(arrow_type):
        whole = pc.fill_null(pc.equal(pc.floor(array), array), True)
        if pc.all(whole).as_py():
            array = array.cast(pa.int64())
            arrow_type = array.type
    if pa.types.is_integer(arrow_type):
        array = array.cast(pa.int64())
        values = array.fill_null(0).to_numpy(zero_copy_only=False)
        return pd.arrays.IntegerArray(values, _mask(array))
    return pd.array(
        _coerce_each(array, _int_or_none, "integers", label=label, problems=problems),
        dtype="Int64",
    )


def _to_float64(array: pa.Array, *, label: str, problems: list[str]) -> np.ndarray:
    arrow_type = array.type
    if pa.types.is_integer(arrow_type) or pa.types.is_floating(arrow_type):
        return array.cast(pa.float64()).to_numpy(zero_copy_only=False)
    if pa.types.is_null(arrow_type):
        return np.full(len(array), np.nan)
    values = _coerce_each(array, _float_or_none, "numbers", label=label, problems=problems)
    return np.array([np.nan if value is None else value for value in values], dtype=np.float64)


_BOOLEAN_WORDS = {"true": True, "false": False}


def _to_boolean(array: pa.Array, *, label: str, problems: list[str]) -> pd.arrays.BooleanArray:
    arrow_type = array.type
    if pa.types.is_boolean(arrow_type):
        values = array.fill_null(False).to_numpy(zero_copy_only=False)
        return pd.arrays.BooleanArray(values, _mask(array))
    if pa.types.is_null(arrow_type):
        return pd.array([None] * len(array), dtype="boolean")
    return pd.array(
        _coerce_each(array, _bool_or_none, "booleans", label=label, problems=problems),
        dtype="boolean",
    )


def _to_datetime(array: pa.Array, *, label: str, problems: list[str]) -> pd.arrays.DatetimeArray:
    text = _to_string(array)
    present = ~_mask(text)
    parsed = pd.to_datetime(
        pd.Series(pd.arrays.ArrowStringArray(text)), format="ISO8601", utc=True, errors="coerce"
    )
    unreadable = int((present & parsed.isna().to_numpy()).sum())
    if unreadable:
        example = text.filter(pa.array(present & parsed.isna().to_numpy()))[0].as_py()
        problems.append(
            f"{label}: {unreadable} value(s) are not ISO 8601 times (e.g. {example!r}); "
            "they are NaT"
        )
    return parsed.astype(DATETIME_DTYPE).array


def _coerce_each(
    array: pa.Array, reader: Any, what: str, *, label: str, problems: list[str]
) -> list:
    """Read each value with ``reader`` (None when it cannot); report the failures."""
    result = []
    failures = 0
    example = None
    for value in array.to_pylist():
        read = reader(value)
        if read is None and value is not None:
            failures += 1
            example = value if example is None else example
        result.append(read)
    if failures:
        problems.append(
            f"{label}: {failures} value(s) are not {what} (e.g. {example!r}); they are <NA>"
        )
    return result


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**63 else None
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        try:
            return _int_or_none(int(value.strip()))
        except ValueError:
            return None
    return None


def _float_or_none(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def _bool_or_none(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _BOOLEAN_WORDS.get(value.strip().lower())
    return None
