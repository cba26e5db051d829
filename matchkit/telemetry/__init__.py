"""Match telemetry: each match's event log as typed tables (TelemetryFrames).

:func:`to_telemetry_frames` turns telemetry you already have (files, bytes, text, parsed lists)
into :class:`TelemetryFrames`, as :func:`matchkit.to_frames` does for match documents;
:meth:`matchkit.Client.telemetry` downloads it first (no API key, cached forever). The format is
in ``docs/telemetry-format.md``; the tables in ``docs/telemetry.md``.

Example:
    >>> from matchkit.telemetry import to_telemetry_frames  # doctest: +SKIP
    >>> telemetry = to_telemetry_frames({"4810AA4C...": "telemetry.json"})  # doctest: +SKIP
    >>> telemetry.round_player_stats.groupby("round")["damage_done"].sum()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matchkit.telemetry.build import build_tables
from matchkit.telemetry.frames import TelemetryFrames
from matchkit.telemetry.parse import TelemetrySource, iter_sources

__all__ = ["TelemetryFrames", "TelemetrySource", "to_telemetry_frames"]


def to_telemetry_frames(
    telemetry: TelemetrySource | Sequence[TelemetrySource] | Mapping[str, TelemetrySource],
    *,
    match_ids: Sequence[str] | None = None,
) -> TelemetryFrames:
    """Turn telemetry files into TelemetryFrames.

    Args:
        telemetry: one file (a path, its bytes, its JSON text, or its parsed list of events), a
            sequence of them, or a mapping ``{match_id: file}``.
        match_ids: the match of each file of a sequence, in order; by default each file's own
            (its MatchStart's ``matchID``).

    Returns:
        The tables, events in cursor order within each match, matches in input order.

    Raises:
        DocumentError: a file is broken (not JSON, not a list of ``{cursor, type, dataObject}``,
            duplicate cursors, events of another match); the message names the match.
        InvalidArgumentError: the input is none of the above, or a match is given twice.
    """
    # A file at a time: each one's decoded events go once they are columns.
    tables, problems = build_tables(iter_sources(telemetry, match_ids=match_ids))
    return TelemetryFrames(**tables, problems=tuple(problems))
