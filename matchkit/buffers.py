"""Buffering resources row by row, then assembling each table's DataFrame in one go.

A :class:`TableBuffer` collects one table while the normalizer walks the documents: the ids,
the dict-valued sections (attributes, stats, tags) in :class:`SectionBuffer` s, and occasional
single values (relationship ids, text stats). :func:`assemble` turns the buffer into the table:
known columns by the schema, in order and with their dtypes, then every other key as an extra
column named in snake_case, sorted by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from operator import itemgetter
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from matchkit.columns import convert, to_arrow, unify
from matchkit.schema import TableSchema

__all__ = [
    "SECTIONS",
    "SectionBuffer",
    "TableBuffer",
    "assemble",
    "snake_case",
]

SECTIONS = ("attributes", "stats", "tags", "relationships")
"""Where extra columns come from, in the order their names are claimed."""


class SectionBuffer:
    """The rows of one dict-valued section of one table, grouped by key set.

    Rows sharing the same keys in the same order (the common case: one service writes every
    resource of a type alike) share a group; each row is stored as the tuple of its values.
    """

    __slots__ = ("groups",)

    def __init__(self) -> None:
        self.groups: dict[tuple[str, ...], tuple[list[int], list[tuple[Any, ...]]]] = {}

    def add(self, row: int, mapping: dict[str, Any]) -> None:
        """Buffer ``mapping`` as the section of row ``row``."""
        keys = tuple(mapping)
        group = self.groups.get(keys)
        if group is None:
            group = self.groups[keys] = ([], [])
        group[0].append(row)
        group[1].append(tuple(mapping.values()))

    def keys(self) -> list[str]:
        """Every key seen, in order of first appearance."""
        seen: dict[str, None] = {}
        for keys in self.groups:
            seen.update(dict.fromkeys(keys))
        return list(seen)

    def build(self, rows: int) -> dict[str, pa.Array]:
        """One Arrow array of length ``rows`` per key (null where a row lacked the key).

        The buffer is emptied as it goes, so that memory is returned while columns are built.
        """
        parts: dict[str, list[tuple[np.ndarray, pa.Array]]] = {}
        while self.groups:
            keys, (positions, values) = self.groups.popitem()
            where = np.asarray(positions, dtype=np.int64)
            del positions
            for index, key in enumerate(keys):
                column = list(map(itemgetter(index), values))
                parts.setdefault(key, []).append((where, to_arrow(column)))
            del values
        return {key: _assemble(pieces, rows) for key, pieces in parts.items()}


def _assemble(pieces: list[tuple[np.ndarray, pa.Array]], rows: int) -> pa.Array:
    """Place the per-group arrays of one key at their rows."""
    arrays = unify([array for _, array in pieces])
    if len(pieces) == 1 and len(pieces[0][0]) == rows and _is_identity(pieces[0][0]):
        return arrays[0]
    target = arrays[0].type
    combined = pa.concat_arrays([*arrays, pa.nulls(1, type=target)])
    take = np.full(rows, len(combined) - 1, dtype=np.int64)
    offset = 0
    for (where, _), array in zip(pieces, arrays, strict=True):
        take[where] = np.arange(offset, offset + len(array), dtype=np.int64)
        offset += len(array)
    return combined.take(pa.array(take))


def _is_identity(positions: np.ndarray) -> bool:
    return bool(positions[0] == 0 and np.all(np.diff(positions) == 1)) if len(positions) else True


class TableBuffer:
    """The rows of one table, collected while walking the documents.

    Attributes:
        schema: the table's declaration.
        ids: the resource ids, one per row.
        sections: a :class:`SectionBuffer` per dict-valued section.
        values: single values by column name, ``{row: value}``: relationship ids, a text
            ``stats``, unknown relationships (``relationships.<name>`` until assembled).
    """

    __slots__ = ("ids", "schema", "sections", "values")

    def __init__(self, schema: TableSchema) -> None:
        self.schema = schema
        self.ids: list[str] = []
        self.sections: dict[str, SectionBuffer] = {
            "attributes": SectionBuffer(),
            "stats": SectionBuffer(),
            "tags": SectionBuffer(),
        }
        self.values: dict[str, dict[int, Any]] = {}

    @property
    def rows(self) -> int:
        return len(self.ids)

    def put(self, name: str, row: int, value: Any) -> None:
        """Set a single value of row ``row``."""
        column = self.values.get(name)
        if column is None:
            column = self.values[name] = {}
        column[row] = value

    def take_values(self, name: str) -> list[Any]:
        """The single values of a column as a full-length list (None where unset); removed."""
        column = self.values.pop(name, None) or {}
        rows = self.rows
        if len(column) == rows:
            return list(column.values())
        values: list[Any] = [None] * rows
        for row, value in column.items():
            values[row] = value
        return values

    def build_sections(self) -> dict[str, dict[str, pa.Array]]:
        """Each section's arrays by wire key (the section buffers are emptied)."""
        rows = self.rows
        return {name: section.build(rows) for name, section in self.sections.items()}


