"""The readers' one contract: a :class:`Chunk` of resources of one type, and a table of chunks.

Both readers (the typed reader, :mod:`matchkit.normalize.typed_reader`, and the general reader,
:mod:`matchkit.normalize.general`) turn a batch of resources of one type into the same plain
:class:`Chunk`: their ids, their attribute, stats and tags members as Arrow arrays by wire key,
and the identifiers of the relationships the model reads (:class:`Links`). Nothing after the
readers knows which reader made a chunk: :class:`ChunkTable` puts the chunks of one type
together, column by column, and the table builder works from there. Until they are read,
resources wait in a :class:`Batch` of their reader, each type in a :class:`Staged` the reader
made (the typed reader reads each page's resources into per-field lists there as they come):
the walker's first copies, and the later copies of decision 17
(:mod:`matchkit.normalize.repeats`).

Example:
    >>> import pyarrow as pa
    >>> table = ChunkTable("player")
    >>> table.append(Chunk.of("player", ["p1"], [0], {"attributes": {"name": pa.array(["Ann"])}}))
    >>> table.append(Chunk.of("player", ["p2"], [1], {"attributes": {"name": pa.array([7])}}))
    >>> table.sections()["attributes"]["name"].to_pylist()
    ['Ann', '7']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np
import pyarrow as pa

from matchkit.normalize.arrow import ARROW_POOL, nulls
from matchkit.normalize.columns import unify

__all__ = [
    "Batch",
    "Chunk",
    "ChunkTable",
    "Group",
    "Held",
    "Links",
    "Reader",
    "Sections",
    "Staged",
    "as_identifiers",
    "combine_sections",
]

Sections = dict[str, dict[str, pa.Array]]
"""Arrays by section (``attributes``, ``stats``, ``tags``, ``relationships``, ``text``) and
wire key, one value per row."""


@dataclass(frozen=True)
class Links:
    """The identifiers one relationship holds across a chunk or a table.

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
        """No identifiers (one shared instance: a Links is never changed)."""
        return _NO_LINKS

    @classmethod
    def of(cls, rows: np.ndarray, types: Sequence[str], ids: Sequence[str]) -> Links:
        """Links from Python lists of identifier types and ids (at least one).

        A type repeated throughout, as a relationship's identifiers mostly are, is written once.
        """
        if types.count(types[0]) == len(types):
            type_array = pa.repeat(pa.scalar(types[0], pa.string()), len(types), ARROW_POOL)
        else:
            type_array = pa.array(types, pa.string(), memory_pool=ARROW_POOL)
        return cls(rows, type_array, pa.array(ids, pa.string(), memory_pool=ARROW_POOL))

    @classmethod
    def concat(cls, pieces: Sequence[Links], offsets: Sequence[int]) -> Links:
        """The identifiers of consecutive chunks, rows shifted by each chunk's first row."""
        pieces_offsets = [(p, o) for p, o in zip(pieces, offsets, strict=True) if len(p.rows)]
        if not pieces_offsets:
            return cls.empty()
        if len(pieces_offsets) == 1 and pieces_offsets[0][1] == 0:
            return pieces_offsets[0][0]
        return cls(
            np.concatenate([piece.rows + offset for piece, offset in pieces_offsets]),
            pa.concat_arrays([piece.types for piece, _ in pieces_offsets], ARROW_POOL),
            pa.concat_arrays([piece.ids for piece, _ in pieces_offsets], ARROW_POOL),
        )


def as_identifiers(data: Any) -> Sequence[Any]:
    """A relationship's data, in either reader's form, as a sequence of identifiers: null is
    none, a list (or the typed reader's tuple) is itself, an identifier is one (whatever the
    other resources of a batch hold)."""
    if data is None:
        return ()
    return data if type(data) in _SEQUENCES else (data,)


_SEQUENCES = (list, tuple)


_NO_LINKS = Links(np.zeros(0, dtype=np.int64), pa.array([], pa.string()), pa.array([], pa.string()))
_NO_LINKS.rows.flags.writeable = False


@dataclass(frozen=True)
class Chunk:
    """Resources of one type, read: what every reader returns.

    Attributes:
        type: the JSON:API type.
        ids: the resource ids, one per row (Arrow strings).
        documents: the input position of the document each row came from (int64).
        sections: the members as Arrow arrays, by section and wire key (a section ``text``
            holds a match's ``stats`` sent as a text value by the older variant).
        links: the identifiers of each relationship the model reads, rows within the chunk.
    """

    type: str
    ids: pa.Array
    documents: np.ndarray
    sections: Mapping[str, Mapping[str, pa.Array]] = field(default_factory=dict)
    links: Mapping[str, Links] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        type_: str,
        ids: Sequence[str],
        documents: Sequence[int],
        sections: Mapping[str, Mapping[str, pa.Array]] | None = None,
        links: Mapping[str, Links] | None = None,
    ) -> Chunk:
        """A chunk from Python lists of ids and document positions."""
        return cls(
            type_,
            pa.array(ids, pa.string(), memory_pool=ARROW_POOL),
            np.asarray(documents, dtype=np.int64),
            sections or {},
            links or {},
        )

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class Group:
    """The resources of one type in one page, as a reader holds them (opaque to the walker).

    Attributes:
        type: their JSON:API type (possibly one outside the model: the walker ignores those).
        resources: the resources, in the reader's own form.
        ids: their ids, checked to be non-empty strings.
    """

    type: str
    resources: list[Any]
    ids: list[str]


