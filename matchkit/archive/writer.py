"""Commit one batch of tables to the archive's Delta tables: insert-only, idempotent, explicit.

Every table's commit of batch ``N`` carries the application transaction
``(matchkit-archive, N)`` in the same atomic Delta commit as its rows. A table whose
transaction version is already ``N`` or more has this batch, and is skipped: a batch repeated
after a crash never adds a row twice.

Matches are insert-only, keyed by match id, and the ``matches`` table is the authority: it is
committed last, so a match is in it only once every row it owns is in the other tables. Before
a batch is committed, the match ids of its partitions are read from ``matches`` once (one
column of the months the batch touches), and every row of a match already there is dropped
from every table of the batch; the rest is appended. So an overlap between batches cannot
duplicate a row, and a daily sync reads one column of a month instead of the keys of every
table. (A batch left half committed by a crash is completed, from its staged files, before any
other batch: its rows in the other tables are then skipped by their transaction, not by key.)

Schema changes are never silent: a column the batch brings that the table lacks is added by
schema evolution and reported; a column the table has that the batch lacks stays, its new rows
empty, and is reported; a column whose type changed is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa

from matchkit.archive.convert import match_months, snapshot_frame, stored_key, to_arrow
from matchkit.archive.layout import APP_ID, PARTITION, ROW_GROUP_ROWS, sort_column
from matchkit.archive.telemetry_tables import telemetry_folder, telemetry_schema
from matchkit.archive.versions import is_table, open_table, read_match_ids
from matchkit.errors import ArchiveError
from matchkit.model.schema import TABLE_NAMES, TABLES, TableSchema

if TYPE_CHECKING:
    from deltalake import DeltaTable, WriterProperties

__all__ = [
    "BatchResult",
    "OpenTables",
    "commit_batch",
    "commit_table",
    "key_of",
    "prepare_batch",
    "writer_properties",
]


@dataclass
class BatchResult:
    """What one batch added.

    Attributes:
        added: rows added per table (``telemetry/<name>`` for telemetry tables); a table
            skipped because it already had the batch is absent.
        new_columns: ``table.column`` of each column the batch added to a table.
        absent_columns: ``table.column`` of each column the table has and the batch did not
            bring (kept; its rows of this batch are empty).
        problems: what the normalizer noted in the batch (the sync sets it).
        versions: each table's version once it holds the batch (committed by it, or found
            holding it already), so that recording the batch reopens no table.
    """

    added: dict[str, int] = field(default_factory=dict)
    new_columns: list[str] = field(default_factory=list)
    absent_columns: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    versions: dict[str, int] = field(default_factory=dict)


def prepare_batch(
    tables: Mapping[str, pd.DataFrame],
    telemetry: Mapping[str, pd.DataFrame] | None = None,
    *,
    buckets: int = 1,
    telemetry_format: str = "gamelocker",
) -> dict[str, pa.Table]:
    """The tables of one batch as the archive stores them, by label, in commit order:
    telemetry tables (``telemetry/<name>``, PUBG's ``pubg-telemetry/<name>``:
    :mod:`.telemetry_tables`), then MatchFrames', ``matches`` last (a match is there once
    everything it owns is). ``buckets``: the archive's buckets a month (its manifest's
    ``buckets``); every row is in its match's partition. ``telemetry_format``: the profile's,
    whose folder the telemetry tables go in."""
    months = match_months(tables["matches"], buckets)
    prepared = {}
    folder = telemetry_folder(telemetry_format)
    for name, frame in (telemetry or {}).items():
        prepared[f"{folder}/{name}"] = _stored_table(frame, months)
    for name in [*(n for n in TABLE_NAMES if n != "matches"), "matches"]:
        frame = snapshot_frame(name, tables) if name in ("players", "teams") else tables[name]
        prepared[name] = _stored_table(frame, months)
    return prepared


def key_of(label: str) -> tuple[str, ...]:
    """The stored key of a table by label."""
    declared = telemetry_schema(label)
    if declared is not None:
        return declared.key
    schema: TableSchema = TABLES[label]
    return stored_key(label, schema)


class OpenTables:
    """An archive's Delta tables, each opened once (:func:`open_table`, with its checks) for
    the batches of one run under the archive's lock.

    A commit through a handle leaves it at the version the commit made, and nothing else
    commits to the tables while the lock is held, so a handle is always its table's latest
    version: a run of batches reopens no table (each open replays the table's log: 16 ms of
    CPU a table, about 30 tables a PUBG batch).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._opened: dict[str, DeltaTable] = {}

    def __contains__(self, label: object) -> bool:
        """Whether the table of ``label`` is open (so it exists)."""
        return label in self._opened

    def get(self, label: str) -> DeltaTable:
        """The table of ``label``, opened on first use.

        Raises:
            ArchiveError: its log is damaged (naming the file).
        """
        table = self._opened.get(label)
        if table is None:
            table = self._opened[label] = open_table(self.folder / label)
        return table


