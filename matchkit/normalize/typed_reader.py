"""The typed reader: raw pages of the known global shape -> Structs -> :class:`Chunk`.

A page is decoded by :class:`matchkit.normalize.typed_shapes.ShapeDecoder` (checked there, down to
every member's wire type); its resources of each type are then read into per-field lists within
a few pages (:data:`WARM_ROWS`), a Struct level at a time, with one
:func:`msgspec.structs.astuple` per row and the transposition done in C, and the Structs are let
go. The lists of a batch become Arrow columns when the walker reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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

__all__ = ["TypedReader"]

_ID = attrgetter("id")
_TYPE = attrgetter("type")
_ATTRIBUTES = attrgetter("attributes")
_RELATIONSHIPS = attrgetter("relationships")
_NONE = type(None)
_PIECE = 64  # rows transposed at a time: few short-lived tuples alive at once

WARM_ROWS = 128
"""Resources of one type read into the typed reader's lists together: few enough that the
pages they came from are still in the processor's caches, enough that the fixed cost of a
read (a few dozen Python calls) is shared by many rows."""


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

    def stage(self, type_: str) -> _Staged:
        """Resources of one type, read into per-field lists as they come (:class:`_Staged`)."""
        return _Staged(self.decoder.shapes[type_])

    def read(
        self, type_: str, resources: list[Struct], ids: list[str], documents: list[int]
    ) -> Chunk:
        """Read Structs of one type (checked when decoded) into a chunk."""
        staged = self.stage(type_)
        staged.add(resources)
        return staged.read(ids, documents)


class _Staged:
    """The typed reader's :class:`matchkit.normalize.chunks.Staged`: the Structs read into
    per-field lists :data:`WARM_ROWS` at a time, and let go; the lists become Arrow columns a
    batch at a time.

    Read within a few pages of their decode, Structs are still in the processor's caches, and
    freeing them there lets the next pages' decode reuse that memory while it is warm: held to
    the end of a batch (thousands of resources, megabytes of Structs), they were read and freed
    cold (the figures are in ``docs/benchmarks.md``). The lists hold only the values (and
    identifiers' ids), not the Structs around them.
    """

    def __init__(self, shape: ResourceShape) -> None:
        self.shape = shape
        self.known = frozenset(RESOURCE_TABLES[shape.type][1])
        self.scalars = [name for name in shape.attributes if name not in SUBSECTIONS]
        self.attributes: list[list[Any]] = [[] for _ in self.scalars]
        # A declared section's members, one list each; an undeclared one's objects (dicts).
        self.members: dict[str, list[list[Any]]] = {}
        self.defaults: dict[str, tuple[Any, ...]] = {}
        self.objects: dict[str, list[Any]] = {}
        for name in SUBSECTIONS:
            members = shape.sections[name]
            if members is None:
                self.objects[name] = []
            else:
                self.members[name] = [[] for _ in members]
                self.defaults[name] = astuple(shape.empty_sections[name])
        self.carried: set[str] = set()  # sections and relationship texts some row carries
        self.links = {name: _Identifiers() for name in shape.relationships if name in self.known}
        self.texts: dict[str, list[str | None]] = {
            name: [] for name in shape.relationships if name not in self.known
        }
        self.data = {name: attrgetter(f"{name}.data") for name in shape.relationships}
        self.waiting: list[Struct] = []

    def add(self, resources: list[Struct]) -> None:
        """Take in one page's resources of this type: read into the lists once
        :data:`WARM_ROWS` of them wait."""
        self.waiting.extend(resources)
        if len(self.waiting) >= WARM_ROWS:
            self._take_in(self.waiting)
            self.waiting = []

    def _take_in(self, resources: list[Struct]) -> None:
        """Read resources of this type into the lists."""
        shape = self.shape
        attributes = list(map(_ATTRIBUTES, resources))
        fields = dict(zip(shape.attributes, _fields(attributes, shape.attributes), strict=True))
        del attributes
        for name in SUBSECTIONS:
            values = fields.pop(name)
            if name in self.objects:
                self.objects[name].extend(values)
                if any(values):
                    self.carried.add(name)
            elif any(values):
                self.carried.add(name)
                if None in values:
                    empty = shape.empty_sections[name]
                    values = [empty if value is None else value for value in values]
                members = cast("tuple[str, ...]", shape.sections[name])
                for column, read in zip(self.members[name], _fields(values, members), strict=True):
                    column.extend(read)
            else:  # none of these rows carries it: as an empty one reads
                for column, default in zip(self.members[name], self.defaults[name], strict=True):
                    column.extend(repeat(default, len(values)))
        for column, read in zip(self.attributes, fields.values(), strict=True):
            column.extend(read)
        relationships = list(map(_RELATIONSHIPS, resources))
        for name, data_of in self.data.items():
            # One C pass per relationship: cheaper than transposing these narrow Structs.
            data = list(map(data_of, relationships))
            if name in self.links:
                self.links[name].add(data)
            elif any(data):
                self.carried.add(name)
                self.texts[name].extend(map(_identifiers_text, data))
            else:
                self.texts[name].extend(repeat(None, len(data)))

    def read(self, ids: list[str], documents: list[int]) -> Chunk:
        """The lists as a chunk (a section or relationship no row carried adds nothing)."""
        if self.waiting:
            self._take_in(self.waiting)
            self.waiting = []
        shape = self.shape
        sections: Sections = {}
        for name in SUBSECTIONS:
            if name not in self.carried:
                continue
            if name in self.objects:
                _add_objects(sections, name, self.objects[name])
            else:
                members = cast("tuple[str, ...]", shape.sections[name])
                _add_columns(
                    sections, shape, name, dict(zip(members, self.members[name], strict=True))
                )
        _add_columns(
            sections, shape, "attributes", dict(zip(self.scalars, self.attributes, strict=True))
        )
        links: dict[str, Links] = {}
        for name in shape.relationships:
            if name in self.links:
                found = self.links[name].read(len(ids))
                if found is not None:
                    links[name] = found
            elif name in self.carried:
                sections.setdefault("relationships", {})[name] = fast_arrow(self.texts[name])
        return Chunk.of(shape.type, ids, documents, sections, links)


class _Identifiers:
    """The identifiers of one relationship, rows added as they are read: how many each row
    holds, their types and ids."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.types: list[str] = []
        self.ids: list[str] = []

    def add(self, data: list[Identifier | tuple[Identifier, ...] | None]) -> None:
        """Add rows (each an identifier, a tuple of them or None)."""
        kinds = set(map(type, data))
        if kinds <= {_NONE}:
            self.counts.extend(repeat(0, len(data)))
            return
        items: Iterable[Identifier]
        # ``kinds`` says which of the declared forms the rows hold: the casts state it.
        if tuple in kinds:  # lists (decoded as tuples), with single identifiers or nulls beside
            lists: Sequence[Sequence[Identifier]] = (
                cast("list[tuple[Identifier, ...]]", data)
                if kinds == {tuple}
                else list(map(as_identifiers, data))
            )
            self.counts.extend(map(len, lists))
            items = list(chain.from_iterable(lists))
        elif _NONE in kinds:  # to-one, some missing
            present = list(map(is_not, data, repeat(None)))
            self.counts.extend(present)
            items = cast("list[Identifier]", list(compress(data, present)))
        else:  # to-one
            self.counts.extend(repeat(1, len(data)))
            items = cast("list[Identifier]", data)
        self.types.extend(map(_TYPE, items))
        self.ids.extend(map(_ID, items))

    def read(self, rows: int) -> Links | None:
        """The identifiers of ``rows`` rows as Links (None when they hold none)."""
        if not self.ids:
            return None
        counts = np.fromiter(self.counts, dtype=np.int64, count=rows)
        return Links.of(np.repeat(np.arange(rows, dtype=np.int64), counts), self.types, self.ids)


def _add_columns(
    sections: Sections, shape: ResourceShape, section: str, columns: dict[str, Sequence[Any]]
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
