"""The telemetry of the sample set's matches: one event log per match, rendered from its document.

The reference service renders each file on request (:mod:`matchkit.service.telemetry`); the
match generator (:mod:`matchkit.synth`) never writes one. The renderer is in :mod:`.render`,
what it reads of a match document in :mod:`.match`, each character's vocabulary in
:mod:`.catalogue`, the players' behaviour in :mod:`.players`, the split of a match's stats into
rounds in :mod:`.split` and every number of the model in :mod:`.parameters`.
"""

from __future__ import annotations

from matchkit.sampledata.telemetry.render import (
    ASSET_URL_PREFIX,
    SERVICE_PATH_PREFIX,
    telemetry_bytes,
    telemetry_events,
)

__all__ = [
    "ASSET_URL_PREFIX",
    "SERVICE_PATH_PREFIX",
    "telemetry_bytes",
    "telemetry_events",
]
