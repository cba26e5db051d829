"""Telemetry columns in Arrow: chunks per batch, one array per column, integer clocks, times.

The builder (:mod:`matchkit.telemetry.build`) turns each batch of values into an Arrow chunk
(:func:`arrow_chunk`), joins a column's chunks at the end (:func:`joined`, through the
normalizer's :func:`matchkit.normalize.unify`), and converts the result with the
normalizer's column conversion; times and integer clocks have their own rules here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from matchkit.model.text import text_value
from matchkit.normalize import ARROW_POOL, Problems, convert, to_arrow, unify

__all__ = ["arrow_chunk", "clock_array", "joined", "timestamps", "utc_micros"]

_INT64_MAX = 2**63 - 1


def joined(chunks: list[pa.Array]) -> pa.Array:
    """One array of a column's chunks, cast to a common type first."""
    if len(chunks) == 1:
        return chunks[0]
    return pa.concat_arrays(unify(chunks), ARROW_POOL)


def arrow_chunk(values: Sequence[Any], *, wire: type | None = None) -> pa.Array:
    """:func:`matchkit.normalize.to_arrow` of the values, in one pass when they are
    known to be of one wire type (``int`` or ``str``, with ``None``: the typed path declared
    them): integers read as C longs, text by Arrow, as to_arrow would have typed them. Anything
    else (no wire type, ``None`` among integers, integers beyond 64 bits, only ``None``) as
    there."""
    if wire is int:
        try:  # checked ints (msgspec), read in C without a type scan
            return pa.array(np.fromiter(values, np.int64, len(values)))
        except (TypeError, OverflowError):
            pass
    elif wire is str:
        text = pa.array(values, pa.string(), memory_pool=ARROW_POOL)
        if text.null_count < len(text):
            return text
    return to_arrow(values)


_MILLIS_IN_RANGE = 9 * 10**15
"""Milliseconds whose microseconds fit 64 bits (about 285,000 years either side of 1970)."""


def timestamps(values: pa.Array, *, label: str, problems: Problems) -> Any:
    """Milliseconds since the epoch -> tz-aware UTC timestamps (microseconds).

    A time no timestamp holds (beyond about 285,000 years from 1970) is missing and reported
    in ``problems``, as a value that is not a number is.
    """
    millis = convert(values, "Int64", label=label, problems=problems)
    data = millis.to_numpy(dtype=np.int64, na_value=0)
    missing = millis.isna()
    beyond = (data >= _MILLIS_IN_RANGE) | (data <= -_MILLIS_IN_RANGE)
    count = int(beyond.sum())
    if count:
        problems.add(
            "unfit_values",
            label,
            count,
            f"{label}: {count} value(s) are further than a timestamp reaches from 1970 (about "
            f"285,000 years; e.g. {int(data[beyond][0])} ms); they are NaT",
        )
        missing = missing | beyond
        data = np.where(beyond, 0, data)
    return utc_micros(data * 1000, missing=missing)


def utc_micros(micros: np.ndarray, *, missing: np.ndarray) -> Any:
    """Microseconds since the epoch (int64; ``missing``: NaT) as tz-aware UTC timestamps."""
    stamps = micros.view("M8[us]").copy()
    stamps[missing] = np.datetime64("NaT")
    return pd.array(stamps).tz_localize("UTC")


def clock_array(values: list[Any], *, label: str, problems: Problems) -> Any:
    """An integer clock (numbers or text of digits): Int64 when every value fits, else text."""
    numbers: list[int | None] = []
    for value in values:
        if value is None:
            numbers.append(None)
        elif type(value) is int:
            numbers.append(value)
        elif isinstance(value, str) and value.isascii() and value.isdigit():
            numbers.append(int(value))
        else:
            break
    if len(numbers) == len(values) and all(n is None or n <= _INT64_MAX for n in numbers):
        mask = np.fromiter((n is None for n in numbers), dtype=bool, count=len(numbers))
        data = np.fromiter((n or 0 for n in numbers), dtype=np.int64, count=len(numbers))
        return pd.arrays.IntegerArray(data, mask)
    problems.add(
        "unfit_values",
        label,
        sum(value is not None for value in values),
        f"{label}: values beyond 64-bit integers or not digits; the column is kept as text",
    )
    return pd.array([None if v is None else text_value(v) for v in values], dtype="string")
