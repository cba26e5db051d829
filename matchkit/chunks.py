"""Resources of one type, buffered and converted to Arrow arrays a chunk at a time.

The walk over the documents only deduplicates and appends each resource to the buffer of its
type; every :data:`FLUSH_ROWS` resources of a type (and every few thousand resources overall,
see :mod:`matchkit.normalize`) the buffer converts its chunk. Dict-valued members
(``attributes``, its ``stats`` and ``tags``, ``relationships``) are grouped by key set: rows
sharing the same keys (the common case, since one service writes every resource of a type alike)
are held as tuples of values, so that a column is one ``itemgetter`` pass and one numpy or Arrow
conversion, all in C. Relationship data become identifier arrays (:class:`Links`). Every shape
is checked on the way, and malformed input raises the precise
:class:`~matchkit.errors.DocumentError`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.columns import CONVERSION_ERRORS, fast_arrow, text_value, unify
from matchkit.errors import DocumentError
from matchkit.jsonapi import relationship_keys

__all__ = ["FLUSH_ROWS", "Links", "ResourceBuffer"]

FLUSH_ROWS = 4096
"""Resources a buffer holds at most as parsed dicts before converting them.

Small enough to bound the memory held in Python objects, large enough that the per-call
overhead of the conversions does not matter.
"""

_EMPTY: dict[str, Any] = {}  # stands in for a missing object; never mutated
_NONE = type(None)
_SUBSECTIONS = ("stats", "tags")
# Up to this many keys, reading a section key by key beats grouping its rows by key set.
_FEW_KEYS = 6


@dataclass(frozen=True)
class Links:
    """The identifiers one relationship holds across a table (or a chunk of it).

    Attributes:
        rows: for each identifier, the row of the resource that holds it.
        types: the identifiers' types.
        ids: the identifiers' ids.
    """

    rows: np.ndarray
    types: pa.Array
    ids: pa.Array

    @classmethod
    def empty(cls) -> Links:
        return cls(
            np.zeros(0, dtype=np.int64), pa.array([], pa.string()), pa.array([], pa.string())
        )


class ResourceBuffer:
    """The resources of one type, in the order first seen.

    Args:
        type_: the JSON:API type.
        relationships: names of relationships read as identifier arrays (:meth:`links`);
            others become extra columns holding their identifiers as JSON text.
        text_stats: whether ``attributes.stats`` may be a text value (the older variant's
            match) rather than an object.

    Attributes:
        ids: the resource ids, one per row; the walk appends to it directly.
        pending: resources not converted yet; the walk appends to it directly and calls
            :meth:`flush` when it holds :data:`FLUSH_ROWS`.
        documents: the document index of each pending resource, for error messages.
    """

    def __init__(
        self, type_: str, *, relationships: Collection[str] = (), text_stats: bool = False
    ) -> None:
        self.type = type_
        self.known_relationships = frozenset(relationships)
        self.text_stats = text_stats
        self.ids: list[str] = []
        self.pending: list[dict[str, Any]] = []
        self.documents: list[int] = []
        self._converted = 0
        self._chunks: list[tuple[int, dict[str, dict[str, pa.Array]]]] = []
        self._links: dict[str, list[Links]] = {}

    @property
    def rows(self) -> int:
        return len(self.ids)

    def flush(self) -> None:
        """Convert the pending resources."""
        resources = self.pending
        if not resources:
            return
        start = self._converted
        sections: dict[str, dict[str, pa.Array]] = {}
        attributes = self._objects([r.get("attributes") for r in resources], "attributes")
        # attributes hold a few keys: one pass per key beats grouping rows by key set.
        keys = set().union(*attributes)
        sections["attributes"] = {
            key: fast_arrow([a.get(key) for a in attributes])
            for key in sorted(keys)
            if key not in _SUBSECTIONS
        }
        for name in _SUBSECTIONS:
            if name not in keys:
                continue
            values = [a.get(name) for a in attributes]
            if name == "stats" and self.text_stats and str in set(map(type, values)):
                sections["text"] = {
                    "stats": fast_arrow([v if type(v) is str else None for v in values])
                }
                values = [v if type(v) is dict else None for v in values]
            if set(map(type, values)) <= {_NONE}:
                continue
            sections[name] = _section(self._objects(values, f"attributes.{name}"))
        del attributes
        relationships = self._objects([r.get("relationships") for r in resources], "relationships")
        for name in sorted(set().union(*relationships)):
            members = [r.get(name) for r in relationships]
            if not set(map(type, members)) <= {dict, _NONE}:
                self._raise_for_relationship(name)
            data = [m.get("data") if m is not None else None for m in members]
            if name in self.known_relationships:
                self._links.setdefault(name, []).append(self._identifiers(data, name, start))
            elif any(data):
                sections.setdefault("relationships", {})[name] = self._identifier_text(name)
        self._chunks.append((len(resources), sections))
        self._converted += len(resources)
        self.pending = []
        self.documents = []

    def _objects(self, values: list[Any], what: str) -> list[dict[str, Any]]:
        """Values that must be objects or missing: checked, with ``{}`` for missing ones."""
        kinds = set(map(type, values))
        if kinds <= {dict}:
            return values
        if not kinds <= {dict, _NONE}:
            for position, value in enumerate(values):
                if value is not None and type(value) is not dict:
                    raise DocumentError(
                        f"'{what}' must be an object, not {type(value).__name__}",
                        document_index=self.documents[position],
                        resource=(self.type, self.ids[self._converted + position]),
                    )
        return [_EMPTY if value is None else value for value in values]

    def _identifiers(self, data: list[Any], name: str, start: int) -> Links:
        """The identifiers of one known relationship in this chunk, checked."""
        kinds = set(map(type, data)) - {_NONE}
        if not kinds:
            return Links.empty()
        try:
            if kinds == {list}:
                counts = [len(value) if value is not None else 0 for value in data]
                items = [item for value in data if value for item in value]
                rows = np.repeat(np.arange(start, start + len(data), dtype=np.int64), counts)
            elif kinds == {dict}:
                rows = np.flatnonzero([value is not None for value in data]) + start
                items = [value for value in data if value is not None]
            else:
                raise _MalformedError
            types = pa.array([item["type"] for item in items], type=pa.string())
            ids = pa.array([item["id"] for item in items], type=pa.string())
            if types.null_count or ids.null_count or _has_empty(types) or _has_empty(ids):
                raise _MalformedError
        except (TypeError, KeyError, _MalformedError, *CONVERSION_ERRORS):
            self._raise_for_relationship(name)
            raise  # not reached: the line above raises the precise error
        return Links(rows.astype(np.int64, copy=False), types, ids)

    def _raise_for_relationship(self, name: str, position: int | None = None) -> None:
        """Raise the precise error for a malformed relationship (found by the Python reader)."""
        positions = range(len(self.pending)) if position is None else [position]
        for index in positions:
            relationship_keys(self.pending[index], name, document_index=self.documents[index])
        raise DocumentError(f"relationship {name!r} of a {self.type} resource is malformed")

    def _identifier_text(self, name: str) -> pa.Array:
        """An unknown relationship's identifiers as JSON text per row (null when empty)."""
        values = []
        for resource, document in zip(self.pending, self.documents, strict=True):
            keys = relationship_keys(resource, name, document_index=document)
            if not keys:
                values.append(None)
                continue
            items = [{"id": id_, "type": type_} for type_, id_ in keys]
            data = resource["relationships"][name]["data"]
            values.append(text_value(items[0] if isinstance(data, dict) else items))
        return pa.array(values, type=pa.string())

    def sections(self) -> dict[str, dict[str, pa.Array]]:
        """Every section's columns by wire key, full length (chunks are released)."""
        self.flush()
        names: dict[str, dict[str, None]] = {}
        for _, sections in self._chunks:
            for section, arrays in sections.items():
                names.setdefault(section, {}).update(dict.fromkeys(arrays))
        result: dict[str, dict[str, pa.Array]] = {}
        for section, keys in names.items():
            result[section] = {}
            for key in keys:
                pieces = unify(
                    [
                        _or_nulls(sections.get(section, {}).get(key), length)
                        for length, sections in self._chunks
                    ]
                )
                result[section][key] = pa.concat_arrays(pieces) if len(pieces) > 1 else pieces[0]
        self._chunks = []
        return result

    def links(self, name: str) -> Links:
        """The identifiers of a known relationship across every row."""
        self.flush()
        pieces = [piece for piece in self._links.get(name, []) if len(piece.rows)]
        if not pieces:
            return Links.empty()
        if len(pieces) == 1:
            return pieces[0]
        return Links(
            np.concatenate([piece.rows for piece in pieces]),
            pa.concat_arrays([piece.types for piece in pieces]),
            pa.concat_arrays([piece.ids for piece in pieces]),
        )


