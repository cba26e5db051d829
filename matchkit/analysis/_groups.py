"""Rows numbered by their group, and groups counted, without pandas' ``groupby``.

``cosmetic_usage`` on an archive counts the picks of each partition (hundreds of thousands of
rows, a few hundred groups). ``frame.loc[mask].groupby(keys).size()`` took 35 ms for a
partition of 504,000 participants: the selection copied every column it kept, and the grouping
factorized the keys again to combine them. :func:`counted` takes 17 ms: each key is factorized
once, whole, the groups are numbered by their keys' codes in mixed radix, the rows not chosen
go to a bin of their own, and the counts are one ``np.bincount`` (the figures are in
``docs/benchmarks.md``).

The groups are those ``groupby(keys, observed=True)`` makes of the chosen rows (a categorical
key's unseen categories left out), with ``dropna`` as ``groupby``'s: True, a row with a key
missing is in no group; False, a missing key is a value of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["DENSE_GROUPS", "counted", "group_numbers", "positions_in"]

DENSE_GROUPS = 1 << 20
"""The combinations of keys :func:`counted` counts in one array (8 MiB) whatever the rows."""


def group_numbers(
    columns: Sequence[Any], rows: np.ndarray | None = None, *, dropna: bool = True
) -> tuple[np.ndarray, list[Any]]:
    """Each chosen row's group number by the key ``columns`` (-1: in no group), and each key's
    value of every group.

    The groups are numbered by their keys' codes in mixed radix, made dense with one
    ``np.bincount``; keys with more combinations than :data:`DENSE_GROUPS` (or twice the rows)
    are numbered again after each key instead, so that the numbers stay below the rows' count.

    Args:
        columns: the key columns (Series or arrays of one length), at least one.
        rows: a boolean mask of the rows to number (None: all of them).
        dropna: a row with a key missing is in no group (-1); False: a missing key is a value.

    Returns:
        ``(numbers, levels)``: a group number per chosen row (0, 1, ..., in no particular
        order), and per key an array of its value in each group, indexed by number.
    """
    factorized = [pd.factorize(column, use_na_sentinel=dropna) for column in columns]
    uniques = [values for _, values in factorized]
    radices = [max(len(values), 1) for values in uniques]
    chosen = slice(None) if rows is None else np.asarray(rows, dtype=bool)
    codes = [np.asarray(code)[chosen] for code, _ in factorized]
    numbers = np.full(len(codes[0]), -1, dtype=np.int64)
    grouped = np.logical_and.reduce([code >= 0 for code in codes]) if dropna else slice(None)
    if _dense(radices, len(numbers)):
        combined = np.zeros(len(numbers[grouped]), dtype=np.int64)
        for code, radix in zip(codes, radices, strict=True):
            combined = combined * radix + code[grouped]
        present = np.bincount(combined, minlength=math.prod(radices)) > 0
        numbers[grouped] = (np.cumsum(present) - 1)[combined]
        group_codes = _mixed_radix_digits(np.flatnonzero(present), radices)
    else:
        group_codes = _numbered_key_by_key(numbers, grouped, codes, radices)
    levels = [
        values.take(code) if len(values) else values[:0]
        for values, code in zip(uniques, group_codes, strict=True)
    ]
    return numbers, levels


def positions_in(keys: Any, values: Any) -> np.ndarray:
    """The position in ``values`` (distinct) of each of ``keys`` (-1: not among them): each
    roster's match among a partition's matches.

    Hashed by Arrow on the text's bytes: ``pd.Index.get_indexer`` made a Python string of each
    id first (66 ms for 77,000 matches and 190,000 rosters, against 6 ms)."""
    keys, values = _arrow(keys), _arrow(values)
    if not len(keys) or not len(values):
        return np.full(len(keys), -1, dtype=np.int64)
    if keys.type != values.type:  # text of two Arrow types (or no values, of none)
        keys = keys.cast(values.type)
    found = pc.index_in(keys, value_set=values)
    return pc.fill_null(found, -1).to_numpy().astype(np.int64)


def _arrow(column: Any) -> pa.Array | pa.ChunkedArray:
    """A column (Series or array) as Arrow, without a copy where it is Arrow already."""
    return pa.array(column.array if isinstance(column, pd.Series) else column, from_pandas=True)


def _dense(radices: Sequence[int], rows: int) -> bool:
    """Whether groups of keys with these numbers of values are numbered in one array: at most
    :data:`DENSE_GROUPS` combinations, or twice the rows."""
    return math.prod(radices) <= max(DENSE_GROUPS, 2 * rows)


def _mixed_radix_digits(numbers: np.ndarray, radices: Sequence[int]) -> list[np.ndarray]:
    """The digits of ``numbers`` in mixed radix ``radices`` (the first the most significant)."""
    digits = []
    for radix in reversed(radices):
        digits.append(numbers % radix)
        numbers = numbers // radix
    return digits[::-1]


def _numbered_key_by_key(
    numbers: np.ndarray, grouped: Any, codes: list[np.ndarray], radices: Sequence[int]
) -> list[np.ndarray]:
    """Number the ``grouped`` rows into ``numbers`` key by key (a factorization after each
    key); each key's code in every group, by number."""
    combined = np.zeros(len(numbers[grouped]), dtype=np.int64)
    seen_by_key = []
    for code, radix in zip(codes, radices, strict=True):
        combined, seen = pd.factorize(combined * radix + code[grouped])
        seen_by_key.append(seen)
    numbers[grouped] = combined
    group = np.arange(len(seen_by_key[-1]), dtype=np.int64)
    group_codes = []
    for seen, radix in zip(reversed(seen_by_key), reversed(radices), strict=True):
        value = seen[group]
        group_codes.append(value % radix)
        group = value // radix
    return group_codes[::-1]


