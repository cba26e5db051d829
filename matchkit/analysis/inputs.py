"""What every analysis and plot takes as its first parameter, ``data``, and the checks of it.

- :data:`TableSource`: MatchFrames (pandas, in memory) or an archive (lazy Dask tables): the
  analyses of matches give the same table from both.
- :data:`TelemetryTableSource`: TelemetryFrames or an archive synced with telemetry.

A function may take more than its source: a plot also takes the analysis table it draws, the
player analyses a sequence of MatchFrames; the source always comes first in its annotation.

The archive is an optional extra this package never imports (:mod:`matchkit.archive` needs
deltalake and dask): an archive is recognised by what it holds, its ``matches`` table being a
Dask DataFrame (:func:`is_archive`), and :class:`ArchiveTables` names what an analysis reads
of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeAlias, TypeGuard, runtime_checkable

from matchkit.analysis._engine import is_lazy
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.telemetry.frames import TelemetryFrames

__all__ = [
    "JOIN_KEYS",
    "ArchiveTables",
    "TableSource",
    "TelemetryTableSource",
    "checked_table_source",
    "is_archive",
    "require_match_frames",
    "text_as_categories",
]


@runtime_checkable
class ArchiveTables(Protocol):
    """What an analysis reads of an archive (:class:`matchkit.archive.Archive`): the tables of
    MatchFrames as lazy Dask DataFrames under the same names, and its telemetry."""

    @property
    def matches(self) -> Any:
        """One row per match (a Dask DataFrame)."""

    @property
    def rosters(self) -> Any:
        """One row per roster."""

    @property
    def participants(self) -> Any:
        """One row per participant."""

    @property
    def rounds(self) -> Any:
        """One row per round."""

    @property
    def players(self) -> Any:
        """Each player's latest snapshot."""

    @property
    def telemetry(self) -> Any:
        """The tables of TelemetryFrames as attributes (lazily), or ``None`` when the archive's
        syncs took no telemetry."""


TableSource: TypeAlias = MatchFrames | ArchiveTables
"""Where an analysis of matches reads its tables: MatchFrames or an archive."""

TelemetryTableSource: TypeAlias = TelemetryFrames | ArchiveTables
"""Where an analysis of telemetry reads its tables: TelemetryFrames or an archive."""


def is_archive(data: object) -> TypeGuard[ArchiveTables]:
    """True for an archive: an object whose ``matches`` table is a Dask DataFrame."""
    return is_lazy(getattr(data, "matches", None))


JOIN_KEYS = frozenset({"match_id", "roster_id"})
"""The ids the analyses join or place an archive's rows by: kept as text (matched by their
bytes), never read as categories."""


def text_as_categories(data: Any, columns: Iterable[str]) -> Any:
    """``data`` with its text ``columns`` read as categoricals when it is an archive that can
    (:meth:`matchkit.archive.Archive.with_categories`: for work done partition by partition),
    but for the ids of :data:`JOIN_KEYS`; any other source as it is."""
    categorized = getattr(data, "with_categories", None) if is_archive(data) else None
    if categorized is None:
        return data
    return categorized(*(name for name in columns if name not in JOIN_KEYS))


def checked_table_source(data: object) -> TableSource:
    """``data`` itself, when it is MatchFrames or an archive.

    Raises:
        InvalidArgumentError: it is neither.
    """
    if isinstance(data, MatchFrames) or is_archive(data):
        return data
    raise InvalidArgumentError(
        "data must be MatchFrames (from matchkit.to_frames or Client.matches) or an archive "
        f"(matchkit.archive.open), not {type(data).__name__}",
        parameter="data",
    )


def require_match_frames(data: object) -> None:
    """Raise unless ``data`` is MatchFrames, for what reads pandas tables only (the explorer).

    Raises:
        InvalidArgumentError: it is not (an archive: take the part to show with
            ``archive.to_frames(start, end)`` first).
    """
    if not isinstance(data, MatchFrames):
        raise InvalidArgumentError(
            "data must be MatchFrames (from matchkit.to_frames or Client.matches), not "
            f"{type(data).__name__}; of an archive, pass archive.to_frames(start, end)",
            parameter="data",
        )
