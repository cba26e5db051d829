"""Assembling a table's DataFrame from its columns, known ones first, then the extras.

Known columns follow the schema, in order and with their dtypes; every other wire key becomes an
extra column named in snake_case (prefixed by its section when the name is taken), sorted by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import pandas as pd
import pyarrow as pa

from matchkit.model.schema import EXTRA_SECTIONS, Kind, TableSchema
from matchkit.normalize.arrow import nulls
from matchkit.normalize.columns import convert, to_arrow
from matchkit.normalize.problems import Problems

__all__ = ["assemble", "snake_case"]


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
    problems: Problems,
    declared: Mapping[str, tuple[Kind, pa.Array | None]] | None = None,
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
        declared: a profile's own columns (:class:`matchkit.rules.columns.WireColumn`): name
            -> (kind, values or ``None`` when no document carried them). They are there, typed,
            whatever the documents carried, after the known columns among the extras.
    """
    columns: dict[str, Any] = {}
    taken = set(schema.column_names) | set(declared or ())
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
        for section in EXTRA_SECTIONS
        for key, array in sorted(remaining.get(section, {}).items())
    ]
    pending += [(section, key, array) for (section, key), array in sorted(extras.items())]
    named = {}
    for section, key, array in pending:
        name = _claim(snake_case(key), section, taken)
        named[name] = array
    kinds: dict[str, Kind | None] = dict.fromkeys(named)
    for name, (kind, array) in (declared or {}).items():
        named[name] = nulls(rows) if array is None else array
        kinds[name] = kind
    for name in sorted(named):
        label = f"{schema.name}.{name}"
        columns[name] = convert(named[name], kinds[name], label=label, problems=problems)
    return pd.DataFrame(columns, copy=False)


def _converted(value: Any, kind: str, rows: int, label: str, problems: Problems) -> Any:
    if value is None:
        value = nulls(rows)
    elif isinstance(value, list):
        value = to_arrow(value)
    if isinstance(value, pa.Array):
        return convert(value, kind, label=label, problems=problems)  # type: ignore[arg-type]
    return value


def _claim(name: str, section: str, taken: set[str]) -> str:
    """A free column name: the snake_case name, else prefixed by its section, else numbered."""
    if name in taken:
        name = f"{section}_{name}"
    candidate, number = name, 2
    while candidate in taken:
        candidate = f"{name}_{number}"
        number += 1
    taken.add(candidate)
    return candidate