@lru_cache(maxsize=4096)
def snake_case(key: str) -> str:
    """A wire member name as a snake_case column name.

    Example:
        >>> [snake_case(k) for k in ("mapID", "acesEarned", "URL", "played_ranked", "item-uses")]
        ['map_id', 'aces_earned', 'url', 'played_ranked', 'item_uses']
    """
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", key)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    name = re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_").lower()
    if not name:
        return "field"
    return f"field_{name}" if name[0].isdigit() else name


def assemble(
    schema: TableSchema,
    rows: int,
    sections: Mapping[str, dict[str, pa.Array]],
    known: Mapping[str, Any],
    extras: Mapping[tuple[str, str], pa.Array],
    problems: list[str],
) -> pd.DataFrame:
    """The table's DataFrame.

    Args:
        schema: the table's declaration.
        rows: the number of rows.
        sections: arrays by wire key per section; the known keys of the schema are taken
            from here, every other key becomes an extra column.
        known: values of known columns that are not a plain section member (ids, foreign
            keys, derived values): a pandas array (used as it is), an Arrow array or a list.
        extras: further extra columns by ``(section, wire name)``.
        problems: where values that do not fit their column are reported.
    """
    columns: dict[str, Any] = {}
    taken = set(schema.column_names)
    remaining = {name: dict(arrays) for name, arrays in sections.items()}
    for column in schema.columns:
        label = f"{schema.name}.{column.name}"
        if column.name in known:
            value = known[column.name]
        elif column.section in remaining:
            value = remaining[column.section].pop(column.key, None)
        else:
            value = None
        columns[column.name] = _converted(value, column.kind, rows, label, problems)
    pending = [
        (section, key, array)
        for section in SECTIONS
        for key, array in sorted(remaining.get(section, {}).items())
    ]
    pending += [(section, key, array) for (section, key), array in sorted(extras.items())]
    named = {}
    for section, key, array in pending:
        name = _claim(snake_case(key), section, taken)
        named[name] = array
    for name in sorted(named):
        columns[name] = convert(named[name], None, label=f"{schema.name}.{name}", problems=problems)
    return pd.DataFrame(columns, copy=False)


def _converted(value: Any, kind: str, rows: int, label: str, problems: list[str]) -> Any:
    if value is None:
        value = pa.nulls(rows)
    elif isinstance(value, list):
        value = to_arrow(value)
    if isinstance(value, pa.Array):
        return convert(value, kind, label=label, problems=problems)  # type: ignore[arg-type]
    return value


_PREFIXES = {"attributes": "attributes", "stats": "stats", "tags": "tags"}


def _claim(name: str, section: str, taken: set[str]) -> str:
    """A free column name: the snake_case name, else prefixed by its section, else numbered."""
    if name in taken:
        name = f"{_PREFIXES.get(section, section)}_{name}"
    candidate, number = name, 2
    while candidate in taken:
        candidate = f"{name}_{number}"
        number += 1
    taken.add(candidate)
    return candidate