def counted(
    frame: pd.DataFrame | Mapping[str, Any],
    keys: Sequence[str],
    rows: np.ndarray | None = None,
    *,
    size: str = "size",
    sums: Sequence[str] = (),
) -> pd.DataFrame:
    """The chosen rows counted per group of ``keys``, as
    ``frame.loc[rows].groupby(keys, observed=True, dropna=False)`` would count them (the
    groups in no particular order).

    Each key is factorized once, whole; the groups are numbered by their keys' codes in mixed
    radix, and counted with ``np.bincount`` (the rows not chosen in a bin of their own), so
    that no column is copied for the chosen rows. Keys with more combinations than
    :data:`DENSE_GROUPS` (or twice the rows) are numbered by :func:`group_numbers` instead.

    Args:
        frame: the rows: a frame, or its columns by name (Series of one length).
        keys: the group columns, at least one.
        rows: a boolean mask of the rows to count (None: all of them).
        size: the name of the column of counts.
        sums: boolean columns (Series or arrays; missing values count as false) whose trues
            are counted per group too, each in a column of its name.

    Returns:
        One row per group, indexed by the keys (one level per key), with ``size`` and ``sums``
        as int64 columns.
    """
    factorized = [pd.factorize(frame[key], use_na_sentinel=False) for key in keys]
    radices = [max(len(uniques), 1) for _, uniques in factorized]
    rows_count = len(factorized[0][0])
    if not _dense(radices, rows_count):
        return _counted_sparse(frame, keys, rows, size=size, sums=sums)
    bins = math.prod(radices)
    numbers = np.zeros(rows_count, dtype=np.int64)
    for (codes, _), radix in zip(factorized, radices, strict=True):
        numbers *= radix
        numbers += codes
    if rows is not None:
        numbers[~np.asarray(rows, dtype=bool)] = bins  # a bin of its own, dropped
    data = {size: np.bincount(numbers, minlength=bins + 1)[:bins]}
    for name in sums:
        data[name] = np.bincount(numbers[_trues(frame[name])], minlength=bins + 1)[:bins]
    groups = np.flatnonzero(data[size])
    digits = _mixed_radix_digits(groups, radices)
    levels = [uniques.take(code) for (_, uniques), code in zip(factorized, digits, strict=True)]
    columns = {name: values[groups] for name, values in data.items()}
    return _counts_frame(columns, levels, keys)


def _counted_sparse(
    frame: pd.DataFrame | Mapping[str, Any],
    keys: Sequence[str],
    rows: np.ndarray | None = None,
    *,
    size: str = "size",
    sums: Sequence[str] = (),
) -> pd.DataFrame:
    """:func:`counted` of keys with many combinations: groups numbered by
    :func:`group_numbers`."""
    numbers, levels = group_numbers([frame[key] for key in keys], rows, dropna=False)
    groups = len(levels[0])
    chosen = slice(None) if rows is None else np.asarray(rows, dtype=bool)
    columns = {size: np.bincount(numbers, minlength=groups)}
    for name in sums:
        columns[name] = np.bincount(numbers[_trues(frame[name])[chosen]], minlength=groups)
    return _counts_frame(columns, levels, keys)


def _trues(column: Any) -> np.ndarray:
    """A boolean column (a Series, missing values false, or an array) as a numpy mask."""
    if isinstance(column, pd.Series):
        return column.to_numpy(dtype=bool, na_value=False)
    return np.asarray(column, dtype=bool)


def _counts_frame(
    columns: Mapping[str, np.ndarray], levels: list[Any], keys: Sequence[str]
) -> pd.DataFrame:
    """Counts (int64) indexed by their groups' keys, one level per key."""
    index = (
        pd.MultiIndex.from_arrays(levels, names=list(keys))
        if len(keys) > 1
        else pd.Index(levels[0], name=keys[0])
    )
    return pd.DataFrame({name: values.astype(np.int64) for name, values in columns.items()}, index)
