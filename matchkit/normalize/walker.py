"""The walk: pages -> readers -> one deduplication -> chunks per resource type.

Each page is split by a reader into groups of resources by type: by the typed reader when it
is raw JSON of the known global shape, else by the general reader. The walker is the one place
that deduplicates: the first copy of each ``(type, id)`` joins the batch of the page's reader,
and every later copy goes to :class:`matchkit.normalize.repeats.Repeats` (decision 17). A batch
is staged by its reader as it comes (the typed reader reads a few pages' Structs at a time into
per-field lists and lets them go), and read into chunks
(:class:`matchkit.normalize.chunks.Chunk`) every :data:`FLUSH_ROWS` resources and whenever the
next page comes from the other reader, so that rows keep the order first seen; the later copies
waiting are read then too, so that no decoded resource is held to the end of the walk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from matchkit.model.schema import RESOURCE_TABLES, TABLES
from matchkit.normalize.chunks import Batch, ChunkTable, Group, Reader
from matchkit.normalize.general import GeneralReader
from matchkit.normalize.repeats import Repeats
from matchkit.normalize.typed_reader import TypedReader

__all__ = ["FLUSH_ROWS", "TYPED_GIVE_UP", "Walker"]

FLUSH_ROWS = 4096
"""Resources walked (all types together) between two reads of the batch into chunks.

Large enough that the fixed cost of each conversion (an Arrow array per column and chunk, and
joining the chunks of a type at the end) does not matter, small enough that what a batch holds
until it is read stays small: fewer resources a batch cost more instructions, more missed the
processor's caches (measured with cachegrind when the batch held its decoded resources; the
figures are in ``docs/benchmarks.md``)."""

TYPED_GIVE_UP = 16
"""Tries the typed readers may decline beyond the pages they read before they are no longer
tried (each try costs a partial parse; a page of no known shape is declined by each of them)."""

_MATCH = TABLES["matches"].resource_type


class Walker:
    """Walks the documents of one normalization into chunk tables.

    Attributes:
        tables: the chunks of each resource type of the model.
        seen: for each type, the ids in its table.
        repeats: the later copies of resources already seen.
        ignored: how many resources of each type outside the model were skipped.
        match_documents: the document of every match resource walked, first copies and later
            ones (with ``match_ids``, its id).
    """

    def __init__(self, typed: TypedReader | Sequence[TypedReader], general: GeneralReader) -> None:
        # One typed reader per declared shape (the Gamelocker shape first, then each profile's
        # own: :func:`matchkit.normalize.pipeline.shape_decoders`), tried in turn.
        self.typed = (typed,) if isinstance(typed, TypedReader) else tuple(typed)
        self.general = general
        self.tables = {type_: ChunkTable(type_) for type_ in RESOURCE_TABLES}
        self.seen: dict[str, set[str]] = {type_: set() for type_ in RESOURCE_TABLES}
        self.repeats = Repeats()
        self.ignored: Counter[str] = Counter()
        self.match_documents: list[int] = []
        self.match_ids: list[str] = []
        self._batch = Batch(general)
        self._declined = 0  # tries the typed readers declined, less the pages they read

    def add(self, document: Any, index: int) -> None:
        """Walk one document of the input (a dict or raw JSON)."""
        reader: Reader = self.general
        groups = None
        if self._declined < TYPED_GIVE_UP:
            for typed in self.typed:
                groups = typed.split(document, index)
                if groups is not None:
                    reader = typed
                    self._declined = max(self._declined - 1, 0)
                    if typed is not self.typed[0]:  # the pages of a call are mostly of one shape
                        self.typed = (typed, *(other for other in self.typed if other is not typed))
                    break
                if not isinstance(document, dict):
                    self._declined += 1  # each try costs a partial parse
        if groups is None:
            groups = self.general.split(document, index)
        if reader is not self._batch.reader:
            self.flush()
            self._batch = Batch(reader)
        for group in groups:
            self._take(group, index, reader)
        if self._batch.size >= FLUSH_ROWS:
            self.flush()

    def _take(self, group: Group, index: int, reader: Reader) -> None:
        """Deduplicate one group: first copies join the batch, later ones the repeats."""
        type_, ids = group.type, group.ids
        seen = self.seen.get(type_)
        if seen is None:
            self.ignored[type_] += len(ids)
            return
        if type_ == _MATCH:
            self.match_documents += [index] * len(ids)
            self.match_ids += ids
        if seen.isdisjoint(ids):
            before = len(seen)
            seen.update(ids)
            if len(seen) - before == len(ids):  # no repeats: at once
                self._batch.extend(type_, group.resources, ids, index)
                return
            seen.difference_update(ids)  # repeats within the page: as it was, one by one
        first: tuple[list[Any], list[str]] = ([], [])
        later: tuple[list[Any], list[str]] = ([], [])
        for id_, resource in zip(ids, group.resources, strict=True):
            into = later if id_ in seen else first
            seen.add(id_)
            into[0].append(resource)
            into[1].append(id_)
        self._batch.extend(type_, first[0], first[1], index)
        if later[1]:
            self.repeats.extend(type_, later[0], later[1], index, reader)

    def flush(self) -> None:
        """Read the batch, and the later copies waiting, into chunks."""
        batch = self._batch
        for type_ in batch.types:
            chunk = batch.read(type_)
            if chunk is not None:
                self.tables[type_].append(chunk)
        self._batch = Batch(batch.reader)
        self.repeats.flush()
