"""Match telemetry: each match's event log as typed tables (TelemetryFrames).

:func:`to_telemetry_frames` turns telemetry you already have (files, bytes, text, parsed lists)
into :class:`TelemetryFrames`, as :func:`matchkit.to_frames` does for match documents;
:meth:`matchkit.Client.telemetry` downloads it first (no API key, cached forever). The format is
in ``docs/telemetry-format.md``; the tables in ``docs/telemetry.md``. PUBG's telemetry is read
by :mod:`matchkit.telemetry.pubg` into :class:`PubgTelemetryFrames` (``docs/telemetry-pubg.md``);
:func:`to_telemetry_frames` chooses that reader for a PUBG file, by the file's shape.

Example:
    >>> from matchkit.telemetry import to_telemetry_frames  # doctest: +SKIP
    >>> telemetry = to_telemetry_frames({"4810AA4C...": "telemetry.json"})  # doctest: +SKIP
    >>> telemetry.round_player_stats.groupby("round")["damage_done"].sum()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from matchkit.lazy import lazy_getattr
from matchkit.telemetry.build import build_tables
from matchkit.telemetry.frames import TelemetryFrames
from matchkit.telemetry.parse import TelemetrySource, iter_sources
from matchkit.telemetry.shape import PUBG_EVENTS, first_source, telemetry_shape

if TYPE_CHECKING:
    from matchkit.telemetry.pubg import PubgTelemetryFrames, to_pubg_telemetry_frames

__all__ = [
    "PubgTelemetryFrames",
    "TelemetryFrames",
    "TelemetrySource",
    "to_pubg_telemetry_frames",
    "to_telemetry_frames",
]

# PUBG's reader loads on first use (a Battlerite user does not pay for its declarations).
__getattr__ = lazy_getattr(
    __name__, {"matchkit.telemetry.pubg": ("PubgTelemetryFrames", "to_pubg_telemetry_frames")}
)


def to_telemetry_frames(
    telemetry: TelemetrySource | Sequence[TelemetrySource] | Mapping[str, TelemetrySource],
    *,
    match_ids: Sequence[str] | None = None,
) -> TelemetryFrames | PubgTelemetryFrames:
    """Turn telemetry files into TelemetryFrames (PubgTelemetryFrames for PUBG files).

    The reader is chosen by the first file's own shape
    (:func:`matchkit.telemetry.shape.telemetry_shape`): PUBG's events keyed by ``_T`` and ``_D``
    go to :func:`matchkit.telemetry.pubg.to_pubg_telemetry_frames` (with its defaults: no
    check against a match, the 2 GiB cap), any other file to the Gamelocker reader.

    Args:
        telemetry: one file (a path, its bytes, its JSON text, or its parsed list of events), a
            sequence of them, or a mapping ``{match_id: file}``.
        match_ids: the match of each file of a sequence, in order; by default each file's own
            (its MatchStart's ``matchID``).

    Returns:
        The tables, events in cursor order within each match, matches in input order; for
        PUBG files, PubgTelemetryFrames (events in file order).

    Raises:
        DocumentError: a file is broken (not JSON, not a list of ``{cursor, type, dataObject}``,
            duplicate cursors, events of another match); the message names the match.
        InvalidArgumentError: the input is none of the above, or a match is given twice.
    """
    if telemetry_shape(first_source(telemetry)) == PUBG_EVENTS:
        from matchkit.telemetry.pubg import to_pubg_telemetry_frames

        return to_pubg_telemetry_frames(telemetry, match_ids=match_ids)
    # A file at a time: each one's decoded events go once they are columns.
    tables, problems = build_tables(iter_sources(telemetry, match_ids=match_ids))
    return TelemetryFrames(**tables, problems=tuple(problems))
