"""Resources of one type, buffered, read and converted to Arrow a chunk at a time.

The walk over the documents only deduplicates and appends each resource to the buffer of its
type; every :data:`FLUSH_ROWS` resources of a type (and every few thousand resources overall,
see :mod:`matchkit.normalize.pipeline`) the buffer reads its chunk while the resources are still in
the CPU caches and converts it to Arrow arrays at once, one array per key. Resources decoded by the
fast path (:mod:`matchkit.normalize.wire`) are read a Struct level at a time (``astuple`` per row,
transposed in C); parsed dicts are read per key, and every shape is checked on the way, so that
malformed input raises the precise :class:`~matchkit.errors.DocumentError`. Relationship data
become identifier arrays (:class:`Links`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np
import pyarrow as pa
from msgspec import Struct
from msgspec.structs import astuple

from matchkit.errors import DocumentError
from matchkit.normalize.columns import fast_arrow, text_value, unify
from matchkit.normalize.wire import SUBSECTIONS, UNSET, Identifier, ResourceShape
from matchkit.rules.jsonapi import relationship_keys

__all__ = ["FLUSH_ROWS", "Links", "ResourceBuffer"]

FLUSH_ROWS = 4096
"""Resources a buffer holds at most before reading and converting them.

Small enough that they are still in the CPU caches when read and to bound the memory held in
Python objects, large enough that the fixed cost of each conversion does not matter.
"""

_EMPTY: dict[str, Any] = {}  # stands in for a missing object; never mutated
_NONE = type(None)
_DATA = attrgetter("data")
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
        shape: the type's declaration in the fast path (:mod:`matchkit.normalize.wire`), needed to
        read
            typed resources.

    Attributes:
        ids: the resource ids, one per row; the walk appends to it directly.
        pending: resources (dicts) not converted yet; the walk appends to it directly and calls
            :meth:`flush` when it holds :data:`FLUSH_ROWS`.
        typed: resources decoded as Structs (:mod:`matchkit.normalize.wire`) not converted yet,
        likewise.
            Only one of ``pending`` and ``typed`` holds resources at a time: the walk flushes
            the buffer before it switches, so rows keep the order first seen.
        documents: the document index of each pending dict resource, for error messages.
    """

    def __init__(
        self,
        type_: str,
        *,
        relationships: Collection[str] = (),
        text_stats: bool = False,
        shape: ResourceShape | None = None,
    ) -> None:
        self.type = type_
        self.shape = shape
        self.typed: list[Struct] = []
        self.known_relationships = frozenset(relationships)
        self.text_stats = text_stats
        self.ids: list[str] = []
        self.pending: list[dict[str, Any]] = []
        self.documents: list[int] = []
        self._flushed = 0  # rows read before the chunk being read
        self._chunk: dict[str, dict[str, pa.Array]] = {}
        self._chunks: list[tuple[int, dict[str, dict[str, pa.Array]]]] = []
        self._links: dict[str, list[Links]] = {}

    @property
    def rows(self) -> int:
        return len(self.ids)

    def flush(self) -> None:
        """Read the pending resources into Arrow arrays and identifier arrays."""
        self._chunk = {}
        if self.pending:
            count = len(self.pending)
            self._read_dicts(self.pending)
        elif self.typed:
            count = len(self.typed)
            self._read_structs(self.typed)
        else:
            return
        self._chunks.append((count, self._chunk))
        self._chunk = {}
        self._flushed += count
        self.pending = []
        self.typed = []
        self.documents = []

    def _read_dicts(self, resources: list[dict[str, Any]]) -> None:
        """Read parsed resources (dicts), checking every shape."""
        attributes = self._objects([r.get("attributes") for r in resources], "attributes")
        # attributes hold a few keys: one pass per key beats grouping rows by key set.
        keys = set().union(*attributes)
        for key in keys:
            if key not in SUBSECTIONS:
                self._add("attributes", key, [a.get(key) for a in attributes])
        for name in SUBSECTIONS:
            if name not in keys:
                continue
            values = [a.get(name) for a in attributes]
            if name == "stats" and self.text_stats and str in set(map(type, values)):
                self._add("text", "stats", [v if type(v) is str else None for v in values])
                values = [v if type(v) is dict else None for v in values]
            self._add_objects(name, values)
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

    def _read_structs(self, resources: list[Struct]) -> None:
        """Read resources decoded by :class:`~matchkit.normalize.wire.ShapeDecoder` (checked there).

        Each Struct level is read with one ``astuple`` per row and transposed in C.
        """
        shape = self.shape
        if shape is None:
            raise TypeError(f"the {self.type} buffer was not given a shape for typed resources")
        _, attributes, relationships, *_ = _fields(resources)
        fields = dict(zip(shape.attributes, _fields(attributes), strict=True))
        del attributes
        for name in SUBSECTIONS:
            values = fields.pop(name)
            if not any(values):
                continue
            members = shape.sections[name]
            if members is None:  # no members declared: an object, decoded as a dict
                self._add_objects(name, values)
                continue
            if None in values:
                empty = shape.empty_sections[name]
                values = [empty if value is None else value for value in values]
            self._add_columns(shape, name, dict(zip(members, _fields(values), strict=True)))
        self._add_columns(shape, "attributes", fields)
        for name, members in zip(shape.relationships, _fields(relationships), strict=True):
            data = list(map(_DATA, members))
            if name in self.known_relationships:
                self._identifiers(data, name, typed=True)
            elif any(data):
                self._add("relationships", name, list(map(_identifiers_text, data)))

    def _add_columns(
        self, shape: ResourceShape, section: str, columns: dict[str, Sequence[Any]]
    ) -> None:
        """Add typed columns; an extra member's UNSET (not carried) becomes None, and an extra
        member no row carries adds nothing."""
        extras, arrow_types = shape.extras, shape.arrow_types
        for key, values in columns.items():
            if key in extras and UNSET in values:
                if values.count(UNSET) == len(values):
                    continue
                values = [None if value is UNSET else value for value in values]
            self._add(section, key, values, arrow_types.get((section, key)))

    def _add_objects(self, name: str, values: list[Any]) -> None:
        """Add the members of a section whose values are objects (dicts) or missing."""
        if not any(values):
            return
        for key, column in _columns(self._objects(values, f"attributes.{name}")).items():
            self._add(name, key, column)

    def _add(
        self, section: str, key: str, values: Sequence[Any], arrow_type: pa.DataType | None = None
    ) -> None:
        """Add one column of the chunk (a value per row), converted to Arrow (to
        ``arrow_type`` when the values were checked to be of its kind)."""
        self._chunk.setdefault(section, {})[key] = fast_arrow(values, arrow_type)

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
                        resource=(self.type, self.ids[self._flushed + position]),
                    )
        return [_EMPTY if value is None else value for value in values]

    def _identifiers(self, data: list[Any], name: str, *, typed: bool = False) -> None:
        """Add the identifiers of one known relationship in this chunk, checked.

        ``typed``: the identifiers are :class:`~matchkit.normalize.wire.Identifier` Structs
        (checked when decoded), else dicts.
        """
        kinds = set(map(type, data))
        if kinds <= {_NONE}:
            return
        try:
            if kinds <= {list, _NONE}:
                if _NONE in kinds:
                    data = [[] if value is None else value for value in data]
                counts = list(map(len, data))
                items = list(chain.from_iterable(data))
            elif kinds <= {Identifier if typed else dict, _NONE}:
                counts = [0 if value is None else 1 for value in data]
                items = [value for value in data if value is not None]
            else:
                raise _MalformedError
            if not items:
                return
            if typed:
                types, ids, _ = _fields(items)
            else:
                types = [item["type"] for item in items]
                ids = [item["id"] for item in items]
        except (TypeError, KeyError, _MalformedError):
            self._raise_for_relationship(name)
            raise  # not reached: the line above raises the precise error
        if not typed and not (_all_text(types) and _all_text(ids)):
            self._raise_for_relationship(name)
        rows = np.arange(self._flushed, self._flushed + len(data), dtype=np.int64)
        self._links.setdefault(name, []).append(
            Links(np.repeat(rows, counts), _text_array(types), pa.array(ids, type=pa.string()))
        )

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
            data = resource["relationships"][name]["data"]
            values.append(_keys_text(keys, single=isinstance(data, dict)))
        return values

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