def commit_batch(
    folder: Path,
    batch: int,
    prepared: Mapping[str, pa.Table],
    *,
    append: bool = False,
    tables: OpenTables | None = None,
) -> BatchResult:
    """Commit the prepared tables of one batch (:func:`prepare_batch`), in their order.

    Args:
        folder: the archive folder.
        batch: the batch number, > every batch committed before.
        prepared: the stored tables by label.
        append: the matches are new by construction (a synthetic archive): append every
            row without reading the match ids already archived.
        tables: the tables as opened by the batches before in this run under the lock
            (default: opened here).
    """
    from concurrent.futures import ThreadPoolExecutor

    result = BatchResult()
    opened = tables if tables is not None else OpenTables(folder)
    if not append:
        prepared = _unarchived(folder, prepared)

    def commit(label: str) -> None:
        added, version = commit_table(
            opened,
            prepared[label],
            key=key_of(label),
            batch=batch,
            result=result,
            label=label,
        )
        result.versions[label] = version
        if added is not None:
            result.added[label] = added

    # The tables are independent; matches waits for all of them (a match is there once
    # everything it owns is). deltalake writes without the GIL, so threads share the cores.
    others = [label for label in prepared if label != "matches"]
    with ThreadPoolExecutor(max_workers=min(4, max(1, len(others)))) as pool:
        list(pool.map(commit, others))
    if "matches" in prepared:
        commit("matches")
    result.added = {label: result.added[label] for label in prepared if label in result.added}
    result.versions = {label: result.versions[label] for label in prepared}
    return result


def _unarchived(folder: Path, prepared: Mapping[str, pa.Table]) -> dict[str, pa.Table]:
    """The rows of ``prepared`` whose match the ``matches`` table does not hold yet."""
    import pyarrow.compute as pc

    matches = prepared.get("matches")
    path = folder / "matches"
    if matches is None or matches.num_rows == 0 or not is_table(path):
        return dict(prepared)
    months = pc.unique(matches.column(PARTITION).drop_null()).to_pylist()
    archived = read_match_ids(
        path,
        ["match_id"],
        pc.field(PARTITION).isin(months),
        unwritten="nothing of this batch was committed",
    ).column("match_id")
    if len(archived) == 0:
        return dict(prepared)
    archived = archived.combine_chunks()
    return {
        label: table.filter(
            pc.invert(pc.fill_null(pc.is_in(table.column("match_id"), value_set=archived), False))
        )
        for label, table in prepared.items()
    }


def _stored_table(frame: pd.DataFrame, months: pd.Series) -> pa.Table:
    row_months = np.asarray(frame["match_id"].map(months).array, dtype=object)
    row_months[pd.isna(row_months)] = None
    return to_arrow(frame, row_months)


