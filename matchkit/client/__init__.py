"""The client: :class:`Client` fetches match records, cached, paged and rate limited.

The warnings it gives (filter them by class): :class:`RangeClampedWarning` when a range was
clamped to what the service keeps, :class:`UnlistedValueWarning` for a filter value the interface
does not list.
"""

from __future__ import annotations

from matchkit.client.client import Client
from matchkit.client.warnings import RangeClampedWarning, UnlistedValueWarning

__all__ = ["Client", "RangeClampedWarning", "UnlistedValueWarning"]
