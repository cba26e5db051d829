"""The client: :class:`Client` fetches match records, cached, paged and rate limited.

Its settings are one frozen value, ``client.settings`` (:class:`ClientSettings`);
:class:`RetryPolicy` says how often, and after how long, a request is tried again. The
warnings it gives, each a
:class:`matchkit.errors.MatchkitWarning` (filter them by class): :class:`RangeClampedWarning` when
a range was clamped to what the service keeps, :class:`ProvisionalRangeWarning` when it reaches
into the newest hours the service may still fill, :class:`ClockSkewWarning` when this machine's
clock and the service's differ, :class:`UnlistedValueWarning` for a filter value the interface
does not list, and :class:`PlayerNotFoundWarning` for a name or id :meth:`Client.players` found no
player for.
"""

from __future__ import annotations

from matchkit.client.client import Client
from matchkit.client.retrying import RetryPolicy
from matchkit.client.settings import ClientSettings
from matchkit.client.warnings import (
    ClockSkewWarning,
    PlayerNotFoundWarning,
    ProvisionalRangeWarning,
    RangeClampedWarning,
    UnlistedValueWarning,
)

__all__ = [
    "Client",
    "ClientSettings",
    "ClockSkewWarning",
    "PlayerNotFoundWarning",
    "ProvisionalRangeWarning",
    "RangeClampedWarning",
    "RetryPolicy",
    "UnlistedValueWarning",
]
