"""What every PUBG analysis takes: MatchFrames of PUBG matches and their telemetry, checked
together, or an archive of them; the names of damage causers and maps; each map's size.

The telemetry is one :class:`matchkit.telemetry.pubg.PubgTelemetryFrames` (of one match or
many; combine several with :meth:`PubgTelemetryFrames.concat`). The MatchFrames give what the
files do not say with authority: the rosters' ranks, the game mode, the map of each match.

An archive synced with telemetry (``matchkit archive sync DIR --profile pubg --telemetry``)
is passed alone: the match tables an analysis uses are computed whole (its matches table, and
rosters and participants where the analysis needs them: PUBG's are small beside its
telemetry), and of each telemetry table it reads only the columns it uses, of the matches it
asks for (one match's for :func:`matchkit.plots.plot_match_map`: the partition and the files
holding it), never the whole archive's telemetry at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import pandas as pd

from matchkit.analysis._engine import collect
from matchkit.analysis.inputs import ArchiveTables, is_archive
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.model.schema import TABLES as MATCH_TABLES
from matchkit.model.schema import TableSchema, coerce_frame
from matchkit.names import Names, as_names
from matchkit.rules.profiles import PUBG
from matchkit.telemetry.pubg import MAP_SIZES, PubgTelemetryFrames
from matchkit.telemetry.pubg.frames import coerced_table
from matchkit.telemetry.pubg.schema import TABLES as TELEMETRY_TABLES

__all__ = [
    "PubgInputs",
    "PubgTelemetryFrames",
    "TelemetryReader",
    "causer_labels",
    "checked_pubg_inputs",
    "map_labels",
    "map_sizes",
]


TelemetryReader: TypeAlias = Callable[[str, Sequence[str], Sequence[str] | None], pd.DataFrame]
"""Reads a telemetry table by name, only the rows of the given matches; only the given columns
(None: all)."""

TablesReader: TypeAlias = Callable[[Mapping[str, Sequence[str]]], dict[str, pd.DataFrame]]
"""Reads columns of tables of MatchFrames (table name -> its columns), as MatchFrames has them."""


@dataclass(frozen=True)
class PubgInputs:
    """The matches and their telemetry, restricted to the matches both hold.

    Attributes:
        all_matches: every match of ``data`` (its matches table, as MatchFrames has it).
        matches: the rows of ``all_matches`` of the matches with telemetry.
        excluded: what was left out, and why (for ``result.attrs["excluded"]``).
        read: reads a telemetry table's columns by name for some matches (:meth:`table`
            calls it).
        read_tables: reads tables of MatchFrames by name (:meth:`match_tables` calls it; an
            archive reads only the tables asked for).
    """

    all_matches: pd.DataFrame
    matches: pd.DataFrame
    excluded: dict[str, int]
    read: TelemetryReader = field(repr=False)
    read_tables: TablesReader = field(repr=False)

    def match_tables(self, columns: Mapping[str, Sequence[str]]) -> list[pd.DataFrame]:
        """Tables of MatchFrames (``rosters``, ``participants``, ...), each with the columns
        given (table name -> its columns, ``match_id`` among them) and the rows of the matches
        with telemetry only, in the table's order, with MatchFrames' dtypes; in the order of
        ``columns``. An archive reads those tables and columns only."""
        tables = self.read_tables(columns)
        ids = self.matches["match_id"]
        return [tables[name][tables[name]["match_id"].isin(ids).to_numpy()] for name in columns]

    def table(
        self, name: str, match_id: str | None = None, *, columns: Sequence[str] | None = None
    ) -> pd.DataFrame:
        """A telemetry table: the rows of the matches both hold, or of ``match_id`` alone; its
        ``columns`` only (None: all). An archive reads those rows and columns only."""
        ids = list(self.matches["match_id"]) if match_id is None else [match_id]
        return self.read(name, ids, None if columns is None else list(columns))


def checked_pubg_inputs(data: object, telemetry: object = None) -> PubgInputs:
    """``data`` and ``telemetry`` when they are MatchFrames of PUBG matches and their
    telemetry, or ``data`` when it is an archive of PUBG matches synced with telemetry.

    A match of ``data`` without telemetry is left out and counted; a telemetry file of a match
    ``data`` lacks is an error (its ranks and map are not known).

    Raises:
        InvalidArgumentError: ``data`` is not MatchFrames of PUBG matches, ``telemetry`` is not
            PubgTelemetryFrames, or holds a match ``data`` lacks; or ``data`` is an archive of
            another game, an archive without PUBG telemetry, or an archive with ``telemetry``.
    """
    if is_archive(data):
        return _archive_inputs(data, telemetry)
    if not isinstance(data, MatchFrames):
        raise InvalidArgumentError(
            "data must be MatchFrames of PUBG matches (matchkit.to_frames of PUBG documents, or "
            "Client.matches of a PUBG client), or an archive of them, not "
            f"{type(data).__name__}",
            parameter="data",
        )
    _require_pubg(data.matches["game"])
    if not isinstance(telemetry, PubgTelemetryFrames):
        raise InvalidArgumentError(
            "telemetry must be PubgTelemetryFrames (matchkit.telemetry.pubg."
            "to_pubg_telemetry_frames, or PubgTelemetryFrames.concat of several), not "
            f"{type(telemetry).__name__}",
            parameter="telemetry",
        )
    tables = telemetry.tables
    frames = data

    def read(name: str, match_ids: Sequence[str], columns: Sequence[str] | None) -> pd.DataFrame:
        table = tables[name]
        rows = table[table["match_id"].isin(match_ids).to_numpy()]
        return rows if columns is None else rows[list(columns)]

    def read_tables(columns: Mapping[str, Sequence[str]]) -> dict[str, pd.DataFrame]:
        return {name: getattr(frames, name)[list(chosen)] for name, chosen in columns.items()}

    files = list(dict.fromkeys(telemetry.match_ids))
    return _restricted(data.matches, files, read, read_tables)


def _archive_inputs(archive: ArchiveTables, telemetry: object) -> PubgInputs:
    """The inputs of an archive: its match tables computed (the PUBG analyses are pandas code),
    and its PUBG telemetry tables read lazily, each for the columns and matches asked only."""
    if telemetry is not None:
        raise InvalidArgumentError(
            "telemetry: an archive's analyses read its own telemetry; pass the archive alone",
            parameter="telemetry",
        )
    (stored,) = collect(archive.matches)
    every = coerce_frame(stored.reset_index(drop=True), MATCH_TABLES["matches"])
    _require_pubg(every["game"])
    if archive.telemetry is None or (
        getattr(archive, "telemetry_format", None) != PUBG.telemetry_format
    ):
        raise InvalidArgumentError(
            "data: this archive holds no PUBG telemetry; sync it with telemetry "
            "(matchkit archive sync DIR --profile pubg --telemetry) to analyse it here",
            parameter="data",
        )
    rows = getattr(archive, "telemetry_rows", None)
    if not callable(rows):
        raise InvalidArgumentError(
            "data: an archive of PUBG matches must be a matchkit.archive.Archive "
            "(matchkit.archive.open(folder))",
            parameter="data",
        )
    (files,) = collect(rows("files", every, ["match_id"]))

    def read(name: str, match_ids: Sequence[str], columns: Sequence[str] | None) -> pd.DataFrame:
        matches = every[every["match_id"].isin(match_ids).to_numpy()]
        (table,) = collect(rows(name, matches, columns))
        table = table.reset_index(drop=True)
        if columns is None:
            return coerced_table(table, name)
        return coerced_columns(table, TELEMETRY_TABLES[name])

    def read_tables(columns: Mapping[str, Sequence[str]]) -> dict[str, pd.DataFrame]:
        stored = collect(
            *(getattr(archive, name)[list(chosen)] for name, chosen in columns.items())
        )
        return {
            name: _of_matches(table, every, MATCH_TABLES[name])
            for name, table in zip(columns, stored, strict=True)
        }

    return _restricted(every, list(dict.fromkeys(files["match_id"])), read, read_tables)


def _of_matches(table: pd.DataFrame, matches: pd.DataFrame, schema: TableSchema) -> pd.DataFrame:
    """Columns of an archive's table as :meth:`matchkit.archive.Archive.to_frames` gives them:
    the rows of its matches, with the dtypes of MatchFrames (an archive keeps categories as
    text; they become categories over those rows, as there)."""
    owned = table[table["match_id"].isin(matches["match_id"]).to_numpy()]
    return coerced_columns(owned.reset_index(drop=True), schema)


def _require_pubg(games: pd.Series) -> None:
    other = sorted(set(games.astype("string").fillna("(none)")) - {PUBG.game})
    if other:
        raise InvalidArgumentError(
            f"data holds matches of game {', '.join(other)}, not PUBG: the PUBG analyses read "
            "PUBG matches only; pass the MatchFrames of a PUBG client (profile='pubg'), or an "
            "archive of them",
            parameter="data",
        )


def coerced_columns(table: pd.DataFrame, schema: TableSchema) -> pd.DataFrame:
    """``table``, columns of the table ``schema`` in their order, with the dtypes the schema
    gives them (an archive stores categories as text)."""
    chosen = replace(schema, columns=tuple(c for c in schema.columns if c.name in table))
    return coerce_frame(table, chosen)[list(table.columns)]


def _restricted(
    every: pd.DataFrame, files: list[str], read: TelemetryReader, read_tables: TablesReader
) -> PubgInputs:
    known = set(every["match_id"])
    unknown = [match for match in files if match not in known]
    if unknown:
        raise InvalidArgumentError(
            f"telemetry holds {len(unknown)} match(es) data lacks (first: {unknown[0]}); pass "
            "the MatchFrames of every match whose telemetry you pass",
            parameter="telemetry",
        )
    with_files = every["match_id"].isin(set(files)).to_numpy()
    matches = every[with_files].reset_index(drop=True)
    excluded = {"matches without telemetry": int((~with_files).sum())}
    return PubgInputs(every, matches, excluded, read, read_tables)


def causer_labels(causers: pd.Series, names: Names | Mapping[str, Any] | None) -> pd.Series:
    """Each damage causer id's name (kind ``damage_causer``); an id without one stays the id."""
    return as_names(names, kind="damage_causer").label("damage_causer", causers)


def map_labels(maps: pd.Series, names: Names | Mapping[str, Any] | None) -> pd.Series:
    """Each map id's name (kind ``map``); an id without one stays the id."""
    return as_names(names, kind="map").label("map", maps)


def map_sizes(extra: Mapping[str, int] | None = None) -> dict[str, int]:
    """Map id -> its size in centimetres: PUBG's documented sizes
    (:data:`matchkit.telemetry.pubg.MAP_SIZES`), with ``extra`` over them (a map PUBG does
    not document, e.g. ``{"Neon_Main": 816_000}``).

    Raises:
        InvalidArgumentError: ``extra`` is not a mapping of map id -> a positive size.
    """
    sizes = dict(MAP_SIZES)
    if extra is None:
        return sizes
    if not isinstance(extra, Mapping) or not all(
        isinstance(size, int | float) and not isinstance(size, bool) and size > 0
        for size in extra.values()
    ):
        raise InvalidArgumentError(
            f"map_size={extra!r} must map a map id to its size in centimetres (> 0), e.g. "
            "{'Neon_Main': 816000}",
            parameter="map_size",
        )
    sizes.update({str(key): int(value) for key, value in extra.items()})
    return sizes
