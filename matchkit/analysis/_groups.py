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
    return _numbered(_Keys(columns, dropna=dropna), rows, dropna=dropna)


def _numbered(
    keys: _Keys, rows: np.ndarray | None, *, dropna: bool
) -> tuple[np.ndarray, list[Any]]:
    """:func:`group_numbers` of keys factorized."""
    selected = np.ones(keys.rows, dtype=bool) if rows is None else np.asarray(rows, dtype=bool)
    grouped = selected
    if dropna:  # a key missing: in no group
        grouped = np.logical_and.reduce([selected, *(code >= 0 for code in keys.codes)])
    numbers = np.full(int(selected.sum()), -1, dtype=np.int64)
    if keys.combined is not None:
        picked = keys.combined[grouped]
        present = np.bincount(picked, minlength=keys.combinations) > 0
        numbers[grouped[selected]] = (np.cumsum(present) - 1)[picked]
        return numbers, keys.levels(np.flatnonzero(present))
    return numbers, keys.numbered_one_by_one(numbers, grouped[selected], grouped)


def _dense(combinations: int, rows: int) -> bool:
    """Whether keys of so many combinations are combined in one array: at most
    :data:`DENSE_GROUPS`, or twice the rows."""
    return combinations <= max(DENSE_GROUPS, 2 * rows)


class _Keys:
    """Key columns factorized, each once and whole; when their combinations are few
    (:func:`_dense`), their codes combined in mixed radix over every row (the first key the
    most significant), so that no key is copied for the rows chosen."""

    def __init__(self, columns: Sequence[Any], *, dropna: bool) -> None:
        factorized = [pd.factorize(column, use_na_sentinel=dropna) for column in columns]
        self.codes = [np.asarray(code) for code, _ in factorized]
        self.uniques = [values for _, values in factorized]
        self.radices = [max(len(values), 1) for values in self.uniques]
        self.rows = len(self.codes[0])
        self.combinations = math.prod(self.radices)
        self.combined: np.ndarray | None = None
        if _dense(self.combinations, self.rows):
            self.combined = np.zeros(self.rows, dtype=np.int64)
            for code, radix in zip(self.codes, self.radices, strict=True):
                self.combined *= radix
                self.combined += code  # -1 (missing, with dropna) only where no group is

    def levels(self, combined: np.ndarray) -> list[Any]:
        """Each key's value in the groups of these combined codes."""
        digits = []
        for radix in reversed(self.radices):
            digits.append(combined % radix)
            combined = combined // radix
        return self._values(digits[::-1])

    def numbered_one_by_one(
        self, numbers: np.ndarray, at: np.ndarray, grouped: np.ndarray
    ) -> list[Any]:
        """Number the ``grouped`` rows (their places ``at`` in ``numbers``) key by key, a
        factorization after each key so that the numbers stay below the rows' count; each
        key's value in every group."""
        combined = np.zeros(int(grouped.sum()), dtype=np.int64)
        seen_by_key = []
        for code, radix in zip(self.codes, self.radices, strict=True):
            combined, seen = pd.factorize(combined * radix + code[grouped])
            seen_by_key.append(seen)
        numbers[at] = combined
        group = np.arange(len(seen_by_key[-1]), dtype=np.int64)
        digits = []
        for seen, radix in zip(reversed(seen_by_key), reversed(self.radices), strict=True):
            value = seen[group]
            digits.append(value % radix)
            group = value // radix
        return self._values(digits[::-1])

    def _values(self, digits: list[np.ndarray]) -> list[Any]:
        return [
            values.take(digit) if len(values) else values[:0]
            for values, digit in zip(self.uniques, digits, strict=True)
        ]


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
    groups in no particular order): the keys' combined codes counted with ``np.bincount``, the
    rows not chosen in a bin of their own, so that no column is copied for the chosen rows (keys
    of many combinations: numbered by :func:`group_numbers` first).

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
    grouping = _Keys([frame[key] for key in keys], dropna=False)
    chosen = slice(None) if rows is None else np.asarray(rows, dtype=bool)
    counts: dict[str, np.ndarray] = {}
    if grouping.combined is not None:  # the rows not chosen in a bin of their own, dropped
        numbers, bins = grouping.combined, grouping.combinations
        if rows is not None:
            numbers[~np.asarray(rows, dtype=bool)] = bins  # (the grouping is this call's own)
        counts[size] = np.bincount(numbers, minlength=bins + 1)[:bins]
        for name in sums:
            counts[name] = np.bincount(numbers[_trues(frame[name])], minlength=bins + 1)[:bins]
        groups = np.flatnonzero(counts[size])
        counts = {name: values[groups] for name, values in counts.items()}
        levels = grouping.levels(groups)
    else:
        numbers, levels = _numbered(grouping, rows, dropna=False)
        counts[size] = np.bincount(numbers, minlength=len(levels[0]))
        for name in sums:
            trues = numbers[_trues(frame[name])[chosen]]
            counts[name] = np.bincount(trues, minlength=len(levels[0]))
    index = (
        pd.MultiIndex.from_arrays(levels, names=list(keys))
        if len(keys) > 1
        else pd.Index(levels[0], name=keys[0])
    )
    return pd.DataFrame({name: values.astype(np.int64) for name, values in counts.items()}, index)


def _trues(column: Any) -> np.ndarray:
    """A boolean column (a Series, missing values false, or an array) as a numpy mask."""
    if isinstance(column, pd.Series):
        return column.to_numpy(dtype=bool, na_value=False)
    return np.asarray(column, dtype=bool)
