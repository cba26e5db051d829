"""The typed reader: raw pages of the known global shape -> Structs -> :class:`Chunk`.

A page is decoded by :class:`matchkit.normalize.typed_shapes.ShapeDecoder` (checked there, down to
every member's wire type); a batch of resources of one type is then read a Struct level at a
time, with one :func:`msgspec.structs.astuple` per row and the transposition done in C.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, compress, repeat
from operator import attrgetter, is_not
from typing import Any, cast

import numpy as np
from msgspec import Struct
from msgspec.structs import astuple

from matchkit.model.schema import RESOURCE_TABLES, SUBSECTIONS
from matchkit.normalize.chunks import Chunk, Group, Links, Sections, as_identifiers
from matchkit.normalize.columns import fast_arrow, identifiers_text
from matchkit.normalize.typed_shapes import UNSET, Identifier, ResourceShape, ShapeDecoder
from matchkit.rules.jsonapi import RAW_TYPES

__all__ = ["Transposed", "TypedReader"]

_ID = attrgetter("id")
_TYPE = attrgetter("type")
_ATTRIBUTES = attrgetter("attributes")
_RELATIONSHIPS = attrgetter("relationships")
_NONE = type(None)
_PIECE = 64  # rows transposed at a time: few short-lived tuples alive at once


class TypedReader:
    """Reads raw pages that decode into the declared Structs; declines every other page."""

    def __init__(self, decoder: ShapeDecoder) -> None:
        self.decoder = decoder

    def split(self, document: Any, index: int) -> list[Group] | None:
        """The page's resources by type, or ``None`` when it is not raw JSON of the known
        shape."""
        if not isinstance(document, RAW_TYPES):
            return None
        page = self.decoder.decode(document)
        if page is None:
            return None
        data = page.data
        primary = data if isinstance(data, list) else [] if data is None else [data]
        groups: dict[type, list[Struct]] = {}
        for resources in (primary, page.included or ()):
            for resource in resources:
                kind = type(resource)
                group = groups.get(kind)
                if group is None:
                    groups[kind] = [resource]
                else:
                    group.append(resource)
        types = self.decoder.types
        return [Group(types[kind], group, list(map(_ID, group))) for kind, group in groups.items()]

    def read(
        self, type_: str, resources: list[Struct], ids: list[str], documents: list[int]
    ) -> Chunk:
        """Read Structs of one type (checked when decoded) into a chunk."""
        staging = self.staging(type_)
        staging.add(resources)
        return staging.chunk(ids, documents)

    def staging(self, type_: str) -> Transposed:
        """A batch's Structs of one type, read into columns a document at a time."""
        return Transposed(self.decoder.shapes[type_])


class Transposed:
    """The Structs of one type in a batch, read into Python lists of values, one list per field
    (and per section member and relationship), as each document's come in.

    A document's Structs are read while they are still in the processor's caches, right after
    they were decoded, and are let go with their document: read a batch at a time, the values
    were fetched back from memory for each of them (on the benchmark's PUBG documents, the
    transposition took twice the time). The lists are converted to Arrow once, in
    :meth:`chunk`.
    """

    def __init__(self, shape: ResourceShape) -> None:
        self.shape = shape
        self.rows = 0
        self.attributes: dict[str, list[Any]] = {
            name: [] for name in shape.attributes if name not in SUBSECTIONS
        }
        # A section's columns, from the first document that carries it (earlier rows: the
        # empty section's values); a section declared without members: its objects.
        self.sections: dict[str, dict[str, list[Any]]] = {}
        self.objects: dict[str, list[dict[str, Any] | None]] = {}
        self.relationships: dict[str, list[Any]] = {name: [] for name in shape.relationships}

    def add(self, resources: list[Struct]) -> None:
        """Read one document's Structs of this type into the columns."""
        shape = self.shape
        count = len(resources)
        fields = _fields(list(map(_ATTRIBUTES, resources)), shape.attributes)
        for name, values in zip(shape.attributes, fields, strict=True):
            column = self.attributes.get(name)
            if column is not None:
                column.extend(values)
            elif shape.sections[name] is None:
                self._add_objects(name, values)
            else:
                self._add_section(name, values)
        relationships = list(map(_RELATIONSHIPS, resources))
        for name, column in self.relationships.items():
            # One C pass per relationship: cheaper than transposing these narrow Structs.
            column.extend(map(attrgetter(f"{name}.data"), relationships))
        self.rows += count

    def _add_section(self, name: str, values: Sequence[Any]) -> None:
        """One document's ``stats`` or ``tags`` (Structs, or None where a resource has none)."""
        columns = self.sections.get(name)
        carried = any(values)
        if columns is None:
            if not carried:
                return  # as if absent, unless a later document carries the section
            empty = astuple(self.shape.empty_sections[name])
            columns = self.sections[name] = {
                member: [default] * self.rows
                for member, default in zip(self.shape.sections[name] or (), empty, strict=True)
            }
        if not carried:
            empty = astuple(self.shape.empty_sections[name])
            for column, default in zip(columns.values(), empty, strict=True):
                column.extend(repeat(default, len(values)))
            return
        blank = self.shape.empty_sections[name]
        structs = (
            [blank if value is None else value for value in values] if None in values else values
        )
        for column, members in zip(columns.values(), _fields(structs, tuple(columns)), strict=True):
            column.extend(members)

    def _add_objects(self, name: str, values: Sequence[dict[str, Any] | None]) -> None:
        """One document's section declared without members (objects decoded as dicts)."""
        objects = self.objects.get(name)
        if objects is None:
            if not any(values):
                return
            objects = self.objects[name] = [None] * self.rows
        objects.extend(values)

    def chunk(self, ids: list[str], documents: list[int]) -> Chunk:
        """The columns read so far, as Arrow arrays, in one chunk."""
        shape = self.shape
        known = frozenset(RESOURCE_TABLES[shape.type][1])
        sections: Sections = {}
        links: dict[str, Links] = {}
        for name in SUBSECTIONS:
            if name in self.objects:
                _add_objects(sections, name, self.objects.pop(name))
            elif name in self.sections:
                _add_columns(sections, shape, name, self.sections.pop(name))
        _add_columns(sections, shape, "attributes", self.attributes)
        self.attributes = {}
        for name, data in self.relationships.items():
            if name in known:
                found = _links(data)
                if found is not None:
                    links[name] = found
            elif any(data):
                sections.setdefault("relationships", {})[name] = fast_arrow(
                    list(map(_identifiers_text, data))
                )
        self.relationships = {}
        return Chunk.of(shape.type, ids, documents, sections, links)


