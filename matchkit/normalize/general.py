"""The general reader: any page (a dict or raw JSON) -> dicts -> :class:`Chunk`.

It reads every shape the model allows (the global shape with any extra member, the older
``na`` variant with its text stats, data as an object or a list) and checks every part on the
way, so that malformed input raises the precise :class:`matchkit.errors.DocumentError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from matchkit.errors import DocumentError
from matchkit.model.schema import RESOURCE_TABLES, SUBSECTIONS, TABLES
from matchkit.normalize.chunks import Chunk, Group, Held, Links, Sections, as_identifiers
from matchkit.normalize.columns import fast_arrow, identifiers_text
from matchkit.rules.jsonapi import load_document, relationship_keys, resource_key

__all__ = ["GeneralReader"]

_EMPTY: dict[str, Any] = {}  # stands in for a missing object; never mutated
_NONE = type(None)
# Up to this many keys, reading a section key by key beats grouping its rows by key set.
_FEW_KEYS = 6
# Types whose attributes.stats may be a text value (the older variant's match).
_TEXT_STATS = frozenset(
    schema.resource_type for schema in TABLES.values() if "stats_text" in schema.column_names
)


class GeneralReader:
    """Reads any JSON:API page, checking every shape."""

    def split(self, document: Any, index: int) -> list[Group]:
        """The page's resources by type, each key checked (types outside the model included).

        Raises:
            DocumentError: as :func:`matchkit.rules.jsonapi.load_document`, or for a resource
                without a non-empty string type and id.
        """
        document = load_document(document, document_index=index)
        data = document["data"]
        if type(data) is dict:
            data = [data]
        groups: dict[str, tuple[list[Any], list[str]]] = {}
        for resources in (data or (), document.get("included") or ()):
            for resource in resources:
                try:
                    type_ = resource["type"]
                    id_ = resource["id"]
                except (TypeError, KeyError):
                    resource_key(resource, document_index=index)  # raises the precise error
                    raise
                if type(type_) is not str or type(id_) is not str or not type_ or not id_:
                    resource_key(resource, document_index=index)
                group = groups.get(type_)
                if group is None:
                    groups[type_] = ([resource], [id_])
                else:
                    group[0].append(resource)
                    group[1].append(id_)
        return [Group(type_, resources, ids) for type_, (resources, ids) in groups.items()]

    def stage(self, type_: str) -> Held:
        """Resources of one type held as they come, read a batch at a time (:meth:`read`:
        reading a batch key by key, or grouped by key set, beats reading page by page)."""
        return Held(self, type_)

    def read(
        self, type_: str, resources: list[dict[str, Any]], ids: list[str], documents: list[int]
    ) -> Chunk:
        """Read parsed resources (dicts) of one type into a chunk, checking every shape."""
        return _ChunkReader(type_, resources, ids, documents).read()


class _ChunkReader:
    """Reads one batch of dicts; knows each row's id and document for error messages."""

    def __init__(
        self, type_: str, resources: list[dict[str, Any]], ids: list[str], documents: list[int]
    ) -> None:
        self.type = type_
        self.resources = resources
        self.ids = ids
        self.documents = documents
        self.sections: Sections = {}
        self.links: dict[str, Links] = {}

    def read(self) -> Chunk:
        resources = self.resources
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
            if name == "stats" and self.type in _TEXT_STATS and str in set(map(type, values)):
                self._add("text", "stats", [v if type(v) is str else None for v in values])
                values = [v if type(v) is dict else None for v in values]
            self._add_objects(name, values)
        del attributes
        relationships = self._objects([r.get("relationships") for r in resources], "relationships")
        known = RESOURCE_TABLES[self.type][1]
        for name in sorted(set().union(*relationships)):
            members = [r.get(name) for r in relationships]
            if not set(map(type, members)) <= {dict, _NONE}:
                self._raise_for_relationship(name)
            data = [m.get("data") if m is not None else None for m in members]
            if name in known:
                self._identifiers(data, name)
            elif any(data):
                self._add("relationships", name, self._identifier_text(name))
        return Chunk.of(self.type, self.ids, self.documents, self.sections, self.links)

    def _add(self, section: str, key: str, values: Sequence[Any]) -> None:
        self.sections.setdefault(section, {})[key] = fast_arrow(values)

    def _add_objects(self, name: str, values: list[Any]) -> None:
        """Add the members of a section whose values are objects (dicts) or missing."""
        if not any(values):
            return
        for key, column in _columns(self._objects(values, f"attributes.{name}")).items():
            self._add(name, key, column)

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
                        resource=(self.type, self.ids[position]),
                    )
        return [_EMPTY if value is None else value for value in values]

    def _identifiers(self, data: list[Any], name: str) -> None:
        """Add the identifiers of one relationship the model reads, checked."""
        kinds = set(map(type, data))
        if kinds <= {_NONE}:
            return
        try:
            if kinds <= {dict, _NONE}:  # to-one
                counts = [0 if value is None else 1 for value in data]
                items = [value for value in data if value is not None]
            elif kinds <= {list, dict, _NONE}:  # lists, with single identifiers or nulls beside
                if kinds != {list}:
                    data = list(map(as_identifiers, data))
                counts = list(map(len, data))
                items = list(chain.from_iterable(data))
            else:
                raise _MalformedError
            if not items:
                return
            types = [item["type"] for item in items]
            ids = [item["id"] for item in items]
        except (TypeError, KeyError, _MalformedError):
            self._raise_for_relationship(name)
            raise  # not reached: the line above raises the precise error
        if not (_all_text(types) and _all_text(ids)):
            self._raise_for_relationship(name)
        rows = np.repeat(np.arange(len(data), dtype=np.int64), counts)
        self.links[name] = Links.of(rows, types, ids)

    def _raise_for_relationship(self, name: str) -> None:
        """Raise the precise error for a malformed relationship."""
        for resource, document in zip(self.resources, self.documents, strict=True):
            relationship_keys(resource, name, document_index=document)
        raise DocumentError(f"relationship {name!r} of a {self.type} resource is malformed")

    def _identifier_text(self, name: str) -> list[str | None]:
        """An unknown relationship's identifiers as JSON text per row (None when empty)."""
        values: list[str | None] = []
        for resource, document in zip(self.resources, self.documents, strict=True):
            keys = relationship_keys(resource, name, document_index=document)
            if not keys:
                values.append(None)
                continue
            data = resource["relationships"][name]["data"]
            values.append(identifiers_text(keys, single=isinstance(data, dict)))
        return values


class _MalformedError(Exception):
    """Relationship data of an unexpected shape; :func:`relationship_keys` names the problem."""


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
        # (Rows whose complete key orders differ are read key by key, in one order.)
        order = tuple(keys)
        rows = [tuple(map(d.get, order)) for d in dicts]
    return dict(zip(order, zip(*rows, strict=True), strict=True))
