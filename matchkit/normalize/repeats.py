"""The same resource twice (decision 17): snapshots keep the latest match's, conflicts are reported.

The walker keeps the first copy of every resource in its table and hands every later copy here.
The copies are read by the reader that split them (into chunks, like every other resource,
whenever the walker reads its batch) and, after the walk, compared with the first copy column by
column:

- a player or team (:data:`matchkit.model.schema.SNAPSHOT_OWNERS`) is a snapshot at each
  match's time, so its copies may differ. The copy that came with the latest match (by match
  ``createdAt``, then match id) is kept, whatever the order of pages; the number of resources
  that arrived with differing attributes is reported.
- a resource that belongs to one match (a roster, participant, round, ...) arriving again with
  different content is a conflict: the first copy stays, and the count is reported.

Either way a table's columns and their types come from every copy read (:func:`common_types`),
and the latest copy is found with integers: matches ranked once, a slot per (snapshot,
document) (:class:`SnapshotKeys`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.normalize.arrow import ARROW_POOL, compared, filtered, missing, nulls, take
from matchkit.normalize.chunks import Batch, ChunkTable, Links, Reader, Sections
from matchkit.normalize.columns import unify
from matchkit.normalize.problems import Problems

__all__ = ["NO_TIME", "Repeats", "SnapshotKeys"]

NO_TIME = np.iinfo(np.int64).min
"""A missing or unreadable ``createdAt``: the earliest time (pandas' ``NaT`` as integers)."""


class Repeats:
    """Later copies of resources already seen, read into chunk tables by their readers as they
    come: a batch waits only until the walker's next flush (or a change of reader), so the
    copies' decoded resources are let go as the first copies' are, not held to the end."""

    def __init__(self) -> None:
        self._tables: dict[str, ChunkTable] = {}
        self._batch: Batch | None = None

    def extend(
        self, type_: str, resources: list[Any], ids: list[str], document: int, reader: Reader
    ) -> None:
        """Keep later copies of resources of one type that came in one document."""
        if self._batch is None or self._batch.reader is not reader:
            self.flush()
            self._batch = Batch(reader)
        self._batch.extend(type_, resources, ids, document)

    def flush(self) -> None:
        """Read the waiting copies into chunks, in the order they came."""
        batch, self._batch = self._batch, None
        if batch is None:
            return
        for type_ in batch.types:
            chunk = batch.read(type_)
            if chunk is not None:
                self._tables.setdefault(type_, ChunkTable(type_)).append(chunk)

    def read(self, type_: str) -> ChunkTable | None:
        """The later copies of one type, handed over once (None when there are none)."""
        self.flush()
        return self._tables.pop(type_, None)


class SnapshotKeys:
    """How late each copy of a snapshot came: the rank of the latest match its document brought
    it with, among every match by ``createdAt`` then match id (a missing ``createdAt`` counts as
    the earliest time); 0 when no match of its document refers to it. Later ranks win.

    Args:
        snapshots: the snapshot table's ids, in row order.
        matches: every match id of the tables, with ``created``: its ``createdAt`` in
            nanoseconds since the epoch (:data:`NO_TIME` when missing or unreadable).
        walked: ``(match ids, documents)`` of every match resource of the input, first copies
            and later ones.
        owners: ``(snapshot ids, match ids)``: which matches refer to which snapshot (a null or
            unknown id on either side refers to nothing).
    """

    def __init__(
        self,
        snapshots: pa.Array,
        matches: pa.Array,
        created: np.ndarray,
        walked: tuple[pa.Array, np.ndarray],
        owners: tuple[pa.Array, pa.Array],
    ) -> None:
        rank = np.empty(len(matches), dtype=np.int64)
        order = pc.sort_indices(
            pa.table({"created": created, "match": matches}),
            sort_keys=[("created", "ascending"), ("match", "ascending")],
            memory_pool=ARROW_POOL,
        )
        rank[order.to_numpy()] = np.arange(1, len(matches) + 1, dtype=np.int64)
        walked_match = _positions(walked[0], matches)
        walked_document = walked[1][walked_match >= 0]
        walked_match = walked_match[walked_match >= 0]
        # Every (snapshot row, document) that an owner brings, one per document its match came
        # in, with the match's rank; the latest rank of each (row, document) is kept.
        rows = _positions(owners[0], snapshots)
        owner_match = _positions(owners[1], matches)
        known = (rows >= 0) & (owner_match >= 0)
        rows, owner_match = rows[known], owner_match[known]
        owner, document = _pairs(owner_match, walked_match, walked_document)
        self._width = int(walked[1].max(initial=-1)) + 1
        slots = rows[owner] * self._width + document
        ranks = rank[owner_match[owner]]
        order = np.lexsort((ranks, slots))
        slots, ranks = slots[order], ranks[order]
        last = np.ones(len(slots), dtype=bool)  # the last of each slot holds its latest rank
        last[:-1] = slots[1:] != slots[:-1]
        self._slots, self._ranks = slots[last], ranks[last]

    def ranks(self, rows: np.ndarray, documents: np.ndarray) -> np.ndarray:
        """The rank of each copy: of snapshot table row ``rows[i]``, carried by document
        ``documents[i]``."""
        result = np.zeros(len(rows), dtype=np.int64)
        if not len(self._slots):
            return result
        inside = documents < self._width
        slots = rows * self._width + np.where(inside, documents, 0)
        found = np.searchsorted(self._slots, slots).clip(max=len(self._slots) - 1)
        hit = inside & (self._slots[found] == slots)
        result[hit] = self._ranks[found[hit]]
        return result


def _positions(values: pa.Array, value_set: pa.Array) -> np.ndarray:
    """Each value's position in ``value_set``, -1 when it is not there or null."""
    found = pc.index_in(values, value_set=value_set, memory_pool=ARROW_POOL)
    return pc.fill_null(found, -1).to_numpy().astype(np.int64)


def _pairs(
    queries: np.ndarray, keys: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every ``(query position, value)`` where ``keys`` at the value's position equals the
    query: a join of integer keys."""
    by_key = np.argsort(keys, kind="stable")
    keys, values = keys[by_key], values[by_key]
    starts = np.searchsorted(keys, queries, side="left")
    counts = np.searchsorted(keys, queries, side="right") - starts
    query = np.repeat(np.arange(len(queries)), counts)
    # the position of each pair's value: its run's start, plus its place within the run
    within = np.arange(len(query)) - np.repeat(np.cumsum(counts) - counts, counts)
    return query, values[starts[query] + within]


def common_types(kept: Sections, rows: int, copies: ChunkTable) -> tuple[Sections, Sections]:
    """The table's columns (``rows`` long) and the later copies' columns, with the columns and
    types of both.

    A member that only copies hold is a column of nulls of its type in the table, and each
    column both hold is cast to one type (:func:`matchkit.normalize.columns.unify`): what a
    table holds comes from every copy read, whichever came first, so that the order of pages
    does not change it.
    """
    copied = copies.sections()
    kept = {section: dict(columns) for section, columns in kept.items()}
    for section, later in copied.items():
        first = kept.setdefault(section, {})
        for key, array in later.items():
            if key in first:
                first[key], later[key] = unify([first[key], array])
            else:
                first[key] = nulls(rows, array.type)
    return kept, copied


def differing(
    kept: Sections,
    kept_links: Callable[[str], Links],
    kept_rows: np.ndarray,
    copies: ChunkTable,
    copied: Sections,
    link_names: Iterable[str],
) -> np.ndarray:
    """For each later copy, whether it differs from the kept row of its id.

    Args:
        kept: the table's columns (first copies).
        kept_links: the table's identifiers of a relationship the model reads.
        kept_rows: the row of each copy's id in the table.
        copies: the later copies, read; ``copied``: their columns.
        link_names: the relationships the model reads for this type.
    """
    count = copies.rows
    result = np.zeros(count, dtype=bool)
    for section in kept.keys() | copied.keys():
        first, later = kept.get(section, {}), copied.get(section, {})
        for key in first.keys() | later.keys():
            left = take(first[key], kept_rows) if key in first else nulls(count)
            right = later[key] if key in later else nulls(count)
            left, right = unify([left, right])
            result |= ~_same(left, right)
    for name in link_names:
        result |= _links_differ(kept_links(name), kept_rows, copies.links(name), count)
    return result


def _links_differ(left: Links, left_rows: np.ndarray, right: Links, count: int) -> np.ndarray:
    """For each ``i < count``, whether the identifiers of row ``left_rows[i]`` of ``left`` and
    of row ``i`` of ``right`` differ (how many, or a type or id in order)."""
    left_query, left_at = _pairs(left_rows, left.rows, np.arange(len(left.rows)))
    right_query, right_at = _pairs(np.arange(count), right.rows, np.arange(len(right.rows)))
    differ = np.bincount(left_query, minlength=count) != np.bincount(right_query, minlength=count)
    # Rows of as many identifiers on both sides: their identifiers side by side, in order.
    left_kept, right_kept = ~differ[left_query], ~differ[right_query]
    left_at, right_at = left_at[left_kept], right_at[right_kept]
    same = _same(take(left.types, left_at), take(right.types, right_at)) & _same(
        take(left.ids, left_at), take(right.ids, right_at)
    )
    differ[left_query[left_kept][~same]] = True
    return differ


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
    kept_documents: np.ndarray,
    copies: ChunkTable,
    copied: Sections,
    differs: np.ndarray,
    keys: SnapshotKeys,
    problems: Problems,
) -> Sections:
    """The table's columns with each differing snapshot replaced by its latest match's copy.

    Args:
        type_: the snapshot type (player, team).
        kept: the table's columns (first copies); ``kept_rows`` and ``kept_documents`` give
            each copy's row in the table and each table row's document.
        copies: the later copies, read; ``copied``: their columns; ``differs`` says which
            differ from the kept row.
        keys: how late each copy came.
        problems: where the number of snapshots with differing copies is reported.
    """
    rows = np.unique(kept_rows[differs])  # the snapshots with a differing copy
    if not len(rows):
        return kept
    problems.add(
        "differing_snapshots",
        type_,
        len(rows),
        f"{len(rows)} {type_} resource(s) arrived with differing attributes in "
        "different matches; each keeps the copy that came with its latest match (by match "
        "createdAt, then match id)",
    )
    # Every copy of those snapshots competes, equal or not; the latest wins, and of copies
    # equally late the one seen first: the kept row, then the earliest later copy.
    positions = np.flatnonzero(np.isin(kept_rows, rows))
    candidates = kept_rows[positions]
    ranks = keys.ranks(candidates, copies.documents()[positions])
    best = np.lexsort((positions, -ranks, candidates))
    first = np.append(True, candidates[best][1:] != candidates[best][:-1])
    best = best[first]  # one per row of ``rows``, in the same (ascending) order
    later = ranks[best] > keys.ranks(rows, kept_documents[rows])
    if not later.any():
        return kept
    winners, chosen = rows[later], positions[best[later]]
    total = len(kept_documents)
    order = np.arange(total, dtype=np.int64)
    order[winners] = total + np.arange(len(winners), dtype=np.int64)
    result: Sections = {}
    for section in kept.keys() | copied.keys():
        first_copies, later_copies = kept.get(section, {}), copied.get(section, {})
        result[section] = {}
        for key in first_copies.keys() | later_copies.keys():
            left = first_copies[key] if key in first_copies else nulls(total)
            right = take(later_copies[key], chosen) if key in later_copies else nulls(len(winners))
            left, right = unify([left, right])
            result[section][key] = take(pa.concat_arrays([left, right], ARROW_POOL), order)
    return result
