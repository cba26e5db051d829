"""The client: :class:`Client` fetches match records, cached, paged and rate limited.

Its settings are one frozen value, ``client.settings`` (:class:`ClientSettings`). The warnings it
gives (filter them by class): :class:`RangeClampedWarning` when a range was clamped to what the
service keeps, :class:`ProvisionalRangeWarning` when it reaches into the newest hours the
service may still fill, :class:`ClockSkewWarning` when this machine's clock and the service's
differ, :class:`UnlistedValueWarning` for a filter value the interface does not list.
"""

from __future__ import annotations

from matchkit.client.client import Client
from matchkit.client.settings import ClientSettings
from matchkit.client.warnings import (
    ClockSkewWarning,
    ProvisionalRangeWarning,
    RangeClampedWarning,
    UnlistedValueWarning,
)

__all__ = [
    "Client",
    "ClientSettings",
    "ClockSkewWarning",
    "ProvisionalRangeWarning",
    "RangeClampedWarning",
    "UnlistedValueWarning",
]
