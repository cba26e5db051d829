"""Which file to download for which match: the telemetry asset of each match.

:func:`telemetry_requests` reads it from MatchFrames; the client downloads the files
(:func:`matchkit.client.downloads.fetch_telemetry`, what :meth:`matchkit.Client.telemetry` runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matchkit.errors import DocumentError
from matchkit.telemetry.download import OnError, TelemetryRequest

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["TELEMETRY_ASSET", "telemetry_requests"]

TELEMETRY_ASSET = "telemetry"


def telemetry_requests(
    frames: MatchFrames, *, on_error: OnError = "raise"
) -> tuple[list[TelemetryRequest], list[str]]:
    """The telemetry file of every match of ``frames``, in match order.

    Returns:
        The requests, and the problems (matches without a telemetry asset, when skipping).

    Raises:
        DocumentError: a match has no telemetry asset, or two different ones (``on_error=
            "raise"``).
    """
    assets = frames.assets
    named = assets[assets["name"].astype("string").str.lower().eq(TELEMETRY_ASSET).fillna(False)]
    urls: dict[str, list[str]] = {}
    for match_id, url in zip(named["match_id"].tolist(), named["url"].tolist(), strict=True):
        if isinstance(url, str) and url:
            urls.setdefault(match_id, []).append(url)
    requests_: list[TelemetryRequest] = []
    problems: list[str] = []
    for match_id in frames.matches["match_id"].tolist():
        found = sorted(set(urls.get(match_id, ())))
        if len(found) == 1:
            requests_.append(TelemetryRequest(match_id, found[0]))
            continue
        reason = (
            "has no telemetry asset with a URL (na and some older matches have none)"
            if not found
            else f"has {len(found)} different telemetry assets: {found}"
        )
        if on_error == "raise":
            raise DocumentError(f"match {match_id} {reason}; pass on_error='skip' to leave it out")
        problems.append(f"telemetry of match {match_id} skipped: the match {reason}")
    return requests_, problems
