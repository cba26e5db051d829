"""The client: :class:`Client` fetches match records, cached, paged and rate limited.

The warnings it gives, each a :class:`matchkit.errors.MatchkitWarning` (filter them by class):
:class:`RangeClampedWarning` when a range was clamped to what the service keeps,
:class:`UnlistedValueWarning` for a filter value the interface does not list, and
:class:`PlayerNotFoundWarning` for a name or id :meth:`Client.players` found no player for.
:class:`RetryPolicy` says how often, and after how long, a request is tried again.
"""

from __future__ import annotations

from matchkit.client.client import Client
from matchkit.client.retrying import RetryPolicy
from matchkit.client.warnings import (
    PlayerNotFoundWarning,
    RangeClampedWarning,
    UnlistedValueWarning,
)

__all__ = [
    "Client",
    "PlayerNotFoundWarning",
    "RangeClampedWarning",
    "RetryPolicy",
    "UnlistedValueWarning",
]
