"""Analyses of match telemetry: rates per minute, battlerite picks and wins, queue times, the
round a match is decided in.

Pandas on :class:`matchkit.telemetry.TelemetryFrames`, or on an archive's telemetry (the same
pandas code runs on each partition in the Dask workers, and its small results are combined);
nothing here touches HTTP. Every function returns a tidy DataFrame with counts (``n``,
``players``, ``matches``) beside each estimate and its interval; what was left out, and why, is
in ``result.attrs["excluded"]``.
Characters and battlerites are the wire's integer ids; ``character_name`` and
``battlerite_name`` come from ``names=`` (:class:`matchkit.names.Names`, e.g.
``client.names()`` or ``sample_names()``, or a mapping of actor id -> name), and
an id without a name, or every id when ``names`` is None, is shown as the id.

- :mod:`matchkit.analysis.telemetry.rates`: per-round stats per minute alive;
- :mod:`matchkit.analysis.telemetry.battlerites`: battlerite picks and the wins that go with them;
- :mod:`matchkit.analysis.telemetry.queues`: time in queue;
- :mod:`matchkit.analysis.telemetry.rounds`: the round a match is decided in;
- :mod:`matchkit.analysis.telemetry.labels`: the names of characters and battlerites.

Example:
    >>> per_minute_rates(telemetry, by=["character"])  # doctest: +SKIP
"""

from __future__ import annotations

from matchkit.analysis.telemetry.battlerites import battlerite_win_rates
from matchkit.analysis.telemetry.labels import battlerite_labels, character_labels
from matchkit.analysis.telemetry.queues import queue_times
from matchkit.analysis.telemetry.rates import RATE_STATS, per_minute_rates
from matchkit.analysis.telemetry.rounds import deciding_rounds, match_deciding_rounds

__all__ = [
    "RATE_STATS",
    "battlerite_labels",
    "battlerite_win_rates",
    "character_labels",
    "deciding_rounds",
    "match_deciding_rounds",
    "per_minute_rates",
    "queue_times",
]