class _Grouped:
    """A list of dicts held as value tuples grouped by key set, read column by column."""

    __slots__ = ("groups", "keys", "rows")

    def __init__(self, dicts: list[dict[str, Any]]) -> None:
        groups: dict[tuple[str, ...], tuple[list[int], list[tuple[Any, ...]]]] = {}
        for position, mapping in enumerate(dicts):
            keys = tuple(mapping)
            group = groups.get(keys)
            if group is None:
                group = groups[keys] = ([], [])
            group[0].append(position)
            group[1].append(tuple(mapping.values()))
        self.rows = len(dicts)
        self.groups = [
            (keys, np.asarray(positions, dtype=np.int64), values)
            for keys, (positions, values) in groups.items()
        ]
        seen: dict[str, None] = {}
        for keys in groups:
            seen.update(dict.fromkeys(keys))
        self.keys = list(seen)

    def _pieces(self, key: str) -> list[tuple[np.ndarray, list[Any]]]:
        return [
            (positions, list(map(itemgetter(keys.index(key)), values)))
            for keys, positions, values in self.groups
            if key in keys
        ]

    def column(self, key: str) -> list[Any]:
        """The values of ``key`` in row order (None where a row lacks it)."""
        pieces = self._pieces(key)
        if len(pieces) == 1 and len(pieces[0][1]) == self.rows:
            return pieces[0][1]  # one group holds every row, in order
        column: list[Any] = [None] * self.rows
        for positions, values in pieces:
            for position, value in zip(positions.tolist(), values, strict=True):
                column[position] = value
        return column

    def arrow(self, key: str) -> pa.Array:
        """The values of ``key`` as an Arrow array (null where a row lacks it)."""
        pieces = self._pieces(key)
        if len(pieces) == 1 and len(pieces[0][1]) == self.rows:
            return fast_arrow(pieces[0][1])
        arrays = unify([fast_arrow(values) for _, values in pieces])
        combined = pa.concat_arrays([*arrays, pa.nulls(1, type=arrays[0].type)])
        take = np.full(self.rows, len(combined) - 1, dtype=np.int64)
        offset = 0
        for positions, values in pieces:
            take[positions] = np.arange(offset, offset + len(values), dtype=np.int64)
            offset += len(values)
        return combined.take(pa.array(take))


class _MalformedError(Exception):
    """Relationship data the fast path cannot read; the Python reader names the problem."""


def _has_empty(text: pa.Array) -> bool:
    return bool(len(text)) and pc.min(pc.utf8_length(text)).as_py() == 0


def _section(dicts: list[dict[str, Any]]) -> dict[str, pa.Array]:
    """One array per key of a list of dicts (the section's columns)."""
    keys = set().union(*dicts)
    if len(keys) <= _FEW_KEYS:
        return {key: fast_arrow([d.get(key) for d in dicts]) for key in sorted(keys)}
    grouped = _Grouped(dicts)
    return {key: grouped.arrow(key) for key in grouped.keys}


def _or_nulls(array: pa.Array | None, length: int) -> pa.Array:
    return pa.nulls(length) if array is None else array
