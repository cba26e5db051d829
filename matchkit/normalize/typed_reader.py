"""The typed reader: raw pages of the known global shape -> Structs -> :class:`Chunk`.

A page is decoded by :class:`matchkit.normalize.typed_shapes.ShapeDecoder` (checked there, down to
every member's wire type); a batch of resources of one type is then read a Struct level at a
time, with one :func:`msgspec.structs.astuple` per row and the transposition done in C.
"""

from __future__ import annotations

from collections.abc import Sequence
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
        shape = self.decoder.shapes[type_]
        known = frozenset(RESOURCE_TABLES[type_][1])
        sections: Sections = {}
        links: dict[str, Links] = {}
        attributes = list(map(_ATTRIBUTES, resources))
        fields = dict(zip(shape.attributes, _fields(attributes, shape.attributes), strict=True))
        del attributes
        for name in SUBSECTIONS:
            values = fields.pop(name)
            if not any(values):
                continue
            members = shape.sections[name]
            if members is None:  # no members declared: an object, decoded as a dict
                _add_objects(sections, name, values)
                continue
            if None in values:
                empty = shape.empty_sections[name]
                values = [empty if value is None else value for value in values]
            _add_columns(
                sections, shape, name, dict(zip(members, _fields(values, members), strict=True))
            )
        _add_columns(sections, shape, "attributes", fields)
        relationships = list(map(_RELATIONSHIPS, resources))
        for name in shape.relationships:
            # One C pass per relationship: cheaper than transposing these narrow Structs.
            data = list(map(attrgetter(f"{name}.data"), relationships))
            if name in known:
                found = _links(data)
                if found is not None:
                    links[name] = found
            elif any(data):
                sections.setdefault("relationships", {})[name] = fast_arrow(
                    list(map(_identifiers_text, data))
                )
        return Chunk.of(type_, ids, documents, sections, links)


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