def commit_table(
    tables: OpenTables,
    data: pa.Table,
    *,
    key: tuple[str, ...],
    batch: int,
    result: BatchResult,
    label: str,
) -> tuple[int | None, int]:
    """Append the rows of ``data`` as batch ``batch`` (:func:`commit_batch` has dropped those
    of matches already archived).

    Returns:
        The rows added (``None`` when the table already had this batch), and the table's
        version holding the batch.

    Raises:
        ArchiveError: a column's type differs from the table's, or Delta refused the write.
    """
    from deltalake import CommitProperties, Transaction, write_deltalake
    from deltalake.exceptions import DeltaError

    path = tables.folder / label
    commit = CommitProperties(app_transactions=[Transaction(APP_ID, batch)])
    properties = writer_properties(label)
    data = _in_lookup_order(data, label)
    try:
        if label not in tables and not is_table(path):  # new, or its first commit cut short
            path.mkdir(parents=True, exist_ok=True)
            write_deltalake(
                str(path),
                data,
                partition_by=[PARTITION],
                mode="append",
                commit_properties=commit,
                writer_properties=properties,
            )
            return int(data.num_rows), tables.get(label).version()
        table = tables.get(label)  # a damaged log: an ArchiveError naming its file
        if (table.transaction_version(APP_ID) or 0) >= batch:
            return None, table.version()
        if data.num_rows == 0:  # every row's match is archived: nothing to add, or to report
            return 0, table.version()
        data, new = _aligned(data, pa.schema(table.schema().to_arrow()), label, result)
        write_deltalake(
            table,
            data,
            mode="append",
            schema_mode="merge" if new else None,
            commit_properties=commit,
            writer_properties=properties,
        )
        return int(data.num_rows), table.version()  # the writer moved it to its commit
    except (DeltaError, OSError, pa.ArrowException) as error:
        raise ArchiveError(
            f"could not write batch {batch} to {path}: {error}; nothing of this table's batch "
            "was committed, run the sync again",
            path=path,
        ) from error


def writer_properties(label: str) -> WriterProperties:
    """How the data files of table ``label`` are written (by a batch and by a compaction): in
    row groups of at most :data:`matchkit.archive.layout.ROW_GROUP_ROWS` rows, snappy, and
    without a dictionary of the table's own id (unique: a dictionary of it is never smaller,
    only slower to try)."""
    from deltalake import ColumnProperties, WriterProperties

    key = key_of(label)
    unique = {key[0]: ColumnProperties(dictionary_enabled=False)} if len(key) == 1 else {}
    return WriterProperties(
        compression="SNAPPY", max_row_group_size=ROW_GROUP_ROWS, column_properties=unique
    )


def _in_lookup_order(data: pa.Table, label: str) -> pa.Table:
    """The rows of a table's batch sorted (stably) by the column they are looked up by
    (:func:`matchkit.archive.layout.sort_column`), so that each row group's statistics of it
    span a narrow range; rows of one match keep their order."""
    import pyarrow.compute as pc

    column = sort_column(label)
    if column is None or data.num_rows < 2 or column not in data.column_names:
        return data
    if _in_order(data.column(column)):  # a synthetic archive's come so: no copy
        return data
    return data.take(pc.sort_indices(data, [(column, "ascending")]))


def _in_order(values: pa.ChunkedArray) -> bool:
    """Whether ``values`` are in ascending order, nulls last (as a sort would put them)."""
    import pyarrow.compute as pc

    head = values.slice(0, len(values) - values.null_count)  # the values before the nulls
    if head.null_count:
        return False
    return pc.all(pc.less_equal(head[:-1], head[1:])).as_py() is not False  # None: empty


def _aligned(
    data: pa.Table, schema: pa.Schema, label: str, result: BatchResult
) -> tuple[pa.Table, list[str]]:
    """``data`` in the table's column order and types; columns the table lacks at the end."""
    columns, fields = [], []
    for target in schema:
        if target.name not in data.column_names:
            columns.append(pa.nulls(data.num_rows, type=target.type))
            result.absent_columns.append(f"{label}.{target.name}")
        else:
            column = data.column(target.name)
            if column.type != target.type:
                column = _cast(column, target, label)
            columns.append(column)
        fields.append(pa.field(target.name, target.type))
    new = [name for name in data.column_names if name not in schema.names]
    for name in new:
        columns.append(data.column(name))
        fields.append(data.schema.field(name))
        result.new_columns.append(f"{label}.{name}")
    return pa.Table.from_arrays(columns, schema=pa.schema(fields)), new


def _cast(column: pa.ChunkedArray, target: pa.Field, label: str) -> pa.ChunkedArray:
    if column.null_count == len(column):
        return pa.nulls(len(column), type=target.type)
    try:
        return column.cast(target.type, safe=True)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise ArchiveError(
            f"column {target.name} of {label} is {target.type} in the archive but {column.type} "
            "in this batch; the service changed its type. Nothing of this table's batch was "
            "written: archive this scope into a new folder",
            path=label,
        ) from None
