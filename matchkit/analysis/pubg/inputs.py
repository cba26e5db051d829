"""What every PUBG analysis takes: MatchFrames of PUBG matches and their telemetry, checked
together, or an archive of them; the names of damage causers and maps; each map's size.

The telemetry is one :class:`matchkit.telemetry.pubg.PubgTelemetryFrames` (of one match or
many; combine several with :meth:`PubgTelemetryFrames.concat`). The MatchFrames give what the
files do not say with authority: the rosters' ranks, the game mode, the map of each match.

An archive synced with telemetry (``matchkit archive sync DIR --profile pubg --telemetry``)
is passed alone: its match tables are computed whole (PUBG's are small beside its
telemetry), and each telemetry table an analysis reads is computed for the matches it asks
for only (one match's for :func:`matchkit.plots.plot_match_map`), never the whole archive's
telemetry at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import pandas as pd

from matchkit.analysis.inputs import ArchiveTables, is_archive
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.model.schema import coerce_frame
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


@dataclass(frozen=True)
class PubgInputs:
    """MatchFrames and telemetry restricted to the matches both hold.

    Attributes:
        frames: the MatchFrames given (of an archive: its tables, computed).
        matches: the rows of ``frames.matches`` of the matches with telemetry.
        excluded: what was left out, and why (for ``result.attrs["excluded"]``).
        read: reads a telemetry table's columns by name for some matches (:meth:`table`
            calls it).
    """

    frames: MatchFrames
    matches: pd.DataFrame
    excluded: dict[str, int]
    read: TelemetryReader = field(repr=False)

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

    def read(name: str, match_ids: Sequence[str], columns: Sequence[str] | None) -> pd.DataFrame:
        table = tables[name]
        rows = table[table["match_id"].isin(match_ids).to_numpy()]
        return rows if columns is None else rows[list(columns)]

    return _restricted(data, list(dict.fromkeys(telemetry.match_ids)), read)


def _archive_inputs(archive: ArchiveTables, telemetry: object) -> PubgInputs:
    """The inputs of an archive: its match tables computed (the PUBG analyses are pandas code),
    and its PUBG telemetry tables read lazily, each for the columns and matches asked only."""
    if telemetry is not None:
        raise InvalidArgumentError(
            "telemetry: an archive's analyses read its own telemetry; pass the archive alone",
            parameter="telemetry",
        )
    _require_pubg(archive.matches["game"].unique().compute())
    lazy = archive.telemetry
    if lazy is None or getattr(archive, "telemetry_format", None) != PUBG.telemetry_format:
        raise InvalidArgumentError(
            "data: this archive holds no PUBG telemetry; sync it with telemetry "
            "(matchkit archive sync DIR --profile pubg --telemetry) to analyse it here",
            parameter="data",
        )
    to_frames = getattr(archive, "to_frames", None)
    rows = getattr(archive, "telemetry_rows", None)
    if not callable(to_frames) or not callable(rows):
        raise InvalidArgumentError(
            "data: an archive of PUBG matches must be a matchkit.archive.Archive "
            "(matchkit.archive.open(folder))",
            parameter="data",
        )
    frames = to_frames()
    files = rows("files", frames.matches, ["match_id"]).compute()["match_id"]

    def read(name: str, match_ids: Sequence[str], columns: Sequence[str] | None) -> pd.DataFrame:
        matches = frames.matches[frames.matches["match_id"].isin(match_ids).to_numpy()]
        table = rows(name, matches, columns).compute().reset_index(drop=True)
        return coerced_table(table, name) if columns is None else coerced_columns(table, name)

    return _restricted(frames, list(dict.fromkeys(files)), read)


def _require_pubg(games: pd.Series) -> None:
    other = sorted(set(games.astype("string").fillna("(none)")) - {PUBG.game})
    if other:
        raise InvalidArgumentError(
            f"data holds matches of game {', '.join(other)}, not PUBG: the PUBG analyses read "
            "PUBG matches only; pass the MatchFrames of a PUBG client (profile='pubg'), or an "
            "archive of them",
            parameter="data",
        )


def coerced_columns(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """The columns of the telemetry table ``name`` that ``table`` holds, in its order, with the
    dtypes PubgTelemetryFrames gives them (an archive stores categories as text)."""
    schema = TELEMETRY_TABLES[name]
    chosen = replace(schema, columns=tuple(c for c in schema.columns if c.name in table))
    return coerce_frame(table, chosen)[list(table.columns)]


def _restricted(frames: MatchFrames, files: list[str], read: TelemetryReader) -> PubgInputs:
    known = set(frames.matches["match_id"])
    unknown = [match for match in files if match not in known]
    if unknown:
        raise InvalidArgumentError(
            f"telemetry holds {len(unknown)} match(es) data lacks (first: {unknown[0]}); pass "
            "the MatchFrames of every match whose telemetry you pass",
            parameter="telemetry",
        )
    with_files = frames.matches["match_id"].isin(set(files)).to_numpy()
    matches = frames.matches[with_files].reset_index(drop=True)
    excluded = {"matches without telemetry": int((~with_files).sum())}
    return PubgInputs(frames, matches, excluded, read)


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
