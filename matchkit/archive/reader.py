"""Reading an archive: :func:`open_archive` (``matchkit.archive.open``) and :class:`Archive`.

Each table is a lazy Dask DataFrame over the data files of its Delta table's version, one
partition per partition of the archive (a month, or a month's bucket), indexed by that value
(``month``) with known divisions, the same on every table: a match's rows of every table lie in
the partition of the same number, so the analyses join and group them without a shuffle. The
tables have the columns and dtypes of MatchFrames except that text stays text
(``category`` columns are pandas ``string``). Every file the version lists is checked when the
archive is opened (present, of the size its Delta log says); a file damaged in place is refused
when it is read. Either way the error is an :class:`~matchkit.errors.ArchiveError` naming it.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from matchkit.archive.convert import (
    SNAPSHOT_COLUMNS,
    SNAPSHOT_LINKS,
    archive_dtype,
    match_months,
    pandas_of_arrow,
    to_pandas,
)
from matchkit.archive.layout import PARTITION
from matchkit.archive.manifest import ArchiveManifest, read_manifest
from matchkit.archive.state import Scope, ScopePeriod
from matchkit.archive.telemetry_tables import telemetry_format, telemetry_schema
from matchkit.archive.versions import checked_files, pinned_tables
from matchkit.errors import ArchiveError, InvalidArgumentError
from matchkit.model.schema import DATETIME_DTYPE, TABLE_NAMES, TABLES, TableSchema

if TYPE_CHECKING:
    import dask.dataframe as dd
    from deltalake import DeltaTable

    from matchkit.model.frames import MatchFrames

__all__ = [
    "Archive",
    "LazyTables",
    "TableFiles",
    "Where",
    "existing_manifest",
    "open_archive",
    "where",
]

_CATEGORY = pd.CategoricalDtype()
"""The dtype of a text column read as a categorical (:meth:`Archive.with_categories`)."""

Where = tuple[str, tuple[str, ...]]
"""A filter of rows as files are read: a text column, and the values a row must hold in it
(distinct, sorted: :func:`where`)."""


def where(column: str, values: Iterable[object]) -> Where:
    """The filter of rows holding one of ``values`` (as text) in ``column``."""
    return column, tuple(sorted({str(value) for value in values}))


@dataclass(frozen=True)
class TableFiles:
    """One table of a pinned version: its data files (with their month) and its dtypes."""

    label: str
    version: int
    files: tuple[str, ...]
    months: tuple[str | None, ...]
    dtypes: Mapping[str, object]

    def read(self, files: list[str] | None = None) -> pd.DataFrame:
        """The rows of ``files`` (default: all), as pandas."""
        chosen = list(self.files) if files is None else files
        return read_files(chosen, self.dtypes)

    def categorized(self, columns: Iterable[str]) -> TableFiles:
        """This table with those of ``columns`` that are text read as categoricals (Parquet's
        dictionaries, each partition's categories its own)."""
        wanted = set(columns)
        dtypes = {
            name: _CATEGORY if name in wanted and isinstance(dtype, pd.StringDtype) else dtype
            for name, dtype in self.dtypes.items()
        }
        return replace(self, dtypes=dtypes)

    def checked_columns(self, columns: list[str] | None, described: str) -> list[str] | None:
        """``columns`` as a list (None stays None), each one a column of this table.

        Raises:
            InvalidArgumentError: one is not (``described`` names the table in the message).
        """
        unknown = [name for name in columns or () if name not in self.dtypes]
        if unknown:
            raise InvalidArgumentError(
                f"{described} has no column {unknown[0]!r}; it has {', '.join(self.dtypes)}",
                parameter="columns",
            )
        return None if columns is None else list(columns)

    def in_months(self, first: str | None, last: str | None) -> list[str]:
        """The files of the months from ``first`` to ``last`` (inclusive; None: open)."""
        return [
            path
            for path, month in zip(self.files, self.months, strict=True)
            if month is None
            or ((first is None or month[:7] >= first) and (last is None or month[:7] <= last))
        ]

    def dask(
        self,
        partitions: list[str] | None = None,
        where: Where | None = None,
        columns: list[str] | None = None,
    ) -> dd.DataFrame:
        """A lazy Dask DataFrame, one partition per value of ``partitions`` (sorted; default:
        the table's own), indexed by it (``month``) with known divisions; a value the table has
        no file of is an empty partition. A table with files outside any partition (none in an
        archive matchkit wrote) is read one partition per file, without an index. With
        ``where`` (a column and its values), only the rows holding one of them (each file read
        through that filter); with ``columns``, only those columns (Dask never sees the
        others)."""
        import dask.dataframe as dd

        dtypes = _projected(self.dtypes, columns)
        meta = to_pandas(pa.table({}), dtypes)
        frame: dd.DataFrame
        if partitions == [] or (not self.files and partitions is None):
            frame = dd.from_pandas(meta, npartitions=1)
            return frame
        if None in self.months:
            frame = dd.from_map(
                _FileReader(dtypes, where), list(self.files), meta=meta, label=f"read-{self.label}"
            )
            return frame
        groups = self._partition_files()
        values = sorted(groups) if partitions is None else partitions
        index = partition_dtype(values)
        meta = _in_partition(meta, None, index)
        frame = dd.from_map(
            _FileReader(dtypes, where, index),
            [(groups.get(value, ()), value) for value in values],
            meta=meta,
            divisions=[*values, values[-1]],
            label=f"read-{self.label}",
        )
        return frame

    def _partition_files(self) -> dict[str, tuple[str, ...]]:
        """The data files of each partition (files outside any are left out)."""
        groups: dict[str, list[str]] = {}
        for path, month in zip(self.files, self.months, strict=True):
            if month is not None:
                groups.setdefault(month, []).append(path)
        return {month: tuple(paths) for month, paths in groups.items()}

    def matching(
        self, values: dd.Series, column: str, columns: list[str] | None = None
    ) -> dd.DataFrame:
        """The rows holding one of ``values`` in ``column``, lazily: each partition of
        ``values`` (a Series indexed by partition, of rows of the same archive) chooses the
        rows of this table's files of the same partition, in the same graph, so that no value
        travels to the client and back (a match's rows lie in its partition in every table)."""
        dtypes = _projected(self.dtypes, columns)
        index = values._meta.index.dtype
        meta = _in_partition(to_pandas(pa.table({}), dtypes), None, index)
        reader = _MatchingReader(dtypes, column, self._partition_files(), index)
        frame: dd.DataFrame = values.map_partitions(reader, meta=meta)
        return frame


class _MatchingReader:
    """Reads the rows of a partition's files holding one of the values of that partition's
    piece of a Series (:meth:`TableFiles.matching`)."""

    def __init__(
        self,
        dtypes: Mapping[str, object],
        column: str,
        groups: Mapping[str, tuple[str, ...]],
        index: pd.CategoricalDtype,
    ) -> None:
        self.dtypes = dict(dtypes)
        self.column = column
        self.groups = dict(groups)
        self.index = index

    def __call__(self, part: pd.Series) -> pd.DataFrame:
        present = part.dropna()
        value = str(present.index[0]) if len(present) else None  # None: no value, no file
        paths = self.groups.get(value, ()) if value is not None else ()
        return _in_partition(
            read_files(list(paths), self.dtypes, where(self.column, present)), value, self.index
        )


class _FileReader:
    """Reads a file (as pandas), or a partition's files indexed by its value; only the columns
    a query uses (Dask's column projection), and with ``where`` only the rows it admits."""

    def __init__(
        self,
        dtypes: Mapping[str, object],
        where: Where | None = None,
        index: pd.CategoricalDtype | None = None,
    ) -> None:
        self.dtypes = dict(dtypes)
        self.where = where
        self.index = index  # the partition index's dtype (None: files read one by one)

    def __call__(
        self, part: str | tuple[tuple[str, ...], str], columns: list[str] | None = None
    ) -> pd.DataFrame:
        dtypes = _projected(self.dtypes, columns)
        if isinstance(part, str):
            return read_files([part], dtypes, self.where)
        paths, value = part
        assert self.index is not None  # partitions are read with their index's dtype
        return _in_partition(read_files(list(paths), dtypes, self.where), value, self.index)


def _projected(dtypes: Mapping[str, object], columns: list[str] | None) -> dict[str, object]:
    """The dtypes of ``columns`` (None: all of them)."""
    return dict(dtypes) if columns is None else {name: dtypes[name] for name in columns}


def partition_dtype(values: Iterable[str]) -> pd.CategoricalDtype:
    """The dtype of a lazy table's index (``month``): its partition values, in order.

    Categorical, not text: pandas looks an unknown attribute of a Series up in its index when
    the index holds text (``Series.__getattr__``), and numpy asks a boolean mask for two such
    attributes each time a frame is indexed by it (``frame.loc[mask]``). On a text index of
    Arrow strings that built a hash table of the partition's whole index each time: 93-120 ms
    for 770,000 rows, over half of ``cosmetic_usage`` on an archive. A categorical index
    answers from its categories."""
    return pd.CategoricalDtype(list(values), ordered=True)


def _in_partition(
    frame: pd.DataFrame, value: str | None, dtype: pd.CategoricalDtype
) -> pd.DataFrame:
    """``frame`` indexed by its partition's value (``month``; None: a frame without rows)."""
    codes = np.full(len(frame), -1 if value is None else dtype.categories.get_loc(value))
    frame.index = pd.CategoricalIndex(pd.Categorical.from_codes(codes, dtype=dtype), name=PARTITION)
    return frame


def read_files(
    paths: list[str], dtypes: Mapping[str, object], where: Where | None = None
) -> pd.DataFrame:
    """The rows of data files, in their order, with the archive's dtypes; with ``where``, only
    the rows it admits.

    Files of one schema (the usual case) are joined in Arrow and converted to pandas once: a
    conversion costs about the same for a few rows as for thousands, per column.

    Raises:
        ArchiveError: a file is missing or is not a readable Parquet file.
    """
    dictionaries = [
        name
        for name, dtype in dtypes.items()
        if isinstance(dtype, pd.CategoricalDtype) and dtype.categories is None
    ]
    tables = [read_arrow(path, list(dtypes), where, dictionaries) for path in paths]
    if not tables:
        return to_pandas(pa.table({}), dtypes)
    if all(table.schema == tables[0].schema for table in tables[1:]):
        return to_pandas(pa.concat_tables(tables), dtypes)
    return pd.concat([to_pandas(table, dtypes) for table in tables], ignore_index=True)


def read_arrow(
    path: str, columns: list[str], where: Where | None = None, dictionaries: Sequence[str] = ()
) -> pa.Table:
    """The ``columns`` a data file has, as Arrow; with ``where`` (a column and its values), only
    the rows holding one of the values: a row group whose statistics of that column rule them
    out is not read, nor are the other columns of a row group that holds none of them (its
    column ``where`` names is read first). The columns of ``dictionaries`` are read as Arrow
    dictionaries.

    Raises:
        ArchiveError: the file is missing or is not a readable Parquet file.
    """
    try:
        dictionaries = [name for name in dictionaries if where is None or name != where[0]]
        handle = pq.ParquetFile(path, read_dictionary=dictionaries or None)
        names = set(handle.schema_arrow.names)  # a property that builds the schema each time
        present = [name for name in columns if name in names]
        if where is None:
            return handle.read(columns=present)
        column, values = where
        groups = _groups_holding(handle, column, values)
        if groups:
            held = handle.read_row_groups(groups, columns=[column]).column(column)
            chosen = pc.is_in(held, value_set=pa.array(values, held.type))
            groups, kept, held = _groups_chosen(handle, groups, chosen, held)
        if not groups:
            return handle.schema_arrow.empty_table().select(present)
        # The column read first is not read again (ids: the costliest text to decode).
        others = [name for name in present if name != column]
        table = handle.read_row_groups(groups, columns=others).filter(kept)
        if column in present:
            table = table.add_column(present.index(column), column, held.filter(kept))
    except FileNotFoundError:
        raise ArchiveError(
            f"{path} is missing, and the archive's table lists it; restore it from a backup "
            "(or open an earlier version with version=)",
            path=path,
        ) from None
    except (OSError, pa.ArrowException) as error:
        raise ArchiveError(
            f"{path} is damaged ({error}); restore it from a backup", path=path
        ) from None
    return table


def _groups_chosen(
    handle: pq.ParquetFile,
    groups: list[int],
    chosen: pa.Array | pa.ChunkedArray,
    held: pa.ChunkedArray,
) -> tuple[list[int], pa.Array, pa.ChunkedArray]:
    """Of ``groups`` (read one after the other, ``chosen`` marking the rows kept, ``held``
    their values of the column read first), those that hold a row kept, the marks of their
    rows, and their values."""
    marks = chosen.combine_chunks() if isinstance(chosen, pa.ChunkedArray) else chosen
    wanted = marks.to_numpy(zero_copy_only=False)
    sizes = [handle.metadata.row_group(group).num_rows for group in groups]
    starts = np.cumsum([0, *sizes])
    holding = [
        index for index in range(len(groups)) if wanted[starts[index] : starts[index + 1]].any()
    ]
    if len(holding) == len(groups):
        return groups, marks, held
    parts = [(int(starts[index]), sizes[index]) for index in holding]
    return (
        [groups[index] for index in holding],
        pa.concat_arrays([marks.slice(*part) for part in parts]) if parts else marks[:0],
        pa.chunked_array([held.slice(*part) for part in parts], held.type),
    )


def _groups_holding(handle: pq.ParquetFile, column: str, values: tuple[str, ...]) -> list[int]:
    """The row groups of a file that may hold one of ``values`` (sorted) in ``column``: each
    whose statistics of it (a lower and an upper bound) admit one, or that has no bounds and
    not only nulls. A file without the column (written before a batch added it) holds none:
    its rows have no value there."""
    metadata = handle.metadata
    names = [metadata.schema.column(i).path for i in range(metadata.num_columns)]
    if column not in names:
        return []
    position = names.index(column)
    groups = []
    for number in range(metadata.num_row_groups):
        group = metadata.row_group(number)
        statistics = group.column(position).statistics
        if statistics is not None and statistics.null_count == group.num_rows:
            continue  # nulls only (a bot has no player id): none of the values
        known = statistics is not None and statistics.has_min_max
        low, high = (statistics.min, statistics.max) if known else (None, None)
        if not isinstance(low, str) or not isinstance(high, str):
            groups.append(number)  # no bounds to rule the group out by
        else:  # the first value not below the lower bound, if it is not above the upper
            first = bisect_left(values, low)
            if first < len(values) and values[first] <= high:
                groups.append(number)
    return groups


class LazyTables:
    """Tables as attributes, each a lazy Dask DataFrame made on first use and then kept
    (:attr:`Archive.telemetry`; ``dir()`` lists them)."""

    def __init__(self, makers: Mapping[str, Callable[[], dd.DataFrame]], *, owner: str) -> None:
        self._makers = dict(makers)
        self._owner = owner

    def __getattr__(self, name: str) -> dd.DataFrame:
        make = self.__dict__.get("_makers", {}).get(name)
        if make is None:
            tables = ", ".join(self.__dict__.get("_makers", ()))
            raise AttributeError(f"{self.__dict__.get('_owner')} has no table {name!r} ({tables})")
        frame = make()
        setattr(self, name, frame)
        return frame

    def __dir__(self) -> list[str]:
        return list(self._makers)

    def __repr__(self) -> str:
        return f"<{self._owner} tables: {', '.join(self._makers)}>"


class Archive:
    """An archive opened at one version: a lazy Dask DataFrame per table.

    Attributes:
        path: the archive folder.
        version: the batch the tables are pinned at (0: an archive with no batch yet).
        versions: each table's Delta version at that batch.
        manifest: the archive's state (scopes, watermark, gaps, ...) when it was opened.
        matches, rosters, participants, rounds, round_participants, assets, spectators: the
            tables of MatchFrames, lazily.
        players, teams: each one's latest snapshot (decision 17), lazily.
        player_snapshots, team_snapshots: every snapshot, with the match it came with
            (``match_id``, ``match_created_at``).
        telemetry: the tables of its telemetry as attributes (TelemetryFrames', or with
            ``telemetry_format`` ``"pubg"`` PubgTelemetryFrames'), or ``None``.
        telemetry_format: the format of that telemetry (a profile's ``telemetry_format``), or
            ``None``.
    """

    matches: dd.DataFrame
    rosters: dd.DataFrame
    participants: dd.DataFrame
    rounds: dd.DataFrame
    round_participants: dd.DataFrame
    players: dd.DataFrame
    teams: dd.DataFrame
    assets: dd.DataFrame
    spectators: dd.DataFrame
    player_snapshots: dd.DataFrame
    team_snapshots: dd.DataFrame

    def __init__(
        self, path: Path, manifest: ArchiveManifest, tables: Mapping[str, TableFiles], version: int
    ) -> None:
        self.path = path
        self.version = version
        self.manifest = manifest
        self.versions = {label: table.version for label, table in tables.items()}
        self._tables = dict(tables)
        # Every table on the same partitions (the union of theirs): a match's rows lie in
        # partitions of the same number in each, which the analyses' joins rely on.
        values = sorted(
            {month for table in tables.values() for month in table.months if month is not None}
        )
        self._partitions = values
        # Each table's lazy frame is made on first use (Dask's planning of a frame costs tens
        # of milliseconds; a notebook uses a few of the dozens of tables an archive has).
        makers: dict[str, Callable[[], dd.DataFrame]] = {}
        for name in TABLE_NAMES:
            table = tables[name]
            if name in SNAPSHOT_LINKS:
                snapshots = f"{name[:-1]}_snapshots"
                makers[snapshots] = partial(table.dask, values)
                makers[name] = partial(self._latest_of, snapshots, TABLES[name].key[0])
            else:
                makers[name] = partial(table.dask, values)
        self._lazy = LazyTables(makers, owner="Archive")
        # One telemetry format an archive (one profile): its tables by name.
        labels = [label for label in tables if telemetry_schema(label) is not None]
        self._telemetry_labels = {label.partition("/")[2]: label for label in labels}
        self.telemetry = (
            LazyTables(
                {label.partition("/")[2]: partial(tables[label].dask, values) for label in labels},
                owner="telemetry",
            )
            if labels
            else None
        )
        self.telemetry_format = telemetry_format(labels[0]) if labels else None

    def __getattr__(self, name: str) -> dd.DataFrame:
        """A table's lazy frame, made on first use (only names not set on the archive come
        here)."""
        lazy = self.__dict__.get("_lazy")
        if lazy is None:
            raise AttributeError(name)
        frame: dd.DataFrame = getattr(lazy, name)
        return frame

    def with_categories(self, *columns: str) -> Archive:
        """This archive with the text ``columns`` of every table read as categoricals.

        Each partition's categories are its own (those its files hold), so the lazy frames'
        categories are unknown: for work done partition by partition. Reading and grouping
        text of a few distinct values that way takes a third of the time (Parquet keeps it
        as dictionaries; ``cosmetic_usage`` reads the characters and kinds so).
        Columns that are not text, and names no table has, are left as they are.
        """
        tables = {label: table.categorized(columns) for label, table in self._tables.items()}
        return Archive(self.path, self.manifest, tables, self.version)

    def _latest_of(self, snapshots: str, key: str) -> dd.DataFrame:
        return _latest(getattr(self, snapshots), key)

    def __repr__(self) -> str:
        return f"Archive({str(self.path)!r}, version={self.version})"

    @property
    def scope(self) -> Scope:
        """The scope of its syncs now (shard, filters, telemetry)."""
        return self.manifest.scope

    @property
    def scopes(self) -> tuple[ScopePeriod, ...]:
        """Every scope it was synced with, oldest first, with the range of match times each
        one covered (the last is :attr:`scope`)."""
        return self.manifest.scopes

    @property
    def pending(self) -> int | None:
        """The batch a sync left pending (not seen here until a sync or compaction completes
        it), or ``None``."""
        return None if self.manifest.pending is None else self.manifest.pending.batch

    @property
    def tables(self) -> dict[str, dd.DataFrame]:
        """Every table by name, in model order (as :attr:`MatchFrames.tables`)."""
        return {name: getattr(self, name) for name in TABLE_NAMES}

    @property
    def problems(self) -> tuple[str, ...]:
        """What the normalizer noted in the batches up to this version (as in MatchFrames)."""
        return self.manifest.notes_up_to(self.version)

    def files(self, table: str) -> list[str]:
        """The data files of a table at this version (for DuckDB, Spark, ...): ``"matches"``,
        ``"players"`` (the snapshots), ``"telemetry/deaths"``, ..."""
        return list(self._table(table).files)

    def _table(self, table: str) -> TableFiles:
        """The files of ``table`` (a name as :meth:`files` takes it).

        Raises:
            InvalidArgumentError: the archive has no such table.
        """
        if table not in self._tables:
            raise InvalidArgumentError(
                f"no table {table!r}; the archive has {', '.join(self._tables)}",
                parameter="table",
            )
        return self._tables[table]

    def rows(
        self,
        table: str,
        column: str,
        values: Iterable[str] | dd.Series,
        columns: list[str] | None = None,
    ) -> dd.DataFrame:
        """The rows of ``table`` whose text column ``column`` holds one of ``values``, lazily.

        Each data file is read through that filter: a row group whose statistics of
        ``column`` rule the values out is not read, and the others are filtered in Arrow
        before pandas sees a row (a player's rows among millions: a fraction of a second,
        where reading the table and then choosing its rows converts every row). Only
        ``columns`` are read.

        Args:
            table: a table as :meth:`files` names it (``"participants"``, ``"players"``: the
                snapshots, ``"telemetry/kills"``, ...).
            column: a text column of it (``"match_id"``, ``"player_id"``, ...).
            values: the values to keep; or a column of rows this method gave, lazily (say
                a player's participants' ``match_id``): each partition is then read for the
                values of the same partition, in one graph with the rows they come from (a
                match's rows lie in its partition in every table).
            columns: the columns to read, in this order (None: all of the table's).

        Raises:
            InvalidArgumentError: the archive has no table ``table``, ``column`` is not a text
                column of it, or ``columns`` names one it lacks.
        """
        files = self._table(table)
        if not isinstance(files.dtypes.get(column), pd.StringDtype):
            text = [
                name for name, dtype in files.dtypes.items() if isinstance(dtype, pd.StringDtype)
            ]
            raise InvalidArgumentError(
                f"{column!r} is not a text column of {table!r}; its text columns are "
                f"{', '.join(text)}",
                parameter="column",
            )
        chosen = files.checked_columns(columns, f"table {table!r}")
        import dask.dataframe as dd

        if isinstance(values, dd.Series):
            if not self._partitions:  # an archive without a partition holds no rows
                return files.dask([], None, chosen)
            if values.index.name != PARTITION or list(values.divisions[:-1]) != list(
                self._partitions
            ):
                raise InvalidArgumentError(
                    "values is a lazy Series that is not a column of this archive's rows (from "
                    "archive.rows(...)); pass it computed, or a list of values",
                    parameter="values",
                )
            return files.matching(values, column, chosen)
        return files.dask(self._partitions, where(column, values), chosen)

    def telemetry_rows(
        self, name: str, matches: pd.DataFrame, columns: list[str] | None = None
    ) -> dd.DataFrame:
        """The rows of the telemetry table ``name`` of ``matches`` only, lazily.

        Only the partitions holding those matches are read (a match's rows lie in the partition
        of its ``created_at``, as the writer put them), each data file through a filter on
        ``match_id`` (a row group whose statistics rule those matches out is not read), and
        only ``columns``.

        Args:
            name: a table of :attr:`telemetry` (``"kills"``, ``"positions"``, ...).
            matches: rows of this archive's matches table, with ``match_id`` and
                ``created_at`` (e.g. of :meth:`to_frames`).
            columns: the columns to read, in this order (None: all of the table's).

        Raises:
            InvalidArgumentError: the archive has no telemetry table ``name``, ``matches``
                lacks ``match_id`` or ``created_at``, or ``columns`` names one the table
                lacks.
        """
        label = self._telemetry_labels.get(name)
        if label is None:
            raise InvalidArgumentError(
                f"no telemetry table {name!r}; the archive has "
                f"{', '.join(self._telemetry_labels) or 'no telemetry'}",
                parameter="name",
            )
        missing = [column for column in ("match_id", "created_at") if column not in matches]
        if missing:
            raise InvalidArgumentError(
                f"matches lacks {missing}: pass rows of the archive's matches table "
                "(archive.to_frames().matches)",
                parameter="matches",
            )
        table = self._tables[label]
        chosen = table.checked_columns(columns, f"telemetry table {name!r}")
        held = match_months(matches, self.manifest.buckets)
        values = sorted({value for value in held if value is not None} & set(self._partitions))
        return table.dask(values, where("match_id", matches["match_id"].dropna()), chosen)

    def to_frames(self, start: Any = None, end: Any = None, **filters: Any) -> MatchFrames:
        """The matches created in ``[start, end)`` that pass ``filters``, as pandas MatchFrames.

        Args:
            start, end: bounds (datetime, date or ISO 8601; default open).
            **filters: ``server_types``, ``patch_versions``, ``ranking_type``, ``game_modes``
                (values of the matches table) and ``player_ids``.

        Players and teams are the snapshot of each one's latest match up to ``end``.
        """
        from matchkit.archive.slicing import slice_frames

        return slice_frames(self._tables, start, end, filters)


def _latest(snapshots: dd.DataFrame, key: str) -> dd.DataFrame:
    """Each id's snapshot of its latest match, without the snapshot's match columns."""
    meta = snapshots._meta.drop(columns=list(SNAPSHOT_COLUMNS)).reset_index(drop=True)
    latest: dd.DataFrame = snapshots.shuffle(on=key).map_partitions(
        latest_snapshots, key, meta=meta
    )
    return latest


def latest_snapshots(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """Each id's row of its latest match (by the match's time, then id)."""
    ordered = frame.sort_values(["match_created_at", "match_id"], kind="stable")
    latest = ordered.drop_duplicates(key, keep="last")
    return latest.drop(columns=list(SNAPSHOT_COLUMNS)).reset_index(drop=True)


def open_archive(path: str | os.PathLike[str], *, version: int | None = None) -> Archive:
    """Open the archive in ``path``, as its last completed batch left it, or at batch ``version``.

    A sync at work meanwhile, or one that was killed, is not seen: its batch counts once it is
    complete (:attr:`Archive.pending` names a batch left pending).

    Raises:
        ArchiveError: ``path`` holds no archive, its manifest or a table's Delta log is damaged,
            a data file is missing or of another size than its table's log says (the message
            names the file), or ``version`` is unknown.
    """
    folder = Path(path)
    manifest = existing_manifest(folder)
    batch = manifest.batch if version is None else version
    try:
        pinned = manifest.pinned(version)
    except KeyError:
        known = ", ".join(str(number) for number in sorted(manifest.versions))
        raise ArchiveError(
            f"{folder} has no version {version!r}; its versions are the batches "
            f"{known or '(none yet)'}",
            path=folder,
        ) from None
    tables = {
        label: _table_files(folder, label, table)
        for label, table in pinned_tables(folder, pinned).items()
    }
    for name in TABLE_NAMES:
        if name not in tables:
            tables[name] = TableFiles(name, -1, (), (), _dtypes(name, TABLES[name], pa.schema([])))
    return Archive(folder, manifest, tables, batch)


def existing_manifest(folder: Path) -> ArchiveManifest:
    """The manifest of the archive in ``folder``, which must be there.

    Raises:
        ArchiveError: ``folder`` holds no archive, or its manifest is damaged.
    """
    manifest = read_manifest(folder)
    if manifest is None:
        raise ArchiveError(
            f"{folder} is not an archive (no archive.json); create one with "
            "`matchkit archive sync` or matchkit.archive.sync",
            path=folder,
        )
    return manifest


def _table_files(folder: Path, label: str, table: DeltaTable) -> TableFiles:
    files = checked_files(folder / label, table)
    schema = pa.schema(table.schema().to_arrow())
    telemetry = telemetry_schema(label)
    declared = TABLES[label] if telemetry is None else telemetry
    return TableFiles(
        label,
        table.version(),
        tuple(str(file.path) for file in files),
        tuple(file.partition for file in files),
        _dtypes(label, declared, schema),
    )


def _dtypes(label: str, declared: TableSchema, schema: pa.Schema) -> dict[str, object]:
    """The archive's columns of a table: the declared ones, its extras, the snapshot's own."""
    dtypes = {column.name: archive_dtype(column.kind) for column in declared.columns}
    skipped = {PARTITION, *SNAPSHOT_COLUMNS} if label in SNAPSHOT_LINKS else {PARTITION}
    # extra columns after the known ones, sorted by name (as in MatchFrames), whatever order
    # the batches brought them in
    for field in sorted(schema, key=lambda field: field.name):
        if field.name not in dtypes and field.name not in skipped:
            dtypes[field.name] = pandas_of_arrow(field.type)
    if label in SNAPSHOT_LINKS:
        dtypes["match_id"] = pd.StringDtype()
        dtypes["match_created_at"] = DATETIME_DTYPE
    return dtypes