class Staged(Protocol):
    """Resources of one type taken in by a reader, not yet read into a chunk."""

    def add(self, resources: list[Any]) -> None:
        """Take in resources of this type (from groups the reader made), in order."""

    def read(self, ids: list[str], documents: list[int]) -> Chunk:
        """Everything taken in as a chunk, with each row's id and document position."""


class Reader(Protocol):
    """What the walker asks of a reader."""

    def split(self, document: Any, index: int) -> list[Group] | None:
        """The page's resources (``data``, then ``included``) grouped by type, each group in
        page order; ``None`` when this reader does not read the page."""

    def stage(self, type_: str) -> Staged:
        """An empty :class:`Staged` for resources of one type."""

    def read(self, type_: str, resources: list[Any], ids: list[str], documents: list[int]) -> Chunk:
        """The resources of one type (taken from groups this reader made) as a chunk."""


class Held:
    """A :class:`Staged` that holds the resources as they came, for its reader to read them
    all at once (:meth:`Reader.read`)."""

    def __init__(self, reader: Reader, type_: str) -> None:
        self.reader = reader
        self.type = type_
        self.resources: list[Any] = []

    def add(self, resources: list[Any]) -> None:
        self.resources.extend(resources)

    def read(self, ids: list[str], documents: list[int]) -> Chunk:
        return self.reader.read(self.type, self.resources, ids, documents)


class Batch:
    """Resources waiting to be read into chunks, all split by one reader: by type, the
    reader's :class:`Staged`, their ids and their documents' positions, in the order they came.

    Attributes:
        reader: the reader that split them, and reads them.
        size: how many resources were added, all types together.
    """

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.size = 0
        self._types: dict[str, tuple[Staged, list[str], list[int]]] = {}

    @property
    def types(self) -> list[str]:
        """The types waiting, in the order first added."""
        return list(self._types)

    def extend(self, type_: str, resources: list[Any], ids: list[str], document: int) -> None:
        """Add resources of one type that came in one document."""
        entry = self._types.get(type_)
        if entry is None:
            entry = self._types[type_] = (self.reader.stage(type_), [], [])
        entry[0].add(resources)
        entry[1].extend(ids)
        entry[2].extend([document] * len(ids))
        self.size += len(ids)

    def read(self, type_: str) -> Chunk | None:
        """The resources of one type as a chunk, let go here (None when there are none)."""
        entry = self._types.pop(type_, None)
        if entry is None or not entry[1]:
            return None
        staged, ids, documents = entry
        return staged.read(ids, documents)


@dataclass
class ChunkTable:
    """The chunks of one resource type, in the order their resources were first seen."""

    type: str
    chunks: list[Chunk] = field(default_factory=list)

    def append(self, chunk: Chunk) -> None:
        if chunk.type != self.type:
            raise ValueError(f"a {chunk.type} chunk does not belong to the {self.type} table")
        if len(chunk):
            self.chunks.append(chunk)

    @property
    def rows(self) -> int:
        return sum(map(len, self.chunks))

    def compact(self) -> None:
        """Join the chunks into one (ids, document positions, columns and identifiers, read as
        below), so that the pieces are freed now and every later read is free."""
        if len(self.chunks) < 2:
            return
        names = dict.fromkeys(name for chunk in self.chunks for name in chunk.links)
        links = {name: self.links(name) for name in names}
        self.chunks = [Chunk(self.type, self.ids(), self.documents(), self.sections(), links)]

    def ids(self) -> pa.Array:
        """Every row's id."""
        if not self.chunks:
            return pa.array([], type=pa.string())
        if len(self.chunks) == 1:
            return self.chunks[0].ids
        return pa.concat_arrays([chunk.ids for chunk in self.chunks], ARROW_POOL)

    def documents(self) -> np.ndarray:
        """Every row's document position."""
        if not self.chunks:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate([chunk.documents for chunk in self.chunks])

    def sections(self) -> Sections:
        """Every section's columns by wire key, full length."""
        return combine_sections([(len(chunk), chunk.sections) for chunk in self.chunks])

    def take_sections(self) -> Sections:
        """:meth:`sections`, handed over: the table keeps its ids, document positions and
        identifiers, and lets its columns go (whoever builds a table from them holds them)."""
        sections = self.sections()
        self.chunks = [replace(chunk, sections={}) for chunk in self.chunks]
        return sections

    def links(self, name: str) -> Links:
        """The identifiers of a relationship the model reads, across every row."""
        offsets = np.cumsum([0, *map(len, self.chunks)])[:-1].tolist()
        return Links.concat(
            [chunk.links.get(name, Links.empty()) for chunk in self.chunks], offsets
        )


def combine_sections(
    parts: Sequence[tuple[int, Mapping[str, Mapping[str, pa.Array]]]],
) -> Sections:
    """Consecutive parts' sections (``(rows, sections)`` each) as full-length columns.

    A column a part lacks is null there; its pieces are cast to a common type (:func:`unify`).
    """
    names: dict[str, dict[str, None]] = {}
    for _, sections in parts:
        for section, arrays in sections.items():
            names.setdefault(section, {}).update(dict.fromkeys(arrays))
    result: Sections = {}
    for section, keys in names.items():
        result[section] = {}
        for key in keys:
            pieces = unify(
                [
                    _or_nulls(sections.get(section, {}).get(key), length)
                    for length, sections in parts
                ]
            )
            result[section][key] = (
                pa.concat_arrays(pieces, ARROW_POOL) if len(pieces) > 1 else pieces[0]
            )
    return result


def _or_nulls(array: pa.Array | None, length: int) -> pa.Array:
    return nulls(length) if array is None else array
