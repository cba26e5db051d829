"""The same resource twice (decision 17): snapshots keep the latest match's, conflicts are reported.

The walker keeps the first copy of every resource in its table and hands every later copy here.
After the walk, the copies are read by the reader that split them (into chunks, like every other
resource) and compared with the first copy column by column:

- a player or team (:data:`~matchkit.model.schema.SNAPSHOT_OWNERS`) is a snapshot at each
  match's time, so its copies may differ. The copy that came with the latest match (by match
  ``createdAt``, then match id) is kept, whatever the order of pages; the number of resources
  that arrived with differing attributes is reported.
- a resource that belongs to one match (a roster, participant, round, ...) arriving again with
  different content is a conflict: the first copy stays, and the count is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.normalize.arrow import ARROW_POOL, compared, filtered, missing, nulls, take
from matchkit.normalize.chunks import Batch, ChunkTable, Links, Reader, Sections
from matchkit.normalize.columns import unify
from matchkit.normalize.problems import Problems

__all__ = ["MatchKey", "Repeats", "SnapshotKeys"]

MatchKey = tuple[int, int, str]
"""How late a copy came: ``(1, createdAt in ns since the epoch, match id)`` of its latest match
(a missing createdAt counts as the earliest time), ``(0, 0, "")`` when no match of its document
refers to it. Later keys win."""

_NO_MATCH: MatchKey = (0, 0, "")
_NO_TIME = -(2**63)


class Repeats:
    """Later copies of resources already seen: batches in the order they came, a new one
    whenever the reader changes."""

    def __init__(self) -> None:
        self._batches: list[Batch] = []

    def extend(
        self, type_: str, resources: list[Any], ids: list[str], document: int, reader: Reader
    ) -> None:
        """Keep later copies of resources of one type that came in one document."""
        if not self._batches or self._batches[-1].reader is not reader:
            self._batches.append(Batch(reader))
        self._batches[-1].extend(type_, resources, ids, document)

    def read(self, type_: str) -> ChunkTable | None:
        """The later copies of one type, read by their readers (None when there are none)."""
        table = ChunkTable(type_)
        for batch in self._batches:
            chunk = batch.read(type_)
            if chunk is not None:
                table.append(chunk)
        return table if table.chunks else None


class SnapshotKeys:
    """The latest match a snapshot's document brought it with.

    Args:
        document_matches: ``(document, match id)`` for every match resource of the input.
        created: each match's ``createdAt`` in nanoseconds since the epoch (None when missing
            or unreadable).
        owners: ``(snapshot id, match id)`` pairs: which matches refer to which snapshot.
    """

    def __init__(
        self,
        document_matches: Iterable[tuple[int, str]],
        created: Mapping[str, int | None],
        owners: Iterable[tuple[str, str]],
    ) -> None:
        documents_of: dict[str, list[int]] = {}
        for document, match in document_matches:
            documents_of.setdefault(match, []).append(document)
        # The latest match of each (snapshot, document), found once for every pair.
        latest: dict[tuple[str, int], MatchKey] = {}
        for snapshot, match in owners:
            documents = documents_of.get(match)
            if not documents:
                continue
            time = created.get(match)
            key = (1, _NO_TIME if time is None else time, match)
            for document in documents:
                slot = (snapshot, document)
                if key > latest.get(slot, _NO_MATCH):
                    latest[slot] = key
        self._latest = latest

    def key(self, snapshot: str, document: int) -> MatchKey:
        """The key of the copy of ``snapshot`` that ``document`` carried."""
        return self._latest.get((snapshot, document), _NO_MATCH)


def differing(
    kept: Sections,
    kept_links: Callable[[str], Links],
    kept_rows: np.ndarray,
    copies: ChunkTable,
    link_names: Iterable[str],
) -> np.ndarray:
    """For each later copy, whether it differs from the kept row of its id.

    Args:
        kept: the table's columns (first copies).
        kept_links: the table's identifiers of a relationship the model reads.
        kept_rows: the row of each copy's id in the table.
        copies: the later copies, read.
        link_names: the relationships the model reads for this type.
    """
    count = copies.rows
    result = np.zeros(count, dtype=bool)
    copied = copies.sections()
    for section in kept.keys() | copied.keys():
        first, later = kept.get(section, {}), copied.get(section, {})
        for key in first.keys() | later.keys():
            left = take(first[key], kept_rows) if key in first else nulls(count)
            right = later[key] if key in later else nulls(count)
            left, right = unify([left, right])
            result |= ~_same(left, right)
    for name in link_names:
        left_ids = kept_links(name).by_row(kept_rows.tolist())
        right_ids = copies.links(name).by_row(list(range(count)))
        result |= np.array([a != b for a, b in zip(left_ids, right_ids, strict=True)], dtype=bool)
    return result


def _same(left: pa.Array, right: pa.Array) -> np.ndarray:
    """Per row: equal values, or both missing."""
    if pa.types.is_null(left.type) and pa.types.is_null(right.type):
        return np.ones(len(left), dtype=bool)
    equal = compared(pc.equal, left, right).to_numpy(zero_copy_only=False)
    return equal | (missing(left) & missing(right))


def report_conflicts(
    type_: str, copies: ChunkTable, differs: np.ndarray, problems: Problems
) -> None:
    """Report the ids of a match-bound type whose later copies differ (the first copy stays)."""
    differing_ids = filtered(copies.ids(), pa.array(differs, memory_pool=ARROW_POOL))
    count = len(set(differing_ids.to_pylist()))
    if count:
        problems.add(
            "conflicting_copies",
            type_,
            count,
            f"{count} {type_} resource(s) arrived more than once with different content; "
            "the first copy of each was kept",
        )


def keep_latest_snapshots(
    type_: str,
    kept: Sections,
    kept_rows: np.ndarray,
    kept_documents: Sequence[int],
    copies: ChunkTable,
    differs: np.ndarray,
    keys: SnapshotKeys,
    problems: Problems,
) -> Sections:
    """The table's columns with each differing snapshot replaced by its latest match's copy.

    Args:
        type_: the snapshot type (player, team).
        kept: the table's columns (first copies); ``kept_rows`` and ``kept_documents`` give
            each copy's row in the table and each table row's document.
        copies: the later copies, read; ``differs`` says which differ from the kept row.
        keys: how late each copy came.
        problems: where the number of snapshots with differing copies is reported.
    """
    ids = copies.ids().to_pylist()
    documents = copies.documents().tolist()
    differing_ids = {id_ for id_, flag in zip(ids, differs, strict=True) if flag}
    if not differing_ids:
        return kept
    problems.add(
        "differing_snapshots",
        type_,
        len(differing_ids),
        f"{len(differing_ids)} {type_} resource(s) arrived with differing attributes in "
        "different matches; each keeps the copy that came with its latest match (by match "
        "createdAt, then match id)",
    )
    best: dict[int, tuple[MatchKey, int]] = {}  # table row -> (key, copy position or -1)
    for position, (id_, row) in enumerate(zip(ids, kept_rows.tolist(), strict=True)):
        if id_ not in differing_ids:
            continue
        if row not in best:
            best[row] = (keys.key(id_, kept_documents[row]), -1)
        key = keys.key(id_, documents[position])
        if key > best[row][0]:  # ties: the copy seen first stays
            best[row] = (key, position)
    winners = {row: position for row, (_, position) in best.items() if position >= 0}
    if not winners:
        return kept
    total = len(kept_documents)
    order = np.arange(total, dtype=np.int64)
    chosen = np.fromiter(winners.values(), dtype=np.int64, count=len(winners))
    order[np.fromiter(winners, dtype=np.int64, count=len(winners))] = total + np.arange(
        len(winners), dtype=np.int64
    )
    copied = copies.sections()
    result: Sections = {}
    for section in kept.keys() | copied.keys():
        first, later = kept.get(section, {}), copied.get(section, {})
        result[section] = {}
        for key in first.keys() | later.keys():
            left = first[key] if key in first else nulls(total)
            right = take(later[key], chosen) if key in later else nulls(len(winners))
            left, right = unify([left, right])
            result[section][key] = take(pa.concat_arrays([left, right], ARROW_POOL), order)
    return result