def _add_columns(
    sections: Sections, shape: ResourceShape, section: str, columns: Mapping[str, Sequence[Any]]
) -> None:
    """Add typed columns; an extra member's UNSET (not carried) becomes None, and an extra
    member no row carries adds nothing."""
    extras, arrow_types = shape.extras, shape.arrow_types
    target = sections.setdefault(section, {})
    for key, values in columns.items():
        if key in extras and UNSET in values:
            if values.count(UNSET) == len(values):
                continue
            values = [None if value is UNSET else value for value in values]
        target[key] = fast_arrow(values, arrow_types.get((section, key)))


def _add_objects(sections: Sections, name: str, values: Sequence[dict[str, Any] | None]) -> None:
    """Add the members of a section decoded as dicts (no members declared), row by row."""
    rows = [{} if value is None else value for value in values]
    keys = dict.fromkeys(chain.from_iterable(rows))
    target = sections.setdefault(name, {})
    for key in keys:
        target[key] = fast_arrow([row.get(key) for row in rows])


def _links(data: list[Identifier | tuple[Identifier, ...] | None]) -> Links | None:
    """The identifiers of one relationship in a batch (None when it holds none)."""
    kinds = set(map(type, data))
    if kinds <= {_NONE}:
        return None
    # ``kinds`` says which of the declared forms the batch holds: the casts state it.
    counts: list[int] | list[bool] | None
    items: list[Identifier]
    if tuple in kinds:  # lists (decoded as tuples), with single identifiers or nulls beside
        lists: Sequence[Sequence[Identifier]] = (
            cast("list[tuple[Identifier, ...]]", data)
            if kinds == {tuple}
            else list(map(as_identifiers, data))
        )
        counts = list(map(len, lists))
        items = list(chain.from_iterable(lists))
    elif _NONE in kinds:  # to-one, some missing
        counts = list(map(is_not, data, repeat(None)))
        items = cast("list[Identifier]", list(compress(data, counts)))
    else:  # to-one
        counts, items = None, cast("list[Identifier]", data)
    if not items:
        return None
    types, ids = list(map(_TYPE, items)), list(map(_ID, items))
    rows = np.arange(len(data), dtype=np.int64)
    return Links.of(rows if counts is None else np.repeat(rows, counts), types, ids)


def _fields(structs: Sequence[Struct], names: Sequence[str]) -> Sequence[Sequence[Any]]:
    """The named fields (all of them, in order) of Structs of one type: a sequence of values per
    field, transposed in C from one tuple per row.

    Rows are transposed :data:`_PIECE` at a time, so that few of those tuples are alive at once:
    the garbage collector counts live allocations, and too many would set it off, scanning
    every object of the process for nothing.
    """
    if len(structs) <= _PIECE:
        return list(zip(*map(astuple, structs), strict=True)) or [()] * len(names)
    columns: list[list[Any]] = [[] for _ in names]
    for start in range(0, len(structs), _PIECE):
        piece = zip(*map(astuple, structs[start : start + _PIECE]), strict=True)
        for column, values in zip(columns, piece, strict=True):
            column.extend(values)
    return columns


def _identifiers_text(data: Identifier | tuple[Identifier, ...] | None) -> str | None:
    """A relationship's identifiers as JSON text (None when empty)."""
    if not data:
        return None
    pairs = [(item.type, item.id) for item in as_identifiers(data)]
    return identifiers_text(pairs, single=type(data) is not tuple)
