"""Columns from JSON values: inferring types, converting to Arrow and to pandas dtypes.

The readers turn a chunk of values per column into Arrow (:func:`fast_arrow`, :func:`to_arrow`),
chunks of one column are cast to a common type (:func:`unify`), and :func:`convert` turns an
Arrow array into the pandas array of a column kind and reports values that do not fit instead of
failing. Arrow memory comes from :data:`matchkit.normalize.arrow.ARROW_POOL`.

Value forms (see docs/model.md): a column whose values are all integers is ``Int64``, integers
and floats ``float64``, booleans ``boolean``, strings ``string``; nested objects and lists become
compact JSON text with sorted keys; a column that mixes kinds becomes text (strings as they are,
other values as JSON text).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.model.schema import DATETIME_DTYPE, Kind, category_dtype
from matchkit.model.text import EXACT_IN_FLOAT, text_value
from matchkit.normalize.arrow import (
    ARROW_POOL,
    compared,
    filled,
    filtered,
    missing,
    nulls,
    string_array,
)
from matchkit.normalize.problems import Problems

__all__ = [
    "CONVERSION_ERRORS",
    "convert",
    "fast_arrow",
    "identifiers_text",
    "int_or_none",
    "integer_array",
    "missing_integers",
    "to_arrow",
    "unify",
]

CONVERSION_ERRORS = (
    pa.ArrowInvalid,
    pa.ArrowTypeError,
    pa.ArrowNotImplementedError,
    OverflowError,
)


def identifiers_text(keys: Sequence[tuple[str, str]], *, single: bool) -> str:
    """Identifiers ``(type, id)`` as JSON text: one object (a to-one relationship) or a list.

    Example:
        >>> identifiers_text([("asset", "a9")], single=False)
        '[{"id":"a9","type":"asset"}]'
    """
    items = [{"id": id_, "type": type_} for type_, id_ in keys]
    return text_value(items[0] if single else items)


_NONE = type(None)
_ARROW_TYPE_OF_KINDS = {
    frozenset({int}): pa.int64(),
    frozenset({int, _NONE}): pa.int64(),
    frozenset({float}): pa.float64(),
    frozenset({float, _NONE}): pa.float64(),
    frozenset({int, float}): pa.float64(),
    frozenset({int, float, _NONE}): pa.float64(),
    frozenset({bool}): pa.bool_(),
    frozenset({bool, _NONE}): pa.bool_(),
    frozenset({str}): pa.string(),
    frozenset({str, _NONE}): pa.string(),
    frozenset({_NONE}): pa.null(),
    frozenset(): pa.null(),
}


def to_arrow(values: Sequence[Any]) -> pa.Array:
    """An Arrow array of JSON values: scalar types inferred, nested values and mixes as text."""
    # Python's own type scan is several times faster than pyarrow's inference on ints.
    kinds = frozenset(map(type, values))
    arrow_type = _ARROW_TYPE_OF_KINDS.get(kinds)
    if arrow_type is None:
        return _text_array(values)
    if int in kinds and float in kinds:
        return _decimals(values)
    try:
        return pa.array(values, type=arrow_type, memory_pool=ARROW_POOL)
    except CONVERSION_ERRORS:
        # Integers beyond 64 bits, for one: keep their digits as text.
        return _text_array(values)


def _decimals(values: Sequence[Any]) -> pa.Array:
    """Integers among decimals as decimals, as :func:`unify` makes them wherever the column's
    chunks are cut; when one is beyond :data:`EXACT_IN_FLOAT`, text, as :func:`unify` makes
    such a column (never rounded)."""
    try:
        # Arrow refuses an integer beyond 2**53 (EXACT_IN_FLOAT) rather than round it.
        return pa.array(values, type=pa.float64(), memory_pool=ARROW_POOL)
    except CONVERSION_ERRORS:
        return _text_array(values)


def _text_array(values: Sequence[Any]) -> pa.Array:
    """Values as text (:func:`text_value`)."""
    return pa.array([text_value(value) for value in values], pa.string(), memory_pool=ARROW_POOL)


# What Arrow's inference may be trusted with: it reads booleans among floats as numbers, so a
# float column takes the typed path.
_INFERRED_TYPES = frozenset({pa.int64(), pa.bool_(), pa.string(), pa.null()})
_NUMBERS = frozenset({int, float, _NONE})


def fast_arrow(values: Sequence[Any], arrow_type: pa.DataType | None = None) -> pa.Array:
    """:func:`to_arrow` in one pass for the common columns.

    With ``arrow_type`` (the caller checked that the values are of its kind, or None), the
    values are converted to it. Otherwise Arrow infers the type, and when it is integers,
    booleans or strings (with nulls), which is what :func:`to_arrow` would choose, the array is
    taken as it is. Anything else (floats, mixed kinds, nested values, integers beyond 64 bits)
    goes to :func:`to_arrow`.
    """
    if values and values[0] is None and values.count(None) == len(values):
        return nulls(len(values))  # a member no row carries (PUBG's of Battlerite's cosmetics)
    if arrow_type == pa.int64():
        try:  # numpy reads checked integers in half the time; None or a huge one stops it
            return pa.array(np.fromiter(values, dtype=np.int64, count=len(values)))
        except (TypeError, OverflowError):
            pass
    try:
        array = pa.array(values, type=arrow_type, memory_pool=ARROW_POOL)
    except CONVERSION_ERRORS:
        return to_arrow(values)
    if array.null_count == len(array):  # as inferred: nothing says what type the column has
        return nulls(len(array))
    if arrow_type is not None or array.type in _INFERRED_TYPES:
        return array
    if array.type == pa.float64() and frozenset(map(type, values)) <= _NUMBERS:
        return array  # decimals, integers among them (as exact as _decimals makes them)
    return to_arrow(values)


def unify(arrays: list[pa.Array]) -> list[pa.Array]:
    """Cast arrays of one column to a common type: int+float -> float (text when an integer is
    beyond :data:`EXACT_IN_FLOAT`), other mixes -> text.

    Text is written as :func:`to_arrow` writes a mixed column, so that where the chunks of a
    column are cut does not change its values.
    """
    types = {array.type for array in arrays} - {pa.null()}
    if not types:
        return arrays
    if len(types) == 1:
        target = types.pop()
    elif types <= {pa.int64(), pa.float64()} and all(
        _exact_in_float(array) for array in arrays if array.type == pa.int64()
    ):
        target = pa.float64()
    else:
        target = pa.string()
    return [
        array
        if array.type == target
        else _as_text(array)
        if target == pa.string()
        else array.cast(target, memory_pool=ARROW_POOL)
        for array in arrays
    ]


def _exact_in_float(integers: pa.Array) -> bool:
    """Whether a float64 holds every one of these integers exactly."""
    bounds = pc.min_max(integers, memory_pool=ARROW_POOL)
    low, high = bounds["min"].as_py(), bounds["max"].as_py()
    return low is None or (low >= -EXACT_IN_FLOAT and high <= EXACT_IN_FLOAT)


def _as_text(array: pa.Array) -> pa.Array:
    """A scalar array as :func:`text_value` writes it (Arrow's cast writes decimals its own
    way)."""
    if pa.types.is_floating(array.type):
        return _text_array(array.to_pylist())
    return array.cast(pa.string(), memory_pool=ARROW_POOL)


def convert(array: pa.Array, kind: Kind | None, *, label: str, problems: Problems) -> Any:
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
    return string_array(text)


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
        return array.cast(pa.string(), memory_pool=ARROW_POOL)
    if pa.types.is_null(array.type):
        return nulls(len(array), pa.string())
    try:
        return array.cast(pa.string(), memory_pool=ARROW_POOL)
    except CONVERSION_ERRORS:
        return _text_array(array.to_pylist())


def _dictionary_to_categorical(text: pa.Array) -> pd.Categorical:
    encoded = pc.dictionary_encode(text, memory_pool=ARROW_POOL)
    categories = encoded.dictionary.to_pylist()
    codes = filled(encoded.indices, -1).astype(np.int32)
    order = sorted(range(len(categories)), key=categories.__getitem__)
    recode = np.empty(len(categories) + 1, dtype=np.int32)
    recode[order] = np.arange(len(categories), dtype=np.int32)
    recode[-1] = -1  # code -1 (missing) indexes the last slot
    return pd.Categorical.from_codes(
        recode[codes], dtype=category_dtype(categories[i] for i in order)
    )


def _to_int64(array: pa.Array, *, label: str, problems: Problems) -> pd.arrays.IntegerArray:
    arrow_type = array.type
    if pa.types.is_null(arrow_type):
        return missing_integers(len(array))
    if pa.types.is_floating(arrow_type) or pa.types.is_integer(arrow_type):
        try:  # exact only: a fraction or a value beyond int64 goes the careful way below
            whole = array.cast(pa.int64(), memory_pool=ARROW_POOL)
        except CONVERSION_ERRORS:
            pass
        else:
            values = filled(whole, 0)
            return pd.arrays.IntegerArray(values, missing(whole))
    return integer_array(
        _coerce_each(array, int_or_none, "integers", label=label, problems=problems)
    )


def missing_integers(rows: int) -> pd.arrays.IntegerArray:
    """An Int64 array of ``rows`` missing values, built from its buffers (``pd.array([None] *
    rows)`` reads that many Python objects: a tenth of normalizing PUBG's matches, whose
    participants carry none of Battlerite's cosmetics)."""
    return pd.arrays.IntegerArray(np.zeros(rows, dtype=np.int64), np.ones(rows, dtype=bool))


def integer_array(values: list[int | None]) -> pd.arrays.IntegerArray:
    """An Int64 array of ints (within int64) and Nones, exactly (never through float64)."""
    mask = np.fromiter((value is None for value in values), dtype=bool, count=len(values))
    data = np.fromiter(
        (0 if value is None else value for value in values), dtype=np.int64, count=len(values)
    )
    return pd.arrays.IntegerArray(data, mask)


def _to_float64(array: pa.Array, *, label: str, problems: Problems) -> np.ndarray:
    arrow_type = array.type
    if pa.types.is_integer(arrow_type) or pa.types.is_floating(arrow_type):
        as_float = array.cast(pa.float64(), safe=False, memory_pool=ARROW_POOL)
        return as_float.to_numpy(zero_copy_only=False)
    if pa.types.is_null(arrow_type):
        return np.full(len(array), np.nan)
    values = _coerce_each(array, _float_or_none, "numbers", label=label, problems=problems)
    return np.array([np.nan if value is None else value for value in values], dtype=np.float64)


_BOOLEAN_WORDS = {"true": True, "false": False}


def _to_boolean(array: pa.Array, *, label: str, problems: Problems) -> pd.arrays.BooleanArray:
    arrow_type = array.type
    if pa.types.is_null(arrow_type):
        # Built from its buffers: pd.array([None] * n) reads n Python objects one by one.
        return pd.arrays.BooleanArray(np.zeros(len(array), dtype=bool), np.ones(len(array), bool))
    if pa.types.is_string(arrow_type):
        # The wire's "true" / "false" words, read in Arrow.
        pool = ARROW_POOL
        words = pc.utf8_lower(pc.utf8_trim_whitespace(array, memory_pool=pool), memory_pool=pool)
        true = compared(pc.equal, words, "true").to_numpy(zero_copy_only=False)
        known = true | compared(pc.equal, words, "false").to_numpy(zero_copy_only=False)
        _report_unread(array, ~known & ~missing(array), "booleans", label, problems, "<NA>")
        return pd.arrays.BooleanArray(true, ~known)
    if not pa.types.is_boolean(arrow_type):
        return pd.array(
            _coerce_each(array, _bool_or_none, "booleans", label=label, problems=problems),
            dtype="boolean",
        )
    return pd.arrays.BooleanArray(filled(array, False), missing(array))


def _to_datetime(array: pa.Array, *, label: str, problems: Problems) -> pd.arrays.DatetimeArray:
    text = _to_string(array)
    present = ~missing(text)
    parsed = pd.to_datetime(
        pd.Series(string_array(text)), format="ISO8601", utc=True, errors="coerce"
    )
    unread = present & parsed.isna().to_numpy()
    _report_unread(text, unread, "ISO 8601 times", label, problems, "NaT")
    return parsed.astype(DATETIME_DTYPE).array


def _report_unread(
    array: pa.Array, unread: np.ndarray, what: str, label: str, problems: Problems, as_: str
) -> None:
    """Report the values of ``array`` where ``unread`` is true (not ``what``; now ``as_``)."""
    count = int(unread.sum())
    if count:
        example = filtered(array, pa.array(unread, memory_pool=ARROW_POOL))[0].as_py()
        problems.add(
            "unfit_values",
            label,
            count,
            f"{label}: {count} value(s) are not {what} (e.g. {example!r}); they are {as_}",
        )


def _coerce_each(
    array: pa.Array, reader: Any, what: str, *, label: str, problems: Problems
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
        problems.add(
            "unfit_values",
            label,
            failures,
            f"{label}: {failures} value(s) are not {what} (e.g. {example!r}); they are <NA>",
        )
    return result


def _fits_int64(value: int) -> bool:
    return -(2**63) <= value < 2**63


def int_or_none(value: Any) -> int | None:
    """An integer that fits int64 read from a JSON value (number or numeric text), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if _fits_int64(value) else None
    if isinstance(value, float):
        return int_or_none(int(value)) if value.is_integer() else None
    if isinstance(value, str):
        try:
            return int_or_none(int(value.strip()))
        except ValueError:  # not numeric text, or more digits than int() reads
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
