"""Synthetic archives: ``matchkit synth --archive DIR --matches N`` (and a day appended).

Each chunk of matches is drawn with numpy, vectorized, from the sample set's parameters
(:mod:`matchkit.sampledata.parameters`: server types and their shares, rosters and sizes, ranked
shares, the side advantage of each Arena mode played as first-to-3 rounds, triangular round and
match durations, regions, the daily cycle, patches every few weeks, character popularity, slot
kinds, team shares, skewed player activity), with their telemetry when asked, and committed as
one batch through the archive's writer. Tables hold the known columns of MatchFrames (no extra
columns such as participants' damage stats); spectators is empty. The player pool grows with N
(the sample's 3,000 players per 4,200 matches, at least 3,000).

It needs the archive's optional extra (``matchkit[archive]``), as :mod:`matchkit.archive` does.
"""

from __future__ import annotations

from matchkit.synth.archive.writer import (
    BUCKET_MATCHES,
    CHUNK,
    TELEMETRY_CHUNK,
    append_synthetic,
    write_synthetic_archive,
)

__all__ = [
    "BUCKET_MATCHES",
    "CHUNK",
    "TELEMETRY_CHUNK",
    "append_synthetic",
    "write_synthetic_archive",
]