class _MalformedError(Exception):
    """Relationship data the fast path cannot read; the Python reader names the problem."""


def _fields(structs: Sequence[Struct]) -> list[tuple[Any, ...]]:
    """The fields of Structs of one type, one tuple of values per field (transposed in C)."""
    return list(zip(*map(astuple, structs), strict=True))


def _text_array(values: Sequence[str]) -> pa.Array:
    """Strings (at least one) as an Arrow array; one value repeated, as the identifiers of a
    relationship mostly have one type, is written once."""
    if values.count(values[0]) == len(values):
        return pa.repeat(pa.scalar(values[0], pa.string()), len(values))
    return pa.array(values, type=pa.string())


def _identifiers_text(data: Identifier | list[Identifier] | None) -> str | None:
    """A typed relationship's identifiers as JSON text (None when empty)."""
    if not data:
        return None
    items = data if type(data) is list else [data]
    return _keys_text([(item.type, item.id) for item in items], single=type(data) is not list)


def _keys_text(keys: Sequence[tuple[str, str]], *, single: bool) -> str:
    """Identifiers ``(type, id)`` as JSON text: one object (a to-one relationship) or a list."""
    items = [{"id": id_, "type": type_} for type_, id_ in keys]
    return text_value(items[0] if single else items)


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
        (order,) = shapes
        rows = list(map(tuple, map(dict.values, dicts)))
    elif len(full) == 1:  # one complete key order; the other rows are read key by key
        order = full[0]
        count = len(order)
        rows = [tuple(d.values()) if len(d) == count else tuple(map(d.get, order)) for d in dicts]
    else:
        order = tuple(keys)
        rows = [tuple(map(d.get, order)) for d in dicts]
    # (Rows whose complete key orders differ are read key by key, in one order.)
    return dict(zip(order, zip(*rows, strict=True), strict=True))


def _or_nulls(array: pa.Array | None, length: int) -> pa.Array:
    return pa.nulls(length) if array is None else array
