"""Resources of one type, buffered, read a chunk at a time and converted a block at a time.

The walk over the documents only deduplicates and appends each resource to the buffer of its
type; every :data:`FLUSH_ROWS` resources of a type (and every few thousand resources overall,
see :mod:`matchkit.normalize`) the buffer reads its chunk while the parsed dicts are still in the
CPU caches: dict-valued members (``attributes``, its ``stats`` and ``tags``) become one plain
value list per key (rows sharing one key order are transposed in C), and relationship data
become identifier lists. Every shape is checked on the way, and malformed input raises the
precise :class:`~matchkit.errors.DocumentError`. Every :data:`CONVERT_ROWS` rows the lists are
converted to Arrow arrays (and :class:`Links`), one conversion per key: the fixed cost of the
conversions, which dominated with small chunks, is paid a few times per table.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from matchkit.columns import fast_arrow, text_value, unify
from matchkit.errors import DocumentError
from matchkit.jsonapi import relationship_keys

__all__ = ["FLUSH_ROWS", "Links", "ResourceBuffer"]

FLUSH_ROWS = 4096
"""Resources a buffer holds at most as parsed dicts before converting them.

Small enough to bound the memory held in Python objects, large enough that the per-call
overhead of the conversions does not matter.
"""

CONVERT_ROWS = 32768
"""Rows of a type read into Python value lists before they are converted to Arrow arrays.

The resources are read while they are still in the CPU caches (every :data:`FLUSH_ROWS`
resources, or sooner, see :mod:`matchkit.normalize`); the values wait in plain lists so that
each column is converted in few large calls rather than many small ones, whose fixed cost
dominated.
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
        self,
        type_: str,
        *,
        relationships: Collection[str] = (),
        text_stats: bool = False,
        convert_rows: int = CONVERT_ROWS,
    ) -> None:
        self.type = type_
        self.known_relationships = frozenset(relationships)
        self.text_stats = text_stats
        self.ids: list[str] = []
        self.pending: list[dict[str, Any]] = []
        self.documents: list[int] = []
        self.convert_rows = convert_rows
        self._converted = 0
        self._block: dict[str, dict[str, list[Any]]] = {}
        # relationship name -> (identifiers per row, their types, their ids)
        self._link_block: dict[str, tuple[list[int], list[Any], list[Any]]] = {}
        self._block_rows = 0
        self._chunks: list[tuple[int, dict[str, dict[str, pa.Array]]]] = []
        self._links: dict[str, list[Links]] = {}

    @property
    def rows(self) -> int:
        return len(self.ids)

    def flush(self) -> None:
        """Read the pending resources into the block's value lists and identifier arrays."""
        resources = self.pending
        if not resources:
            return
        attributes = self._objects([r.get("attributes") for r in resources], "attributes")
        # attributes hold a few keys: one pass per key beats grouping rows by key set.
        keys = set().union(*attributes)
        for key in keys:
            if key not in _SUBSECTIONS:
                self._add("attributes", key, [a.get(key) for a in attributes])
        for name in _SUBSECTIONS:
            if name not in keys:
                continue
            values = [a.get(name) for a in attributes]
            if name == "stats" and self.text_stats and str in set(map(type, values)):
                self._add("text", "stats", [v if type(v) is str else None for v in values])
                values = [v if type(v) is dict else None for v in values]
            if set(map(type, values)) <= {_NONE}:
                continue
            for key, column in _columns(self._objects(values, f"attributes.{name}")).items():
                self._add(name, key, column)
        del attributes
        relationships = self._objects([r.get("relationships") for r in resources], "relationships")
        for name in sorted(set().union(*relationships)):
            members = [r.get(name) for r in relationships]
            if not set(map(type, members)) <= {dict, _NONE}:
                self._raise_for_relationship(name)
            data = [m.get("data") if m is not None else None for m in members]
            if name in self.known_relationships:
                self._identifiers(data, name)
            elif any(data):
                self._add("relationships", name, self._identifier_text(name))
        self._converted += len(resources)
        self._block_rows += len(resources)
        self.pending = []
        self.documents = []
        if self._block_rows >= self.convert_rows:
            self._convert_block()

    def _add(self, section: str, key: str, values: Sequence[Any]) -> None:
        """Append one chunk's values of a key to the block (None for the rows before it)."""
        block = self._block.setdefault(section, {})
        column = block.get(key)
        if column is None:
            block[key] = column = [None] * self._block_rows
        elif len(column) < self._block_rows:
            column += [None] * (self._block_rows - len(column))
        column += values

    def _convert_block(self) -> None:
        """Convert the block's value lists to Arrow arrays, one conversion per key."""
        rows = self._block_rows
        if not rows:
            return
        start = self._converted - rows
        for name, (counts, types, ids) in self._link_block.items():
            if len(counts) < rows:
                counts += [0] * (rows - len(counts))
            self._links.setdefault(name, []).append(
                Links(
                    np.repeat(np.arange(start, start + rows, dtype=np.int64), counts),
                    pa.array(types, type=pa.string()),
                    pa.array(ids, type=pa.string()),
                )
            )
        self._link_block = {}
        sections: dict[str, dict[str, pa.Array]] = {}
        for section, columns in self._block.items():
            arrays = sections[section] = {}
            for key, column in columns.items():
                if len(column) < rows:
                    column += [None] * (rows - len(column))
                arrays[key] = fast_arrow(column)
        self._chunks.append((rows, sections))
        self._block = {}
        self._block_rows = 0

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

    def _identifiers(self, data: list[Any], name: str) -> None:
        """Add the identifiers of one known relationship in this chunk to the block, checked."""
        kinds = set(map(type, data)) - {_NONE}
        if not kinds:
            return
        try:
            if kinds == {list}:
                counts = [len(value) if value is not None else 0 for value in data]
                items = [item for value in data if value for item in value]
            elif kinds == {dict}:
                counts = [0 if value is None else 1 for value in data]
                items = [value for value in data if value is not None]
            else:
                raise _MalformedError
            types = [item["type"] for item in items]
            ids = [item["id"] for item in items]
        except (TypeError, KeyError, _MalformedError):
            self._raise_for_relationship(name)
            raise  # not reached: the line above raises the precise error
        if not (_all_text(types) and _all_text(ids)):
            self._raise_for_relationship(name)
        block = self._link_block.get(name)
        if block is None:
            block = self._link_block[name] = ([], [], [])
        block_counts, block_types, block_ids = block
        if len(block_counts) < self._block_rows:
            block_counts += [0] * (self._block_rows - len(block_counts))
        block_counts += counts
        block_types += types
        block_ids += ids

    def _raise_for_relationship(self, name: str, position: int | None = None) -> None:
        """Raise the precise error for a malformed relationship (found by the Python reader)."""
        positions = range(len(self.pending)) if position is None else [position]
        for index in positions:
            relationship_keys(self.pending[index], name, document_index=self.documents[index])
        raise DocumentError(f"relationship {name!r} of a {self.type} resource is malformed")

    def _identifier_text(self, name: str) -> list[str | None]:
        """An unknown relationship's identifiers as JSON text per row (None when empty)."""
        values = []
        for resource, document in zip(self.pending, self.documents, strict=True):
            keys = relationship_keys(resource, name, document_index=document)
            if not keys:
                values.append(None)
                continue
            items = [{"id": id_, "type": type_} for type_, id_ in keys]
            data = resource["relationships"][name]["data"]
            values.append(text_value(items[0] if isinstance(data, dict) else items))
        return values

    def sections(self) -> dict[str, dict[str, pa.Array]]:
        """Every section's columns by wire key, full length (chunks are released)."""
        self.flush()
        self._convert_block()
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
        self._convert_block()
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


