"""The PUBG double: a reference service that speaks PUBG's developer API (decision 21).

It serves the deterministic PUBG sample set (:mod:`matchkit.sampledata.pubg`) by the PUBG
profile's rules (:data:`matchkit.rules.profiles.PUBG`): ``/status``, players, samples, seasons
and matches on the platform shards; on a second host, the telemetry files and the set's
dictionaries of names (as PUBG publishes its own in ``api-assets``). Start it with
``matchkit serve --profile pubg``, ``matchkit.service.running(profile="pubg")`` or
``create_app(profile="pubg")``.

- :mod:`.app`: the ASGI app and each request's checks; :mod:`.handlers`: the endpoints;
- :mod:`.bodies`: PUBG's error bodies, the status, the ``Date`` header;
- :mod:`.cdn`: the second host (telemetry, names); :mod:`.server`: both on loopback listeners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matchkit.lazy import lazy_getattr

__all__ = ["create_app", "create_telemetry_app", "running", "serve"]

if TYPE_CHECKING:
    from matchkit.service.pubg.app import create_app
    from matchkit.service.pubg.cdn import create_telemetry_app
    from matchkit.service.pubg.server import running, serve

__getattr__ = lazy_getattr(
    __name__,
    {
        "matchkit.service.pubg.app": ("create_app",),
        "matchkit.service.pubg.cdn": ("create_telemetry_app",),
        "matchkit.service.pubg.server": ("running", "serve"),
    },
)