class _MalformedError(Exception):
    """Relationship data the fast path cannot read; the Python reader names the problem."""


def _all_text(values: list[Any]) -> bool:
    """Whether every value is a non-empty string."""
    return not values or (set(map(type, values)) == {str} and "" not in values)


def _columns(dicts: list[dict[str, Any]]) -> dict[str, Sequence[Any]]:
    """The values of every key of a list of dicts, in row order (None where a row lacks it)."""
    keys = set().union(*dicts)
    if len(keys) <= _FEW_KEYS:
        return {key: [d.get(key) for d in dicts] for key in keys}
    # Each row becomes one tuple of values in a common key order, and the tuples are
    # transposed in C: one pass over the dicts, while they are in the CPU caches.
    shapes = set(map(tuple, dicts))
    full = [shape for shape in shapes if len(shape) == len(keys)]
    if len(shapes) == 1:
        rows = list(map(tuple, map(dict.values, dicts)))
    elif len(full) == 1:  # one complete key order; the other rows are read key by key
        order = full[0]
        count = len(order)
        rows = [tuple(d.values()) if len(d) == count else tuple(map(d.get, order)) for d in dicts]
    else:
        order = tuple(keys)
        rows = [tuple(map(d.get, order)) for d in dicts]
    return dict(zip(full[0] if full else order, zip(*rows, strict=True), strict=True))


def _or_nulls(array: pa.Array | None, length: int) -> pa.Array:
    return pa.nulls(length) if array is None else array
